// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/cache_state.hpp"
#include "actors/shard/shard_state.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace tessera::actors {
namespace {

using test::default_profile;

model::node_info_ptr info(const std::string& name, const char* cpu = "4",
                          std::vector<model::pod_ptr> pods = {}) {
  return test::make_node_info_ptr(
    test::make_node(name).cpu(cpu).memory("16Gi").pods(110).build(), pods);
}

shard_delta delta(std::uint64_t generation,
                  std::vector<model::node_info_ptr> upserted,
                  std::vector<std::string> removed = {},
                  std::optional<std::vector<std::string>> order = {}) {
  shard_delta d;
  d.generation = generation;
  d.upserted = std::move(upserted);
  for (const auto& r : removed)
    d.removed.emplace_back(r);
  if (order) {
    auto o = std::make_shared<std::vector<model::symbol>>();
    for (const auto& n : *order)
      o->emplace_back(n);
    d.order = std::move(o);
  }
  return d;
}

std::vector<std::string> symbol_texts(const std::vector<model::symbol>& v) {
  std::vector<std::string> out;
  for (auto n : v)
    out.push_back(n.str());
  return out;
}

/// Filter requests for one pod on the default profile.
class requests {
public:
  explicit requests(model::pod_ptr p) : pod_(std::move(p)) {
    ctx_.node_count = 5;
    auto start = plugins::begin_cycle(*default_profile(), *pod_, ctx_);
    state_
      = std::make_shared<const plugins::cycle_state>(std::move(start.state));
  }
  filter_request filter(std::size_t quota, bool rotate = true) const {
    filter_request r;
    r.pod = pod_;
    r.profile = default_profile();
    r.state = state_;
    r.quota = quota;
    r.rotate = rotate;
    return r;
  }

private:
  model::pod_ptr pod_;
  plugins::cluster_context ctx_;
  plugins::cycle_state_ptr state_;
};

TEST(ShardState, AppliesDeltasInOrder) {
  shard_state s{3};
  EXPECT_EQ(s.index(), 3u);
  s.apply(delta(4, {info("a"), info("b"), info("c")}, {},
                std::vector<std::string>{"c", "a", "b"}));
  EXPECT_EQ(s.generation(), 4u);
  EXPECT_EQ(test::node_names(s.nodes()),
            (std::vector<std::string>{"c", "a", "b"}));
  // Same membership: the changed node is replaced where it stands.
  s.apply(delta(5, {info("a", "8")}));
  EXPECT_EQ(test::node_names(s.nodes()),
            (std::vector<std::string>{"c", "a", "b"}));
  EXPECT_EQ(s.find(model::symbol{"a"})->allocatable().milli_cpu, 8000);
  EXPECT_EQ(s.nodes()[1]->allocatable().milli_cpu, 8000);
  // A removal without a new order drops the node.
  s.apply(delta(6, {}, {"c"}));
  EXPECT_EQ(test::node_names(s.nodes()), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.find(model::symbol{"c"}), nullptr);
  // A new order with a new node.
  s.apply(delta(7, {info("d")}, {}, std::vector<std::string>{"b", "d", "a"}));
  EXPECT_EQ(test::node_names(s.nodes()),
            (std::vector<std::string>{"b", "d", "a"}));
  EXPECT_EQ(s.generation(), 7u);
}

TEST(ShardState, DeltasBetweenReadsSettleIntoTheLastOrder) {
  shard_state s{0};
  s.apply(delta(1, {info("a")}, {}, std::vector<std::string>{"a"}));
  EXPECT_EQ(test::node_names(s.nodes()), (std::vector<std::string>{"a"}));
  // Nodes arrive in several deltas with no read between them; a node is
  // updated while the order is not yet rebuilt, and another is removed.
  s.apply(delta(2, {info("b")}, {}, std::vector<std::string>{"a", "b"}));
  s.apply(delta(3, {info("c")}, {}, std::vector<std::string>{"c", "a", "b"}));
  s.apply(delta(4, {info("b", "8")}));
  s.apply(
    delta(5, {info("d")}, {"a"}, std::vector<std::string>{"c", "d", "b"}));
  s.apply(delta(6, {info("c", "2")}));
  EXPECT_EQ(test::node_names(s.nodes()),
            (std::vector<std::string>{"c", "d", "b"}));
  EXPECT_EQ(s.nodes()[0]->allocatable().milli_cpu, 2000);
  EXPECT_EQ(s.nodes()[2]->allocatable().milli_cpu, 8000);
  EXPECT_EQ(s.find(model::symbol{"a"}), nullptr);
  // After the rebuild, updates land in place again, at the new positions.
  s.apply(delta(7, {info("d", "16")}));
  EXPECT_EQ(s.nodes()[1]->allocatable().milli_cpu, 16000);
  EXPECT_EQ(s.generation(), 7u);
}
// The start index moves by the nodes processed (feasible and failed), as
// kube-scheduler's nextStartNodeIndex, and wraps.
TEST(ShardState, FilterRotatesTheStartIndexByTheNodesProcessed) {
  struct step {
    std::size_t quota;
    bool rotate;
    std::vector<std::string> feasible;
    std::vector<std::string> failed;
  };
  struct test_case {
    std::string name;
    std::vector<step> steps;
  };
  // n1 is too small for the 2-cpu pod.
  const std::vector<test_case> cases{
    {"quota 2 from the start, then onwards",
     {{2, true, {"n0", "n2"}, {"n1"}},
      {2, true, {"n3", "n4"}, {}},
      {2, true, {"n0", "n2"}, {"n1"}}}},
    {"all nodes each time: the index comes back to where it was",
     {{10, true, {"n0", "n2", "n3", "n4"}, {"n1"}},
      {10, true, {"n0", "n2", "n3", "n4"}, {"n1"}}}},
    {"a probe that does not rotate",
     {{1, false, {"n0"}, {}},
      {1, true, {"n0"}, {}},
      {1, true, {"n2"}, {"n1"}}}},
    {"wrap-around",
     {{3, true, {"n0", "n2", "n3"}, {"n1"}}, {2, true, {"n4", "n0"}, {}}}},
  };
  requests r{test::make_pod("p").cpu("2").build()};
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    shard_state s{0};
    s.apply(delta(
      1, {info("n0"), info("n1", "1"), info("n2"), info("n3"), info("n4")}, {},
      std::vector<std::string>{"n0", "n1", "n2", "n3", "n4"}));
    for (std::size_t i = 0; i < tc.steps.size(); ++i) {
      SCOPED_TRACE("step " + std::to_string(i));
      const auto& st = tc.steps[i];
      auto reply = s.filter(r.filter(st.quota, st.rotate));
      EXPECT_EQ(reply.generation, 1u);
      EXPECT_EQ(symbol_texts(reply.result.feasible), st.feasible);
      std::vector<std::string> failed;
      for (const auto& f : reply.result.failures)
        failed.push_back(f.node.str());
      EXPECT_EQ(failed, st.failed);
      EXPECT_EQ(reply.result.processed, st.feasible.size() + st.failed.size());
      // Local scores come back plugin-major for the feasible nodes.
      EXPECT_EQ(reply.result.scores.size()
                  % std::max<std::size_t>(st.feasible.size(), 1),
                0u);
    }
  }
}

