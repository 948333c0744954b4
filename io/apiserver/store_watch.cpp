// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The watch half of the store: registering watchers, replaying history,
// fanning writes out, and the watcher's consumer side.
#include "io/apiserver/admission.hpp"
#include "io/apiserver/store.hpp"
#include "io/apiserver/store_state.hpp"
#include "support/enum_text.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace tessera::apiserver {

namespace json = boost::json;

namespace {

/// The old object's content stamped with a newer resourceVersion (the
/// DELETED a watcher gets when an object stops matching).
object_ptr stamp(const object_ptr& prev, std::uint64_t rv) {
  json_doc doc = prev->parse();
  auto& meta = doc.value().as_object()["metadata"];
  if (!meta.is_object())
    meta = json::object{};
  meta.as_object()["resourceVersion"] = std::to_string(rv);
  return stored_object::make(prev->storage(), doc.value());
}

} // namespace

// ---- fan-out ----------------------------------------------------------------

bool store_state::matches(const watcher& w, const stored_object& obj) {
  if (!w.ns_.empty() && obj.ns() != w.ns_)
    return false;
  return w.labels_.matches(obj.attrs()) && w.fields_.matches(obj.attrs());
}

std::optional<watch_event>
store_state::event_for(const watcher& w, const history_record& rec,
                       object_ptr& stamped_cache, object_ptr& view_cache,
                       object_ptr& stamped_view_cache) {
  const bool converted = w.resource_->view != resource_view::stored;
  auto view = [&]() -> object_ptr {
    if (!converted)
      return rec.obj;
    if (!view_cache)
      view_cache = present(*w.resource_, rec.obj);
    return view_cache;
  };
  bool now = matches(w, *rec.obj);
  switch (rec.type) {
  case event_type::added:
    if (now)
      return watch_event{event_type::added, view()};
    return std::nullopt;
  case event_type::deleted:
    if (now)
      return watch_event{event_type::deleted, view()};
    return std::nullopt;
  case event_type::modified: {
    bool before = rec.prev && matches(w, *rec.prev);
    if (before && now)
      return watch_event{event_type::modified, view()};
    if (!before && now)
      return watch_event{event_type::added, view()};
    if (before && !now) {
      if (!stamped_cache)
        stamped_cache = stamp(rec.prev, rec.rv);
      if (!converted)
        return watch_event{event_type::deleted, stamped_cache};
      if (!stamped_view_cache)
        stamped_view_cache = present(*w.resource_, stamped_cache);
      return watch_event{event_type::deleted, stamped_view_cache};
    }
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

bool store_state::push(watcher& w, watch_event ev, bool backlog) {
  std::unique_lock lock{w.mu_};
  if (w.ended_)
    return true;
  if (!backlog && w.queue_.size() - w.backlog_ >= w.limit_) {
    // Too slow: discard what it has not read and end it with an error, as
    // the real server drops watchers that fall behind.
    w.queue_.clear();
    w.backlog_ = 0;
    api_status s
      = status::internal("watch of " + w.resource_->qualified_name()
                         + " dropped: the client did not keep up ("
                         + std::to_string(w.limit_) + " events buffered)");
    w.queue_.push_back(watch_event{event_type::error, make_status_object(s)});
    w.ended_ = true;
    ++stats.watchers_dropped;
  } else {
    w.queue_.push_back(std::move(ev));
    ++stats.events_delivered;
    if (backlog)
      ++w.backlog_;
  }
  if (w.waiting_)
    w.cv_.notify_one();
  if (!w.signalled_) {
    w.signalled_ = true;
    if (w.notify_)
      w.notify_();
  }
  return !w.ended_;
}

void store_state::fan_out(const history_record& rec) {
  auto& list = watchers[static_cast<std::size_t>(rec.storage)];
  if (list.empty())
    return;
  object_ptr stamped, view, stamped_view;
  bool dropped = false;
  for (watcher* w : list) {
    auto ev = event_for(*w, rec, stamped, view, stamped_view);
    if (ev && !push(*w, std::move(*ev), false))
      dropped = true;
  }
  if (dropped)
    std::erase_if(list, [](watcher* w) {
      std::lock_guard l{w->mu_};
      return w->ended_;
    });
}

void store_state::unregister(watcher* w) {
  for (auto& list : watchers)
    std::erase(list, w);
}

// ---- store::watch ---------------------------------------------------------

api_result<std::shared_ptr<watcher>> store::watch(const resource_info& res,
                                                  std::string_view ns,
                                                  const watch_options& opts) {
  auto& st = *state_;
  for (auto left = st.watches_to_refuse.load(); left > 0;)
    if (st.watches_to_refuse.compare_exchange_weak(left, left - 1))
      return status::too_many_requests(
        "the server is refusing this watch (store_config::refuse_watches)", 1);
  std::vector<status_cause> causes;
  const auto& match = opts.resource_version_match;
  if (opts.send_initial_events) {
    if (match != "NotOlderThan")
      causes.push_back(status::forbidden_field(
        "resourceVersionMatch",
        "sendInitialEvents requires setting resourceVersionMatch to "
        "NotOlderThan"));
    if (st.cfg.refuse_watch_list)
      causes.push_back(status::forbidden_field(
        "sendInitialEvents", "sendInitialEvents is forbidden for watch unless "
                             "the WatchList feature gate is enabled"));
  }
  if (!match.empty()) {
    if (!opts.send_initial_events)
      causes.push_back(status::forbidden_field(
        "resourceVersionMatch", "resourceVersionMatch is forbidden for watch "
                                "unless sendInitialEvents is provided"));
    if (match != "NotOlderThan")
      causes.push_back(status::unsupported_value("resourceVersionMatch", match,
                                                 "\"NotOlderThan\""));
  }
  if (!causes.empty())
    return status::invalid("ListOptions", "meta.k8s.io", "", std::move(causes));
  auto picked = parse_selection(res, opts.label_selector, opts.field_selector,
                                opts.resource_version);
  if (!picked)
    return picked.err();
  const std::optional<std::uint64_t> from = picked->rv;
  const std::string rv_text = opts.resource_version.value_or("");

  struct maker : watcher {};
  std::shared_ptr<watcher> w = std::make_shared<maker>();
  w->resource_ = &res;
  w->ns_ = res.namespaced ? std::string{ns} : std::string{};
  w->labels_ = std::move(picked->labels);
  w->fields_ = std::move(picked->fields);
  w->allow_bookmarks_ = opts.allow_bookmarks;
  w->limit_ = opts.queue_limit ? opts.queue_limit : st.cfg.watch_queue_limit;
  if (w->limit_ == 0)
    w->limit_ = 1;
  w->store_ = state_;

  std::lock_guard lock{st.mu};
  if (from && *from > st.rv)
    return status::too_large_resource_version(*from, st.rv);
  auto& map = st.objects[static_cast<std::size_t>(res.storage)];
  auto send_state = [&] {
    for (const auto& [k, c] : map)
      if (store_state::matches(*w, *c.obj))
        st.push(*w, watch_event{event_type::added, present(res, c.obj)}, true);
  };
  // The requested version was compacted away: one ERROR event ends the
  // watch.
  auto end_too_old = [&] {
    st.push(*w,
            watch_event{event_type::error,
                        make_status_object(status::expired(
                          "too old resource version: " + rv_text + " ("
                          + std::to_string(st.compacted) + ")"))},
            true);
    std::lock_guard wl{w->mu_};
    w->ended_ = true;
  };
  // Every change of this kind after `rv`, from the history.
  auto replay_after = [&](std::uint64_t rv) {
    auto it = std::upper_bound(
      st.history.begin(), st.history.end(), rv,
      [](std::uint64_t v, const history_record& r) { return v < r.rv; });
    for (; it != st.history.end(); ++it) {
      if (it->storage != res.storage)
        continue;
      object_ptr a, b, c;
      if (auto ev = st.event_for(*w, *it, a, b, c))
        st.push(*w, std::move(*ev), true);
    }
  };
  if (opts.send_initial_events.value_or(false)) {
    send_state();
    st.push(*w,
            watch_event{event_type::bookmark, make_bookmark(res, st.rv, true)},
            true);
  } else if (opts.send_initial_events) {
    // sendInitialEvents=false: changes after `from` (or from now).
    if (from && *from != 0 && *from < st.compacted) {
      end_too_old();
      return w;
    }
    if (from && *from != 0)
      replay_after(*from);
  } else if (!from || *from == 0) {
    send_state();
  } else {
    if (*from < st.compacted) {
      end_too_old();
      return w;
    }
    replay_after(*from);
  }
  st.watchers[static_cast<std::size_t>(res.storage)].push_back(w.get());
  return w;
}

void store::close_watchers() {
  auto& st = *state_;
  std::lock_guard lock{st.mu};
  for (auto& list : st.watchers) {
    for (watcher* w : list) {
      std::lock_guard wl{w->mu_};
      w->queue_.clear();
      w->backlog_ = 0;
      w->ended_ = true;
      if (w->waiting_)
        w->cv_.notify_one();
      if (w->notify_)
        w->notify_();
    }
    list.clear();
  }
}

// ---- watcher
// ------------------------------------------------------------------

watcher::~watcher() {
  stop();
}

std::size_t watcher::poll(std::vector<watch_event>& out, std::size_t max) {
  std::lock_guard lock{mu_};
  signalled_ = false;
  return take(out, max);
}

std::size_t watcher::poll_busy(std::vector<watch_event>& out, std::size_t max) {
  std::lock_guard lock{mu_};
  if (queue_.empty())
    signalled_ = false;
  return take(out, max);
}

std::size_t watcher::take(std::vector<watch_event>& out, std::size_t max) {
  std::size_t n = std::min(max, queue_.size());
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  backlog_ -= std::min(backlog_, n);
  return n;
}

bool watcher::wait_for(duration d) {
  std::unique_lock lock{mu_};
  waiting_ = true;
  cv_.wait_for(lock, d, [&] { return !queue_.empty() || ended_; });
  waiting_ = false;
  return !queue_.empty();
}

void watcher::set_notify(std::function<void()> notify) {
  std::lock_guard lock{mu_};
  notify_ = std::move(notify);
  // Fire once if events are already waiting, so none is missed.
  if ((!queue_.empty() || ended_) && notify_) {
    signalled_ = true;
    notify_();
  }
}

bool watcher::ended() const {
  std::lock_guard lock{mu_};
  return ended_;
}

std::optional<watch_event> watcher::bookmark() {
  auto st = store_.lock();
  if (!st)
    return std::nullopt;
  std::lock_guard lock{st->mu};
  std::lock_guard wl{mu_};
  if (!queue_.empty() || ended_)
    return std::nullopt;
  return watch_event{event_type::bookmark,
                     make_bookmark(*resource_, st->rv, false)};
}

void watcher::stop() {
  if (auto st = store_.lock()) {
    std::lock_guard lock{st->mu};
    st->unregister(this);
  }
  std::lock_guard wl{mu_};
  ended_ = true;
  queue_.clear();
  notify_ = nullptr;
  if (waiting_)
    cv_.notify_one();
}

// ---- presentation
// ------------------------------------------------------------

object_ptr present(const resource_info& res, const object_ptr& obj) {
  if (res.view != resource_view::events_v1 || !obj)
    return obj;
  json::value v = admission::event_core_to_v1(obj->parse().value());
  return stored_object::make(storage_kind::event, v);
}

object_ptr make_bookmark(const resource_info& res, std::uint64_t rv,
                         bool initial_events_end) {
  json::object meta;
  meta["resourceVersion"] = std::to_string(rv);
  if (initial_events_end)
    meta["annotations"] = json::object{{"k8s.io/initial-events-end", "true"}};
  json::object o;
  o["kind"] = res.kind;
  o["apiVersion"] = res.api_version();
  o["metadata"] = std::move(meta);
  json::value v = std::move(o);
  return stored_object::make(res.storage, v);
}

object_ptr make_status_object(const api_status& s) {
  json::error_code ec;
  auto v = json::parse(s.to_json(), ec);
  return stored_object::make(storage_kind::event, v);
}

std::string_view to_string(event_type t) noexcept {
  static constexpr enum_names<5> names
    = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"};
  static_assert(all_named(names));
  return enum_text(t, names, "ERROR");
}

} // namespace tessera::apiserver
