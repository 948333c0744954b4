// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/serving/ops_server.hpp"

#include "io/serving/self_signed.hpp"
#include "support/log.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace tessera::serving {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

namespace {

constexpr auto tuple_awaitable = net::as_tuple(net::use_awaitable);
constexpr auto io_timeout = std::chrono::seconds(30);

struct parsed_target {
  std::string_view path;
  bool verbose = false;
  std::vector<std::string_view> excluded;
};

parsed_target parse_target(std::string_view target) {
  parsed_target out;
  auto q = target.find('?');
  out.path = target.substr(0, q);
  if (q == std::string_view::npos)
    return out;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{}
                                          : query.substr(amp + 1);
    auto eq = param.find('=');
    std::string_view key = param.substr(0, eq);
    std::string_view value = eq == std::string_view::npos
                               ? std::string_view{}
                               : param.substr(eq + 1);
    if (key == "verbose")
      out.verbose = true;
    else if (key == "exclude")
      out.excluded.push_back(value);
  }
  return out;
}

// Kubernetes' healthz handler: every check, or the one named in the path.
ops_reply run_checks(std::string_view endpoint,
                     const std::vector<health_check>& checks,
                     const parsed_target& t, std::string_view only) {
  ops_reply r;
  if (!only.empty()) {
    for (const auto& c : checks)
      if (c.name == only) {
        std::string why = c.check();
        if (why.empty()) {
          r.body = "ok";
        } else {
          TLOG_V(2, "health check failed", "check", c.name, "reason", why);
          r.status = 500;
          r.body = "internal server error: " + c.name + " failed\n";
        }
        return r;
      }
    r.status = 404;
    r.body = "404 page not found\n";
    return r;
  }
  std::string listing;
  bool failed = false;
  for (const auto& c : checks) {
    if (std::find(t.excluded.begin(), t.excluded.end(), c.name)
        != t.excluded.end()) {
      listing += "[+]" + c.name + " excluded: ok\n";
      continue;
    }
    std::string why = c.check();
    if (why.empty()) {
      listing += "[+]" + c.name + " ok\n";
    } else {
      failed = true;
      listing += "[-]" + c.name + " failed: reason withheld\n";
      TLOG_V(2, "health check failed", "endpoint", endpoint, "check", c.name,
             "reason", why);
    }
  }
  if (failed) {
    r.status = 500;
    r.body = listing + std::string{endpoint} + " check failed\n";
  } else if (t.verbose) {
    r.body = listing + std::string{endpoint} + " check passed\n";
  } else {
    r.body = "ok";
  }
  return r;
}

