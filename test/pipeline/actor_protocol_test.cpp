// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Actor-level tests under CAF's deterministic test coordinator: no threads,
// no sleeps. Messages move only when the test calls run(), and timers only
// when it calls advance_time(). Real actors talk to small fakes that record
// what they receive.

#include "actors/behaviors.hpp"
#include "actors/pipeline.hpp"
#include "test/pipeline/cluster_gen.hpp"
#include "test/pipeline/pipeline_runner.hpp"
#include "test/pipeline/placement_checker.hpp"
#include "test/pipeline/reference_scheduler.hpp"
#include "test/support/builders.hpp"

#include <caf/all.hpp>
#include <caf/scheduler/test_coordinator.hpp>
#include <gtest/gtest.h>

#include <map>
#include <set>

namespace tessera::pipeline_test {
namespace {

using namespace std::chrono_literals;
using namespace tessera::actors;

caf::actor_system_config& testing_config(caf::actor_system_config& cfg) {
  cfg.set("scheduler.policy", caf::atom("testing"));
  cfg.set("logger.verbosity", caf::atom("quiet"));
  return cfg;
}

class deterministic : public ::testing::Test {
protected:
  deterministic()
    : sys_(testing_config(cfg_)),
      sched_(
        dynamic_cast<caf::scheduler::test_coordinator&>(sys_.scheduler())) {
  }

  /// Runs every pending message; returns how many ran.
  std::size_t run() {
    return sched_.run();
  }

