// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <functional>

namespace tessera::io {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i]))
        != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

error net_error(std::string_view what, const beast::error_code& ec) {
  if (ec == beast::error::timeout)
    return make_error(ec::timeout, std::string{what} + ": timed out");
  if (ec == net::error::operation_aborted)
    return make_error(ec::unavailable, std::string{what} + ": cancelled");
  return make_error(ec::unavailable, std::string{what} + ": " + ec.message());
}

// Runs `f`, turning what Asio, Beast or OpenSSL throw into ec::unavailable:
// out of descriptors, even creating a socket's reactor or timer throws,
// and nothing may escape the caller's thread.
template <class F> auto guarded(std::string_view what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return make_error(ec::unavailable, std::string{what} + ": " + e.what());
  }
}

bool is_ip_literal(std::string_view host) {
  beast::error_code ec;
  net::ip::make_address(std::string{host}, ec);
  return !ec;
}

std::vector<http_header> copy_headers(const http::fields& f) {
  std::vector<http_header> out;
  for (const auto& h : f)
    out.push_back({std::string{h.name_string()}, std::string{h.value()}});
  return out;
}

} // namespace

// URL

expected<server_url> parse_server_url(std::string_view url) {
  server_url out;
  if (url.starts_with("https://")) {
    out.tls = true;
    url.remove_prefix(8);
    out.port = 443;
  } else if (url.starts_with("http://")) {
    url.remove_prefix(7);
    out.port = 80;
  } else {
    return make_error(ec::invalid_input,
                      "server URL must start with http:// or https://: \""
                        + std::string{url} + "\"");
  }
  auto slash = url.find('/');
  auto hostport = url.substr(0, slash);
  if (slash != std::string_view::npos && url.substr(slash) != "/")
    return make_error(ec::invalid_input,
                      "server URL with a path is not supported: \""
                        + std::string{url} + "\"");
  std::string_view port_text;
  if (hostport.starts_with("[")) {
    auto close = hostport.find(']');
    if (close == std::string_view::npos)
      return make_error(ec::invalid_input, "unterminated IPv6 address");
    out.host = std::string{hostport.substr(1, close - 1)};
    auto rest = hostport.substr(close + 1);
    if (rest.starts_with(":"))
      port_text = rest.substr(1);
    else if (!rest.empty())
      return make_error(ec::invalid_input, "garbage after IPv6 address");
  } else {
    auto colon = hostport.rfind(':');
    out.host = std::string{hostport.substr(0, colon)};
    if (colon != std::string_view::npos)
      port_text = hostport.substr(colon + 1);
  }
  if (out.host.empty())
    return make_error(ec::invalid_input, "server URL has no host");
  if (!port_text.empty()) {
    unsigned p = 0;
    auto [ptr, e] = std::from_chars(port_text.data(),
                                    port_text.data() + port_text.size(), p);
    if (e != std::errc{} || ptr != port_text.data() + port_text.size() || p == 0
        || p > 65535)
      return make_error(ec::invalid_input,
                        "invalid port \"" + std::string{port_text} + "\"");
    out.port = static_cast<std::uint16_t>(p);
  }
  return out;
}

const std::string* http_response::header(std::string_view name) const {
  for (const auto& h : headers)
    if (iequals(h.name, name))
      return &h.value;
  return nullptr;
}

// connection

struct http_client::connection {
  explicit connection(const client_config& c) : cfg(c) {
  }
  ~connection() {
    close();
  }

  const client_config& cfg;
  // Declared first: destroyed last, after the streams that use it.
  net::io_context ioc;
  std::unique_ptr<ssl::context> tls_ctx;
  std::optional<beast::tcp_stream> plain;
  std::optional<ssl::stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;
  bool open = false;
  bool reused = false;
  /// Which blocking call is running, so that cancel() hits only that one.
  std::atomic<std::uint64_t> call_id{0};
  std::atomic<bool> in_call{false};

  /// Marks a blocking call for its duration.
  struct call_scope {
    explicit call_scope(connection& c) : conn(c) {
      conn.call_id.fetch_add(1);
      conn.in_call.store(true);
    }
    ~call_scope() {
      conn.in_call.store(false);
    }
    connection& conn;
  };

