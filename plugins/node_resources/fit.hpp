// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_resources_fit`: kube-scheduler's NodeResourcesFit. Filter rejects a
/// node whose free resources cannot hold the pod's effective request
/// (`pod::requests`); Score rates the node with the configured strategy
/// (LeastAllocated, MostAllocated or RequestedToCapacityRatio, see
/// resource_scorer.hpp) and is not normalized.
///
/// Filter, per node, in kube-scheduler's order, every failure collected:
/// - `Too many pods` when the node's pods + 1 exceed allocatable pods;
/// - `Insufficient cpu|memory|ephemeral-storage` when the request (> 0)
///   exceeds allocatable − requested;
/// - `Insufficient <name>` for each scalar resource with a request > 0,
///   except extended resources named in ignoredResources or whose prefix
///   before '/' is in ignoredResourceGroups. kube-scheduler walks a Go map
///   here, so its order varies between runs; tessera sorts these reasons by
///   resource name.
/// The code is Unschedulable, or UnschedulableAndUnresolvable when a failing
/// resource's request exceeds the node's whole allocatable (preemption cannot
/// help); the pod-count reason never makes it unresolvable.
///
/// Everything pod-dependent (the checks, the interned reasons, which scalars
/// are ignored, the per-resource requests and weights for scoring) is worked
/// out once per cycle in PreFilter and PreScore; Filter and Score only read
/// the node's aggregates and allocate nothing unless the node fails.
///
/// Queueing hints (QueueingHint on, InPlacePodVerticalScaling on):
/// - Pod deleted: Queue if it was bound or nominated to a node;
/// - Pod scaled down: Queue if it is the waiting pod itself, or a bound pod
///   whose request shrank in a resource the waiting pod requests;
/// - Node added: Queue if the pod fits the empty node;
/// - Node allocatable updated: Queue if the pod fits the empty node and the
///   allowed pod count or a resource the pod requests grew.
/// Like kube-scheduler, the node hints ignore ignoredResources.
#pragma once

#include "config/plugin_args.hpp"
#include "model/node.hpp"
#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"
#include "plugins/node_resources/resource_scorer.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::plugins {

class node_resources_fit final : public pre_filter_plugin,
                                 public filter_plugin,
                                 public pre_score_plugin,
                                 public score_plugin,
                                 public signs_by<same_requests> {
public:
  /// Upstream's plugin name.
  static constexpr std::string_view plugin_name = "NodeResourcesFit";

  /// Reason constants, built once.
  struct reason_set {
    model::symbol too_many_pods{"Too many pods"};
    model::symbol insufficient_cpu{"Insufficient cpu"};
    model::symbol insufficient_memory{"Insufficient memory"};
    model::symbol insufficient_ephemeral_storage{
      "Insufficient ephemeral-storage"};
  };

  /// The per-cycle state. PreFilter and PreScore share the plugin's slot:
  /// PreFilter writes the filter part, PreScore a copy with the score part
  /// added (slots are never changed in place).
  struct cycle_data final : plugin_state {
    /// One scalar resource Filter checks.
    struct scalar_check {
      model::symbol name;
      std::int64_t request = 0;
      /// "Insufficient <name>".
      model::symbol reason;
    };
    /// A resource that takes part in scoring, with the pod's request.
    struct scored {
      node_resources::resource_field field;
      /// Read the node's non-zero requested (cpu, memory), else requested.
      bool node_non_zero = false;
      std::int64_t weight = 1;
      std::int64_t pod_request = 0;
    };

    /// Set by PreFilter.
    bool has_filter = false;
    std::int64_t milli_cpu = 0;
    std::int64_t memory = 0;
    std::int64_t ephemeral_storage = 0;
    /// Requested (> 0), not ignored scalars, sorted by name.
    boost::container::small_vector<scalar_check, 2> scalars;

    /// Set by PreScore.
    bool has_score = false;
    boost::container::small_vector<scored, 4> scored_resources;
  };

  /// Resolves the args once: ignore lists, resources, the strategy.
  explicit node_resources_fit(const config::node_resources_fit_args& args);

  /// "NodeResourcesFit".
  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// Stores the pod's request as Filter checks it (never Skip: Filter still
  /// checks the pod count of a pod that requests nothing).
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;
  /// Success, or every failing reason with U / UR (see the file comment).
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;
  /// Stores the pod's request of each scored resource; Error when no
  /// resource is configured (upstream's Score fails the same way).
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;
  /// The strategy's score, 0..100 (not normalized).
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;

  /// Pod Delete | UpdatePodScaleDown and Node Add | UpdateNodeAllocatable,
  /// with the hints below.
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// The reasons this plugin reports.
  const reason_set& reasons() const noexcept {
    return reasons_;
  }

  /// Hint for a pod deleted (`new_object` null) or scaled down.
  static queueing_hint hint_after_pod_event(const model::pod& waiting,
                                            const model::object* old_object,
                                            const model::object* new_object);
  /// Hint for a node added (`old_object` null) or whose allocatable changed.
  static queueing_hint hint_after_node_change(const model::pod& waiting,
                                              const model::object* old_object,
                                              const model::object* new_object);

private:
  /// What PreFilter needs to know about one scalar resource name.
  struct scalar_info {
    model::symbol reason;
    bool ignored = false;
  };
  scalar_info lookup_scalar(model::symbol name) const;
  /// The failing status of a node Filter found too small: every reason, in
  /// order, with the code.
  [[gnu::noinline]] status explain_misfit(const cycle_data& data,
                                          model::node_view node) const;
  /// Fills the score part of `data` for `p`.
  void prepare_score(cycle_data& data, const model::pod& p) const;
  /// Score with a prepared state.
  std::int64_t score_prepared(const cycle_data& data,
                              const model::node_info& node) const;
  /// Score when PreScore did not run (kube-scheduler computes the requests
  /// on the spot too).
  std::int64_t score_unprepared(const model::pod& p,
                                const model::node_info& node) const;

  reason_set reasons_;
  std::unordered_set<std::string> ignored_resources_;
  std::unordered_set<std::string> ignored_resource_groups_;
  std::vector<node_resources::resource_ref> resources_;
  node_resources::resource_scorer scorer_;
  /// Interned "Insufficient <name>" reasons and ignore decisions by scalar
  /// name, so a cycle does not build strings for names seen before.
  mutable std::mutex scalar_mutex_;
  mutable std::unordered_map<model::symbol, scalar_info> scalar_cache_;
};

/// Builds NodeResourcesFit from its (validated) args.
std::shared_ptr<plugin>
make_node_resources_fit(const config::node_resources_fit_args& args);

} // namespace tessera::plugins
