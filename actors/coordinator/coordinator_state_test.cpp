// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/cache_state.hpp"
#include "actors/coordinator/coordinator_state.hpp"
#include "actors/shard/shard_state.hpp"
#include "model/pod_key.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"
#include "test/support/recording_sink.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <set>

namespace tessera::actors {
namespace {

using test::default_profile;
using test::recording_sink;

// A node with `cpu`, room for 110 pods and memory to spare.
model::node_ptr sized_node(const std::string& name, const char* cpu = "4") {
  return test::make_node(name).cpu(cpu).memory("16Gi").pods(110).build();
}

// The coordinator wired synchronously to a real cache_state and real
// shard_states. Requests and assumes are queued and run in FIFO order by
// run()/step(), so several cycles interleave deterministically; a shard
// request waits (goes to the back) while the shard is behind the generation
// the coordinator requires, as the shard actor does.
class harness final : public coordinator_ports {
public:
  harness(std::size_t shards, std::size_t inflight,
          std::int32_t max_conflicts = 3, std::uint64_t seed = 7,
          std::size_t change_log = 0)
    : cache_(
      [&] {
        cache_config c;
        c.shards = shards;
        if (change_log != 0)
          c.change_log_capacity = change_log;
        return c;
      }(),
      clock_),
      coord_(
        [&] {
          coordinator_config c;
          c.shards = shards;
          c.max_inflight_cycles = inflight;
          c.seed = seed;
          c.max_conflicts = max_conflicts;
          return c;
        }(),
        {default_profile()}, *this) {
    for (std::uint32_t s = 0; s < shards; ++s)
      shards_.emplace_back(s);
  }

  void add(model::object o) {
    cache_.apply({object_event::kind::added, std::move(o)});
  }
  void publish() {
    auto out = cache_.take_outputs();
    for (std::size_t s = 0; s < out.deltas.size(); ++s)
      if (out.deltas[s])
        shards_[s].apply(*out.deltas[s]);
    if (out.view)
      coord_.on_view(out.view);
    if (!out.nominees.empty())
      coord_.on_nominees(out.nominees);
  }
  void work(std::vector<model::pod_ptr> pods) {
    work_batch batch;
    for (auto& p : pods)
      batch.pods.push_back(queued_pod_info{std::move(p), 1, ++cycle_, 0});
    coord_.on_work(batch);
  }
  bool step() {
    if (pump_.empty())
      return false;
    auto f = std::move(pump_.front());
    pump_.pop_front();
    f();
    return true;
  }
  void run() {
    while (step()) {
    }
  }

