// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `settling_queue_state`: the queue `tessera simulate` runs, without CAF.
/// Each pod is tried in queue order until it is placed or finally
/// unschedulable, so that the result is the one a serial scheduler reaches.
///
///   add ──PreEnqueue rejects──> [gated] ──update removes gates──┐
///    └───────────────────────────────────> [active] <───────────┘
///                                              │ pop
///   [retry] <─────────stale decision────── [in flight] ──assumed──> [binding]
///     ^  ^                                     │ unschedulable        │ bound
///     │  └──victims gone── [waiting] <─preemptor┤                      v
///     │                                        v                     gone
///     └──a pod ahead was placed later── [tentative] ──settled──> gone
///
/// There is no backoff, no unschedulable pool and no queueing hint. A
/// failure stays tentative until nothing is in flight; then it is final
/// unless a pod ahead of it in queue order was placed after it was popped
/// (its view missed what a serial scheduler would have seen), in which case
/// it is tried again at its old position. A preemptor is retried as soon as
/// its victims are gone, and nothing else pops while it waits, so no pod
/// sees the victims gone but the preemptor not yet placed.
#pragma once

#include "actors/messages.hpp"
#include "actors/queue/inflight_window.hpp"
#include "actors/queue/queue_entry.hpp"
#include "metrics/fwd.hpp"
#include "plugins/framework/profile.hpp"
#include "support/clock.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::actors {

class settling_queue_state {
public:
  static inline const char* name = "queue";

  /// `metrics`: where to record (not owned); null = recording off.
  settling_queue_state(metrics::scheduler_metrics* metrics, const clock& c,
                       std::vector<plugins::profile_ptr> profiles);

  // Inputs from the cache; `profile` indexes the profiles.
  void add(const model::pod_ptr& p, std::uint32_t profile);
  void update(const model::pod_ptr& old_pod, const model::pod_ptr& new_pod,
              std::uint32_t profile);
  void remove(const model::pod& p);
  /// Only pod deletions matter: they free a waiting preemptor.
  void on_cluster_event(const plugins::cluster_event& ev,
                        std::shared_ptr<const model::object> old_obj,
                        std::shared_ptr<const model::object> new_obj);

  /// The next pod to try. When nothing is active, in flight or waiting, the
  /// tentative failures are settled first (see the file comment), so an
  /// empty answer with nothing in flight means every pod has its result.
  std::optional<queued_pod_info> pop();

  void on_outcome(const cycle_outcome& out);
  void on_bound(const bind_outcome& out);
  /// Simulate's in-memory cluster deletes every victim at once and never
  /// reports a failed deletion, so nothing waits on one here.
  void on_preemption_ended(const model::pod&, bool) {
  }

  queue_stats stats() const;

private:
  enum class where : std::uint8_t {
    active,
    gated,
    in_flight,
    binding,
    waiting_for_victims,
    retry,
    tentative,
  };
  struct entry : queue_entry {
    where at = where::active;
    /// Its mark in deletions_ while in flight: deletions after it may be
    /// this preemptor's victims, gone before its outcome arrived.
    std::uint64_t popped_deletion = 0;
    /// placed_.size() when popped (the staleness check of settle()).
    std::size_t popped_placed = 0;
    std::unordered_set<std::string> victims;
  };
  struct order_less {
    const settling_queue_state* owner;
    bool operator()(const entry* a, const entry* b) const;
  };

  /// Decides the tentative failures once nothing is active, in flight or
  /// waiting; true when it put any pod back to be tried again.
  bool settle();
  void admit(entry& e);
  void detach(entry& e);
  void erase(const std::string& key);
  void to_retry(entry& e);

  metrics::scheduler_metrics* metrics_;
  const clock& clock_;
  std::vector<plugins::profile_ptr> profiles_;
  const plugins::queue_sort_plugin* sort_ = nullptr;

  std::unordered_map<std::string, std::unique_ptr<entry>> entries_;
  std::set<const entry*, order_less> active_;
  std::deque<entry*> retry_;
  std::size_t gated_ = 0;
  std::size_t in_flight_ = 0;
  std::size_t binding_ = 0;
  std::size_t waiting_ = 0;
  std::size_t tentative_ = 0;
  std::uint64_t sequence_ = 0;
  std::uint64_t cycle_ = 0;
  /// The queue position of every pod placed so far, in the order their
  /// assumes were reported (holding the pod its position points into).
  struct placed_pod {
    model::pod_ptr pod;
    plugins::queued_pod position;
  };
  std::vector<placed_pod> placed_;
  /// The keys of pods deleted while pods were in flight.
  inflight_window<std::string> deletions_;
};

} // namespace tessera::actors
