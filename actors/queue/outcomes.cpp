// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Where a pod goes when its cycle or its binding ends, the periodic flush of
// backoffQ and leftover unschedulable pods.
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
    e.timestamp_ns = now_ns();
    if (out.preempting) {
      ++e.preemptions;
      e.moved_while_held = false;
    }
    bool helped
      = e.updated_in_flight
        || events_.any_since(popped_event, [&](const auto& rec) {
             return worth_requeuing(
               e, rec.event, rec.old_obj.get(), rec.new_obj.get(),
               cfg_.metrics != nullptr ? &series_of(rec.event) : nullptr);
           });
    // A held preemptor remembers what came during its cycle, such as its
    // victims' deletion events when the deletions were quick.
    if (e.preemptions > 0 && helped)
      e.moved_while_held = true;
    bool requeue = helped && e.preemptions <= 0;
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
  if (out.bound) {
    erase(key);
    return;
  }
  detach(e);
  e.error_backoff = true;
  e.timestamp_ns = now_ns();
  to_backoff_or_active(e);
}

void queue_state::on_preemption_ended(const model::pod& preemptor,
                                      bool failed) {
  auto it = entries_.find(model::pod_key(preemptor));
  if (it == entries_.end() || !it->second->pod->same_identity(preemptor))
    return; // deleted, or recreated under the same name
  entry& e = *it->second;
  --e.preemptions;
  if (e.preemptions > 0)
    return;
  if (e.at == where::in_flight) {
    // Its cycle's outcome is still on the way: a failure requeues it
    // rather than parking it; a success lets the victims' deletion events,
    // recorded meanwhile, decide.
    if (failed)
      e.updated_in_flight = true;
    return;
  }
  if (e.at != where::unschedulable)
    return;
  if (failed) {
    detach(e);
    to_active(e);
    count_incoming("active", "ForceActivate");
  } else if (e.moved_while_held) {
    detach(e);
    to_backoff_or_active(e);
    count_incoming(e.at == where::backoff ? "backoff" : "active",
                   "AssignedPodDelete");
  }
}

void queue_state::flush(time_point now) {
  for (auto* q : {&backoff_, &error_backoff_})
    while (!q->empty()) {
      entry* e = const_cast<entry*>(*q->begin());
      if (backing_off(*e, now))
        break;
      detach(*e);
      to_active(*e);
      count_incoming("active", "BackoffComplete");
    }
  std::vector<entry*> leftovers;
  for (entry* e : unschedulable_)
    if (e->preemptions <= 0 && e->parked_at + cfg_.max_in_unschedulable <= now)
      leftovers.push_back(e);
  std::sort(
    leftovers.begin(), leftovers.end(),
    [](const entry* a, const entry* b) { return a->sequence < b->sequence; });
  for (entry* e : leftovers) {
    e->flushed = true;
    detach(*e);
    to_backoff_or_active(*e);
    count_incoming(e->at == where::backoff ? "backoff" : "active",
                   "UnschedulableTimeout");
  }
}

} // namespace tessera::actors
