// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/behaviors.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <caf/all.hpp>

namespace tessera::actors {

namespace {

struct queue_cell {
  static inline const char* name = "queue";
  std::unique_ptr<queue_state> state;
  coordinator_actor consumer;
  std::int32_t credits = 0;
  std::vector<caf::actor> idle_watchers;
  bool was_idle = true;
  metrics::scheduler_metrics* metrics = nullptr;
  metrics::mailbox_sampler mailbox{"queue"};
};

// Sends pods to the coordinator while it has credits, then tells idle
// watchers when the queue has nothing left to do.
void dispatch(queue_actor::stateful_pointer<queue_cell> self) {
  auto& cell = self->state;
  cell.state->settle();
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

queue_actor::behavior_type queue(queue_actor::stateful_pointer<queue_cell> self,
                                 queue_config cfg, const clock* clk,
                                 std::vector<plugins::profile_ptr> profiles,
                                 duration tick) {
  self->state.metrics = cfg.metrics;
  self->state.state
    = std::make_unique<queue_state>(cfg, *clk, std::move(profiles));
  if (!cfg.one_shot)
    self->delayed_send(self, tick, tick_atom::value);
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
      dispatch(self);
    },
    [self](want_atom, std::int32_t n) {
      if (!self->state.consumer)
        self->state.consumer
          = caf::actor_cast<coordinator_actor>(self->current_sender());
      self->state.credits += n;
      dispatch(self);
    },
    [self](outcome_atom, const cycle_outcome_ptr& out) {
      self->state.credits += out->credit;
      self->state.state->on_outcome(*out);
      dispatch(self);
    },
    [self](bound_atom, const bind_outcome_ptr& out) {
      self->state.state->on_bound(*out);
      dispatch(self);
    },
    [self, tick, clk](tick_atom) {
      self->state.state->flush(clk->now());
      dispatch(self);
      self->delayed_send(self, tick, tick_atom::value);
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
  };
}

} // namespace

queue_actor spawn_queue(caf::actor_system& sys, queue_config cfg,
                        const clock& clk,
                        std::vector<plugins::profile_ptr> profiles,
                        duration tick) {
  return sys.spawn(queue, cfg, &clk, std::move(profiles), tick);
}

} // namespace tessera::actors