  // coordinator_ports
  template <class Reply, class Request, class Work>
  void serve(std::uint32_t s, Request req, reply<Reply> done, Work work,
             std::uint64_t min_generation) {
    pump_.push_back([this, s, req, done, work, min_generation] {
      if (shards_[s].generation() < min_generation) {
        serve<Reply>(s, req, done, work, min_generation);
        return;
      }
      if (fail_shards) {
        done(nullptr);
        return;
      }
      done(std::make_shared<const Reply>(work(shards_[s], *req)));
    });
  }
  void scan(std::uint32_t s, scan_request_ptr req,
            reply<scan_reply> done) override {
    log.push_back("scan " + req->pod->name);
    serve<scan_reply>(
      s, req, std::move(done),
      [](shard_state& sh, const scan_request& r) { return sh.scan(r); },
      req->min_generation);
  }
  void filter(std::uint32_t s, filter_request_ptr req,
              reply<filter_reply> done) override {
    filters.emplace_back(s, req);
    log.push_back("filter " + req->pod->name);
    if (on_filter)
      on_filter(*req);
    serve<filter_reply>(
      s, req, std::move(done),
      [](shard_state& sh, const filter_request& r) { return sh.filter(r); },
      req->min_generation);
  }
  void score(std::uint32_t s, score_request_ptr req,
             reply<score_reply> done) override {
    serve<score_reply>(
      s, req, std::move(done),
      [](shard_state& sh, const score_request& r) { return sh.score(r); }, 0);
  }
  void preempt(std::uint32_t s, preempt_request_ptr req,
               reply<preempt_reply> done) override {
    log.push_back("preempt " + req->pod->name);
    serve<preempt_reply>(
      s, req, std::move(done),
      [](shard_state& sh, const preempt_request& r) { return sh.preempt(r); },
      0);
  }
  void assume(assume_request_ptr req, reply<assume_reply> done) override {
    log.push_back("assume " + req->pod->name);
    if (int& n = refuse_assumes[req->pod->name]; n > 0) {
      // As the cache answers when a change the cycle missed breaks a
      // filter on the chosen node.
      --n;
      pump_.push_back([done] {
        auto r = std::make_shared<assume_reply>();
        r->reason = "refused by the test";
        done(r);
      });
      return;
    }
    pump_.push_back([this, req, done] {
      auto r = std::make_shared<const assume_reply>(cache_.assume(*req));
      publish();
      done(r);
    });
  }
  void bind(bind_request_ptr req) override {
    binds.push_back(req);
  }
  void evict(eviction_ptr e) override {
    // What the binder does with it.
    for (const auto& v : e->victims)
      sink_.preempt(v, e->preemptor, e->node, [](error) {});
    for (const auto& p : e->cleared)
      sink_.clear_nomination(p);
  }
  void outcome(cycle_outcome_ptr out) override {
    log.push_back("outcome " + out->pod->name);
    wanted += out->credit;
    outcomes.push_back(out);
    // As the queue does: a retried pod goes straight back.
    if (requeue_retries && out->type == cycle_outcome::kind::retry)
      pump_.push_back([this, p = out->pod] { work({p}); });
  }
  void want(std::int32_t n) override {
    wanted += n;
  }
  cluster_sink& sink() override {
    return sink_;
  }

  /// The pod's last outcome.
  const cycle_outcome* outcome_of(const std::string& pod) const {
    for (auto it = outcomes.rbegin(); it != outcomes.rend(); ++it)
      if ((*it)->pod->name == pod)
        return it->get();
    return nullptr;
  }