ops_reply not_found() {
  return {404, "text/plain; charset=utf-8", "404 page not found\n"};
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

ops_reply route(const ops_providers& p, std::string_view method,
                std::string_view target) {
  if (method != "GET" && method != "HEAD")
    return {405, "text/plain; charset=utf-8", "method not allowed\n"};
  parsed_target t = parse_target(target);
  if (t.path == "/metrics") {
    if (!p.metrics)
      return not_found();
    return {200, "text/plain; version=0.0.4; charset=utf-8", p.metrics()};
  }
  if (t.path == "/configz") {
    if (!p.configz)
      return not_found();
    return {200, "application/json", p.configz()};
  }
  for (std::string_view endpoint : {"healthz", "livez", "readyz"}) {
    const auto& checks = endpoint == "readyz" ? p.readyz : p.livez;
    std::string base = "/" + std::string{endpoint};
    if (t.path == base)
      return run_checks(endpoint, checks, t, {});
    if (t.path.size() > base.size() + 1 && t.path.starts_with(base + "/"))
      return run_checks(endpoint, checks, t, t.path.substr(base.size() + 1));
  }
  return not_found();
}

struct ops_server::impl {
  impl(ops_providers p, const io::accept_limits& limits)
    : providers(std::move(p)), guard("ops", limits), plain(ioc), secure(ioc) {
  }

  ops_providers providers;
  std::shared_ptr<delegated_auth> auth;
  // Before the io_context: the sessions it destroys release their slots.
  io::accept_guard guard;
  // Before the io_context: sessions still pending when it is destroyed
  // hold SSL streams on this context.
  std::optional<ssl::context> tls;
  net::io_context ioc;
  tcp::acceptor plain;
  tcp::acceptor secure;
  std::string certificate;
  std::uint16_t plain_port = 0;
  std::uint16_t secure_port = 0;
  std::thread thread;
  std::atomic<bool> stopped{false};
  // After the io_context, so destroyed (joined) first: a review finishing
  // late posts its completion to a context that still exists.
  std::optional<net::thread_pool> reviews;
  // Once closed (stopping), nothing more goes to the review threads, so
  // every answer they owe reaches the I/O thread before it stops: no
  // session is left waiting inside a handler no one will run.
  std::mutex reviews_mutex;
  bool reviews_closed = false;

  static beast::tcp_stream& tcp_of(beast::tcp_stream& s) {
    return s;
  }
  static beast::tcp_stream& tcp_of(ssl::stream<beast::tcp_stream>& s) {
    return s.next_layer();
  }

  /// The request's credentials, owned while a review thread reads them.
  struct pending_check {
    std::string method;
    std::string path;
    std::string authorization;
    peer_certificate peer;

    auth_request view() const {
      return {method, path, authorization, peer};
    }
  };

  /// The decision of a review thread, delivered on the I/O thread, which
  /// alone touches the session's stream. A plain function returning the
  /// operation (no coroutine frame of its own to hold `c`).
  net::awaitable<auth_decision> review(const std::shared_ptr<pending_check>& c,
                                       const net::any_io_executor& io) {
    return net::async_initiate<decltype(net::use_awaitable),
                               void(auth_decision)>(
      [this, c, io](auto handler) {
        std::lock_guard guard{reviews_mutex};
        if (reviews_closed) {
          // Stopping: no thread will review; answer on this thread's next
          // turn instead.
          net::post(io, [h = std::move(handler)]() mutable {
            auth_decision d;
            d.status = 503;
            d.content_type = "text/plain; charset=utf-8";
            d.body = "the server is shutting down\n";
            std::move(h)(std::move(d));
          });
          return;
        }
        net::post(
          *reviews, [a = auth, c, io, h = std::move(handler)]() mutable {
            auth_decision d = a->check(c->view());
            net::post(io, [h = std::move(h), d = std::move(d)]() mutable {
              std::move(h)(std::move(d));
            });
          });
      },
      net::use_awaitable);
  }

  template <class Stream>
  net::awaitable<void> session(Stream stream, io::accept_guard::slot slot,
                               std::optional<peer_certificate> peer) {
    (void)slot; // held for the session's lifetime
    beast::flat_buffer buffer;
    auto& lower = tcp_of(stream);
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(64 * 1024);
      parser.header_limit(16 * 1024);
      lower.expires_after(io_timeout);
      auto [ec, n]
        = co_await http::async_read(stream, buffer, parser, tuple_awaitable);
      (void)n;
      if (ec)
        break; // closed, timed out or malformed: nothing more to say
      auto& req = parser.get();
      ops_reply reply;
      if (peer && auth) {
        auto c = std::make_shared<pending_check>();
        c->method = std::string{req.method_string()};
        std::string_view target = req.target();
        c->path = std::string{target.substr(0, target.find('?'))};
        c->authorization = std::string{req[http::field::authorization]};
        c->peer = *peer;
        // Answered here when no review is due; otherwise on a review
        // thread.
        auth_decision d;
        if (auto quick = auth->try_check(c->view())) {
          d = std::move(*quick);
        } else {
          net::any_io_executor io = co_await net::this_coro::executor;
          d = co_await review(c, io);
        }
        if (!d.allowed)
          reply = {d.status, std::move(d.content_type), std::move(d.body)};
        else
          reply = route(providers, req.method_string(), req.target());
      } else {
        reply = route(providers, req.method_string(), req.target());
      }
      http::response<http::string_body> res{
        static_cast<http::status>(reply.status), req.version()};
      res.set(http::field::content_type, reply.content_type);
      res.set(http::field::cache_control, "no-cache, private");
      res.set("X-Content-Type-Options", "nosniff");
      if (req.method() != http::verb::head)
        res.body() = std::move(reply.body);
      res.keep_alive(req.keep_alive());
      res.prepare_payload();
      lower.expires_after(io_timeout);
      auto [wec, wn] = co_await http::async_write(stream, res, tuple_awaitable);
      (void)wn;
      if (wec || !res.keep_alive())
        break;
    }
    beast::error_code ignored;
    lower.socket().shutdown(tcp::socket::shutdown_both, ignored);
    lower.socket().close(ignored);
  }

  net::awaitable<void> tls_session(tcp::socket socket,
                                   io::accept_guard::slot slot) {
    ssl::stream<beast::tcp_stream> stream{beast::tcp_stream{std::move(socket)},
                                          *tls};
    stream.next_layer().expires_after(std::chrono::seconds(10));
    auto [ec] = co_await stream.async_handshake(ssl::stream_base::server,
                                                tuple_awaitable);
    if (ec) {
      TLOG_V(4, "tls handshake failed", "error", ec.message());
      co_return;
    }
    auto peer = peer_of(stream.native_handle());
    co_await session(std::move(stream), std::move(slot), std::move(peer));
  }

  // Never spins: a full server or a failed accept (out of descriptors)
  // waits on a timer before accepting again.
  net::awaitable<void> accept_loop(tcp::acceptor& acceptor, bool use_tls) {
    net::steady_timer pause{ioc};
    for (;;) {
      if (!guard.has_room()) {
        pause.expires_after(guard.limits().full_wait);
        co_await pause.async_wait(tuple_awaitable);
        if (stopped.load())
          co_return;
        continue;
      }
      auto [ec, socket] = co_await acceptor.async_accept(tuple_awaitable);
      if (ec) {
        if (ec == net::error::operation_aborted || stopped.load())
          co_return;
        pause.expires_after(guard.failed(ec.value(), ec.message()));
        co_await pause.async_wait(tuple_awaitable);
        if (stopped.load())
          co_return;
        continue;
      }
      auto slot = guard.accepted();
      if (use_tls)
        net::co_spawn(ioc, tls_session(std::move(socket), std::move(slot)),
                      net::detached);
      else
        net::co_spawn(ioc,
                      session(beast::tcp_stream{std::move(socket)},
                              std::move(slot), std::nullopt),
                      net::detached);
    }
  }
};

namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

error listen(tcp::acceptor& a, const net::ip::address& address, int port,
             const char* flag) {
  beast::error_code ec;
  tcp::endpoint ep{address,
                   static_cast<std::uint16_t>(port == any_port ? 0 : port)};
  a.open(ep.protocol(), ec);
  if (!ec)
    a.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec)
    a.bind(ep, ec);
  if (!ec)
    a.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    return make_error(ec::unavailable,
                      std::string{"--"} + flag + ": cannot listen on "
                        + address.to_string() + ":" + std::to_string(port)
                        + ": " + ec.message());
  return {};
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0')
    return "localhost";
  return buf;
}

} // namespace

expected<std::unique_ptr<ops_server>>
ops_server::start(ops_server_config config, ops_providers providers) {
  auto i = std::make_unique<impl>(std::move(providers), config.limits);
  for (auto [flag, port] : {std::pair{"secure-port", config.secure_port},
                            std::pair{"port", config.port}})
    if (port != any_port && (port < 0 || port > 65535))
      return make_error(ec::invalid_input, std::string{"--"} + flag + ": "
                                             + std::to_string(port)
                                             + " is not in 0..65535");
  beast::error_code ec;
  auto address = net::ip::make_address(config.bind_address, ec);
  if (ec)
    return make_error(ec::invalid_input, "--bind-address: \""
                                           + config.bind_address
                                           + "\" is not an IP address");
  if (config.secure_port != 0) {
    serving::certificate_pem pem;
    bool have_cert = !config.tls_cert_file.empty();
    bool have_key = !config.tls_private_key_file.empty();
    if (have_cert != have_key)
      return make_error(ec::invalid_input,
                        "--tls-cert-file and --tls-private-key-file must be "
                        "given together");
    if (have_cert) {
      auto cert = read_file(config.tls_cert_file);
      if (!cert)
        return make_error(ec::invalid_input, "--tls-cert-file: cannot read "
                                               + config.tls_cert_file);
      auto key = read_file(config.tls_private_key_file);
      if (!key)
        return make_error(ec::invalid_input,
                          "--tls-private-key-file: cannot read "
                            + config.tls_private_key_file);
      pem = {std::move(*cert), std::move(*key)};
    } else {
      self_signed_options o;
      std::string host = host_name();
      o.common_name = host + "@" + std::to_string(std::time(nullptr));
      o.dns_names = {"localhost", host};
      o.ip_addresses = {"127.0.0.1"};
      if (!address.is_unspecified() && !address.is_loopback())
        o.ip_addresses.push_back(address.to_string());
      auto made = make_self_signed_certificate(o);
      if (!made)
        return made.err();
      pem = std::move(*made);
      TLOG_INFO("generated a self-signed certificate for the secure port", "cn",
                o.common_name);
    }
    i->tls.emplace(ssl::context::tls_server);
    i->tls->set_options(ssl::context::default_workarounds
                        | ssl::context::no_sslv2 | ssl::context::no_sslv3
                        | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    i->tls->use_certificate_chain(
      net::buffer(pem.certificate.data(), pem.certificate.size()), ec);
    if (ec)
      return make_error(ec::invalid_input,
                        "--tls-cert-file: not a PEM certificate: "
                          + ec.message());
    i->tls->use_private_key(
      net::buffer(pem.private_key.data(), pem.private_key.size()),
      ssl::context::pem, ec);
    if (ec)
      return make_error(ec::invalid_input,
                        "--tls-private-key-file: not a PEM key matching the "
                        "certificate: "
                          + ec.message());
    if (config.auth && !config.auth->config().client_ca_pem.empty()) {
      const auto& ca = config.auth->config().client_ca_pem;
      i->tls->add_certificate_authority(net::buffer(ca.data(), ca.size()), ec);
      if (ec)
        return make_error(ec::invalid_input,
                          "--client-ca-file: not a PEM certificate bundle: "
                            + ec.message());
      // Ask for a certificate but let the handshake finish whatever comes:
      // the authenticator turns a certificate that does not verify into a
      // 401, as upstream's does, rather than a failed handshake.
      i->tls->set_verify_mode(ssl::verify_peer);
      i->tls->set_verify_callback(
        [](bool, ssl::verify_context&) { return true; });
    }
    i->certificate = std::move(pem.certificate);
    if (auto e = listen(i->secure, address, config.secure_port, "secure-port"))
      return e;
    i->secure_port = i->secure.local_endpoint().port();
    net::co_spawn(i->ioc, i->accept_loop(i->secure, true), net::detached);
  }
  if (config.auth && i->tls) {
    i->auth = config.auth;
    i->reviews.emplace(
      static_cast<std::size_t>(std::max(1, config.review_threads)));
  }
  if (config.port != 0) {
    if (!address.is_loopback())
      TLOG_WARN("the plain port serves without authentication or "
                "authorization on a non-loopback address",
                "address", config.bind_address, "port", config.port);
    if (auto e = listen(i->plain, address, config.port, "port"))
      return e;
    i->plain_port = i->plain.local_endpoint().port();
    net::co_spawn(i->ioc, i->accept_loop(i->plain, false), net::detached);
  }
  i->thread = std::thread{[p = i.get()] {
    for (;;) {
      try {
        p->ioc.run();
        return;
      } catch (const std::exception& e) {
        TLOG_ERROR("ops server I/O thread caught an exception", "error",
                   e.what());
      }
    }
  }};
  TLOG_INFO("serving health and metrics", "address", config.bind_address,
            "securePort", i->secure_port, "port", i->plain_port,
            "delegatedAuth", i->auth != nullptr, "clientCertificates",
            i->auth != nullptr && !i->auth->config().client_ca_pem.empty());
  return std::unique_ptr<ops_server>(new ops_server(std::move(i)));
}

ops_server::ops_server(std::unique_ptr<impl> i) : impl_(std::move(i)) {
}

ops_server::~ops_server() {
  stop();
}

std::uint16_t ops_server::port() const noexcept {
  return impl_->plain_port;
}

std::uint16_t ops_server::secure_port() const noexcept {
  return impl_->secure_port;
}

const io::accept_guard& ops_server::accepts() const noexcept {
  return impl_->guard;
}

const std::string& ops_server::certificate_pem() const noexcept {
  return impl_->certificate;
}

void ops_server::stop() {
  if (impl_->stopped.exchange(true))
    return;
  // Reviews in progress end at once; requests waiting for them answer as
  // if the API server were gone.
  if (impl_->auth)
    impl_->auth->shutdown();
  if (impl_->reviews) {
    {
      std::lock_guard guard{impl_->reviews_mutex};
      impl_->reviews_closed = true;
    }
    // The reviews in progress end at once (shut down) and post their
    // answers to the I/O thread, which still runs.
    impl_->reviews->join();
  }
  net::post(impl_->ioc, [p = impl_.get()] {
    beast::error_code ignored;
    p->plain.close(ignored);
    p->secure.close(ignored);
    p->ioc.stop();
  });
  if (impl_->thread.joinable())
    impl_->thread.join();
}

} // namespace tessera::serving
