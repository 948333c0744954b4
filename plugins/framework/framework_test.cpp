// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The framework on its own (fake plugins) and the default profile as a whole.
#include "config/scheduler_config.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/diagnosis.hpp"
#include "plugins/framework/plugin_evaluations.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace tessera::plugins::framework_test {
namespace {

using plugin_names = std::set<std::string, std::less<>>;

using test::make_node;
using test::make_node_info_ptr;
using test::make_pod;

model::symbol sym(std::string_view s) {
  return model::symbol{s};
}

TEST(num_feasible_nodes_to_find, follows_upstream_formula) {
  struct test_case {
    std::int32_t percentage;
    std::size_t nodes;
    std::size_t expected;
  };
  std::vector<test_case> cases{
    {0, 0, 0},         {0, 99, 99},     {0, 100, 100},  {0, 500, 230},
    {0, 1000, 420},    {0, 5000, 500},  {0, 6000, 300}, {0, 50000, 2500},
    {100, 5000, 5000}, {50, 1000, 500}, {1, 1000, 100}, {10, 99, 99},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(std::to_string(tc.percentage) + "% of "
                 + std::to_string(tc.nodes));
    EXPECT_EQ(num_feasible_nodes_to_find(tc.percentage, tc.nodes), tc.expected);
  }
}

TEST(fit_error, message_matches_upstream_text) {
  auto insufficient = status{code::unschedulable, sym("Insufficient cpu")};
  auto taint = status{code::unschedulable_and_unresolvable,
                      sym("node(s) had untolerated taint(s)")};
  struct test_case {
    std::string name;
    std::size_t nodes;
    diagnosis diag;
    std::string expected;
  };
  diagnosis doc_example;
  doc_example.add(sym("n1"), taint);
  doc_example.add(sym("n2"), insufficient);
  doc_example.add(sym("n3"), insufficient);
  doc_example.post_filter_message
    = "preemption: 0/3 nodes are available: 1 Preemption is not helpful for "
      "scheduling, 2 No preemption victims found for incoming pod.";
  diagnosis string_order;
  for (int i = 0; i < 10; ++i)
    string_order.add(sym("x" + std::to_string(i)), insufficient);
  string_order.add(sym("y1"), taint);
  string_order.add(sym("y2"), taint);
  diagnosis multi;
  multi.add(sym("n1"),
            status{code::unschedulable,
                   {sym("Insufficient cpu"), sym("Insufficient memory")}});
  diagnosis absent;
  absent.add(sym("n1"), insufficient);
  absent.absent_nodes_status
    = status{code::unschedulable_and_unresolvable,
             sym("node(s) didn't satisfy plugin(s) [NodeAffinity]")};
  diagnosis pre_filter;
  pre_filter.pre_filter_message = "pod affinity terms conflict";
  pre_filter.add(sym("n1"), insufficient); // ignored when PreFilter rejected
  std::vector<test_case> cases{
    {"doc example", 3, doc_example,
     "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 "
     "Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is "
     "not helpful for scheduling, 2 No preemption victims found for incoming "
     "pod."},
    {"sorted as strings", 12, string_order,
     "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had "
     "untolerated taint(s)."},
    {"a node counts in each of its reasons", 1, multi,
     "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory."},
    {"absent nodes take the default status", 4, absent,
     "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy "
     "plugin(s) [NodeAffinity]."},
    {"prefilter message replaces the histogram", 2, pre_filter,
     "0/2 nodes are available: pod affinity terms conflict."},
    {"no statuses", 5, diagnosis{}, "0/5 nodes are available:"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(fit_error_message(tc.nodes, tc.diag), tc.expected);
  }
}

TEST(diagnosis, records_rejecting_plugins) {
  diagnosis d;
  status u{code::unschedulable, sym("Insufficient cpu")};
  u.set_plugin("NodeResourcesFit");
  status p{code::pending, sym("waiting")};
  p.set_plugin("DynamicThing");
  d.add(sym("n1"), u);
  d.add(sym("n2"), p);
  EXPECT_EQ(d.unschedulable_plugins, plugin_names{"NodeResourcesFit"});
  EXPECT_EQ(d.pending_plugins, plugin_names{"DynamicThing"});
}

TEST(status, codes_and_messages) {
  EXPECT_EQ(to_string(code::unschedulable_and_unresolvable),
            "UnschedulableAndUnresolvable");
  EXPECT_EQ(to_string(code::pending), "Pending");
  status s{code::unschedulable,
           {sym("Too many pods"), sym("Insufficient cpu")}};
  EXPECT_EQ(s.message(), "Too many pods, Insufficient cpu");
  EXPECT_TRUE(s.is_rejected());
  EXPECT_FALSE(status::skip().is_rejected());
  EXPECT_EQ(status::make_error("boom").message(), "boom");
  EXPECT_TRUE(status{}.ok());
}

TEST(cluster_event, labels_and_matching) {
  cluster_event node_add{event_resource::node, action::add};
  cluster_event taint{event_resource::node, action::update_node_taint};
  cluster_event any_node_update{event_resource::node, action::update};
  EXPECT_EQ(node_add.label(), "NodeAdd");
  EXPECT_EQ(taint.label(), "NodeUpdateNodeTaint");
  EXPECT_TRUE(any_node_update.matches(taint));
  EXPECT_FALSE(any_node_update.matches(node_add));
  EXPECT_TRUE(unschedulable_timeout.matches(node_add));
  cluster_event pod_delete{event_resource::pod, action::remove};
  EXPECT_FALSE(pod_delete.matches(node_add));
}

// --- fake plugins for the framework's own logic -----------------------------

// A PreFilter returning a fixed node set.
class set_pre_filter final : public pre_filter_plugin {
public:
  set_pre_filter(std::string name, std::vector<std::string> nodes)
    : name_(std::move(name)) {
    for (const auto& n : nodes)
      nodes_.insert(sym(n));
  }
  std::string_view name() const noexcept override {
    return name_;
  }
  pre_filter_result pre_filter(cycle_state&, const model::pod&,
                               const cluster_context&) const override {
    return {status{}, nodes_};
  }

private:
  std::string name_;
  std::unordered_set<model::symbol> nodes_;
};

// A Score returning a per-node constant (200 for "bad" to test the range).
class table_score final : public score_plugin {
public:
  explicit table_score(std::map<std::string, std::int64_t> scores)
    : scores_(std::move(scores)) {
  }
  std::string_view name() const noexcept override {
    return "TableScore";
  }
  std::int64_t score(const cycle_state&, const model::pod&,
                     const model::node_info& node) const override {
    auto it = scores_.find(node.name().str());
    return it == scores_.end() ? 0 : it->second;
  }

private:
  std::map<std::string, std::int64_t> scores_;
};

config::profile_config profile_with(std::vector<std::string> pre_filter,
                                    std::vector<std::string> score) {
  config::profile_config cfg;
  for (auto& n : pre_filter)
    cfg.plugins.pre_filter.push_back({n, 0});
  for (auto& n : score)
    cfg.plugins.score.push_back({n, 1});
  return cfg;
}

TEST(begin_cycle, intersects_pre_filter_node_sets) {
  registry reg;
  ASSERT_FALSE(reg.add("A", [](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{std::make_shared<set_pre_filter>(
      "A", std::vector<std::string>{"n1", "n2"})};
  }));
  ASSERT_FALSE(reg.add("B", [](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{
      std::make_shared<set_pre_filter>("B", std::vector<std::string>{"n3"})};
  }));
  ASSERT_FALSE(reg.add("C", [](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{std::make_shared<set_pre_filter>(
      "C", std::vector<std::string>{"n2", "n3"})};
  }));
  cluster_context cluster;
  auto pod = make_pod("p").build();
  {
    auto prof = profile::build(profile_with({"A", "C"}, {}), reg, 0);
    ASSERT_TRUE(prof) << prof.err().message;
    auto start = begin_cycle(**prof, *pod, cluster);
    ASSERT_TRUE(start.pre_filter_status.ok());
    ASSERT_TRUE(start.allowed_nodes);
    EXPECT_EQ(*start.allowed_nodes,
              (std::unordered_set<model::symbol>{sym("n2")}));
    EXPECT_EQ(start.node_set_plugins, (std::vector<std::string>{"A", "C"}));
  }
  {
    auto prof = profile::build(profile_with({"B", "A"}, {}), reg, 0);
    ASSERT_TRUE(prof);
    auto start = begin_cycle(**prof, *pod, cluster);
    EXPECT_EQ(start.pre_filter_status.get_code(),
              code::unschedulable_and_unresolvable);
    EXPECT_EQ(start.pre_filter_status.message(),
              "node(s) didn't satisfy plugin(s) [A B] simultaneously");
  }
}

TEST(profile, build_errors_name_the_plugin) {
  registry reg;
  ASSERT_FALSE(reg.add("TableScore", [](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{
      std::make_shared<table_score>(std::map<std::string, std::int64_t>{})};
  }));
  auto missing = profile::build(profile_with({}, {"Nope"}), reg, 0);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().message, "\"Nope\" does not exist");
  auto wrong = profile::build(profile_with({"TableScore"}, {}), reg, 0);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.err().message,
            "plugin \"TableScore\" does not extend PreFilter plugin");
}

