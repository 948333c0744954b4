// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/cluster_objects.hpp"
#include "model/disruption_budget_status.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::model::disruption_budget_status_test {
namespace {

using test::make_pod;

using test::budget_spec;
using test::make_budget;

model::pod_ptr running(const std::string& name, bool controlled = true,
                       const char* ns = "default") {
  auto b = make_pod(name)
             .ns(ns)
             .label("app", "web")
             .phase(model::pod_phase::running);
  if (controlled)
    b.owner("ReplicaSet", "web-rs");
  return b.build();
}

TEST(disruption_budget_status, pdb_disruptions_allowed) {
  const model::int_or_percent one{1, false};
  const model::int_or_percent two{2, false};
  const model::int_or_percent three{3, false};
  const model::int_or_percent zero{0, false};
  const model::int_or_percent half{50, true};
  const model::int_or_percent thirty{30, true};
  const test::label_pairs app_web = {{"app", "web"}};
  std::vector<model::pod_ptr> four_running
    = {running("a"), running("b"), running("c"), running("d")};
  struct test_case {
    std::string name;
    budget_spec budget;
    std::vector<model::pod_ptr> pods;
    std::int32_t want;
  };
  const std::vector<test_case> cases = {
    {"minAvailable 2 of 3 healthy",
     {std::nullopt, app_web, "default", {}, two},
     {running("a"), running("b"), running("c")},
     1},
    {"minAvailable 3 of 3 healthy",
     {std::nullopt, app_web, "default", {}, three},
     {running("a"), running("b"), running("c")},
     0},
    {"a pending pod is not healthy",
     {std::nullopt, app_web, "default", {}, two},
     {running("a"), running("b"), make_pod("c").label("app", "web").build()},
     0},
    {"a deleting pod is not healthy",
     {std::nullopt, app_web, "default", {}, one},
     {running("a"), make_pod("b")
                      .label("app", "web")
                      .phase(model::pod_phase::running)
                      .deleting()
                      .build()},
     0},
    {"a pod in disruptedPods is not healthy",
     {std::nullopt, app_web, "default", {"a"}, one},
     {running("a"), running("b")},
     0},
    {"minAvailable as a number counts unmanaged pods",
     {std::nullopt, app_web, "default", {}, one},
     {running("a", false), running("b", false)},
     1},
    {"minAvailable 0 with no matching pod",
     {std::nullopt, app_web, "default", {}, zero},
     {},
     0},
    {"minAvailable 50% of 4 controlled pods",
     {std::nullopt, app_web, "default", {}, half},
     four_running,
     2},
    {"minAvailable 30% of 4 rounds up to 2",
     {std::nullopt, app_web, "default", {}, thirty},
     four_running,
     2},
    {"maxUnavailable 1 of 4",
     {std::nullopt, app_web, "default", {}, std::nullopt, one},
     four_running,
     1},
    {"maxUnavailable 30% of 4 rounds up to 2",
     {std::nullopt, app_web, "default", {}, std::nullopt, thirty},
     four_running,
     2},
    {"maxUnavailable with only unmanaged pods",
     {std::nullopt, app_web, "default", {}, std::nullopt, one},
     {running("a", false), running("b", false)},
     0},
    {"maxUnavailable above the count clamps at zero desired",
     {std::nullopt, app_web, "default", {}, std::nullopt, three},
     {running("a"), running("b")},
     2},
    {"neither field set", {std::nullopt, app_web}, four_running, 0},
    {"pods of other namespaces do not count",
     {std::nullopt, app_web, "default", {}, one},
     {running("a"), running("b", true, "other"), running("c", true, "other")},
     0},
    {"an empty selector counts every pod of the namespace",
     {std::nullopt, {}, "default", {}, one},
     {running("a"), make_pod("b").phase(model::pod_phase::running).build(),
      running("c", true, "other")},
     1},
    {"a nil selector counts no pod",
     {std::nullopt, {}, "default", {}, zero, std::nullopt, true},
     four_running,
     0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(pdb_disruptions_allowed(*make_budget(tc.budget), tc.pods),
              tc.want);
  }
}

} // namespace
} // namespace tessera::model::disruption_budget_status_test
