// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `reference_scheduler`: kube-scheduler's scheduling loop written out
/// serially and plainly, for the serial-equivalence test. One pod at a time,
/// in queue order (priority, then input order), over one list of node_infos
/// in node-tree order:
///
///   PreFilter -> PreScore -> node scans over all nodes -> nominated node?
///   -> Filter from the rotating start index until numFeasibleNodesToFind
///   -> summaries, Score, NormalizeScore, weights -> reservoir tie-break
///   -> place (the node_info gets the pod at once)
///   no node fits -> PostFilter (preemption): victims deleted, the preemptor
///   retried at once
///
/// It calls the profile's plugins directly, through their extension-point
/// interfaces, and none of the actor code or the framework's cycle helpers
/// (`plugins/framework/cycle.hpp`); only the FitError text formatting is
/// shared. The tie-break draws from a std::mt19937_64 seeded like the
/// coordinator's, in the same places: one draw per tie, and one per
/// preemption dry run (the start offset).
///
/// Storage: the plugins read a storage view built from the objects; placing
/// a pod with claims settles them as the cache's assume does, on the
/// current view with the binder's rules (`model::fit_claims`): the chosen
/// volumes take their claims, provisioned claims get the selected node,
/// and the pod counts as a user of its ReadWriteOncePod claims.
/// VolumeAttachments are not read (the generator makes none).
#pragma once

#include "model/node_info.hpp"
#include "model/object.hpp"
#include "model/storage_view.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/diagnosis.hpp"
#include "plugins/framework/profile.hpp"
#include "test/pipeline/placement_checker.hpp"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tessera::pipeline_test {

/// What happened to one pod that was pending at the start.
struct reference_result {
  /// "namespace/name".
  std::string key;
  enum class kind : std::uint8_t { scheduled, unschedulable, error, pending };
  kind state = kind::pending;
  std::string node;
  /// The FailedScheduling message of the last failed attempt (empty once
  /// scheduled).
  std::string message;
  std::string nominated;
  /// Victims' keys, in deletion order.
  std::vector<std::string> victims;
  /// The last attempt's scored nodes with their weighted totals, in visit
  /// order (for failure messages).
  std::vector<std::pair<std::string, std::int64_t>> totals;
  /// The last attempt's rejected nodes: node -> "Plugin: reasons".
  std::map<std::string, std::string> rejected;
};

std::string_view to_string(reference_result::kind k) noexcept;

class reference_scheduler {
public:
  reference_scheduler(plugins::profile_ptr prof, std::uint64_t seed);

  /// Schedules every pending pod of `objects`; results in input order.
  std::vector<reference_result> run(const std::vector<model::object>& objects);

  /// Where each pod is at the end (bound, placed), by key.
  const std::map<std::string, std::string>& placements() const noexcept {
    return placements_;
  }
  /// Pods deleted by preemption.
  std::size_t preemptions() const noexcept {
    return preempted_;
  }
  /// The volume writes of placed pods, in placement order.
  const std::vector<volume_write_record>& volume_writes() const noexcept {
    return volume_writes_;
  }

private:
  struct slot {
    /// Copied on write, so a node scan shares every unchanged node.
    model::node_info_ptr info;
  };
  struct attempt {
    reference_result::kind outcome = reference_result::kind::unschedulable;
    std::string node;
    std::string message;
    std::string nominated;
    std::vector<model::pod_core_ptr> victims;
    std::vector<std::pair<std::string, std::int64_t>> totals;
    std::map<std::string, std::string> rejected;
  };

  attempt schedule_one(const model::pod_ptr& p);
  attempt fit_error(const model::pod& p, const plugins::cycle_state& state,
                    plugins::diagnosis diag);
  plugins::status run_filter_chain(const plugins::cycle_state& state,
                                   const model::pod& p,
                                   const model::node_info& node) const;
  plugins::status filter_node(const plugins::cycle_state& state,
                              const model::pod& p,
                              const model::node_info& node) const;
  std::vector<model::pod_ptr> nominated_on(const std::string& node) const;
  void rebuild_context();
  void place(const model::pod& p, const std::string& node);
  void bind_claims(const model::pod& p, const model::node& node);
  void count_claim_users(const model::pod& p, model::storage_view& view) const;
  void remove(const model::pod_core_ptr& victim);
  slot* find(const std::string& node);

  plugins::profile_ptr prof_;
  std::mt19937_64 rng_;
  std::vector<slot> nodes_;
  std::map<std::string, std::size_t> index_;
  std::size_t next_start_ = 0;
  plugins::cluster_context ctx_;
  std::vector<model::namespace_ptr> namespaces_;
  std::vector<model::disruption_budget_ptr> budgets_;
  /// Nominated pods by node (a preemptor between nomination and retry).
  std::map<std::string, std::vector<model::pod_ptr>> nominated_;
  std::map<std::string, std::string> placements_;
  std::size_t preempted_ = 0;
  /// Null when the cluster has no storage object.
  model::storage_view_ptr storage_;
  std::vector<volume_write_record> volume_writes_;
};

} // namespace tessera::pipeline_test
