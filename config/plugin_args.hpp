// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Typed args of every in-tree plugin (the `pluginConfig[].args` of
/// KubeSchedulerConfiguration v1), with upstream's v1 defaults as member
/// initializers. Decoding, defaulting of nested lists and validation live in
/// config/plugin_args.cpp; plugins read these structs as they are.
#pragma once

#include "model/affinity.hpp"
#include "model/topology_spread.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tessera::config {

/// A resource name with a weight (1..100).
struct resource_spec {
  std::string name;
  std::int64_t weight = 1;
  friend bool operator==(const resource_spec&, const resource_spec&) = default;
};

/// A point of a RequestedToCapacityRatio / VolumeBinding shape.
struct utilization_shape_point {
  std::int32_t utilization = 0;
  std::int32_t score = 0;
  friend bool operator==(const utilization_shape_point&,
                         const utilization_shape_point&)
    = default;
};

struct scoring_strategy {
  enum class kind : std::uint8_t {
    least_allocated,
    most_allocated,
    requested_to_capacity_ratio
  };
  kind type = kind::least_allocated;
  std::vector<resource_spec> resources{{"cpu", 1}, {"memory", 1}};
  /// requestedToCapacityRatio.shape; required for that type.
  std::vector<utilization_shape_point> shape;
  friend bool operator==(const scoring_strategy&, const scoring_strategy&)
    = default;
};

struct node_resources_fit_args {
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  scoring_strategy strategy;
  friend bool operator==(const node_resources_fit_args&,
                         const node_resources_fit_args&)
    = default;
};

struct node_resources_balanced_allocation_args {
  std::vector<resource_spec> resources{{"cpu", 1}, {"memory", 1}};
  friend bool operator==(const node_resources_balanced_allocation_args&,
                         const node_resources_balanced_allocation_args&)
    = default;
};

struct inter_pod_affinity_args {
  std::int32_t hard_pod_affinity_weight = 1;
  bool ignore_preferred_terms_of_existing_pods = false;
  friend bool operator==(const inter_pod_affinity_args&,
                         const inter_pod_affinity_args&)
    = default;
};

struct node_affinity_args {
  std::optional<model::node_affinity> added_affinity;
  friend bool operator==(const node_affinity_args&, const node_affinity_args&)
    = default;
};

struct pod_topology_spread_args {
  enum class defaulting : std::uint8_t { system, list };
  std::vector<model::topology_spread_constraint> default_constraints;
  defaulting defaulting_type = defaulting::system;
  friend bool operator==(const pod_topology_spread_args&,
                         const pod_topology_spread_args&)
    = default;
};

struct default_preemption_args {
  std::int32_t min_candidate_nodes_percentage = 10;
  std::int32_t min_candidate_nodes_absolute = 100;
  friend bool operator==(const default_preemption_args&,
                         const default_preemption_args&)
    = default;
};

struct volume_binding_args {
  std::int64_t bind_timeout_seconds = 600;
  /// Storage-capacity scoring shape. Always empty: kube-scheduler 1.37 turns
  /// the StorageCapacityScoring gate on, but tessera models no volumes and
  /// keeps the gate-off behaviour, so a given `shape` is rejected as
  /// upstream rejects it with the gate off (and no default shape is
  /// written).
  std::vector<utilization_shape_point> shape;
  friend bool operator==(const volume_binding_args&, const volume_binding_args&)
    = default;
};

/// Args of one plugin; monostate for plugins without args.
using plugin_args = std::variant<std::monostate, node_resources_fit_args,
                                 node_resources_balanced_allocation_args,
                                 inter_pod_affinity_args, node_affinity_args,
                                 pod_topology_spread_args,
                                 default_preemption_args, volume_binding_args>;

} // namespace tessera::config
