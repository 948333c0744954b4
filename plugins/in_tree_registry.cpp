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

namespace {

using factory_result = expected<std::shared_ptr<plugin>>;

// A factory for a plugin without args; any args given are a mismatch.
template <class Make> plugin_factory no_args(std::string name, Make make) {
  return [name, make](const config::plugin_args& args) -> factory_result {
    if (!std::holds_alternative<std::monostate>(args))
      return make_error(ec::invalid_input,
                        "plugin \"" + name + "\" takes no args");
    return make();
  };
}

// A factory for a plugin with args of type Args (default args when none).
template <class Args, class Make>
plugin_factory with_args(std::string name, Make make) {
  return [name, make](const config::plugin_args& args) -> factory_result {
    if (std::holds_alternative<std::monostate>(args))
      return make(Args{});
    if (const auto* typed = std::get_if<Args>(&args))
      return make(*typed);
    return make_error(ec::invalid_input,
                      "args for plugin \"" + name + "\" have the wrong type");
  };
}

} // namespace

registry make_in_tree_registry() {
  registry reg;
  auto add = [&](std::string name, plugin_factory f) {
    // Names are distinct by construction; add() only fails on duplicates.
    (void)reg.add(std::move(name), std::move(f));
  };
  add("PrioritySort", no_args("PrioritySort", make_priority_sort));
  add("SchedulingGates", no_args("SchedulingGates", make_scheduling_gates));
  add("NodeUnschedulable",
      no_args("NodeUnschedulable", make_node_unschedulable));
  add("NodeName", no_args("NodeName", make_node_name));
  add("TaintToleration", no_args("TaintToleration", make_taint_toleration));
  add("NodeAffinity", with_args<config::node_affinity_args>(
                        "NodeAffinity", make_node_affinity));
  add("NodePorts", no_args("NodePorts", make_node_ports));
  add("NodeResourcesFit", with_args<config::node_resources_fit_args>(
                            "NodeResourcesFit", make_node_resources_fit));
  add("VolumeRestrictions",
      no_args("VolumeRestrictions", make_volume_restrictions));
  add("NodeVolumeLimits", no_args("NodeVolumeLimits", make_node_volume_limits));
  add("VolumeBinding", with_args<config::volume_binding_args>(
                         "VolumeBinding", make_volume_binding));
  add("VolumeZone", no_args("VolumeZone", make_volume_zone));
  add("PodTopologySpread", with_args<config::pod_topology_spread_args>(
                             "PodTopologySpread", make_pod_topology_spread));
  add("InterPodAffinity", with_args<config::inter_pod_affinity_args>(
                            "InterPodAffinity", make_inter_pod_affinity));
  add("DynamicResources", no_args("DynamicResources", make_dynamic_resources));
  add("DefaultPreemption", with_args<config::default_preemption_args>(
                             "DefaultPreemption", make_default_preemption));
  add("NodeResourcesBalancedAllocation",
      with_args<config::node_resources_balanced_allocation_args>(
        "NodeResourcesBalancedAllocation",
        make_node_resources_balanced_allocation));
  add("ImageLocality", no_args("ImageLocality", make_image_locality));
  add("DefaultBinder", no_args("DefaultBinder", make_default_binder));
  add("NodeDeclaredFeatures",
      no_args("NodeDeclaredFeatures", make_node_declared_features));
  return reg;
}

} // namespace tessera::plugins