  /// Cancels the socket operations of call `id` if it is still running.
  void cancel_call(std::uint64_t id) {
    if (!in_call.load() || call_id.load() != id)
      return;
    beast::error_code ignored;
    if (secure)
      secure->next_layer().socket().cancel(ignored);
    if (plain)
      plain->socket().cancel(ignored);
  }

  beast::tcp_stream& tcp_layer() {
    return secure ? secure->next_layer() : *plain;
  }

  /// Runs the io_context until the started operation completed.
  void run() {
    if (ioc.stopped())
      ioc.restart();
    ioc.run();
  }

  void close() {
    beast::error_code ignored;
    if (secure)
      secure->next_layer().socket().close(ignored);
    if (plain)
      plain->socket().close(ignored);
    secure.reset();
    plain.reset();
    buffer.clear();
    open = false;
    reused = false;
  }

  error make_tls_context() {
    tls_ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
    beast::error_code ec;
    const auto& t = cfg.tls;
    if (t.insecure_skip_verify) {
      tls_ctx->set_verify_mode(ssl::verify_none, ec);
    } else {
      tls_ctx->set_verify_mode(ssl::verify_peer, ec);
      if (!t.ca_pem.empty())
        tls_ctx->add_certificate_authority(net::buffer(t.ca_pem), ec);
      else
        tls_ctx->set_default_verify_paths(ec);
      if (ec)
        return make_error(ec::invalid_input,
                          "cannot load the CA certificates: " + ec.message());
    }
    if (!t.client_cert_pem.empty()) {
      tls_ctx->use_certificate_chain(net::buffer(t.client_cert_pem), ec);
      if (!ec)
        tls_ctx->use_private_key(net::buffer(t.client_key_pem),
                                 ssl::context::pem, ec);
      if (ec)
        return make_error(ec::invalid_input,
                          "cannot load the client certificate: "
                            + ec.message());
    }
    return {};
  }

  error connect() {
    error e = guarded("connect to " + cfg.host + ":" + std::to_string(cfg.port),
                      [this] { return connect_unguarded(); });
    if (e)
      close();
    return e;
  }

  error connect_unguarded() {
    close();
    beast::error_code ec;
    tcp::resolver::results_type endpoints;
    // An address needs no lookup, and skipping the resolver spares each
    // connection's io_context the thread Asio starts for its lookups.
    auto address = net::ip::make_address(cfg.host, ec);
    if (!ec) {
      endpoints = tcp::resolver::results_type::create(
        tcp::endpoint{address, cfg.port}, cfg.host, std::to_string(cfg.port));
    } else {
      ec = {};
      tcp::resolver resolver{ioc};
      resolver.async_resolve(
        cfg.host, std::to_string(cfg.port),
        [&](beast::error_code e, tcp::resolver::results_type r) {
          ec = e;
          endpoints = std::move(r);
        });
      run();
      if (ec)
        return net_error("resolve " + cfg.host, ec);
    }
    if (cfg.tls.enabled) {
      if (!tls_ctx)
        if (auto e = make_tls_context())
          return e;
      secure.emplace(ioc, *tls_ctx);
    } else {
      plain.emplace(ioc);
    }
    auto& lower = tcp_layer();
    lower.expires_after(cfg.connect_timeout);
    lower.async_connect(
      endpoints, [&](beast::error_code e, const tcp::endpoint&) { ec = e; });
    run();
    if (ec) {
      close();
      return net_error(
        "connect to " + cfg.host + ":" + std::to_string(cfg.port), ec);
    }
    lower.socket().set_option(tcp::no_delay(true), ec);
    if (secure) {
      const std::string& name
        = cfg.tls.server_name.empty() ? cfg.host : cfg.tls.server_name;
      if (!is_ip_literal(name))
        SSL_set_tlsext_host_name(secure->native_handle(), name.c_str());
      if (!cfg.tls.insecure_skip_verify)
        secure->set_verify_callback(ssl::host_name_verification(name), ec);
      lower.expires_after(cfg.connect_timeout);
      secure->async_handshake(ssl::stream_base::client,
                              [&](beast::error_code e) { ec = e; });
      run();
      if (ec) {
        close();
        return net_error("TLS handshake with " + cfg.host, ec);
      }
    }
    lower.expires_never();
    open = true;
    return {};
  }