TEST(ShardState, FilterHonoursTheAllowedSetAndNominatedPods) {
  shard_state s{0};
  s.apply(delta(1, {info("n0"), info("n1"), info("n2")}, {},
                std::vector<std::string>{"n0", "n1", "n2"}));
  requests r{test::make_pod("p").cpu("3").priority(1).build()};
  {
    SCOPED_TRACE("allowed");
    auto req = r.filter(10);
    req.allowed = std::make_shared<const std::unordered_set<model::symbol>>(
      std::unordered_set<model::symbol>{model::symbol{"n1"}});
    auto reply = s.filter(req);
    EXPECT_EQ(symbol_texts(reply.result.feasible),
              std::vector<std::string>{"n1"});
    EXPECT_TRUE(reply.result.failures.empty());
  }
  {
    SCOPED_TRACE("a higher-priority pod nominated to n1 takes its room");
    auto n = std::make_shared<nominations>();
    n->add(
      model::symbol{"n1"},
      test::make_pod("big").cpu("2").priority(10).nominated_node("n1").build());
    auto req = r.filter(10);
    req.nominated = n;
    auto reply = s.filter(req);
    std::vector<std::string> feasible = symbol_texts(reply.result.feasible);
    std::sort(feasible.begin(), feasible.end());
    EXPECT_EQ(feasible, (std::vector<std::string>{"n0", "n2"}));
    ASSERT_EQ(reply.result.failures.size(), 1u);
    EXPECT_EQ(reply.result.failures[0].node.str(), "n1");
  }
  {
    SCOPED_TRACE("a lower-priority nomination does not count");
    auto n = std::make_shared<nominations>();
    n->add(model::symbol{"n1"}, test::make_pod("small")
                                  .cpu("2")
                                  .priority(0)
                                  .nominated_node("n1")
                                  .build());
    auto req = r.filter(10);
    req.nominated = n;
    EXPECT_EQ(s.filter(req).result.feasible.size(), 3u);
  }
}

