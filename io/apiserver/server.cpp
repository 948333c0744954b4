// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/server.hpp"

#include "io/apiserver/namespace_controller.hpp"
#include "io/apiserver/workload_controller.hpp"
#include "io/http_server.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <vector>

namespace tessera::apiserver {

namespace {

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

/// Events taken from a watcher per write.
constexpr std::size_t max_batch = 4096;

io::http_server_config base_config(const server_config& c) {
  return {.name = "apiserver",
          .limits = c.limits,
          .threads = c.threads,
          .body_limit = c.body_limit,
          .header_limit = 64 * 1024,
          .read_timeout = c.idle_timeout,
          .write_timeout = c.write_timeout,
          .expect_continue = true,
          .handle_delay = c.fault_latency};
}

} // namespace

struct api_server::impl final : io::http_handler {
  /// A watch reply as a chunked stream: newline-delimited events, each
  /// pending batch in one chunk; ends at the timeout (with a last bookmark
  /// when allowed), when the client goes away, or when dropped.
  ///
  /// While the stream is busy it batches: after a write it sleeps up to
  /// `linger` before the next, so one write carries every event of that
  /// window. poll_busy() leaves the watcher's wake-up disarmed while it
  /// returns events, so writers do not wake the stream during the linger; it
  /// is re-armed by the first poll that finds nothing. An idle stream writes
  /// each event at once.
  class watch_body final : public io::http_stream {
  public:
    watch_body(std::shared_ptr<watch_stream> ws,
               std::chrono::microseconds linger)
      : ws_(std::move(ws)), w_(*ws_->events), linger_(linger) {
      const auto start = clock::now();
      deadline_ = start + ws_->timeout;
      bookmarks_ = w_.bookmarks_allowed() && ws_->bookmark_interval.count() > 0;
      next_bookmark_ = bookmarks_ ? start + ws_->bookmark_interval
                                  : clock::time_point::max();
    }

    void start(std::function<void()> wake) override {
      {
        std::lock_guard l{wake_mu_};
        wake_ = wake;
      }
      w_.set_notify(std::move(wake));
    }

    step next(std::string& out, bool client_gone) override {
      using kind = step::kind;
      if (finishing_)
        return {kind::end};
      const bool gone = client_gone || dropped_;
      if (!lingering_ && busy_ && linger_.count() > 0 && !gone) {
        lingering_ = true;
        linger_until_ = std::min(last_write_ + linger_, deadline_);
        return {kind::sleep, linger_until_};
      }
      if (lingering_) {
        if (clock::now() < linger_until_ && !gone)
          return {kind::sleep, linger_until_};
        lingering_ = false;
      }
      for (;;) {
        batch_.clear();
        w_.poll_busy(batch_, max_batch);
        if (!batch_.empty()) {
          auto now = clock::now();
          busy_ = batch_.size() > 1 || now - last_write_ < linger_;
          last_write_ = now;
          render(out);
          return {kind::write};
        }
        busy_ = false;
        if (client_gone || dropped_)
          return {kind::abort};
        if (w_.ended())
          return {kind::end};
        auto now = clock::now();
        if (now >= deadline_) {
          if (bookmarks_)
            if (auto bm = w_.bookmark()) {
              batch_.push_back(std::move(*bm));
              render(out);
              finishing_ = true;
              return {kind::write};
            }
          return {kind::end};
        }
        if (bookmarks_ && now >= next_bookmark_) {
          next_bookmark_ = now + ws_->bookmark_interval;
          if (auto bm = w_.bookmark()) {
            batch_.push_back(std::move(*bm));
            render(out);
            return {kind::write};
          }
          continue;
        }
        return {kind::wait, std::min(deadline_, next_bookmark_)};
      }
    }

    void stop() override {
      w_.stop();
    }

