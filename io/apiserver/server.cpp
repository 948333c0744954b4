// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/server.hpp"

#include "io/apiserver/namespace_controller.hpp"
#include "support/log.hpp"

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

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace tessera::apiserver {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using strand = net::strand<net::io_context::executor_type>;

namespace {

constexpr auto tuple_awaitable = net::as_tuple(net::use_awaitable);

constexpr std::string_view event_prefix(event_type t) {
  switch (t) {
  case event_type::added:
    return R"({"type":"ADDED","object":)";
  case event_type::modified:
    return R"({"type":"MODIFIED","object":)";
  case event_type::deleted:
    return R"({"type":"DELETED","object":)";
  case event_type::bookmark:
    return R"({"type":"BOOKMARK","object":)";
  case event_type::error:
    return R"({"type":"ERROR","object":)";
  }
  return R"({"type":"ERROR","object":)";
}

constexpr std::string_view event_suffix = "}\n";
constexpr std::string_view crlf = "\r\n";

/// Events taken from a watcher per write.
constexpr std::size_t max_batch = 4096;
/// A watch session's frame buffer larger than this is released after its
/// write, so one burst does not pin memory for the stream's lifetime.
constexpr std::size_t max_retained_frame = std::size_t{1} << 20;
/// Room before a chunk's payload for its size line (16 hex digits, CRLF).
constexpr std::size_t chunk_header_room = 18;

/// Frames `batch` as one HTTP chunk in `out`: the shared serialized bytes of
/// each event wrapped in `{"type":..,"object":..}` and a newline (or the
/// stream's renderer's lines). The size line is written right-aligned into
/// the room reserved before the payload; returns where the chunk starts
/// (`out.size()` when the payload is empty).
std::size_t frame_chunk(std::string& out, const std::vector<watch_event>& batch,
                        const watch_stream& ws, bool& first) {
  out.assign(chunk_header_room, '\0');
  if (!ws.render) {
    std::size_t total = out.size() + crlf.size();
    for (const auto& ev : batch)
      total += event_prefix(ev.type).size() + ev.object->json().size()
               + event_suffix.size();
    out.reserve(total);
  }
  for (const auto& ev : batch) {
    if (ws.render) {
      out += ws.render(ev, first);
    } else {
      out += event_prefix(ev.type);
      out += ev.object->json();
      out += event_suffix;
    }
    first = false;
  }
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

beast::tcp_stream& tcp_of(beast::tcp_stream& s) {
  return s;
}
beast::tcp_stream& tcp_of(ssl::stream<beast::tcp_stream>& s) {
  return s.next_layer();
}

} // namespace

namespace server_detail {

/// Wake-up state shared by a watch session and its watcher's notify
/// callback; lives on the session's strand.
struct watch_wait {
  explicit watch_wait(const net::any_io_executor& ex) : timer(ex) {
  }
  net::steady_timer timer;
  /// Set on the strand when events became pending.
  bool pending = false;
  /// The client went away (socket readable) or the server drops the watch.
  bool closed = false;
  bool dropped = false;
};

} // namespace server_detail

using server_detail::watch_wait;

struct api_server::impl {
  impl(store& s, server_config c)
    : st(s), cfg(std::move(c)), guard("apiserver", cfg.limits), acceptor(ioc) {
  }

  store& st;
  server_config cfg;
  // Before the io_context: the sessions it destroys release their slots.
  io::accept_guard guard;
  /// Created once the port is known (it announces the address in /api).
  std::optional<api_handler> handler;
  std::optional<namespace_controller> namespaces;
  net::io_context ioc;
  tcp::acceptor acceptor;
  std::unique_ptr<ssl::context> tls;
  std::uint16_t bound_port = 0;
  std::vector<std::thread> threads;
  std::atomic<bool> stopped{false};
  net::steady_timer* drop_timer = nullptr;

  // Open watch sessions, so stop() and the drop fault can reach them.
  std::mutex watches_mu;
  std::vector<std::pair<std::weak_ptr<watcher>, std::weak_ptr<watch_wait>>>
    watches;

  void track(const std::shared_ptr<watcher>& w,
             const std::shared_ptr<watch_wait>& ww) {
    {
      std::lock_guard l{watches_mu};
      std::erase_if(watches, [](const auto& p) { return p.first.expired(); });
      watches.emplace_back(w, ww);
    }
    if (stopped)
      w->stop();
  }

  /// Aborts every open watch: its watcher stops and its session closes.
  void drop_watches() {
    std::vector<
      std::pair<std::shared_ptr<watcher>, std::shared_ptr<watch_wait>>>
      live;
    {
      std::lock_guard l{watches_mu};
      for (auto& [w, ww] : watches)
        if (auto a = w.lock())
          if (auto b = ww.lock())
            live.emplace_back(a, b);
      watches.clear();
    }
    for (auto& [w, ww] : live) {
      w->stop();
      net::post(ww->timer.get_executor(), [ww = ww] {
        ww->dropped = true;
        ww->timer.cancel();
      });
    }
  }

  template <class Stream>
  net::awaitable<bool> serve_watch(Stream& stream, const watch_stream& ws,
                                   bool keep_alive) {
    auto ex = co_await net::this_coro::executor;
    auto wait = std::make_shared<watch_wait>(ex);
    auto& w = *ws.events;
    track(ws.events, wait);
    std::weak_ptr<watch_wait> weak = wait;
    w.set_notify([weak] {
      if (auto s = weak.lock())
        net::post(s->timer.get_executor(), [s] {
          s->pending = true;
          s->timer.cancel();
        });
    });
    // A readable socket during a watch means the client closed it.
    tcp_of(stream).socket().async_wait(
      tcp::socket::wait_read, [weak](beast::error_code ec) {
        if (ec == net::error::operation_aborted)
          return;
        if (auto s = weak.lock()) {
          s->closed = true;
          s->timer.cancel();
        }
      });

    http::response<http::empty_body> res{http::status::ok, 11};
    res.set(http::field::content_type, "application/json");
    res.set(http::field::cache_control, "no-cache, private");
    res.chunked(true);
    res.keep_alive(keep_alive);
    http::response_serializer<http::empty_body> sr{res};
    auto& lower = tcp_of(stream);
    lower.expires_after(cfg.write_timeout);
    auto [hec, hn]
      = co_await http::async_write_header(stream, sr, tuple_awaitable);
    (void)hn;
    if (hec) {
      w.stop();
      co_return false;
    }

    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + ws.timeout;
    const bool bookmarks
      = w.bookmarks_allowed() && ws.bookmark_interval.count() > 0;
    auto next_bookmark = bookmarks
                           ? start + ws.bookmark_interval
                           : std::chrono::steady_clock::time_point::max();
    std::vector<watch_event> batch;
    std::string frame; // reused: no allocation per batch once warm
    bool first = true;
    bool ok = true;

    // Writes `batch` as one chunk of newline-delimited events, in one write.
    auto write_batch = [&]() -> net::awaitable<bool> {
      auto start = frame_chunk(frame, batch, ws, first);
      if (start == frame.size())
        co_return true; // nothing rendered: an empty chunk would end the body
      lower.expires_after(cfg.write_timeout);
      auto [ec, n] = co_await net::async_write(
        stream, net::buffer(frame.data() + start, frame.size() - start),
        tuple_awaitable);
      (void)n;
      if (frame.capacity() > max_retained_frame)
        std::string{}.swap(frame);
      co_return !ec;
    };

    // While a stream is busy, batch: after a write, wait up to `linger`
    // before the next, so one write carries every event of that window.
    // poll_busy() leaves the watcher's wake-up disarmed while it returns
    // events, so writers do not wake this session during the linger; it is
    // re-armed by the first poll that finds nothing. An idle stream writes
    // each event at once.
    const auto linger = cfg.watch_linger;
    auto last_write = std::chrono::steady_clock::time_point{};
    bool busy = false;
    for (;;) {
      if (busy && linger.count() > 0 && !wait->closed && !wait->dropped) {
        auto until = std::min(last_write + linger, deadline);
        while (std::chrono::steady_clock::now() < until && !wait->closed
               && !wait->dropped) {
          wait->timer.expires_at(until);
          co_await wait->timer.async_wait(tuple_awaitable);
        }
        wait->pending = false;
      }
      batch.clear();
      w.poll_busy(batch, max_batch);
      if (!batch.empty()) {
        auto now = std::chrono::steady_clock::now();
        busy = batch.size() > 1 || now - last_write < linger;
        last_write = now;
        if (!co_await write_batch()) {
          ok = false;
          break;
        }
        continue;
      }
      busy = false;
      if (wait->closed || wait->dropped) {
        ok = false;
        break;
      }
      if (w.ended())
        break;
      auto now = std::chrono::steady_clock::now();
      if (now >= deadline) {
        if (bookmarks)
          if (auto bm = w.bookmark()) {
            batch.push_back(std::move(*bm));
            ok = co_await write_batch();
          }
        break;
      }
      if (bookmarks && now >= next_bookmark) {
        if (auto bm = w.bookmark()) {
          batch.push_back(std::move(*bm));
          if (!co_await write_batch()) {
            ok = false;
            break;
          }
        }
        next_bookmark = now + ws.bookmark_interval;
        continue;
      }
      if (!wait->pending) {
        wait->timer.expires_at(std::min(deadline, next_bookmark));
        co_await wait->timer.async_wait(tuple_awaitable);
      }
      wait->pending = false;
    }
    w.stop();
    beast::error_code ignored;
    lower.socket().cancel(ignored);
    if (ok) {
      static constexpr std::string_view last = "0\r\n\r\n";
      lower.expires_after(cfg.write_timeout);
      auto [ec, n] = co_await net::async_write(
        stream, net::buffer(last.data(), last.size()), tuple_awaitable);
      (void)n;
      ok = !ec;
    }
    co_return false; // a watch connection is not reused
  }

  template <class Stream>
  net::awaitable<void> session(Stream stream, io::accept_guard::slot slot) {
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
      parser.header_limit(64 * 1024);
      lower.expires_after(cfg.idle_timeout);
      auto [ec, n] = co_await http::async_read_header(stream, buffer, parser,
                                                      tuple_awaitable);
      (void)n;
      if (!ec && !parser.is_done()) {
        // curl and others wait for this before sending a large body.
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
          lower.expires_after(cfg.idle_timeout);
          auto [bec, bn] = co_await http::async_read(stream, buffer, parser,
                                                     tuple_awaitable);
          (void)bn;
          ec = bec;
        }
      }
      if (ec == http::error::end_of_stream || ec == net::error::eof
          || ec == beast::error::timeout || ec == net::error::operation_aborted
          || ec == net::error::connection_reset)
        break;
      if (ec) {
        api_status s
          = ec == http::error::body_limit
              ? status::too_large(cfg.body_limit)
              : status::bad_request("malformed HTTP request: " + ec.message());
        http::response<http::string_body> res{static_cast<http::status>(s.code),
                                              11};
        res.set(http::field::content_type, "application/json");
        res.body() = s.to_json();
        res.keep_alive(false);
        res.prepare_payload();
        lower.expires_after(cfg.write_timeout);
        co_await http::async_write(stream, res, tuple_awaitable);
        TLOG_DEBUG("http request rejected", "srcIP", peer, "error",
                   ec.message());
        break;
      }
      auto& req = parser.get();
      if (cfg.fault_latency.count() > 0) {
        net::steady_timer t{co_await net::this_coro::executor};
        t.expires_after(cfg.fault_latency);
        co_await t.async_wait(tuple_awaitable);
      }
      const auto t0 = std::chrono::steady_clock::now();
      http_request_view view;
      view.method = req.method_string();
      view.target = req.target();
      view.content_type = req[http::field::content_type];
      view.accept = req[http::field::accept];
      view.authorization = req[http::field::authorization];
      view.body = req.body();
      http_reply reply = handler->handle(view);
      const bool keep_alive = req.keep_alive();
      if (log::enabled(4)) {
        auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
        TLOG_DEBUG("HTTP", "verb", std::string{view.method}, "URI",
                   std::string{view.target}, "latency",
                   std::to_string(us) + "us", "userAgent",
                   std::string{req[http::field::user_agent]}, "srcIP", peer,
                   "resp", reply.status, "watch", reply.watch != nullptr);
      }
      if (reply.watch) {
        co_await serve_watch(stream, *reply.watch, keep_alive);
        break;
      }
      http::response<http::string_body> res{
        static_cast<http::status>(reply.status), 11};
      res.set(http::field::content_type, reply.content_type);
      res.set(http::field::cache_control, "no-cache, private");
      for (const auto& [k, v] : reply.headers)
        res.set(k, v);
      res.body() = std::move(reply.body);
      res.keep_alive(keep_alive);
      res.prepare_payload();
      lower.expires_after(cfg.write_timeout);
      auto [wec, wn] = co_await http::async_write(stream, res, tuple_awaitable);
      (void)wn;
      if (wec || !keep_alive)
        break;
    }
    beast::error_code ignored;
    lower.socket().shutdown(tcp::socket::shutdown_send, ignored);
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
      TLOG_DEBUG("tls handshake failed", "error", ec.message());
      co_return;
    }
    co_await session(std::move(stream), std::move(slot));
  }

  // Never spins: a full server or a failed accept (out of descriptors)
  // waits on a timer before accepting again.
  net::awaitable<void> accept_loop() {
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
      if (tls)
        net::co_spawn(ex, tls_session(std::move(socket), std::move(slot)),
                      net::detached);
      else
        net::co_spawn(
          ex, session(beast::tcp_stream{std::move(socket)}, std::move(slot)),
          net::detached);
    }
  }

  net::awaitable<void> fault_loop(std::chrono::milliseconds every,
                                  bool compact) {
    net::steady_timer t{co_await net::this_coro::executor};
    for (;;) {
      t.expires_after(every);
      auto [ec] = co_await t.async_wait(tuple_awaitable);
      if (ec || stopped)
        co_return;
      if (compact) {
        st.compact(0);
        TLOG_INFO("fault injection: compacted watch history");
      } else {
        drop_watches();
        TLOG_INFO("fault injection: dropped watch connections");
      }
    }
  }
};