TEST(ShardState, ScoresRequestedNodesAndAVanishedOneAsEmpty) {
  shard_state s{0};
  auto busy = test::make_pod("busy").cpu("3").node("n0").build();
  s.apply(delta(1, {info("n0", "4", {busy}), info("n1")}, {},
                std::vector<std::string>{"n0", "n1"}));
  auto prof = default_profile();
  std::vector<std::size_t> all(prof->score().size());
  std::iota(all.begin(), all.end(), 0);
  auto p = test::make_pod("p").cpu("500m").build();
  plugins::cluster_context ctx;
  ctx.node_count = 2;
  auto start = plugins::begin_cycle(*prof, *p, ctx);
  score_request req;
  req.pod = p;
  req.profile = prof;
  req.state
    = std::make_shared<const plugins::cycle_state>(std::move(start.state));
  req.plugins = all;
  req.nodes = {model::symbol{"n0"}, model::symbol{"n1"}, model::symbol{"gone"}};
  auto reply = s.score(req);
  ASSERT_EQ(reply.scores.size(), all.size() * 3);
  // Plugin-major rows, aligned with the request's nodes; "gone" scores as a
  // node_info without a node (assume validation rejects it anyway).
  const model::node_info empty;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const auto* plugin = prof->score()[k].plugin;
    SCOPED_TRACE(std::string{plugin->name()});
    EXPECT_EQ(reply.scores[k * 3 + 0],
              plugin->score(*req.state, *p, *s.find(model::symbol{"n0"})));
    EXPECT_EQ(reply.scores[k * 3 + 1],
              plugin->score(*req.state, *p, *s.find(model::symbol{"n1"})));
    EXPECT_EQ(reply.scores[k * 3 + 2], plugin->score(*req.state, *p, empty));
  }
}

TEST(ShardState, PreemptionDryRunSkipsUnresolvableNodesAndStartsAtTheOffset) {
  shard_state s{0};
  auto victim = [](const std::string& name, const std::string& node) {
    return test::make_pod(name).cpu("3").priority(0).node(node).build();
  };
  s.apply(delta(1,
                {info("n0", "4", {victim("v0", "n0")}),
                 info("n1", "4", {victim("v1", "n1")}),
                 info("n2", "4", {victim("v2", "n2")})},
                {}, std::vector<std::string>{"n0", "n1", "n2"}));
  auto prof = default_profile();
  auto p = test::make_pod("p").cpu("3").priority(100).build();
  auto ctx = std::make_shared<plugins::cluster_context>();
  ctx->node_count = 3;
  auto start = plugins::begin_cycle(*prof, *p, *ctx);
  preempt_request req;
  req.pod = p;
  req.profile = prof;
  req.state
    = std::make_shared<const plugins::cycle_state>(std::move(start.state));
  req.cluster = ctx;
  req.unresolvable = std::make_shared<const std::unordered_set<model::symbol>>(
    std::unordered_set<model::symbol>{model::symbol{"n1"}});
  req.wanted = 1;
  struct test_case {
    std::size_t offset;
    std::string first_candidate;
  };
  // Potential nodes are n0, n2 (n1 is unresolvable), rotated by the offset.
  for (const auto& tc :
       std::vector<test_case>{{0, "n0"}, {1, "n2"}, {2, "n0"}}) {
    SCOPED_TRACE("offset " + std::to_string(tc.offset));
    req.offset = tc.offset;
    auto reply = s.preempt(req);
    ASSERT_FALSE(reply.result.non_violating.empty());
    EXPECT_EQ(reply.result.non_violating.front().node.str(),
              tc.first_candidate);
    for (const auto& c : reply.result.non_violating)
      EXPECT_NE(c.node.str(), "n1");
  }
}

