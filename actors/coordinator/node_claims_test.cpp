// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/node_claims.hpp"

#include <gtest/gtest.h>

namespace tessera::actors {
namespace {

const model::symbol n1{"n1"};
const model::symbol n2{"n2"};

TEST(node_claims, a_cycle_sees_only_claims_made_after_it_began) {
  node_claims claims;
  claims.assumed(n1);
  std::uint64_t began = claims.latest();
  EXPECT_FALSE(claims.taken_since(n1, began, 0))
    << "the assume before the cycle began is in its view";
  claims.assumed(n2);
  EXPECT_FALSE(claims.taken_since(n1, began, 0));
  EXPECT_TRUE(claims.taken_since(n2, began, 0));
  EXPECT_FALSE(claims.nominated_since(n2, began, 0))
    << "an assume is not a nomination";
}

TEST(node_claims, nominations_count_from_the_cycles_priority_up) {
  node_claims claims;
  std::uint64_t began = claims.latest();
  claims.nominated(n1, 100);
  EXPECT_TRUE(claims.nominated_since(n1, began, 100));
  EXPECT_TRUE(claims.nominated_since(n1, began, 50));
  EXPECT_FALSE(claims.nominated_since(n1, began, 200))
    << "a lower-priority nomination does not take a pod's room";
  EXPECT_TRUE(claims.taken_since(n1, began, 100));
  EXPECT_FALSE(claims.taken_since(n1, began, 101));
}

TEST(node_claims, forgets_what_no_cycle_in_flight_can_have_missed) {
  node_claims claims;
  claims.assumed(n1);
  claims.nominated(n2, 0);
  std::uint64_t first = 1;
  claims.forget_through(first);
  EXPECT_EQ(claims.size(), 1u);
  EXPECT_FALSE(claims.taken_since(n1, 0, 0));
  EXPECT_TRUE(claims.taken_since(n2, 0, 0));
  claims.forget_through(claims.latest());
  EXPECT_EQ(claims.size(), 0u);
}

} // namespace
} // namespace tessera::actors
