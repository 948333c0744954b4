// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/http_server.hpp"

#include "support/log.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <list>
#include <thread>

namespace tessera::io {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

namespace {

constexpr auto tuple_awaitable = net::as_tuple(net::use_awaitable);
constexpr std::string_view crlf = "\r\n";
/// Room before a chunk's payload for its size line (16 hex digits, CRLF).
constexpr std::size_t chunk_header_room = 18;
/// A stream's frame buffer larger than this is released after its write,
/// so one burst does not pin memory for the stream's lifetime.
constexpr std::size_t max_retained_frame = std::size_t{1} << 20;

beast::tcp_stream& tcp_of(beast::tcp_stream& s) {
  return s;
}
beast::tcp_stream& tcp_of(ssl::stream<beast::tcp_stream>& s) {
  return s.next_layer();
}

/// Turns the payload after the reserved room of `out` into one HTTP chunk:
/// the size line is written right-aligned into the room; returns where the
/// chunk starts (`out.size()` when the payload is empty).
std::size_t frame_chunk(std::string& out) {
  std::size_t payload = out.size() - chunk_header_room;
  if (payload == 0) {
    out.clear();
    return 0;
  }
  static constexpr char digits[] = "0123456789abcdef";
  char hex[16];
  std::size_t len = 0;
  for (std::size_t n = payload; n != 0 || len == 0; n >>= 4)
    hex[sizeof hex - ++len] = digits[n & 15];
  std::size_t start = chunk_header_room - crlf.size() - len;
  char* line = out.data() + start;
  std::copy_n(hex + sizeof hex - len, len, line);
  std::copy(crlf.begin(), crlf.end(), line + len);
  out += crlf;
  return start;
}

net::const_buffer pem_buffer(const pem_source& s) {
  return net::buffer(s.pem.data(), s.pem.size());
}

/// The ways a client ends a connection (nothing to answer).
bool is_disconnect(const beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == net::error::eof
         || ec == beast::error::timeout || ec == net::error::operation_aborted
         || ec == net::error::connection_reset;
}

std::vector<std::string> name_entries(X509_NAME* name, int nid) {
  std::vector<std::string> out;
  if (name == nullptr)
    return out;
  for (int i = X509_NAME_get_index_by_NID(name, nid, -1); i >= 0;
       i = X509_NAME_get_index_by_NID(name, nid, i)) {
    ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i));
    unsigned char* utf8 = nullptr;
    int n = ASN1_STRING_to_UTF8(&utf8, data);
    if (n >= 0)
      out.emplace_back(reinterpret_cast<const char*>(utf8),
                       static_cast<std::size_t>(n));
    OPENSSL_free(utf8);
  }
  return out;
}

/// The client certificate of a finished handshake: whether the chain
/// verified against the client CA, and the subject's CN and O entries.
peer_certificate peer_of(SSL* ssl) {
  peer_certificate p;
  X509* cert = SSL_get0_peer_certificate(ssl);
  if (cert == nullptr)
    return p;
  p.presented = true;
  long result = SSL_get_verify_result(ssl);
  p.verified = result == X509_V_OK;
  if (!p.verified)
    p.problem = X509_verify_cert_error_string(result);
  X509_NAME* subject = X509_get_subject_name(cert);
  auto cn = name_entries(subject, NID_commonName);
  if (!cn.empty())
    p.common_name = cn.front();
  p.organizations = name_entries(subject, NID_organizationName);
  return p;
}

} // namespace

bool peer_left(int fd) noexcept {
  char byte = 0;
  for (;;) {
    ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && errno == EINTR)
      continue;
    // 0: end of stream; > 0: bytes; < 0: a reset or another error, unless
    // the socket merely has nothing to read yet.
    return !(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
  }
}

std::optional<ip_address> parse_ip_address(const std::string& text) {
  beast::error_code ec;
  auto a = net::ip::make_address(text, ec);
  if (ec)
    return std::nullopt;
  return ip_address{a.to_string(), a.is_loopback(), a.is_unspecified()};
}

