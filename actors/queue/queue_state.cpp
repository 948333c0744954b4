// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/queue/queue_state.hpp"

#include "actors/queue/pod_order.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "model/pod_key.hpp"
#include "support/log.hpp"

#include <algorithm>

namespace tessera::actors {

namespace {

// A change a plugin could care about (upstream ignores updates of status,
// resourceVersion, generation and other bookkeeping only).
bool scheduling_relevant_change(const model::pod& a, const model::pod& b) {
  return !(a.labels == b.labels) || !(a.tolerations == b.tolerations)
         || !(a.affinity == b.affinity) || !(a.node_selector == b.node_selector)
         || !(a.requests == b.requests)
         || !(a.topology_spread_constraints == b.topology_spread_constraints)
         || !(a.scheduling_gates == b.scheduling_gates)
         || !(a.host_ports == b.host_ports) || a.priority != b.priority;
}

} // namespace

bool queue_state::order_less::operator()(const entry* a, const entry* b) const {
  return pops_before(owner->sort_, a->position(), b->position());
}

bool queue_state::backoff_less::operator()(const entry* a,
                                           const entry* b) const {
  auto ea = owner->backoff_expiry(*a);
  auto eb = owner->backoff_expiry(*b);
  if (ea != eb)
    return ea < eb;
  if (as_active)
    return order_less{owner}(a, b);
  return a->sequence < b->sequence;
}

queue_state::queue_state(queue_config cfg, const clock& c,
                         std::vector<plugins::profile_ptr> profiles)
  : cfg_(cfg), clock_(c), profiles_(std::move(profiles)),
    active_(order_less{this}),
    backoff_(backoff_less{this, cfg.pop_from_backoff}),
    error_backoff_(backoff_less{this, false}) {
  for (const auto& prof : profiles_) {
    profile_index idx;
    idx.prof = prof.get();
    for (std::size_t i = 0; i < prof->plugins().size(); ++i) {
      idx.plugin_names.emplace_back(prof->plugins()[i]->name());
      idx.plugin_bit.emplace(idx.plugin_names.back(), i);
    }
    idx.unschedulable.assign(idx.plugin_names.size(), 0);
    idx.gauges.assign(idx.plugin_names.size(), nullptr);
    for (const auto& reg : prof->events()) {
      auto bit = idx.plugin_bit.find(reg.plugin);
      if (bit != idx.plugin_bit.end())
        idx.events.push_back({bit->second, reg.event});
    }
    indexes_.push_back(std::move(idx));
  }
  if (!profiles_.empty())
    sort_ = profiles_.front()->queue_sort();
}

// Metrics: kube-scheduler's scheduler_queue_incoming_pods_total.
void queue_state::count_incoming(std::string_view queue,
                                 std::string_view event) {
  if (cfg_.metrics != nullptr)
    cfg_.metrics->queue_incoming_pods.with({queue, event}).inc();
}

// Metrics: scheduler_unschedulable_pods{plugin, profile}, as
// upstream: a pod counts under every plugin that rejected it while it is in
// the unschedulable pool.
void queue_state::count_unschedulable(const entry& e, std::int64_t delta) {
  if (e.rejectors.none())
    return;
  profile_index& idx = indexes_[e.profile];
  for (std::size_t bit = 0; bit < idx.unschedulable.size(); ++bit)
    if (e.rejectors.test(bit)) {
      idx.unschedulable[bit] += delta;
      publish_unschedulable(idx, bit);
    }
}

void queue_state::publish_unschedulable(profile_index& idx, std::size_t bit) {
  auto* m = cfg_.metrics;
  if (m == nullptr)
    return;
  metrics::gauge*& g = idx.gauges[bit];
  if (g == nullptr)
    g = &m->unschedulable_pods.with(
      {idx.plugin_names[bit], idx.prof->scheduler_name()});
  g->set(static_cast<double>(idx.unschedulable[bit]));
}

// ------------------------------------------------------------ placement

void queue_state::detach(entry& e) {
  switch (e.at) {
  case where::active:
    active_.erase(&e);
    break;
  case where::backoff:
    backoff_of(e).erase(&e);
    break;
  case where::unschedulable:
    unschedulable_.erase(&e);
    count_unschedulable(e, -1);
    break;
  case where::gated:
    --gated_;
    break;
  case where::in_flight:
    --in_flight_;
    events_.close(e.popped_event);
    break;
  case where::binding:
    --binding_;
    break;
  case where::retry:
    retry_now_.erase(std::find(retry_now_.begin(), retry_now_.end(), &e));
    break;
  }
}

void queue_state::to_active(entry& e) {
  e.at = where::active;
  active_.insert(&e);
}

void queue_state::to_backoff_or_active(entry& e) {
  if (!backing_off(e, clock_.now())) {
    to_active(e);
    return;
  }
  e.at = where::backoff;
  backoff_of(e).insert(&e);
}

std::set<const queue_state::entry*, queue_state::backoff_less>&
queue_state::backoff_of(const entry& e) {
  return e.error_backoff ? error_backoff_ : backoff_;
}

namespace {
time_point window_of(time_point t) {
  return time_point{
    std::chrono::floor<std::chrono::seconds>(t.time_since_epoch())};
}
} // namespace

time_point queue_state::backoff_expiry(const entry& e) const {
  time_point queued{std::chrono::nanoseconds{e.timestamp_ns}};
  if (e.attempts <= 0)
    return queued;
  duration d = cfg_.initial_backoff;
  for (std::int32_t i = 1; i < e.attempts && d < cfg_.max_backoff; ++i)
    d *= 2;
  time_point end = queued + std::min(d, cfg_.max_backoff);
  return cfg_.pop_from_backoff ? window_of(end) : end;
}

bool queue_state::backing_off(const entry& e, time_point now) const {
  if (e.attempts <= 0)
    return false;
  if (!cfg_.pop_from_backoff)
    return backoff_expiry(e) > now;
  // Still backing off while its window has not ended.
  return backoff_expiry(e) >= window_of(now);
}

void queue_state::admit(entry& e) {
  if (passes_pre_enqueue(*indexes_[e.profile].prof, *e.pod)) {
    to_active(e);
    return;
  }
  e.at = where::gated;
  ++gated_;
}

void queue_state::erase(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end())
    return;
  detach(*it->second);
  entries_.erase(it);
}

