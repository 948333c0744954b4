// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/taint.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

// Each test file has its own namespace so that unity builds, which merge
// files, see no clashing helpers.
namespace tessera::model::taint_test {
namespace {

using effect = taint_effect;

taint make_taint(std::string_view key, std::string_view value, effect e) {
  return taint{symbol{key}, symbol{value}, e};
}

toleration equal(std::string_view key, std::string_view value,
                 std::optional<effect> e = std::nullopt) {
  toleration t;
  t.key = symbol{key};
  t.oper = toleration::op::equal;
  t.value = symbol{value};
  t.effect = e;
  return t;
}

toleration exists(std::string_view key,
                  std::optional<effect> e = std::nullopt) {
  toleration t;
  t.key = symbol{key};
  t.oper = toleration::op::exists;
  t.effect = e;
  return t;
}

TEST(taint_effect, to_string_and_parse) {
  struct test_case {
    std::string name;
    effect e;
    std::string text;
  };
  const std::vector<test_case> cases = {
    {"no schedule", effect::no_schedule, "NoSchedule"},
    {"prefer no schedule", effect::prefer_no_schedule, "PreferNoSchedule"},
    {"no execute", effect::no_execute, "NoExecute"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(to_string(tc.e), tc.text);
    auto parsed = parse_taint_effect(tc.text);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, tc.e);
  }
}

TEST(taint_effect, parse_rejects_other_spellings) {
  for (std::string text : {"", "noschedule", "NOSCHEDULE", "NoSchedule ",
                           "Preferred", "NoExecution"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(parse_taint_effect(text).has_value());
  }
}

TEST(toleration, tolerates) {
  struct test_case {
    std::string name;
    toleration tol;
    taint t;
    bool expected;
  };
  const auto gpu = make_taint("gpu", "true", effect::no_schedule);
  const std::vector<test_case> cases = {
    {"equal key, value and effect", equal("gpu", "true", effect::no_schedule),
     gpu, true},
    {"different value", equal("gpu", "false", effect::no_schedule), gpu, false},
    {"different key", equal("disk", "true", effect::no_schedule), gpu, false},
    {"different effect", equal("gpu", "true", effect::no_execute), gpu, false},
    {"empty effect matches any effect", equal("gpu", "true"),
     make_taint("gpu", "true", effect::no_execute), true},
    {"exists ignores the value", exists("gpu", effect::no_schedule), gpu, true},
    {"exists still needs the key", exists("disk"), gpu, false},
    {"exists still needs the effect", exists("gpu", effect::no_execute), gpu,
     false},
    {"empty key with exists tolerates everything", exists(""),
     make_taint("any", "thing", effect::no_execute), true},
    {"empty key with exists and an effect",
     exists("", effect::prefer_no_schedule),
     make_taint("any", "", effect::no_schedule), false},
    {"empty key with equal compares the value only", equal("", "true"), gpu,
     true},
    {"empty key with equal and another value", equal("", "x"), gpu, false},
    {"equal with empty values", equal("k", ""),
     make_taint("k", "", effect::no_schedule), true},
    {"equal empty value against a value", equal("k", ""),
     make_taint("k", "v", effect::no_schedule), false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.tol.tolerates(tc.t), tc.expected);
  }
}

TEST(toleration, tolerated_by_any) {
  const auto t = make_taint("gpu", "true", effect::no_schedule);
  const std::vector<toleration> none;
  const std::vector<toleration> miss = {equal("disk", "ssd"), exists("x")};
  const std::vector<toleration> hit = {equal("disk", "ssd"), exists("gpu")};
  EXPECT_FALSE(tolerated(t, none));
  EXPECT_FALSE(tolerated(t, miss));
  EXPECT_TRUE(tolerated(t, hit));
}

TEST(toleration, find_untolerated_hard_taint) {
  struct test_case {
    std::string name;
    std::vector<taint> taints;
    std::vector<toleration> tolerations;
    /// Index of the expected taint, or -1 for none.
    int expected;
  };
  const auto soft = make_taint("soft", "", effect::prefer_no_schedule);
  const auto hard = make_taint("hard", "1", effect::no_schedule);
  const auto exec = make_taint("exec", "1", effect::no_execute);
  const std::vector<test_case> cases = {
    {"no taints", {}, {}, -1},
    {"prefer no schedule is ignored", {soft}, {}, -1},
    {"no schedule untolerated", {soft, hard}, {}, 1},
    {"no execute untolerated", {exec}, {}, 0},
    {"first untolerated wins", {hard, exec}, {}, 0},
    {"tolerated one is skipped", {hard, exec}, {exists("hard")}, 1},
    {"all tolerated", {hard, exec, soft}, {exists("")}, -1},
    {"effect-specific toleration does not cover the other",
     {exec, hard},
     {exists("exec", effect::no_schedule), exists("hard")},
     0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const taint* found = find_untolerated_hard_taint(tc.taints, tc.tolerations);
    if (tc.expected < 0) {
      EXPECT_EQ(found, nullptr);
    } else {
      ASSERT_NE(found, nullptr);
      EXPECT_EQ(found, &tc.taints[static_cast<std::size_t>(tc.expected)]);
    }
  }
}

} // namespace
} // namespace tessera::model::taint_test
