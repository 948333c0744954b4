// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `spread_constraint`: one topology spread constraint as PodTopologySpread
/// evaluates it, and the rules shared by its Filter and Score:
/// - which nodes count: a node must carry every topology key of the pod's
///   constraints (of the kind being evaluated), and pass the constraint's
///   inclusion policies — nodeAffinityPolicy Honor: the node matches the
///   pod's nodeSelector and required node affinity; nodeTaintsPolicy Honor:
///   the pod tolerates the node's NoSchedule and NoExecute taints;
/// - which pods count: pods in the incoming pod's namespace, not being
///   deleted, matching the constraint's selector. An empty selector counts
///   no pod (upstream skips it), although the incoming pod still "matches"
///   it for the skew.
#pragma once

#include "model/labels.hpp"
#include "model/node.hpp"
#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "model/topology_spread.hpp"

#include <cstdint>
#include <vector>

namespace tessera::plugins::pod_topology_spread_detail {

using when_unsatisfiable
  = model::topology_spread_constraint::when_unsatisfiable;
using inclusion_policy = model::topology_spread_constraint::inclusion_policy;

struct spread_constraint {
  std::int32_t max_skew = 1;
  model::symbol topology_key;
  /// With matchLabelKeys already merged (decoder), or the default selector.
  model::label_selector selector = model::label_selector::nothing();
  std::int32_t min_domains = 1;
  inclusion_policy node_affinity_policy = inclusion_policy::honor;
  inclusion_policy node_taints_policy = inclusion_policy::ignore;
  /// The key is kubernetes.io/hostname: Score counts the node's own pods.
  bool hostname = false;
};

/// The constraints of `from` with `action`, in order.
std::vector<spread_constraint>
select_constraints(const std::vector<model::topology_spread_constraint>& from,
                   when_unsatisfiable action, model::symbol hostname_key);

/// True when `labels` carry every constraint's topology key.
bool has_all_keys(const model::label_set& labels,
                  const std::vector<spread_constraint>& constraints) noexcept;

/// The pod's nodeSelector and required node affinity match `node`
/// (upstream's GetRequiredNodeAffinity(pod).Match).
bool matches_required_node_affinity(const model::pod& p,
                                    const model::node& node) noexcept;

/// Whether `node` counts for `c` under its inclusion policies;
/// `node_affinity_ok` is matches_required_node_affinity(p, node).
bool passes_inclusion_policies(const spread_constraint& c, const model::pod& p,
                               const model::node& node,
                               bool node_affinity_ok) noexcept;

/// Pods of `pods` in namespace `ns`, not being deleted, matching `selector`
/// (0 for the empty selector).
std::int64_t count_matching(const std::vector<model::pod_ptr>& pods,
                            const model::label_selector& selector,
                            model::symbol ns) noexcept;

/// The same count over the pods of `node`, read from its pod digests (the
/// scans' hot path: no pod object is touched).
std::int64_t count_matching(const model::node_info& node,
                            const model::label_selector& selector,
                            model::symbol ns) noexcept;

} // namespace tessera::plugins::pod_topology_spread_detail