  caf::actor_system_config cfg_;
  caf::actor_system sys_;
  caf::scheduler::test_coordinator& sched_;
};

// ------------------------------------------------------------- fakes

struct queue_log {
  std::vector<std::int32_t> wants;
  std::vector<cycle_outcome_ptr> outcomes;
  std::vector<bind_outcome_ptr> bound;
  /// Input messages ("input:<inputs in it>") and barriers ("barrier:<id>") as
  /// they came.
  std::vector<std::string> arrivals;
};

queue_actor::behavior_type fake_queue(queue_actor::pointer, queue_log* log) {
  return {
    [log](input_atom, const queue_inputs_ptr& in) {
      log->arrivals.push_back("input:" + std::to_string(in->size()));
    },
    [log](want_atom, std::int32_t n) { log->wants.push_back(n); },
    [log](outcome_atom, const cycle_outcome_ptr& o) {
      log->outcomes.push_back(o);
    },
    [log](bound_atom, const bind_outcome_ptr& b) { log->bound.push_back(b); },
    [](preemption_ended_atom, const model::pod_ptr&, bool) {},
    [](tick_atom) {},
    [log](barrier_atom, std::uint64_t id, const caf::actor&) {
      log->arrivals.push_back("barrier:" + std::to_string(id));
    },
    [](subscribe_atom, const caf::actor&) {},
    [](stats_atom) -> queue_stats { return {}; },
  };
}

struct cache_log {
  std::size_t subscribed = 0;
  std::vector<assume_request_ptr> assumes;
  std::uint64_t generation = 100;
};

cache_actor::behavior_type fake_cache(cache_actor::pointer, cache_log* log) {
  return {
    [](events_atom, const object_events_ptr&) {},
    [](flush_atom) {},
    [](synced_atom) {},
    [log](assume_atom, const assume_request_ptr& req) -> assume_reply_ptr {
      log->assumes.push_back(req);
      auto reply = std::make_shared<assume_reply>();
      reply->ok = true;
      auto assumed = std::make_shared<model::pod>(*req->pod);
      assumed->node_name = req->node;
      reply->assumed = std::move(assumed);
      reply->generation = ++log->generation;
      return reply;
    },
    [](finish_atom, const model::pod_ptr&) {},
    [](forget_atom, const model::pod_ptr&) {},
    [log](subscribe_atom, const coordinator_actor&) { ++log->subscribed; },
    [](barrier_atom, std::uint64_t, const caf::actor&) {},
    [](tick_atom) {},
    [](stats_atom) -> cache_stats { return {}; },
  };
}

/// Deltas a shard received.
shard_actor::behavior_type fake_shard(shard_actor::pointer,
                                      std::vector<shard_delta_ptr>* log) {
  return {
    [log](delta_atom, const shard_delta_ptr& d) { log->push_back(d); },
    [](scan_atom, const scan_request_ptr&) -> scan_reply_ptr {
      return nullptr;
    },
    [](filter_atom, const filter_request_ptr&) -> filter_reply_ptr {
      return nullptr;
    },
    [](score_atom, const score_request_ptr&) -> score_reply_ptr {
      return nullptr;
    },
    [](preempt_atom, const preempt_request_ptr&) -> preempt_reply_ptr {
      return nullptr;
    },
  };
}

binder_actor::behavior_type fake_binder(binder_actor::pointer,
                                        std::vector<bind_request_ptr>* log) {
  return {
    [log](bind_atom, const bind_request_ptr& r) { log->push_back(r); },
    [](bind_done_atom, std::uint64_t, std::uint8_t, const std::string&) {},
    [](evict_atom, const eviction_ptr&) {},
    [](deleted_atom, std::uint64_t, std::uint8_t, const std::string&) {},
  };
}

/// A sink that records and binds at once.
class recording_sink final : public cluster_sink {
public:
  void bind(const model::pod_ptr& pod, model::symbol node,
            std::function<void(error)> done) override {
    bound.emplace_back(pod->name, node.str());
    done({});
  }
  void scheduled(const model::pod_ptr&, model::symbol) override {
  }
  void unschedulable(const model::pod_ptr& pod,
                     const failure_report& r) override {
    failed.emplace_back(pod->name, r.message);
  }
  void preempt(const model::pod_ptr&, const model::pod_ptr&, model::symbol,
               std::function<void(error)> done) override {
    done({});
  }
  void clear_nomination(const model::pod_ptr&) override {
  }
  std::vector<std::pair<std::string, std::string>> bound;
  std::vector<std::pair<std::string, std::string>> failed;
};

// ---------------------------------------------------------- helpers

model::node_info_ptr node_info(const std::string& name, const char* cpu) {
  return test::make_node_info_ptr(
    test::make_node(name).cpu(cpu).memory("8Gi").pods(110).build());
}

shard_delta_ptr delta(std::uint64_t generation,
                      std::vector<model::node_info_ptr> nodes) {
  auto d = std::make_shared<shard_delta>();
  d->generation = generation;
  auto order = std::make_shared<std::vector<model::symbol>>();
  for (const auto& n : nodes)
    order->push_back(n->name());
  d->upserted = std::move(nodes);
  d->order = std::move(order);
  return d;
}

/// A filter request for a plain pod on the default profile.
struct prepared {
  plugins::cluster_context ctx;
  filter_request_ptr request(const model::pod_ptr& p, std::uint64_t min_gen) {
    auto prof = default_profile();
    auto start = plugins::begin_cycle(*prof, *p, ctx);
    auto req = std::make_shared<filter_request>();
    req->pod = p;
    req->profile = prof;
    req->state
      = std::make_shared<const plugins::cycle_state>(std::move(start.state));
    req->quota = 100;
    req->min_generation = min_gen;
    return req;
  }
};

// ---------------------------------------------------------------- tests

// A filter request that needs a newer generation waits inside the shard
// until the delta carrying it arrives; later requests queue behind it, and
// all are answered in arrival order.
TEST_F(deterministic, ShardServesRequestsOnlyOnceItsViewIsCurrent) {
  auto shard = spawn_shard(sys_, shard_config{});
  prepared prep;
  prep.ctx.node_count = 1;
  auto pod = test::make_pod("p").cpu("1").build();
  std::vector<std::pair<char, filter_reply_ptr>> replies;
  // Spawned with arguments: CAF 0.17.6 dereferences a null argument tuple
  // when a function actor takes none (UBSan reports it).
  auto ask = [&](char tag, filter_request_ptr req) {
    sys_.spawn(
      [&replies](caf::event_based_actor* self, char t, filter_request_ptr r,
                 shard_actor target) {
        self->request(target, caf::infinite, filter_atom::value, r)
          .then([&replies, t](const filter_reply_ptr& reply) {
            replies.emplace_back(t, reply);
          });
      },
      tag, std::move(req), shard);
  };
  ask('a', prep.request(pod, 5));
  run();
  EXPECT_TRUE(replies.empty()) << "answered before generation 5 arrived";
  ask('b', prep.request(pod, 0));
  run();
  EXPECT_TRUE(replies.empty()) << "a later request overtook a waiting one";
  caf::anon_send(shard, delta_atom::value, delta(3, {node_info("n1", "4")}));
  run();
  EXPECT_TRUE(replies.empty()) << "generation 3 is not enough";
  caf::anon_send(shard, delta_atom::value,
                 delta(5, {node_info("n1", "4"), node_info("n2", "4")}));
  run();
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0].first, 'a');
  EXPECT_EQ(replies[1].first, 'b');
  for (const auto& [tag, r] : replies) {
    EXPECT_EQ(r->generation, 5u);
    EXPECT_EQ(r->result.feasible.size(), 2u) << "request " << tag;
  }
  // Current requests are served at once.
  ask('c', prep.request(pod, 5));
  run();
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[2].first, 'c');
  caf::anon_send_exit(shard, caf::exit_reason::user_shutdown);
  run();
}

