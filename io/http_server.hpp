// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `http_server`: the HTTP/1.1 server both of tessera's servers run on (the
/// embedded API server and the ops server). It owns the sockets: listeners
/// (plain or TLS), the accept loop under an `accept_guard`, the TLS
/// handshake, keep-alive sessions as coroutines on a pool of I/O threads,
/// request reading with limits and timeouts, response writing, and chunked
/// streams. What a request means is the `http_handler`'s business; it sees a
/// parsed request and returns an `server_reply`, so nothing of Boost
/// appears here.
///
///   accept ──> (TLS handshake) ──> read request ──> handler ──> write ──┐
///                                      ^   malformed: reject, close     │
///                                      └──────── keep-alive ────────────┤
///                                        stream: chunks until it ends, close
#pragma once

#include "io/accept_guard.hpp"
#include "support/error.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::io {

/// The client certificate of a finished TLS handshake.
struct peer_certificate {
  bool presented = false;
  /// The chain verified against the client CA (for client auth).
  bool verified = false;
  /// Why not, when presented and not verified.
  std::string problem;
  std::string common_name;
  std::vector<std::string> organizations;
};

/// One request, valid until its response is written.
struct incoming_request {
  std::string_view method;
  /// Origin-form target: path and query.
  std::string_view target;
  std::string_view content_type;
  std::string_view accept;
  std::string_view authorization;
  std::string_view user_agent;
  std::string_view body;
  /// "address:port" of the client (for logs).
  std::string_view peer;
  bool keep_alive = true;
  /// The client's certificate on a TLS connection; null on a plain one.
  const peer_certificate* tls = nullptr;
};

/// A response body sent as HTTP chunks while it lasts (a watch). The server
/// drives it on the connection's I/O thread: it calls `next()`, acts on the
/// step, and calls `next()` again, until `end` or `abort`.
class http_stream {
public:
  using clock = std::chrono::steady_clock;

  /// What the server does after `next()`.
  struct step {
    enum class kind {
      /// Send what `next()` appended as one chunk (nothing when empty).
      write,
      /// Wait until `until`, or until the client goes away; wake-ups do
      /// not shorten it.
      sleep,
      /// Wait until `until` or a wake-up (none when one is already due).
      wait,
      /// Send the last chunk and close.
      end,
      /// Close without the last chunk.
      abort,
    };
    kind what = kind::end;
    clock::time_point until{};
  };

  virtual ~http_stream() = default;
  /// Called once before the first `next()`: `wake` (thread-safe) makes a
  /// waiting stream call `next()` again.
  virtual void start(std::function<void()> wake) = 0;
  /// The next step; for `write`, appends the payload to `out` (reserving
  /// two more bytes for the chunk's end avoids a reallocation).
  /// `client_gone`: the client closed the connection.
  virtual step next(std::string& out, bool client_gone) = 0;
  /// The stream is over (ended, aborted or the connection failed).
  virtual void stop() = 0;
};

/// Whether the peer of the connected socket `fd` closed it, reset it or sent
/// bytes, without taking any: what a readable socket means while a stream
/// is sent. False when nothing is there yet (a readiness report was stale).
bool peer_left(int fd) noexcept;

struct server_reply;

/// Makes the final response on the I/O thread, after work done elsewhere.
using reply_maker = std::function<server_reply()>;

/// One response, before it goes on the wire.
struct server_reply {
  int status = 200;
  std::string content_type;
  /// Sent after Content-Type and Cache-Control.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// When set, the body is this stream (chunked) and the connection is not
  /// reused; `body` is unused.
  std::shared_ptr<http_stream> stream;
  /// When set, the answer comes later: the server calls this with a
  /// function that, called once from any thread, hands it the `reply_maker`
  /// to run on the I/O thread. The rest of this response is unused.
  std::function<void(std::function<void(reply_maker)>)> deferred;
};

/// What a server answers; called on the I/O threads, so thread-safe.
class http_handler {
public:
  virtual ~http_handler() = default;
  /// Answers one request.
  virtual server_reply handle(const incoming_request& req) = 0;
  /// The answer to a request that could not be read (`too_large`: the body
  /// passed the limit; `why` says what went wrong otherwise); none closes
  /// the connection without one.
  virtual std::optional<server_reply> reject(bool too_large,
                                             std::string_view why) {
    (void)too_large;
    (void)why;
    return std::nullopt;
  }
};

struct http_server_config {
  /// Names the server in logs and in its accept guard.
  std::string name;
  /// Connection limit and accept backoff.
  accept_limits limits;
  /// I/O threads.
  int threads = 1;
  std::size_t body_limit = 64 * 1024;
  std::size_t header_limit = 16 * 1024;
  /// Waiting for a request (or its body) longer than this closes the
  /// connection.
  std::chrono::milliseconds read_timeout{std::chrono::seconds(30)};
  /// A write blocked this long closes the connection.
  std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};
  /// Read the header first and answer "Expect: 100-continue" before the
  /// body (curl waits for it before sending a large body).
  bool expect_continue = false;
  /// Answer with the request's HTTP version rather than HTTP/1.1.
  bool echo_version = false;
  /// Fault injection: latency added before every request is handled.
  std::chrono::milliseconds handle_delay{0};
};

/// PEM data, from a file or given as text (the file when both are set).
struct pem_source {
  std::string file;
  std::string pem;

  bool empty() const noexcept {
    return file.empty() && pem.empty();
  }
};

/// What a TLS listener presents and asks of its clients.
struct tls_settings {
  pem_source certificate;
  pem_source private_key;
  /// None: no client certificates are asked for.
  pem_source client_ca;
  /// Only TLS 1.2 and later.
  bool modern_only = false;
  /// With a client CA: refuse the handshake without a certificate it
  /// signed. Otherwise a certificate is asked for, the handshake finishes
  /// whatever comes, and `peer_certificate::verified` tells the handler.
  bool require_client_certificate = false;
};

/// Which part of `tls_settings` could not be loaded, and why.
struct tls_failure {
  enum class part { certificate, private_key, client_ca };
  part what = part::certificate;
  std::string message;
};

/// What a bind address is.
struct ip_address {
  /// The canonical text.
  std::string text;
  bool loopback = false;
  bool unspecified = false;
};

/// Parses an IPv4 or IPv6 address; none when `text` is not one.
std::optional<ip_address> parse_ip_address(const std::string& text);

class http_server {
public:
  /// Serves `handler`, which must outlive the server; nothing runs before
  /// `run()`.
  http_server(http_handler& handler, http_server_config config);
  /// Stops (see stop()).
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  /// Sets up TLS for the listeners that ask for it.
  [[nodiscard]] std::optional<tls_failure> use_tls(const tls_settings& s);
  /// Listens on `address`:`port` (0 = a free port) and returns the bound
  /// port; the error message is the system's.
  [[nodiscard]] expected<std::uint16_t> listen(const std::string& address,
                                               std::uint16_t port, bool tls);
  /// Calls `task` on an I/O thread every `interval` until stopped.
  void every(std::chrono::milliseconds interval, std::function<void()> task);
  /// Starts the I/O threads.
  void run();
  /// Closes the listeners and every connection and joins the I/O threads.
  /// Idempotent.
  void stop();
  /// True once stop() began.
  bool stopped() const noexcept;

  /// Open connections, the limit and accept failures.
  const accept_guard& accepts() const noexcept;

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::io
