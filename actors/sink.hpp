// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `cluster_sink`: where the pipeline's decisions go — bindings, the
/// FailedScheduling condition and event, nominations, preemption victims. The
/// API client implements it for `tessera run`, an in-memory cluster for
/// `simulate` and tests, the embedded store for `perf`. Every call returns at
/// once (no blocking inside actors); completions come back through callbacks
/// that may run on any thread.
#pragma once

#include "model/pod.hpp"
#include "model/storage_view.hpp"
#include "model/symbol.hpp"
#include "support/clock.hpp"
#include "support/error.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::actors {

/// A failed scheduling attempt, as kube-scheduler reports it.
struct failure_report {
  /// "Unschedulable" or "SchedulerError".
  std::string reason;
  /// The full FitError / error text (condition message; the event message is
  /// the same truncated to 1024 bytes by the sink).
  std::string message;
  /// Set when PostFilter nominated a node (preemption); empty to clear.
  model::symbol nominated_node;
  /// Whether nominated_node must be written (changed or cleared).
  bool update_nomination = false;
};

/// Why each node was rejected and how each feasible node scored, for
/// `simulate --explain`.
struct cycle_explanation {
  struct rejected_node {
    model::symbol node;
    std::string plugin;
    std::vector<std::string> reasons;
  };
  struct scored_node {
    model::symbol node;
    /// (plugin, normalized score before weight), in profile order.
    std::vector<std::pair<std::string, std::int64_t>> plugins;
    std::int64_t total = 0;
  };
  std::vector<rejected_node> rejected;
  std::vector<scored_node> scored;
};

/// How one scheduling cycle of a pod ended, for measurements (the perf
/// harness's attempt latencies and attempts per pod).
struct attempt_report {
  enum class result : std::uint8_t {
    /// Assumed on a node; the binding cycle follows.
    scheduled,
    unschedulable,
    error,
    /// The assume found a conflict; the pod is retried at once.
    conflict,
  };
  result outcome = result::scheduled;
  /// From the start of the cycle to its end (assume or failure).
  duration elapsed{};
  /// Scheduled on an opportunistic batch's hint (no full cycle).
  bool batched = false;
};

class cluster_sink {
public:
  virtual ~cluster_sink() = default;

  /// POSTs the binding of `pod` to `node`; `done` gets an empty error on
  /// success, `ec::conflict` when the pod is already bound, `ec::not_found`
  /// when it is gone, another code otherwise.
  virtual void bind(const model::pod_ptr& pod, model::symbol node,
                    std::function<void(error)> done)
    = 0;

  /// PreBind's storage writes for `pod` on `node`: binds each static volume
  /// of `plan` to its claim (the volume's claimRef), annotates each claim to
  /// provision with volume.kubernetes.io/selected-node, then waits until
  /// every claim of the plan is bound (volumeName and
  /// pv.kubernetes.io/bind-completed) or `timeout` passes. `done` gets an
  /// empty error when all are bound, else what failed; it may run on any
  /// thread. The default, for sinks with no API behind them (simulate's
  /// in-memory cluster), succeeds at once.
  virtual void bind_volumes(const model::pod_ptr& pod, model::symbol node,
                            const model::volume_binding_plan_ptr& plan,
                            std::chrono::milliseconds timeout,
                            std::function<void(error)> done) {
    (void)pod, (void)node, (void)plan, (void)timeout;
    done({});
  }

  /// Emits the Normal "Scheduled" event for a bound pod.
  virtual void scheduled(const model::pod_ptr& pod, model::symbol node) = 0;

  /// Records a failed attempt: PodScheduled=False condition, FailedScheduling
  /// event, nominatedNodeName when asked.
  virtual void unschedulable(const model::pod_ptr& pod,
                             const failure_report& report)
    = 0;

  /// Deletes a preemption victim (with the DisruptionTarget condition and a
  /// "Preempted" event naming the preemptor). `done` gets an empty error
  /// when the victim is deleted or was gone already, else why it could not
  /// be; it may run on any thread.
  virtual void preempt(const model::pod_ptr& victim,
                       const model::pod_ptr& preemptor, model::symbol node,
                       std::function<void(error)> done)
    = 0;

  /// Clears status.nominatedNodeName of a pod whose nomination a
  /// preemption made obsolete (a lower-priority pod nominated to the node
  /// the preemptor took).
  virtual void clear_nomination(const model::pod_ptr& pod) = 0;

  /// Receives each cycle's details when the pipeline runs with explain on.
  virtual void explained(const model::pod_ptr& pod,
                         const cycle_explanation& explanation) {
    (void)pod, (void)explanation;
  }

  /// Receives the end of every scheduling cycle (not those of pods dropped
  /// without a cycle).
  virtual void attempted(const model::pod_ptr& pod,
                         const attempt_report& report) {
    (void)pod, (void)report;
  }
};

} // namespace tessera::actors
