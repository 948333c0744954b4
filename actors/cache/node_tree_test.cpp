// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/node_tree.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

namespace tessera::actors {
namespace {

TEST(NodeTree, ZoneKeyCombinesRegionAndZone) {
  struct test_case {
    std::string name;
    test::label_pairs labels;
    std::string expected_group; // "" = no zone
  };
  const std::vector<test_case> cases{
    {"no labels", {}, ""},
    {"unrelated label", {{"tier", "gold"}}, ""},
    {"zone only", {{"topology.kubernetes.io/zone", "a"}}, "za"},
    {"region only", {{"topology.kubernetes.io/region", "r"}}, "r"},
    {"both",
     {{"topology.kubernetes.io/region", "r"},
      {"topology.kubernetes.io/zone", "a"}},
     "rza"},
  };
  std::map<std::string, model::symbol> seen;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto key = zone_key(test::make_labels(tc.labels));
    if (tc.expected_group.empty()) {
      EXPECT_TRUE(key.empty());
      continue;
    }
    EXPECT_FALSE(key.empty());
    // Different label combinations never share a key.
    for (const auto& [group, other] : seen)
      EXPECT_NE(key, other) << "same key as " << group;
    seen.emplace(tc.expected_group, key);
  }
  // Region "r" + zone "" differs from region "" + zone "r".
  EXPECT_NE(
    zone_key(test::make_labels({{"topology.kubernetes.io/region", "r"}})),
    zone_key(test::make_labels({{"topology.kubernetes.io/zone", "r"}})));
}

// A scripted sequence of edits and the node order after them.
TEST(NodeTree, ListsNodesRoundRobinAcrossZonesInFirstSeenOrder) {
  struct op {
    char what; // '+' add, '-' remove, '~' update zone
    std::string node;
    std::string zone;
  };
  struct test_case {
    std::string name;
    std::vector<op> ops;
    std::vector<std::string> expected;
  };
  const std::vector<test_case> cases{
    {"empty", {}, {}},
    {"one zone keeps insertion order",
     {{'+', "a", "z1"}, {'+', "b", "z1"}, {'+', "c", "z1"}},
     {"a", "b", "c"}},
    {"round robin",
     {{'+', "a", "z1"},
      {'+', "b", "z1"},
      {'+', "c", "z2"},
      {'+', "d", "z3"},
      {'+', "e", "z2"}},
     {"a", "c", "d", "b", "e"}},
    {"nodes without a zone form their own group",
     {{'+', "a", ""}, {'+', "b", "z1"}, {'+', "c", ""}},
     {"a", "b", "c"}},
    {"removal keeps the others' order",
     {{'+', "a", "z1"},
      {'+', "b", "z1"},
      {'+', "c", "z2"},
      {'+', "d", "z3"},
      {'+', "e", "z2"},
      {'-', "c", ""}},
     {"a", "e", "d", "b"}},
    {"an emptied zone goes; re-added it comes last",
     {{'+', "a", "z1"},
      {'+', "b", "z2"},
      {'+', "c", "z3"},
      {'-', "a", ""},
      {'+', "x", "z1"}},
     {"b", "c", "x"}},
    {"a zone change moves the node to the end of its new zone",
     {{'+', "a", "z1"}, {'+', "b", "z1"}, {'+', "c", "z2"}, {'~', "a", "z2"}},
     {"b", "c", "a"}},
    {"an update to the same zone changes nothing",
     {{'+', "a", "z1"}, {'+', "b", "z1"}, {'~', "a", "z1"}},
     {"a", "b"}},
    {"duplicate add and absent remove are no-ops",
     {{'+', "a", "z1"}, {'+', "a", "z2"}, {'-', "zz", ""}},
     {"a"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    node_tree tree;
    auto zone = [](const std::string& z) {
      return z.empty() ? model::symbol{} : model::symbol{"zone:" + z};
    };
    for (const auto& o : tc.ops) {
      model::symbol n{o.node};
      if (o.what == '+')
        tree.add(n, zone(o.zone));
      else if (o.what == '-')
        tree.remove(n);
      else
        tree.update(n, zone(o.zone));
    }
    std::vector<std::string> got;
    for (auto n : tree.list())
      got.push_back(n.str());
    EXPECT_EQ(got, tc.expected);
    EXPECT_EQ(tree.size(), tc.expected.size());
  }
}

} // namespace
} // namespace tessera::actors