    /// Aborts the stream from any thread: its watcher stops and the session
    /// closes the connection.
    void drop() {
      w_.stop();
      dropped_ = true;
      std::function<void()> wake;
      {
        std::lock_guard l{wake_mu_};
        wake = wake_;
      }
      if (wake)
        wake();
    }

    /// Stops the watcher only (the stream then ends cleanly).
    void stop_watcher() {
      w_.stop();
    }

  private:
    /// Appends the batch: the shared serialized bytes of each event wrapped
    /// in `{"type":..,"object":..}` and a newline (or the renderer's lines).
    void render(std::string& out) {
      if (!ws_->render) {
        // The payload, and the chunk's closing CRLF.
        std::size_t total = out.size() + 2;
        for (const auto& ev : batch_)
          total += event_prefix(ev.type).size() + ev.object->json().size()
                   + event_suffix.size();
        out.reserve(total);
      }
      for (const auto& ev : batch_) {
        if (ws_->render) {
          out += ws_->render(ev, first_);
        } else {
          out += event_prefix(ev.type);
          out += ev.object->json();
          out += event_suffix;
        }
        first_ = false;
      }
    }

    std::shared_ptr<watch_stream> ws_;
    watcher& w_;
    std::chrono::microseconds linger_;
    clock::time_point deadline_;
    bool bookmarks_ = false;
    clock::time_point next_bookmark_;
    std::vector<watch_event> batch_;
    bool first_ = true;
    bool busy_ = false;
    bool lingering_ = false;
    bool finishing_ = false;
    clock::time_point last_write_{};
    clock::time_point linger_until_{};
    std::atomic<bool> dropped_{false};
    std::mutex wake_mu_;
    std::function<void()> wake_;
  };

  impl(store& s, server_config c)
    : st(s), cfg(std::move(c)), http(*this, base_config(cfg)) {
  }

  store& st;
  server_config cfg;
  /// Created once the port is known (it announces the address in /api).
  std::optional<api_handler> handler;
  std::optional<namespace_controller> namespaces;
  std::optional<workload_controller> workloads;
  bool tls = false;
  std::uint16_t bound_port = 0;
  std::atomic<bool> stopped{false};

  // Open watch streams, so stop() and the drop fault can reach them.
  std::mutex watches_mu;
  std::vector<std::weak_ptr<watch_body>> watches;

  // Last: stopped (its threads joined) before the rest goes.
  io::http_server http;

  void track(const std::shared_ptr<watch_body>& b) {
    {
      std::lock_guard l{watches_mu};
      std::erase_if(watches, [](const auto& w) { return w.expired(); });
      watches.emplace_back(b);
    }
    if (stopped)
      b->stop_watcher();
  }

  /// Aborts every open watch: its watcher stops and its session closes.
  void drop_watches() {
    std::vector<std::shared_ptr<watch_body>> live;
    {
      std::lock_guard l{watches_mu};
      for (auto& w : watches)
        if (auto b = w.lock())
          live.push_back(std::move(b));
      watches.clear();
    }
    for (auto& b : live)
      b->drop();
  }

  io::server_reply handle(const io::incoming_request& req) override {
    const auto t0 = std::chrono::steady_clock::now();
    http_reply reply = handler->handle({.method = req.method,
                                        .target = req.target,
                                        .content_type = req.content_type,
                                        .accept = req.accept,
                                        .authorization = req.authorization,
                                        .body = req.body});
    if (log::enabled(4)) {
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::steady_clock::now() - t0)
                  .count();
      TLOG_DEBUG("HTTP", "verb", std::string{req.method}, "URI",
                 std::string{req.target}, "latency", std::to_string(us) + "us",
                 "userAgent", std::string{req.user_agent}, "srcIP",
                 std::string{req.peer}, "resp", reply.status, "watch",
                 reply.watch != nullptr);
    }
    io::server_reply res;
    if (reply.watch) {
      res.content_type = reply.watch->content_type;
      auto body = std::make_shared<watch_body>(std::move(reply.watch),
                                               cfg.watch_linger);
      track(body);
      res.stream = std::move(body);
      return res;
    }
    res.status = reply.status;
    res.content_type = std::move(reply.content_type);
    res.headers = std::move(reply.headers);
    res.body = std::move(reply.body);
    return res;
  }

