// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/scatter.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <string>

namespace tessera::plugins {
namespace {

TEST(split_quota, divides_in_proportion_and_never_past_a_bucket) {
  struct test_case {
    std::string name;
    std::size_t total;
    std::vector<std::size_t> sizes;
    std::vector<std::size_t> expected;
  };
  std::vector<test_case> cases{
    {"even", 100, {500, 500}, {50, 50}},
    {"proportional", 90, {100, 200}, {30, 60}},
    {"remainder to the first with room", 5, {10, 10}, {3, 2}},
    {"remainder skips full buckets", 7, {1, 10, 10}, {1, 3, 3}},
    {"more than all nodes", 50, {10, 20}, {10, 20}},
    {"empty buckets", 10, {0, 0}, {0, 0}},
    {"no buckets", 10, {}, {}},
    {"zero total", 0, {3, 4}, {0, 0}},
    {"one bucket", 7, {9}, {7}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = split_quota(tc.total, tc.sizes);
    EXPECT_EQ(got, tc.expected);
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_LE(got[i], tc.sizes[i]);
  }
}

TEST(split_quota, hands_out_exactly_the_total_up_to_the_nodes) {
  for (std::size_t total : {0u, 1u, 17u, 250u, 999u, 5000u}) {
    std::vector<std::size_t> sizes{333, 1, 0, 666, 7};
    auto got = split_quota(total, sizes);
    std::size_t sum = std::accumulate(got.begin(), got.end(), std::size_t{0});
    EXPECT_EQ(sum, std::min<std::size_t>(total, 1007)) << total;
  }
}

model::symbol sym(const char* s) {
  return model::symbol{s};
}

TEST(stitch_scores, concatenates_shard_rows_plugin_major) {
  score_table t;
  t.nodes = {sym("a0"), sym("a1"), sym("b0"), sym("c0"), sym("c1")};
  // Two plugins; shard a has 2 nodes, b 1, c 2.
  std::vector<std::int64_t> a{1, 2, 10, 20}, b{3, 30}, c{4, 5, 40, 50};
  std::vector<shard_rows> rows{{2, a}, {1, b}, {2, c}};
  std::vector<std::size_t> plugins{3, 5};
  stitch_scores(t, plugins, rows);
  EXPECT_EQ(t.plugins, plugins);
  EXPECT_EQ(t.scores,
            (std::vector<std::int64_t>{1, 2, 3, 4, 5, 10, 20, 30, 40, 50}));
}

TEST(stitch_scores, appends_a_second_set_of_plugins_after_the_first) {
  score_table t;
  t.nodes = {sym("a0"), sym("b0"), sym("b1")};
  std::vector<std::int64_t> a1{7}, b1{8, 9};
  stitch_scores(t, std::vector<std::size_t>{0},
                std::vector<shard_rows>{{1, a1}, {2, b1}});
  std::vector<std::int64_t> a2{70}, b2{80, 90};
  stitch_scores(t, std::vector<std::size_t>{4},
                std::vector<shard_rows>{{1, a2}, {2, b2}});
  EXPECT_EQ(t.plugins, (std::vector<std::size_t>{0, 4}));
  EXPECT_EQ(t.scores, (std::vector<std::int64_t>{7, 8, 9, 70, 80, 90}));
}

TEST(stitch_scores, a_shard_row_wider_than_its_nodes_is_read_compactly) {
  // Shards size their rows by quota and close them up to the feasible
  // count; a row may carry spare capacity past plugins x nodes.
  score_table t;
  t.nodes = {sym("a0"), sym("b0")};
  std::vector<std::int64_t> a{1, 11, 99, 99}, b{2, 22};
  stitch_scores(t, std::vector<std::size_t>{0, 1},
                std::vector<shard_rows>{{1, a}, {1, b}});
  EXPECT_EQ(t.scores, (std::vector<std::int64_t>{1, 2, 11, 22}));
}

} // namespace
} // namespace tessera::plugins