  manual_clock clock_;
  cache_state cache_;
  std::vector<shard_state> shards_;
  recording_sink sink_;
  std::deque<std::function<void()>> pump_;
  std::vector<std::pair<std::uint32_t, filter_request_ptr>> filters;
  std::vector<std::string> log;
  std::vector<cycle_outcome_ptr> outcomes;
  std::vector<bind_request_ptr> binds;
  std::int32_t wanted = 0;
  bool fail_shards = false;
  /// Assumes to refuse per pod name (each a conflict).
  std::map<std::string, int> refuse_assumes;
  bool requeue_retries = false;
  std::function<void(const filter_request&)> on_filter;
  std::uint64_t cycle_ = 0;
  coordinator_state coord_;
};

using kind = cycle_outcome::kind;

TEST(CoordinatorState, HoldsWorkUntilTheFirstView) {
  harness h{1, 2};
  h.coord_.start();
  EXPECT_EQ(h.wanted, 2);
  h.add(sized_node("n1"));
  h.work({test::make_pod("p").cpu("1").build()});
  h.run();
  EXPECT_TRUE(h.filters.empty());
  EXPECT_TRUE(h.outcomes.empty());
  EXPECT_TRUE(h.sink_.of("failed").empty());
  h.publish();
  h.run();
  ASSERT_EQ(h.outcomes.size(), 1u);
  EXPECT_EQ(h.outcomes[0]->type, kind::assumed);
  ASSERT_EQ(h.binds.size(), 1u);
  EXPECT_EQ(h.binds[0]->node.str(), "n1");
  EXPECT_EQ(h.wanted, 3) << "one more pod wanted per finished cycle";
}

// numFeasibleNodesToFind is computed over all nodes and split over the
// shards in proportion to their node counts.
TEST(CoordinatorState, SplitsTheFeasibleNodeQuotaAcrossShards) {
  harness h{3, 1};
  for (int i = 0; i < 150; ++i)
    h.add(sized_node("node-" + std::to_string(i)));
  h.publish();
  h.work({test::make_pod("p").cpu("100m").build()});
  h.run();
  ASSERT_EQ(h.filters.size(), 3u);
  std::size_t sum = 0;
  for (const auto& [s, req] : h.filters) {
    double share
      = 100.0 * static_cast<double>(h.shards_[s].nodes().size()) / 150.0;
    EXPECT_LE(req->quota, h.shards_[s].nodes().size());
    EXPECT_NEAR(static_cast<double>(req->quota), share, 1.0) << "shard " << s;
    sum += req->quota;
  }
  EXPECT_EQ(sum, 100u) << "numFeasibleNodesToFind(150) = 100";
  ASSERT_EQ(h.outcomes.size(), 1u);
  EXPECT_EQ(h.outcomes[0]->type, kind::assumed);
}

// Two cycles on the same view pick the one node with room; the second
// assume conflicts and the pod is handed back for an immediate retry.
TEST(CoordinatorState, ConcurrentCyclesConflictAtAssume) {
  harness h{1, 2};
  h.add(sized_node("n1", "1"));
  h.publish();
  h.work({test::make_pod("a").cpu("1").build(),
          test::make_pod("b").cpu("1").build()});
  h.run();
  ASSERT_NE(h.outcome_of("a"), nullptr);
  ASSERT_NE(h.outcome_of("b"), nullptr);
  EXPECT_EQ(h.outcome_of("a")->type, kind::assumed);
  EXPECT_EQ(h.outcome_of("b")->type, kind::retry);
  EXPECT_EQ(h.coord_.conflicts(), 1u);
  EXPECT_EQ(h.cache_.stats().conflicts, 1u);
  EXPECT_TRUE(h.sink_.of("failed").empty()) << "a conflict is not a failure";
}

// After an assume on a shard, the next cycle asks that shard for at least
// the assume's generation, so it sees the assumed pod.
TEST(CoordinatorState, TheNextCycleWaitsForTheLastAssumesGeneration) {
  harness h{1, 1};
  h.add(sized_node("n1", "1"));
  h.add(sized_node("n2", "1"));
  h.publish();
  h.work({test::make_pod("a").cpu("1").build()});
  h.run();
  std::uint64_t after_a = h.cache_.generation();
  h.work({test::make_pod("b").cpu("1").build()});
  h.run();
  ASSERT_EQ(h.filters.size(), 2u);
  EXPECT_GE(h.filters[1].second->min_generation, after_a - 1);
  EXPECT_GT(h.filters[1].second->min_generation,
            h.filters[0].second->min_generation);
  ASSERT_NE(h.outcome_of("b"), nullptr);
  EXPECT_EQ(h.outcome_of("b")->type, kind::assumed);
  EXPECT_NE(h.binds[0]->node, h.binds[1]->node);
}

// A pod whose cycles were retried max_conflicts times in a row runs alone:
// it starts only when no other cycle is in flight, and nothing starts while
// it runs.
TEST(CoordinatorState, APodThatKeepsConflictingRunsAlone) {
  harness h{1, 4, 3};
  h.add(sized_node("n1"));
  h.publish();
  h.refuse_assumes["loser"] = 3;
  h.requeue_retries = true;
  int loser_filters = 0;
  std::size_t inflight_at_fourth = 0;
  h.on_filter = [&](const filter_request& r) {
    if (r.pod->name != "loser" || ++loser_filters != 4)
      return;
    inflight_at_fourth = h.coord_.inflight();
    // Offered while the loser runs alone: it must wait.
    h.work({test::make_pod("c").cpu("100m").build()});
  };
  h.work({test::make_pod("slow").cpu("100m").build(),
          test::make_pod("loser").cpu("100m").build()});
  h.run();
  EXPECT_EQ(loser_filters, 4);
  EXPECT_EQ(inflight_at_fourth, 1u) << "ran beside another cycle";
  auto last = [&](const std::string& line) {
    return std::find(h.log.rbegin(), h.log.rend(), line).base() - h.log.begin()
           - 1;
  };
  ASSERT_NE(h.outcome_of("loser"), nullptr);
  EXPECT_EQ(h.outcome_of("loser")->type, kind::assumed);
  EXPECT_LT(last("outcome loser"), last("filter c"))
    << "another cycle started while it ran alone";
  ASSERT_NE(h.outcome_of("c"), nullptr);
  EXPECT_EQ(h.outcome_of("c")->type, kind::assumed);
  EXPECT_EQ(h.coord_.conflicts(), 3u);
}

TEST(CoordinatorState, TriesTheNominatedNodeFirst) {
  struct test_case {
    std::string name;
    const char* nominated_cpu;
    std::string expected_node;
    std::size_t filters;
  };
  const std::vector<test_case> cases{
    {"fits there: chosen without scoring", "4", "n2", 1},
    {"does not fit there: a full pass", "1", "", 2},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    harness h{1, 1};
    h.add(sized_node("n1"));
    h.add(sized_node("n2", tc.nominated_cpu));
    h.add(sized_node("n3"));
    h.publish();
    h.work({test::make_pod("p").cpu("2").nominated_node("n2").build()});
    h.run();
    ASSERT_EQ(h.filters.size(), tc.filters);
    const auto& probe = *h.filters[0].second;
    EXPECT_EQ(probe.quota, 1u);
    EXPECT_FALSE(probe.rotate);
    EXPECT_FALSE(probe.score);
    ASSERT_TRUE(probe.allowed);
    EXPECT_EQ(probe.allowed->size(), 1u);
    EXPECT_EQ(probe.allowed->count(model::symbol{"n2"}), 1u);
    ASSERT_EQ(h.binds.size(), 1u);
    if (!tc.expected_node.empty())
      EXPECT_EQ(h.binds[0]->node.str(), tc.expected_node);
    else
      EXPECT_NE(h.binds[0]->node.str(), "n2");
  }
}

TEST(CoordinatorState, ReportsAFitErrorWhenNoNodeFits) {
  harness h{2, 1};
  h.add(sized_node("n1", "1"));
  h.add(sized_node("n2", "1"));
  h.add(test::make_node("n3")
          .cpu("8")
          .memory("16Gi")
          .pods(110)
          .taint("k", "v", "NoSchedule")
          .build());
  h.publish();
  h.work({test::make_pod("p").cpu("2").build()});
  h.run();
  ASSERT_EQ(h.outcomes.size(), 1u);
  EXPECT_EQ(h.outcomes[0]->type, kind::unschedulable);
  const auto& plugins = h.outcomes[0]->unschedulable_plugins;
  EXPECT_NE(std::find(plugins.begin(), plugins.end(), "NodeResourcesFit"),
            plugins.end());
  EXPECT_NE(std::find(plugins.begin(), plugins.end(), "TaintToleration"),
            plugins.end());
  ASSERT_EQ(h.sink_.of("failed").size(), 1u);
  EXPECT_EQ(h.sink_.of("failed")[0],
            "p Unschedulable: 0/3 nodes are available: 1 node(s) had "
            "untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes "
            "are available: 3 Preemption is not helpful for scheduling.")
    << "a request above a node's allocatable is unresolvable there";
  EXPECT_TRUE(h.binds.empty());
}

TEST(CoordinatorState, PreemptsLowerPriorityPods) {
  harness h{1, 1};
  h.add(sized_node("n1", "2"));
  h.add(test::make_pod("low").cpu("2").priority(0).node("n1").build());
  h.publish();
  h.work({test::make_pod("high").cpu("1").priority(100).build()});
  h.run();
  ASSERT_EQ(h.outcomes.size(), 1u);
  const auto& out = *h.outcomes[0];
  EXPECT_EQ(out.type, kind::unschedulable);
  EXPECT_EQ(out.nominated_node.str(), "n1");
  ASSERT_EQ(out.victims.size(), 1u);
  EXPECT_EQ(out.victims[0], model::pod_key(*test::make_pod("low").build()));
  EXPECT_EQ(h.sink_.of("preempt"),
            std::vector<std::string>{"low for high on n1"});
}

// The shard's view moves on between a cycle's Filter and its preemption
// dry run (here one of two low-priority pods goes away by itself): the node
// now fits with every remaining pod reprieved, so the dry run finds no
// victim. That is a stale cycle, retried like an assume conflict, not an
// error and not a preemption.
TEST(CoordinatorState, ADryRunOnAViewThatMovedOnIsAConflict) {
  harness h{1, 1};
  h.add(sized_node("n1", "2"));
  h.add(test::make_pod("stays").cpu("1").priority(0).node("n1").build());
  auto low = test::make_pod("low").cpu("1").priority(0).node("n1").build();
  h.add(low);
  h.publish();
  h.work({test::make_pod("high").cpu("1").priority(100).build()});
  auto queued = [&](const std::string& line) {
    return std::find(h.log.begin(), h.log.end(), line) != h.log.end();
  };
  while (!queued("preempt high") && h.step()) {
  }
  ASSERT_TRUE(queued("preempt high")) << "the cycle never reached PostFilter";
  h.cache_.apply({object_event::kind::deleted, model::object{low}});
  h.publish();
  h.run();
  ASSERT_EQ(h.outcomes.size(), 1u);
  EXPECT_EQ(h.outcomes[0]->type, kind::retry);
  EXPECT_TRUE(h.outcomes[0]->victims.empty());
  EXPECT_EQ(h.coord_.conflicts(), 1u);
  EXPECT_TRUE(h.sink_.of("preempt").empty());
  EXPECT_TRUE(h.sink_.of("failed").empty())
    << "a stale cycle is not a failure: " << h.sink_.of("failed").front();
}

// Two overlapping cycles both find the same victim. Acting on both views
// would delete it twice and nominate the node twice; the cycle that ends
// second finds the node claimed since it began and is retried.
TEST(CoordinatorState, AnOverlappedPreemptionOfAClaimedNodeIsRetried) {
  harness h{1, 2};
  h.add(sized_node("n1", "2"));
  h.add(test::make_pod("low").cpu("2").priority(0).node("n1").build());
  h.publish();
  h.work({test::make_pod("high-a").cpu("2").priority(100).build(),
          test::make_pod("high-b").cpu("2").priority(100).build()});
  h.run();
  ASSERT_EQ(h.sink_.of("preempt").size(), 1u)
    << "the victim is deleted once, by the first cycle to end";
  ASSERT_EQ(h.outcomes.size(), 2u);
  const cycle_outcome& first = *h.outcomes[0];
  const cycle_outcome& second = *h.outcomes[1];
  EXPECT_EQ(first.type, kind::unschedulable);
  EXPECT_EQ(first.nominated_node.str(), "n1");
  EXPECT_EQ(h.sink_.of("preempt").front(),
            "low for " + first.pod->name + " on n1");
  EXPECT_EQ(second.type, kind::retry);
  EXPECT_EQ(second.retry, retry_reason::node_claimed);
  EXPECT_TRUE(second.victims.empty());
}

// A preemption on a node nobody claimed meanwhile stands, although other
// cycles ran beside it: it is not redone alone.
TEST(CoordinatorState, AnOverlappedPreemptionOfAnUnclaimedNodeStands) {
  harness h{1, 2};
  h.add(sized_node("n1", "2"));
  h.add(sized_node("n2", "2"));
  h.add(test::make_pod("low").cpu("2").priority(0).node("n1").build());
  h.add(test::make_pod("low-2").cpu("2").priority(0).node("n2").build());
  h.publish();
  h.work({test::make_pod("high-a").cpu("2").priority(100).build(),
          test::make_pod("small").cpu("0").priority(0).build()});
  h.run();
  ASSERT_EQ(h.sink_.of("preempt").size(), 1u);
  ASSERT_NE(h.outcome_of("high-a"), nullptr);
  EXPECT_EQ(h.outcome_of("high-a")->type, kind::unschedulable);
  EXPECT_FALSE(h.outcome_of("high-a")->nominated_node.empty());
  EXPECT_EQ(h.coord_.conflicts(), 0u);
}

// A pod assumed on a node while a preemption of that node was decided
// beside it: a serial scheduler would have done one, then seen it. The
// assume, sent first, claims the node; the preemption ends after it and
// is retried rather than deleting a victim the node no longer frees.
TEST(CoordinatorState, AnAssumeAndAPreemptionOfOneNodeDoNotBothStand) {
  harness h{1, 2};
  h.add(sized_node("n1", "4"));
  h.add(test::make_pod("low").cpu("2").priority(0).node("n1").build());
  h.publish();
  h.work({test::make_pod("high").cpu("4").priority(100).build(),
          test::make_pod("peer").cpu("2").priority(100).build()});
  h.run();
  ASSERT_NE(h.outcome_of("high"), nullptr);
  ASSERT_NE(h.outcome_of("peer"), nullptr);
  EXPECT_EQ(h.outcome_of("peer")->type, kind::assumed);
  EXPECT_EQ(h.outcome_of("high")->type, kind::retry);
  EXPECT_EQ(h.outcome_of("high")->retry, retry_reason::node_claimed);
  EXPECT_TRUE(h.sink_.of("preempt").empty());
  // Tried again, the preemptor sees the peer: removing `low` no longer
  // makes room for it.
  h.publish();
  h.work({test::make_pod("high").cpu("4").priority(100).build()});
  h.run();
  EXPECT_TRUE(h.sink_.of("preempt").empty());
}

// A preemption nominates the node at once for the coordinator's next
// cycles, as a serial scheduler's nominator does: the API echo of the
// nomination comes much later, and a cycle begun before that must still
// leave the cleared node to the preemptor.
TEST(CoordinatorState, ANominationHoldsTheNodeBeforeTheApiEchoesIt) {
  harness h{1, 2};
  h.add(sized_node("n1", "2"));
  auto low = test::make_pod("low").cpu("2").priority(0).node("n1").build();
  h.add(low);
  auto high_a = test::make_pod("high-a").cpu("2").priority(100).build();
  h.add(high_a); // pending: the cache tells the nominator when it goes
  h.publish();
  h.work({high_a});
  h.run();
  ASSERT_EQ(h.sink_.of("preempt"),
            std::vector<std::string>{"low for high-a on n1"});
  ASSERT_EQ(h.outcomes.size(), 1u);
  EXPECT_EQ(h.outcomes[0]->nominated_node.str(), "n1");
  // The victim goes; the queue has not answered with its nominations yet.
  h.cache_.apply({object_event::kind::deleted, model::object{low}});
  h.publish();
  h.work({test::make_pod("high-b").cpu("2").priority(100).build()});
  h.run();
  EXPECT_TRUE(h.binds.empty()) << "high-b took the node nominated to high-a";
  ASSERT_NE(h.outcome_of("high-b"), nullptr);
  EXPECT_EQ(h.outcome_of("high-b")->type, kind::unschedulable);
  // The preemptor is deleted before it runs again: its nomination goes,
  // and the node is free for the next pod.
  h.cache_.apply({object_event::kind::deleted, model::object{high_a}});
  h.publish();
  h.work({test::make_pod("high-c").cpu("2").priority(100).build()});
  h.run();
  ASSERT_EQ(h.binds.size(), 1u);
  EXPECT_EQ(h.binds[0]->pod->name, "high-c");
  EXPECT_EQ(h.binds[0]->node.str(), "n1");
}

// While the victims terminate, the room they leave belongs to the
// preemptor: a lower-priority pod arriving then (and the cache already
// shows the room free) sees the nominated pod and stays off the node.
TEST(CoordinatorState, ALowerPriorityPodKeepsOutOfANominatedNodesRoom) {
  harness h{2, 4};
  h.add(sized_node("n1", "2"));
  h.add(sized_node("n2", "2"));
  auto low = test::make_pod("low").cpu("2").priority(0).node("n1").build();
  h.add(low);
  // Above `mid`: mid cannot preempt it, and high prefers low's node.
  h.add(test::make_pod("peer").cpu("2").priority(60).node("n2").build());
  auto high = test::make_pod("high").cpu("2").priority(100).build();
  h.add(high);
  h.publish();
  h.work({high});
  h.run();
  ASSERT_EQ(h.sink_.of("preempt"),
            std::vector<std::string>{"low for high on n1"});
  // Its victim is gone; the preemptor has not run again yet.
  h.cache_.apply({object_event::kind::deleted, model::object{low}});
  h.publish();
  h.work({test::make_pod("mid").cpu("1").priority(50).build()});
  h.run();
  EXPECT_TRUE(h.binds.empty()) << "mid took the room nominated to high";
  ASSERT_NE(h.outcome_of("mid"), nullptr);
  EXPECT_EQ(h.outcome_of("mid")->type, kind::unschedulable);
  EXPECT_TRUE(h.outcome_of("mid")->nominated_node.empty());
}

// A pod with a nominated node asks only that node's shard. Its assume must
// not count the other shards as seen at generation 0: once the cache's
// change log has moved past that, every such assume would conflict, and the
// pod would retry forever (PreemptionBasic/5000Nodes bound nothing).
TEST(CoordinatorState, AProbeOfTheNominatedNodeSurvivesAMovedOnChangeLog) {
  harness h{2, 1, 3, 7, 4};
  for (int i = 0; i < 8; ++i)
    h.add(sized_node("n" + std::to_string(i)));
  h.publish();
  auto churn = [&](const std::string& prefix) {
    for (int i = 0; i < 8; ++i)
      h.add(test::make_pod(prefix + std::to_string(i))
              .cpu("100m")
              .node("n" + std::to_string(i))
              .build());
    h.publish();
  };
  auto nominated = [](const std::string& name) {
    auto p = test::make_pod(name).cpu("1").priority(100).build();
    auto copy = std::make_shared<model::pod>(*p);
    copy->nominated_node_name = model::symbol{"n5"};
    return model::pod_ptr{std::move(copy)};
  };
  churn("old-");
  // Every shard answers one ordinary cycle after the churn.
  h.work({test::make_pod("plain").cpu("1").build()});
  h.run();
  ASSERT_EQ(h.binds.size(), 1u);
  h.work({nominated("high")});
  h.run();
  ASSERT_NE(h.outcome_of("high"), nullptr);
  EXPECT_EQ(h.outcome_of("high")->type, kind::assumed);
  ASSERT_EQ(h.binds.size(), 2u);
  EXPECT_EQ(h.binds[1]->node.str(), "n5");
  // More churn and no ordinary cycle: the probe's generations are old now
  // and its assume may conflict, but after max_conflicts the pod filters
  // every shard and is placed.
  churn("new-");
  h.refuse_assumes["again"] = 3;
  h.requeue_retries = true;
  std::size_t first = h.filters.size();
  h.work({nominated("again")});
  h.run();
  ASSERT_NE(h.outcome_of("again"), nullptr);
  EXPECT_EQ(h.outcome_of("again")->type, kind::assumed);
  // Three probes of n5's shard alone, then a filter of both shards.
  std::vector<std::pair<std::uint32_t, std::size_t>> asked;
  for (std::size_t i = first; i < h.filters.size(); ++i)
    asked.emplace_back(h.filters[i].first, h.filters[i].second->quota);
  ASSERT_GE(asked.size(), 5u);
  EXPECT_EQ(asked[asked.size() - 2].first + asked.back().first, 1u)
    << "the last cycle did not ask both shards";
}

TEST(CoordinatorState, AShardThatDoesNotAnswerFailsTheCycle) {
  harness h{2, 1};
  h.add(sized_node("n1"));
  h.add(sized_node("n2"));
  h.publish();
  h.fail_shards = true;
  h.work({test::make_pod("p").build()});
  h.run();
  ASSERT_EQ(h.outcomes.size(), 1u);
  EXPECT_EQ(h.outcomes[0]->type, kind::error);
  ASSERT_EQ(h.sink_.of("failed").size(), 1u);
  EXPECT_EQ(h.sink_.of("failed")[0].rfind("p SchedulerError: ", 0), 0u);
}

TEST(CoordinatorState, DropsPodsItDoesNotSchedule) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::uint32_t profile;
  };
  const std::vector<test_case> cases{
    // The cache tags pods with their profile; an index this coordinator
    // does not have names no profile of its own.
    {"a profile the coordinator does not have", test::make_pod("p").build(), 7},
    {"a pod being deleted", test::make_pod("p").deleting().build(), 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    harness h{1, 1};
    h.add(sized_node("n1"));
    h.publish();
    work_batch batch;
    batch.pods.push_back(queued_pod_info{tc.pod, 1, 1, 0, tc.profile});
    h.coord_.on_work(batch);
    h.run();
    ASSERT_EQ(h.outcomes.size(), 1u);
    EXPECT_EQ(h.outcomes[0]->type, kind::dropped);
    EXPECT_TRUE(h.filters.empty());
  }
}

// Equal best totals are broken by the seeded RNG: the same seed always
// picks the same node, different seeds spread over the tied nodes, and a
// strictly better node wins whatever the seed.
TEST(CoordinatorState, BreaksTiesWithTheSeededRng) {
  auto pick = [](std::uint64_t seed, bool with_better_node) {
    harness h{2, 1, 3, seed};
    for (int i = 0; i < 6; ++i)
      h.add(sized_node("n" + std::to_string(i)));
    if (with_better_node)
      h.add(sized_node("big", "64"));
    h.publish();
    h.work({test::make_pod("p").cpu("1").build()});
    h.run();
    EXPECT_EQ(h.binds.size(), 1u);
    return h.binds.empty() ? std::string{} : h.binds[0]->node.str();
  };
  std::set<std::string> picked;
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto node = pick(seed, false);
    EXPECT_EQ(pick(seed, false), node) << "same seed, another node";
    picked.insert(node);
    EXPECT_EQ(pick(seed, true), "big");
  }
  // 24 seeds over 6 tied nodes: a fair pick leaves a node out with
  // probability < 0.2%; a pick that ignores the seed hits only one.
  EXPECT_GE(picked.size(), 4u);
}

