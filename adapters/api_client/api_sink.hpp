// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `api_sink`: the pipeline's `cluster_sink` over a live API server. Every
/// call returns at once; the API calls run on io threads:
///
/// Every write first asks the config's gates (leadership; for bindings,
/// informers in sync and the node known); a refused binding, or volume
/// write of one, fails with the gate's error, a refused status patch waits
/// for the gate (a while, or until shutdown), other refused writes are
/// dropped.
///
///   bind            POST pods/{name}/binding on the bind pool (the binder
///                   keeps at most bindConcurrency in flight); `done` gets
///                   ec::conflict for 409 (already bound, UID changed,
///                   being deleted), ec::not_found for 404 (pod gone) —
///                   the binder then forgets the assumed pod, and the pod's
///                   watch event settles the rest (no retry here); a status
///                   patch of the pod not yet sent is dropped
///   scheduled       Normal "Scheduled" event, action Binding,
///                   "Successfully assigned <ns>/<name> to <node>"
///   unschedulable   Warning "FailedScheduling" event (action Scheduling,
///                   message truncated to 1024 bytes) and, only when it
///                   changes, the PodScheduled=False condition (reason,
///                   full message) plus nominatedNodeName as a strategic
///                   merge status patch carrying the pod's UID as a
///                   precondition (so is every status patch here: a pod
///                   deleted and created again under its name never gets
///                   the old one's status; the API answers 409, quietly
///                   dropped)
///   preempt         DisruptionTarget=True (PreemptionByScheduler) status
///                   patch, DELETE, Normal "Preempted" event on the victim
///   clear_nomination  status patch nominatedNodeName: null
///   undecodable_pod Warning "FailedScheduling" event saying why the pod
///                   cannot be read and, if it names no node, the
///                   PodScheduled=False condition (reason SchedulerError)
///   bind_volumes    PUT of each static volume's claimRef and of each claim
///                   to provision's selected-node annotation, then GETs of
///                   the claims until the volume controller has bound them
///                   (`io::volume_binder`, on threads of its own)
///
/// Events go through an `io::event_recorder` (series de-duplication). The
/// status writes and deletions run on a pool of their own so binds never
/// wait behind them; a pod's writes run one at a time, in order, and a
/// status patch not yet sent absorbs the pod's newer ones (a newer one for
/// another UID replaces it). Shutdown:
/// `drain(timeout)` stops taking work and waits for what is in flight (not for
/// volume bindings, which may wait minutes for a provisioner); `stop()`
/// abandons the rest (their `done` callbacks get ec::unavailable) — shut the
/// rest_client down in between so running calls end.
#pragma once

#include "actors/sink.hpp"
#include "adapters/api_client/work_pool.hpp"
#include "io/event_recorder.hpp"
#include "io/rest_client.hpp"
#include "io/volume_binder.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::adapters {

struct api_sink_config {
  /// Threads issuing bindings (each a blocking call on its own
  /// connection).
  std::size_t bind_threads = 16;
  /// Threads issuing status patches and deletions. Writes of one pod run one
  /// at a time and in order; a patch not yet sent absorbs newer ones of its
  /// pod, so a slow API server costs latency, never a backlog of stale
  /// patches. As many threads as kube-scheduler's default parallelism: at
  /// 100 ms a call, 16 threads write 160 patches a second, more than the
  /// default client QPS lets through.
  std::size_t status_threads = 16;
  /// A status patch the write gate refuses is tried again every
  /// `gated_status_interval` (waiting on its writer thread, until
  /// shutdown) for at most `gated_status_patience` after the first
  /// refusal. `tessera run` passes
  /// the lease duration: a paused leader that keeps its lease renews within
  /// a retry period of resuming, while one that lost it can win it back
  /// only after the new holder's lease ran out unrenewed for that long, and
  /// by then the new holder may have bound the pod.
  std::chrono::milliseconds gated_status_interval{100};
  std::chrono::milliseconds gated_status_patience{std::chrono::seconds(15)};
  /// Threads writing volume bindings and checking on them.
  std::size_t volume_threads = 2;
  /// Between two checks of a pod's volume bindings.
  std::chrono::milliseconds volume_poll_interval{1000};
  /// Host name for Events' reportingInstance (`<scheduler>-<host>`); empty =
  /// gethostname().
  std::string hostname;
  /// Asked right before every API write (a binding, a volume's or claim's
  /// update, a status patch, a deletion, an event) on the thread that makes
  /// it: an error skips the write, and a binding fails with it (the binder
  /// backs the pod off). Events are asked when recorded; give the
  /// event_recorder the gate too, so that one queued meanwhile is not sent.
  /// `tessera run` passes "still holds the leader lease". Null = always.
  std::function<error()> write_gate;
  /// Asked right before every binding with its node: an error fails the
  /// binding. `tessera run` passes "every informer is in sync and the node
  /// is known". Null = always.
  std::function<error(model::symbol node)> bind_gate;
};