struct http_server::impl {
  /// Wake-up state shared by a streaming session and its stream's wake
  /// function; lives on the session's strand.
  struct stream_wait {
    explicit stream_wait(const net::any_io_executor& ex) : timer(ex) {
    }
    net::steady_timer timer;
    /// Set on the strand when the stream asked to be woken.
    bool pending = false;
    /// The client went away (socket readable).
    bool closed = false;
  };

  impl(http_handler& h, http_server_config c)
    : handler(h), cfg(std::move(c)), guard(cfg.name, cfg.limits) {
  }

  http_handler& handler;
  http_server_config cfg;
  // Before the io_context: the sessions it destroys release their slots.
  accept_guard guard;
  // Before the io_context: sessions still pending when it is destroyed
  // hold SSL streams on this context.
  std::optional<ssl::context> tls;
  net::io_context ioc;
  std::list<tcp::acceptor> acceptors;
  std::vector<std::thread> threads;
  std::atomic<bool> stopped{false};

  template <class Stream>
  net::awaitable<void> write_response(Stream& stream, server_reply& r,
                                      unsigned version, bool keep_alive,
                                      bool cache_control, bool& failed) {
    http::response<http::string_body> res{static_cast<http::status>(r.status),
                                          version};
    res.set(http::field::content_type, r.content_type);
    if (cache_control)
      res.set(http::field::cache_control, "no-cache, private");
    for (const auto& [k, v] : r.headers)
      res.set(k, v);
    res.body() = std::move(r.body);
    res.keep_alive(keep_alive);
    res.prepare_payload();
    tcp_of(stream).expires_after(cfg.write_timeout);
    auto [ec, n] = co_await http::async_write(stream, res, tuple_awaitable);
    (void)n;
    failed = static_cast<bool>(ec);
  }

  /// Reads one request into `parser`.
  template <class Stream>
  net::awaitable<beast::error_code>
  read_request(Stream& stream, beast::flat_buffer& buffer,
               http::request_parser<http::string_body>& parser) {
    auto& lower = tcp_of(stream);
    lower.expires_after(cfg.read_timeout);
    if (!cfg.expect_continue) {
      auto [ec, n]
        = co_await http::async_read(stream, buffer, parser, tuple_awaitable);
      (void)n;
      co_return ec;
    }
    auto [ec, n] = co_await http::async_read_header(stream, buffer, parser,
                                                    tuple_awaitable);
    (void)n;
    if (!ec && !parser.is_done()) {
      if (beast::iequals(parser.get()[http::field::expect], "100-continue")) {
        static constexpr std::string_view cont
          = "HTTP/1.1 100 Continue\r\n\r\n";
        lower.expires_after(cfg.write_timeout);
        auto [cec, cn] = co_await net::async_write(
          stream, net::buffer(cont.data(), cont.size()), tuple_awaitable);
        (void)cn;
        ec = cec;
      }
      if (!ec) {
        lower.expires_after(cfg.read_timeout);
        auto [bec, bn]
          = co_await http::async_read(stream, buffer, parser, tuple_awaitable);
        (void)bn;
        ec = bec;
      }
    }
    co_return ec;
  }

  /// Waits for a deferred answer; the function that makes it comes back on
  /// `ex`, the session's executor. A plain function returning the operation
  /// (no coroutine frame of its own to hold `deferred`).
  static net::awaitable<reply_maker>
  await_deferred(std::function<void(std::function<void(reply_maker)>)> deferred,
                 const net::any_io_executor& ex) {
    return net::async_initiate<decltype(net::use_awaitable), void(reply_maker)>(
      [deferred = std::move(deferred), ex](auto handler) {
        auto h = std::make_shared<decltype(handler)>(std::move(handler));
        deferred([h, ex](reply_maker f) {
          net::post(ex, [h, f = std::move(f)]() mutable {
            std::move (*h)(std::move(f));
          });
        });
      },
      net::use_awaitable);
  }

