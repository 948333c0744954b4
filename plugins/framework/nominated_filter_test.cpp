// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Filter with nominated pods, through the default profile and the shard's
// filter_and_score: the first pass must see the nominated pods of equal or
// higher priority (the pod itself excluded) exactly as if they ran on the
// node (resources, pod count, host ports, inter-pod affinity, topology
// spread), and the second pass must see the node without them. Every node's
// outcome is also checked against a reference that copies the node and adds
// the pods to it.
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace tessera::plugins {
namespace {

using plugin_testing::describe;
using test::make_pod;

constexpr const char* zone_key = "topology.kubernetes.io/zone";
constexpr const char* hostname_key = "kubernetes.io/hostname";

// The first pass as a copy of the node with the pods added, the way the
// scheduler did before node views; kept here as the reference.
status filter_on_copy(const profile& prof, const cycle_state& state,
                      const model::pod& p, const model::node_info& node,
                      std::span<const model::pod_ptr> nominated) {
  model::node_info copy = node;
  cycle_state state_with = state;
  bool any = false;
  for (const auto& n : nominated) {
    if (!n || n->priority < p.priority || n->same_identity(p))
      continue;
    any = true;
    copy.add_pod(n);
    if (status s = prof.run_add_pod(state_with, p, *n, copy); !s.ok())
      return s;
  }
  if (any)
    if (status s = prof.run_filters(state_with, p, copy); !s.ok())
      return s;
  return prof.run_filters(state, p, node);
}

struct test_case {
  std::string name;
  std::vector<model::pod_ptr> running;
  /// Each on the node its nominated_node_name names.
  std::vector<model::pod_ptr> nominated;
  model::pod_ptr pod;
  /// Outcome per node, n1 then n2.
  std::vector<std::string> want;
};

// Two nodes in two zones with 4 cpus and room for 3 pods each.
std::vector<model::node_info_ptr>
two_nodes(const std::vector<model::pod_ptr>& running) {
  std::vector<model::node_info_ptr> out;
  for (const char* z : {"1", "2"}) {
    std::string name = std::string{"n"} + z;
    auto node = test::make_node(name)
                  .cpu("4")
                  .memory("8Gi")
                  .pods(3)
                  .zone(std::string{"z"} + z)
                  .build();
    std::vector<model::pod_ptr> here;
    for (const auto& p : running)
      if (p->node_name.view() == name)
        here.push_back(p);
    out.push_back(test::make_node_info_ptr(node, here));
  }
  return out;
}

cluster_context context_of(const std::vector<model::node_info_ptr>& nodes) {
  cluster_context ctx;
  ctx.node_count = static_cast<std::int64_t>(nodes.size());
  for (const auto& n : nodes)
    for (const auto& p : n->pods()) {
      ctx.pods_with_affinity += p->has_pod_affinity_terms ? 1 : 0;
      ctx.pods_with_required_anti_affinity
        += p->has_required_anti_affinity ? 1 : 0;
    }
  return ctx;
}

TEST(nominated_filter, first_pass_sees_nominated_pods_as_running) {
  const std::string fits = "Success";
  const std::string no_cpu = "Unschedulable: Insufficient cpu";
  const std::string too_many = "Unschedulable: Too many pods";
  const std::string too_many_no_cpu
    = "Unschedulable: Too many pods, Insufficient cpu";
  const std::string ports = "Unschedulable: node(s) didn't have free ports "
                            "for the requested pod ports";
  const std::string anti = "Unschedulable: node(s) didn't match pod "
                           "anti-affinity rules";
  const std::string existing_anti = "Unschedulable: node(s) didn't satisfy "
                                    "existing pods anti-affinity rules";
  const std::string affinity = "UnschedulableAndUnresolvable: node(s) didn't "
                               "match pod affinity rules";
  const std::string spread = "Unschedulable: node(s) didn't match pod "
                             "topology spread constraints";
  auto running = [](const char* name, const char* node) {
    return make_pod(name).cpu("1").node(node);
  };
  auto nominee = [](const char* name, std::int32_t priority) {
    return make_pod(name).priority(priority).nominated_node("n1");
  };
  auto pod = [] { return make_pod("p").priority(10); };
  const std::vector<test_case> cases = {
    {"no nominated pods",
     {running("r", "n1").build()},
     {},
     pod().cpu("2").build(),
     {fits, fits}},
    {"a higher-priority nominee takes the cpu",
     {running("r", "n1").build()},
     {nominee("q", 20).cpu("2").build()},
     pod().cpu("2").build(),
     {no_cpu, fits}},
    {"a nominee of equal priority counts",
     {running("r", "n1").build()},
     {nominee("q", 10).cpu("2").build()},
     pod().cpu("2").build(),
     {no_cpu, fits}},
    {"a lower-priority nominee is ignored",
     {running("r", "n1").build()},
     {nominee("q", 5).cpu("2").build()},
     pod().cpu("2").build(),
     {fits, fits}},
    {"only the nominees of enough priority add up",
     {running("r", "n1").build()},
     {nominee("q", 20).cpu("1").build(), nominee("s", 5).cpu("2").build()},
     pod().cpu("2").build(),
     {fits, fits}},
    {"two nominees add up",
     {running("r", "n1").build()},
     {nominee("q", 20).cpu("1").build(), nominee("s", 20).cpu("1").build()},
     pod().cpu("2").build(),
     {too_many_no_cpu, fits}},
    {"the pod's own nomination is not counted",
     {running("r", "n1").build()},
     {pod().cpu("2").nominated_node("n1").build()},
     pod().cpu("2").build(),
     {fits, fits}},
    {"nominees count as pods",
     {running("r", "n1").build(), running("s", "n1").build()},
     {nominee("q", 20).build()},
     pod().build(),
     {too_many, fits}},
    {"a nominee holds the host port",
     {},
     {nominee("q", 20).host_port(8080).build()},
     pod().host_port(8080).build(),
     {ports, fits}},
    {"a nominee holds the port on another protocol",
     {},
     {nominee("q", 20).host_port(8080, "UDP").build()},
     pod().host_port(8080).build(),
     {fits, fits}},
    {"a running pod and a nominee hold other ports",
     {running("r", "n1").host_port(8081).build()},
     {nominee("q", 20).host_port(8082).build()},
     pod().host_port(8080).build(),
     {fits, fits}},
    {"the pod's anti-affinity to a nominee",
     {},
     {nominee("q", 20).label("app", "db").build()},
     pod()
       .label("app", "web")
       .required_anti_affinity("app", "db", hostname_key)
       .build(),
     {anti, fits}},
    // The running pod on n2 keeps InterPodAffinity from skipping (a
    // nominee alone does not, in upstream either).
    {"a nominee's anti-affinity to the pod",
     {running("r", "n2")
        .label("app", "db")
        .required_anti_affinity("app", "web", zone_key)
        .build()},
     {nominee("q", 20)
        .label("app", "db")
        .required_anti_affinity("app", "web", zone_key)
        .build()},
     pod().label("app", "web").build(),
     {existing_anti, existing_anti}},
    {"a lower-priority nominee's anti-affinity is ignored",
     {running("r", "n2")
        .label("app", "db")
        .required_anti_affinity("app", "web", zone_key)
        .build()},
     {nominee("q", 5)
        .label("app", "db")
        .required_anti_affinity("app", "web", zone_key)
        .build()},
     pod().label("app", "web").build(),
     {fits, existing_anti}},
    // The second pass runs without the nominee: affinity that only a
    // nominee satisfies does not let the pod in.
    {"affinity only a nominee satisfies",
     {},
     {nominee("q", 20).label("app", "db").build()},
     pod().label("app", "web").required_affinity("app", "db", zone_key).build(),
     {affinity, affinity}},
    {"affinity a running pod satisfies, with a nominee",
     {running("r", "n1").label("app", "db").build()},
     {nominee("q", 20).label("app", "db").build()},
     pod().label("app", "web").required_affinity("app", "db", zone_key).build(),
     {fits, affinity}},
    {"a nominee skews the spread",
     {},
     {nominee("q", 20).label("app", "web").build()},
     pod()
       .label("app", "web")
       .spread(zone_key, 1, "DoNotSchedule", {{"app", "web"}})
       .build(),
     {spread, fits}},
    {"a running pod in the other zone balances a nominee",
     {running("r", "n2").label("app", "web").build()},
     {nominee("q", 20).label("app", "web").build()},
     pod()
       .label("app", "web")
       .spread(zone_key, 1, "DoNotSchedule", {{"app", "web"}})
       .build(),
     {fits, spread}},
    {"nominees in another namespace do not spread",
     {},
     {nominee("q", 20).ns("other").label("app", "web").build(),
      nominee("s", 20).ns("other").label("app", "web").build()},
     pod()
       .label("app", "web")
       .spread(zone_key, 1, "DoNotSchedule", {{"app", "web"}})
       .build(),
     {fits, fits}},
  };
  auto prof = test::default_profile();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto nodes = two_nodes(tc.running);
    auto ctx = context_of(nodes);
    cycle_start start = begin_cycle(*prof, *tc.pod, ctx);
    ASSERT_TRUE(start.pre_filter_status.ok())
      << describe(start.pre_filter_status);
    auto partials = run_scans(*prof, start.state, *tc.pod, start.scans, nodes);
    ASSERT_TRUE(
      merge_scans(*prof, start.state, *tc.pod, start.scans, {partials}).ok());

    std::map<model::symbol, std::vector<model::pod_ptr>> by_node;
    for (const auto& n : tc.nominated)
      by_node[n->nominated_node_name].push_back(n);
    auto lookup = [&](model::symbol node) -> std::span<const model::pod_ptr> {
      auto it = by_node.find(node);
      if (it == by_node.end())
        return {};
      return it->second;
    };
    filter_options options;
    options.nominated = lookup;
    options.score = false;
    shard_result got
      = filter_and_score(*prof, start.state, *tc.pod, nodes, 0, options);
    ASSERT_TRUE(got.error.ok()) << describe(got.error);

    std::vector<std::string> outcomes;
    for (const auto& n : nodes) {
      std::string outcome = "missing";
      if (std::find(got.feasible.begin(), got.feasible.end(), n->name())
          != got.feasible.end())
        outcome = "Success";
      for (const auto& f : got.failures)
        if (f.node == n->name())
          outcome = describe(f.result);
      outcomes.push_back(outcome);
      EXPECT_EQ(describe(prof->run_filters_with_nominated(
                  start.state, *tc.pod, *n, lookup(n->name()))),
                describe(filter_on_copy(*prof, start.state, *tc.pod, *n,
                                        lookup(n->name()))))
        << n->name().view();
    }
    EXPECT_EQ(outcomes, tc.want);
  }
}

} // namespace
} // namespace tessera::plugins
