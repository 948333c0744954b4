// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "adapters/embedded_store/store_bridge.hpp"

#include "io/apiserver/resources.hpp"
#include "io/apiserver/status.hpp"
#include "io/apiserver/store.hpp"
#include "io/apiserver/time_format.hpp"
#include "io/volume_binder.hpp"
#include "support/log.hpp"
#include "support/text.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <deque>
#include <unordered_map>
#include <vector>

namespace tessera::adapters {

namespace {

using apiserver::storage_kind;

/// The kinds the scheduler consumes, in the order they are listed at start
/// (nodes before pods, so that the cache places bound pods on known nodes).
constexpr std::array<storage_kind, 16> watched_kinds = {
  storage_kind::namespace_,
  storage_kind::priority_class,
  storage_kind::node,
  storage_kind::pod_disruption_budget,
  storage_kind::service,
  storage_kind::replication_controller,
  storage_kind::replica_set,
  storage_kind::stateful_set,
  storage_kind::storage_class,
  storage_kind::csi_driver,
  storage_kind::csi_node,
  storage_kind::persistent_volume,
  storage_kind::persistent_volume_claim,
  storage_kind::csi_storage_capacity,
  storage_kind::volume_attachment,
  storage_kind::pod,
};

/// kube-scheduler's pod informer leaves out terminal pods.
constexpr const char* pod_field_selector
  = "status.phase!=Succeeded,status.phase!=Failed";

std::string now_time() {
  return format_time(std::chrono::system_clock::now());
}

actors::object_event::kind event_kind(apiserver::event_type t) {
  switch (t) {
  case apiserver::event_type::added:
    return actors::object_event::kind::added;
  case apiserver::event_type::deleted:
    return actors::object_event::kind::deleted;
  default:
    return actors::object_event::kind::modified;
  }
}

} // namespace

struct store_bridge::impl {
  /// One watched kind: its watcher and what the pipeline knows of it (for
  /// re-lists after a dropped watch).
  struct kind_state {
    storage_kind kind = storage_kind::pod;
    std::shared_ptr<apiserver::watcher> watch;
    /// storage key -> the stored version last delivered (its bytes, which
    /// the store shares; decoded again only for a deletion a re-list finds,
    /// so that the bridge keeps no second decoded copy of every object).
    std::unordered_map<std::string, apiserver::object_ptr> known;
  };

  /// A scheduler event waiting for the recorder thread.
  struct queued_event {
    model::pod_ptr pod;
    std::string type;
    std::string reason;
    std::string action;
    std::string message;
  };

  impl(apiserver::store& s, store_bridge_config c) : st(s), cfg(std::move(c)) {
    if (cfg.record_events)
      recorder = std::thread([this] {
        set_thread_name("bridge:events");
        // record_loop() catches around each event; what still escapes ends
        // the recorder, logged, and events are dropped from then on.
        if (!run_thread_body("bridge:events", [this] { record_loop(); }))
          recorder_failed();
      });
    io::volume_binder_api api;
    api.get = [this](model::object_kind kind, std::string_view ns,
                     std::string_view name) -> expected<std::string> {
      auto o = st.get(storage_resource(kind), ns, name);
      if (!o)
        return apiserver::to_error(o.err());
      return (*o)->json();
    };
    api.update = [this](model::object_kind kind, std::string_view ns,
                        std::string_view name, std::string body) -> error {
      auto o = st.update(storage_resource(kind), ns, name, body,
                         apiserver::subresource::main);
      return o ? error{} : apiserver::to_error(o.err());
    };
    io::volume_binder_config vc;
    vc.threads = 1; // store calls take microseconds
    vc.poll_interval = cfg.volume_poll_interval;
    volumes = std::make_unique<io::volume_binder>(std::move(api), vc);
  }

  /// The resource of the volume binder's kinds (pods, volumes, claims).
  static const apiserver::resource_info&
  storage_resource(model::object_kind kind) {
    switch (kind) {
    case model::object_kind::pod:
      return apiserver::primary_resource(storage_kind::pod);
    case model::object_kind::persistent_volume:
      return apiserver::primary_resource(storage_kind::persistent_volume);
    default:
      return apiserver::primary_resource(storage_kind::persistent_volume_claim);
    }
  }

  apiserver::store& st;
  store_bridge_config cfg;

