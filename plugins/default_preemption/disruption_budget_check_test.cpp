// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_preemption/disruption_budget_check.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::plugins::disruption_budget_check_test {
namespace {

using test::make_pod;

using test::budget_spec;
using test::make_budget;

std::vector<std::string> names(const std::vector<model::pod_core_ptr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods)
    out.push_back(p->name);
  return out;
}

model::pod_ptr web(const std::string& name, const char* ns = "default") {
  return make_pod(name).ns(ns).label("app", "web").build();
}

TEST(pdb_split, split_by_pdb_violation) {
  struct test_case {
    std::string name;
    std::vector<model::pod_core_ptr> pods;
    std::vector<budget_spec> budgets;
    std::vector<std::string> want_violating;
    std::vector<std::string> want_non_violating;
  };
  const std::vector<test_case> cases = {
    {"no budgets", {web("a"), web("b")}, {}, {}, {"a", "b"}},
    {"allowance used up in order",
     {web("a"), web("b"), web("c")},
     {{2, {{"app", "web"}}}},
     {"c"},
     {"a", "b"}},
    {"no allowance", {web("a")}, {{0, {{"app", "web"}}}}, {"a"}, {}},
    {"missing status allows nothing",
     {web("a")},
     {{std::nullopt, {{"app", "web"}}}},
     {"a"},
     {}},
    {"disrupted pods cost nothing",
     {web("a"), web("b")},
     {{1, {{"app", "web"}}, "default", {"a"}}},
     {},
     {"a", "b"}},
    {"other namespace",
     {web("a")},
     {{0, {{"app", "web"}}, "other"}},
     {},
     {"a"}},
    {"selector does not match", {web("a")}, {{0, {{"app", "db"}}}}, {}, {"a"}},
    {"empty selector matches nothing", {web("a")}, {{0, {}}}, {}, {"a"}},
    {"nil selector matches nothing",
     {web("a")},
     {{0, {}, "default", {}, std::nullopt, std::nullopt, true}},
     {},
     {"a"}},
    {"pod without labels",
     {make_pod("a").build()},
     {{0, {{"app", "web"}}}},
     {},
     {"a"}},
    {"every applying budget pays, even after a violation",
     {web("a"), web("b")},
     {{0, {{"app", "web"}}}, {1, {{"app", "web"}}}},
     {"a", "b"},
     {}},
    {"one budget with room, one without",
     {make_pod("a").label("app", "web").label("tier", "db").build(),
      make_pod("b").label("tier", "db").build()},
     {{0, {{"app", "web"}}}, {1, {{"tier", "db"}}}},
     {"a", "b"},
     {}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::vector<model::disruption_budget_ptr> budgets;
    for (const auto& b : tc.budgets)
      budgets.push_back(make_budget(b));
    auto out = split_by_pdb_violation(tc.pods, budgets);
    EXPECT_EQ(names(out.violating), tc.want_violating);
    EXPECT_EQ(names(out.non_violating), tc.want_non_violating);
  }
}

} // namespace
} // namespace tessera::plugins::disruption_budget_check_test
