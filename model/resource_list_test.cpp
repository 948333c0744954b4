// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/resource_list.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace tessera::model::resource_list_test {
namespace {

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

// Interned in this order, so their ids ascend in this order.
const symbol gpu{"resource-list-test.example.com/gpu"};
const symbol fpga{"resource-list-test.example.com/fpga"};
const symbol hugepages{"hugepages-resource-list-test"};

/// Builds a list: cpu (millis), memory, ephemeral-storage, pods, scalars.
resource_list make_list(std::int64_t cpu, std::int64_t memory,
                        std::int64_t ephemeral, std::int64_t pods,
                        std::vector<std::pair<symbol, std::int64_t>> scalars) {
  resource_list r;
  r.milli_cpu = cpu;
  r.memory = memory;
  r.ephemeral_storage = ephemeral;
  r.pods = pods;
  for (const auto& [name, value] : scalars)
    r.set_scalar(name, value);
  return r;
}

TEST(resource_list_test, classify_resource) {
  struct test_case {
    std::string name;
    std::string resource;
    resource_kind kind;
    bool extended;
  };
  const std::string name63(63, 'x');
  const std::string prefix244(244, 'a');
  const std::vector<test_case> cases = {
    {"cpu", "cpu", resource_kind::cpu, false},
    {"memory", "memory", resource_kind::memory, false},
    {"ephemeral storage", "ephemeral-storage", resource_kind::ephemeral_storage,
     false},
    {"pods", "pods", resource_kind::pods, false},
    // Extended resources.
    {"extended", "example.com/gpu", resource_kind::scalar, true},
    {"extended nvidia", "nvidia.com/gpu", resource_kind::scalar, true},
    {"extended upper-case name", "example.com/GPU", resource_kind::scalar,
     true},
    {"extended name punctuation", "example.com/gpu_1.x-y",
     resource_kind::scalar, true},
    {"extended single-label domain", "memory/x", resource_kind::scalar, true},
    {"extended name of 63", "example.com/" + name63, resource_kind::scalar,
     true},
    {"extended prefix of 244", prefix244 + "/x", resource_kind::scalar, true},
    // Prefixed native resources are scalar but not extended.
    {"kubernetes.io", "kubernetes.io/foo", resource_kind::scalar, false},
    {"sub-domain of kubernetes.io", "foo.kubernetes.io/bar",
     resource_kind::scalar, false},
    {"kubernetes.io inside", "example.com/kubernetes.io/x",
     resource_kind::scalar, false},
    {"requests kubernetes.io", "requests.kubernetes.io/x",
     resource_kind::scalar, false},
    // Prefix families.
    {"hugepages", "hugepages-2Mi", resource_kind::scalar, false},
    {"hugepages 1Gi", "hugepages-1Gi", resource_kind::scalar, false},
    {"hugepages bare prefix", "hugepages-", resource_kind::scalar, false},
    {"attachable volumes", "attachable-volumes-aws-ebs", resource_kind::scalar,
     false},
    {"attachable volumes bare prefix", "attachable-volumes-",
     resource_kind::scalar, false},
    // Ignored.
    {"empty", "", resource_kind::ignored, false},
    {"storage", "storage", resource_kind::ignored, false},
    {"services", "services", resource_kind::ignored, false},
    {"upper-case cpu", "CPU", resource_kind::ignored, false},
    {"cpu with space", "cpu ", resource_kind::ignored, false},
    {"requests.cpu", "requests.cpu", resource_kind::ignored, false},
    {"hugepages without dash", "hugepages", resource_kind::ignored, false},
    {"requests prefix", "requests.example.com/gpu", resource_kind::ignored,
     false},
    {"upper-case domain", "Example.com/gpu", resource_kind::ignored, false},
    {"empty name part", "example.com/", resource_kind::ignored, false},
    {"empty prefix", "/gpu", resource_kind::ignored, false},
    {"two slashes", "example.com/a/b", resource_kind::ignored, false},
    {"name starts with dash", "example.com/-gpu", resource_kind::ignored,
     false},
    {"name ends with dot", "example.com/gpu.", resource_kind::ignored, false},
    {"name with space", "example.com/g pu", resource_kind::ignored, false},
    {"name of 64", "example.com/" + name63 + "x", resource_kind::ignored,
     false},
    {"prefix of 245", prefix244 + "a/x", resource_kind::ignored, false},
    {"empty label", "example..com/x", resource_kind::ignored, false},
    {"label starts with dash", "-example.com/x", resource_kind::ignored, false},
    {"label ends with dash", "example-.com/x", resource_kind::ignored, false},
    {"underscore in domain", "ex_ample.com/x", resource_kind::ignored, false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(classify_resource(tc.resource), tc.kind);
    EXPECT_EQ(is_extended_resource(tc.resource), tc.extended);
  }
}

TEST(resource_list_test, saturating_arithmetic) {
  struct test_case {
    std::string name;
    std::int64_t a;
    std::int64_t b;
    std::int64_t sum;
    std::int64_t difference;
  };
  const std::vector<test_case> cases = {
    {"small", 5, 3, 8, 2},
    {"negative", -5, 3, -2, -8},
    {"max plus one", int64_max, 1, int64_max, int64_max - 1},
    {"max plus max", int64_max, int64_max, int64_max, 0},
    {"min minus one", int64_min, -1, int64_min, int64_min + 1},
    {"min minus max", int64_min, int64_max, -1, int64_min},
    {"max minus min", int64_max, int64_min, -1, int64_max},
    {"zero minus min", 0, int64_min, int64_min, int64_max},
    {"min plus min", int64_min, int64_min, int64_min, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(saturating_add(tc.a, tc.b), tc.sum);
    EXPECT_EQ(saturating_sub(tc.a, tc.b), tc.difference);
  }
}

TEST(resource_list_test, get_and_set_by_name) {
  struct test_case {
    std::string name;
    std::string resource;
    std::int64_t value;
    bool accepted;
    resource_list expected;
  };
  const std::vector<test_case> cases = {
    {"cpu", "cpu", 1500, true, make_list(1500, 0, 0, 0, {})},
    {"memory", "memory", 1 << 30, true, make_list(0, 1 << 30, 0, 0, {})},
    {"ephemeral", "ephemeral-storage", 7, true, make_list(0, 0, 7, 0, {})},
    {"pods", "pods", 110, true, make_list(0, 0, 0, 110, {})},
    {"scalar", gpu.str(), 4, true, make_list(0, 0, 0, 0, {{gpu, 4}})},
    {"scalar zero", gpu.str(), 0, true, make_list(0, 0, 0, 0, {{gpu, 0}})},
    {"ignored", "storage", 9, false, resource_list{}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    resource_list r;
    const symbol name{tc.resource};
    EXPECT_EQ(r.set(name, tc.value), tc.accepted);
    EXPECT_EQ(r, tc.expected);
    EXPECT_EQ(r.get(name), tc.accepted ? tc.value : 0);
  }
}

TEST(resource_list_test, scalars_sorted_by_symbol_id) {
  ASSERT_LT(gpu.id(), fpga.id());
  ASSERT_LT(fpga.id(), hugepages.id());
  struct test_case {
    std::string name;
    std::vector<std::pair<symbol, std::int64_t>> sets;
    std::vector<scalar_resource> expected;
  };
  const std::vector<test_case> cases = {
    {"ascending",
     {{gpu, 1}, {fpga, 2}, {hugepages, 3}},
     {{gpu, 1}, {fpga, 2}, {hugepages, 3}}},
    {"descending",
     {{hugepages, 3}, {fpga, 2}, {gpu, 1}},
     {{gpu, 1}, {fpga, 2}, {hugepages, 3}}},
    {"middle last",
     {{hugepages, 3}, {gpu, 1}, {fpga, 2}},
     {{gpu, 1}, {fpga, 2}, {hugepages, 3}}},
    {"overwrite", {{fpga, 2}, {gpu, 1}, {fpga, 5}}, {{gpu, 1}, {fpga, 5}}},
    {"overwrite with zero keeps entry", {{gpu, 1}, {gpu, 0}}, {{gpu, 0}}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    resource_list r;
    for (const auto& [name, value] : tc.sets)
      r.set_scalar(name, value);
    const std::vector<scalar_resource> got(r.scalars().begin(),
                                           r.scalars().end());
    EXPECT_EQ(got, tc.expected);
    for (const auto& entry : tc.expected)
      EXPECT_EQ(r.scalar(entry.name), entry.value);
  }
  EXPECT_EQ(resource_list{}.scalar(gpu), 0);
}

// add, subtract and max_with: `a` changed in place by `b`.
TEST(resource_list_test, in_place_arithmetic) {
  enum class op { add, subtract, max_with };
  struct test_case {
    std::string name;
    op operation;
    resource_list a;
    resource_list b;
    resource_list expected;
  };
  const std::vector<test_case> cases = {
    {"add: empty", op::add, {}, {}, {}},
    {"add: sums", op::add, make_list(100, 1000, 10, 1, {{gpu, 1}}),
     make_list(200, 24, 5, 2, {{gpu, 2}}),
     make_list(300, 1024, 15, 3, {{gpu, 3}})},
    {"add: new scalars are inserted in order", op::add,
     make_list(0, 0, 0, 0, {{hugepages, 1}}),
     make_list(0, 0, 0, 0, {{fpga, 2}, {gpu, 3}}),
     make_list(0, 0, 0, 0, {{gpu, 3}, {fpga, 2}, {hugepages, 1}})},
    {"add: saturates at max", op::add,
     make_list(int64_max, 1000, 1, 1, {{gpu, int64_max}}),
     make_list(1, int64_max, 0, 0, {{gpu, 1}}),
     make_list(int64_max, int64_max, 1, 1, {{gpu, int64_max}})},
    {"add: saturates at min", op::add,
     make_list(int64_min, 0, 0, 0, {{gpu, int64_min}}),
     make_list(-1, 0, 0, 0, {{gpu, -1}}),
     make_list(int64_min, 0, 0, 0, {{gpu, int64_min}})},
    {"subtract: differences", op::subtract,
     make_list(300, 1024, 15, 3, {{gpu, 3}}),
     make_list(200, 24, 5, 2, {{gpu, 2}}),
     make_list(100, 1000, 10, 1, {{gpu, 1}})},
    {"subtract: back to zero keeps entries", op::subtract,
     make_list(100, 0, 0, 1, {{gpu, 1}}), make_list(100, 0, 0, 1, {{gpu, 1}}),
     make_list(0, 0, 0, 0, {{gpu, 0}})},
    {"subtract: missing scalar goes negative", op::subtract,
     make_list(0, 0, 0, 0, {}), make_list(0, 0, 0, 0, {{fpga, 2}}),
     make_list(0, 0, 0, 0, {{fpga, -2}})},
    {"subtract: saturates at min", op::subtract,
     make_list(int64_min, -5, 0, 0, {{gpu, int64_min}}),
     make_list(1, int64_max, 0, 0, {{gpu, 1}}),
     make_list(int64_min, int64_min, 0, 0, {{gpu, int64_min}})},
    {"subtract: saturates at max", op::subtract,
     make_list(int64_max, 0, 0, 0, {}),
     make_list(-1, int64_min, 0, 0, {{gpu, int64_min}}),
     make_list(int64_max, int64_max, 0, 0, {{gpu, int64_max}})},
    {"max_with: per resource", op::max_with,
     make_list(100, 2000, 5, 1, {{gpu, 1}}),
     make_list(200, 1000, 5, 3, {{gpu, 4}}),
     make_list(200, 2000, 5, 3, {{gpu, 4}})},
    {"max_with: scalar only here is kept", op::max_with,
     make_list(0, 0, 0, 0, {{gpu, -3}}), make_list(0, 0, 0, 0, {}),
     make_list(0, 0, 0, 0, {{gpu, -3}})},
    {"max_with: scalar only there is max with zero", op::max_with,
     make_list(0, 0, 0, 0, {}), make_list(0, 0, 0, 0, {{gpu, -3}, {fpga, 2}}),
     make_list(0, 0, 0, 0, {{gpu, 0}, {fpga, 2}})},
    {"max_with: extremes", op::max_with,
     make_list(int64_min, int64_max, 0, 0, {}),
     make_list(int64_max, int64_min, 0, 0, {}),
     make_list(int64_max, int64_max, 0, 0, {})},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    resource_list r = tc.a;
    switch (tc.operation) {
    case op::add:
      r.add(tc.b);
      break;
    case op::subtract:
      r.subtract(tc.b);
      break;
    case op::max_with:
      r.max_with(tc.b);
      break;
    }
    EXPECT_EQ(r, tc.expected);
  }
}

TEST(resource_list_test, is_zero) {
  struct test_case {
    std::string name;
    resource_list r;
    bool zero;
  };
  const std::vector<test_case> cases = {
    {"empty", {}, true},
    {"pods do not count", make_list(0, 0, 0, 110, {}), true},
    {"explicit zero scalar", make_list(0, 0, 0, 0, {{gpu, 0}}), true},
    {"cpu", make_list(1, 0, 0, 0, {}), false},
    {"negative memory", make_list(0, -1, 0, 0, {}), false},
    {"ephemeral", make_list(0, 0, 1, 0, {}), false},
    {"scalar", make_list(0, 0, 0, 0, {{gpu, 0}, {fpga, 1}}), false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.r.is_zero(), tc.zero);
  }
}

TEST(resource_list_test, equality_counts_explicit_zero_entries) {
  EXPECT_EQ(make_list(1, 2, 3, 4, {{gpu, 5}}),
            make_list(1, 2, 3, 4, {{gpu, 5}}));
  EXPECT_NE(make_list(0, 0, 0, 0, {{gpu, 0}}), resource_list{});
  EXPECT_NE(make_list(0, 0, 0, 1, {}), resource_list{});
}

} // namespace
} // namespace tessera::model::resource_list_test
