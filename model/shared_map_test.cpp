// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/shared_map.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <random>
#include <string>

namespace tessera::model::shared_map_test {
namespace {

using map = shared_map<std::string, int>;

std::map<std::string, int> contents(const map& m) {
  std::map<std::string, int> out;
  m.for_each([&](const std::string& k, int v) { out.emplace(k, v); });
  return out;
}

// Every hash the same: all keys share one leaf and one hash value.
struct one_hash {
  std::size_t operator()(const std::string&) const noexcept {
    return 42;
  }
};

TEST(SharedMap, BehavesAsAMapUnderRandomChanges) {
  std::mt19937 rng(7);
  map m;
  std::map<std::string, int> expected;
  for (int step = 0; step < 20000; ++step) {
    auto key = "k" + std::to_string(rng() % 3000);
    if (rng() % 3 == 0) {
      EXPECT_EQ(m.erase(key), expected.erase(key) > 0);
    } else {
      int value = static_cast<int>(rng() % 1000);
      m.set(key, value);
      expected[key] = value;
    }
    ASSERT_EQ(m.size(), expected.size());
  }
  EXPECT_EQ(contents(m), expected);
  for (const auto& [k, v] : expected) {
    ASSERT_NE(m.find(k), nullptr) << k;
    EXPECT_EQ(*m.find(k), v);
  }
  EXPECT_EQ(m.find("absent"), nullptr);
}

TEST(SharedMap, CopiesKeepTheirContentsWhenTheOriginalChanges) {
  map m;
  for (int i = 0; i < 5000; ++i)
    m.set("v" + std::to_string(i), i);
  const map before = m;
  const auto before_contents = contents(before);
  for (int i = 0; i < 5000; i += 2)
    m.set("v" + std::to_string(i), -i);
  for (int i = 1; i < 5000; i += 4)
    m.erase("v" + std::to_string(i));
  m.set("new", 1);
  EXPECT_EQ(contents(before), before_contents);
  EXPECT_EQ(before.size(), 5000u);
  EXPECT_EQ(*before.find("v2"), 2);
  EXPECT_EQ(*m.find("v2"), -2);
  EXPECT_EQ(m.find("v1"), nullptr);
  EXPECT_EQ(*before.find("v1"), 1);
  EXPECT_EQ(before.find("new"), nullptr);
  // And the copy, changed, leaves the original alone.
  map after = m;
  after.clear();
  EXPECT_EQ(*m.find("new"), 1);
}

TEST(SharedMap, KeysWithEqualHashesStayApart) {
  shared_map<std::string, int, one_hash> m;
  m.set("a", 1);
  m.set("b", 2);
  m.set("c", 3);
  m.set("b", 20);
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(*m.find("a"), 1);
  EXPECT_EQ(*m.find("b"), 20);
  EXPECT_TRUE(m.erase("a"));
  EXPECT_FALSE(m.erase("a"));
  EXPECT_EQ(m.find("a"), nullptr);
  EXPECT_EQ(*m.find("c"), 3);
  EXPECT_TRUE(m.erase("c"));
  EXPECT_TRUE(m.erase("b"));
  EXPECT_TRUE(m.empty());
}

} // namespace
} // namespace tessera::model::shared_map_test