  // Source thread and its wake-up.
  std::mutex mu;
  std::condition_variable cv;
  bool signalled = false;
  bool stopping = false;
  std::thread thread;
  /// Guards `r` against stop(): callbacks run with it held.
  std::mutex deliver_mu;
  std::optional<receiver> r;
  std::vector<kind_state> kinds;
  std::unique_ptr<io::volume_binder> volumes;

  // Counters.
  std::atomic<std::uint64_t> delivered{0};
  std::atomic<std::uint64_t> deliveries{0};
  std::atomic<std::uint64_t> decode_errors{0};
  std::atomic<std::uint64_t> relists{0};
  std::atomic<std::uint64_t> binds{0};
  std::atomic<std::uint64_t> bind_errors{0};
  std::atomic<std::uint64_t> status_patches{0};
  std::atomic<std::uint64_t> events_recorded{0};
  std::atomic<std::uint64_t> events_dropped{0};
  std::atomic<std::uint64_t> event_seq{0};

  // Event recorder thread and its queue.
  std::mutex events_mu;
  std::condition_variable events_cv;
  std::deque<queued_event> events_queue;
  /// Events taken off the queue and not yet written.
  std::size_t events_writing = 0;
  bool events_stopping = false;
  /// The recorder thread ended on an exception: nothing writes any more.
  bool events_lost = false;
  std::thread recorder;

  void wake() {
    {
      std::lock_guard guard{mu};
      signalled = true;
    }
    cv.notify_one();
  }

  const apiserver::resource_info& resource(storage_kind k) const {
    return apiserver::primary_resource(k);
  }

  /// Decodes one stored object; logs and counts failures.
  std::optional<model::object> decode(const apiserver::stored_object& o) {
    auto m = o.to_model();
    if (!m) {
      ++decode_errors;
      TLOG_WARN("store bridge: skipping undecodable object", "key", o.key(),
                "error", m.err().message);
      return std::nullopt;
    }
    return *m;
  }

  bool deliver(actors::object_events events) {
    if (events.empty())
      return true;
    std::lock_guard guard{deliver_mu};
    if (!r)
      return false;
    delivered += events.size();
    ++deliveries;
    r->deliver(std::move(events));
    return true;
  }

  /// Lists `k` and opens its watch from the list's resourceVersion. Returns
  /// the events that turn what the pipeline knows into the listed state.
  std::optional<actors::object_events> list_and_watch(kind_state& k,
                                                      bool initial) {
    apiserver::list_options lo;
    if (k.kind == storage_kind::pod)
      lo.field_selector = pod_field_selector;
    auto listed = st.list(resource(k.kind), "", lo);
    if (!listed) {
      TLOG_ERROR("store bridge: list failed", "resource", resource(k.kind).name,
                 "error", listed.err().message);
      return std::nullopt;
    }
    actors::object_events out;
    std::unordered_map<std::string, apiserver::object_ptr> now;
    now.reserve(listed->items.size());
    for (const auto& item : listed->items) {
      auto m = decode(*item);
      if (!m)
        continue;
      bool had = k.known.count(item->key()) > 0;
      out.push_back({had ? actors::object_event::kind::modified
                         : actors::object_event::kind::added,
                     std::move(*m)});
      now.emplace(item->key(), item);
    }
    if (!initial)
      for (const auto& [key, obj] : k.known)
        if (now.count(key) == 0)
          if (auto m = decode(*obj))
            out.push_back({actors::object_event::kind::deleted, std::move(*m)});
    k.known = std::move(now);
    apiserver::watch_options wo;
    wo.resource_version = std::to_string(listed->resource_version);
    wo.field_selector = lo.field_selector;
    // The bridge drains as fast as the store writes; a generous buffer
    // keeps bursts (thousands of pods created at once) from dropping it.
    wo.queue_limit = std::size_t{1} << 24;
    auto w = st.watch(resource(k.kind), "", wo);
    if (!w) {
      TLOG_ERROR("store bridge: watch failed", "resource",
                 resource(k.kind).name, "error", w.err().message);
      return std::nullopt;
    }
    k.watch = std::move(*w);
    k.watch->set_notify([this] { wake(); });
    return out;
  }