/// Counters (monotonic) for tests and metrics.
struct api_sink_stats {
  std::atomic<std::uint64_t> binds_started{0};
  std::atomic<std::uint64_t> binds_in_flight{0};
  std::atomic<std::uint64_t> bound{0};
  std::atomic<std::uint64_t> bind_conflicts{0};
  std::atomic<std::uint64_t> bind_not_found{0};
  std::atomic<std::uint64_t> bind_errors{0};
  std::atomic<std::uint64_t> status_patches{0};
  std::atomic<std::uint64_t> status_patches_skipped{0};
  /// Status patches merged into a patch of the same pod not yet sent.
  std::atomic<std::uint64_t> status_patches_merged{0};
  /// Status patches dropped unsent because a binding of the pod started
  /// (they would overwrite its PodScheduled=True) or a patch for a new pod
  /// under the name came.
  std::atomic<std::uint64_t> status_patches_stale{0};
  std::atomic<std::uint64_t> status_writes_in_flight{0};
  std::atomic<std::uint64_t> deletions{0};
  std::atomic<std::uint64_t> write_errors{0};
  /// Writes the gates refused (bindings included).
  std::atomic<std::uint64_t> gated{0};
};

class api_sink final : public actors::cluster_sink {
public:
  api_sink(io::rest_client& client, io::event_recorder& events,
           api_sink_config config = {});
  /// stop().
  ~api_sink() override;

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

  /// A pod that does not decode, as far as it reads: a Warning
  /// FailedScheduling event saying why and, when it names a pod not bound
  /// to a node, PodScheduled=False (reason SchedulerError). Once per
  /// version of the pod.
  void undecodable_pod(const model::object_peek& pod, const std::string& why);

  /// Stops taking work and waits up to `timeout` for calls in flight;
  /// returns true when nothing is left.
  bool drain(std::chrono::milliseconds timeout);
  /// Abandons queued work and joins the io threads.
  void stop();

  const api_sink_stats& stats() const noexcept {
    return stats_;
  }

private:
  void record(const model::pod& pod, const char* type, const char* reason,
              const char* action, std::string note,
              const model::pod* related = nullptr);
  /// record() for an object reference (`scheduler` reports it).
  void record_ref(io::object_ref regarding, std::string scheduler,
                  const char* type, const char* reason, const char* action,
                  std::string note, std::optional<io::object_ref> related);
  /// A pod status patch waiting for its writer thread.
  struct pending_status {
    std::string ns;
    std::string name;
    /// The pod the patch was computed for: sent as a precondition, so it
    /// never lands on a pod created again under the name.
    std::string uid;
    std::vector<io::condition_patch> conds;
    bool set_nomination = false;
    std::string nominated;
  };
  /// Runs `work` on a writer thread after the earlier writes of `pod_key`,
  /// unless the sink is closed or the write gate refuses; `refused`
  /// (optional) hears why it did not run.
  void post_status(std::string pod_key, std::function<void()> work,
                   std::function<void(error)> refused = {});
  /// Merges `patch` into the pod's patch not yet sent, or queues it.
  /// `unless_sent` runs under the lock when no patch of the pod is waiting;
  /// it may trim the patch or decline it (the pod already shows it).
  void patch_status(std::string pod_key, pending_status patch,
                    const std::function<bool(pending_status&)>& unless_sent
                    = {});
  /// Posts the sending of the pod's waiting patch; a refusal of the write
  /// gate posts it again until `give_up` (see
  /// api_sink_config::gated_status_patience; unset before any refusal).
  void post_status_patch(
    const std::string& pod_key,
    std::optional<std::chrono::steady_clock::time_point> give_up);
  /// Sends the pod's waiting patch (on a writer thread).
  void send_status(const std::string& pod_key);
  /// The write gate's verdict, counted when it refuses.
  error check_write_gate();
  /// Stops taking work and wakes the writers waiting for the write gate.
  void close();
  /// Waits until `until`; false, at once, when the sink closes first.
  bool wait_while_open(std::chrono::steady_clock::time_point until);

  io::rest_client& client_;
  io::event_recorder& events_;
  api_sink_config config_;
  std::string hostname_;
  std::unique_ptr<work_pool> binds_;
  std::unique_ptr<work_pool> writes_;
  std::unique_ptr<io::volume_binder> volumes_;
  std::atomic<bool> closed_{false};
  /// Wakes the writers waiting for the write gate when the sink closes.
  std::mutex closing_mutex_;
  std::condition_variable closing_;
  api_sink_stats stats_;
  /// Pod versions (uid/resourceVersion) already reported as undecodable.
  std::mutex undecodable_mutex_;
  std::unordered_set<std::string> undecodable_seen_;
  /// Pod key → the status patch queued for it and not yet sent.
  std::mutex status_mutex_;
  std::unordered_map<std::string, pending_status> status_pending_;
};

/// kube-scheduler's event message limit: at most 1024 bytes, cut messages
/// ending in " ...".
std::string truncate_event_message(std::string message);

} // namespace tessera::adapters
