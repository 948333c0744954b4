// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/reflector.hpp"

#include "model/decode.hpp"
#include "support/log.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"

#include <random>

namespace tessera::io {

namespace {

using kind = reflected_event::kind;

std::mt19937_64& rng() {
  thread_local std::mt19937_64 gen{std::random_device{}()};
  return gen;
}

std::string
query_join(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string q;
  for (const auto& [k, v] : params) {
    q += q.empty() ? "?" : "&";
    q += k;
    q += "=";
    q += url_escape(v);
  }
  return q;
}

} // namespace

std::string_view name_text(const std::string& s) {
  return s;
}
std::string_view name_text(model::symbol s) {
  return s.view();
}

std::string object_key(const model::object& o) {
  return std::visit(
    [](const auto& p) -> std::string {
      std::string name{name_text(p->name)};
      if constexpr (requires { p->ns; })
        return std::string{p->ns.view()} + "/" + name;
      else
        return name;
    },
    o);
}

std::string object_uid(const model::object& o) {
  return std::visit(
    [](const auto& p) -> std::string {
      if constexpr (requires { p->uid; })
        return p->uid;
      else
        return {};
    },
    o);
}

std::string object_resource_version(const model::object& o) {
  return std::visit([](const auto& p) { return p->resource_version; }, o);
}

reflector::reflector(rest_client& client, reflector_config config, handler h)
  : client_(client), config_(std::move(config)), handler_(std::move(h)) {
}

reflector::~reflector() {
  stop();
}

void reflector::start() {
  if (thread_.joinable())
    return;
  stopping_.store(false);
  thread_ = std::thread{[this] {
    set_thread_name("watch:" + config_.name);
    // run_guarded() starts over after a failed list or watch; only what
    // escapes its backoff (a failed lock) ends the thread, logged.
    (void)run_thread_body("watch:" + config_.name, [this] { run_guarded(); });
  }};
}

void reflector::request_stop() {
  stopping_.store(true);
  scope_.cancel();
  { std::lock_guard guard{wait_mutex_}; }
  wait_cv_.notify_all();
}

void reflector::stop() {
  request_stop();
  if (thread_.joinable())
    thread_.join();
}

std::string reflector::last_resource_version() const {
  std::lock_guard guard{rv_mutex_};
  return rv_;
}

void reflector::set_rv(std::string rv) {
  if (rv.empty())
    return;
  std::lock_guard guard{rv_mutex_};
  rv_ = std::move(rv);
}

bool reflector::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock lock{wait_mutex_};
  wait_cv_.wait_for(lock, d, [this] { return stopping_.load(); });
  return !stopping_.load();
}

bool reflector::back_off() {
  backoff_ = backoff_.count() == 0
               ? config_.backoff_initial
               : std::min(backoff_ * 2, config_.backoff_max);
  std::uniform_real_distribution<double> jitter{0.0, 1.0};
  auto wait = std::chrono::milliseconds(static_cast<std::int64_t>(
    static_cast<double>(backoff_.count()) * (1.0 + jitter(rng()))));
  TLOG_V(2, "reflector backing off", "resource", config_.name, "wait_ms",
         static_cast<std::int64_t>(wait.count()));
  return sleep_for(wait);
}

void reflector::flush(std::vector<reflected_event>& out) {
  if (out.empty())
    return;
  stats_.events.fetch_add(out.size(), std::memory_order_relaxed);
  if (!stopping_.load() && handler_.deliver)
    handler_.deliver(std::move(out));
  out.clear();
}

void reflector::run_guarded() {
  // An exception must not end the process from this thread: log it, back
  // off and start over with a list.
  for (;;) {
    try {
      run();
      return;
    } catch (...) {
      stats_.errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_ERROR("reflector failed; listing again", "resource", config_.name,
                 "error", exception_text(std::current_exception()));
    }
    if (stopping_.load() || !back_off())
      return;
  }
}

