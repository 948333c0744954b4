// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `memory_cluster`: a cluster held in memory that is both the pipeline's
/// source and its sink. It feeds its objects to the cache as a watch would,
/// and applies what the pipeline decides back onto its objects as an API
/// server would — a binding sets spec.nodeName and emits MODIFIED, a
/// nomination updates status.nominatedNodeName, a preemption deletes the
/// victim and emits DELETED — so `simulate` and the pipeline tests go through
/// exactly the event flow of a live cluster. It also records, per pending
/// pod, the outcome `simulate` prints. Thread-safe: actors call the sink side
/// concurrently.
#pragma once

#include "actors/sink.hpp"
#include "actors/source.hpp"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::actors {

class memory_cluster final : public cluster_source, public cluster_sink {
public:
  /// What happened to one pod that was pending at start.
  struct pod_result {
    model::pod_ptr pod;
    enum class status : std::uint8_t { pending, scheduled, unschedulable };
    status state = status::pending;
    model::symbol node;
    /// The last FailedScheduling message.
    std::string message;
    std::string reason;
    model::symbol nominated_node;
    std::vector<model::pod_ptr> victims;
    /// Scheduling attempts that reported (failures and the final bind).
    std::int32_t attempts = 0;
    std::optional<cycle_explanation> explanation;
  };

  explicit memory_cluster(std::vector<model::object> objects);

  // cluster_source
  void start(receiver r) override;
  void stop() override;

  // cluster_sink
  void bind(const model::pod_ptr& pod, model::symbol node,
            std::function<void(error)> done) override;
  /// Records the plan (see `volume_writes`) and succeeds at once: no
  /// volume or claim object changes, as no controller runs here.
  void bind_volumes(const model::pod_ptr& pod, model::symbol node,
                    const model::volume_binding_plan_ptr& plan,
                    std::chrono::milliseconds timeout,
                    std::function<void(error)> done) override;
  void scheduled(const model::pod_ptr& pod, model::symbol node) override;
  /// Counts the pods placed from a batch (batched()).
  void attempted(const model::pod_ptr& pod,
                 const attempt_report& report) override;
  std::size_t batched() const;
  void unschedulable(const model::pod_ptr& pod,
                     const failure_report& report) override;
  void preempt(const model::pod_ptr& victim, const model::pod_ptr& preemptor,
               model::symbol node, std::function<void(error)> done) override;
  void clear_nomination(const model::pod_ptr& pod) override;
  void explained(const model::pod_ptr& pod,
                 const cycle_explanation& explanation) override;

  /// Adds, replaces or deletes an object after start (tests), emitting the
  /// event a watch would.
  void apply(object_event ev);

  /// Outcomes of the pods that were pending at start, in input order.
  std::vector<pod_result> results() const;
  /// Every pod currently in the cluster.
  std::vector<model::pod_ptr> pods() const;
  /// Number of successful bindings so far.
  std::size_t bindings() const;

  /// One PreBind volume write: the pod, the node and the plan it wrote.
  struct volume_write {
    model::pod_ptr pod;
    model::symbol node;
    model::volume_binding_plan_ptr plan;
  };
  /// Every volume write so far, in call order (tests check them).
  std::vector<volume_write> volume_writes() const;

  /// A fault for tests: every `n`-th victim deletion fails and leaves the
  /// victim in place, as an API server that refuses it would (0: none).
  void fail_every_nth_deletion(std::size_t n);
  /// Victim deletions refused so far.
  std::size_t refused_deletions() const;

private:
  void emit(object_event ev);

  /// A pod in the cluster, and where its outcome is kept if it was pending
  /// at start.
  struct stored_pod {
    model::pod_ptr pod;
    std::optional<std::size_t> result;
  };
  /// The outcome of `pod`'s key, or null when it was not pending at start.
  pod_result* result_of(const model::pod& pod);
  /// Removes a pod from the cluster.
  void forget_pod(const std::string& key);

  mutable std::mutex mutex_;
  std::size_t batched_ = 0;
  std::vector<model::object> initial_;
  // Hashed: every binding looks its pod up, and keys share long prefixes.
  std::unordered_map<std::string, stored_pod> pods_;
  /// Outcomes of the pods pending at start, in input order.
  std::vector<pod_result> results_;
  std::optional<receiver> receiver_;
  std::uint64_t resource_version_ = 1;
  std::size_t bindings_ = 0;
  std::vector<volume_write> volume_writes_;
  std::size_t fail_every_nth_deletion_ = 0;
  std::size_t deletions_asked_ = 0;
  std::size_t deletions_refused_ = 0;
};

} // namespace tessera::actors