  void run() {
    actors::object_events initial;
    for (auto kind : watched_kinds) {
      kinds.push_back(kind_state{kind, nullptr, {}});
      auto events = list_and_watch(kinds.back(), true);
      if (!events)
        return;
      for (auto& e : *events)
        initial.push_back(std::move(e));
    }
    if (!deliver(std::move(initial)))
      return;
    {
      std::lock_guard guard{deliver_mu};
      if (!r)
        return;
      r->synced();
    }
    struct pending {
      std::uint64_t rv;
      std::size_t kind;
      apiserver::watch_event ev;
    };
    std::vector<pending> held;
    std::vector<apiserver::watch_event> polled;
    for (;;) {
      {
        std::unique_lock lock{mu};
        cv.wait(lock, [&] { return signalled || stopping; });
        if (stopping)
          return;
        signalled = false;
      }
      // Everything at or below `cutoff` is already in every watcher's
      // queue (the store fills them inside the write), so delivering up to
      // it keeps one global order across kinds.
      std::uint64_t cutoff = st.resource_version();
      std::vector<std::size_t> dropped;
      for (std::size_t i = 0; i < kinds.size(); ++i) {
        polled.clear();
        kinds[i].watch->poll(polled);
        for (auto& ev : polled) {
          if (ev.type == apiserver::event_type::bookmark)
            continue;
          if (ev.type == apiserver::event_type::error) {
            dropped.push_back(i);
            continue;
          }
          std::uint64_t rv = ev.object ? ev.object->resource_version() : 0;
          held.push_back({rv, i, std::move(ev)});
        }
        if (kinds[i].watch->ended()
            && std::find(dropped.begin(), dropped.end(), i) == dropped.end())
          dropped.push_back(i);
      }
      std::stable_sort(
        held.begin(), held.end(),
        [](const pending& a, const pending& b) { return a.rv < b.rv; });
      auto split
        = std::partition_point(held.begin(), held.end(), [&](const pending& p) {
            return p.rv <= cutoff;
          });
      actors::object_events batch;
      batch.reserve(std::min<std::size_t>(
        static_cast<std::size_t>(split - held.begin()), cfg.max_batch));
      for (auto it = held.begin(); it != split; ++it) {
        auto m = decode(*it->ev.object);
        if (!m)
          continue;
        auto& known = kinds[it->kind].known;
        if (it->ev.type == apiserver::event_type::deleted)
          known.erase(it->ev.object->key());
        else
          known.insert_or_assign(it->ev.object->key(), it->ev.object);
        batch.push_back({event_kind(it->ev.type), std::move(*m)});
        if (batch.size() >= cfg.max_batch) {
          if (!deliver(std::move(batch)))
            return;
          batch = {};
        }
      }
      held.erase(held.begin(), split);
      if (!deliver(std::move(batch)))
        return;
      for (std::size_t i : dropped) {
        ++relists;
        TLOG_WARN("store bridge: watch ended, re-listing", "resource",
                  resource(kinds[i].kind).name);
        // Events of this kind still held were superseded by the re-list.
        std::erase_if(held, [&](const pending& p) { return p.kind == i; });
        kinds[i].watch->stop();
        auto events = list_and_watch(kinds[i], false);
        if (!events || !deliver(std::move(*events)))
          return;
      }
      if (!held.empty())
        wake();
    }
  }

  // ------------------------------------------------------------- sink

  /// Queues an event for the recorder thread (called on scheduler
  /// threads: costs a lock and a move).
  void record_event(const model::pod_ptr& pod, std::string_view type,
                    std::string_view reason, std::string_view action,
                    std::string message) {
    if (!cfg.record_events)
      return;
    {
      std::lock_guard guard{events_mu};
      if (events_lost || events_queue.size() >= cfg.max_queued_events) {
        ++events_dropped;
        return;
      }
      events_queue.push_back({pod, std::string{type}, std::string{reason},
                              std::string{action}, std::move(message)});
    }
    events_cv.notify_one();
  }

  void record_loop() {
    std::deque<queued_event> batch;
    std::unique_lock lock{events_mu};
    for (;;) {
      events_cv.wait(lock,
                     [&] { return events_stopping || !events_queue.empty(); });
      if (events_queue.empty())
        return; // stopping, and everything was written
      batch.swap(events_queue);
      events_writing = batch.size();
      lock.unlock();
      for (const auto& e : batch) {
        // One event that cannot be written is dropped, as one the store
        // refused would be; the rest of the batch still goes.
        try {
          write_event(*e.pod, e.type, e.reason, e.action, e.message);
        } catch (...) {
          ++events_dropped;
          TLOG_ERROR("store bridge: event not recorded", "pod", e.pod->key(),
                     "error", exception_text(std::current_exception()));
        }
      }
      batch.clear();
      lock.lock();
      events_writing = 0;
      events_cv.notify_all();
    }
  }

