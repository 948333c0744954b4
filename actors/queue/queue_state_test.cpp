// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/queue/queue_state.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "model/pod_key.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace tessera::actors {
namespace {

using test::default_profile;

using namespace std::chrono_literals;
using kind = cycle_outcome::kind;
using plugins::action;
using plugins::event_resource;

class queue_state_test : public ::testing::Test {
protected:
  queue_state make(metrics::scheduler_metrics* m = nullptr,
                   bool pop_from_backoff = true) {
    queue_config cfg;
    cfg.metrics = m;
    cfg.pop_from_backoff = pop_from_backoff;
    return queue_state{cfg, clock_, {default_profile()}};
  }

  static std::shared_ptr<cycle_outcome> outcome(const model::pod_ptr& p, kind k,
                                                std::vector<std::string> plugins
                                                = {}) {
    auto o = std::make_shared<cycle_outcome>();
    o->type = k;
    o->pod = p;
    o->unschedulable_plugins = std::move(plugins);
    return o;
  }

  /// A cycle that nominated `p` and handed victim deletions to the binder.
  static std::shared_ptr<cycle_outcome> preempted(const model::pod_ptr& p) {
    auto o = outcome(p, kind::unschedulable, {"NodeResourcesFit"});
    o->nominated_node = model::symbol{"n1"};
    o->preempting = true;
    return o;
  }

  static void pod_deleted(queue_state& q, const model::pod_ptr& p) {
    q.on_cluster_event({event_resource::pod, action::remove},
                       std::make_shared<const model::object>(p), nullptr);
  }

  static void node_added(queue_state& q, const model::node_ptr& n) {
    q.on_cluster_event({event_resource::node, action::add}, nullptr,
                       std::make_shared<const model::object>(n));
  }

  static std::string pop_name(queue_state& q) {
    auto next = q.pop();
    return next ? next->pod->name : std::string{"<none>"};
  }

  /// A queue whose one pod, `preemptor_`, is in its cycle.
  queue_state preemptor_in_flight() {
    auto q = make();
    q.add(preemptor_, 0);
    EXPECT_EQ(pop_name(q), "p");
    return q;
  }

