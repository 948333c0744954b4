// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cluster_event.hpp"

namespace tessera::plugins {

namespace {

// Upstream names the action part after the most specific change.
std::string action_label(action a) {
  struct named {
    action value;
    const char* text;
  };
  static constexpr named names[] = {
    {action::add, "Add"},
    {action::remove, "Delete"},
    {action::update_node_allocatable, "UpdateNodeAllocatable"},
    {action::update_node_label, "UpdateNodeLabel"},
    {action::update_node_taint, "UpdateNodeTaint"},
    {action::update_node_condition, "UpdateNodeCondition"},
    {action::update_node_annotation, "UpdateNodeAnnotation"},
    {action::update_pod_label, "UpdatePodLabel"},
    {action::update_pod_scale_down, "UpdatePodScaleDown"},
    {action::update_pod_toleration, "UpdatePodToleration"},
    {action::update_pod_scheduling_gates_eliminated,
     "UpdatePodSchedulingGatesEliminated"},
    {action::update_other, "Update"},
    {action::update_node_declared_feature, "UpdateNodeDeclaredFeature"},
  };
  if (a == action::all)
    return "*";
  if (a == action::update)
    return "Update";
  std::string out;
  for (const auto& n : names)
    if (intersects(a, n.value)) {
      if (!out.empty())
        out += "|";
      out += n.text;
    }
  return out;
}

} // namespace

std::string cluster_event::label() const {
  std::string resource_name;
  switch (resource) {
  case event_resource::pod:
    resource_name = "Pod";
    break;
  case event_resource::node:
    resource_name = "Node";
    break;
  case event_resource::namespace_:
    resource_name = "Namespace";
    break;
  case event_resource::pod_disruption_budget:
    resource_name = "PodDisruptionBudget";
    break;
  case event_resource::persistent_volume:
    resource_name = "PersistentVolume";
    break;
  case event_resource::persistent_volume_claim:
    resource_name = "PersistentVolumeClaim";
    break;
  case event_resource::storage_class:
    resource_name = "StorageClass";
    break;
  case event_resource::csi_node:
    resource_name = "CSINode";
    break;
  case event_resource::csi_driver:
    resource_name = "CSIDriver";
    break;
  case event_resource::csi_storage_capacity:
    resource_name = "CSIStorageCapacity";
    break;
  case event_resource::volume_attachment:
    resource_name = "VolumeAttachment";
    break;
  case event_resource::wildcard:
    return actions == action::all ? "*" : "*" + action_label(actions);
  }
  return resource_name + action_label(actions);
}

queueing_hint hint_own_update(const model::pod& waiting, const model::object*,
                              const model::object* new_object) {
  const model::pod* updated = object_as<model::pod_ptr>(new_object);
  if (updated == nullptr)
    return queueing_hint::queue;
  return updated->same_identity(waiting) ? queueing_hint::queue
                                         : queueing_hint::skip;
}

} // namespace tessera::plugins
