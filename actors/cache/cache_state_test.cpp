// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/cache_state.hpp"
#include "actors/shard/shard_state.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

namespace tessera::actors {
namespace {

using test::default_profile;

using namespace std::chrono_literals;

const char* zone_label = "topology.kubernetes.io/zone";

/// The builder behind `node()`, for cases that change one more field.
test::node_builder node_builder(const std::string& name,
                                const std::string& zone = "",
                                const char* cpu = "4") {
  auto b = test::make_node(name).cpu(cpu).memory("16Gi").pods(110);
  if (!zone.empty())
    b.zone(zone);
  return b;
}

model::node_ptr node(const std::string& name, const std::string& zone = "",
                     const char* cpu = "4") {
  return node_builder(name, zone, cpu).build();
}

// A cache with its shards fed from its deltas, as the cache actor does, and
// everything it sent to the queue.
class world {
public:
  explicit world(std::size_t shards = 1, cache_config cfg = {})
    : cache_(
      [&] {
        cfg.shards = shards;
        return cfg;
      }(),
      clock_) {
    for (std::uint32_t s = 0; s < shards; ++s)
      shards_.emplace_back(s);
  }

  void apply(object_event::kind k, model::object o) {
    cache_.apply({k, std::move(o)});
  }
  void add(model::object o) {
    apply(object_event::kind::added, std::move(o));
  }
  void modify(model::object o) {
    apply(object_event::kind::modified, std::move(o));
  }
  void remove(model::object o) {
    apply(object_event::kind::deleted, std::move(o));
  }

  cache_outputs publish() {
    cache_outputs out = cache_.take_outputs();
    for (std::size_t s = 0; s < out.deltas.size(); ++s)
      if (out.deltas[s])
        shards_[s].apply(*out.deltas[s]);
    if (out.view)
      view_ = out.view;
    queue_.insert(queue_.end(), out.queue.begin(), out.queue.end());
    nominees_.insert(nominees_.end(), out.nominees.begin(), out.nominees.end());
    return out;
  }

  /// A scheduling cycle for `p` on the current shard views (PreFilter,
  /// PreScore, scans), and the assume request choosing `node` from it.
  assume_request prepare(const model::pod_ptr& p, const std::string& node) {
    auto prof = default_profile();
    auto start = plugins::begin_cycle(*prof, *p, *view_->context);
    start.state.cluster_owner = view_->context;
    std::vector<std::vector<plugins::scan_partial_ptr>> partials;
    assume_request req;
    for (auto& s : shards_) {
      partials.push_back(
        plugins::run_scans(*prof, start.state, *p, start.scans, s.nodes()));
      req.shard_generations.push_back(s.generation());
    }
    EXPECT_TRUE(plugins::merge_scans(*prof, start.state, *p, start.scans,
                                     std::move(partials))
                  .ok());
    req.pod = p;
    req.node = model::symbol{node};
    req.profile = prof;
    req.state
      = std::make_shared<const plugins::cycle_state>(std::move(start.state));
    req.context_generation = view_->generation;
    return req;
  }

  assume_reply assume(const assume_request& req) {
    auto reply = cache_.assume(req);
    publish();
    return reply;
  }

  /// Requested millicores on `name` (-1 when the cache has no such node).
  std::int64_t cpu_on(const std::string& name) const {
    auto info = cache_.node(model::symbol{name});
    return info ? info->requested().milli_cpu : -1;
  }

  /// The queue inputs so far, readable, and forgets them.
  std::vector<std::string> take_queue() {
    return describe(queue_);
  }
  std::vector<std::string> take_nominees() {
    return describe(nominees_);
  }
  static std::vector<std::string> describe(std::vector<queue_input>& inputs) {
    std::vector<std::string> out;
    for (const auto& in : inputs) {
      switch (in.type) {
      case queue_input::kind::pod_added:
        out.push_back("added " + in.new_pod->name);
        break;
      case queue_input::kind::pod_updated:
        out.push_back("updated " + in.old_pod->name);
        break;
      case queue_input::kind::pod_deleted:
        out.push_back("deleted " + in.old_pod->name);
        break;
      case queue_input::kind::cluster_event:
        out.push_back("event " + in.event.label());
        break;
      }
    }
    inputs.clear();
    return out;
  }

