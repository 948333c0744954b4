// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The queue actor, around either state: kube-scheduler's queue
// (`queue_state`) or simulate's (`settling_queue_state`). Both take the
// same inputs and answer the same pops; only the live one has timers.
#include "actors/behaviors.hpp"
#include "actors/exit_on_exception.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <caf/all.hpp>

#include <type_traits>

namespace tessera::actors {

namespace {

template <class State> struct queue_cell {
  static inline const char* name = "queue";
  std::unique_ptr<State> state;
  coordinator_actor consumer;
  std::int32_t credits = 0;
  std::vector<caf::actor> idle_watchers;
  bool was_idle = true;
  metrics::scheduler_metrics* metrics = nullptr;
  metrics::mailbox_sampler mailbox{"queue"};
};

template <class State>
using queue_self =
  typename queue_actor::template stateful_pointer<queue_cell<State>>;

// Sends pods to the coordinator while it has credits, then tells idle
// watchers when the queue has nothing left to do.
template <class State> void dispatch(queue_self<State> self) {
  auto& cell = self->state;
  if (cell.consumer && cell.credits > 0) {
    auto batch = std::make_shared<work_batch>();
    while (cell.credits > 0) {
      auto next = cell.state->pop();
      if (!next)
        break;
      batch->pods.push_back(std::move(*next));
      --cell.credits;
    }
    if (!batch->pods.empty()) {
      self->send(cell.consumer, work_atom::value,
                 work_batch_ptr{std::move(batch)});
    }
  }
  // Metrics: kube-scheduler's scheduler_pending_pods, and the queue's mailbox.
  if (auto* m = cell.metrics) {
    queue_stats s = cell.state->stats();
    m->pending_active.set(static_cast<double>(s.active));
    m->pending_backoff.set(static_cast<double>(s.backoff));
    m->pending_unschedulable.set(static_cast<double>(s.unschedulable));
    m->pending_gated.set(static_cast<double>(s.gated));
    cell.mailbox.sample(m, [&] { return self->mailbox().size(); });
  }
  bool idle = cell.state->stats().idle();
  if (idle && !cell.was_idle)
    for (const auto& w : cell.idle_watchers)
      caf::anon_send(w, idle_atom::value);
  cell.was_idle = idle;
}

// `on_tick`: what the queue's timer does (the settling queue has none).
template <class State, class OnTick>
queue_actor::behavior_type behavior(queue_self<State> self, OnTick on_tick) {
  return {
    [self](input_atom, const queue_inputs_ptr& inputs) {
      auto& q = *self->state.state;
      for (const auto& in : *inputs) {
        switch (in.type) {
        case queue_input::kind::pod_added:
          q.add(in.new_pod, in.profile);
          break;
        case queue_input::kind::pod_updated:
          q.update(in.old_pod, in.new_pod, in.profile);
          break;
        case queue_input::kind::pod_deleted:
          q.remove(*in.old_pod);
          break;
        case queue_input::kind::cluster_event:
          q.on_cluster_event(in.event, in.old_object, in.new_object);
          break;
        }
      }
      dispatch<State>(self);
    },
    [self](want_atom, std::int32_t n) {
      if (!self->state.consumer)
        self->state.consumer
          = caf::actor_cast<coordinator_actor>(self->current_sender());
      self->state.credits += n;
      dispatch<State>(self);
    },
    [self](outcome_atom, const cycle_outcome_ptr& out) {
      self->state.credits += out->credit;
      self->state.state->on_outcome(*out);
      dispatch<State>(self);
    },
    [self](bound_atom, const bind_outcome_ptr& out) {
      self->state.state->on_bound(*out);
      dispatch<State>(self);
    },
    [self](preemption_ended_atom, const model::pod_ptr& preemptor,
           bool failed) {
      self->state.state->on_preemption_ended(*preemptor, failed);
      dispatch<State>(self);
    },
    [self](barrier_atom, std::uint64_t id, const caf::actor& to) {
      queue_stats s = self->state.state->stats();
      s.barrier = id;
      caf::anon_send(to, barrier_atom::value, s);
    },
    [self](subscribe_atom, const caf::actor& watcher) {
      self->state.idle_watchers.push_back(watcher);
    },
    [self](stats_atom) -> queue_stats { return self->state.state->stats(); },
    [on_tick](tick_atom) mutable { on_tick(); },
  };
}

queue_actor::behavior_type
live_queue(queue_self<queue_state> self, queue_config cfg, const clock* clk,
           std::vector<plugins::profile_ptr> profiles, duration tick) {
  exit_on_exception(self);
  self->state.metrics = cfg.metrics;
  self->state.state
    = std::make_unique<queue_state>(cfg, *clk, std::move(profiles));
  // Backoff expiry and the leftover flush run on a timer; the timer is a
  // message to this actor so that the state never sees two threads. Ticks
  // fall on multiples of `tick` on the queue's clock, so that each
  // whole-second backoff window is flushed as soon as it ends.
  auto next_tick = [clk, tick] {
    auto into = clk->now().time_since_epoch() % tick;
    return tick - into;
  };
  self->delayed_send(self, next_tick(), tick_atom::value);
  return behavior<queue_state>(self, [self, clk, next_tick] {
    self->state.state->flush(clk->now());
    dispatch<queue_state>(self);
    self->delayed_send(self, next_tick(), tick_atom::value);
  });
}

queue_actor::behavior_type
settling_queue(queue_self<settling_queue_state> self,
               metrics::scheduler_metrics* metrics, const clock* clk,
               std::vector<plugins::profile_ptr> profiles) {
  exit_on_exception(self);
  self->state.metrics = metrics;
  self->state.state = std::make_unique<settling_queue_state>(
    metrics, *clk, std::move(profiles));
  return behavior<settling_queue_state>(self, [] {});
}

} // namespace

queue_actor spawn_queue(caf::actor_system& sys, queue_config cfg,
                        const clock& clk,
                        std::vector<plugins::profile_ptr> profiles,
                        duration tick) {
  return sys.spawn(live_queue, cfg, &clk, std::move(profiles), tick);
}

queue_actor spawn_settling_queue(caf::actor_system& sys,
                                 metrics::scheduler_metrics* metrics,
                                 const clock& clk,
                                 std::vector<plugins::profile_ptr> profiles) {
  return sys.spawn(settling_queue, metrics, &clk, std::move(profiles));
}

} // namespace tessera::actors