// Event batches that wait in the cache's mailbox together are published
// once: one delta per shard with every node they added and one queue input
// message with every event. A barrier behind them still reaches the queue after
// those inputs, and a batch arriving alone is published on its own.
TEST_F(deterministic, CachePublishesWaitingEventsTogether) {
  manual_clock clk;
  queue_log qlog;
  std::vector<shard_delta_ptr> deltas;
  auto shard = sys_.spawn(fake_shard, &deltas);
  auto q = sys_.spawn(fake_queue, &qlog);
  cache_config cfg;
  auto cache = spawn_cache(sys_, cfg, clk, {shard}, q);
  auto events = [](std::vector<model::object> objs) {
    auto out = std::make_shared<object_events>();
    for (auto& o : objs)
      out->push_back({object_event::kind::added, std::move(o)});
    return object_events_ptr{std::move(out)};
  };
  auto node = [](const std::string& name) -> model::object {
    return test::make_node(name).cpu("4").build();
  };
  auto pod = [](const std::string& name) -> model::object {
    return test::make_pod(name).build();
  };
  caf::anon_send(cache, events_atom::value, events({node("n1")}));
  caf::anon_send(cache, events_atom::value, events({node("n2"), pod("a")}));
  caf::anon_send(cache, events_atom::value, events({node("n3"), pod("b")}));
  caf::anon_send(cache, barrier_atom::value, std::uint64_t{7}, caf::actor{});
  run();
  ASSERT_EQ(deltas.size(), 1u);
  EXPECT_EQ(deltas[0]->upserted.size(), 3u);
  ASSERT_TRUE(deltas[0]->order);
  EXPECT_EQ(deltas[0]->order->size(), 3u);
  // Five inputs: the two pending pods and the three node additions (which
  // may make waiting pods schedulable).
  EXPECT_EQ(qlog.arrivals, (std::vector<std::string>{"input:5", "barrier:7"}));
  caf::anon_send(cache, events_atom::value, events({node("n4")}));
  run();
  ASSERT_EQ(deltas.size(), 2u);
  EXPECT_EQ(deltas[1]->upserted.size(), 1u);
  caf::anon_send_exit(cache, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(q, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(shard, caf::exit_reason::user_shutdown);
  run();
}

// The coordinator asks for work at once but starts no cycle before the
// cache's first view; then the held pod runs: filter, assume, outcome
// (which returns the slot), bind.
TEST_F(deterministic, CoordinatorHoldsWorkUntilTheFirstView) {
  queue_log qlog;
  cache_log clog;
  std::vector<bind_request_ptr> binds;
  recording_sink sink;
  auto shard = spawn_shard(sys_, shard_config{});
  auto q = sys_.spawn(fake_queue, &qlog);
  auto c = sys_.spawn(fake_cache, &clog);
  auto b = sys_.spawn(fake_binder, &binds);
  coordinator_config cfg;
  cfg.shards = 1;
  cfg.max_inflight_cycles = 2;
  auto coord
    = spawn_coordinator(sys_, cfg, {default_profile()}, sink, {shard}, c, q, b);
  run();
  EXPECT_EQ(clog.subscribed, 1u);
  ASSERT_EQ(qlog.wants, (std::vector<std::int32_t>{2}));
  // Work before any view: held.
  auto batch = std::make_shared<work_batch>();
  batch->pods.push_back(
    queued_pod_info{test::make_pod("p").cpu("1").build(), 1, 1, 0});
  caf::anon_send(coord, work_atom::value, work_batch_ptr{batch});
  run();
  EXPECT_TRUE(clog.assumes.empty());
  EXPECT_TRUE(qlog.outcomes.empty());
  EXPECT_TRUE(sink.failed.empty()) << "the pod must not fail for lack of nodes";
  // The shard learns its node, then the coordinator its first view.
  caf::anon_send(shard, delta_atom::value, delta(7, {node_info("n1", "4")}));
  auto view = std::make_shared<cluster_view>();
  view->generation = 7;
  auto ctx = std::make_shared<plugins::cluster_context>();
  ctx->generation = 7;
  ctx->node_count = 1;
  view->context = ctx;
  view->shard_nodes = {1};
  view->node_shard
    = std::make_shared<const std::unordered_map<model::symbol, std::uint32_t>>(
      std::unordered_map<model::symbol, std::uint32_t>{
        {model::symbol{"n1"}, 0}});
  caf::anon_send(coord, view_atom::value, cluster_view_ptr{view});
  run();
  ASSERT_EQ(clog.assumes.size(), 1u);
  EXPECT_EQ(clog.assumes[0]->node.str(), "n1");
  EXPECT_EQ(clog.assumes[0]->shard_generations,
            (std::vector<std::uint64_t>{7}));
  ASSERT_EQ(binds.size(), 1u);
  EXPECT_EQ(binds[0]->node.str(), "n1");
  EXPECT_EQ(binds[0]->pod->node_name.str(), "n1");
  ASSERT_EQ(qlog.outcomes.size(), 1u);
  EXPECT_EQ(qlog.outcomes[0]->type, cycle_outcome::kind::assumed);
  EXPECT_EQ(qlog.outcomes[0]->credit, 1) << "the freed slot goes back";
  EXPECT_EQ(qlog.wants, (std::vector<std::int32_t>{2}))
    << "no second message for the credit";
  for (const auto& h : std::vector<caf::actor>{
         caf::actor_cast<caf::actor>(coord), caf::actor_cast<caf::actor>(q),
         caf::actor_cast<caf::actor>(c), caf::actor_cast<caf::actor>(b),
         caf::actor_cast<caf::actor>(shard)})
    caf::anon_send_exit(h, caf::exit_reason::user_shutdown);
  run();
}

/// A fake coordinator: asks `q` for `credits` pods at start and records
/// the pods it is given.
coordinator_actor::behavior_type
recording_consumer(coordinator_actor::pointer self, queue_actor q,
                   std::int32_t credits, std::vector<std::string>* popped) {
  self->send(q, want_atom::value, credits);
  return {
    [](view_atom, const cluster_view_ptr&) {},
    [](nominees_atom, const queue_inputs_ptr&) {},
    [popped](work_atom, const work_batch_ptr& batch) {
      for (const auto& item : batch->pods)
        popped->push_back(item.pod->name + "#" + std::to_string(item.attempts));
    },
  };
}

queue_inputs_ptr pod_added(const model::pod_ptr& p) {
  auto inputs = std::make_shared<std::vector<queue_input>>();
  queue_input in;
  in.type = queue_input::kind::pod_added;
  in.new_pod = p;
  inputs->push_back(std::move(in));
  return inputs;
}

// The queue actor's backoff runs on two clocks: CAF's (the tick timer) and
// the injected one (the backoff deadline). The test moves both; the failed
// pod comes back on the first tick after the whole-second window in which
// its 1 s backoff ends ([1 s, 2 s)), and not before.
TEST_F(deterministic, QueueActorReleasesBackoffOnTheTick) {
  manual_clock clk;
  auto q = spawn_queue(sys_, queue_config{}, clk, {default_profile()}, 1s);
  std::vector<std::string> popped;
  auto consumer = sys_.spawn(recording_consumer, q, 4, &popped);
  auto pod = test::make_pod("p").build();
  caf::anon_send(q, input_atom::value, pod_added(pod));
  run();
  ASSERT_EQ(popped, (std::vector<std::string>{"p#1"}));
  auto failed = std::make_shared<cycle_outcome>();
  failed->type = cycle_outcome::kind::error;
  failed->pod = pod;
  caf::anon_send(q, outcome_atom::value, cycle_outcome_ptr{failed});
  run();
  // A tick 1,999 ms after the failure: still waiting.
  clk.advance(1999ms);
  sched_.advance_time(1s);
  run();
  EXPECT_EQ(popped.size(), 1u);
  // The next tick, after the deadline: back to the consumer.
  clk.advance(1ms);
  sched_.advance_time(1s);
  run();
  EXPECT_EQ(popped, (std::vector<std::string>{"p#1", "p#2"}));
  caf::anon_send_exit(q, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  run();
}

/// Collects what a memory_cluster-backed pipeline decided.
std::vector<std::string> describe(const memory_cluster& cluster) {
  std::vector<std::string> out;
  for (const auto& r : cluster.results())
    out.push_back(r.pod->name + " " + r.node.str() + " " + r.message);
  return out;
}

// The whole pipeline under the test coordinator: settling queue on a small
// randomized cluster with several shards and cycles in flight. Every
// interleaving CAF's test scheduler produces is a legal one, so the final
// placement must break no hard rule; and the same run twice decides the
// same (the logic adds no nondeterminism of its own).
TEST_F(deterministic, WholePipelineRunsToCompletion) {
  gen_options o;
  o.nodes = 40;
  o.pending = 150;
  o.zones = 3;
  o.tainted = 0.2;
  o.tolerations = 0.3;
  o.host_ports = 0.2;
  o.node_affinity = 0.2;
  o.anti_affinity = 0.2;
  o.spread = 0.2;
  o.min_pods = 4;
  o.max_pods = 8;
  o.max_bound_per_node = 1;
  auto spec = generate_cluster(o, 31);
  auto objects = spec.objects();
  std::vector<std::string> first;
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    memory_cluster cluster{objects};
    pipeline_config pc;
    pc.shards = 3;
    pc.max_inflight_cycles = 8;
    pc.seed = 5;
    pc.requeue = requeue_policy::settle;
    manual_clock clk;
    auto p
      = start_pipeline(sys_, pc, {default_profile()}, cluster, cluster, clk);
    run();
    EXPECT_FALSE(sched_.has_job());
    std::map<std::string, std::string> where;
    for (const auto& pod : cluster.pods())
      if (pod->is_bound())
        where[pod->name] = pod->node_name.str();
    std::size_t decided = 0;
    for (const auto& r : cluster.results())
      decided += r.state != memory_cluster::pod_result::status::pending
                 || !r.pod->scheduling_gates.empty();
    EXPECT_EQ(decided, spec.pending.size());
    auto violations = check_placements(spec, where);
    EXPECT_TRUE(violations.empty()) << violations.front();
    stop_pipeline(p, cluster);
    run();
    if (round == 0)
      first = describe(cluster);
    else
      EXPECT_EQ(describe(cluster), first);
  }
}

/// Asks `handle` for its stats under the test coordinator.
template <class Stats, class Handle>
Stats stats_of(caf::actor_system& sys, caf::scheduler::test_coordinator& sched,
               const Handle& handle) {
  Stats out;
  bool answered = false;
  // The handle is an argument, not a capture: CAF 0.17.6 dereferences a
  // null argument tuple when a function actor takes none.
  sys.spawn(
    [&out, &answered](caf::event_based_actor* self, Handle target) {
      self->request(target, caf::infinite, stats_atom::value)
        .then([&out, &answered](const Stats& s) {
          out = s;
          answered = true;
        });
    },
    handle);
  sched.run();
  EXPECT_TRUE(answered) << "no stats reply";
  return out;
}

/// Names of the bound pods, with their nodes.
std::map<std::string, std::string> placements(const memory_cluster& cluster) {
  std::map<std::string, std::string> where;
  for (const auto& pod : cluster.pods())
    if (pod->is_bound())
      where[pod->name] = pod->node_name.str();
  return where;
}

pipeline_config live_config(std::size_t shards, std::size_t inflight) {
  pipeline_config pc;
  pc.shards = shards;
  pc.max_inflight_cycles = inflight;
  pc.seed = 3;
  // The live queue (as `tessera run`): backoff, no final failures.
  pc.requeue = requeue_policy::live;
  pc.tick = 1s;
  return pc;
}

// Several cycles in flight read the same view and all pick the roomiest
// node, but each pod needs host port 8080: only the first assume there
// holds. The others conflict, change nothing in the cache, go back to the
// head of the queue without backoff or a FailedScheduling, and their retry
// (which sees the assumed pod) lands on another node. Every pod ends bound,
// one per node.
TEST_F(deterministic, ConflictingAssumesRollBackAndRetry) {
  std::vector<model::object> objects;
  objects.emplace_back(
    test::make_node("roomy").cpu("32").memory("64Gi").pods(110).build());
  for (int i = 0; i < 3; ++i)
    objects.emplace_back(test::make_node("small-" + std::to_string(i))
                           .cpu("2")
                           .memory("4Gi")
                           .pods(110)
                           .build());
  for (int i = 0; i < 4; ++i)
    objects.emplace_back(test::make_pod("web-" + std::to_string(i))
                           .cpu("100m")
                           .host_port(8080)
                           .build());
  memory_cluster cluster{objects};
  manual_clock clk;
  auto p = start_pipeline(sys_, live_config(1, 4), {default_profile()}, cluster,
                          cluster, clk);
  run();
  auto cache = stats_of<cache_stats>(sys_, sched_, p.cache);
  EXPECT_GE(cache.conflicts, 1u) << "no two cycles raced for roomy";
  auto where = placements(cluster);
  ASSERT_EQ(where.size(), 4u) << "a pod was lost or not retried";
  std::set<std::string> nodes;
  for (const auto& [pod, node] : where)
    nodes.insert(node);
  EXPECT_EQ(nodes.size(), 4u) << "two pods share host port 8080";
  EXPECT_EQ(cluster.bindings(), 4u);
  for (const auto& r : cluster.results()) {
    SCOPED_TRACE(r.pod->name);
    EXPECT_EQ(r.state, memory_cluster::pod_result::status::scheduled);
    EXPECT_TRUE(r.message.empty()) << "a conflict is not a failure";
    EXPECT_EQ(r.attempts, 1) << "a conflict reported an attempt";
  }
  EXPECT_EQ(cache.assumed_pods, 0u) << "every binding was confirmed";
  auto queue = stats_of<queue_stats>(sys_, sched_, p.queue);
  EXPECT_TRUE(queue.idle());
  EXPECT_EQ(queue.backoff, 0u);
  stop_pipeline(p, cluster);
  run();
}

/// The memory cluster as sink, except that the first bind of every pod
/// whose name is listed fails as an API timeout would.
class flaky_sink final : public cluster_sink {
public:
  flaky_sink(memory_cluster& inner, std::set<std::string> fail_once)
    : inner_(inner), fail_once_(std::move(fail_once)) {
  }
  void bind(const model::pod_ptr& pod, model::symbol node,
            std::function<void(error)> done) override {
    ++binds[pod->name];
    if (fail_once_.erase(pod->name) != 0) {
      done(make_error(ec::unavailable, "the API server timed out"));
      return;
    }
    inner_.bind(pod, node, std::move(done));
  }
  void scheduled(const model::pod_ptr& pod, model::symbol node) override {
    inner_.scheduled(pod, node);
  }
  void unschedulable(const model::pod_ptr& pod,
                     const failure_report& r) override {
    failures.push_back(pod->name + " " + r.reason);
    inner_.unschedulable(pod, r);
  }
  void preempt(const model::pod_ptr& victim, const model::pod_ptr& preemptor,
               model::symbol node, std::function<void(error)> done) override {
    inner_.preempt(victim, preemptor, node, std::move(done));
  }
  void clear_nomination(const model::pod_ptr& pod) override {
    inner_.clear_nomination(pod);
  }
  std::map<std::string, int> binds;
  std::vector<std::string> failures;

private:
  memory_cluster& inner_;
  std::set<std::string> fail_once_;
};

// Binds that fail are undone (Unreserve, forget: the cache frees the room
// at once) and the pod backs off on the injected clock before it is
// retried: 1 s, rounded up to the end of its whole-second window. No pod is
// lost and no node ends overcommitted: the nodes have room for exactly the
// pods, so a leaked assume would leave one unplaced.
TEST_F(deterministic, FailedBindsLoseNoPod) {
  std::vector<model::object> objects;
  for (int i = 0; i < 3; ++i)
    objects.emplace_back(test::make_node("n" + std::to_string(i))
                           .cpu("2")
                           .memory("8Gi")
                           .pods(110)
                           .build());
  std::set<std::string> flaky;
  for (int i = 0; i < 6; ++i) {
    std::string name = "p" + std::to_string(i);
    objects.emplace_back(test::make_pod(name).cpu("1").build());
    if (i % 2 == 0)
      flaky.insert(name);
  }
  memory_cluster cluster{objects};
  flaky_sink sink{cluster, flaky};
  manual_clock clk;
  auto p = start_pipeline(sys_, live_config(2, 4), {default_profile()}, cluster,
                          sink, clk);
  run();
  EXPECT_EQ(cluster.bindings(), 3u) << "only the steady pods are bound";
  auto queue = stats_of<queue_stats>(sys_, sched_, p.queue);
  EXPECT_EQ(queue.backoff, 3u) << "the failed pods back off";
  auto cache = stats_of<cache_stats>(sys_, sched_, p.cache);
  EXPECT_EQ(cache.assumed_pods, 0u) << "a failed bind left its assume";
  // A tick before the backoff's window is over: nothing moves.
  clk.advance(1900ms);
  sched_.advance_time(1s);
  run();
  EXPECT_EQ(cluster.bindings(), 3u) << "retried before the backoff ended";
  clk.advance(100ms);
  sched_.advance_time(1s);
  run();
  EXPECT_EQ(cluster.bindings(), 6u);
  auto where = placements(cluster);
  ASSERT_EQ(where.size(), 6u);
  std::map<std::string, int> per_node;
  for (const auto& [pod, node] : where)
    ++per_node[node];
  for (const auto& [node, count] : per_node)
    EXPECT_EQ(count, 2) << node << " holds " << count << " 1-cpu pods";
  for (const auto& [pod, count] : sink.binds)
    EXPECT_EQ(count, flaky.count(pod) ? 2 : 1) << pod;
  std::sort(sink.failures.begin(), sink.failures.end());
  EXPECT_EQ(sink.failures,
            (std::vector<std::string>{"p0 SchedulerError", "p2 SchedulerError",
                                      "p4 SchedulerError"}));
  queue = stats_of<queue_stats>(sys_, sched_, p.queue);
  EXPECT_TRUE(queue.idle());
  stop_pipeline(p, cluster);
  run();
}

} // namespace
} // namespace tessera::pipeline_test
