// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `scheduling_cycle`: everything one cycle carries between its
/// asynchronous steps, and `cycle_step`, the request it is waiting on.
/// The coordinator owns every cycle; no other actor sees this type (shards
/// and the cache get immutable requests built from it).
#pragma once

#include "actors/messages.hpp"
#include "plugins/framework/batch_list.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/diagnosis.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace tessera::actors {

/// What a cycle is waiting for. Each value names the scatter (or single
/// request) in flight; the coordinator's one reply dispatcher resumes the
/// cycle at the step after it. The order is the cycle's, as drawn in
/// coordinator_state.hpp.
enum class cycle_step : std::uint8_t {
  /// Node scans on every shard (cross-node PreFilter state).
  scanning,
  /// Parked until the batch's head ends (see batcher).
  waiting_for_batch,
  /// Filter of one node on its shard alone: the pod's nominated node or
  /// its batch hint.
  probing,
  /// Filter + local Score on every shard with a quota.
  filtering,
  /// Deferred Score plugins on every shard with feasible nodes.
  scoring,
  /// PostFilter: the nominated node's eligibility, on its shard.
  checking_nominated,
  /// PostFilter: preemption dry runs on every shard with potential nodes.
  dry_running,
  /// The cache's assume of the chosen node.
  assuming,
};

struct scheduling_cycle {
  std::uint64_t id = 0;
  cycle_step step = cycle_step::scanning;
  queued_pod_info item;
  const plugins::profile* prof = nullptr;
  plugins::profile_ptr prof_ptr;
  cluster_view_ptr view;
  nominations_ptr nominated;
  plugins::cycle_start start;
  plugins::cycle_state_ptr state;
  std::shared_ptr<const std::unordered_set<model::symbol>> allowed;
  /// Per shard: the generation of the view this cycle's state came from.
  std::vector<std::uint64_t> generations;
  bool scanned = false;

  /// Replies of the request in flight, by shard; `pending` counts those
  /// still missing, and `request_failed` records a shard that did not
  /// answer.
  std::size_t pending = 0;
  bool request_failed = false;
  std::vector<scan_reply_ptr> scans;
  std::vector<filter_reply_ptr> filters;
  std::vector<score_reply_ptr> scores;
  std::vector<preempt_reply_ptr> preempts;
  assume_reply_ptr assumed;
  /// The node the assume asked for.
  model::symbol chosen;
  /// The node `probing` filters.
  model::symbol probe_node;
  /// The batch's hint for this cycle (empty without one), and, when this
  /// cycle is the batch's head and scored two or more nodes, what it
  /// leaves behind.
  model::symbol hint;
  bool hint_failed = false;
  std::optional<plugins::batch_list> fresh;

  plugins::diagnosis diag;
  plugins::score_table table;
  plugins::active_scores plan;
  std::size_t evaluated = 0;
  /// The cycle runs with no other cycle in flight.
  bool exclusive = false;
  /// The pod's cycles retried in a row before this one.
  std::int32_t retries = 0;
  /// When the cycle began (reported to the sink's attempted()).
  std::chrono::steady_clock::time_point began;
  /// The cycle's number among all begun, and whether other cycles were in
  /// flight when it began: together, whether any other cycle overlapped it.
  std::uint64_t started_at = 0;
  bool began_among_others = false;
  /// The latest node claim when the cycle began (see node_claims).
  std::uint64_t claims_seen = 0;
  /// When the filter scatter and PostFilter began (metrics).
  std::chrono::steady_clock::time_point filter_began;
  std::chrono::steady_clock::time_point post_filter_began;
  /// PostFilter's potential nodes: those it must skip, and the count of
  /// the others per shard.
  std::shared_ptr<const std::unordered_set<model::symbol>> unresolvable;
  std::vector<std::size_t> potential_per_shard;

  /// Shard s's feasible nodes from its filter reply (empty when it was not
  /// asked).
  const std::vector<model::symbol>& feasible_on(std::uint32_t s) const {
    static const std::vector<model::symbol> none;
    return s < filters.size() && filters[s] ? filters[s]->result.feasible
                                            : none;
  }

  /// Where a reply of type `Reply` from shard `s` is filed.
  template <class Reply>
  std::shared_ptr<const Reply>& reply_slot(std::uint32_t s) {
    if constexpr (std::is_same_v<Reply, scan_reply>)
      return scans[s];
    else if constexpr (std::is_same_v<Reply, filter_reply>)
      return filters[s];
    else if constexpr (std::is_same_v<Reply, score_reply>)
      return scores[s];
    else if constexpr (std::is_same_v<Reply, preempt_reply>)
      return preempts[s];
    else
      return assumed;
  }

  /// A request to a shard for this cycle, with the fields every one carries.
  template <class Request> std::shared_ptr<Request> request() const {
    auto req = std::make_shared<Request>();
    req->cycle_id = id;
    req->pod = item.pod;
    req->profile = prof_ptr;
    req->state = state;
    return req;
  }
};

} // namespace tessera::actors
