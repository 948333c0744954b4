// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The soak's judge on hand-made API lists: each invariant it guards is
// broken once, and a healthy cluster passes.
#include "test/run/soak_checker.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace tessera::test {
namespace {

using namespace std::chrono_literals;

std::string node_json(const std::string& name, const std::string& cpu,
                      const std::string& pods = "10",
                      const std::string& spec = "{}") {
  return R"({"metadata":{"name":")" + name + R"("},"spec":)" + spec
         + R"(,"status":{"allocatable":{"cpu":")" + cpu
         + R"(","memory":"4Gi","pods":")" + pods + R"("}}})";
}

/// A pod requesting `cpu`; bound to `node` at `bound_at` when given;
/// pending with `reason` otherwise.
std::string pod_json(const std::string& name, const std::string& cpu,
                     const std::string& node = "",
                     const std::string& reason = "Unschedulable",
                     const std::string& bound_at = "2026-01-01T00:00:00Z") {
  std::string cond
    = node.empty()
        ? R"({"type":"PodScheduled","status":"False","reason":")" + reason
            + R"(","message":"0/1 nodes are available"})"
        : R"({"type":"PodScheduled","status":"True","lastTransitionTime":")"
            + bound_at + R"("})";
  return R"({"metadata":{"name":")" + name + R"("},"spec":{)"
         + (node.empty() ? "" : R"("nodeName":")" + node + R"(",)")
         + R"("containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu
         + R"(","memory":"1Gi"}}}]},"status":{"conditions":[)" + cond + "]}}";
}

std::string list(const std::vector<std::string>& items) {
  std::string out = R"({"items":[)";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? "," : "") + items[i];
  return out + "]}";
}

observation observe(const std::vector<std::string>& nodes,
                    const std::vector<std::string>& pods) {
  std::string error;
  auto o = decode_observation(list(nodes), list(pods), error);
  EXPECT_TRUE(o) << error;
  return o.value_or(observation{});
}