  /// Marks the stream's client gone once its socket turns readable: a
  /// client says nothing during a stream, so that is its close (or bytes it
  /// should not send). Asio may report a readiness that is stale by the
  /// time it is handled (another thread read the request away meanwhile),
  /// so the socket is asked before the stream is given up.
  static void watch_for_close(tcp::socket& socket,
                              std::weak_ptr<stream_wait> weak) {
    socket.async_wait(tcp::socket::wait_read,
                      [&socket, weak](beast::error_code ec) {
                        if (ec == net::error::operation_aborted)
                          return;
                        auto s = weak.lock();
                        if (!s)
                          return;
                        if (!ec && !peer_left(socket.native_handle())) {
                          watch_for_close(socket, weak);
                          return;
                        }
                        s->closed = true;
                        s->timer.cancel();
                      });
  }

  /// Sends `body` as a chunked response until it ends.
  template <class Stream>
  net::awaitable<void> send_stream(Stream& stream, const server_reply& r,
                                   unsigned version, bool keep_alive) {
    http_stream& body = *r.stream;
    auto ex = co_await net::this_coro::executor;
    auto wait = std::make_shared<stream_wait>(ex);
    std::weak_ptr<stream_wait> weak = wait;
    body.start([weak] {
      if (auto s = weak.lock())
        net::post(s->timer.get_executor(), [s] {
          s->pending = true;
          s->timer.cancel();
        });
    });
    auto& lower = tcp_of(stream);
    watch_for_close(lower.socket(), weak);

    http::response<http::empty_body> res{static_cast<http::status>(r.status),
                                         version};
    res.set(http::field::content_type, r.content_type);
    res.set(http::field::cache_control, "no-cache, private");
    for (const auto& [k, v] : r.headers)
      res.set(k, v);
    res.chunked(true);
    res.keep_alive(keep_alive);
    http::response_serializer<http::empty_body> sr{res};
    lower.expires_after(cfg.write_timeout);
    auto [hec, hn]
      = co_await http::async_write_header(stream, sr, tuple_awaitable);
    (void)hn;
    if (hec) {
      body.stop();
      co_return;
    }

    using kind = http_stream::step::kind;
    std::string frame; // reused: no allocation per chunk once warm
    bool ok = true;
    for (;;) {
      frame.assign(chunk_header_room, '\0');
      auto step = body.next(frame, wait->closed);
      if (step.what == kind::write) {
        auto start = frame_chunk(frame);
        if (start == frame.size())
          continue; // nothing to send: an empty chunk would end the body
        lower.expires_after(cfg.write_timeout);
        auto [ec, n] = co_await net::async_write(
          stream, net::buffer(frame.data() + start, frame.size() - start),
          tuple_awaitable);
        (void)n;
        if (frame.capacity() > max_retained_frame)
          std::string{}.swap(frame);
        if (ec) {
          ok = false;
          break;
        }
        continue;
      }
      if (step.what == kind::sleep || step.what == kind::wait) {
        bool due = step.what == kind::wait
                     ? !wait->pending
                     : http_stream::clock::now() < step.until && !wait->closed;
        if (due) {
          wait->timer.expires_at(step.until);
          co_await wait->timer.async_wait(tuple_awaitable);
        }
        wait->pending = false;
        continue;
      }
      ok = step.what == kind::end;
      break;
    }
    body.stop();
    beast::error_code ignored;
    lower.socket().cancel(ignored);
    if (ok) {
      static constexpr std::string_view last = "0\r\n\r\n";
      lower.expires_after(cfg.write_timeout);
      auto [ec, n] = co_await net::async_write(
        stream, net::buffer(last.data(), last.size()), tuple_awaitable);
      (void)ec;
      (void)n;
    }
  }