void reflector::run() {
  while (!stopping_.load()) {
    std::string rv;
    {
      std::lock_guard guard{rv_mutex_};
      // client-go: "0" first (any cached state will do), then the last
      // seen RV, and "" (a consistent read) after that one was expired.
      rv = rv_unavailable_ ? std::string{} : (rv_.empty() ? "0" : rv_);
    }
    bool gone = false;
    if (!list(rv, gone)) {
      if (stopping_.load())
        return;
      if (gone && !rv_unavailable_) {
        rv_unavailable_ = true;
        continue;
      }
      if (!back_off())
        return;
      continue;
    }
    rv_unavailable_ = false;
    for (;;) {
      if (stopping_.load())
        return;
      watch_end end = watch();
      if (stopping_.load())
        return;
      if (end == watch_end::clean)
        continue;
      // A kind the server does not serve stays empty; its failing watch
      // says nothing about the state of the others. Told before the
      // backoff: a watch cut short may mean the server went away, and
      // what the consumer holds is suspect from that moment on.
      if (end != watch_end::rewatch && served_ && handler_.lost_sync)
        handler_.lost_sync();
      if (end == watch_end::relist)
        break;
      if (!back_off())
        return;
      if (end == watch_end::failed || end == watch_end::cut_short)
        break;
    }
  }
}