TEST(select_host, picks_the_best_and_breaks_ties_uniformly) {
  std::map<std::string, std::int64_t> scores{
    {"a", 10}, {"b", 30}, {"c", 30}, {"d", 30}, {"e", 5}};
  registry reg;
  ASSERT_FALSE(reg.add("TableScore", [scores](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{
      std::make_shared<table_score>(scores)};
  }));
  auto prof = profile::build(profile_with({}, {"TableScore"}), reg, 0);
  ASSERT_TRUE(prof);
  cycle_state state = (*prof)->new_cycle_state();
  auto pod = make_pod("p").build();
  std::map<std::string, int> chosen;
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    score_table table;
    for (const auto& [n, s] : scores) {
      table.nodes.push_back(sym(n));
      table.scores.push_back(s);
    }
    table.plugins = {0};
    std::mt19937_64 rng{seed};
    auto pick = select_host(**prof, state, *pod, table, rng);
    ASSERT_TRUE(pick);
    ++chosen[table.nodes[*pick].str()];
  }
  EXPECT_EQ(chosen.count("a") + chosen.count("e"), 0u);
  for (const char* n : {"b", "c", "d"}) {
    SCOPED_TRACE(n);
    EXPECT_GT(chosen[n], 850); // 1000 expected of 3000
    EXPECT_LT(chosen[n], 1150);
  }
  // Same seed, same choice.
  score_table t1, t2;
  for (auto* t : {&t1, &t2}) {
    for (const auto& [n, s] : scores) {
      t->nodes.push_back(sym(n));
      t->scores.push_back(s);
    }
    t->plugins = {0};
  }
  std::mt19937_64 r1{42}, r2{42};
  EXPECT_EQ(*select_host(**prof, state, *pod, t1, r1),
            *select_host(**prof, state, *pod, t2, r2));
}

