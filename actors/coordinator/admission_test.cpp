// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/admission.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::actors {
namespace {

queued_pod_info item(const std::string& name, std::int32_t conflicts = 0) {
  queued_pod_info i;
  i.pod = test::make_pod(name).build();
  i.conflicts = conflicts;
  return i;
}

std::string name_of(const std::optional<admission::start>& s) {
  return s ? s->item.pod->name + (s->alone ? " alone" : "") : "-";
}

TEST(admission, starts_pods_beside_others_until_one_must_run_alone) {
  admission a{3};
  EXPECT_EQ(name_of(a.offer(item("p1"), 0)), "p1");
  EXPECT_EQ(name_of(a.offer(item("p2"), 1)), "p2");
  // Three conflicts in a row: waits for the two cycles in flight.
  EXPECT_EQ(name_of(a.offer(item("hot", 3), 2)), "-");
  // Later pods queue behind it, in order.
  EXPECT_EQ(name_of(a.offer(item("p3"), 2)), "-");
  EXPECT_EQ(a.held(), 2u);
  a.ended(false);
  EXPECT_EQ(name_of(a.next(1)), "-"); // p2 still in flight
  a.ended(false);
  EXPECT_EQ(name_of(a.next(0)), "hot alone");
  EXPECT_EQ(name_of(a.next(1)), "-"); // nothing beside an alone cycle
  a.ended(true);
  EXPECT_EQ(name_of(a.next(0)), "p3");
  EXPECT_EQ(name_of(a.next(1)), "-");
  EXPECT_EQ(a.held(), 0u);
}

TEST(admission, a_pod_that_must_run_alone_jumps_ahead_of_held_pods) {
  admission a{3};
  ASSERT_TRUE(a.offer(item("p1", 3), 0)); // alone, running
  EXPECT_EQ(name_of(a.offer(item("p2"), 1)), "-");
  EXPECT_EQ(name_of(a.offer(item("hot", 5), 1)), "-");
  a.ended(true);
  EXPECT_EQ(name_of(a.next(0)), "hot alone");
  a.ended(true);
  EXPECT_EQ(name_of(a.next(0)), "p2");
}

TEST(admission, redo_alone_applies_to_the_next_cycle_only) {
  admission a{3};
  auto pod = test::make_pod("pre").uid("u-1").build();
  a.redo_alone(*pod);
  queued_pod_info i;
  i.pod = pod;
  EXPECT_EQ(name_of(a.offer(i, 1)), "-"); // waits for the other cycle
  a.ended(false);
  EXPECT_EQ(name_of(a.next(0)), "pre alone");
  a.ended(true);
  // Its mark is spent: the pod's next cycle runs beside others again.
  EXPECT_EQ(name_of(a.offer(i, 1)), "pre");
}

TEST(admission, an_ordinary_pod_starts_at_once_with_many_in_flight) {
  // Admission bounds nothing but exclusivity: the in-flight limit is the
  // queue's credit, counted by the coordinator.
  admission a{3};
  EXPECT_EQ(name_of(a.offer(item("p"), 64)), "p");
}

} // namespace
} // namespace tessera::actors
