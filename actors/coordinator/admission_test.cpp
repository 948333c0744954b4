// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/admission.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::actors {
namespace {

using kind = cycle_outcome::kind;

queued_pod_info item(const std::string& name) {
  queued_pod_info i;
  i.pod = test::make_pod(name).uid("uid-" + name).build();
  return i;
}

std::string name_of(const std::optional<admission::start>& s) {
  if (!s)
    return "-";
  return s->item.pod->name + (s->alone ? " alone" : "")
         + (s->retries ? " after " + std::to_string(s->retries) : "");
}

// `n` cycles of `name` retried after an assume conflict.
void conflicted(admission& a, const std::string& name, int n) {
  for (int i = 0; i < n; ++i)
    a.ended(*item(name).pod, kind::retry, retry_reason::assume_conflict, false);
}

TEST(admission, starts_pods_beside_others_until_one_must_run_alone) {
  admission a{3};
  conflicted(a, "hot", 3);
  EXPECT_EQ(name_of(a.offer(item("p1"), 0)), "p1");
  EXPECT_EQ(name_of(a.offer(item("p2"), 1)), "p2");
  // Three retries in a row: waits for the two cycles in flight.
  EXPECT_EQ(name_of(a.offer(item("hot"), 2)), "-");
  // Later pods queue behind it, in order.
  EXPECT_EQ(name_of(a.offer(item("p3"), 2)), "-");
  EXPECT_EQ(a.held(), 2u);
  a.ended(*item("p1").pod, kind::assumed, retry_reason::none, false);
  EXPECT_EQ(name_of(a.next(1)), "-"); // p2 still in flight
  a.ended(*item("p2").pod, kind::assumed, retry_reason::none, false);
  EXPECT_EQ(name_of(a.next(0)), "hot alone after 3");
  EXPECT_EQ(name_of(a.next(1)), "-"); // nothing beside an alone cycle
  a.ended(*item("hot").pod, kind::assumed, retry_reason::none, true);
  EXPECT_EQ(name_of(a.next(0)), "p3");
  EXPECT_EQ(name_of(a.next(1)), "-");
  EXPECT_EQ(a.held(), 0u);
  EXPECT_EQ(a.retrying(), 0u) << "a decided cycle ends the history";
}

TEST(admission, a_pod_that_must_run_alone_jumps_ahead_of_held_pods) {
  admission a{3};
  conflicted(a, "first", 3);
  conflicted(a, "hot", 5);
  ASSERT_EQ(name_of(a.offer(item("first"), 0)), "first alone after 3");
  EXPECT_EQ(name_of(a.offer(item("p2"), 1)), "-");
  EXPECT_EQ(name_of(a.offer(item("hot"), 1)), "-");
  a.ended(*item("first").pod, kind::assumed, retry_reason::none, true);
  EXPECT_EQ(name_of(a.next(0)), "hot alone after 5");
  a.ended(*item("hot").pod, kind::unschedulable, retry_reason::none, true);
  EXPECT_EQ(name_of(a.next(0)), "p2");
}

TEST(admission, an_overlapped_preemption_runs_alone_once) {
  admission a{3};
  a.ended(*item("pre").pod, kind::retry, retry_reason::overlapped_preemption,
          false);
  EXPECT_EQ(name_of(a.offer(item("pre"), 1)), "-"); // waits for the other
  a.ended(*item("other").pod, kind::assumed, retry_reason::none, false);
  EXPECT_EQ(name_of(a.next(0)), "pre alone after 1");
  // Its next cycle, if retried again for a conflict, runs beside others.
  a.ended(*item("pre").pod, kind::retry, retry_reason::assume_conflict, true);
  EXPECT_EQ(name_of(a.offer(item("pre"), 1)), "pre after 2");
}

TEST(admission, the_retry_history_follows_the_outcomes) {
  struct test_case {
    std::string name;
    kind outcome;
    bool keeps_history;
  };
  const std::vector<test_case> cases{
    {"assumed", kind::assumed, false},
    {"unschedulable", kind::unschedulable, false},
    {"dropped", kind::dropped, false},
    {"an error keeps it (the next try is still a retry of a stale view)",
     kind::error, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    admission a{3};
    conflicted(a, "p", 2);
    a.ended(*item("p").pod, tc.outcome, retry_reason::none, false);
    EXPECT_EQ(a.retrying(), tc.keeps_history ? 1u : 0u);
  }
}

TEST(admission, a_pod_that_left_leaves_no_history) {
  admission a{3};
  conflicted(a, "gone", 2);
  ASSERT_EQ(a.retrying(), 1u);
  a.forget(*item("gone").pod);
  EXPECT_EQ(a.retrying(), 0u);
  EXPECT_EQ(name_of(a.offer(item("gone"), 0)), "gone");
}

TEST(admission, an_ordinary_pod_starts_at_once_with_many_in_flight) {
  // Admission bounds nothing but exclusivity: the in-flight limit is the
  // queue's credit, counted by the coordinator.
  admission a{3};
  EXPECT_EQ(name_of(a.offer(item("p"), 64)), "p");
}

} // namespace
} // namespace tessera::actors