  template <class F> void with_stream(F&& f) {
    if (secure)
      f(*secure);
    else
      f(*plain);
  }

  http::request<http::string_body> build(const http_request& r) {
    http::request<http::string_body> req;
    req.method_string(r.method);
    req.target(r.target);
    req.version(11);
    std::string host = cfg.host;
    if (host.find(':') != std::string::npos)
      host = "[" + host + "]";
    req.set(http::field::host, host + ":" + std::to_string(cfg.port));
    req.set(http::field::user_agent, cfg.user_agent);
    if (!r.accept.empty())
      req.set(http::field::accept, r.accept);
    if (!cfg.bearer_token.empty())
      req.set(http::field::authorization, "Bearer " + cfg.bearer_token);
    if (!r.content_type.empty())
      req.set(http::field::content_type, r.content_type);
    for (const auto& h : r.headers)
      req.set(h.name, h.value);
    req.body() = r.body;
    req.keep_alive(true);
    req.prepare_payload();
    return req;
  }

  beast::error_code write(http::request<http::string_body>& req) {
    beast::error_code ec;
    tcp_layer().expires_after(cfg.request_timeout);
    with_stream([&](auto& s) {
      http::async_write(s, req,
                        [&](beast::error_code e, std::size_t) { ec = e; });
    });
    run();
    return ec;
  }
};

// http_client

http_client::http_client(client_config config)
  : config_(std::move(config)), conn_(std::make_unique<connection>(config_)) {
}

http_client::~http_client() = default;

const client_config& http_client::config() const noexcept {
  return config_;
}

void http_client::cancel() {
  auto* c = conn_.get();
  if (c->in_call.load())
    net::post(c->ioc, [c, id = c->call_id.load()] { c->cancel_call(id); });
  std::lock_guard guard{opening_mutex_};
  if (opening_ != nullptr && opening_->in_call.load())
    net::post(opening_->ioc, [o = opening_, id = opening_->call_id.load()] {
      o->cancel_call(id);
    });
}

expected<http_response> http_client::request(const http_request& r) {
  auto out
    = guarded(r.method + " " + r.target, [&] { return request_unguarded(r); });
  if (!out)
    conn_->close();
  return out;
}

expected<http_response> http_client::request_unguarded(const http_request& r) {
  auto& c = *conn_;
  connection::call_scope scope{c};
  auto req = c.build(r);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!c.open)
      if (auto e = c.connect())
        return e;
    bool was_reused = c.reused;
    auto ec = c.write(req);
    if (ec) {
      c.close();
      if (was_reused && attempt == 0)
        continue;
      return net_error("write request", ec);
    }
    http::response_parser<http::string_body> parser;
    parser.body_limit(config_.body_limit);
    parser.header_limit(1 << 20);
    c.tcp_layer().expires_after(config_.request_timeout);
    c.with_stream([&](auto& s) {
      http::async_read(s, c.buffer, parser,
                       [&](beast::error_code e, std::size_t) { ec = e; });
    });
    c.run();
    if (ec) {
      c.close();
      if (was_reused && attempt == 0
          && (ec == http::error::end_of_stream
              || ec == net::error::connection_reset))
        continue;
      return net_error("read response", ec);
    }
    auto msg = parser.release();
    http_response out;
    out.status = static_cast<int>(msg.result_int());
    out.content_type = std::string{msg[http::field::content_type]};
    out.headers = copy_headers(msg.base());
    out.body = std::move(msg.body());
    if (!msg.keep_alive()) {
      c.close(); // the stream is gone: no timer to clear
    } else {
      c.reused = true;
      c.tcp_layer().expires_never();
    }
    return out;
  }
  return make_error(ec::unavailable, "request failed after reconnecting");
}

