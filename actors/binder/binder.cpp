// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/behaviors.hpp"
#include "actors/exit_on_exception.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <caf/all.hpp>

#include <functional>

namespace tessera::actors {

namespace {

// The binder's CAF-side ports: the sink's completion comes back as a
// message, so binder_state only ever runs inside the actor.
struct binder_cell : binder_ports {
  static inline const char* name = "binder";

  binder_actor::stateful_pointer<binder_cell> self = nullptr;
  cluster_sink* out = nullptr;
  cache_actor cache_handle;
  queue_actor queue_handle;
  std::unique_ptr<binder_state> state;
  metrics::scheduler_metrics* metrics = nullptr;
  /// tessera_actor_mailbox_size{actor="binder"}.
  metrics::mailbox_sampler mailbox{"binder"};

  void sample_mailbox() {
    mailbox.sample(metrics, [this] { return self->mailbox().size(); });
  }
  /// The sink's completion of request `id`, sent back to this actor as an
  /// `Atom` message (the sink may call it from any thread).
  template <class Atom>
  std::function<void(error)> come_back_as(std::uint64_t id) {
    return [me = caf::actor_cast<binder_actor>(self), id](error err) {
      caf::anon_send(me, Atom::value, id, static_cast<std::uint8_t>(err.code),
                     err.message);
    };
  }
  void start_bind(std::uint64_t id, const model::pod_ptr& pod,
                  model::symbol node) override {
    out->bind(pod, node, come_back_as<bind_done_atom>(id));
  }
  void start_volume_binding(std::uint64_t id, const model::pod_ptr& pod,
                            model::symbol node,
                            const model::volume_binding_plan_ptr& plan,
                            std::chrono::milliseconds timeout) override {
    out->bind_volumes(pod, node, plan, timeout,
                      come_back_as<bind_done_atom>(id));
  }
  void start_deletion(std::uint64_t id, const model::pod_ptr& victim,
                      const model::pod_ptr& preemptor,
                      model::symbol node) override {
    out->preempt(victim, preemptor, node, come_back_as<deleted_atom>(id));
  }
  void preemption_ended(const model::pod_ptr& preemptor, bool failed) override {
    self->send(queue_handle, preemption_ended_atom::value, preemptor, failed);
  }
  void finish_binding(const model::pod_ptr& pod) override {
    self->send(cache_handle, finish_atom::value, pod);
  }
  void forget(const model::pod_ptr& pod) override {
    self->send(cache_handle, forget_atom::value, pod);
  }
  void bound(bind_outcome_ptr o) override {
    self->send(queue_handle, bound_atom::value, std::move(o));
  }
  cluster_sink& sink() override {
    return *out;
  }
};

binder_actor::behavior_type
binder(binder_actor::stateful_pointer<binder_cell> self, binder_config cfg,
       cluster_sink* sink, cache_actor c, queue_actor q) {
  exit_on_exception(self);
  auto& cell = self->state;
  cell.self = self;
  cell.out = sink;
  cell.metrics = cfg.metrics;
  cell.cache_handle = std::move(c);
  cell.queue_handle = std::move(q);
  cell.state = std::make_unique<binder_state>(cfg, cell);
  return {
    [self](bind_atom, const bind_request_ptr& req) {
      self->state.sample_mailbox();
      self->state.state->on_request(req);
    },
    [self](bind_done_atom, std::uint64_t id, std::uint8_t code,
           const std::string& message) {
      self->state.sample_mailbox();
      error err{static_cast<ec>(code), message};
      self->state.state->on_done(id, err);
    },
    [self](evict_atom, const eviction_ptr& e) {
      self->state.sample_mailbox();
      self->state.state->on_eviction(*e);
    },
    [self](deleted_atom, std::uint64_t id, std::uint8_t code,
           const std::string& message) {
      self->state.state->on_victim_deleted(
        id, error{static_cast<ec>(code), message});
    },
  };
}

} // namespace

binder_actor spawn_binder(caf::actor_system& sys, binder_config cfg,
                          cluster_sink& sink, cache_actor c, queue_actor q) {
  return sys.spawn(binder, cfg, &sink, std::move(c), std::move(q));
}

} // namespace tessera::actors
