// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "metrics/family.hpp"
#include "metrics/series.hpp"

#include <gtest/gtest.h>
#include <prometheus/client_metric.h>

#include <cmath>
#include <thread>

namespace tessera::metrics {
namespace {

TEST(exponential_buckets, match_prometheus_definition) {
  struct test_case {
    std::string name;
    double start, factor;
    int count;
    std::vector<double> expected;
  };
  std::vector<test_case> cases = {
    {"attempts", 1, 2, 5, {1, 2, 4, 8, 16}},
    {"victims", 1, 2, 7, {1, 2, 4, 8, 16, 32, 64}},
    {"attempt duration", 0.001, 2, 3, {0.001, 0.002, 0.004}},
    {"plugin", 0.00001, 1.5, 3, {0.00001, 0.000015, 0.0000225}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = exponential_buckets(tc.start, tc.factor, tc.count);
    ASSERT_EQ(got.size(), tc.expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      EXPECT_DOUBLE_EQ(got[i], tc.expected[i]);
  }
}

TEST(histogram, buckets_are_inclusive_upper_bounds) {
  struct test_case {
    std::string name;
    double value;
    std::size_t bucket;
  };
  std::vector<test_case> cases = {
    {"below first", 0.5, 0}, {"on first bound", 1, 0}, {"between", 1.5, 1},
    {"on last bound", 4, 2}, {"above last", 4.01, 3},
  };
  auto bounds
    = std::make_shared<const std::vector<double>>(std::vector<double>{1, 2, 4});
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    histogram h{bounds};
    h.observe(tc.value);
    for (std::size_t i = 0; i <= 3; ++i)
      EXPECT_EQ(h.bucket(i), i == tc.bucket ? 1u : 0u) << "bucket " << i;
    EXPECT_EQ(h.count(), 1u);
    EXPECT_DOUBLE_EQ(h.sum(), tc.value);
  }
}

TEST(histogram, collect_is_cumulative_with_inf) {
  auto bounds
    = std::make_shared<const std::vector<double>>(std::vector<double>{1, 2, 4});
  histogram h{bounds};
  for (double v : {0.5, 1.5, 1.7, 3.0, 9.0, 10.0})
    h.observe(v);
  prometheus::ClientMetric m;
  h.collect(m);
  ASSERT_EQ(m.histogram.bucket.size(), 4u);
  std::vector<std::uint64_t> cumulative;
  for (const auto& b : m.histogram.bucket)
    cumulative.push_back(b.cumulative_count);
  EXPECT_EQ(cumulative, (std::vector<std::uint64_t>{1, 3, 4, 6}));
  EXPECT_TRUE(std::isinf(m.histogram.bucket.back().upper_bound));
  EXPECT_EQ(m.histogram.sample_count, 6u);
  EXPECT_DOUBLE_EQ(m.histogram.sample_sum, 25.7);
}

TEST(counter_and_gauge, record_from_many_threads) {
  counter c;
  gauge g;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        c.inc();
        g.add(1);
        g.add(-0.5);
      }
    });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(c.value(), 40000u);
  EXPECT_DOUBLE_EQ(g.value(), 20000);
  g.set(3);
  EXPECT_DOUBLE_EQ(g.value(), 3);
}

TEST(family, same_labels_same_series) {
  family<counter> f{
    "x_total", "help", prometheus::MetricType::Counter, {"a", "b"}};
  f.with({"1", "2"}).inc();
  f.with({"1", "2"}).inc(2);
  f.with({"12", ""}).inc(5); // must not collide with ("1", "2")
  EXPECT_EQ(f.with({"1", "2"}).value(), 3u);
  EXPECT_EQ(f.with({"12", ""}).value(), 5u);
  auto mf = f.collect();
  EXPECT_EQ(mf.name, "x_total");
  EXPECT_EQ(mf.type, prometheus::MetricType::Counter);
  ASSERT_EQ(mf.metric.size(), 2u);
  for (const auto& m : mf.metric) {
    ASSERT_EQ(m.label.size(), 2u);
    EXPECT_EQ(m.label[0].name, "a");
    EXPECT_EQ(m.label[1].name, "b");
  }
}

} // namespace
} // namespace tessera::metrics