bool reflector::list(const std::string& resource_version, bool& gone) {
  stats_.lists.fetch_add(1, std::memory_order_relaxed);
  std::unordered_map<std::string, known_object> fresh;
  std::vector<model::object> order;
  std::string list_rv;
  std::string cont;
  model::decode_options opts;
  opts.apply_defaults = false;
  do {
    std::vector<std::pair<std::string, std::string>> q;
    if (!config_.field_selector.empty())
      q.emplace_back("fieldSelector", config_.field_selector);
    if (!config_.label_selector.empty())
      q.emplace_back("labelSelector", config_.label_selector);
    if (config_.page_size > 0)
      q.emplace_back("limit", std::to_string(config_.page_size));
    if (!cont.empty())
      q.emplace_back("continue", cont);
    else if (!resource_version.empty())
      q.emplace_back("resourceVersion", resource_version);
    http_request r;
    r.target = config_.path + query_join(q);
    auto resp = client_.request(r, &scope_);
    if (!resp) {
      if (!stopping_.load()) {
        stats_.errors.fetch_add(1, std::memory_order_relaxed);
        TLOG_WARN("list failed", "resource", config_.name, "err",
                  resp.err().message);
      }
      return false;
    }
    stats_.pages.fetch_add(1, std::memory_order_relaxed);
    if (resp->status == 410) {
      gone = true;
      stats_.gone.fetch_add(1, std::memory_order_relaxed);
      TLOG_V(1, "list expired; listing again", "resource", config_.name, "err",
             status_error(*resp).message);
      return false;
    }
    if (resp->status == 404 && cont.empty()) {
      // As client-go: a kind the server does not serve (an older cluster)
      // counts as empty and synced, so scheduling can start; the failing
      // watch then relists with backoff.
      stats_.errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_WARN("the API server does not serve this kind; treating it as "
                "empty",
                "resource", config_.name, "path", config_.path);
      served_ = false;
      break;
    }
    if (resp->status != 200) {
      stats_.errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_WARN("list failed", "resource", config_.name, "status", resp->status,
                "err", status_error(*resp).message);
      return false;
    }
    served_ = true;
    auto decoded = model::decode_list_json(resp->body, config_.kind, opts);
    if (!decoded) {
      stats_.errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_ERROR("cannot decode list", "resource", config_.name, "err",
                 decoded.err().message);
      return false;
    }
    for (std::size_t i = 0; i < decoded->skipped.size(); ++i) {
      const auto& e = decoded->skipped[i];
      stats_.undecodable.fetch_add(1, std::memory_order_relaxed);
      TLOG_ERROR("ignoring an object that does not decode", "resource",
                 config_.name, "err", e.message);
      if (handler_.undecodable && i < decoded->skipped_objects.size())
        handler_.undecodable(decoded->skipped_objects[i], e.message);
    }
    if (cont.empty())
      list_rv = decoded->resource_version;
    for (auto& o : decoded->items) {
      std::string key = object_key(o);
      known_object k{o, object_uid(o), object_resource_version(o)};
      if (fresh.insert_or_assign(std::move(key), std::move(k)).second)
        order.push_back(std::move(o));
    }
    cont = decoded->continue_token;
  } while (!cont.empty() && !stopping_.load());
  if (stopping_.load())
    return false;

  // Reconcile with what was delivered before.
  std::vector<reflected_event> out;
  for (auto it = known_.begin(); it != known_.end();) {
    if (fresh.count(it->first) == 0) {
      out.push_back({kind::deleted, it->second.obj});
      stats_.synthesized_deletes.fetch_add(1, std::memory_order_relaxed);
      it = known_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& o : order) {
    std::string key = object_key(o);
    const known_object& now = fresh.at(key);
    auto it = known_.find(key);
    if (it == known_.end()) {
      out.push_back({kind::added, o});
      known_.emplace(key, now);
    } else if (!it->second.uid.empty() && !now.uid.empty()
               && it->second.uid != now.uid) {
      out.push_back({kind::deleted, it->second.obj});
      stats_.synthesized_deletes.fetch_add(1, std::memory_order_relaxed);
      out.push_back({kind::added, o});
      it->second = now;
    } else if (it->second.resource_version != now.resource_version) {
      out.push_back({kind::modified, o});
      it->second = now;
    }
  }
  set_rv(list_rv);
  TLOG_V(2, "listed", "resource", config_.name, "objects", fresh.size(),
         "changes", out.size(), "resourceVersion", list_rv);
  // The initial state goes out in one call (the consumer applies it
  // atomically); later relists may be split.
  if (!synced_.load()) {
    stats_.events.fetch_add(out.size(), std::memory_order_relaxed);
    if (handler_.deliver && !out.empty())
      handler_.deliver(std::move(out));
    synced_.store(true);
    if (handler_.synced)
      handler_.synced();
  } else {
    flush(out);
    if (handler_.synced && !stopping_.load())
      handler_.synced();
  }
  return true;
}

void reflector::apply_watch_event(kind type, model::object obj,
                                  std::vector<reflected_event>& out) {
  std::string key = object_key(obj);
  auto it = known_.find(key);
  if (type == kind::deleted) {
    if (it == known_.end()) {
      stats_.dropped_duplicates.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    known_.erase(it);
    out.push_back({kind::deleted, std::move(obj)});
    return;
  }
  known_object k{obj, object_uid(obj), object_resource_version(obj)};
  if (it == known_.end()) {
    known_.emplace(std::move(key), std::move(k));
    out.push_back({kind::added, std::move(obj)});
    return;
  }
  if (!it->second.uid.empty() && !k.uid.empty() && it->second.uid != k.uid) {
    out.push_back({kind::deleted, it->second.obj});
    it->second = std::move(k);
    out.push_back({kind::added, std::move(obj)});
    return;
  }
  if (it->second.resource_version == k.resource_version) {
    stats_.dropped_duplicates.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  it->second = std::move(k);
  out.push_back({kind::modified, std::move(obj)});
}

reflector::watch_end reflector::watch() {
  std::uniform_int_distribution<int> pick{
    config_.min_watch_timeout_s,
    std::max(config_.min_watch_timeout_s, config_.max_watch_timeout_s)};
  int timeout_s = pick(rng());
  std::vector<std::pair<std::string, std::string>> q;
  q.emplace_back("allowWatchBookmarks", "true");
  if (!config_.field_selector.empty())
    q.emplace_back("fieldSelector", config_.field_selector);
  if (!config_.label_selector.empty())
    q.emplace_back("labelSelector", config_.label_selector);
  q.emplace_back("resourceVersion", last_resource_version());
  q.emplace_back("timeoutSeconds", std::to_string(timeout_s));
  q.emplace_back("watch", "true");
  http_request r;
  r.target = config_.path + query_join(q);
  stats_.watches.fetch_add(1, std::memory_order_relaxed);
  auto opened = client_.stream(r, &scope_);
  if (!opened) {
    if (!stopping_.load()) {
      stats_.errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_WARN("watch failed", "resource", config_.name, "err",
                opened.err().message);
    }
    return watch_end::failed;
  }
  std::unique_ptr<line_stream> stream = std::move(*opened);
  if (stream->status() != 200) {
    auto body = stream->read_all(std::chrono::seconds(10));
    api_status st
      = decode_status(body ? *body : std::string{}, stream->status());
    if (stream->status() == 410) {
      stats_.gone.fetch_add(1, std::memory_order_relaxed);
      TLOG_V(1, "watch expired; listing again", "resource", config_.name, "err",
             st.message);
      return watch_end::relist;
    }
    stats_.errors.fetch_add(1, std::memory_order_relaxed);
    TLOG_WARN("watch refused", "resource", config_.name, "status",
              stream->status(), "err", st.message);
    return stream->status() == 429 || stream->status() >= 500
             ? watch_end::rewatch
             : watch_end::failed;
  }

  model::decode_options opts;
  opts.apply_defaults = false;
  auto started = std::chrono::steady_clock::now();
  auto last_line = started;
  // A watch that says nothing for this long (bookmarks included) is dead.
  auto silence_limit = std::chrono::seconds(timeout_s + 60);
  // Events and bookmarks (not ERROR events) received.
  std::uint64_t received = 0;
  // Within a second and with nothing received, a watch proved nothing:
  // the server may have gone away (or been replaced) right after
  // accepting it.
  auto proved_nothing = [&] {
    return received == 0
           && std::chrono::steady_clock::now() - started
                < std::chrono::seconds(1);
  };
  // A watch that lasted or brought something shows a healthy server: the
  // backoff starts from its initial value again. Were it kept, a quiet
  // informer would wait longer after each outage, up to the cap, with
  // the consumer holding bindings meanwhile.
  auto settle_backoff = [&] {
    if (!proved_nothing())
      backoff_ = std::chrono::milliseconds(0);
  };
  // client-go ends a watch whose stream broke (EOF, a reset) like one the
  // server closed: one cut short is a failure (back off, then list
  // again), otherwise watch again at once. A quiet watch (no event for
  // seconds) cut by a proxy or a restarting server must not back off
  // longer each time: the informer would be blind meanwhile.
  auto ended = [&] {
    if (proved_nothing())
      return watch_end::cut_short;
    settle_backoff();
    return watch_end::clean;
  };
  std::vector<reflected_event> batch;
  for (;;) {
    if (stopping_.load())
      return watch_end::clean;
    auto wait = batch.empty() ? config_.poll : std::chrono::milliseconds(0);
    auto line = stream->next_line(wait);
    if (!line) {
      if (line.err().code == ec::timeout) {
        flush(batch);
        if (std::chrono::steady_clock::now() - last_line > silence_limit) {
          TLOG_WARN("watch went silent; reconnecting", "resource",
                    config_.name);
          settle_backoff();
          return watch_end::rewatch;
        }
        continue;
      }
      flush(batch);
      if (stopping_.load())
        return watch_end::clean;
      TLOG_V(2, "watch connection failed", "resource", config_.name, "err",
             line.err().message);
      return ended();
    }
    if (!*line) {
      flush(batch);
      return ended();
    }
    last_line = std::chrono::steady_clock::now();
    const std::string& text = **line;
    if (text.empty())
      continue;
    auto ev = model::decode_watch_event_json(text, config_.kind, opts);
    if (!ev) {
      auto peek = peek_watch_line(text);
      stats_.undecodable.fetch_add(1, std::memory_order_relaxed);
      if (!peek) {
        flush(batch);
        TLOG_ERROR("undecodable watch line; watching again", "resource",
                   config_.name, "err", ev.err().message);
        settle_backoff();
        return watch_end::rewatch;
      }
      // The object does not decode: it is invisible to the scheduler from
      // now on (a known one is reported deleted).
      const auto& o = peek->object;
      std::string key = o.ns.empty() ? o.name : o.ns + "/" + o.name;
      TLOG_ERROR("ignoring an object that does not decode", "resource",
                 config_.name, "object", key, "err", ev.err().message);
      if (auto it = known_.find(key); it != known_.end()) {
        batch.push_back({kind::deleted, it->second.obj});
        stats_.synthesized_deletes.fetch_add(1, std::memory_order_relaxed);
        known_.erase(it);
      }
      if (peek->type != "DELETED" && handler_.undecodable)
        handler_.undecodable(o, ev.err().message);
      set_rv(o.resource_version);
      continue;
    }
    if (ev->type != model::watch_event_type::error)
      ++received;
    switch (ev->type) {
    case model::watch_event_type::bookmark:
      set_rv(ev->resource_version);
      break;
    case model::watch_event_type::error:
      flush(batch);
      settle_backoff();
      if (ev->code == 410) {
        stats_.gone.fetch_add(1, std::memory_order_relaxed);
        TLOG_V(1, "watch expired; listing again", "resource", config_.name,
               "err", ev->message);
        return watch_end::relist;
      }
      stats_.errors.fetch_add(1, std::memory_order_relaxed);
      TLOG_WARN("watch error", "resource", config_.name, "code", ev->code,
                "err", ev->message);
      return ev->code >= 500 ? watch_end::rewatch : watch_end::failed;
    case model::watch_event_type::added:
    case model::watch_event_type::modified:
    case model::watch_event_type::deleted:
      if (ev->obj) {
        kind k = ev->type == model::watch_event_type::added ? kind::added
                 : ev->type == model::watch_event_type::deleted
                   ? kind::deleted
                   : kind::modified;
        apply_watch_event(k, std::move(*ev->obj), batch);
      }
      set_rv(ev->resource_version);
      break;
    }
    if (batch.size() >= config_.max_batch)
      flush(batch);
  }
}

} // namespace tessera::io