  /// After the recorder thread failed: drops what waits, so that
  /// flush_events() does not wait for ever on a thread that is gone.
  void recorder_failed() {
    {
      std::lock_guard guard{events_mu};
      events_lost = true;
      events_dropped += events_queue.size();
      events_queue.clear();
      events_writing = 0;
    }
    events_cv.notify_all();
  }

  void flush_events() {
    std::unique_lock lock{events_mu};
    events_cv.wait(lock, [&] {
      return (events_queue.empty() && events_writing == 0)
             || !recorder.joinable() || events_lost;
    });
  }

  void stop_recorder() {
    {
      std::lock_guard guard{events_mu};
      events_stopping = true;
    }
    events_cv.notify_all();
    if (recorder.joinable())
      recorder.join();
  }

  void write_event(const model::pod& pod, std::string_view type,
                   std::string_view reason, std::string_view action,
                   std::string_view message) {
    auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
    char suffix[40];
    std::snprintf(suffix, sizeof suffix, ".%llx%04llx",
                  static_cast<unsigned long long>(nanos),
                  static_cast<unsigned long long>(++event_seq & 0xffff));
    std::string ns{pod.ns.view()};
    std::string when = now_time();
    // Event messages are truncated to 1024 bytes, as the event recorder does.
    std::string_view note = message.substr(0, 1024);
    std::string body;
    body.reserve(512 + note.size());
    body += R"({"apiVersion":"v1","kind":"Event","metadata":{"name":)";
    body += json_quoted(pod.name + suffix);
    body += R"(,"namespace":)" + json_quoted(ns) + "},";
    body += R"("involvedObject":{"apiVersion":"v1","kind":"Pod","namespace":)";
    body += json_quoted(ns) + R"(,"name":)" + json_quoted(pod.name)
            + R"(,"uid":)" + json_quoted(pod.uid) + "},";
    body += R"("reason":)" + json_quoted(reason) + R"(,"message":)"
            + json_quoted(note);
    body += R"(,"action":)" + json_quoted(action);
    body += R"(,"type":)" + json_quoted(type);
    body += R"(,"source":{"component":)" + json_quoted(cfg.component) + "}";
    body += R"(,"reportingComponent":)" + json_quoted(cfg.component);
    body += R"(,"firstTimestamp":)" + json_quoted(when) + R"(,"lastTimestamp":)"
            + json_quoted(when) + R"(,"count":1})";
    auto r = st.create(resource(storage_kind::event), ns, body);
    if (r)
      ++events_recorded;
    else
      TLOG_V(2, "store bridge: event not recorded", "pod", pod.key(), "error",
             r.err().message);
  }