// Cross-node plugins (InterPodAffinity, PodTopologySpread) see the whole
// cluster only through the scan partials the shards send and the
// coordinator merges. Split over three shards, every node must get exactly
// the filter verdict it gets when one shard scans everything.
TEST(ShardState, MergedScanPartialsEqualOneShardsScan) {
  const char* zone_key = "topology.kubernetes.io/zone";
  std::vector<model::object> objects;
  for (int i = 0; i < 12; ++i)
    objects.emplace_back(test::make_node("n" + std::to_string(i))
                           .cpu("8")
                           .memory("16Gi")
                           .pods(110)
                           .zone("z" + std::to_string(i % 3))
                           .build());
  auto bound = [&](const std::string& name, const std::string& node) {
    return test::make_pod(name).cpu("100m").node(node);
  };
  // n0, n3, n6, n9 are z0; n1, n4, ... z1; n2, n5, ... z2.
  objects.emplace_back(bound("web", "n0").label("app", "web").build());
  objects.emplace_back(bound("db", "n4").label("app", "db").build());
  objects.emplace_back(bound("guard", "n2")
                         .required_anti_affinity("app", "web", zone_key)
                         .build());
  objects.emplace_back(bound("s1", "n3").label("spread", "s").build());
  objects.emplace_back(bound("s2", "n6").label("spread", "s").build());
  objects.emplace_back(bound("s3", "n1").label("spread", "s").build());
  objects.emplace_back(bound("s4", "n7").label("spread", "s").build());

  struct test_case {
    std::string name;
    model::pod_ptr pod;
    /// The zones whose nodes are feasible.
    std::set<std::string> zones;
  };
  const std::vector<test_case> cases{
    {"anti-affinity against web (z0)",
     test::make_pod("p").required_anti_affinity("app", "web", zone_key).build(),
     {"z1", "z2"}},
    {"a web pod, kept out of z2 by the guard's anti-affinity",
     test::make_pod("p").label("app", "web").build(),
     {"z0", "z1"}},
    {"affinity to db (z1)",
     test::make_pod("p").required_affinity("app", "db", zone_key).build(),
     {"z1"}},
    {"hard spread: z0 and z1 hold two each, z2 none",
     test::make_pod("p")
       .label("spread", "s")
       .spread(zone_key, 1, "DoNotSchedule", {{"spread", "s"}})
       .build(),
     {"z2"}},
  };
  auto prof = default_profile();
  // node -> verdict ("ok" or "Plugin: reasons") for one pod over `shards`.
  auto verdicts = [&](const model::pod_ptr& p, std::size_t shards) {
    manual_clock clk;
    cache_config cfg;
    cfg.shards = shards;
    cache_state cache{cfg, clk};
    for (const auto& o : objects)
      cache.apply({object_event::kind::added, o});
    auto out = cache.take_outputs();
    std::vector<shard_state> views;
    for (std::uint32_t s = 0; s < shards; ++s) {
      views.emplace_back(s);
      if (out.deltas[s])
        views[s].apply(*out.deltas[s]);
    }
    auto start = plugins::begin_cycle(*prof, *p, *out.view->context);
    start.state.cluster_owner = out.view->context;
    EXPECT_TRUE(start.pre_filter_status.ok());
    EXPECT_FALSE(start.scans.empty()) << "the pod needs no scan";
    auto shared_state = std::make_shared<const plugins::cycle_state>(
      plugins::cycle_state{start.state});
    std::vector<std::vector<plugins::scan_partial_ptr>> partials;
    for (auto& v : views) {
      scan_request req;
      req.pod = p;
      req.profile = prof;
      req.state = shared_state;
      req.scans = start.scans;
      partials.push_back(v.scan(req).partials);
    }
    EXPECT_TRUE(plugins::merge_scans(*prof, start.state, *p, start.scans,
                                     std::move(partials))
                  .ok());
    auto state
      = std::make_shared<const plugins::cycle_state>(std::move(start.state));
    std::map<std::string, std::string> verdict;
    for (auto& v : views) {
      filter_request req;
      req.pod = p;
      req.profile = prof;
      req.state = state;
      req.quota = 1000;
      auto reply = v.filter(req);
      for (auto n : reply.result.feasible)
        verdict[n.str()] = "ok";
      for (const auto& f : reply.result.failures)
        verdict[f.node.str()]
          = std::string{f.result.plugin()} + ": " + f.result.message();
    }
    return verdict;
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto one = verdicts(tc.pod, 1);
    auto three = verdicts(tc.pod, 3);
    ASSERT_EQ(one.size(), 12u);
    EXPECT_EQ(three, one);
    for (const auto& [node, verdict] : one) {
      int index = std::stoi(node.substr(1));
      bool feasible = tc.zones.count("z" + std::to_string(index % 3)) > 0;
      EXPECT_EQ(verdict == "ok", feasible) << node << ": " << verdict;
    }
  }
}

} // namespace
} // namespace tessera::actors