namespace {

// The request of the shorthand methods: `method` on `target` with `body`
// (`content_type` omitted when empty).
http_request make_request(std::string method, std::string target,
                          std::string body = {},
                          std::string content_type = {}) {
  http_request r;
  r.method = std::move(method);
  r.target = std::move(target);
  r.body = std::move(body);
  r.content_type = std::move(content_type);
  return r;
}

} // namespace

expected<http_response> http_client::get(std::string target) {
  return request(make_request("GET", std::move(target)));
}

expected<http_response> http_client::post(std::string target, std::string body,
                                          std::string content_type) {
  return request(make_request("POST", std::move(target), std::move(body),
                              std::move(content_type)));
}

expected<http_response> http_client::put(std::string target, std::string body,
                                         std::string content_type) {
  return request(make_request("PUT", std::move(target), std::move(body),
                              std::move(content_type)));
}

expected<http_response> http_client::patch(std::string target, std::string body,
                                           std::string content_type) {
  return request(make_request("PATCH", std::move(target), std::move(body),
                              std::move(content_type)));
}

expected<http_response> http_client::del(std::string target, std::string body) {
  std::string content_type = body.empty() ? "" : "application/json";
  return request(make_request("DELETE", std::move(target), std::move(body),
                              std::move(content_type)));
}

// line_stream

struct line_stream::state {
  explicit state(const client_config& c) : cfg(c), conn(cfg) {
  }
  client_config cfg;
  http_client::connection conn;
  /// Parses the status line, headers and chunk framing; chunk payloads go
  /// straight to `pending` through on_chunk_body.
  http::response_parser<http::empty_body> parser;
  /// Received body bytes; lines start at `head`, and no '\n' lies in
  /// [head, scanned).
  std::string pending;
  std::size_t head = 0;
  std::size_t scanned = 0;
  bool done = false;
  bool reading = false;
  beast::error_code failure;
  int status = 0;
  std::vector<http_header> headers;

  /// Stored here: the parser keeps a reference to it.
  std::function<std::size_t(std::uint64_t, beast::string_view,
                            beast::error_code&)>
    on_chunk = [this](std::uint64_t, beast::string_view body,
                      beast::error_code&) -> std::size_t {
    if (head > 0 && head == pending.size()) {
      pending.clear();
      scanned = head = 0;
    }
    pending.append(body.data(), body.size());
    return body.size();
  };

  void take_chunk_bodies() {
    parser.on_chunk_body(on_chunk);
  }

  /// Runs the parser over everything buffered: one socket read of up to
  /// 64 KiB can carry dozens of events, decoded without further I/O.
  void feed() {
    while (!parser.is_done() && conn.buffer.size() > 0) {
      beast::error_code ec;
      auto n = parser.put(conn.buffer.data(), ec);
      conn.buffer.consume(n);
      if (ec == http::error::need_more)
        break;
      if (ec) {
        failure = ec;
        return;
      }
      if (n == 0)
        break;
    }
    if (parser.is_done())
      done = true;
  }

  void start_read() {
    if (head > 0 && head * 2 > pending.size()) {
      // Drop consumed lines before the buffer grows.
      pending.erase(0, head);
      scanned -= head;
      head = 0;
    }
    reading = true;
    conn.with_stream([&](auto& s) {
      s.async_read_some(conn.buffer.prepare(64 * 1024),
                        [this](beast::error_code e, std::size_t n) {
                          reading = false;
                          conn.buffer.commit(n);
                          feed();
                          if (e && !done && !failure) {
                            if (e == net::error::eof) {
                              beast::error_code eof;
                              parser.put_eof(eof);
                              if (eof)
                                failure = eof;
                              else
                                done = parser.is_done();
                            } else {
                              failure = e;
                            }
                          }
                        });
    });
  }
};

line_stream::line_stream() = default;

line_stream::~line_stream() = default;

int line_stream::status() const noexcept {
  return state_->status;
}

const std::vector<http_header>& line_stream::headers() const noexcept {
  return state_->headers;
}

