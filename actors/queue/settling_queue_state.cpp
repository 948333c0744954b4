// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/queue/settling_queue_state.hpp"

#include "actors/queue/pod_order.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "model/pod_key.hpp"

#include <algorithm>

namespace tessera::actors {

bool settling_queue_state::order_less::operator()(const entry* a,
                                                  const entry* b) const {
  return pops_before(owner->sort_, a->position(), b->position());
}

settling_queue_state::settling_queue_state(
  metrics::scheduler_metrics* metrics, const clock& c,
  std::vector<plugins::profile_ptr> profiles)
  : metrics_(metrics), clock_(c), profiles_(std::move(profiles)),
    active_(order_less{this}) {
  if (!profiles_.empty())
    sort_ = profiles_.front()->queue_sort();
}

// ---------------------------------------------------------------- inputs

void settling_queue_state::add(const model::pod_ptr& p, std::uint32_t profile) {
  std::string key = model::pod_key(*p);
  if (auto it = entries_.find(key); it != entries_.end()) {
    update(it->second->pod, p, profile);
    return;
  }
  if (profile >= profiles_.size())
    return;
  auto e = std::make_unique<entry>();
  e->pod = p;
  e->profile = profile;
  e->arrive(++sequence_, now_ns(clock_));
  entry& ref = *e;
  entries_.emplace(std::move(key), std::move(e));
  admit(ref);
  // Metrics: scheduler_queue_incoming_pods_total, as the live queue counts
  // arrivals (nothing here ever moves between upstream's queues).
  if (metrics_ != nullptr)
    metrics_->queue_incoming_pods
      .with({ref.at == where::gated ? "gated" : "active", "PodAdd"})
      .inc();
}

void settling_queue_state::update(const model::pod_ptr&,
                                  const model::pod_ptr& new_pod,
                                  std::uint32_t profile) {
  auto it = entries_.find(model::pod_key(*new_pod));
  if (it == entries_.end()) {
    add(new_pod, profile);
    return;
  }
  entry& e = *it->second;
  switch (e.at) {
  case where::active:
    // Keep the position: the order key (priority) is immutable, and the
    // set must not hold an entry while its key changes.
    active_.erase(&e);
    e.pod = new_pod;
    active_.insert(&e);
    return;
  case where::gated:
    detach(e);
    e.pod = new_pod;
    admit(e);
    return;
  case where::retry:
    // A changed retry goes to the head: it is most likely a preemptor whose
    // nomination just came back through the cache.
    detach(e);
    e.pod = new_pod;
    e.at = where::retry;
    retry_.push_front(&e);
    return;
  case where::in_flight:
  case where::binding:
  case where::tentative:
  case where::waiting_for_victims:
    e.pod = new_pod;
    return;
  }
}

void settling_queue_state::remove(const model::pod& p) {
  erase(model::pod_key(p));
}

void settling_queue_state::on_cluster_event(
  const plugins::cluster_event& ev,
  std::shared_ptr<const model::object> old_obj,
  std::shared_ptr<const model::object>) {
  if (ev.resource != plugins::event_resource::pod
      || !plugins::intersects(ev.actions, plugins::action::remove) || !old_obj)
    return;
  const auto* victim = std::get_if<model::pod_ptr>(old_obj.get());
  if (victim == nullptr || !*victim)
    return;
  std::string victim_key = model::pod_key(**victim);
  // A preemptor's outcome can arrive after its victims' deletions (they
  // reach the queue through the cache): keep them for on_outcome.
  deletions_.record(victim_key);
  if (waiting_ == 0)
    return;
  std::vector<entry*> freed;
  for (auto& [key, e] : entries_) {
    if (e->at != where::waiting_for_victims)
      continue;
    e->victims.erase(victim_key);
    if (e->victims.empty())
      freed.push_back(e.get());
  }
  std::sort(freed.begin(), freed.end(), order_less{this});
  for (entry* e : freed) {
    detach(*e);
    to_retry(*e);
  }
}

// ------------------------------------------------------------------- pop

std::optional<queued_pod_info> settling_queue_state::pop() {
  // A waiting preemptor is retried "at once": nothing else starts first.
  if (waiting_ > 0)
    return std::nullopt;
  if (retry_.empty() && active_.empty() && !settle())
    return std::nullopt;
  entry* e
    = !retry_.empty() ? retry_.front() : const_cast<entry*>(*active_.begin());
  detach(*e);
  e->at = where::in_flight;
  ++in_flight_;
  e->popped_deletion = deletions_.open();
  e->popped_placed = placed_.size();
  return e->popped(++cycle_);
}

bool settling_queue_state::settle() {
  if (tentative_ == 0 || in_flight_ + binding_ + waiting_ > 0)
    return false;
  std::vector<entry*> again;
  std::vector<std::string> final_keys;
  for (auto& [key, e] : entries_) {
    if (e->at != where::tentative)
      continue;
    bool missed = false;
    for (std::size_t i = e->popped_placed; i < placed_.size() && !missed; ++i) {
      missed = pops_before(sort_, placed_[i].position, e->position());
    }
    if (missed)
      again.push_back(e.get());
    else
      final_keys.push_back(key);
  }
  for (const auto& key : final_keys)
    erase(key);
  for (entry* e : again) {
    detach(*e);
    e->at = where::active;
    active_.insert(e);
  }
  return !again.empty();
}

// -------------------------------------------------------------- outcomes

void settling_queue_state::on_outcome(const cycle_outcome& out) {
  auto it = entries_.find(model::pod_key(*out.pod));
  if (it == entries_.end() || it->second->at != where::in_flight)
    return; // deleted while in flight
  entry& e = *it->second;
  std::uint64_t popped_deletion = e.popped_deletion;
  detach(e);
  using kind = cycle_outcome::kind;
  switch (out.type) {
  case kind::assumed:
    placed_.push_back({e.pod, e.position()});
    e.at = where::binding;
    ++binding_;
    break;
  case kind::retry:
    // A stale decision is no scheduling attempt; the pod goes first.
    --e.attempts;
    to_retry(e);
    break;
  case kind::unschedulable:
    if (out.nominated_node.empty()) {
      e.at = where::tentative;
      ++tentative_;
      break;
    }
    // The retry must try its nominated node first (upstream's
    // evaluateNominatedNode) even if it runs before the pod's status update
    // comes back through the cache.
    if (e.pod->nominated_node_name != out.nominated_node) {
      auto nominated = std::make_shared<model::pod>(*e.pod);
      nominated->nominated_node_name = out.nominated_node;
      e.pod = std::move(nominated);
    }
    e.victims = {out.victims.begin(), out.victims.end()};
    deletions_.for_each_since(
      popped_deletion, [&](const std::string& gone) { e.victims.erase(gone); });
    if (e.victims.empty()) {
      to_retry(e);
    } else {
      e.at = where::waiting_for_victims;
      ++waiting_;
    }
    break;
  case kind::error:
  case kind::dropped:
    entries_.erase(it);
    break;
  }
  deletions_.prune();
}

void settling_queue_state::on_bound(const bind_outcome& out) {
  std::string key = model::pod_key(*out.pod);
  if (auto it = entries_.find(key);
      it != entries_.end() && it->second->at == where::binding)
    erase(key);
}

queue_stats settling_queue_state::stats() const {
  queue_stats s;
  s.active = active_.size() + retry_.size();
  s.gated = gated_;
  s.in_flight = in_flight_ + binding_;
  s.waiting_for_victims = waiting_;
  return s;
}

// ------------------------------------------------------------- placement

void settling_queue_state::admit(entry& e) {
  if (passes_pre_enqueue(*profiles_[e.profile], *e.pod)) {
    e.at = where::active;
    active_.insert(&e);
  } else {
    e.at = where::gated;
    ++gated_;
  }
}

void settling_queue_state::to_retry(entry& e) {
  e.at = where::retry;
  retry_.push_back(&e);
}

void settling_queue_state::detach(entry& e) {
  switch (e.at) {
  case where::active:
    active_.erase(&e);
    break;
  case where::gated:
    --gated_;
    break;
  case where::in_flight:
    --in_flight_;
    deletions_.close(e.popped_deletion);
    break;
  case where::binding:
    --binding_;
    break;
  case where::waiting_for_victims:
    --waiting_;
    break;
  case where::retry:
    retry_.erase(std::find(retry_.begin(), retry_.end(), &e));
    break;
  case where::tentative:
    --tentative_;
    break;
  }
}

void settling_queue_state::erase(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end())
    return;
  detach(*it->second);
  entries_.erase(it);
}

} // namespace tessera::actors
