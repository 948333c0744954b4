// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/behaviors.hpp"
#include "actors/exit_on_exception.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <caf/all.hpp>

namespace tessera::actors {

namespace {

struct cache_cell {
  static inline const char* name = "cache";
  std::unique_ptr<cache_state> state;
  std::vector<shard_actor> shards;
  queue_actor queue;
  coordinator_actor coordinator;
  cluster_view_ptr last_view;
  bool synced = false;
  /// A flush is in the mailbox: events since the last publish wait for it.
  bool flush_pending = false;
  metrics::scheduler_metrics* metrics = nullptr;
  metrics::mailbox_sampler mailbox{"cache"};
};

// Sends what the last change produced: deltas to shards first, then the view
// to the coordinator, then inputs to the queue (so that anything reacting to
// a queue input sees the new node state).
void publish(cache_actor::stateful_pointer<cache_cell> self) {
  auto& cell = self->state;
  cell.flush_pending = false;
  cache_outputs out = cell.state->take_outputs();
  for (std::size_t s = 0; s < out.deltas.size(); ++s)
    if (out.deltas[s])
      self->send(cell.shards[s], delta_atom::value, out.deltas[s]);
  if (out.view) {
    cell.last_view = out.view;
    if (cell.coordinator)
      self->send(cell.coordinator, view_atom::value, out.view);
  }
  if (!out.nominees.empty() && cell.coordinator)
    self->send(cell.coordinator, nominees_atom::value,
               std::make_shared<const std::vector<queue_input>>(
                 std::move(out.nominees)));
  if (!out.queue.empty())
    self->send(
      cell.queue, input_atom::value,
      std::make_shared<const std::vector<queue_input>>(std::move(out.queue)));
  // Metrics: kube-scheduler's scheduler_cache_size, and the cache's mailbox.
  if (auto* m = cell.metrics) {
    cache_stats s = cell.state->stats();
    m->cache_nodes.set(static_cast<double>(s.nodes));
    m->cache_pods.set(static_cast<double>(s.pods));
    m->cache_assumed_pods.set(static_cast<double>(s.assumed_pods));
    cell.mailbox.sample(m, [&] { return self->mailbox().size(); });
  }
}

// Publishes events still waiting for their flush, before something that
// must follow them.
void publish_pending(cache_actor::stateful_pointer<cache_cell> self) {
  if (self->state.flush_pending)
    publish(self);
}

cache_actor::behavior_type cache(cache_actor::stateful_pointer<cache_cell> self,
                                 cache_config cfg, const clock* clk,
                                 std::vector<shard_actor> shards,
                                 queue_actor q) {
  exit_on_exception(self);
  auto ttl = cfg.assumed_ttl;
  self->state.metrics = cfg.metrics;
  self->state.state = std::make_unique<cache_state>(std::move(cfg), *clk);
  self->state.shards = std::move(shards);
  self->state.queue = std::move(q);
  if (ttl > duration::zero())
    self->delayed_send(self, std::chrono::seconds(1), tick_atom::value);
  return {
    [self](events_atom, const object_events_ptr& events) {
      for (const auto& ev : *events)
        self->state.state->apply(ev);
      // Publishing a node added or removed costs O(nodes) here and in every
      // shard. While the source delivers faster than that, one publish after
      // the waiting messages covers them all; otherwise the flush is next.
      if (!self->state.flush_pending) {
        self->state.flush_pending = true;
        self->send(self, flush_atom::value);
      }
    },
    [self](flush_atom) { publish_pending(self); },
    [self](synced_atom) {
      // Synced means the initial state has reached the shards and the queue.
      publish_pending(self);
      self->state.synced = true;
    },
    [self](assume_atom, const assume_request_ptr& req) -> assume_reply_ptr {
      auto reply
        = std::make_shared<const assume_reply>(self->state.state->assume(*req));
      publish(self);
      return reply;
    },
    [self](finish_atom, const model::pod_ptr& p) {
      self->state.state->finish_binding(*p);
    },
    [self](forget_atom, const model::pod_ptr& p) {
      self->state.state->forget(*p);
      publish(self);
    },
    [self](subscribe_atom, const coordinator_actor& c) {
      self->state.coordinator = c;
      if (self->state.last_view)
        self->send(c, view_atom::value, self->state.last_view);
    },
    [self](barrier_atom, std::uint64_t id, const caf::actor& to) {
      // The barrier follows every earlier event, so their inputs go first.
      publish_pending(self);
      self->send(self->state.queue, barrier_atom::value, id, to);
    },
    [self, clk](tick_atom) {
      self->state.state->expire(clk->now());
      publish(self);
      self->delayed_send(self, std::chrono::seconds(1), tick_atom::value);
    },
    [self](stats_atom) -> cache_stats {
      cache_stats s = self->state.state->stats();
      s.synced = self->state.synced;
      return s;
    },
  };
}

} // namespace

cache_actor spawn_cache(caf::actor_system& sys, cache_config cfg,
                        const clock& clk, std::vector<shard_actor> shards,
                        queue_actor q) {
  return sys.spawn(cache, std::move(cfg), &clk, std::move(shards),
                   std::move(q));
}

} // namespace tessera::actors
