// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `batcher`: opportunistic batching (kube-scheduler's OpportunisticBatching,
/// GA in 1.37), the coordinator's one owner of the batch. A pod whose full
/// cycle scored two or more nodes leaves the other scored nodes behind as
/// the batch; the next pod with the same signature skips the full cycle:
/// the best node of the list becomes its hint and is assumed at once (the
/// cache's assume runs the node-local filters on its own state, which is
/// the whole Filter for a signable pod; a hint with nominated pods is
/// filtered with them first). The node a pod went to, when a pod like it
/// still fits there (the assume answers that too, with its new scores),
/// rejoins the list, normalized again among the others (upstream's
/// rescoring). A hint that no longer fits sends the pod through a full
/// cycle, whose result replaces the batch.
///
/// As upstream, the batch is for consecutive pods: any other pod that
/// reaches Filter, a failed pod, a batch older than 500 ms, a changed
/// profile or score plan ends it, with upstream's flush reasons. Cycles in
/// flight make "consecutive" a chain: while the pod that will leave or
/// extend the batch (the head) is in flight, pods with its signature park
/// here and go on, in order, when it ends; pods with another signature run
/// at once and end the batch when the head is done. A head that fails
/// leaves nothing to wait for: for the batch's age (500 ms) pods of its
/// signature run their full cycles side by side instead of parking behind
/// one another, each on a current view — pods that must preempt would
/// otherwise go one at a time, each on the view its cycle began with.
///
/// CAF-free; the coordinator calls it at each step and records the metrics.
#pragma once

#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/batch_list.hpp"
#include "plugins/framework/profile.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::actors {

class batcher {
public:
  using time_point = std::chrono::steady_clock::time_point;

  /// Why a batch ended: upstream's `reason` label values.
  enum class flush_reason : std::uint8_t {
    pod_failed,
    pod_nominated,
    empty_list,
    expired,
    pod_incompatible,
    pod_not_batchable,
    rescore_error,
    normalize_error,
  };
  static std::string_view to_string(flush_reason r) noexcept;

  /// What a cycle does next.
  enum class plan : std::uint8_t {
    /// A full cycle (as the head when it is signable).
    full,
    /// Wait for the head: park() holds the cycle.
    park,
    /// Take the hint (take_hint()).
    use,
  };

  /// What a cycle brings to the batch.
  struct candidate {
    std::uint64_t cycle = 0;
    /// Index of the pod's profile (profiles, not their timed copies).
    std::size_t profile_index = 0;
    const plugins::profile* prof = nullptr;
    model::pod_ptr pod;
    /// The pod has a signature and its cycle reuses nothing cluster-wide
    /// (no node scan, no deferred score).
    bool signable = false;
    /// The pod has a nominated node (upstream flushes for it).
    bool nominated = false;
    /// The score plugins that run this cycle (score_plan().local).
    std::vector<std::size_t> score_plugins;
    time_point now;
  };

  /// `on_flush` learns every batch that ends (metrics).
  batcher(bool enabled, std::chrono::nanoseconds max_age,
          std::function<void(std::size_t profile, flush_reason)> on_flush);

  bool enabled() const noexcept {
    return enabled_;
  }
  /// The cycle that will leave or extend the batch, or 0.
  std::uint64_t head() const noexcept {
    return head_;
  }

  /// A cycle reaches Filter (or a parked one is looked at again).
  plan on_filter(const candidate& c);
  /// For the head of a `use` plan: the best node left, taken out of the
  /// list; nothing when the list is empty (the batch ends, and the head
  /// runs a full cycle).
  std::optional<model::symbol> take_hint();

  /// What the head's cycle did with its hint (upstream's `result` label).
  enum class attempt : std::uint8_t { no_hint, hint_used, hint_not_used };
  static std::string_view to_string(attempt a) noexcept;

  /// How the head's cycle ended.
  struct ending {
    bool assumed = false;
    model::symbol chosen;
    /// Its hint; empty without one.
    model::symbol hinted;
    /// The nodes its full cycle scored but did not choose; nothing when it
    /// ran no full cycle.
    std::optional<plugins::batch_list> fresh;
    /// The assume's rescore: whether a pod like this one still fits
    /// `chosen`, with its raw local scores there.
    bool fits_again = false;
    std::span<const std::int64_t> scores;
    const plugins::cycle_state* state = nullptr;
    const model::pod* pod = nullptr;
    time_point now;
  };
  /// The head's cycle ended. The batch that survives (the one it used, or
  /// the one it leaves) takes `chosen` back when it still fits.
  attempt on_end(ending e);
  /// Whether the last on_end() rescored the chosen node.
  bool rescored() const noexcept {
    return rescored_;
  }

  /// Parked cycles, in order, taken out to be looked at again.
  std::deque<std::uint64_t> take_parked();
  /// Pods placed on a hint so far.
  std::uint64_t batched() const noexcept {
    return batched_;
  }

private:
  struct batch {
    std::size_t profile_index = 0;
    const plugins::profile* prof = nullptr;
    model::pod_ptr canonical;
    plugins::batch_list list;
    time_point created;
  };

  void flush(flush_reason why);
  bool same_as(const candidate& c, std::size_t profile_index,
               const model::pod& other) const;

  bool enabled_;
  std::chrono::nanoseconds max_age_;
  std::function<void(std::size_t, flush_reason)> on_flush_;
  std::optional<batch> batch_;
  std::uint64_t head_ = 0;
  std::size_t head_profile_ = 0;
  const plugins::profile* head_prof_ = nullptr;
  model::pod_ptr head_pod_;
  /// Another pod reached Filter while the head was in flight.
  std::optional<flush_reason> interrupted_;
  /// The signature of the last head that failed, and until when its pods
  /// run unparked.
  struct failing {
    std::size_t profile_index = 0;
    model::pod_ptr pod;
    time_point until;
  };
  std::optional<failing> failing_;
  std::deque<std::uint64_t> parked_;
  bool rescored_ = false;
  std::uint64_t batched_ = 0;
};

} // namespace tessera::actors