// --------------------------------------------------------------- inputs

void queue_state::add(const model::pod_ptr& p, std::uint32_t profile) {
  std::string key = model::pod_key(*p);
  if (auto it = entries_.find(key); it != entries_.end()) {
    update(it->second->pod, p, profile);
    return;
  }
  if (profile >= profiles_.size())
    return;
  auto e = std::make_unique<entry>();
  e->pod = p;
  e->key = key;
  e->profile = profile;
  e->arrive(++sequence_, now_ns());
  entry& ref = *e;
  entries_.emplace(key, std::move(e));
  admit(ref);
  count_incoming(ref.at == where::gated ? "gated" : "active", "PodAdd");
}

void queue_state::update(const model::pod_ptr& old_pod,
                         const model::pod_ptr& new_pod, std::uint32_t profile) {
  std::string key = model::pod_key(*new_pod);
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    add(new_pod, profile);
    return;
  }
  entry& e = *it->second;
  switch (e.at) {
  case where::in_flight:
  case where::binding:
    if (scheduling_relevant_change(*old_pod, *new_pod))
      e.updated_in_flight = true;
    e.pod = new_pod;
    return;
  case where::active:
  case where::backoff:
  case where::retry: {
    // Keep the position: the pod's order key (priority) is immutable.
    where at = e.at;
    detach(e);
    e.pod = new_pod;
    if (at == where::active)
      to_active(e);
    else if (at == where::backoff) {
      e.at = where::backoff;
      backoff_of(e).insert(&e);
    } else {
      e.at = where::retry;
      retry_now_.push_front(&e);
    }
    return;
  }
  case where::gated:
    detach(e);
    e.pod = new_pod;
    admit(e);
    return;
  case where::unschedulable: {
    bool relevant = scheduling_relevant_change(*old_pod, *new_pod);
    e.pod = new_pod;
    if (relevant && e.preemptions > 0)
      e.moved_while_held = true;
    else if (relevant) {
      detach(e);
      to_backoff_or_active(e);
    }
    return;
  }
  }
}

void queue_state::remove(const model::pod& p) {
  erase(model::pod_key(p));
}

void queue_state::on_cluster_event(
  const plugins::cluster_event& ev,
  std::shared_ptr<const model::object> old_obj,
  std::shared_ptr<const model::object> new_obj) {
  const bool recording = cfg_.metrics != nullptr;
  auto began = recording ? std::chrono::steady_clock::now()
                         : std::chrono::steady_clock::time_point{};
  if (events_.record({ev, old_obj, new_obj}))
    count_inflight(ev, 1);
  std::vector<entry*> moving;
  event_series* timing = recording ? &series_of(ev) : nullptr;
  for (entry* e : unschedulable_) {
    if (!worth_requeuing(*e, ev, old_obj.get(), new_obj.get(), timing))
      continue;
    if (e->preemptions > 0)
      e->moved_while_held = true;
    else
      moving.push_back(e);
  }
  // Requeue in queue order so equal timestamps keep their relative order.
  std::sort(moving.begin(), moving.end(), [](const entry* a, const entry* b) {
    return a->sequence < b->sequence;
  });
  for (entry* e : moving) {
    detach(*e);
    to_backoff_or_active(*e);
  }
  if (recording) {
    event_series& series = *timing;
    for (entry* e : moving)
      count_incoming(e->at == where::backoff ? "backoff" : "active",
                     series.label);
    std::chrono::duration<double> took
      = std::chrono::steady_clock::now() - began;
    series.handling->observe(took.count());
  }
}

