// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `feature_gates`: kube-scheduler 1.37's scheduler feature gates, set with
/// `--feature-gates Name=true,Other=false` as upstream's flag is, and kept in
/// `scheduler_config::gates` so that any code holding the configuration can
/// ask `enabled(feature_gate::x)`.
///
/// The table (`known_feature_gates()`) holds every scheduler gate of 1.37
/// with its default and whether it is locked to that default, and says for
/// each what tessera does. Parsing follows component-base's featuregate:
/// pairs separated by ',', blanks around names and values ignored, values as
/// Go's strconv.ParseBool reads them; an unknown gate, a missing or bad
/// value, or a locked gate set against its default is an error (the verbs
/// exit 2). Setting a gate whose behaviour tessera lacks is accepted and
/// recorded; tessera then behaves as the table says (see docs/operations.md).
/// Gates of other Kubernetes components, which kube-scheduler's flag also
/// accepts, are unknown here.
#pragma once

#include "support/error.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tessera::config {

/// Every known gate, in upstream's (alphabetical) order.
enum class feature_gate : std::uint8_t {
  composite_pod_group,
  dra_admin_access,
  dra_consumable_capacity,
  dra_derived_attributes,
  dra_device_binding_conditions,
  dra_device_compatibility_groups,
  dra_device_taint_rules,
  dra_device_taints,
  dra_extended_resource,
  dra_fractional_capacity_range,
  dra_list_type_attributes,
  dra_node_allocatable_resources,
  dra_optional_node_operations,
  dra_partitionable_devices,
  dra_prioritized_list,
  dra_resource_claim_device_status,
  dra_scheduler_filter_timeout,
  dra_workload_resource_claims,
  dynamic_resource_allocation,
  generic_workload,
  in_place_pod_level_resources_vertical_scaling,
  in_place_pod_vertical_scaling,
  in_place_pod_vertical_scaling_scheduler_preemption,
  inter_pod_affinity_hostname_fast_path,
  match_label_keys_in_pod_topology_spread,
  node_declared_features,
  node_inclusion_policy_in_pod_topology_spread,
  nominated_node_name_for_expectation,
  opportunistic_batching,
  pod_group_preemption_policy,
  pod_level_resources,
  scheduler_async_api_calls,
  scheduler_async_preemption,
  scheduler_pop_from_backoff_q,
  scheduler_pre_queueing_hints,
  storage_capacity_scoring,
  taint_toleration_comparison_operators,
  topology_aware_workload_scheduling,
  volume_attributes_class,
  volume_limit_scaling,
};

/// Number of known gates.
inline constexpr std::size_t feature_gate_count = 40;

/// One known gate.
struct feature_gate_info {
  feature_gate gate;
  /// Upstream's name ("OpportunisticBatching").
  std::string_view name;
  /// 1.37's default.
  bool default_on = false;
  /// GA and locked to its default: setting it otherwise is an error.
  bool locked = false;
  /// What tessera does with the gate, in a few words.
  std::string_view tessera;
};

/// The known gates, in enum order.
std::span<const feature_gate_info> known_feature_gates() noexcept;

/// The gate named `name` (exact, case-sensitive as upstream), or nullptr.
const feature_gate_info* find_feature_gate(std::string_view name) noexcept;

/// The state of every known gate.
class feature_gates {
public:
  /// Every gate at its 1.37 default.
  feature_gates() noexcept;

  /// True when `g` is on.
  bool enabled(feature_gate g) const noexcept {
    return on_[static_cast<std::size_t>(g)];
  }

  /// Applies `Name=bool,...` (the --feature-gates syntax) on top of the
  /// current state. On error (ec::invalid_input, upstream's wording) nothing
  /// is changed.
  [[nodiscard]] error set(std::string_view text);

  /// The gates that differ from their default, as `Name=true,...` in table
  /// order; empty when all are at their default.
  std::string changed() const;

  friend bool operator==(const feature_gates&, const feature_gates&) = default;

private:
  std::array<bool, feature_gate_count> on_{};
};

} // namespace tessera::config
