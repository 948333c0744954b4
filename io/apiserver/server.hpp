// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `api_server`: the embedded API server's HTTP/1.1 front end (an
/// `io::http_server`, plain or TLS), serving an `api_handler` over a `store`.
/// Keep-alive connections run as coroutines on a small pool of I/O threads; a
/// watch reply streams chunked JSON lines: every pending event's shared
/// serialized bytes are framed into one chunk and sent with one socket write,
/// and ends at its timeout (with a last bookmark when allowed), when the client
/// goes away, or when its watcher is dropped. Request bodies are limited;
/// malformed HTTP gets a 400 and a closed connection. Fault injection for
/// reliability tests: added latency, periodic dropping of watch
/// connections, periodic history compaction.
#pragma once

#include "io/accept_guard.hpp"
#include "io/apiserver/handler.hpp"
#include "io/apiserver/store.hpp"
#include "support/error.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace tessera::apiserver {

struct server_config {
  std::string bind_address = "127.0.0.1";
  /// 0 picks a free port (see api_server::port()).
  std::uint16_t port = 6443;
  /// PEM files; both set = HTTPS.
  std::string tls_cert_file;
  std::string tls_key_file;
  /// PEM CA bundle; when set (with TLS), clients must present a
  /// certificate it signed (mutual TLS).
  std::string tls_client_ca_file;
  /// I/O threads.
  int threads = 2;
  /// Largest accepted request body (kube-apiserver: 3 MiB).
  std::size_t body_limit = 3 * 1024 * 1024;
  /// A keep-alive connection idle this long is closed.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(120)};
  /// While a watch stream is busy, events of this window go out in one
  /// write (bounded extra latency, far fewer wake-ups); 0 disables.
  std::chrono::microseconds watch_linger{500};
  /// A watch write blocked this long ends the watch.
  std::chrono::milliseconds write_timeout{std::chrono::seconds(60)};
  /// Connection limit (by default most of the descriptor limit, leaving
  /// room for the process's own files) and the backoff after failed
  /// accepts.
  io::accept_limits limits{.fd_share_percent = 80};
  /// Handler settings (token, bookmarks, timeouts, version).
  handler_config handler;
  /// Run a `namespace_controller`, which finishes namespace deletions.
  bool namespace_controller = true;
  /// Run a `workload_controller` (replica sets, deployments, jobs, daemon
  /// sets, stateful sets and the garbage collection of their dependents).
  bool workload_controller = true;

  /// Fault injection: latency added before every request is handled.
  std::chrono::milliseconds fault_latency{0};
  /// Fault injection: abort every open watch connection this often.
  std::chrono::milliseconds fault_drop_watches_every{0};
  /// Fault injection: drop the whole watch history this often (410s).
  std::chrono::milliseconds fault_compact_every{0};
};

class api_server {
public:
  /// Binds, starts the I/O threads and returns. Errors: bad address, port
  /// in use, unreadable certificate or key.
  [[nodiscard]] static expected<std::unique_ptr<api_server>>
  start(store& s, server_config config);
  /// Stops (see stop()).
  ~api_server();
  api_server(const api_server&) = delete;
  api_server& operator=(const api_server&) = delete;

  /// The bound port.
  std::uint16_t port() const noexcept;
  /// `http://127.0.0.1:PORT` (https with TLS).
  std::string url() const;
  /// Ends every watch stream, closes the listener and every connection, and
  /// joins the I/O threads. Idempotent.
  void stop();
  /// The REST handler (for its counters).
  const api_handler& handler() const noexcept;

  /// Open connections, the limit and accept failures.
  const io::accept_guard& accepts() const noexcept;

  struct impl;

private:
  explicit api_server(std::unique_ptr<impl> i);
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::apiserver