void line_stream::cancel() {
  auto* s = state_.get();
  // A stream is one long call: its reads stay cancellable until it ends.
  net::post(s->conn.ioc, [s] {
    beast::error_code ignored;
    if (s->conn.open)
      s->conn.tcp_layer().socket().cancel(ignored);
    s->failure = net::error::operation_aborted;
  });
}

expected<std::optional<std::string>>
line_stream::next_line(std::chrono::milliseconds timeout) {
  auto& s = *state_;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto nl = s.pending.find('\n', std::max(s.head, s.scanned));
    if (nl != std::string::npos) {
      std::string line = s.pending.substr(s.head, nl - s.head);
      s.head = nl + 1;
      s.scanned = s.head;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      return std::optional<std::string>{std::move(line)};
    }
    s.scanned = s.pending.size();
    if (s.failure)
      return net_error("read stream", s.failure);
    if (s.done) {
      if (s.head < s.pending.size()) {
        std::string rest = s.pending.substr(s.head);
        s.pending.clear();
        s.head = 0;
        s.scanned = 0;
        return std::optional<std::string>{std::move(rest)};
      }
      return std::optional<std::string>{};
    }
    if (!s.reading)
      s.start_read();
    auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero())
      return make_error(ec::timeout, "no complete line yet");
    if (s.conn.ioc.stopped())
      s.conn.ioc.restart();
    s.conn.ioc.run_for(left);
    if (s.reading)
      return make_error(ec::timeout, "no complete line yet");
  }
}

expected<std::string> line_stream::read_all(std::chrono::milliseconds timeout) {
  std::string out;
  for (;;) {
    auto line = next_line(timeout);
    if (!line)
      return line.err();
    if (!*line)
      return out;
    out += **line;
    out += '\n';
  }
}

expected<std::unique_ptr<line_stream>>
http_client::stream(const http_request& r) {
  return guarded(r.method + " " + r.target,
                 [&] { return stream_unguarded(r); });
}

expected<std::unique_ptr<line_stream>>
http_client::stream_unguarded(const http_request& r) {
  std::unique_ptr<line_stream> ls{new line_stream()};
  ls->state_ = std::make_unique<line_stream::state>(config_);
  auto& s = *ls->state_;
  // Until the header arrived, cancel() may abort this call.
  connection::call_scope scope{s.conn};
  {
    std::lock_guard guard{opening_mutex_};
    opening_ = &s.conn;
  }
  struct opening_reset {
    http_client& c;
    ~opening_reset() {
      std::lock_guard guard{c.opening_mutex_};
      c.opening_ = nullptr;
    }
  } reset{*this};
  if (auto e = s.conn.connect())
    return e;
  auto req = s.conn.build(r);
  if (auto ec = s.conn.write(req))
    return net_error("write request", ec);
  s.parser.body_limit(boost::none);
  s.parser.header_limit(1 << 20);
  s.take_chunk_bodies();
  beast::error_code ec;
  s.conn.tcp_layer().expires_after(config_.request_timeout);
  s.conn.with_stream([&](auto& st) {
    http::async_read_header(st, s.conn.buffer, s.parser,
                            [&](beast::error_code e, std::size_t) { ec = e; });
  });
  s.conn.run();
  if (ec)
    return net_error("read response header", ec);
  s.status = static_cast<int>(s.parser.get().result_int());
  s.headers = copy_headers(s.parser.get().base());
  if (!s.parser.is_done() && !s.parser.chunked()) {
    // A plain body (an error Status): read it whole, then serve its lines.
    http::response_parser<http::string_body> whole{std::move(s.parser)};
    whole.body_limit(config_.body_limit);
    s.conn.with_stream([&](auto& st) {
      http::async_read(st, s.conn.buffer, whole,
                       [&](beast::error_code e, std::size_t) { ec = e; });
    });
    s.conn.run();
    if (ec)
      return net_error("read response body", ec);
    s.pending = std::move(whole.get().body());
    s.done = true;
    s.conn.close();
    return ls;
  }
  s.conn.tcp_layer().expires_never();
  if (s.parser.is_done())
    s.done = true;
  s.feed();
  return ls;
}

} // namespace tessera::io
