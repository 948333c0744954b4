// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `binder_state`: the binding cycle, without CAF. For each assumed pod:
/// Reserve, Permit, PreBind (with the assume's volume writes, made through
/// the sink and waited for asynchronously), then the Bind call through the
/// sink (up to `bind_concurrency` at once; the rest wait in arrival order),
/// then PostBind.
///
///   request ─> Reserve ─> Permit ─> PreBind ─> sink.bind_volumes ─> sink.bind
///   ─ok─> PostBind,
///      │          │          │         │        (if a plan)  │          │
///      finish_binding, │ (waits if │ reject   │ reject  │ reject   error/ │
///      error  │         "Scheduled", │  at
///      limit)└──────────┴─────────┴──────── timeout ────┴──────────┘ queue:
///      bound v                      v
///   [waiting]      Unreserve (reverse), forget, FailedScheduling, backoff
#pragma once

#include "actors/messages.hpp"
#include "actors/sink.hpp"
#include "metrics/fwd.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>

namespace tessera::actors {

struct binder_config {
  std::size_t bind_concurrency = 64;
  /// Where to record (not owned); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

/// How the binder reaches the rest of the pipeline.
class binder_ports {
public:
  virtual ~binder_ports() = default;
  /// Starts the API bind of binding `id`; the completion must come back as
  /// `binder_state::on_done(id, ...)` inside the binder's context.
  virtual void start_bind(std::uint64_t id, const model::pod_ptr& pod,
                          model::symbol node)
    = 0;
  /// Starts PreBind's volume writes of binding `id`; the completion must
  /// come back as `binder_state::on_done(id, ...)` like a bind's.
  virtual void start_volume_binding(std::uint64_t id, const model::pod_ptr& pod,
                                    model::symbol node,
                                    const model::volume_binding_plan_ptr& plan,
                                    std::chrono::milliseconds timeout)
    = 0;
  /// Starts deleting `victim` of eviction `id`; the completion must come
  /// back as `binder_state::on_victim_deleted(id, ...)` inside the binder's
  /// context.
  virtual void start_deletion(std::uint64_t id, const model::pod_ptr& victim,
                              const model::pod_ptr& preemptor,
                              model::symbol node)
    = 0;
  /// Every deletion of one of `preemptor`'s evictions has ended: the queue
  /// lets the preemptor go on, at once when one `failed` (the room it waits
  /// for may never come).
  virtual void preemption_ended(const model::pod_ptr& preemptor, bool failed)
    = 0;
  virtual void finish_binding(const model::pod_ptr& pod) = 0;
  virtual void forget(const model::pod_ptr& pod) = 0;
  virtual void bound(bind_outcome_ptr out) = 0;
  virtual cluster_sink& sink() = 0;
};

class binder_state {
public:
  static inline const char* name = "binder";

  binder_state(binder_config cfg, binder_ports& ports);

  void on_request(bind_request_ptr req);
  /// The sink finished binding `id` (its volumes, then the pod); an empty
  /// error means success.
  void on_done(std::uint64_t id, const error& err);
  /// A preemption's writes: each displaced nomination cleared, each victim
  /// deleted (DisruptionTarget, the Preempted event). The preemptor waits
  /// in the queue for its victims' deletions; when one fails, its own
  /// nomination is cleared and the queue tries it again.
  void on_eviction(const eviction& e);
  /// The sink finished deleting a victim of eviction `id`.
  void on_victim_deleted(std::uint64_t id, const error& err);
  std::size_t evictions_in_flight() const noexcept {
    return evictions_.size();
  }

  std::size_t in_flight() const noexcept {
    return running_.size();
  }
  std::size_t waiting() const noexcept {
    return waiting_.size();
  }

private:
  struct binding {
    bind_request_ptr req;
    plugins::cycle_state state;
    /// While the sink writes the volume plan (not yet the binding): the
    /// PreBind plugin the writes belong to.
    std::string_view volume_writer;
  };
  void start(bind_request_ptr req);
  /// The Bind plugins, then the API bind.
  void bind(binding& b, std::uint64_t id);
  void fail(binding& b, std::uint64_t id, const std::string& message,
            bool report);
  void next();
  void publish_binding();

  binder_config cfg_;
  /// scheduler_goroutines{operation="binding"} (metrics on only).
  metrics::gauge* binding_gauge_ = nullptr;
  binder_ports& ports_;
  std::uint64_t next_id_ = 0;
  std::deque<bind_request_ptr> waiting_;
  std::unordered_map<std::uint64_t, binding> running_;
  struct pending_eviction {
    model::pod_ptr preemptor;
    std::size_t deletions_left = 0;
    bool failed = false;
    std::chrono::steady_clock::time_point began;
  };
  std::uint64_t next_eviction_ = 0;
  std::unordered_map<std::uint64_t, pending_eviction> evictions_;
};

} // namespace tessera::actors
