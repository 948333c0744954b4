// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_resources/resource_scorer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::plugins::node_resources {
namespace {

using strategy = config::scoring_strategy::kind;

config::scoring_strategy
make_strategy(strategy type,
              std::vector<config::utilization_shape_point> shape = {}) {
  config::scoring_strategy s;
  s.type = type;
  s.shape = std::move(shape);
  return s;
}

TEST(resource_scorer, per_resource_scores) {
  using score_function = std::int64_t (*)(std::int64_t, std::int64_t);
  const score_function least = &resource_scorer::least_requested;
  const score_function most = &resource_scorer::most_requested;
  struct test_case {
    std::string name;
    score_function score;
    std::int64_t requested;
    std::int64_t allocatable;
    std::int64_t expected;
  };
  const std::vector<test_case> cases = {
    {"least: nothing requested", least, 0, 4000, 100},
    {"least: a quarter free", least, 3000, 4000, 25},
    {"least: exactly full", least, 4000, 4000, 0},
    {"least: over-committed scores 0", least, 5000, 4000, 0},
    {"least: division truncates", least, 1, 3, 66},
    {"least: no allocatable", least, 10, 0, 0},
    // (4e18 - 1e18) * 100 overflows int64; the exact quotient is 75.
    {"least: huge allocatable does not overflow", least,
     1'000'000'000'000'000'000, 4'000'000'000'000'000'000, 75},
    {"most: nothing requested", most, 0, 4000, 0},
    {"most: three quarters used", most, 3000, 4000, 75},
    {"most: over-committed is capped at full", most, 5000, 4000, 100},
    {"most: division truncates", most, 2, 3, 66},
    {"most: no allocatable", most, 10, 0, 0},
    {"most: huge allocatable does not overflow", most,
     3'000'000'000'000'000'000, 4'000'000'000'000'000'000, 75},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.score(tc.requested, tc.allocatable), tc.expected);
  }
}

