// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The default spreading selector, case by case from kube-scheduler's rule:
// matching Services of the pod's namespace merged, then the controller's
// selector (ReplicationController merged, ReplicaSet / StatefulSet added).
#include "plugins/pod_topology_spread/default_selector.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins {
namespace {

using model::workload_kind;

model::workload_ptr map_workload(workload_kind kind, std::string name,
                                 test::label_pairs selector,
                                 std::string ns = "default") {
  auto w = std::make_shared<model::workload>();
  w->kind = kind;
  w->ns = model::symbol{ns};
  w->name = std::move(name);
  w->selector_map = test::make_labels(selector);
  return w;
}

model::workload_ptr set_workload(workload_kind kind, std::string name,
                                 model::label_selector selector) {
  auto w = std::make_shared<model::workload>();
  w->kind = kind;
  w->ns = model::symbol{"default"};
  w->name = std::move(name);
  w->selector = std::move(selector);
  return w;
}

model::label_selector tier_in_front_or_edge() {
  model::label_requirement r;
  r.key = model::symbol{"tier"};
  r.oper = model::label_requirement::op::in;
  r.values = {model::symbol{"front"}, model::symbol{"edge"}};
  return model::label_selector::from_requirements({r});
}

TEST(default_selector, follows_services_and_the_controller) {
  struct test_case {
    std::string name;
    std::vector<model::workload_ptr> workloads;
    model::pod_ptr pod;
    /// The selector's string form ("" = empty: no default constraints).
    std::string want;
  };
  auto web = [] {
    return test::make_pod("p").label("app", "web").label("tier", "front");
  };
  const std::vector<test_case> cases{
    {"no workloads", {}, web().build(), ""},
    {"a Service selecting the pod",
     {map_workload(workload_kind::service, "s", {{"app", "web"}})},
     web().build(),
     "app=web"},
    {"a Service in another namespace",
     {map_workload(workload_kind::service, "s", {{"app", "web"}}, "other")},
     web().build(),
     ""},
    {"a Service that does not select the pod",
     {map_workload(workload_kind::service, "s", {{"app", "db"}})},
     web().build(),
     ""},
    {"a Service without selector adds nothing",
     {map_workload(workload_kind::service, "s", {})},
     web().build(),
     ""},
    {"two Services merged",
     {map_workload(workload_kind::service, "a", {{"app", "web"}}),
      map_workload(workload_kind::service, "b", {{"tier", "front"}})},
     web().build(),
     "app=web,tier=front"},
    {"a ReplicaSet's requirements added to the Services'",
     {map_workload(workload_kind::service, "s", {{"app", "web"}}),
      set_workload(workload_kind::replica_set, "rs", tier_in_front_or_edge())},
     web().owner("ReplicaSet", "rs").build(),
     "app=web,tier in (edge,front)"},
    {"a StatefulSet alone",
     {set_workload(workload_kind::stateful_set, "ss",
                   test::match_labels({{"app", "web"}}))},
     web().owner("StatefulSet", "ss").build(),
     "app=web"},
    {"a ReplicationController merged",
     {map_workload(workload_kind::replication_controller, "rc",
                   {{"tier", "front"}})},
     web().owner("ReplicationController", "rc").build(),
     "tier=front"},
    {"the controller must be the pod's own (name)",
     {set_workload(workload_kind::replica_set, "other",
                   test::match_labels({{"app", "web"}}))},
     web().owner("ReplicaSet", "rs").build(),
     ""},
    {"a ReplicaSet reference of an old API group is not followed",
     {set_workload(workload_kind::replica_set, "rs",
                   test::match_labels({{"app", "web"}}))},
     [&] {
       auto p = std::make_shared<model::pod>(
         *web().owner("ReplicaSet", "rs").build());
       p->owners[0].api_version = "extensions/v1beta1";
       return model::pod_ptr{p};
     }(),
     ""},
    {"an owner that is not the controller is not followed",
     {set_workload(workload_kind::replica_set, "rs",
                   test::match_labels({{"app", "web"}}))},
     [&] {
       auto p = std::make_shared<model::pod>(
         *web().owner("ReplicaSet", "rs").build());
       p->owners[0].controller = false;
       return model::pod_ptr{p};
     }(),
     ""},
    {"a StatefulSet's nil selector adds nothing",
     {set_workload(workload_kind::stateful_set, "ss",
                   model::label_selector::nothing())},
     web().owner("StatefulSet", "ss").build(),
     ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    workload_index index;
    for (const auto& w : tc.workloads)
      index.add(w);
    model::label_selector got = default_selector(*tc.pod, index);
    EXPECT_EQ(got.to_string(), tc.want);
    EXPECT_EQ(got.is_everything(), tc.want.empty());
  }
}

} // namespace
} // namespace tessera::plugins