  std::optional<io::server_reply> reject(bool too_large,
                                         std::string_view why) override {
    api_status s = too_large ? status::too_large(cfg.body_limit)
                             : status::bad_request(std::string{why});
    io::server_reply res;
    res.status = s.code;
    res.content_type = "application/json";
    res.body = s.to_json();
    return res;
  }
};

expected<std::unique_ptr<api_server>> api_server::start(store& s,
                                                        server_config config) {
  auto i = std::make_unique<impl>(s, std::move(config));
  auto& cfg = i->cfg;
  if (!cfg.tls_cert_file.empty() || !cfg.tls_key_file.empty()) {
    if (cfg.tls_cert_file.empty() || cfg.tls_key_file.empty())
      return make_error(ec::invalid_input,
                        "--tls-cert and --tls-key must be given together");
    io::tls_settings tls;
    tls.certificate.file = cfg.tls_cert_file;
    tls.private_key.file = cfg.tls_key_file;
    tls.client_ca.file = cfg.tls_client_ca_file;
    tls.require_client_certificate = true;
    if (auto f = i->http.use_tls(tls)) {
      using part = io::tls_failure::part;
      if (f->what == part::certificate)
        return make_error(ec::invalid_input, "--tls-cert: cannot load "
                                             "certificate \""
                                               + cfg.tls_cert_file
                                               + "\": " + f->message);
      if (f->what == part::private_key)
        return make_error(ec::invalid_input, "--tls-key: cannot load key \""
                                               + cfg.tls_key_file
                                               + "\": " + f->message);
      return make_error(ec::invalid_input, "cannot load client CA "
                                             + cfg.tls_client_ca_file + ": "
                                             + f->message);
    }
    i->tls = true;
  }
  if (!io::parse_ip_address(cfg.bind_address))
    return make_error(ec::invalid_input, "--bind-address: \"" + cfg.bind_address
                                           + "\" is not an IP address");
  auto port = i->http.listen(cfg.bind_address, cfg.port, i->tls);
  if (!port)
    return make_error(ec::unavailable, "cannot listen on " + cfg.bind_address
                                         + ":" + std::to_string(cfg.port) + ": "
                                         + port.err().message);
  i->bound_port = *port;
  // The handler announces the real address in /api.
  auto host = cfg.bind_address == "0.0.0.0" || cfg.bind_address == "::"
                ? std::string{"127.0.0.1"}
                : cfg.bind_address;
  cfg.handler.server_address = host + ":" + std::to_string(i->bound_port);
  i->handler.emplace(s, cfg.handler);
  if (cfg.namespace_controller)
    i->namespaces.emplace(s);
  if (cfg.workload_controller)
    i->workloads.emplace(s);

  if (cfg.fault_drop_watches_every.count() > 0)
    i->http.every(cfg.fault_drop_watches_every, [p = i.get()] {
      p->drop_watches();
      TLOG_INFO("fault injection: dropped watch connections");
    });
  if (cfg.fault_compact_every.count() > 0)
    i->http.every(cfg.fault_compact_every, [p = i.get()] {
      p->st.compact(0);
      TLOG_INFO("fault injection: compacted watch history");
    });
  i->http.run();
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
  return impl_->http.accepts();
}

const api_handler& api_server::handler() const noexcept {
  return *impl_->handler;
}

void api_server::stop() {
  if (!impl_ || impl_->stopped.exchange(true))
    return;
  // Unsubscribe every watcher first: nothing may post into the I/O
  // context once it is gone.
  impl_->drop_watches();
  impl_->http.stop();
  impl_->namespaces.reset();
  impl_->workloads.reset();
}

} // namespace tessera::apiserver