  manual_clock clock_;
  cache_state cache_;
  std::vector<shard_state> shards_;
  cluster_view_ptr view_;
  std::vector<queue_input> queue_;
  std::vector<queue_input> nominees_;
};

// -------------------------------------------------- deltas and the view

TEST(CacheState, PublishesPerShardDeltasInNodeTreeOrder) {
  world w{2};
  const std::vector<std::pair<std::string, std::string>> nodes{
    {"n0", "a"}, {"n1", "b"}, {"n2", "a"},
    {"n3", "c"}, {"n4", "b"}, {"n5", "a"}};
  for (const auto& [name, zone] : nodes)
    w.add(node(name, zone));
  auto out = w.publish();
  // Node-tree order is a n0, b n1, c n3, a n2, b n4, a n5; each shard holds
  // its own nodes in that order.
  const std::vector<std::string> tree{"n0", "n1", "n3", "n2", "n4", "n5"};
  std::size_t total = 0;
  for (std::uint32_t s = 0; s < 2; ++s) {
    SCOPED_TRACE("shard " + std::to_string(s));
    std::vector<std::string> expected;
    for (const auto& n : tree)
      if (w.cache_.shard_of(model::symbol{n}) == s)
        expected.push_back(n);
    ASSERT_TRUE(out.deltas[s]);
    ASSERT_TRUE(out.deltas[s]->order);
    std::vector<std::string> order;
    for (auto n : *out.deltas[s]->order)
      order.push_back(n.str());
    EXPECT_EQ(order, expected);
    EXPECT_EQ(test::node_names(w.shards_[s].nodes()), expected);
    EXPECT_EQ(out.deltas[s]->generation, w.cache_.generation());
    EXPECT_EQ(out.view->shard_nodes[s], expected.size());
    total += expected.size();
    for (const auto& n : expected)
      EXPECT_EQ(out.view->node_shard->at(model::symbol{n}), s);
  }
  EXPECT_EQ(total, nodes.size());
  EXPECT_EQ(out.view->context->node_count, 6);
  EXPECT_EQ(w.take_queue(), std::vector<std::string>(6, "event NodeAdd"));

  // Nothing changed: nothing to publish.
  auto idle = w.publish();
  for (const auto& d : idle.deltas)
    EXPECT_FALSE(d);
  EXPECT_FALSE(idle.view);
  EXPECT_TRUE(idle.queue.empty());

  // A pod on n2 touches n2's shard only, without a new order.
  w.add(test::make_pod("p").cpu("1").node("n2").build());
  auto one = w.publish();
  auto owner = w.cache_.shard_of(model::symbol{"n2"});
  ASSERT_TRUE(one.deltas[owner]);
  EXPECT_EQ(test::node_names(one.deltas[owner]->upserted),
            std::vector<std::string>{"n2"});
  EXPECT_FALSE(one.deltas[owner]->order);
  EXPECT_FALSE(one.deltas[1 - owner]);
  EXPECT_EQ(w.shards_[owner].find(model::symbol{"n2"})->requested().milli_cpu,
            1000);
}

TEST(CacheState, TranslatesObjectChangesIntoQueueInputs) {
  struct test_case {
    std::string name;
    std::function<void(world&)> change;
    std::vector<std::string> expected;
  };
  auto pending = test::make_pod("p").label("app", "a").build();
  auto relabelled = test::make_pod("p").label("app", "b").build();
  auto bound = test::make_pod("p").label("app", "a").node("n1").build();
  auto n1 = node("n1", "z");
  const std::vector<test_case> cases{
    {"pending pod added", [&](world& w) { w.add(pending); }, {"added p"}},
    {"pending pod updated",
     [&](world& w) {
       w.add(pending);
       w.modify(relabelled);
     },
     {"added p", "updated p"}},
    {"pending pod deleted",
     [&](world& w) {
       w.add(pending);
       w.remove(pending);
     },
     {"added p", "deleted p"}},
    {"another scheduler's pod is not ours",
     [&](world& w) {
       w.add(test::make_pod("q").scheduler_name("other").build());
     },
     {}},
    {"a pending pod gets bound: gone from the queue, an assigned pod added",
     [&](world& w) {
       w.add(pending);
       w.modify(bound);
     },
     {"added p", "deleted p", "event PodAdd"}},
    {"a bound pod is deleted",
     [&](world& w) {
       w.add(bound);
       w.remove(bound);
     },
     {"event PodAdd", "event PodDelete"}},
    {"a bound pod's labels change",
     [&](world& w) {
       w.add(bound);
       w.modify(test::make_pod("p").label("app", "b").node("n1").build());
     },
     {"event PodAdd", "event PodUpdatePodLabel"}},
    {"node labels change",
     [&](world& w) {
       w.modify(node_builder("n1", "z").label("tier", "gold").build());
     },
     {"event NodeUpdateNodeLabel"}},
    {"node taint added",
     [&](world& w) {
       w.modify(node_builder("n1", "z").taint("k", "v", "NoSchedule").build());
     },
     {"event NodeUpdateNodeTaint"}},
    {"node cordoned",
     [&](world& w) {
       w.modify(node_builder("n1", "z").unschedulable().build());
     },
     {"event NodeUpdateNodeTaint"}},
    {"node declares a feature",
     [&](world& w) {
       w.modify(node_builder("n1", "z")
                  .declared_feature("RestartAllContainersOnContainerExits")
                  .build());
     },
     {"event NodeUpdateNodeDeclaredFeature"}},
    {"node grows",
     [&](world& w) { w.modify(node("n1", "z", "8")); },
     {"event NodeUpdateNodeAllocatable"}},
    {"node unchanged", [&](world& w) { w.modify(node("n1", "z")); }, {}},
    {"node deleted", [&](world& w) { w.remove(n1); }, {"event NodeDelete"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    world w;
    w.add(n1);
    w.publish();
    w.take_queue();
    tc.change(w);
    w.publish();
    EXPECT_EQ(w.take_queue(), tc.expected);
  }
}

// The cache resolves each pending pod's profile once, by schedulerName,
// and tags its queue inputs with the profile's index.
TEST(CacheState, TagsPendingPodsWithTheirProfile) {
  cache_config cfg;
  cfg.scheduler_names = {"default-scheduler", "batch"};
  world w{1, cfg};
  w.add(test::make_pod("a").build());
  w.add(test::make_pod("b").scheduler_name("batch").build());
  w.add(test::make_pod("c").scheduler_name("someone-else").build());
  auto relabelled = test::make_pod("b").scheduler_name("batch").label("x", "y");
  w.modify(relabelled.build());
  w.remove(test::make_pod("b").scheduler_name("batch").build());
  auto out = w.publish();
  std::vector<std::string> got;
  for (const auto& in : out.queue)
    got.push_back((in.new_pod ? in.new_pod : in.old_pod)->name + " "
                  + std::to_string(in.profile));
  EXPECT_EQ(got, (std::vector<std::string>{"a 0", "b 1", "b 1", "b 1"}));
}

// The nominator (in the coordinator) hears of pending pods whose API
// status starts or stops naming a node, and of pending pods that leave.
// Neither it nor the queue hears this scheduler's own bindings echoed: the
// binder reports them, and the assume ended any nomination.
TEST(CacheState, TellsTheNominatorWhatTheApiSaysOfNominations) {
  struct test_case {
    std::string name;
    std::function<void(world&)> change;
    std::vector<std::string> queue;
    std::vector<std::string> nominees;
  };
  auto pending = test::make_pod("p").cpu("1").build();
  auto nominated = std::make_shared<model::pod>(*pending);
  nominated->nominated_node_name = model::symbol{"n1"};
  auto relabelled = std::make_shared<model::pod>(*nominated);
  relabelled->labels = test::make_pod("p").label("app", "b").build()->labels;
  auto bound = test::make_pod("p").cpu("1").node("n1").build();
  const std::vector<test_case> cases{
    {"added without a nomination",
     [&](world& w) { w.add(pending); },
     {"added p"},
     {}},
    {"added with a nomination",
     [&](world& w) { w.add(model::pod_ptr{nominated}); },
     {"added p"},
     {"added p"}},
    {"the API nominates it",
     [&](world& w) {
       w.add(pending);
       w.modify(model::pod_ptr{nominated});
     },
     {"added p", "updated p"},
     {"updated p"}},
    {"an update that keeps the nomination",
     [&](world& w) {
       w.add(model::pod_ptr{nominated});
       w.modify(model::pod_ptr{relabelled});
     },
     {"added p", "updated p"},
     {"added p"}},
    {"the API clears it",
     [&](world& w) {
       w.add(model::pod_ptr{nominated});
       w.modify(pending);
     },
     {"added p", "updated p"},
     {"added p", "updated p"}},
    {"deleted while pending",
     [&](world& w) {
       w.add(pending);
       w.remove(pending);
     },
     {"added p", "deleted p"},
     {"deleted p"}},
    {"bound by another scheduler",
     [&](world& w) {
       w.add(pending);
       w.modify(bound);
     },
     {"added p", "deleted p", "event PodAdd"},
     {"deleted p"}},
    {"bound by this scheduler",
     [&](world& w) {
       w.add(pending);
       w.publish();
       auto reply = w.assume(w.prepare(pending, "n1"));
       ASSERT_TRUE(reply.ok);
       w.cache_.finish_binding(*reply.assumed);
       w.modify(bound);
     },
     {"added p", "event PodAdd"},
     {}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    world w;
    w.add(node("n1"));
    w.publish();
    w.take_queue();
    tc.change(w);
    w.publish();
    EXPECT_EQ(w.take_queue(), tc.queue);
    EXPECT_EQ(w.take_nominees(), tc.nominees);
  }
}

// ------------------------------------------------------- assume checks

// Every case prepares a cycle for `p` choosing `target`, then lets other
// things happen (the cycle's view goes stale) and only then assumes.
TEST(CacheState, AssumeValidatesAgainstTheAuthoritativeState) {
  struct test_case {
    std::string name;
    model::pod_ptr p;
    std::string target;
    /// What happens between the cycle and its assume.
    std::function<void(world&)> meanwhile;
    bool ok;
    /// Part of the conflict reason.
    std::string reason;
  };
  auto web = [](const std::string& name, const char* where) {
    return test::make_pod(name)
      .cpu("500m")
      .label("app", "web")
      .node(where)
      .build();
  };
  auto assume_web
    = [](world& w, const std::string& name, const std::string& where) {
        auto pod = test::make_pod(name).cpu("500m").label("app", "web").build();
        auto r = w.assume(w.prepare(pod, where));
        ASSERT_TRUE(r.ok) << r.reason;
      };
  auto anti_web = test::make_pod("b")
                    .cpu("500m")
                    .required_anti_affinity("app", "web", zone_label)
                    .build();
  const std::vector<test_case> cases{
    {"fits, nothing happened", test::make_pod("b").cpu("1").build(), "n2",
     [](world&) {}, true, ""},
    {"fits, an unrelated pod went elsewhere",
     test::make_pod("b").cpu("3").build(), "n2",
     [&](world& w) { assume_web(w, "a", "n1"); }, true, ""},
    {"overcommit on the chosen node", test::make_pod("b").cpu("3").build(),
     "n2",
     [](world& w) {
       auto a = test::make_pod("a").cpu("2").build();
       ASSERT_TRUE(w.assume(w.prepare(a, "n2")).ok);
     },
     false, "Insufficient cpu"},
    {"host port taken meanwhile", test::make_pod("b").host_port(8080).build(),
     "n2",
     [](world& w) {
       auto a = test::make_pod("a").host_port(8080).build();
       ASSERT_TRUE(w.assume(w.prepare(a, "n2")).ok);
     },
     false, "ports"},
    {"a pod matching its anti-affinity appeared in the zone", anti_web, "n2",
     [&](world& w) { assume_web(w, "a", "n1"); }, false, "anti-affinity"},
    {"a matching pod in another zone is fine", anti_web, "n2",
     [&](world& w) { assume_web(w, "a", "n3"); }, true, ""},
    {"a matching pod bound (not assumed) in the zone", anti_web, "n2",
     [&](world& w) {
       w.add(web("a", "n1"));
       w.publish();
     },
     false, "anti-affinity"},
    {"an existing pod's anti-affinity appeared against it",
     test::make_pod("b").cpu("500m").label("app", "web").build(), "n2",
     [](world& w) {
       auto a = test::make_pod("a")
                  .cpu("500m")
                  .required_anti_affinity("app", "web", zone_label)
                  .build();
       ASSERT_TRUE(w.assume(w.prepare(a, "n1")).ok);
     },
     false, "affinity"},
    {"the node is gone", test::make_pod("b").cpu("1").build(), "n2",
     [](world& w) {
       w.remove(node("n2", "z1"));
       w.publish();
     },
     false, "gone"},
    {"the node's labels changed", anti_web, "n2",
     [](world& w) {
       w.modify(test::make_node("n2")
                  .cpu("4")
                  .memory("16Gi")
                  .pods(110)
                  .zone("z1")
                  .label("tier", "gold")
                  .build());
       w.publish();
     },
     false, "changed"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    world w;
    w.add(node("n1", "z1"));
    w.add(node("n2", "z1"));
    w.add(node("n3", "z2"));
    w.publish();
    auto req = w.prepare(tc.p, tc.target);
    tc.meanwhile(w);
    auto before = w.cache_.stats();
    std::int64_t cpu_before = w.cpu_on(tc.target);
    auto reply = w.assume(req);
    EXPECT_EQ(reply.ok, tc.ok) << reply.reason;
    EXPECT_FALSE(reply.duplicate);
    auto after = w.cache_.stats();
    if (tc.ok) {
      ASSERT_TRUE(reply.assumed);
      EXPECT_EQ(reply.assumed->node_name.str(), tc.target);
      EXPECT_EQ(after.assumed_pods, before.assumed_pods + 1);
      EXPECT_EQ(after.conflicts, before.conflicts);
      EXPECT_EQ(reply.generation, w.cache_.generation());
      EXPECT_EQ(w.cpu_on(tc.target), cpu_before + tc.p->requests.milli_cpu);
    } else {
      EXPECT_NE(reply.reason.find(tc.reason), std::string::npos)
        << "reason: " << reply.reason;
      EXPECT_EQ(after.conflicts, before.conflicts + 1);
      EXPECT_EQ(after.assumed_pods, before.assumed_pods);
      EXPECT_EQ(w.cpu_on(tc.target), cpu_before) << "a conflict changed state";
    }
  }
}

TEST(CacheState, AssumingTheSamePodTwiceIsADuplicateNotAConflict) {
  world w;
  w.add(node("n1"));
  w.publish();
  auto p = test::make_pod("p").cpu("1").build();
  ASSERT_TRUE(w.assume(w.prepare(p, "n1")).ok);
  auto again = w.assume(w.prepare(p, "n1"));
  EXPECT_FALSE(again.ok);
  EXPECT_TRUE(again.duplicate);
  EXPECT_EQ(w.cache_.stats().conflicts, 0u);
  EXPECT_EQ(w.cpu_on("n1"), 1000);
}

TEST(CacheState, AViewOlderThanTheChangeLogConflicts) {
  cache_config cfg;
  cfg.change_log_capacity = 4;
  world w{1, cfg};
  w.add(node("n1", "z"));
  w.add(node("n2", "z"));
  w.publish();
  auto b = test::make_pod("b")
             .required_anti_affinity("app", "web", zone_label)
             .build();
  auto req = w.prepare(b, "n2");
  for (int i = 0; i < 8; ++i)
    w.add(test::make_pod("filler-" + std::to_string(i))
            .cpu("10m")
            .node("n1")
            .build());
  w.publish();
  auto reply = w.assume(req);
  EXPECT_FALSE(reply.ok);
  EXPECT_NE(reply.reason.find("older than the change log"), std::string::npos)
    << reply.reason;
}

// Staleness is judged per shard. A shard whose nodes did not change keeps
// its old generation while the other shard's changes push the bounded log
// on; it has missed nothing, and a cycle that saw it must be assumable
// (PreemptionBasic/5000Nodes: every assume conflicted once the log moved
// past the quiet shard's generation). Changes a shard's view did miss and
// the log no longer holds still make the cycle stale.
TEST(CacheState, AQuietShardIsNotStaleWhileTheLogMovesOn) {
  cache_config cfg;
  cfg.change_log_capacity = 4;
  world w{2, cfg};
  std::string on[2];
  for (int i = 0; i < 8; ++i) {
    std::string name = "n" + std::to_string(i);
    w.add(node(name, "z"));
    on[w.cache_.shard_of(model::symbol{name})] = name;
  }
  w.publish();
  ASSERT_FALSE(on[0].empty());
  ASSERT_FALSE(on[1].empty());
  auto fill = [&](const std::string& prefix, const std::string& where) {
    for (int i = 0; i < 8; ++i)
      w.add(test::make_pod(prefix + std::to_string(i))
              .cpu("10m")
              .node(where)
              .build());
    w.publish();
  };
  fill("busy-", on[0]);
  ASSERT_LT(w.shards_[1].generation(), w.shards_[0].generation() - 4)
    << "shard 1's view should be older than the log's window";
  auto fresh
    = w.assume(w.prepare(test::make_pod("p").cpu("10m").build(), on[1]));
  EXPECT_TRUE(fresh.ok) << fresh.reason;
  auto missed = w.prepare(test::make_pod("q").cpu("10m").build(), on[0]);
  fill("late-", on[1]);
  auto stale = w.assume(missed);
  EXPECT_FALSE(stale.ok);
  EXPECT_NE(stale.reason.find("shard 1 is older than the change log"),
            std::string::npos)
    << stale.reason;
}

// The cluster view (context) only changes with affinity counts, budgets,
// namespaces or nodes: with plain pods it stays as old as the first sync
// while the change log rolls over. A cycle whose shard views are current
// must still be assumable — otherwise every assume conflicts forever once
// more changes happened than the log holds (a livelock the pipeline
// benchmark hit at ~5,500 pods with the default 16,384-entry log).
TEST(CacheState, AnOldContextWithCurrentShardViewsIsNotStale) {
  cache_config cfg;
  cfg.change_log_capacity = 4;
  world w{1, cfg};
  w.add(node("n1"));
  w.add(node("n2"));
  w.publish();
  for (int i = 0; i < 8; ++i) {
    auto p = test::make_pod("plain-" + std::to_string(i)).cpu("10m").build();
    auto r = w.assume(w.prepare(p, i % 2 ? "n1" : "n2"));
    ASSERT_TRUE(r.ok) << "pod " << i << ": " << r.reason;
  }
  EXPECT_EQ(w.cache_.stats().conflicts, 0u);
}

// The replay compares each logged change with the generation of the view
// of the shard that owns its node. Shard views of one cycle may be at
// different generations: a change the cycle's own shard view already held
// must not be replayed again (double counting would make a false
// conflict), and a change on a shard whose view is older must be.
TEST(CacheState, ReplaysOnlyWhatEachShardsViewMissed) {
  world w{2};
  for (int i = 0; i < 24; ++i)
    w.add(node("n" + std::to_string(i), i % 2 ? "z2" : "z1"));
  w.publish();
  // A z1 node on each shard, and a z2 node.
  std::string z1_on[2];
  std::string z2_node;
  for (int i = 0; i < 24; ++i) {
    std::string name = "n" + std::to_string(i);
    if (i % 2)
      z2_node = name;
    else
      z1_on[w.cache_.shard_of(model::symbol{name})] = name;
  }
  ASSERT_FALSE(z1_on[0].empty());
  ASSERT_FALSE(z1_on[1].empty());
  auto spread_pod = [](const std::string& name) {
    return test::make_pod(name)
      .cpu("100m")
      .label("s", "x")
      .spread(zone_label, 1, "DoNotSchedule", {{"s", "x"}})
      .build();
  };
  // z1 and z2 hold one matching pod each; q is assumed on shard 0, so only
  // shard 0's view moves on.
  w.add(test::make_pod("r").cpu("100m").label("s", "x").node(z2_node).build());
  w.publish();
  ASSERT_TRUE(w.assume(w.prepare(spread_pod("q"), z1_on[0])).ok);
  auto gens = std::vector<std::uint64_t>{w.shards_[0].generation(),
                                         w.shards_[1].generation()};
  ASSERT_NE(gens[0], gens[1]) << "the test needs views at two generations";

  // p's cycle sees q and r; z1 then holds 2 with p, z2 1: skew 1 is fine.
  auto p = w.prepare(spread_pod("p"), z1_on[0]);
  EXPECT_EQ(p.shard_generations, gens);
  auto fine = w.cache_.assume(p);
  EXPECT_TRUE(fine.ok) << "q was replayed again: " << fine.reason;
  w.cache_.forget(*fine.assumed);
  w.publish();

  // Now a matching pod lands in z1 on shard 1, which p2's cycle had seen
  // at an older generation: z1 would hold 3 against z2's 1.
  auto p2 = w.prepare(spread_pod("p2"), z1_on[0]);
  ASSERT_TRUE(w.assume(w.prepare(spread_pod("t"), z1_on[1])).ok);
  auto late = w.assume(p2);
  EXPECT_FALSE(late.ok) << "t on shard 1 was not replayed";
  EXPECT_NE(late.reason.find("topology spread"), std::string::npos)
    << late.reason;
}

// -------------------------------------------- after the assume: the binder

TEST(CacheState, ForgetUndoesAnAssume) {
  world w;
  w.add(node("n1"));
  w.publish();
  w.take_queue();
  auto p = test::make_pod("p").cpu("1").build();
  auto reply = w.assume(w.prepare(p, "n1"));
  ASSERT_TRUE(reply.ok);
  EXPECT_EQ(w.cpu_on("n1"), 1000);
  w.cache_.forget(*reply.assumed);
  w.publish();
  EXPECT_EQ(w.cpu_on("n1"), 0);
  EXPECT_EQ(w.cache_.stats().assumed_pods, 0u);
  EXPECT_EQ(w.shards_[0].find(model::symbol{"n1"})->pods().size(), 0u);
  // Upstream treats it as an assigned pod's deletion (it frees room).
  EXPECT_EQ(w.take_queue(), std::vector<std::string>{"event PodDelete"});
  // Forgetting a pod that is not assumed does nothing.
  w.add(test::make_pod("bound").cpu("2").node("n1").build());
  w.publish();
  w.cache_.forget(*test::make_pod("bound").cpu("2").node("n1").build());
  EXPECT_EQ(w.cpu_on("n1"), 2000);
}

// A pod deleted while its binding runs leaves the cache, assumed or not;
// created again under its name it is another pod (another UID), which the
// old one's failed binding does not touch.
TEST(CacheState, AnAssumedPodDeletedAndCreatedAgainIsAnotherPod) {
  world w;
  w.add(node("n1"));
  auto first = test::make_pod("p").uid("uid-1").cpu("1").build();
  w.add(first);
  w.publish();
  auto one = w.assume(w.prepare(first, "n1"));
  ASSERT_TRUE(one.ok);
  w.remove(first);
  w.publish();
  EXPECT_EQ(w.cpu_on("n1"), 0);
  EXPECT_EQ(w.cache_.stats().assumed_pods, 0u);
  auto second = test::make_pod("p").uid("uid-2").cpu("1").build();
  w.add(second);
  w.publish();
  auto two = w.assume(w.prepare(second, "n1"));
  ASSERT_TRUE(two.ok);
  w.cache_.forget(*one.assumed);
  w.publish();
  EXPECT_EQ(w.cpu_on("n1"), 1000);
  EXPECT_EQ(w.cache_.stats().assumed_pods, 1u);
}

TEST(CacheState, TheBoundPodEventConfirmsAnAssumedPod) {
  struct test_case {
    std::string name;
    std::string bound_to;
    std::string label; // set on the bound pod when not empty
    bool new_node_info;
  };
  const std::vector<test_case> cases{
    // The usual echo of our binding: only resourceVersion and the
    // PodScheduled condition differ, so the NodeInfo built by assume stays.
    {"bound where assumed", "n1", "", false},
    {"bound where assumed, with a new label", "n1", "tier", true},
    {"bound elsewhere (another scheduler won)", "n2", "", true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    world w;
    w.add(node("n1"));
    w.add(node("n2"));
    w.publish();
    auto p = test::make_pod("p").cpu("1").build();
    auto reply = w.assume(w.prepare(p, "n1"));
    ASSERT_TRUE(reply.ok);
    w.cache_.finish_binding(*reply.assumed);
    w.take_queue();
    auto assumed_info = w.shards_[0].find(model::symbol{"n1"});
    std::uint64_t generation = w.cache_.stats().generation;
    auto bound_builder = test::make_pod("p").cpu("1").node(tc.bound_to);
    if (!tc.label.empty())
      bound_builder.label(tc.label, "x");
    auto bound = std::make_shared<model::pod>(*bound_builder.build());
    bound->resource_version = "42";
    bound->scheduled_condition = model::pod_scheduled_condition{"True", "", ""};
    w.modify(model::pod_ptr{bound});
    cache_outputs out = w.publish();
    bool any_delta = std::any_of(out.deltas.begin(), out.deltas.end(),
                                 [](const auto& d) { return d != nullptr; });
    EXPECT_EQ(any_delta, tc.new_node_info);
    EXPECT_EQ(w.cache_.stats().generation != generation, tc.new_node_info);
    EXPECT_EQ(w.shards_[0].find(model::symbol{"n1"}) == assumed_info,
              !tc.new_node_info);
    if (!tc.label.empty()) {
      const auto& pods = w.shards_[0].find(model::symbol{"n1"})->pods();
      ASSERT_EQ(pods.size(), 1u);
      EXPECT_EQ(pods[0]->labels, bound->labels) << "the shard sees the label";
    }
    auto s = w.cache_.stats();
    EXPECT_EQ(s.pods, 1u);
    EXPECT_EQ(s.assumed_pods, 0u);
    EXPECT_EQ(w.cpu_on(tc.bound_to), 1000) << "counted once";
    std::string other = tc.bound_to == "n1" ? "n2" : "n1";
    EXPECT_EQ(w.cpu_on(other), 0);
    EXPECT_EQ(w.take_queue(), std::vector<std::string>{"event PodAdd"});
    // The cache keeps a core of the pod, never the informer's object.
    out = {};
    EXPECT_EQ(bound.use_count(), 1) << "use count " << bound.use_count();
    // Confirmed pods are never expired or forgotten.
    w.cache_.expire(w.clock_.now() + 24h);
    w.cache_.forget(*reply.assumed);
    EXPECT_EQ(w.cache_.stats().pods, 1u);
  }
}

// Bound and assumed pods are kept as cores: neither the pod a cycle assumed,
// nor the copy handed to the binder, nor the informer's object of a bound
// pod stays alive in the cache.
TEST(CacheState, KeepsOnlyTheCoreOfBoundAndAssumedPods) {
  world w;
  w.add(node("n1"));
  w.publish();
  std::weak_ptr<const model::pod> pending;
  std::weak_ptr<const model::pod> assumed;
  std::weak_ptr<const model::pod> informer;
  {
    auto p = test::make_pod("p").cpu("1").label("app", "web").build();
    pending = p;
    auto reply = w.assume(w.prepare(p, "n1"));
    ASSERT_TRUE(reply.ok);
    assumed = reply.assumed;
    EXPECT_EQ(reply.assumed->node_name.str(), "n1");
    auto q = test::make_pod("q").cpu("2").node("n1").build();
    informer = q;
    w.add(model::pod_ptr{q});
    w.publish();
    w.take_queue();
  }
  EXPECT_TRUE(pending.expired());
  EXPECT_TRUE(assumed.expired());
  EXPECT_TRUE(informer.expired());
  EXPECT_EQ(w.cpu_on("n1"), 3000);
  const auto& pods = w.shards_[0].find(model::symbol{"n1"})->pods();
  ASSERT_EQ(pods.size(), 2u);
  for (const auto& core : pods) {
    SCOPED_TRACE(core->name);
    EXPECT_EQ(core->node_name.str(), "n1");
    if (core->name == "p") {
      const model::symbol* app = core->labels.find(model::symbol{"app"});
      ASSERT_NE(app, nullptr);
      EXPECT_EQ(app->str(), "web");
    }
  }
  EXPECT_EQ(w.cache_.stats().pods, 2u);
}

// The nomination patch of a pod's previous cycle can land after the pod was
// assumed (and even after its binding ended in the queue): queued again, the
// pod would get a second cycle that preempts for a pod already placed.
TEST(CacheState, AnUnboundEchoOfAnAssumedPodIsNotQueued) {
  world w;
  w.add(node("n1"));
  w.add(node("n2"));
  w.publish();
  auto p = test::make_pod("p").cpu("1").build();
  w.add(p);
  w.publish();
  w.take_queue();
  auto reply = w.assume(w.prepare(p, "n1"));
  ASSERT_TRUE(reply.ok);
  w.publish();
  w.take_queue();
  auto nominated = std::make_shared<model::pod>(*p);
  nominated->nominated_node_name = model::symbol{"n2"};
  nominated->resource_version = "7";
  w.modify(model::pod_ptr{nominated});
  cache_outputs out = w.publish();
  EXPECT_TRUE(out.nominees.empty()) << "no nomination for an assumed pod";
  EXPECT_EQ(w.take_queue(), std::vector<std::string>{});
  // Once the assume is forgotten (binding failed), updates count again.
  w.cache_.forget(*reply.assumed);
  w.publish();
  w.take_queue();
  auto again = std::make_shared<model::pod>(*nominated);
  again->resource_version = "8";
  again->labels = {};
  w.modify(model::pod_ptr{again});
  w.publish();
  EXPECT_FALSE(w.take_queue().empty());
}

TEST(CacheState, AssumedPodsExpireOnlyAfterBindingFinishedAndTheTtl) {
  cache_config cfg;
  cfg.assumed_ttl = 30s;
  world w{1, cfg};
  w.add(node("n1"));
  w.publish();
  auto reply = w.assume(w.prepare(test::make_pod("p").cpu("1").build(), "n1"));
  ASSERT_TRUE(reply.ok);
  w.cache_.expire(w.clock_.now() + 1h);
  EXPECT_EQ(w.cache_.stats().assumed_pods, 1u) << "binding not finished yet";
  w.cache_.finish_binding(*reply.assumed);
  w.clock_.advance(29s);
  w.cache_.expire(w.clock_.now());
  EXPECT_EQ(w.cache_.stats().assumed_pods, 1u);
  w.clock_.advance(1s);
  w.cache_.expire(w.clock_.now());
  w.publish();
  EXPECT_EQ(w.cache_.stats().assumed_pods, 0u);
  EXPECT_EQ(w.cpu_on("n1"), 0);
}

// ------------------------------------------------------- node lifecycle

TEST(CacheState, ADeletedNodeWithPodsLeavesAPlaceholderUntilTheyGo) {
  world w;
  w.add(node("n1"));
  w.add(node("n2"));
  auto p = test::make_pod("p").cpu("1").node("n1").build();
  w.add(p);
  w.publish();
  w.remove(node("n1"));
  auto out = w.publish();
  ASSERT_TRUE(out.deltas[0]);
  ASSERT_EQ(out.deltas[0]->removed.size(), 1u);
  EXPECT_EQ(out.deltas[0]->removed[0].str(), "n1");
  EXPECT_EQ(test::node_names(w.shards_[0].nodes()),
            std::vector<std::string>{"n2"});
  ASSERT_TRUE(out.view);
  EXPECT_EQ(out.view->shard_nodes[0], 1u);
  EXPECT_EQ(out.view->context->node_count, 1);
  EXPECT_EQ(out.view->node_shard->count(model::symbol{"n1"}), 0u);
  // The placeholder still accounts for the pod.
  auto placeholder = w.cache_.node(model::symbol{"n1"});
  ASSERT_TRUE(placeholder);
  EXPECT_EQ(placeholder->get_node(), nullptr);
  EXPECT_EQ(placeholder->pods().size(), 1u);
  // Assuming onto it is a conflict.
  auto reply = w.assume(w.prepare(test::make_pod("q").build(), "n1"));
  EXPECT_FALSE(reply.ok);
  // The last pod goes: so does the placeholder.
  w.remove(p);
  w.publish();
  EXPECT_FALSE(w.cache_.node(model::symbol{"n1"}));
  EXPECT_EQ(w.cache_.stats().pods, 0u);
}

TEST(CacheState, APodBeforeItsNodeIsKeptAndCountedWhenTheNodeArrives) {
  world w;
  w.add(test::make_pod("early").cpu("1500m").node("n1").build());
  auto first = w.publish();
  EXPECT_FALSE(first.deltas[0] && !first.deltas[0]->upserted.empty())
    << "a placeholder is not schedulable";
  w.add(node("n1"));
  w.publish();
  ASSERT_EQ(w.shards_[0].nodes().size(), 1u);
  EXPECT_EQ(w.shards_[0].nodes()[0]->requested().milli_cpu, 1500);
  EXPECT_EQ(w.cache_.stats().nodes, 1u);
}

TEST(CacheState, ANodeDeletedAndAddedAgainKeepsItsPods) {
  world w;
  w.add(node("n1"));
  w.add(test::make_pod("p").cpu("1").node("n1").build());
  w.publish();
  w.remove(node("n1"));
  w.publish();
  w.add(node("n1"));
  w.publish();
  ASSERT_EQ(w.shards_[0].nodes().size(), 1u);
  EXPECT_EQ(w.shards_[0].nodes()[0]->pods().size(), 1u);
}

} // namespace
} // namespace tessera::actors
