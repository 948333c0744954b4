// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `ops_server`: the scheduler's operations endpoints on one HTTP server —
///
///   /metrics         Prometheus text format (providers.metrics)
///   /healthz /livez  liveness checks      ("ok" or 500 with the failures)
///   /readyz          readiness checks     (same format)
///   /{livez,readyz,healthz}/<check>  one check
///   /configz         effective configuration JSON (providers.configz)
///
/// The health endpoints follow Kubernetes' healthz conventions: 200 "ok"
/// when every check passes; otherwise 500 listing each check as `[+]name
/// ok` / `[-]name failed: reason withheld`; `?verbose` lists them on
/// success too and `?exclude=name` skips one. It serves a plain port and/or
/// a TLS port on one address; the TLS port uses the given certificate
/// files or, without them, a self-signed certificate made at start.
///
/// With a `delegated_auth`, the TLS port authenticates and authorizes every
/// request as kube-scheduler's secure port does (see delegated_auth.hpp):
/// it asks for a client certificate when a client CA is set, and runs the
/// reviews on threads of their own, so a slow API server delays only the
/// requests that wait for it. The plain port, like kube-scheduler's former
/// insecure port, serves without authentication and authorization.
#pragma once

#include "io/accept_guard.hpp"
#include "io/serving/delegated_auth.hpp"
#include "support/error.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::serving {

/// Port value asking the server to pick a free port (tests).
inline constexpr int any_port = -1;

struct ops_server_config {
  std::string bind_address = "0.0.0.0";
  /// HTTPS port; 0 = off, any_port = a free one.
  int secure_port = 10259;
  /// Plain HTTP port; 0 = off, any_port = a free one.
  int port = 0;
  /// PEM files for the TLS port; both or neither.
  std::string tls_cert_file;
  std::string tls_private_key_file;
  /// Connection limit (by default a quarter of the descriptor limit) and
  /// the backoff after failed accepts, shared by both ports.
  io::accept_limits limits;
  /// Checks of the TLS port; null = none (every request is served).
  std::shared_ptr<delegated_auth> auth;
  /// Threads that wait for reviews (at most this many at once; later
  /// requests needing one queue).
  int review_threads = 4;
};

/// A named health check: returns "" when healthy, else why not (logged;
/// the response only says "reason withheld", as upstream).
struct health_check {
  std::string name;
  std::function<std::string()> check;
};

/// What the endpoints report; every function is called on the server's
/// I/O thread and must be thread-safe.
struct ops_providers {
  /// The text exposition; null = /metrics answers 404.
  std::function<std::string()> metrics;
  /// The effective configuration as JSON; null = /configz answers 404.
  std::function<std::string()> configz;
  /// /livez and /healthz.
  std::vector<health_check> livez;
  /// /readyz.
  std::vector<health_check> readyz;
};

/// One response, before it goes on the wire.
struct ops_reply {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

/// Answers one request (method, origin-form target); what the server runs
/// for every request, callable without sockets.
ops_reply route(const ops_providers& providers, std::string_view method,
                std::string_view target);

class ops_server {
public:
  /// Binds the configured ports, starts one I/O thread and returns. Errors
  /// (ec::invalid_input / ec::unavailable) name the flag or file at fault.
  [[nodiscard]] static expected<std::unique_ptr<ops_server>>
  start(ops_server_config config, ops_providers providers);
  ~ops_server();
  ops_server(const ops_server&) = delete;
  ops_server& operator=(const ops_server&) = delete;

  /// The bound plain port (0 when off).
  std::uint16_t port() const noexcept;
  /// The bound TLS port (0 when off).
  std::uint16_t secure_port() const noexcept;
  /// The TLS certificate in use (PEM; empty when the TLS port is off).
  const std::string& certificate_pem() const noexcept;
  /// Closes the listeners and connections and joins the thread.
  /// Idempotent.
  void stop();

  /// Open connections, the limit and accept failures.
  const io::accept_guard& accepts() const noexcept;

  struct impl;

private:
  explicit ops_server(std::unique_ptr<impl> i);
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::serving