  /// A strategic merge patch of the pod's status.
  void patch_status(const model::pod& pod, const std::string& body) {
    auto r = st.patch(resource(storage_kind::pod), pod.ns.view(), pod.name,
                      apiserver::patch_type::strategic, body,
                      apiserver::subresource::status);
    ++status_patches;
    if (!r && r.err().code != 404)
      TLOG_WARN("store bridge: status patch failed", "pod", pod.key(), "error",
                r.err().message);
  }
};

store_bridge::store_bridge(apiserver::store& s, store_bridge_config cfg)
  : impl_(std::make_unique<impl>(s, std::move(cfg))) {
}

store_bridge::~store_bridge() {
  stop();
  impl_->volumes->stop();
  impl_->stop_recorder();
}

void store_bridge::flush_events() {
  impl_->flush_events();
}

void store_bridge::start(receiver r) {
  {
    std::lock_guard guard{impl_->deliver_mu};
    impl_->r = std::move(r);
  }
  {
    std::lock_guard guard{impl_->mu};
    impl_->stopping = false;
    impl_->signalled = false;
  }
  impl_->thread = std::thread([this] {
    set_thread_name("bridge:watch");
    // A failure ends the deliveries, logged, as a failed list does.
    (void)run_thread_body("bridge:watch", [this] { impl_->run(); });
  });
}

void store_bridge::stop() {
  {
    std::lock_guard guard{impl_->mu};
    impl_->stopping = true;
  }
  impl_->cv.notify_one();
  {
    // After this no callback runs: deliveries take the same lock.
    std::lock_guard guard{impl_->deliver_mu};
    impl_->r.reset();
  }
  if (impl_->thread.joinable()) {
    impl_->thread.join();
    TLOG_V(1, "store bridge: stopped", "events",
           std::to_string(impl_->delivered.load()), "deliveries",
           std::to_string(impl_->deliveries.load()), "relists",
           std::to_string(impl_->relists.load()));
  }
  for (auto& k : impl_->kinds)
    if (k.watch)
      k.watch->stop();
  impl_->kinds.clear();
  impl_->flush_events();
}

void store_bridge::bind(const model::pod_ptr& pod, model::symbol node,
                        std::function<void(error)> done) {
  apiserver::binding b;
  b.ns = std::string{pod->ns.view()};
  b.name = pod->name;
  b.node = std::string{node.view()};
  b.uid = pod->uid;
  auto r = impl_->st.bind(b);
  error outcome;
  if (r) {
    ++impl_->binds;
  } else {
    ++impl_->bind_errors;
    outcome = apiserver::to_error(r.err());
    outcome.message = r.err().message;
  }
  done(std::move(outcome));
}

void store_bridge::bind_volumes(const model::pod_ptr& pod, model::symbol node,
                                const model::volume_binding_plan_ptr& plan,
                                std::chrono::milliseconds timeout,
                                std::function<void(error)> done) {
  if (plan == nullptr || plan->empty()) {
    done({});
    return;
  }
  impl_->volumes->bind(pod, node, plan, timeout, std::move(done));
}

void store_bridge::scheduled(const model::pod_ptr& pod, model::symbol node) {
  impl_->record_event(pod, "Normal", "Scheduled", "Binding",
                      "Successfully assigned " + pod->key() + " to "
                        + std::string{node.view()});
}

void store_bridge::unschedulable(const model::pod_ptr& pod,
                                 const actors::failure_report& report) {
  std::string body = R"({"status":{"conditions":[{"type":"PodScheduled",)"
                     R"("status":"False","reason":)"
                     + json_quoted(report.reason) + R"(,"message":)"
                     + json_quoted(report.message)
                     + R"(,"lastProbeTime":null,"lastTransitionTime":)"
                     + json_quoted(now_time()) + "}]";
  if (report.update_nomination) {
    body += R"(,"nominatedNodeName":)";
    body += report.nominated_node.empty()
              ? std::string{"null"}
              : json_quoted(report.nominated_node.view());
  }
  body += "}}";
  impl_->patch_status(*pod, body);
  impl_->record_event(pod, "Warning", "FailedScheduling", "Scheduling",
                      report.message);
}

void store_bridge::preempt(const model::pod_ptr& victim,
                           const model::pod_ptr& preemptor, model::symbol node,
                           std::function<void(error)> done) {
  std::string body
    = R"({"status":{"conditions":[{"type":"DisruptionTarget","status":"True",)"
      R"("reason":"PreemptionByScheduler","message":)"
      + json_quoted(impl_->cfg.component
                    + ": preempting to accommodate a higher priority pod")
      + R"(,"lastProbeTime":null,"lastTransitionTime":)"
      + json_quoted(now_time()) + "}]}}";
  impl_->patch_status(*victim, body);
  // Empty DeleteOptions: the pod's own grace period; the fake kubelet
  // finishes the deletion of a bound pod.
  auto r = impl_->st.remove(impl_->resource(storage_kind::pod),
                            victim->ns.view(), victim->name);
  if (!r && r.err().code != 404) {
    TLOG_WARN("store bridge: deleting a victim failed", "pod", victim->key(),
              "error", r.err().message);
    done(error{ec::unavailable,
               "deleting victim " + victim->key() + ": " + r.err().message});
    return;
  }
  impl_->record_event(victim, "Normal", "Preempted", "Preempting",
                      "Preempted by pod " + preemptor->uid + " on node "
                        + std::string{node.view()});
  done({});
}

void store_bridge::clear_nomination(const model::pod_ptr& pod) {
  impl_->patch_status(*pod, R"({"status":{"nominatedNodeName":null}})");
}

store_bridge_stats store_bridge::stats() const {
  store_bridge_stats s;
  s.events_delivered = impl_->delivered.load();
  s.deliveries = impl_->deliveries.load();
  s.decode_errors = impl_->decode_errors.load();
  s.relists = impl_->relists.load();
  s.binds = impl_->binds.load();
  s.bind_errors = impl_->bind_errors.load();
  s.status_patches = impl_->status_patches.load();
  s.events_recorded = impl_->events_recorded.load();
  s.events_dropped = impl_->events_dropped.load();
  return s;
}

} // namespace tessera::adapters