expected<std::unique_ptr<api_server>> api_server::start(store& s,
                                                        server_config config) {
  auto i = std::make_unique<impl>(s, std::move(config));
  auto& cfg = i->cfg;
  beast::error_code ec;
  if (!cfg.tls_cert_file.empty() || !cfg.tls_key_file.empty()) {
    if (cfg.tls_cert_file.empty() || cfg.tls_key_file.empty())
      return make_error(ec::invalid_input,
                        "--tls-cert and --tls-key must be given together");
    i->tls = std::make_unique<ssl::context>(ssl::context::tls_server);
    i->tls->use_certificate_chain_file(cfg.tls_cert_file, ec);
    if (ec)
      return make_error(ec::invalid_input, "--tls-cert: cannot load "
                                           "certificate \""
                                             + cfg.tls_cert_file
                                             + "\": " + ec.message());
    i->tls->use_private_key_file(cfg.tls_key_file, ssl::context::pem, ec);
    if (ec)
      return make_error(ec::invalid_input, "--tls-key: cannot load key \""
                                             + cfg.tls_key_file
                                             + "\": " + ec.message());
    if (!cfg.tls_client_ca_file.empty()) {
      i->tls->load_verify_file(cfg.tls_client_ca_file, ec);
      if (!ec)
        i->tls->set_verify_mode(
          ssl::verify_peer | ssl::verify_fail_if_no_peer_cert, ec);
      if (ec)
        return make_error(ec::invalid_input, "cannot load client CA "
                                               + cfg.tls_client_ca_file + ": "
                                               + ec.message());
    }
  }
  auto address = net::ip::make_address(cfg.bind_address, ec);
  if (ec)
    return make_error(ec::invalid_input, "--bind-address: \"" + cfg.bind_address
                                           + "\" is not an IP address");
  tcp::endpoint ep{address, cfg.port};
  i->acceptor.open(ep.protocol(), ec);
  if (!ec)
    i->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec)
    i->acceptor.bind(ep, ec);
  if (!ec)
    i->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    return make_error(ec::unavailable, "cannot listen on " + cfg.bind_address
                                         + ":" + std::to_string(cfg.port) + ": "
                                         + ec.message());
  i->bound_port = i->acceptor.local_endpoint().port();
  // The handler announces the real address in /api.
  auto host = cfg.bind_address == "0.0.0.0" || cfg.bind_address == "::"
                ? std::string{"127.0.0.1"}
                : cfg.bind_address;
  cfg.handler.server_address = host + ":" + std::to_string(i->bound_port);
  i->handler.emplace(s, cfg.handler);
  if (cfg.namespace_controller)
    i->namespaces.emplace(s);

  net::co_spawn(i->ioc, i->accept_loop(), net::detached);
  if (cfg.fault_drop_watches_every.count() > 0)
    net::co_spawn(i->ioc, i->fault_loop(cfg.fault_drop_watches_every, false),
                  net::detached);
  if (cfg.fault_compact_every.count() > 0)
    net::co_spawn(i->ioc, i->fault_loop(cfg.fault_compact_every, true),
                  net::detached);
  int n = std::max(1, cfg.threads);
  for (int t = 0; t < n; ++t)
    i->threads.emplace_back([p = i.get()] {
      for (;;) {
        try {
          p->ioc.run();
          return;
        } catch (const std::exception& e) {
          TLOG_ERROR("api server I/O thread caught an exception", "error",
                     e.what());
        }
      }
    });
  return std::unique_ptr<api_server>(new api_server(std::move(i)));
}