TEST(select_host, rejects_scores_out_of_range) {
  registry reg;
  ASSERT_FALSE(reg.add("TableScore", [](const config::plugin_args&) {
    return expected<std::shared_ptr<plugin>>{std::make_shared<table_score>(
      std::map<std::string, std::int64_t>{{"bad", 200}})};
  }));
  auto prof = profile::build(profile_with({}, {"TableScore"}), reg, 0);
  ASSERT_TRUE(prof);
  cycle_state state = (*prof)->new_cycle_state();
  score_table table;
  table.nodes = {sym("ok"), sym("bad")};
  table.scores = {10, 200};
  table.plugins = {0};
  std::mt19937_64 rng{1};
  auto pick = select_host(**prof, state, *make_pod("p").build(), table, rng);
  ASSERT_FALSE(pick);
  EXPECT_EQ(pick.err().message,
            "plugin \"TableScore\" returns an invalid score 200, it should in "
            "the range of [0, 100] after normalizing");
}

// --- the default profile as a whole ------------------------------------------

using test::default_profile;

using plugin_testing::names_of;

TEST(default_profile, matches_kube_scheduler) {
  auto prof = default_profile();
  ASSERT_TRUE(prof);
  EXPECT_EQ(prof->scheduler_name(), "default-scheduler");
  EXPECT_EQ(
    names_of(prof->filter()),
    (std::vector<std::string>{
      "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
      "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
      "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity",
      "NodeDeclaredFeatures"}));
  EXPECT_EQ(
    names_of(prof->pre_filter()),
    (std::vector<std::string>{
      "NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions",
      "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
      "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures"}));
  std::vector<std::pair<std::string, std::int64_t>> weights;
  for (const auto& s : prof->score())
    weights.emplace_back(std::string{s.plugin->name()}, s.weight);
  EXPECT_EQ(weights, (std::vector<std::pair<std::string, std::int64_t>>{
                       {"TaintToleration", 3},
                       {"NodeAffinity", 2},
                       {"NodeResourcesFit", 1},
                       {"VolumeBinding", 1},
                       {"PodTopologySpread", 2},
                       {"InterPodAffinity", 2},
                       {"NodeResourcesBalancedAllocation", 1},
                       {"ImageLocality", 1}}));
  EXPECT_EQ(names_of(prof->post_filter()),
            std::vector<std::string>{"DefaultPreemption"});
  EXPECT_EQ(names_of(prof->bind()), std::vector<std::string>{"DefaultBinder"});
  EXPECT_EQ(names_of(prof->pre_enqueue()),
            std::vector<std::string>{"SchedulingGates"});
  ASSERT_NE(prof->queue_sort(), nullptr);
  EXPECT_EQ(prof->queue_sort()->name(), "PrioritySort");
}