// A pod with required anti-affinity needs a scan of every shard: the
// partials are gathered and merged before any shard filters, so a matching
// pod on one shard keeps the pod off the whole zone on every other shard.
TEST(CoordinatorState, ScansEveryShardBeforeFiltering) {
  const char* zone_key = "topology.kubernetes.io/zone";
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    harness h{3, 1, 3, seed};
    for (int i = 0; i < 9; ++i)
      h.add(test::make_node("n" + std::to_string(i))
              .cpu("4")
              .memory("16Gi")
              .pods(110)
              .zone(i < 6 ? "busy" : "free")
              .build());
    h.add(test::make_pod("web").label("app", "web").node("n0").build());
    h.publish();
    h.work({test::make_pod("p")
              .cpu("1")
              .required_anti_affinity("app", "web", zone_key)
              .build()});
    h.run();
    std::size_t scans = 0;
    std::size_t first_filter = h.log.size();
    for (std::size_t i = 0; i < h.log.size(); ++i) {
      if (h.log[i] == "scan p") {
        ++scans;
        EXPECT_LT(i, first_filter) << "a scan after a filter";
      } else if (h.log[i] == "filter p" && first_filter == h.log.size()) {
        first_filter = i;
      }
    }
    EXPECT_EQ(scans, 3u);
    EXPECT_EQ(h.filters.size(), 3u);
    ASSERT_EQ(h.binds.size(), 1u);
    int index = std::stoi(h.binds[0]->node.str().substr(1));
    EXPECT_GE(index, 6) << h.binds[0]->node.str() << " is in the busy zone";
  }
}

} // namespace
} // namespace tessera::actors