TEST(SoakChecker, NamesEachBrokenInvariant) {
  struct test_case {
    std::string name;
    /// Prepares the checker (what the driver did) before the look.
    std::function<void(soak_checker&)> history;
    std::vector<std::string> nodes;
    std::vector<std::string> pods;
    /// Expected fragment of the one safety / liveness violation; "" = none.
    std::string safety;
    std::string liveness;
  };
  auto created = [](std::vector<std::string> names) {
    return [names](soak_checker& c) {
      for (const auto& n : names)
        c.created(n);
    };
  };
  auto t0 = std::chrono::system_clock::time_point{} + 1767225600s;
  std::vector<test_case> cases = {
    {"healthy",
     created({"a", "b"}),
     {node_json("n1", "1")},
     {pod_json("a", "600m", "n1"), pod_json("b", "600m")},
     "",
     ""},
    {"lost pod",
     created({"a", "b"}),
     {node_json("n1", "1")},
     {pod_json("a", "600m", "n1")},
     "pod b is lost",
     ""},
    {"deleted pod is not lost",
     [&](soak_checker& c) {
       created({"a", "b"})(c);
       c.deleted("b");
     },
     {node_json("n1", "1")},
     {pod_json("a", "600m", "n1")},
     "",
     ""},
    {"cpu overcommitted",
     created({"a", "b"}),
     {node_json("n1", "1")},
     {pod_json("a", "600m", "n1"), pod_json("b", "600m", "n1")},
     "node n1 is overcommitted: cpu 1200m of 1000m",
     ""},
    {"pods overcommitted",
     created({"a", "b"}),
     {node_json("n1", "4", "1")},
     {pod_json("a", "1", "n1"), pod_json("b", "1", "n1")},
     "pods 2 of 1",
     ""},
    {"bound to a node that never existed",
     created({"a"}),
     {node_json("n1", "1")},
     {pod_json("a", "1", "n9")},
     "pod a is bound to missing node n9",
     ""},
    {"bound long after the node vanished",
     [&](soak_checker& c) {
       created({"a"})(c);
       c.node_vanished("n2", t0, 5s);
     },
     {node_json("n1", "1")},
     {pod_json("a", "1", "n2", "", "2026-01-01T00:00:06Z")},
     "node vanished at 2026-01-01T00:00:00Z",
     ""},
    {"binding racing the node's disappearance",
     [&](soak_checker& c) {
       created({"a"})(c);
       c.node_vanished("n2", t0, 5s);
     },
     {node_json("n1", "1")},
     {pod_json("a", "1", "n2", "", "2026-01-01T00:00:04Z")},
     "",
     ""},
    {"bound to a node the cluster came back without",
     [&](soak_checker& c) {
       created({"a"})(c);
       c.node_vanished("n2", t0, std::nullopt);
     },
     {node_json("n1", "1")},
     {pod_json("a", "1", "n2", "", "2026-01-01T00:00:00Z")},
     "pod a is bound to missing node n2",
     ""},
    {"pending without a reason",
     created({"a"}),
     {node_json("n1", "1")},
     {pod_json("a", "2", "", "")},
     "",
     "pod a is pending without a reason"},
    {"pending with the wrong reason",
     created({"a"}),
     {node_json("n1", "1")},
     {pod_json("a", "2", "", "SchedulerError")},
     "",
     "reason=\"SchedulerError\""},
    {"pending but fits",
     created({"a", "b"}),
     {node_json("n1", "1"), node_json("n2", "2")},
     {pod_json("a", "600m", "n2"), pod_json("b", "900m")},
     "",
     "pod b (cpu 900m, memory 1024Mi) is pending but fits on node n1"},
    {"a tainted node is no room",
     created({"a"}),
     {node_json("n1", "1", "10",
                R"({"taints":[{"key":"k","effect":"NoSchedule"}]})")},
     {pod_json("a", "100m")},
     "",
     ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    soak_checker c;
    tc.history(c);
    auto o = observe(tc.nodes, tc.pods);
    auto safety = c.safety(o);
    auto liveness = c.settled(o);
    ASSERT_EQ(safety.size(), tc.safety.empty() ? 0u : 1u)
      << (safety.empty() ? "" : safety[0]);
    if (!tc.safety.empty()) {
      EXPECT_NE(safety[0].find(tc.safety), std::string::npos) << safety[0];
    }
    ASSERT_EQ(liveness.size(), tc.liveness.empty() ? 0u : 1u)
      << (liveness.empty() ? "" : liveness[0]);
    if (!tc.liveness.empty()) {
      EXPECT_NE(liveness[0].find(tc.liveness), std::string::npos)
        << liveness[0];
    }
  }
}

// A second binding is caught across looks: the first node a pod was seen
// on is remembered.
TEST(SoakChecker, RemembersTheFirstBinding) {
  soak_checker c;
  c.created("a");
  std::vector<std::string> nodes = {node_json("n1", "1"), node_json("n2", "1")};
  EXPECT_TRUE(c.safety(observe(nodes, {pod_json("a", "1", "n1")})).empty());
  EXPECT_TRUE(c.safety(observe(nodes, {pod_json("a", "1", "n1")})).empty());
  auto moved = c.safety(observe(nodes, {pod_json("a", "1", "n2")}));
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0], "pod a was bound twice: first to n1, now to n2");
}

// Orphans of a vanished node within the race window are named for the
// driver's garbage collection; later ones are violations, not orphans.
TEST(SoakChecker, NamesRacedOrphans) {
  soak_checker c;
  c.created("early");
  c.created("late");
  c.node_vanished("n2", std::chrono::system_clock::time_point{} + 1767225600s,
                  5s);
  auto o = observe({node_json("n1", "1")},
                   {pod_json("early", "1", "n2", "", "2026-01-01T00:00:01Z"),
                    pod_json("late", "1", "n2", "", "2026-01-01T00:01:00Z")});
  EXPECT_EQ(c.raced_orphans(o), std::vector<std::string>{"early"});
  auto v = c.safety(o);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("pod late is bound to missing node n2"),
            std::string::npos)
    << v[0];
}

TEST(SoakChecker, RejectsWhatIsNotAList) {
  std::string error;
  EXPECT_FALSE(decode_observation("{}", list({}), error));
  EXPECT_EQ(error, "node list: not a list");
  EXPECT_FALSE(decode_observation(list({}), "[", error));
  EXPECT_NE(error.find("not JSON"), std::string::npos) << error;
  EXPECT_FALSE(decode_observation(
    list({R"({"metadata":{"name":"n"},"status":{"allocatable":{"cpu":"x"}}})"}),
    list({}), error));
  EXPECT_NE(error.find("undecodable item"), std::string::npos) << error;
}

} // namespace
} // namespace tessera::test