/// A cycle of the default profile begun for `pod` over a node tainted
/// dedicated=gpu:NoSchedule and the two nodes of (name, cpu) `sized`.
struct small_cycle {
  profile_ptr prof;
  std::vector<model::node_info_ptr> nodes;
  model::pod_ptr pod;
  cycle_start start;
};

small_cycle
begin_small_cycle(model::pod_ptr pod,
                  std::vector<std::pair<std::string, std::string>> sized) {
  small_cycle c;
  c.prof = default_profile();
  c.nodes = plugin_testing::tainted_then_sized(std::move(sized));
  c.pod = std::move(pod);
  cluster_context cluster;
  cluster.node_count = 3;
  if (c.prof)
    c.start = begin_cycle(*c.prof, *c.pod, cluster);
  return c;
}

TEST(default_profile, fit_error_over_a_small_cluster) {
  auto c = begin_small_cycle(make_pod("big").cpu("2").build(),
                             {{"small-1", "1"}, {"small-2", "1"}});
  ASSERT_TRUE(c.prof);
  ASSERT_TRUE(c.start.pre_filter_status.ok());
  auto result
    = filter_and_score(*c.prof, c.start.state, *c.pod, c.nodes, 0, {});
  EXPECT_TRUE(result.feasible.empty());
  EXPECT_EQ(result.processed, 3u);
  diagnosis d;
  for (const auto& f : result.failures)
    d.add(f.node, f.result);
  EXPECT_EQ(fit_error_message(3, d),
            "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 "
            "Insufficient cpu.");
  EXPECT_EQ(d.unschedulable_plugins,
            (plugin_names{"NodeResourcesFit", "TaintToleration"}));
}

// scheduler_plugin_evaluation_total, read from the phases' results: each
// active Filter runs on a node up to the first that fails there; Score
// runs once per feasible node; PreFilter and PreScore once per cycle
// unless skipped.
TEST(default_profile, plugin_evaluations_count_every_call) {
  auto c = begin_small_cycle(make_pod("p").cpu("2").build(),
                             {{"small", "1"}, {"big", "8"}});
  ASSERT_TRUE(c.prof);
  const auto& prof = c.prof;
  const auto& start = c.start;
  metrics::scheduler_metrics m;
  plugin_evaluations evaluations{&m};
  ASSERT_TRUE(start.pre_filter_status.ok());
  evaluations.count_pre_phase(*prof, start);
  auto result = filter_and_score(*prof, start.state, *c.pod, c.nodes, 0, {});
  ASSERT_EQ(result.feasible.size(), 1u);
  evaluations.count_filter_pass(*prof, start.state, result, true);
  auto count = [&](const char* plugin, const char* point) {
    return m.plugin_evaluations.with({plugin, point, "default-scheduler"})
      .value();
  };
  EXPECT_EQ(count("NodeResourcesFit", "PreFilter"), 1u);
  EXPECT_EQ(count("NodePorts", "PreFilter"), 0u) << "skipped: no host ports";
  EXPECT_EQ(count("NodeUnschedulable", "Filter"), 3u);
  EXPECT_EQ(count("TaintToleration", "Filter"), 3u) << "it failed one node";
  EXPECT_EQ(count("NodeResourcesFit", "Filter"), 2u);
  EXPECT_EQ(count("NodePorts", "Filter"), 0u);
  EXPECT_EQ(count("NodeAffinity", "Filter"), 0u) << "skipped: no node affinity";
  for (auto i : score_plan(*prof, start.state).local)
    EXPECT_EQ(
      count(std::string{prof->score()[i].plugin->name()}.c_str(), "Score"), 1u);
  EXPECT_EQ(count("NodeResourcesFit", "PreScore"), 1u);
  EXPECT_EQ(count("TaintToleration", "PreScore"), 1u);
  EXPECT_EQ(count("InterPodAffinity", "PreScore"), 0u)
    << "skipped: no affinity terms anywhere";
}

