// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/queue/settling_queue_state.hpp"
#include "model/pod_key.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <gtest/gtest.h>

namespace tessera::actors {
namespace {

using namespace std::chrono_literals;
using kind = cycle_outcome::kind;
using plugins::action;
using plugins::event_resource;

class settling_queue_state_test : public ::testing::Test {
protected:
  settling_queue_state make() {
    return settling_queue_state{nullptr, clock_, {test::default_profile()}};
  }

  static cycle_outcome outcome(const model::pod_ptr& p, kind k) {
    cycle_outcome o;
    o.type = k;
    o.pod = p;
    o.unschedulable_plugins = {"NodeResourcesFit"};
    return o;
  }

  static void bound(settling_queue_state& q, const model::pod_ptr& p) {
    bind_outcome b;
    b.pod = p;
    b.bound = true;
    q.on_bound(b);
  }

  static void deleted(settling_queue_state& q, const model::pod_ptr& p) {
    q.on_cluster_event({event_resource::pod, action::remove},
                       std::make_shared<const model::object>(p), nullptr);
  }

  static std::string pop_name(settling_queue_state& q) {
    auto next = q.pop();
    return next ? next->pod->name : std::string{"<none>"};
  }

  manual_clock clock_;
};

TEST_F(settling_queue_state_test, PopsByPriorityThenArrival) {
  auto q = make();
  q.add(test::make_pod("first").build(), 0);
  clock_.advance(1s);
  q.add(test::make_pod("urgent").priority(10).build(), 0);
  clock_.advance(1s);
  q.add(test::make_pod("second").build(), 0);
  EXPECT_EQ(pop_name(q), "urgent");
  EXPECT_EQ(pop_name(q), "first");
  EXPECT_EQ(pop_name(q), "second");
  EXPECT_EQ(pop_name(q), "<none>");
}

// No backoff and no hints: whatever happens later, a failure with nothing
// placed since its pop is final.
TEST_F(settling_queue_state_test, FailuresWithNothingMissedAreFinal) {
  for (kind k : {kind::unschedulable, kind::error, kind::dropped}) {
    SCOPED_TRACE(static_cast<int>(k));
    auto q = make();
    auto p = test::make_pod("p").build();
    q.add(p, 0);
    ASSERT_EQ(pop_name(q), "p");
    q.on_outcome(outcome(p, k));
    q.on_cluster_event({event_resource::node, action::add}, nullptr,
                       std::make_shared<const model::object>(
                         test::make_node("big").cpu("64").build()));
    EXPECT_EQ(pop_name(q), "<none>");
    EXPECT_TRUE(q.stats().idle());
  }
}

// A failure is tentative while anything is in flight. It is tried again
// when a pod ahead of it in queue order was placed after it was popped (its
// view missed that placement), and is final when only pods behind it were.
TEST_F(settling_queue_state_test, FailureSettlesByWhatItsViewMissed) {
  auto q = make();
  auto high = test::make_pod("high").priority(100).build();
  auto low = test::make_pod("low").build();
  q.add(high, 0);
  q.add(low, 0);
  ASSERT_EQ(pop_name(q), "high");
  ASSERT_EQ(pop_name(q), "low");
  q.on_outcome(outcome(low, kind::unschedulable));
  EXPECT_EQ(pop_name(q), "<none>") << "high is still in flight";
  q.on_outcome(outcome(high, kind::assumed));
  EXPECT_EQ(pop_name(q), "<none>") << "high is still binding";
  bound(q, high);
  EXPECT_EQ(pop_name(q), "low") << "its view missed high";
  q.on_outcome(outcome(low, kind::unschedulable));
  EXPECT_EQ(pop_name(q), "<none>");
  EXPECT_TRUE(q.stats().idle());

  // The other way round: the pod ahead failed, the one behind it was
  // placed; a serial scheduler would not have shown it that placement.
  auto q2 = make();
  q2.add(high, 0);
  q2.add(low, 0);
  ASSERT_EQ(pop_name(q2), "high");
  ASSERT_EQ(pop_name(q2), "low");
  q2.on_outcome(outcome(high, kind::unschedulable));
  q2.on_outcome(outcome(low, kind::assumed));
  bound(q2, low);
  EXPECT_EQ(pop_name(q2), "<none>");
  EXPECT_TRUE(q2.stats().idle());
}

// A stale decision is no attempt: the pod goes back to the head at once.
TEST_F(settling_queue_state_test, StaleDecisionsRetryFirst) {
  auto q = make();
  auto p = test::make_pod("p").build();
  q.add(p, 0);
  q.add(test::make_pod("urgent").priority(10).build(), 0);
  ASSERT_EQ(pop_name(q), "urgent");
  auto again = q.pop();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->attempts, 1);
  q.add(test::make_pod("newcomer").priority(50).build(), 0);
  q.on_outcome(outcome(p, kind::retry));
  auto retried = q.pop();
  ASSERT_TRUE(retried.has_value());
  EXPECT_EQ(retried->pod->name, "p");
  EXPECT_EQ(retried->attempts, 1);
  EXPECT_EQ(pop_name(q), "newcomer");
}

TEST_F(settling_queue_state_test, GatedPodsWaitForTheirGates) {
  auto q = make();
  auto gated = test::make_pod("g").gate("example.com/hold").build();
  q.add(gated, 0);
  EXPECT_EQ(q.stats().gated, 1u);
  EXPECT_EQ(pop_name(q), "<none>");
  EXPECT_TRUE(q.stats().idle());
  auto open = test::make_pod("g").build();
  q.update(gated, open, 0);
  EXPECT_EQ(q.stats().gated, 0u);
  EXPECT_EQ(pop_name(q), "g");
}

TEST_F(settling_queue_state_test, PreemptorWaitsForItsVictims) {
  auto q = make();
  auto p = test::make_pod("p").priority(100).build();
  auto other = test::make_pod("other").build();
  auto v1 = test::make_pod("v1").node("n1").build();
  auto v2 = test::make_pod("v2").node("n1").build();
  q.add(p, 0);
  q.add(other, 0);
  ASSERT_EQ(pop_name(q), "p");
  auto o = outcome(p, kind::unschedulable);
  o.nominated_node = model::symbol{"n1"};
  o.victims = {model::pod_key(*v1), model::pod_key(*v2)};
  q.on_outcome(o);
  EXPECT_EQ(q.stats().waiting_for_victims, 1u);
  EXPECT_FALSE(q.stats().idle());
  // "Retried at once": nothing else is decided before the retry, or the
  // next pod would see the victims gone but not the preemptor placed.
  EXPECT_EQ(pop_name(q), "<none>");
  deleted(q, v1);
  EXPECT_EQ(q.stats().waiting_for_victims, 1u);
  EXPECT_EQ(pop_name(q), "<none>");
  deleted(q, v2);
  EXPECT_EQ(q.stats().waiting_for_victims, 0u);
  // Retried at the head, before `other`, with its nomination.
  auto again = q.pop();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->pod->name, "p");
  EXPECT_EQ(again->pod->nominated_node_name.str(), "n1");
  EXPECT_EQ(pop_name(q), "other");
}

// The victims' deletions can reach the queue (through the cache) before the
// coordinator's outcome that names them: the preemptor must still be
// retried, not wait forever for deletions that already happened.
TEST_F(settling_queue_state_test, PreemptorWhoseVictimsWentFirst) {
  auto q = make();
  auto p = test::make_pod("p").priority(100).build();
  auto v1 = test::make_pod("v1").node("n1").build();
  q.add(p, 0);
  ASSERT_EQ(pop_name(q), "p");
  deleted(q, v1);
  auto o = outcome(p, kind::unschedulable);
  o.nominated_node = model::symbol{"n1"};
  o.victims = {model::pod_key(*v1)};
  q.on_outcome(o);
  EXPECT_EQ(q.stats().waiting_for_victims, 0u);
  EXPECT_EQ(pop_name(q), "p");
}

} // namespace
} // namespace tessera::actors
