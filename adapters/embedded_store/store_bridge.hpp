// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `store_bridge`: the embedded API server's store as the pipeline's source
/// and sink, with no HTTP in between (`tessera perf --target inprocess`).
///
/// Source side: a list + watch per kind the scheduler consumes (pods that
/// are not terminal, nodes, namespaces, PodDisruptionBudgets,
/// PriorityClasses, the workload kinds, the storage kinds), as a reflector
/// would do against a server. One thread
/// drains the watchers when the store signals new events, puts the events
/// of all kinds back into resourceVersion order, and hands them to the
/// pipeline as model objects obtained through `stored_object::to_model()`,
/// so each object version is decoded once however many consumers read it.
/// A watcher the store drops (it fell behind) is replaced by a re-list that
/// delivers the differences, as a reflector's resync would.
///
/// Sink side: the writes kube-scheduler sends (docs/apiserver-protocol.md §5)
/// made as direct store calls on the calling thread — `store::bind` for
/// bindings, status patches for PodScheduled=False, nominations and the
/// victims' DisruptionTarget, deletes for victims. PreBind's volume writes
/// (static volumes' claimRef, claims' selected-node annotation) and the
/// wait until the embedded volume controller has bound the claims run on
/// the threads of an `io::volume_binder`, as they would against a server.
/// Scheduled / FailedScheduling / Preempted events, when asked for, are written
/// by a recorder thread of the bridge, off the scheduler's threads, as
/// kube-scheduler's event broadcaster does; `flush_events()` and `stop()` wait
/// until every queued event is written. A store call takes the store's mutex
/// for microseconds; nothing else blocks.
#pragma once

#include "actors/sink.hpp"
#include "actors/source.hpp"
#include "io/apiserver/fwd.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace tessera::adapters {

struct store_bridge_config {
  /// Write Scheduled / FailedScheduling / Preempted events (kube-scheduler
  /// does); they cost one store write each.
  bool record_events = true;
  /// reportingController / source.component of the events.
  std::string component = "default-scheduler";
  /// Events handed to the pipeline in one delivery at most.
  std::size_t max_batch = 8192;
  /// Scheduler events waiting for the recorder at most; past it they are
  /// dropped (and counted), as the event broadcaster's bounded queue does.
  std::size_t max_queued_events = std::size_t{1} << 20;
  /// Between two checks of a pod's volume bindings.
  std::chrono::milliseconds volume_poll_interval{1000};
};

/// Counters for tests and the perf harness.
struct store_bridge_stats {
  std::uint64_t events_delivered = 0;
  /// Batches handed to the pipeline (each one message to its cache).
  std::uint64_t deliveries = 0;
  std::uint64_t decode_errors = 0;
  std::uint64_t relists = 0;
  std::uint64_t binds = 0;
  std::uint64_t bind_errors = 0;
  std::uint64_t status_patches = 0;
  std::uint64_t events_recorded = 0;
  /// Scheduler events dropped because the recorder's queue was full.
  std::uint64_t events_dropped = 0;
};

class store_bridge final : public actors::cluster_source,
                           public actors::cluster_sink {
public:
  /// `s` must outlive the bridge.
  explicit store_bridge(apiserver::store& s, store_bridge_config cfg = {});
  /// Stops the source thread and the event recorder (after writing what it
  /// holds).
  ~store_bridge() override;
  store_bridge(const store_bridge&) = delete;
  store_bridge& operator=(const store_bridge&) = delete;

  // cluster_source
  void start(receiver r) override;
  void stop() override;

  // cluster_sink
  void bind(const model::pod_ptr& pod, model::symbol node,
            std::function<void(error)> done) override;
  void scheduled(const model::pod_ptr& pod, model::symbol node) override;
  void unschedulable(const model::pod_ptr& pod,
                     const actors::failure_report& report) override;
  void preempt(const model::pod_ptr& victim, const model::pod_ptr& preemptor,
               model::symbol node, std::function<void(error)> done) override;
  void clear_nomination(const model::pod_ptr& pod) override;
  void bind_volumes(const model::pod_ptr& pod, model::symbol node,
                    const model::volume_binding_plan_ptr& plan,
                    std::chrono::milliseconds timeout,
                    std::function<void(error)> done) override;

  /// Returns once every event queued so far is written.
  void flush_events();

  store_bridge_stats stats() const;

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::adapters
