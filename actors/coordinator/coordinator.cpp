// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/behaviors.hpp"
#include "actors/exit_on_exception.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <caf/all.hpp>

namespace tessera::actors {

namespace {

// The coordinator's CAF-side ports: requests to shards and the cache, whose
// replies resume the cycle inside the actor.
struct coordinator_cell : coordinator_ports {
  static inline const char* name = "coordinator";

  coordinator_actor::stateful_pointer<coordinator_cell> self = nullptr;
  cluster_sink* out = nullptr;
  std::vector<shard_actor> shards;
  cache_actor cache_handle;
  queue_actor queue_handle;
  binder_actor binder_handle;
  std::unique_ptr<coordinator_state> state;
  metrics::scheduler_metrics* metrics = nullptr;
  /// tessera_actor_mailbox_size{actor="coordinator"}: sampled on messages
  /// and on replies (most of what the coordinator handles).
  metrics::mailbox_sampler mailbox{"coordinator"};

  void sample_mailbox() {
    mailbox.sample(metrics, [this] { return self->mailbox().size(); });
  }

  template <class Atom, class Handle, class Request, class Reply>
  void ask(const Handle& to, Request req, reply<Reply> done) {
    self->request(to, caf::infinite, Atom::value, std::move(req))
      .then(
        [this, done](const std::shared_ptr<const Reply>& r) {
          sample_mailbox();
          done(r);
        },
        [done](caf::error&) { done(nullptr); });
  }

  void scan(std::uint32_t s, scan_request_ptr req,
            reply<scan_reply> done) override {
    ask<scan_atom>(shards[s], std::move(req), std::move(done));
  }
  void filter(std::uint32_t s, filter_request_ptr req,
              reply<filter_reply> done) override {
    ask<filter_atom>(shards[s], std::move(req), std::move(done));
  }
  void score(std::uint32_t s, score_request_ptr req,
             reply<score_reply> done) override {
    ask<score_atom>(shards[s], std::move(req), std::move(done));
  }
  void preempt(std::uint32_t s, preempt_request_ptr req,
               reply<preempt_reply> done) override {
    ask<preempt_atom>(shards[s], std::move(req), std::move(done));
  }
  void assume(assume_request_ptr req, reply<assume_reply> done) override {
    ask<assume_atom>(cache_handle, std::move(req), std::move(done));
  }
  void bind(bind_request_ptr req) override {
    self->send(binder_handle, bind_atom::value, std::move(req));
  }
  void evict(eviction_ptr e) override {
    self->send(binder_handle, evict_atom::value, std::move(e));
  }
  void outcome(cycle_outcome_ptr o) override {
    self->send(queue_handle, outcome_atom::value, std::move(o));
  }
  void want(std::int32_t n) override {
    self->send(queue_handle, want_atom::value, n);
  }
  cluster_sink& sink() override {
    return *out;
  }
};

coordinator_actor::behavior_type
coordinator(coordinator_actor::stateful_pointer<coordinator_cell> self,
            coordinator_config cfg, std::vector<plugins::profile_ptr> profiles,
            cluster_sink* sink, std::vector<shard_actor> shards, cache_actor c,
            queue_actor q, binder_actor b) {
  exit_on_exception(self);
  auto& cell = self->state;
  cell.self = self;
  cell.out = sink;
  cell.metrics = cfg.metrics;
  cell.shards = std::move(shards);
  cell.cache_handle = std::move(c);
  cell.queue_handle = std::move(q);
  cell.binder_handle = std::move(b);
  cell.state
    = std::make_unique<coordinator_state>(cfg, std::move(profiles), cell);
  self->send(cell.cache_handle, subscribe_atom::value,
             caf::actor_cast<coordinator_actor>(self));
  cell.state->start();
  return {
    [self](view_atom, const cluster_view_ptr& v) {
      self->state.sample_mailbox();
      self->state.state->on_view(v);
    },
    [self](work_atom, const work_batch_ptr& batch) {
      self->state.sample_mailbox();
      self->state.state->on_work(*batch);
    },
    [self](nominees_atom, const queue_inputs_ptr& changes) {
      self->state.state->on_nominees(*changes);
    },
  };
}

} // namespace

coordinator_actor
spawn_coordinator(caf::actor_system& sys, coordinator_config cfg,
                  std::vector<plugins::profile_ptr> profiles,
                  cluster_sink& sink, std::vector<shard_actor> shards,
                  cache_actor c, queue_actor q, binder_actor b) {
  return sys.spawn(coordinator, cfg, std::move(profiles), &sink,
                   std::move(shards), std::move(c), std::move(q), std::move(b));
}

} // namespace tessera::actors
