// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/feature_gates.hpp"

#include "support/text.hpp"

#include <optional>
#include <vector>

namespace tessera::config {

namespace {

using g = feature_gate;

constexpr std::string_view implemented
  = "implemented; tessera behaves as with the gate on, whatever it is set to";
constexpr std::string_view missing
  = "not implemented; tessera behaves as with the gate off";
constexpr std::string_view no_dra
  = "no dynamic resource allocation: pods with resource claims are refused";
constexpr std::string_view no_resize
  = "resize accounting not implemented: requests come from the pod spec";
constexpr std::string_view no_driver_presence
  = "not implemented: NodeVolumeLimits does not reject nodes missing a CSI "
    "driver that sets preventPodSchedulingIfMissing";

// kube-scheduler 1.37's scheduler gates (pkg/features, the scheduler's
// versioned specs) with their 1.37 defaults and locks.
constexpr std::array<feature_gate_info, feature_gate_count> table{{
  {g::composite_pod_group, "CompositePodGroup", false, false, missing},
  {g::dra_admin_access, "DRAAdminAccess", true, true, no_dra},
  {g::dra_consumable_capacity, "DRAConsumableCapacity", true, false, no_dra},
  {g::dra_derived_attributes, "DRADerivedAttributes", false, false, no_dra},
  {g::dra_device_binding_conditions, "DRADeviceBindingConditions", true, false,
   no_dra},
  {g::dra_device_compatibility_groups, "DRADeviceCompatibilityGroups", false,
   false, no_dra},
  {g::dra_device_taint_rules, "DRADeviceTaintRules", true, false, no_dra},
  {g::dra_device_taints, "DRADeviceTaints", true, false, no_dra},
  {g::dra_extended_resource, "DRAExtendedResource", true, true,
   "no DeviceClasses are watched: an extended resource is checked against "
   "node allocatable only"},
  {g::dra_fractional_capacity_range, "DRAFractionalCapacityRange", true, false,
   no_dra},
  {g::dra_list_type_attributes, "DRAListTypeAttributes", false, false, no_dra},
  {g::dra_node_allocatable_resources, "DRANodeAllocatableResources", false,
   false, no_dra},
  {g::dra_optional_node_operations, "DRAOptionalNodeOperations", false, false,
   no_dra},
  {g::dra_partitionable_devices, "DRAPartitionableDevices", true, false,
   no_dra},
  {g::dra_prioritized_list, "DRAPrioritizedList", true, true, no_dra},
  {g::dra_resource_claim_device_status, "DRAResourceClaimDeviceStatus", true,
   true, no_dra},
  {g::dra_scheduler_filter_timeout, "DRASchedulerFilterTimeout", true, false,
   no_dra},
  {g::dra_workload_resource_claims, "DRAWorkloadResourceClaims", false, false,
   no_dra},
  {g::dynamic_resource_allocation, "DynamicResourceAllocation", true, true,
   no_dra},
  {g::generic_workload, "GenericWorkload", false, false, missing},
  {g::in_place_pod_level_resources_vertical_scaling,
   "InPlacePodLevelResourcesVerticalScaling", true, false, no_resize},
  {g::in_place_pod_vertical_scaling, "InPlacePodVerticalScaling", true, true,
   no_resize},
  {g::in_place_pod_vertical_scaling_scheduler_preemption,
   "InPlacePodVerticalScalingSchedulerPreemption", false, false, missing},
  {g::inter_pod_affinity_hostname_fast_path, "InterPodAffinityHostnameFastPath",
   false, false,
   "an optimisation with the same results; tessera's InterPodAffinity has "
   "its own"},
  {g::match_label_keys_in_pod_topology_spread,
   "MatchLabelKeysInPodTopologySpread", true, false, implemented},
  {g::node_declared_features, "NodeDeclaredFeatures", true, true, implemented},
  {g::node_inclusion_policy_in_pod_topology_spread,
   "NodeInclusionPolicyInPodTopologySpread", true, true, implemented},
  {g::nominated_node_name_for_expectation, "NominatedNodeNameForExpectation",
   true, false,
   "not implemented: nominatedNodeName is written only by preemption"},
  {g::opportunistic_batching, "OpportunisticBatching", true, false,
   "implemented; off, every pod gets its own full cycle"},
  {g::pod_group_preemption_policy, "PodGroupPreemptionPolicy", false, false,
   missing},
  {g::pod_level_resources, "PodLevelResources", true, false, implemented},
  {g::scheduler_async_api_calls, "SchedulerAsyncAPICalls", false, false,
   "tessera's API writes are asynchronous whatever it is set to"},
  {g::scheduler_async_preemption, "SchedulerAsyncPreemption", true, false,
   "implemented; victims are deleted off the scheduling path whatever it is "
   "set to"},
  {g::scheduler_pop_from_backoff_q, "SchedulerPopFromBackoffQ", true, false,
   "implemented; off, a pod in backoffQ waits out its backoff"},
  {g::scheduler_pre_queueing_hints, "SchedulerPreQueueingHints", false, false,
   missing},
  {g::storage_capacity_scoring, "StorageCapacityScoring", true, false,
   "not implemented: VolumeBinding does not score nodes by storage capacity"},
  {g::taint_toleration_comparison_operators,
   "TaintTolerationComparisonOperators", false, false, missing},
  {g::topology_aware_workload_scheduling, "TopologyAwareWorkloadScheduling",
   false, false, missing},
  {g::volume_attributes_class, "VolumeAttributesClass", true, true,
   "implemented: a claim binds only a volume of its volumeAttributesClassName"},
  {g::volume_limit_scaling, "VolumeLimitScaling", true, false,
   no_driver_presence},
}};

// Go's strconv.ParseBool.
std::optional<bool> parse_go_bool(std::string_view v) noexcept {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"})
    if (v == t)
      return true;
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"})
    if (v == f)
      return false;
  return std::nullopt;
}

std::string_view bool_text(bool b) noexcept {
  return b ? "true" : "false";
}

} // namespace

std::span<const feature_gate_info> known_feature_gates() noexcept {
  return table;
}

const feature_gate_info* find_feature_gate(std::string_view name) noexcept {
  for (const auto& info : table)
    if (info.name == name)
      return &info;
  return nullptr;
}

feature_gates::feature_gates() noexcept {
  for (const auto& info : table)
    on_[static_cast<std::size_t>(info.gate)] = info.default_on;
}

error feature_gates::set(std::string_view text) {
  auto fail = [](std::string message) {
    return make_error(ec::invalid_input, std::move(message));
  };
  std::vector<std::pair<const feature_gate_info*, bool>> wanted;
  while (!text.empty()) {
    auto comma = text.find(',');
    auto item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{}
                                           : text.substr(comma + 1);
    if (item.empty())
      continue;
    auto eq = item.find('=');
    auto name = trim_blanks(item.substr(0, eq));
    if (eq == std::string_view::npos)
      return fail("missing bool value for " + std::string{name});
    auto value = trim_blanks(item.substr(eq + 1));
    auto on = parse_go_bool(value);
    if (!on)
      return fail("invalid value of " + std::string{name} + "="
                  + std::string{value} + ", err: strconv.ParseBool: parsing \""
                  + std::string{value} + "\": invalid syntax");
    const auto* info = find_feature_gate(name);
    if (info == nullptr)
      return fail("unrecognized feature gate: " + std::string{name});
    if (info->locked && *on != info->default_on)
      return fail("cannot set feature gate " + std::string{name} + " to "
                  + std::string{bool_text(*on)} + ", feature is locked to "
                  + std::string{bool_text(info->default_on)});
    wanted.emplace_back(info, *on);
  }
  for (const auto& [info, on] : wanted)
    on_[static_cast<std::size_t>(info->gate)] = on;
  return {};
}

std::string feature_gates::changed() const {
  std::string out;
  for (const auto& info : table) {
    bool on = enabled(info.gate);
    if (on == info.default_on)
      continue;
    if (!out.empty())
      out += ',';
    out += std::string{info.name} + "=" + std::string{bool_text(on)};
  }
  return out;
}

} // namespace tessera::config
