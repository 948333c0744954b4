// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `http_client`: tessera's HTTP/1.1 client for Kubernetes API servers —
/// one keep-alive connection per client, blocking calls with deadlines,
/// optional TLS (server verification against a CA or skipped, SNI, client
/// certificates) and a bearer token. `stream()` opens a long-running
/// response (a watch) on a connection of its own and hands back a
/// `line_stream` that decodes the (chunked) body incrementally, line by
/// line, never buffering more than one partial line.
///
/// Threading: a client and each stream belong to one thread at a time; the
/// only calls allowed from other threads are `cancel()`, which aborts the
/// blocking call in progress. Every call returns an error instead of
/// throwing. Kubeconfig handling, rate limiting and reflectors build on
/// this.
#pragma once

#include "support/error.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::io {

struct tls_options {
  bool enabled = false;
  /// PEM CA bundle for server verification; empty = the system's CAs.
  std::string ca_pem;
  /// Do not verify the server certificate (insecure-skip-tls-verify).
  bool insecure_skip_verify = false;
  /// Name to verify and send as SNI; empty = the host.
  std::string server_name;
  /// Client certificate chain and private key (PEM) for mutual TLS.
  std::string client_cert_pem;
  std::string client_key_pem;
};

struct client_config {
  std::string host = "127.0.0.1";
  std::uint16_t port = 6443;
  tls_options tls;
  /// Sent as `Authorization: Bearer <token>` when not empty.
  std::string bearer_token;
  std::string user_agent = "tessera";
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(5)};
  /// Deadline of one request/response exchange.
  std::chrono::milliseconds request_timeout{std::chrono::seconds(60)};
  /// Largest response body accepted by `request()`.
  std::size_t body_limit = std::size_t{1} << 30;
};

/// The parts of a server URL (`https://10.0.0.1:6443`).
struct server_url {
  std::string host;
  std::uint16_t port = 0;
  bool tls = false;
};

/// Parses `http[s]://host[:port][/]`; IPv6 hosts in brackets. The default
/// ports are 80 and 443.
[[nodiscard]] expected<server_url> parse_server_url(std::string_view url);

struct http_header {
  std::string name;
  std::string value;
};

struct http_request {
  std::string method = "GET";
  /// Origin-form target, e.g. `/api/v1/pods?limit=500`.
  std::string target;
  std::string body;
  /// Content-Type of the body (omitted when empty).
  std::string content_type;
  std::string accept = "application/json";
  std::vector<http_header> headers;
};

struct http_response {
  int status = 0;
  std::string content_type;
  std::string body;
  std::vector<http_header> headers;

  /// The first header with this name (case-insensitive), or nullptr.
  const std::string* header(std::string_view name) const;
};

class line_stream;

class http_client {
public:
  explicit http_client(client_config config);
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// Sends one request on the keep-alive connection and reads the whole
  /// response. Connects on first use; when a reused idle connection turns
  /// out closed by the server before any response byte, reconnects once.
  [[nodiscard]] expected<http_response> request(const http_request& r);

  [[nodiscard]] expected<http_response> get(std::string target);
  [[nodiscard]] expected<http_response>
  post(std::string target, std::string body,
       std::string content_type = "application/json");
  [[nodiscard]] expected<http_response>
  put(std::string target, std::string body,
      std::string content_type = "application/json");
  [[nodiscard]] expected<http_response>
  patch(std::string target, std::string body, std::string content_type);
  [[nodiscard]] expected<http_response> del(std::string target,
                                            std::string body = {});

  /// Opens a streamed response on a new connection; returns once the status
  /// line and headers arrived (within request_timeout).
  [[nodiscard]] expected<std::unique_ptr<line_stream>>
  stream(const http_request& r);

  /// Aborts the blocking call in progress (from any thread), including a
  /// `stream()` still waiting for its response header; the connection is
  /// closed and the next call reconnects.
  void cancel();

  const client_config& config() const noexcept;

  struct connection;

private:
  expected<http_response> request_unguarded(const http_request& r);
  expected<std::unique_ptr<line_stream>>
  stream_unguarded(const http_request& r);

  client_config config_;
  std::unique_ptr<connection> conn_;
  /// The connection of a stream() being opened, for cancel().
  std::mutex opening_mutex_;
  connection* opening_ = nullptr;
};

/// A response body read line by line (see http_client::stream).
class line_stream {
public:
  ~line_stream();
  line_stream(const line_stream&) = delete;
  line_stream& operator=(const line_stream&) = delete;

  int status() const noexcept;
  const std::vector<http_header>& headers() const noexcept;

  /// The next line without its '\n'. nullopt at the clean end of the body.
  /// ec::timeout when no full line arrived within `timeout`; the stream
  /// stays usable and a later call continues where this one stopped. Any
  /// other error ends the stream.
  [[nodiscard]] expected<std::optional<std::string>>
  next_line(std::chrono::milliseconds timeout);
  /// Everything left of the body (for error responses).
  [[nodiscard]] expected<std::string>
  read_all(std::chrono::milliseconds timeout);
  /// Aborts a blocked next_line() from another thread and closes.
  void cancel();

private:
  friend class http_client;
  line_stream();
  struct state;
  std::unique_ptr<state> state_;
};

} // namespace tessera::io