TEST(resource_scorer, shape_is_piecewise_linear_with_scores_times_ten) {
  struct test_case {
    std::string name;
    std::vector<config::utilization_shape_point> shape;
    std::int64_t utilization;
    std::int64_t expected;
  };
  const std::vector<test_case> cases = {
    {"bin packing midpoint", {{0, 0}, {100, 10}}, 50, 50},
    {"bin packing truncates", {{0, 0}, {30, 10}}, 10, 33},
    // 100 + (0 - 100) * 10 / 30: the quotient -33.3 truncates toward zero
    // to -33, so the score is 67 (not 66).
    {"falling segment truncates toward zero", {{0, 10}, {30, 0}}, 10, 67},
    {"below the first point takes its score", {{20, 2}, {80, 8}}, 10, 20},
    {"on a point takes its score", {{20, 2}, {80, 8}}, 80, 80},
    {"beyond the last point takes its score", {{20, 2}, {80, 8}}, 90, 80},
    {"second segment", {{0, 0}, {50, 2}, {100, 10}}, 75, 60},
    {"empty shape", {}, 40, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    resource_scorer scorer{
      make_strategy(strategy::requested_to_capacity_ratio, tc.shape)};
    EXPECT_EQ(scorer.shape_at(tc.utilization), tc.expected);
  }
}

TEST(resource_scorer, requested_to_capacity_ratio_per_resource) {
  struct test_case {
    std::string name;
    std::int64_t requested;
    std::int64_t allocatable;
    std::int64_t expected;
  };
  // Utilization 0 scores 100, full scores 0.
  resource_scorer scorer{
    make_strategy(strategy::requested_to_capacity_ratio, {{0, 10}, {100, 0}})};
  const std::vector<test_case> cases = {
    {"empty", 0, 4000, 100},
    {"a quarter used", 1000, 4000, 75},
    // utilization = 1 * 100 / 3 = 33 (truncated), then 100 - 33.
    {"utilization truncates first", 1, 3, 67},
    {"over-committed counts as full", 5000, 4000, 0},
    {"no allocatable counts as full", 10, 0, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(scorer.ratio_score(tc.requested, tc.allocatable), tc.expected);
  }
}

TEST(resource_scorer, weighted_mean_per_strategy) {
  struct resource {
    std::int64_t requested;
    std::int64_t allocatable;
    std::int64_t weight;
  };
  struct test_case {
    std::string name;
    config::scoring_strategy strategy;
    std::vector<resource> resources;
    std::int64_t expected;
  };
  const auto least = make_strategy(strategy::least_allocated);
  const auto most = make_strategy(strategy::most_allocated);
  const auto packing
    = make_strategy(strategy::requested_to_capacity_ratio, {{0, 0}, {100, 10}});
  const std::vector<test_case> cases = {
    {"least: (25 + 50) / 2 truncates", least, {{3, 4, 1}, {5, 10, 1}}, 37},
    {"least: weights 3 and 1", least, {{3, 4, 3}, {5, 10, 1}}, 31},
    {"most: (75 + 50) / 2 truncates", most, {{3, 4, 1}, {5, 10, 1}}, 62},
    {"most: over-committed caps", most, {{9, 4, 1}, {0, 10, 1}}, 50},
    {"ratio: (75 + 50) / 2 rounds half away from zero",
     packing,
     {{3, 4, 1}, {5, 10, 1}},
     63},
    {"ratio: 200 / 3 rounds to 67", packing, {{1, 2, 1}, {3, 4, 2}}, 67},
    // The empty resource scores 0 on this shape and is left out of the
    // mean (weights included), so the node scores 50, not 25.
    {"ratio: zero-scoring resources are left out",
     packing,
     {{0, 4, 1}, {2, 4, 1}},
     50},
    {"ratio: nothing scores", packing, {{0, 4, 1}}, 0},
    {"least: no resources", least, {}, 0},
    {"least: zero weights", least, {{3, 4, 0}}, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    resource_scorer scorer{tc.strategy};
    const std::int64_t got = scorer.score([&](auto&& emit) {
      for (const auto& r : tc.resources)
        emit(r.requested, r.allocatable, r.weight);
    });
    EXPECT_EQ(got, tc.expected);
  }
}

TEST(resource_scorer, resolves_names_to_kinds) {
  const auto refs = resolve_resources({{"cpu", 1},
                                       {"memory", 2},
                                       {"ephemeral-storage", 3},
                                       {"example.com/gpu", 4},
                                       {"hugepages-2Mi", 5},
                                       {"pods", 6},
                                       {"storage", 7}});
  const std::vector<model::resource_kind> kinds = {
    model::resource_kind::cpu,
    model::resource_kind::memory,
    model::resource_kind::ephemeral_storage,
    model::resource_kind::scalar,
    model::resource_kind::scalar,
    model::resource_kind::pods,
    model::resource_kind::ignored,
  };
  ASSERT_EQ(refs.size(), kinds.size());
  for (std::size_t i = 0; i < refs.size(); ++i) {
    SCOPED_TRACE(refs[i].name.str());
    EXPECT_EQ(refs[i].kind, kinds[i]);
    EXPECT_EQ(refs[i].weight, static_cast<std::int64_t>(i + 1));
  }
  EXPECT_EQ(refs[3].name, "example.com/gpu");
}

TEST(resource_scorer, fields_read_the_resource) {
  model::resource_list list;
  list.milli_cpu = 1500;
  list.memory = 2048;
  list.ephemeral_storage = 4096;
  list.pods = 7;
  list.set_scalar(model::symbol{"example.com/gpu"}, 3);
  const auto refs = resolve_resources({{"cpu", 1},
                                       {"memory", 1},
                                       {"ephemeral-storage", 1},
                                       {"example.com/gpu", 1},
                                       {"example.com/fpga", 1}});
  const std::vector<std::int64_t> expected = {1500, 2048, 4096, 3, 0};
  for (std::size_t i = 0; i < refs.size(); ++i) {
    SCOPED_TRACE(refs[i].name.str());
    EXPECT_EQ(field_of(refs[i]).read(list), expected[i]);
  }
}

TEST(resource_scorer, saturating_sum) {
  EXPECT_EQ(add_saturating(2, 3), 5);
  EXPECT_EQ(add_saturating(INT64_MAX - 1, 5), INT64_MAX);
  EXPECT_EQ(add_saturating(INT64_MIN + 1, -5), INT64_MIN);
}

} // namespace
} // namespace tessera::plugins::node_resources
