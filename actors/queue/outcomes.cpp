// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Where a pod goes when its cycle or its binding ends, the periodic flush of
// backoffQ and leftover unschedulable pods, and simulate's settle step.
#include "actors/queue/queue_state.hpp"
#include "model/pod_key.hpp"

#include <algorithm>

namespace tessera::actors {

void queue_state::on_outcome(const cycle_outcome& out) {
  std::string key = model::pod_key(*out.pod);
  auto it = entries_.find(key);
  if (it == entries_.end())
    return; // deleted while in flight
  entry& e = *it->second;
  if (e.at != where::in_flight)
    return;
  std::uint64_t popped_event = e.popped_event;
  detach(e);
  using kind = cycle_outcome::kind;
  switch (out.type) {
  case kind::assumed:
    if (cfg_.one_shot)
      assumed_.push_back({e.pod, e.timestamp_ns, e.sequence});
    e.at = where::binding;
    ++binding_;
    break;
  case kind::retry:
    // The coordinator found its decision stale: not a scheduling
    // attempt, no backoff; the pod goes first.
    --e.attempts;
    e.at = where::retry;
    retry_now_.push_back(&e);
    break;
  case kind::unschedulable: {
    e.error_backoff = false;
    e.rejectors.reset();
    const profile_index& idx = indexes_[e.profile];
    for (const auto& names :
         {std::cref(out.unschedulable_plugins), std::cref(out.pending_plugins)})
      for (const auto& name : names.get())
        if (auto bit = idx.plugin_bit.find(name); bit != idx.plugin_bit.end())
          e.rejectors.set(bit->second);
    // One-shot mode keeps the queue position: settle() compares it with
    // the pods placed since the pop, and a retry goes back to it.
    if (!cfg_.one_shot)
      e.timestamp_ns = now_ns();
    if (cfg_.one_shot) {
      if (out.nominated_node.empty()) {
        // Final unless settle() finds its view missed an earlier pod.
        e.at = where::tentative;
        ++tentative_;
        break;
      }
      // The retry must try its nominated node first (upstream's
      // evaluateNominatedNode) even if it runs before the pod's status
      // update comes back through the cache.
      if (e.pod->nominated_node_name != out.nominated_node) {
        auto nominated = std::make_shared<model::pod>(*e.pod);
        nominated->nominated_node_name = out.nominated_node;
        e.pod = std::move(nominated);
      }
      e.victims = {out.victims.begin(), out.victims.end()};
      for (const auto& rec : events_)
        if (rec.sequence > popped_event && rec.old_obj)
          if (const auto* gone = std::get_if<model::pod_ptr>(rec.old_obj.get());
              gone != nullptr && *gone)
            e.victims.erase(model::pod_key(**gone));
      if (e.victims.empty()) {
        e.at = where::retry;
        retry_now_.push_back(&e);
      } else {
        e.at = where::waiting_for_victims;
        ++waiting_;
      }
      break;
    }
    bool requeue = e.updated_in_flight;
    for (const auto& rec : events_) {
      if (requeue)
        break;
      if (rec.sequence > popped_event
          && worth_requeuing(e, rec.event, rec.old_obj.get(),
                             rec.new_obj.get()))
        requeue = true;
    }
    if (requeue) {
      to_backoff_or_active(e);
    } else {
      e.at = where::unschedulable;
      e.parked_at = clock_.now();
      unschedulable_.insert(&e);
      count_unschedulable(e, 1);
    }
    count_incoming(e.at == where::unschedulable ? "unschedulable"
                   : e.at == where::backoff     ? "backoff"
                                                : "active",
                   "ScheduleAttemptFailure");
    break;
  }
  case kind::error:
    if (cfg_.one_shot) {
      entries_.erase(it);
      break;
    }
    e.error_backoff = true;
    e.timestamp_ns = now_ns();
    to_backoff_or_active(e);
    count_incoming(e.at == where::backoff ? "backoff" : "active",
                   "ScheduleAttemptFailure");
    break;
  case kind::dropped:
    entries_.erase(it);
    break;
  }
  prune_events();
}

void queue_state::on_bound(const bind_outcome& out) {
  std::string key = model::pod_key(*out.pod);
  auto it = entries_.find(key);
  if (it == entries_.end())
    return;
  entry& e = *it->second;
  if (e.at != where::binding)
    return;
  if (out.bound || cfg_.one_shot) {
    erase(key);
    return;
  }
  detach(e);
  e.error_backoff = true;
  e.timestamp_ns = now_ns();
  to_backoff_or_active(e);
}

void queue_state::flush(time_point now) {
  if (cfg_.one_shot)
    return;
  while (!backoff_.empty()) {
    entry* e = const_cast<entry*>(*backoff_.begin());
    if (backoff_expiry(*e) > now)
      break;
    detach(*e);
    to_active(*e);
    count_incoming("active", "BackoffComplete");
  }
  std::vector<entry*> leftovers;
  for (entry* e : unschedulable_)
    if (e->parked_at + cfg_.max_in_unschedulable <= now)
      leftovers.push_back(e);
  std::sort(
    leftovers.begin(), leftovers.end(),
    [](const entry* a, const entry* b) { return a->sequence < b->sequence; });
  for (entry* e : leftovers) {
    detach(*e);
    to_backoff_or_active(*e);
    count_incoming(e->at == where::backoff ? "backoff" : "active",
                   "UnschedulableTimeout");
  }
}

bool queue_state::settle() {
  if (!cfg_.one_shot || tentative_ == 0 || !stats().idle())
    return false;
  order_less before{this};
  std::vector<entry*> retry;
  std::vector<std::string> final_keys;
  for (auto& [key, e] : entries_) {
    if (e->at != where::tentative)
      continue;
    bool missed = false;
    for (std::size_t i = e->popped_assumed; i < assumed_.size() && !missed;
         ++i) {
      entry probe;
      probe.pod = assumed_[i].pod;
      probe.timestamp_ns = assumed_[i].timestamp_ns;
      probe.sequence = assumed_[i].sequence;
      missed = before(&probe, e.get());
    }
    if (missed)
      retry.push_back(e.get());
    else
      final_keys.push_back(key);
  }
  for (const auto& key : final_keys)
    erase(key);
  for (entry* e : retry) {
    detach(*e);
    to_active(*e);
  }
  return !retry.empty();
}

void queue_state::prune_events() {
  if (inflight_marks_.empty()) {
    events_.clear();
    return;
  }
  std::uint64_t oldest = *inflight_marks_.begin();
  while (!events_.empty() && events_.front().sequence <= oldest)
    events_.pop_front();
}

} // namespace tessera::actors