api_server::api_server(std::unique_ptr<impl> i) : impl_(std::move(i)) {
}

api_server::~api_server() {
  stop();
}

std::uint16_t api_server::port() const noexcept {
  return impl_->bound_port;
}

std::string api_server::url() const {
  std::string host = impl_->cfg.bind_address;
  if (host == "0.0.0.0" || host == "::")
    host = "127.0.0.1";
  if (host.find(':') != std::string::npos)
    host = "[" + host + "]";
  return std::string{impl_->tls ? "https://" : "http://"} + host + ":"
         + std::to_string(impl_->bound_port);
}

const io::accept_guard& api_server::accepts() const noexcept {
  return impl_->guard;
}

const api_handler& api_server::handler() const noexcept {
  return *impl_->handler;
}

void api_server::stop() {
  if (!impl_ || impl_->stopped.exchange(true))
    return;
  // Unsubscribe every watcher first: nothing may post into the io_context
  // once it is gone.
  impl_->drop_watches();
  net::post(impl_->ioc, [p = impl_.get()] {
    beast::error_code ignored;
    p->acceptor.close(ignored);
  });
  impl_->ioc.stop();
  for (auto& t : impl_->threads)
    if (t.joinable())
      t.join();
  impl_->threads.clear();
  impl_->namespaces.reset();
}

} // namespace tessera::apiserver
