// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "plugins/node_declared_features/node_declared_features.hpp"
#include "plugins/node_name/node_name.hpp"
#include "plugins/node_ports/node_ports.hpp"
#include "plugins/node_unschedulable/node_unschedulable.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/scheduling_gates/scheduling_gates.hpp"
#include "plugins/taint_toleration/taint_toleration.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace tessera::plugins {
namespace {

using plugin_testing::registered_event;

// The cluster events each plugin registers, in its order; an event without a
// hint always queues the pods the plugin rejected. The hints themselves are
// tested next to each plugin.
TEST(registered_events, of_each_plugin) {
  struct test_case {
    std::string name;
    std::shared_ptr<plugin> made;
    std::vector<registered_event> want;
  };
  const std::vector<test_case> cases = {
    {"SchedulingGates",
     make_scheduling_gates(),
     {{event_resource::pod, action::update_pod_scheduling_gates_eliminated,
       true}}},
    {"NodeUnschedulable",
     make_node_unschedulable(),
     {{event_resource::node, action::add | action::update_node_taint, true},
      {event_resource::pod, action::update_pod_toleration, true}}},
    {"NodeName",
     make_node_name(),
     {{event_resource::node, action::add, false}}},
    {"TaintToleration",
     make_taint_toleration(),
     {{event_resource::node, action::add | action::update_node_taint, true},
      {event_resource::pod, action::update_pod_toleration, true}}},
    {"NodePorts",
     make_node_ports(),
     {{event_resource::pod, action::remove, true},
      {event_resource::node, action::add, false}}},
    {"InterPodAffinity",
     make_inter_pod_affinity({}),
     {{event_resource::pod,
       action::add | action::update_pod_label | action::remove, true},
      {event_resource::node, action::add | action::update_node_label, true}}},
    {"PodTopologySpread",
     make_pod_topology_spread({}),
     {{event_resource::pod,
       action::add | action::update_pod_label | action::update_pod_toleration
         | action::remove,
       true},
      {event_resource::node,
       action::add | action::remove | action::update_node_label
         | action::update_node_taint,
       true}}},
    {"NodeDeclaredFeatures",
     make_node_declared_features(),
     {{event_resource::node, action::add | action::update_node_declared_feature,
       true},
      {event_resource::pod, action::update, true}}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.made->name(), tc.name);
    EXPECT_EQ(plugin_testing::registered_events(*tc.made), tc.want);
  }
}

} // namespace
} // namespace tessera::plugins