  template <class Stream>
  net::awaitable<void> session(Stream stream, accept_guard::slot slot,
                               std::optional<peer_certificate> client) {
    (void)slot; // held for the session's lifetime
    beast::flat_buffer buffer;
    auto& lower = tcp_of(stream);
    std::string peer;
    {
      beast::error_code ec;
      auto ep = lower.socket().remote_endpoint(ec);
      if (!ec)
        peer = ep.address().to_string() + ":" + std::to_string(ep.port());
    }
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(cfg.body_limit);
      parser.header_limit(cfg.header_limit);
      auto ec = co_await read_request(stream, buffer, parser);
      const unsigned version = cfg.echo_version ? parser.get().version() : 11u;
      if (ec) {
        if (is_disconnect(ec))
          break;
        if (auto r
            = handler.reject(ec == http::error::body_limit,
                             "malformed HTTP request: " + ec.message())) {
          bool failed = false;
          co_await write_response(stream, *r, version, false, false, failed);
          TLOG_DEBUG("http request rejected", "srcIP", peer, "error",
                     ec.message());
        }
        break;
      }
      auto& req = parser.get();
      if (cfg.handle_delay.count() > 0) {
        net::steady_timer t{co_await net::this_coro::executor};
        t.expires_after(cfg.handle_delay);
        co_await t.async_wait(tuple_awaitable);
      }
      incoming_request view;
      view.method = req.method_string();
      view.target = req.target();
      view.content_type = req[http::field::content_type];
      view.accept = req[http::field::accept];
      view.authorization = req[http::field::authorization];
      view.user_agent = req[http::field::user_agent];
      view.body = req.body();
      view.peer = peer;
      view.keep_alive = req.keep_alive();
      view.tls = client ? &*client : nullptr;
      server_reply res = handler.handle(view);
      if (res.deferred) {
        net::any_io_executor ex = co_await net::this_coro::executor;
        auto finish = co_await await_deferred(std::move(res.deferred), ex);
        res = finish();
      }
      if (res.stream) {
        co_await send_stream(stream, res, version, view.keep_alive);
        break; // a streamed connection is not reused
      }
      bool failed = false;
      co_await write_response(stream, res, version, view.keep_alive, true,
                              failed);
      if (failed || !view.keep_alive)
        break;
    }
    beast::error_code ignored;
    lower.socket().shutdown(tcp::socket::shutdown_send, ignored);
    lower.socket().close(ignored);
  }

  net::awaitable<void> tls_session(tcp::socket socket,
                                   accept_guard::slot slot) {
    ssl::stream<beast::tcp_stream> stream{beast::tcp_stream{std::move(socket)},
                                          *tls};
    stream.next_layer().expires_after(std::chrono::seconds(10));
    auto [ec] = co_await stream.async_handshake(ssl::stream_base::server,
                                                tuple_awaitable);
    if (ec) {
      TLOG_DEBUG("tls handshake failed", "error", ec.message());
      co_return;
    }
    auto client = peer_of(stream.native_handle());
    co_await session(std::move(stream), std::move(slot), std::move(client));
  }

  // Never spins: a full server or a failed accept (out of descriptors)
  // waits on a timer before accepting again.
  net::awaitable<void> accept_loop(tcp::acceptor& acceptor, bool use_tls) {
    net::steady_timer pause{ioc};
    for (;;) {
      if (!guard.has_room()) {
        pause.expires_after(guard.limits().full_wait);
        co_await pause.async_wait(tuple_awaitable);
        if (stopped)
          co_return;
        continue;
      }
      auto [ec, socket] = co_await acceptor.async_accept(net::make_strand(ioc),
                                                         tuple_awaitable);
      if (ec) {
        if (ec == net::error::operation_aborted || stopped)
          co_return;
        pause.expires_after(guard.failed(ec.value(), ec.message()));
        co_await pause.async_wait(tuple_awaitable);
        if (stopped)
          co_return;
        continue;
      }
      auto slot = guard.accepted();
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      auto ex = socket.get_executor();
      if (use_tls)
        net::co_spawn(ex, tls_session(std::move(socket), std::move(slot)),
                      net::detached);
      else
        net::co_spawn(ex,
                      session(beast::tcp_stream{std::move(socket)},
                              std::move(slot), std::nullopt),
                      net::detached);
    }
  }

  net::awaitable<void> repeat(std::chrono::milliseconds interval,
                              std::function<void()> task) {
    net::steady_timer t{co_await net::this_coro::executor};
    for (;;) {
      t.expires_after(interval);
      auto [ec] = co_await t.async_wait(tuple_awaitable);
      if (ec || stopped)
        co_return;
      task();
    }
  }
};