TEST(default_profile, filter_visits_from_the_start_index_up_to_the_quota) {
  auto prof = default_profile();
  ASSERT_TRUE(prof);
  std::vector<model::node_info_ptr> nodes;
  for (int i = 0; i < 6; ++i)
    nodes.push_back(make_node_info_ptr(make_node("n" + std::to_string(i))
                                         .cpu("4")
                                         .memory("8Gi")
                                         .pods(10)
                                         .build(),
                                       {}));
  cluster_context cluster;
  cluster.node_count = 6;
  auto pod = make_pod("p").cpu("1").build();
  auto start = begin_cycle(*prof, *pod, cluster);
  filter_options opts;
  opts.quota = 2;
  auto result = filter_and_score(*prof, start.state, *pod, nodes, 4, opts);
  EXPECT_EQ(result.feasible,
            (std::vector<model::symbol>{sym("n4"), sym("n5")}));
  EXPECT_EQ(result.processed, 2u);
  auto plan = score_plan(*prof, start.state);
  EXPECT_EQ(result.scores.size(), plan.local.size() * 2);
}

TEST(default_profile, filter_and_score_rows_equal_score_nodes) {
  // filter_and_score scores each feasible node as soon as it passes; the
  // result must be plugin-major and equal to scoring the feasible set after
  // the fact.
  auto prof = default_profile();
  ASSERT_TRUE(prof);
  std::vector<model::node_info_ptr> nodes;
  for (int i = 0; i < 7; ++i) {
    auto b = make_node("n" + std::to_string(i))
               .cpu(std::to_string(2 + i))
               .memory(std::to_string(4 + 2 * i) + "Gi")
               .pods(10);
    if (i % 3 == 0)
      b.taint("maintenance", "soon", "PreferNoSchedule");
    if (i == 5)
      b.taint("dedicated", "gpu", "NoSchedule");
    std::vector<model::pod_ptr> pods;
    for (int j = 0; j < i % 4; ++j)
      pods.push_back(make_pod("e" + std::to_string(i) + "-" + std::to_string(j))
                       .cpu("500m")
                       .memory(std::to_string(256 * (j + 1)) + "Mi")
                       .node("n" + std::to_string(i))
                       .build());
    nodes.push_back(make_node_info_ptr(b.build(), pods));
  }
  cluster_context cluster;
  cluster.node_count = nodes.size();
  auto pod = make_pod("p").cpu("3").memory("1Gi").build();
  auto start = begin_cycle(*prof, *pod, cluster);
  ASSERT_TRUE(start.pre_filter_status.ok());
  auto result = filter_and_score(*prof, start.state, *pod, nodes, 3, {});
  ASSERT_TRUE(result.error.ok());
  // n0 and n1 lack cpu (2 and 3 - 0.5 free), n5 has an untolerated taint.
  EXPECT_EQ(result.feasible, (std::vector<model::symbol>{
                               sym("n3"), sym("n4"), sym("n6"), sym("n2")}));
  EXPECT_EQ(result.failures.size(), 3u);
  std::vector<const model::node_info*> feasible;
  for (auto name : result.feasible)
    for (const auto& n : nodes)
      if (n->name() == name)
        feasible.push_back(n.get());
  auto plan = score_plan(*prof, start.state);
  ASSERT_GE(plan.local.size(), 3u);
  EXPECT_EQ(result.scores,
            score_nodes(*prof, start.state, *pod, plan.local, feasible));
  // The rows differ between plugins, so a node-major layout would not pass.
  EXPECT_NE(
    std::vector<std::int64_t>(result.scores.begin(), result.scores.begin() + 4),
    std::vector<std::int64_t>(result.scores.begin() + 4,
                              result.scores.begin() + 8));
}

} // namespace
} // namespace tessera::plugins::framework_test