  manual_clock clock_;
  model::pod_ptr preemptor_
    = test::make_pod("p").priority(100).cpu("1").build();
  /// A pod the preemptor's victims stand for.
  model::pod_ptr victim_ = test::make_pod("victim").node("n1").cpu("1").build();
};

// Backoff after the n-th failed attempt: 1 s, 2 s, 4 s, 8 s, then capped at
// 10 s. The pod is not poppable a moment before expiry and is right at it
// (SchedulerPopFromBackoffQ off: no whole-second windows).
TEST_F(queue_state_test, BackoffDoublesPerAttemptUpToTheCap) {
  struct test_case {
    std::int32_t attempts;
    std::chrono::milliseconds backoff;
  };
  const std::vector<test_case> cases{
    {1, 1000ms},  {2, 2000ms},  {3, 4000ms},  {4, 8000ms},
    {5, 10000ms}, {6, 10000ms}, {9, 10000ms},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE("after " + std::to_string(tc.attempts) + " attempts");
    auto q = make(nullptr, false);
    auto p = test::make_pod("p").cpu("1").build();
    q.add(p, 0);
    for (std::int32_t i = 1; i <= tc.attempts; ++i) {
      if (i > 1) {
        clock_.advance(1h);
        q.flush(clock_.now());
      }
      auto popped = q.pop();
      ASSERT_TRUE(popped.has_value());
      ASSERT_EQ(popped->attempts, i);
      q.on_outcome(*outcome(p, kind::error));
    }
    EXPECT_EQ(q.stats().backoff, 1u);
    q.flush(clock_.now() + tc.backoff - 1ms);
    EXPECT_EQ(pop_name(q), "<none>") << "popped before the backoff ended";
    q.flush(clock_.now() + tc.backoff);
    EXPECT_EQ(q.stats().backoff, 0u);
    EXPECT_EQ(pop_name(q), "p");
  }
}

// The flush moves every expired pod, in expiry order, and no other.
TEST_F(queue_state_test, BackoffFlushMovesExpiredPodsInExpiryOrder) {
  auto q = make(nullptr, false);
  auto a = test::make_pod("a").build();
  auto b = test::make_pod("b").build();
  auto c = test::make_pod("c").build();
  q.add(a, 0);
  q.add(b, 0);
  q.add(c, 0);
  // a fails twice (2 s backoff), b once (1 s), c stays active.
  ASSERT_EQ(pop_name(q), "a");
  q.on_outcome(*outcome(a, kind::error));
  clock_.advance(5s);
  q.flush(clock_.now());
  ASSERT_EQ(pop_name(q), "a");
  ASSERT_EQ(pop_name(q), "b");
  q.on_outcome(*outcome(a, kind::error));
  q.on_outcome(*outcome(b, kind::error));
  EXPECT_EQ(q.stats().backoff, 2u);
  clock_.advance(1s);
  q.flush(clock_.now());
  EXPECT_EQ(q.stats().backoff, 1u);
  EXPECT_EQ(pop_name(q), "c");
  EXPECT_EQ(pop_name(q), "b");
  EXPECT_EQ(pop_name(q), "<none>");
  clock_.advance(1s);
  q.flush(clock_.now());
  EXPECT_EQ(pop_name(q), "a");
}

// Higher priority first, then arrival order.
TEST_F(queue_state_test, PopsByPriorityThenArrival) {
  auto q = make();
  q.add(test::make_pod("low-1").priority(0).build(), 0);
  clock_.advance(1ms);
  q.add(test::make_pod("high").priority(100).build(), 0);
  clock_.advance(1ms);
  q.add(test::make_pod("low-2").priority(0).build(), 0);
  clock_.advance(1ms);
  q.add(test::make_pod("mid").priority(10).build(), 0);
  std::vector<std::string> order;
  while (auto p = q.pop())
    order.push_back(p->pod->name);
  EXPECT_EQ(order, (std::vector<std::string>{"high", "mid", "low-1", "low-2"}));
}

// A pod NodeResourcesFit rejected comes back when a node it would fit on is
// added (through the plugin's hint), not for a node too small for it, and
// not for a plugin that did not reject it.
TEST_F(queue_state_test, NodeAddRequeuesThroughTheRejectingPluginsHints) {
  struct test_case {
    std::string name;
    std::vector<std::string> rejected_by;
    model::node_ptr added;
    bool requeued;
  };
  const std::vector<test_case> cases{
    {"big node after NodeResourcesFit",
     {"NodeResourcesFit"},
     test::make_node("big").cpu("8").memory("32Gi").pods(110).build(),
     true},
    {"tiny node after NodeResourcesFit",
     {"NodeResourcesFit"},
     test::make_node("tiny").cpu("500m").memory("32Gi").pods(110).build(),
     false},
    {"any node after NodeAffinity (label matches)",
     {"NodeAffinity"},
     test::make_node("gold")
       .cpu("8")
       .memory("32Gi")
       .label("tier", "gold")
       .pods(110)
       .build(),
     true},
    {"node without the label after NodeAffinity",
     {"NodeAffinity"},
     test::make_node("plain").cpu("8").memory("32Gi").pods(110).build(),
     false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto q = make();
    auto p = test::make_pod("p")
               .cpu("2")
               .memory("1Gi")
               .required_node_affinity("tier", "In", {"gold"})
               .build();
    q.add(p, 0);
    ASSERT_TRUE(q.pop().has_value());
    q.on_outcome(*outcome(p, kind::unschedulable, tc.rejected_by));
    ASSERT_EQ(q.stats().unschedulable, 1u);
    node_added(q, tc.added);
    EXPECT_EQ(q.stats().unschedulable, tc.requeued ? 0u : 1u);
    // Requeued pods wait out their backoff (1 s after one attempt).
    EXPECT_EQ(q.stats().backoff, tc.requeued ? 1u : 0u);
  }
}

// A node update that grows allocatable requeues a NodeResourcesFit
// rejection; a taint-only update does not.
TEST_F(queue_state_test, NodeUpdateRequeuesOnlyForRelevantChanges) {
  auto q = make();
  auto p = test::make_pod("p").cpu("3").build();
  q.add(p, 0);
  ASSERT_TRUE(q.pop().has_value());
  q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
  auto small = test::make_node("n").cpu("2").memory("8Gi").pods(110).build();
  auto tainted = test::make_node("n")
                   .cpu("2")
                   .memory("8Gi")
                   .taint("k", "v", "NoSchedule")
                   .pods(110)
                   .build();
  auto grown = test::make_node("n").cpu("4").memory("8Gi").pods(110).build();
  q.on_cluster_event({event_resource::node, action::update_node_taint},
                     std::make_shared<const model::object>(small),
                     std::make_shared<const model::object>(tainted));
  EXPECT_EQ(q.stats().unschedulable, 1u);
  q.on_cluster_event({event_resource::node, action::update_node_allocatable},
                     std::make_shared<const model::object>(small),
                     std::make_shared<const model::object>(grown));
  EXPECT_EQ(q.stats().unschedulable, 0u);
}

// An event that arrives while the pod's cycle runs and could help it makes
// the queue retry the pod instead of parking it; an irrelevant one does
// not.
TEST_F(queue_state_test, EventDuringTheCycleRequeuesInsteadOfParking) {
  struct test_case {
    std::string name;
    model::node_ptr added_in_flight;
    bool parked;
  };
  const std::vector<test_case> cases{
    {"helpful node added in flight",
     test::make_node("big").cpu("8").memory("8Gi").pods(110).build(), false},
    {"useless node added in flight",
     test::make_node("tiny").cpu("1").memory("8Gi").pods(110).build(), true},
    {"nothing happened", nullptr, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto q = make();
    auto p = test::make_pod("p").cpu("4").build();
    auto other = test::make_pod("other").build();
    q.add(p, 0);
    q.add(other, 0);
    ASSERT_EQ(pop_name(q), "p");
    if (tc.added_in_flight)
      node_added(q, tc.added_in_flight);
    q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
    EXPECT_EQ(q.stats().unschedulable, tc.parked ? 1u : 0u);
    EXPECT_EQ(q.stats().backoff, tc.parked ? 0u : 1u);
    // An event before the pop does not count.
    auto q2 = make();
    q2.add(p, 0);
    if (tc.added_in_flight)
      node_added(q2, tc.added_in_flight);
    ASSERT_TRUE(q2.pop().has_value());
    q2.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
    EXPECT_EQ(q2.stats().unschedulable, 1u);
  }
}

// A relevant change of the pod itself during its cycle also requeues it.
TEST_F(queue_state_test, PodUpdateDuringTheCycleRequeues) {
  auto q = make();
  auto p = test::make_pod("p").cpu("4").build();
  q.add(p, 0);
  ASSERT_TRUE(q.pop().has_value());
  auto smaller = test::make_pod("p").cpu("1").build();
  q.update(p, smaller, 0);
  q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
  EXPECT_EQ(q.stats().unschedulable, 0u);
  EXPECT_EQ(q.stats().backoff, 1u);
}

TEST_F(queue_state_test, GatedPodsNeverPopUntilTheGatesAreGone) {
  auto q = make();
  auto gated
    = test::make_pod("gated").priority(100).gate("g1").gate("g2").build();
  auto plain = test::make_pod("plain").build();
  q.add(gated, 0);
  q.add(plain, 0);
  EXPECT_EQ(q.stats().gated, 1u);
  EXPECT_EQ(pop_name(q), "plain");
  EXPECT_EQ(pop_name(q), "<none>");
  // Removing one gate is not enough.
  auto one_left = test::make_pod("gated").priority(100).gate("g2").build();
  q.update(gated, one_left, 0);
  EXPECT_EQ(q.stats().gated, 1u);
  EXPECT_EQ(pop_name(q), "<none>");
  auto open = test::make_pod("gated").priority(100).build();
  q.update(one_left, open, 0);
  EXPECT_EQ(q.stats().gated, 0u);
  EXPECT_EQ(pop_name(q), "gated");
}

// Pods parked longer than 5 minutes go back even without an event.
TEST_F(queue_state_test, LeftoverUnschedulablePodsFlushAfterFiveMinutes) {
  auto q = make();
  auto p = test::make_pod("p").build();
  q.add(p, 0);
  ASSERT_TRUE(q.pop().has_value());
  q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
  clock_.advance(5min - 1s);
  q.flush(clock_.now());
  EXPECT_EQ(q.stats().unschedulable, 1u);
  clock_.advance(1s);
  q.flush(clock_.now());
  EXPECT_EQ(q.stats().unschedulable, 0u);
  // Parked for 5 minutes, its 1 s backoff is long over: active at once.
  EXPECT_EQ(pop_name(q), "p");
}

// A preemptor waits, parked, for its victims' deletions. When one fails it
// is tried again at once, whether it is parked or still in its cycle.
TEST_F(queue_state_test, APreemptorWhoseVictimStaysIsTriedAgain) {
  auto q = make();
  auto parked = test::make_pod("parked").priority(100).build();
  auto busy = test::make_pod("busy").priority(100).build();
  q.add(parked, 0);
  q.add(busy, 0);
  ASSERT_TRUE(q.pop().has_value());
  q.on_outcome(*preempted(parked));
  ASSERT_EQ(q.stats().unschedulable, 1u);
  q.on_preemption_ended(*parked, true);
  EXPECT_EQ(q.stats().unschedulable, 0u);
  EXPECT_EQ(pop_name(q), "parked") << "before its backoff is over";

  q.on_preemption_ended(*busy, true); // in activeQ: nothing to do
  ASSERT_EQ(pop_name(q), "busy");
  q.on_preemption_ended(*busy, true); // in flight: requeued, not parked
  q.on_outcome(*preempted(busy));
  EXPECT_EQ(q.stats().unschedulable, 0u);
  EXPECT_EQ(q.stats().backoff, 1u);
  q.on_preemption_ended(*test::make_pod("unknown").build(), true);
}

// DefaultPreemption's PreEnqueue: while its victims' deletions run, a
// preemptor stays parked whatever happens — the first victim's deletion
// event, an update, the 5-minute flush — so that it does not run a cycle
// against victims still on their way out. When they end, an event that
// came meanwhile moves it at once, backoff respected; without one it waits
// for the victims' deletion events, which reach the queue through the
// cache after the API has answered the deletions.
TEST_F(queue_state_test, APreemptorIsHeldUntilItsVictimsDeletionsEnd) {
  auto q = preemptor_in_flight();
  const auto& p = preemptor_;
  const auto& victim = victim_;
  q.on_outcome(*preempted(p));
  ASSERT_EQ(q.stats().unschedulable, 1u);

  pod_deleted(q, victim);
  node_added(q, test::make_node("n2").cpu("4").build());
  auto relabelled = test::make_pod("p").priority(100).cpu("1").label("a", "b");
  q.update(p, relabelled.build(), 0);
  clock_.advance(6min);
  q.flush(clock_.now());
  EXPECT_EQ(q.stats().unschedulable, 1u) << "held while deleting";

  q.on_preemption_ended(*p, false);
  EXPECT_EQ(q.stats().unschedulable, 0u);
  EXPECT_EQ(pop_name(q), "p") << "its 1 s backoff ended long ago";

  // Held again by a second preemption, with no event before the report.
  q.on_outcome(*preempted(p));
  q.on_preemption_ended(*p, false);
  EXPECT_EQ(q.stats().unschedulable, 1u) << "the cache has not seen them go";
  pod_deleted(q, victim);
  EXPECT_EQ(q.stats().backoff, 1u);
  EXPECT_EQ(pop_name(q), "p") << "popped from backoffQ, nothing else waits";
}

// Deletions quick enough for their events to come while the preemptor's
// own cycle is still running: the report releases it all the same.
TEST_F(queue_state_test, VictimEventsDuringThePreemptingCycleAreNotLost) {
  auto q = preemptor_in_flight();
  const auto& p = preemptor_;
  const auto& victim = victim_;
  pod_deleted(q, victim);
  q.on_outcome(*preempted(p));
  EXPECT_EQ(q.stats().unschedulable, 1u) << "held while deleting";
  q.on_preemption_ended(*p, false);
  EXPECT_EQ(q.stats().unschedulable, 0u);
  EXPECT_EQ(pop_name(q), "p");
}

// The binder's report may arrive before the outcome of the cycle that
// preempted: the pod is then not held, and the victims' deletion events
// seen while it was in flight requeue it.
TEST_F(queue_state_test, ADeletionReportThatOvertakesTheOutcomeHoldsNothing) {
  auto q = preemptor_in_flight();
  const auto& p = preemptor_;
  const auto& victim = victim_;
  pod_deleted(q, victim);
  q.on_preemption_ended(*p, false);
  q.on_outcome(*preempted(p));
  EXPECT_EQ(q.stats().unschedulable, 0u);
  EXPECT_EQ(q.stats().backoff, 1u);

  // Without such an event it parks, free to be moved by the next one.
  clock_.advance(2s);
  q.flush(clock_.now());
  ASSERT_EQ(pop_name(q), "p");
  q.on_preemption_ended(*p, false);
  q.on_outcome(*preempted(p));
  EXPECT_EQ(q.stats().unschedulable, 1u);
  pod_deleted(q, victim);
  EXPECT_EQ(q.stats().unschedulable, 0u);
}

// A retried cycle (its decision was stale) is not an attempt: the pod goes
// to the head, before higher-priority pods, without backoff.
TEST_F(queue_state_test, RetriesGoFirst) {
  auto q = make();
  auto a = test::make_pod("a").priority(1).build();
  auto b = test::make_pod("b").priority(1).build();
  q.add(a, 0);
  q.add(b, 0);
  auto first = q.pop();
  ASSERT_EQ(pop_name(q), "b");
  q.add(test::make_pod("urgent").priority(1000).build(), 0);
  q.on_outcome(*outcome(b, kind::retry));
  auto again = q.pop();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->pod->name, "b");
  EXPECT_EQ(again->attempts, 1) << "a retry must not count as an attempt";
  EXPECT_EQ(pop_name(q), "urgent");
  (void)first;
}

TEST_F(queue_state_test, AssumedThenBoundLeavesTheQueue) {
  auto q = make();
  auto p = test::make_pod("p").build();
  q.add(p, 0);
  ASSERT_TRUE(q.pop().has_value());
  q.on_outcome(*outcome(p, kind::assumed));
  EXPECT_FALSE(q.stats().idle()) << "binding still counts as in flight";
  q.on_bound(bind_outcome{p, true, {}});
  EXPECT_TRUE(q.stats().idle());
}

TEST_F(queue_state_test, BindFailureBacksOff) {
  auto q = make();
  auto p = test::make_pod("p").build();
  q.add(p, 0);
  ASSERT_TRUE(q.pop().has_value());
  q.on_outcome(*outcome(p, kind::assumed));
  q.on_bound(bind_outcome{p, false, "boom"});
  EXPECT_EQ(q.stats().backoff, 1u);
  EXPECT_EQ(pop_name(q), "<none>") << "an error's backoff is never cut short";
  // Its backoff ends at 1 s, inside the window [1 s, 2 s): released when
  // that window ends.
  clock_.advance(1s);
  q.flush(clock_.now());
  EXPECT_EQ(pop_name(q), "<none>");
  clock_.advance(1s);
  q.flush(clock_.now());
  EXPECT_EQ(pop_name(q), "p");
}

// scheduler_inflight_events counts the events kept for pods in flight, by
// label, until no such pod needs them; scheduler_event_handling_duration_
// seconds times each event's handling.
TEST_F(queue_state_test, InflightEventsAndEventHandlingAreRecorded) {
  metrics::scheduler_metrics m;
  auto q = make(&m);
  auto p = test::make_pod("p").cpu("1").build();
  q.add(p, 0);
  node_added(q, test::make_node("early").cpu("1").build());
  auto& inflight = m.inflight_events.with({"NodeAdd"});
  EXPECT_EQ(inflight.value(), 0) << "nothing in flight needs it";
  ASSERT_EQ(pop_name(q), "p");
  node_added(q, test::make_node("n1").cpu("1").build());
  node_added(q, test::make_node("n2").cpu("1").build());
  EXPECT_EQ(inflight.value(), 2);
  q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
  EXPECT_EQ(inflight.value(), 0);
  EXPECT_EQ(m.event_handling_duration.with({"NodeAdd"}).count(), 3u);
}

// scheduler_queueing_hint_execution_duration_seconds: one observation per
// hint run, by plugin, event and verdict, for parked pods and for events
// that came while a pod was in flight.
TEST_F(queue_state_test, QueueingHintsAreTimedByPluginEventAndVerdict) {
  metrics::scheduler_metrics m;
  auto q = make(&m);
  auto p = test::make_pod("p").cpu("2").build();
  q.add(p, 0);
  ASSERT_EQ(pop_name(q), "p");
  node_added(q, test::make_node("small").cpu("1").build());
  q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
  auto& skip = m.queueing_hint_duration.with(
    {"NodeResourcesFit", "NodeAdd", "QueueSkip"});
  auto& queue
    = m.queueing_hint_duration.with({"NodeResourcesFit", "NodeAdd", "Queue"});
  EXPECT_EQ(skip.count(), 1u) << "the small node seen while in flight";
  EXPECT_EQ(queue.count(), 0u);
  EXPECT_EQ(q.stats().unschedulable, 1u);
  node_added(q, test::make_node("also-small").cpu("1").build());
  EXPECT_EQ(skip.count(), 2u);
  node_added(q,
             test::make_node("big").cpu("4").memory("8Gi").pods(110).build());
  EXPECT_EQ(queue.count(), 1u);
  EXPECT_EQ(q.stats().unschedulable, 0u);
}

// SchedulerPopFromBackoffQ: with activeQ empty the head of backoffQ is
// tried at once — never before an active pod, and never a pod backing off
// after an error. Within one whole-second window backoffQ is ordered as
// activeQ (priority first).
TEST_F(queue_state_test, AnIdleQueuePopsFromBackoffQ) {
  metrics::scheduler_metrics m;
  auto q = make(&m);
  auto low = test::make_pod("low").priority(1).cpu("1").build();
  auto high = test::make_pod("high").priority(9).cpu("1").build();
  auto failed = test::make_pod("failed").priority(100).build();
  auto fresh = test::make_pod("fresh").build();
  for (const auto& p : {low, high, failed})
    q.add(p, 0);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(q.pop().has_value());
  q.on_outcome(*outcome(failed, kind::error));
  // Both parked pods are moved by a node: into backoffQ, one window apart
  // by the clock but the same window.
  q.on_outcome(*outcome(low, kind::unschedulable, {"NodeResourcesFit"}));
  clock_.advance(100ms);
  q.on_outcome(*outcome(high, kind::unschedulable, {"NodeResourcesFit"}));
  node_added(q, test::make_node("n").cpu("8").memory("8Gi").pods(110).build());
  ASSERT_EQ(q.stats().backoff, 3u);

  q.add(fresh, 0);
  EXPECT_EQ(pop_name(q), "fresh") << "activeQ first";
  EXPECT_EQ(pop_name(q), "high") << "same window: by priority";
  EXPECT_EQ(pop_name(q), "low");
  EXPECT_EQ(pop_name(q), "<none>") << "the error's backoff is kept";
  EXPECT_EQ(m.queue_incoming_pods.with({"active", "PopFromBackoffQ"}).value(),
            2u);

  // Off, backoffQ waits.
  auto off = make(nullptr, false);
  off.add(low, 0);
  ASSERT_EQ(pop_name(off), "low");
  off.on_outcome(*outcome(low, kind::unschedulable, {"NodeResourcesFit"}));
  node_added(off,
             test::make_node("n").cpu("8").memory("8Gi").pods(110).build());
  EXPECT_EQ(off.stats().backoff, 1u);
  EXPECT_EQ(pop_name(off), "<none>");
}

TEST_F(queue_state_test, DeletedWhileInFlightIsForgotten) {
  auto q = make();
  auto p = test::make_pod("p").build();
  q.add(p, 0);
  ASSERT_TRUE(q.pop().has_value());
  q.remove(*p);
  q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
  EXPECT_TRUE(q.stats().idle());
  EXPECT_EQ(q.stats().unschedulable, 0u);
}

// scheduler_unschedulable_pods{plugin, profile}: a parked pod counts under
// every plugin that rejected it, and stops counting however it leaves the
// pool (an event moves it, it is deleted, updated, or flushed as a
// leftover); a pod that was never parked never counts.
TEST_F(queue_state_test, UnschedulablePodsGaugeFollowsThePool) {
  using leave_fn = std::function<void(queue_state&, const model::pod_ptr&)>;
  struct test_case {
    std::string name;
    leave_fn leave;
  };
  const std::vector<test_case> cases{
    {"deleted", [](queue_state& q, const model::pod_ptr& p) { q.remove(*p); }},
    {"moved by a node event",
     [](queue_state& q, const model::pod_ptr&) {
       node_added(
         q, test::make_node("big").cpu("8").memory("32Gi").pods(110).build());
     }},
    {"updated",
     [](queue_state& q, const model::pod_ptr& p) {
       auto changed = std::make_shared<model::pod>(*p);
       changed->labels.set(model::symbol{"app"}, model::symbol{"web"});
       q.update(p, changed, 0);
     }},
    {"leftover flush",
     [this](queue_state& q, const model::pod_ptr&) {
       clock_.advance(4min);
       q.flush(clock_.now());
     }},
  };
  const std::string profile = default_profile()->scheduler_name();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    metrics::scheduler_metrics m;
    auto gauge = [&](const std::string& plugin) {
      return m.unschedulable_pods.with({plugin, profile}).value();
    };
    auto q = make(&m);
    // p: rejected by two plugins; o: by NodeAffinity only (it needs a gold
    // node, so a plain big node does not move it); s: scheduled.
    auto p = test::make_pod("p").cpu("2").build();
    auto o = test::make_pod("o")
               .cpu("2")
               .required_node_affinity("tier", "In", {"gold"})
               .build();
    auto s = test::make_pod("s").cpu("1").build();
    q.add(p, 0);
    q.add(o, 0);
    q.add(s, 0);
    ASSERT_EQ(pop_name(q), "p");
    q.on_outcome(
      *outcome(p, kind::unschedulable, {"NodeResourcesFit", "NodeAffinity"}));
    clock_.advance(1min);
    ASSERT_EQ(pop_name(q), "o");
    q.on_outcome(*outcome(o, kind::unschedulable, {"NodeAffinity"}));
    ASSERT_EQ(pop_name(q), "s");
    q.on_outcome(*outcome(s, kind::assumed));
    ASSERT_EQ(q.stats().unschedulable, 2u);
    EXPECT_EQ(gauge("NodeResourcesFit"), 1);
    EXPECT_EQ(gauge("NodeAffinity"), 2);
    EXPECT_EQ(gauge("TaintToleration"), 0);

    tc.leave(q, p);
    ASSERT_EQ(q.stats().unschedulable, 1u);
    EXPECT_EQ(gauge("NodeResourcesFit"), 0);
    EXPECT_EQ(gauge("NodeAffinity"), 1);
    // Scheduled after it left: counted out once, not twice.
    if (auto next = q.pop(); next && next->pod->name == "p") {
      q.on_outcome(*outcome(p, kind::assumed));
      EXPECT_EQ(gauge("NodeResourcesFit"), 0);
      EXPECT_EQ(gauge("NodeAffinity"), 1);
    }
  }
}

// A pod the leftover timeout moved out of the unschedulable pool pops marked
// as flushed (the binder counts it in scheduler_pod_scheduled_after_flush_
// total when bound), and stays marked; one only an event moved does not.
TEST_F(queue_state_test, LeftoverFlushMarksThePodsItMoves) {
  auto park = [](queue_state& q, const model::pod_ptr& p) {
    ASSERT_EQ(pop_name(q), p->name);
    q.on_outcome(*outcome(p, kind::unschedulable, {"NodeResourcesFit"}));
  };
  auto move_by_event = [this](queue_state& q) {
    node_added(
      q, test::make_node("big").cpu("8").memory("32Gi").pods(110).build());
    clock_.advance(1h); // past any backoff
    q.flush(clock_.now());
  };

  auto q = make();
  auto left = test::make_pod("left").cpu("2").build();
  q.add(left, 0);
  park(q, left);
  clock_.advance(6min);
  q.flush(clock_.now()); // the leftover timeout
  clock_.advance(1h);
  q.flush(clock_.now());
  auto popped = q.pop();
  ASSERT_TRUE(popped.has_value());
  EXPECT_TRUE(popped->flushed);
  q.on_outcome(*outcome(left, kind::unschedulable, {"NodeResourcesFit"}));
  move_by_event(q);
  popped = q.pop();
  ASSERT_TRUE(popped.has_value());
  EXPECT_TRUE(popped->flushed) << "the mark is kept once set";

  auto fresh = make();
  auto p = test::make_pod("p").cpu("2").build();
  fresh.add(p, 0);
  park(fresh, p);
  move_by_event(fresh);
  popped = fresh.pop();
  ASSERT_TRUE(popped.has_value());
  EXPECT_FALSE(popped->flushed);
}

} // namespace
} // namespace tessera::actors