// Metrics by upstream's event label, resolved once per label: a family
// lookup takes a lock, and events come with every binding.
queue_state::event_series&
queue_state::series_of(const plugins::cluster_event& ev) {
  std::string label = ev.label();
  auto it = event_series_.find(label);
  if (it == event_series_.end()) {
    event_series s{label,
                   &cfg_.metrics->inflight_events.with({label}),
                   &cfg_.metrics->event_handling_duration.with({label}),
                   {}};
    it = event_series_.emplace(label, std::move(s)).first;
  }
  return it->second;
}

// Metrics: scheduler_inflight_events, the cluster events kept for pods in
// flight.
void queue_state::count_inflight(const plugins::cluster_event& ev,
                                 double delta) {
  if (cfg_.metrics != nullptr)
    series_of(ev).inflight->add(delta);
}

void queue_state::prune_events() {
  events_.prune(
    [this](const recorded_event& r) { count_inflight(r.event, -1); });
}

// Metrics: scheduler_queueing_hint_execution_duration_seconds. Hints run
// for every waiting pod on every event, so the series is found by number.
void queue_state::observe_hint(event_series& s, std::size_t profile,
                               std::size_t plugin,
                               plugins::queueing_hint verdict,
                               double seconds) const {
  const bool queue = verdict == plugins::queueing_hint::queue;
  const std::uint64_t key = (std::uint64_t{profile} << 32)
                            | (std::uint64_t{plugin} << 1) | (queue ? 1 : 0);
  auto it = s.hints.find(key);
  if (it == s.hints.end()) {
    const std::string& name = indexes_[profile].plugin_names[plugin];
    auto* h = &cfg_.metrics->queueing_hint_duration.with(
      {name, s.label, queue ? "Queue" : "QueueSkip"});
    it = s.hints.emplace(key, h).first;
  }
  it->second->observe(seconds);
}

bool queue_state::worth_requeuing(const entry& e,
                                  const plugins::cluster_event& ev,
                                  const model::object* old_obj,
                                  const model::object* new_obj,
                                  event_series* timing) const {
  if (e.rejectors.none() || ev.resource == plugins::event_resource::wildcard)
    return true;
  for (const auto& reg : indexes_[e.profile].events) {
    if (!e.rejectors.test(reg.plugin) || !reg.event.event.matches(ev))
      continue;
    if (!reg.event.hint)
      return true;
    auto began = timing != nullptr ? std::chrono::steady_clock::now()
                                   : std::chrono::steady_clock::time_point{};
    auto verdict = reg.event.hint(*e.pod, old_obj, new_obj);
    if (timing != nullptr)
      observe_hint(
        *timing, e.profile, reg.plugin, verdict,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began)
          .count());
    if (verdict == plugins::queueing_hint::queue)
      return true;
  }
  return false;
}

// ------------------------------------------------------------------ pop

std::optional<queued_pod_info> queue_state::pop() {
  entry* e = nullptr;
  if (!retry_now_.empty())
    e = retry_now_.front();
  else if (!active_.empty())
    e = const_cast<entry*>(*active_.begin());
  else if (cfg_.pop_from_backoff && !backoff_.empty()) {
    // Nothing else to do: rather than idle, try the pod whose backoff ends
    // first (upstream's SchedulerPopFromBackoffQ).
    e = const_cast<entry*>(*backoff_.begin());
    count_incoming("active", "PopFromBackoffQ");
  }
  if (e == nullptr)
    return std::nullopt;
  detach(*e);
  e->at = where::in_flight;
  ++in_flight_;
  e->updated_in_flight = false;
  e->popped_event = events_.open();
  return e->popped(++cycle_);
}

queue_stats queue_state::stats() const {
  queue_stats s;
  s.active = active_.size() + retry_now_.size();
  s.backoff = backoff_.size() + error_backoff_.size();
  s.unschedulable = unschedulable_.size();
  s.gated = gated_;
  s.in_flight = in_flight_ + binding_;
  return s;
}

} // namespace tessera::actors
