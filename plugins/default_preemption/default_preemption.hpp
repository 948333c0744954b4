// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `default_preemption`: kube-scheduler's DefaultPreemption (PostFilter). When
/// a pod fits nowhere, it looks for a node where deleting lower-priority pods
/// lets the pod fit, and nominates it with those victims.
///
/// The PostFilter is split for sharding (see `post_filter_plugin`):
/// - `check_pod_eligible` (coordinator): preemptionPolicy: Never rejects with
///   Unschedulable `not eligible due to preemptionPolicy=Never.`.
/// - `check_nominated_node` (shard of the nominated node): unless that node's
///   filter status this cycle was UnschedulableAndUnresolvable, a
///   lower-priority pod on it being terminated by preemption (deleting, with
///   DisruptionTarget/PreemptionByScheduler) rejects with Unschedulable
///   `not eligible due to a terminating pod on the nominated node.`.
/// - `candidates_wanted`: max(n * minCandidateNodesPercentage / 100,
///   minCandidateNodesAbsolute), at most n (integer arithmetic).
/// - `dry_run` (every shard): per node, on private copies of the node_info
///   and the cycle_state, the victim search of upstream's
///   SelectVictimsOnNode (see `select_victims_on_node`); walks the nodes in
///   the given order and stops once it holds a candidate without PDB
///   violations and `wanted` candidates in all. Each of the two candidate
///   lists keeps at most `wanted` entries, as upstream's fixed-size lists.
/// - `select` (coordinator): upstream's pickOneNodeForPreemption.
/// - `wrap_message`: `preemption: <message>`.
///
/// Deliberate differences from upstream, both for determinism: the dry run is
/// sequential (upstream runs 16 workers, so which candidates it collects
/// past the stopping point depends on timing), and ties keep their order:
/// victims sort stably, and `select` falls back to the first candidate in
/// the given order (upstream iterates a Go map). A pod without
/// status.startTime counts as started "now", later than any recorded start;
/// two such pods are equally important.
///
/// PodDisruptionBudgets come from `cluster_context::disruption_budgets` with
/// the rules in `disruption_budget_check.hpp`; a budget without status counts
/// as allowing no disruption (`model::pdb_disruptions_allowed` is how the
/// cache computes the status the disruption controller would write).
#pragma once

#include "config/plugin_args.hpp"
#include "model/cluster_objects.hpp"
#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class default_preemption final : public post_filter_plugin {
public:
  static constexpr std::string_view plugin_name = "DefaultPreemption";

  explicit default_preemption(const config::default_preemption_args& args);

  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// "not eligible due to preemptionPolicy=Never."
  model::symbol reason_policy_never() const noexcept {
    return reason_policy_never_;
  }
  /// "not eligible due to a terminating pod on the nominated node."
  model::symbol reason_terminating_victim() const noexcept {
    return reason_terminating_victim_;
  }
  /// "No preemption victims found for incoming pod" (UR, per node).
  model::symbol reason_no_victims() const noexcept {
    return reason_no_victims_;
  }
  /// "no candidate node for preemption" (select over no candidates).
  model::symbol reason_no_candidate() const noexcept {
    return reason_no_candidate_;
  }

  /// What the victim search found on one node: Success with the victims
  /// (most important first) and how many of them violate a PDB, or the
  /// node's status (a filter rejection, UR "No preemption victims...", or an
  /// Error from an AddPod / RemovePod extension).
  struct node_victims {
    status result;
    std::vector<model::pod_core_ptr> victims;
    std::int32_t pdb_violations = 0;
  };

  /// Unschedulable for preemptionPolicy: Never; Success otherwise.
  status check_pod_eligible(const model::pod& p) const override;

  /// Unschedulable when `nominated` holds a lower-priority pod terminated by
  /// preemption, unless `nominated_status` is UnschedulableAndUnresolvable.
  status check_nominated_node(const model::pod& p,
                              const model::node_info& nominated,
                              const status& nominated_status) const override;

  /// Upstream's calculateNumCandidates.
  std::size_t candidates_wanted(std::size_t potential) const override;

  /// Victim search over `nodes` in order, with upstream's stopping rule.
  /// Nodes that are not candidates go to `failures` with their status; a
  /// node where the pod fits with every pod kept (nothing to preempt) is an
  /// Error `expected at least one victim pod on node "<name>"`, counted in
  /// `fits_without_victims`.
  dry_run_result dry_run(const profile& prof, const cycle_state& state,
                         const model::pod& p,
                         std::span<const dry_run_node> nodes,
                         std::size_t wanted,
                         const cluster_context& cluster) const override;

  /// Upstream's SelectVictimsOnNode on copies of `node` and `state`: remove
  /// every pod of lower priority than `p` (RemovePod extensions run); none
  /// -> UR "No preemption victims found for incoming pod"; the filters with
  /// nominated pods must then pass (else their status is returned); then
  /// re-add the removed pods most important first, PDB-violating ones
  /// before the others, each staying a victim when the filters fail with it.
  node_victims select_victims_on_node(
    const profile& prof, const cycle_state& state, const model::pod& p,
    const dry_run_node& node,
    std::span<const model::disruption_budget_ptr> budgets) const;

  /// Upstream's pickOneNodeForPreemption over `candidates` (non-violating
  /// first): fewest PDB violations, lowest highest-victim priority, smallest
  /// sum of (priority + 2^31), fewest victims, latest earliest start among
  /// the highest-priority victims, then the first. One candidate is chosen
  /// directly; none is Unschedulable "no candidate node for preemption".
  post_filter_outcome
  select(const model::pod& p,
         std::vector<preemption_candidate> candidates) const override;

  /// "preemption: <message>"; an empty message stays empty.
  std::string wrap_message(std::string_view message) const override;

  /// Upstream's MoreImportantPod: higher priority, then earlier start time
  /// (a missing start time counts as now, i.e. latest).
  static bool more_important(const model::pod_core& a,
                             const model::pod_core& b) noexcept;

private:
  config::default_preemption_args args_;
  model::symbol reason_policy_never_;
  model::symbol reason_terminating_victim_;
  model::symbol reason_no_victims_;
  model::symbol reason_no_candidate_;
};

/// Builds DefaultPreemption with `args` (validated by config).
std::shared_ptr<plugin>
make_default_preemption(const config::default_preemption_args& args);

} // namespace tessera::plugins