http_server::http_server(http_handler& handler, http_server_config config)
  : impl_(std::make_unique<impl>(handler, std::move(config))) {
}

http_server::~http_server() {
  stop();
}

std::optional<tls_failure> http_server::use_tls(const tls_settings& s) {
  using part = tls_failure::part;
  auto& tls = impl_->tls.emplace(ssl::context::tls_server);
  if (s.modern_only)
    tls.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2
                    | ssl::context::no_sslv3 | ssl::context::no_tlsv1
                    | ssl::context::no_tlsv1_1);
  beast::error_code ec;
  if (!s.certificate.file.empty())
    tls.use_certificate_chain_file(s.certificate.file, ec);
  else
    tls.use_certificate_chain(pem_buffer(s.certificate), ec);
  if (ec)
    return tls_failure{part::certificate, ec.message()};
  if (!s.private_key.file.empty())
    tls.use_private_key_file(s.private_key.file, ssl::context::pem, ec);
  else
    tls.use_private_key(pem_buffer(s.private_key), ssl::context::pem, ec);
  if (ec)
    return tls_failure{part::private_key, ec.message()};
  if (s.client_ca.empty())
    return std::nullopt;
  if (!s.client_ca.file.empty())
    tls.load_verify_file(s.client_ca.file, ec);
  else
    tls.add_certificate_authority(pem_buffer(s.client_ca), ec);
  if (!ec && s.require_client_certificate)
    tls.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert,
                        ec);
  if (!ec && !s.require_client_certificate) {
    // Ask for a certificate but let the handshake finish whatever comes:
    // the handler sees whether it verified.
    tls.set_verify_mode(ssl::verify_peer, ec);
    if (!ec)
      tls.set_verify_callback([](bool, ssl::verify_context&) { return true; },
                              ec);
  }
  if (ec)
    return tls_failure{part::client_ca, ec.message()};
  return std::nullopt;
}

expected<std::uint16_t> http_server::listen(const std::string& address,
                                            std::uint16_t port, bool tls) {
  beast::error_code ec;
  auto a = net::ip::make_address(address, ec);
  if (ec)
    return make_error(ec::invalid_input, ec.message());
  tcp::endpoint ep{a, port};
  auto& acceptor = impl_->acceptors.emplace_back(impl_->ioc);
  acceptor.open(ep.protocol(), ec);
  if (!ec)
    acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec)
    acceptor.bind(ep, ec);
  if (!ec)
    acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    return make_error(ec::unavailable, ec.message());
  net::co_spawn(impl_->ioc, impl_->accept_loop(acceptor, tls), net::detached);
  return acceptor.local_endpoint().port();
}

void http_server::every(std::chrono::milliseconds interval,
                        std::function<void()> task) {
  net::co_spawn(impl_->ioc, impl_->repeat(interval, std::move(task)),
                net::detached);
}

void http_server::run() {
  int n = std::max(1, impl_->cfg.threads);
  for (int t = 0; t < n; ++t)
    impl_->threads.emplace_back([p = impl_.get()] {
      std::string name = "http:" + p->cfg.name;
      set_thread_name(name);
      // A handler that throws is logged and the I/O loop goes on serving
      // the other connections.
      while (!run_thread_body(name, [p] { p->ioc.run(); })) {
      }
    });
}

void http_server::stop() {
  if (!impl_ || impl_->stopped.exchange(true))
    return;
  net::post(impl_->ioc, [p = impl_.get()] {
    beast::error_code ignored;
    for (auto& a : p->acceptors)
      a.close(ignored);
    p->ioc.stop();
  });
  for (auto& t : impl_->threads)
    if (t.joinable())
      t.join();
  impl_->threads.clear();
}

bool http_server::stopped() const noexcept {
  return impl_->stopped;
}

const accept_guard& http_server::accepts() const noexcept {
  return impl_->guard;
}

} // namespace tessera::io
