// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The in-tree plugins, listed explicitly: nothing registers itself.
#include "plugins/default_binder/default_binder.hpp"
#include "plugins/default_preemption/default_preemption.hpp"
#include "plugins/dynamic_resources/dynamic_resources.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/image_locality/image_locality.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "plugins/node_affinity/node_affinity.hpp"
#include "plugins/node_declared_features/node_declared_features.hpp"
#include "plugins/node_name/node_name.hpp"
#include "plugins/node_ports/node_ports.hpp"
#include "plugins/node_resources/balanced_allocation.hpp"
#include "plugins/node_resources/fit.hpp"
#include "plugins/node_unschedulable/node_unschedulable.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/priority_sort/priority_sort.hpp"
#include "plugins/scheduling_gates/scheduling_gates.hpp"
#include "plugins/taint_toleration/taint_toleration.hpp"
#include "plugins/volume/node_volume_limits.hpp"
#include "plugins/volume/volume_binding.hpp"
#include "plugins/volume/volume_restrictions.hpp"
#include "plugins/volume/volume_zone.hpp"

namespace tessera::plugins {

registry make_in_tree_registry() {
  registry reg;
  auto add = [&](std::string name, plugin_factory f) {
    // Names are distinct by construction; add() only fails on duplicates.
    (void)reg.add(std::move(name), std::move(f));
  };
  add("PrioritySort", no_args_factory("PrioritySort", make_priority_sort));
  add("SchedulingGates",
      no_args_factory("SchedulingGates", make_scheduling_gates));
  add("NodeUnschedulable",
      no_args_factory("NodeUnschedulable", make_node_unschedulable));
  add("NodeName", no_args_factory("NodeName", make_node_name));
  add("TaintToleration",
      no_args_factory("TaintToleration", make_taint_toleration));
  add("NodeAffinity", args_factory<config::node_affinity_args>(
                        "NodeAffinity", make_node_affinity));
  add("NodePorts", no_args_factory("NodePorts", make_node_ports));
  add("NodeResourcesFit", args_factory<config::node_resources_fit_args>(
                            "NodeResourcesFit", make_node_resources_fit));
  add("VolumeRestrictions",
      no_args_factory("VolumeRestrictions", make_volume_restrictions));
  add("NodeVolumeLimits",
      no_args_factory("NodeVolumeLimits", make_node_volume_limits));
  add("VolumeBinding", args_factory<config::volume_binding_args>(
                         "VolumeBinding", make_volume_binding));
  add("VolumeZone", no_args_factory("VolumeZone", make_volume_zone));
  add("PodTopologySpread", args_factory<config::pod_topology_spread_args>(
                             "PodTopologySpread", make_pod_topology_spread));
  add("InterPodAffinity", args_factory<config::inter_pod_affinity_args>(
                            "InterPodAffinity", make_inter_pod_affinity));
  add("DynamicResources",
      no_args_factory("DynamicResources", make_dynamic_resources));
  add("DefaultPreemption", args_factory<config::default_preemption_args>(
                             "DefaultPreemption", make_default_preemption));
  add("NodeResourcesBalancedAllocation",
      args_factory<config::node_resources_balanced_allocation_args>(
        "NodeResourcesBalancedAllocation",
        make_node_resources_balanced_allocation));
  add("ImageLocality", no_args_factory("ImageLocality", make_image_locality));
  add("DefaultBinder", no_args_factory("DefaultBinder", make_default_binder));
  add("NodeDeclaredFeatures",
      no_args_factory("NodeDeclaredFeatures", make_node_declared_features));
  return reg;
}

} // namespace tessera::plugins
