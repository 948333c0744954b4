// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_resources_balanced_allocation`: kube-scheduler's
/// NodeResourcesBalancedAllocation. It favours nodes whose resource usage
/// becomes more balanced (closer fractions of allocatable across the
/// configured resources) when the pod is placed there.
///
/// Newest kube-scheduler (master, after kubernetes/kubernetes#135573):
/// - Usage is the *actual* requested (no 100m / 200Mi defaults), for the pod
///   and the node; resource weights are ignored.
/// - PreScore returns Skip when the pod requests 0 of every configured
///   resource (a best-effort pod).
/// - A resource counts when the node's allocatable is > 0; a scalar resource
///   counts only if the pod requests it.
/// - balance(fractions), each fraction = used / allocatable capped at 1:
///   std = 0 for at most one fraction, |f1 − f2| / 2 for two, the population
///   standard deviation for more; balance = int64((1 − std) × 100), so it is
///   in 50..100.
/// - score = 50 + (50 + balance(with the pod) − balance(without)) / 2, in
///   integers: 75 when placing the pod leaves the balance unchanged, 100 for
///   perfectly imbalanced → balanced, 50 for the reverse.
/// Older releases scored balance(with the pod) alone.
///
/// Score is not normalized and allocates nothing per node.
#pragma once

#include "config/plugin_args.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"
#include "plugins/node_resources/resource_scorer.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class node_resources_balanced_allocation final
  : public pre_score_plugin,
    public score_plugin,
    public signs_by<same_requests> {
public:
  static constexpr std::string_view plugin_name
    = "NodeResourcesBalancedAllocation";

  /// PreScore's state: the resources that take part, with the pod's actual
  /// request of each.
  struct cycle_data final : plugin_state {
    /// A resource that takes part, with the pod's request.
    struct scored {
      node_resources::resource_field field;
      std::int64_t pod_request = 0;
    };
    boost::container::small_vector<scored, 4> scored_resources;
    /// The pod requests none of the configured resources.
    bool best_effort = true;
  };

  /// Resolves the configured resources once.
  explicit node_resources_balanced_allocation(
    const config::node_resources_balanced_allocation_args& args);

  /// "NodeResourcesBalancedAllocation".
  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// Stores the pod's actual request of each resource; Skip for a
  /// best-effort pod.
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;
  /// 50..100 (not normalized); see the file comment.
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;

  /// int64((1 − std) × 100) of usage fractions (each already capped at 1).
  static std::int64_t balance(std::span<const double> fractions) noexcept;

private:
  void prepare(cycle_data& data, const model::pod& p) const;
  std::int64_t score_prepared(const cycle_data& data,
                              const model::node_info& node) const;

  std::vector<node_resources::resource_ref> resources_;
};

/// Builds NodeResourcesBalancedAllocation from its (validated) args.
std::shared_ptr<plugin> make_node_resources_balanced_allocation(
  const config::node_resources_balanced_allocation_args& args);

} // namespace tessera::plugins
