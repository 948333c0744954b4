// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/priority_sort/priority_sort.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

namespace tessera::plugins::priority_sort_test {

// A queued pod's position points into the pod: the pods live as long as
// the test binary.
queued_pod queued(std::int32_t priority, std::int64_t timestamp_ns,
                  std::uint64_t sequence) {
  static std::deque<model::pod_ptr> pods;
  pods.push_back(
    test::make_pod("p" + std::to_string(sequence)).priority(priority).build());
  return {pods.back().get(), timestamp_ns, sequence};
}

TEST(priority_sort, less) {
  struct test_case {
    std::string name;
    queued_pod a;
    queued_pod b;
    bool a_first;
    bool b_first;
  };
  const std::vector<test_case> cases = {
    {"higher priority first despite later timestamp", queued(10, 200, 2),
     queued(5, 100, 1), true, false},
    {"negative priority after zero", queued(-1, 100, 1), queued(0, 200, 2),
     false, true},
    {"same priority, earlier timestamp first", queued(3, 100, 7),
     queued(3, 150, 1), true, false},
    {"same priority and timestamp, lower sequence first", queued(3, 100, 1),
     queued(3, 100, 2), true, false},
    {"identical entries are not less than each other", queued(3, 100, 4),
     queued(3, 100, 4), false, false},
  };
  priority_sort sort;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(sort.less(tc.a, tc.b), tc.a_first);
    EXPECT_EQ(sort.less(tc.b, tc.a), tc.b_first);
  }
}

TEST(priority_sort, sorts_a_queue) {
  // Priority dominates, then timestamp, then sequence.
  std::vector<queued_pod> q
    = {queued(0, 30, 1), queued(100, 50, 2), queued(0, 10, 3),
       queued(100, 50, 0), queued(-5, 0, 4)};
  priority_sort sort;
  std::sort(q.begin(), q.end(), [&](const queued_pod& a, const queued_pod& b) {
    return sort.less(a, b);
  });
  std::vector<std::uint64_t> order;
  for (const auto& e : q)
    order.push_back(e.sequence);
  EXPECT_EQ(order, (std::vector<std::uint64_t>{0, 2, 3, 1, 4}));
}

TEST(priority_sort, name_and_factory) {
  auto p = make_priority_sort();
  EXPECT_EQ(p->name(), "PrioritySort");
  EXPECT_NE(dynamic_cast<const queue_sort_plugin*>(p.get()), nullptr);
  EXPECT_TRUE(p->events_to_register().empty());
}

} // namespace tessera::plugins::priority_sort_test
