// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

#include "io/apiserver/object_index.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace tessera::apiserver {
namespace {

// Random inserts, overwrites and erases must leave the index answering
// exactly as a plain ordered map does: point lookups, order and ranges.
TEST(ObjectIndex, AgreesWithAnOrderedMapUnderRandomWrites) {
  object_index<int> index;
  std::map<std::string, int, std::less<>> model;
  std::mt19937 rng(7);
  auto key = [&] {
    return "ns-" + std::to_string(rng() % 5) + "/pod-"
           + std::to_string(rng() % 200);
  };
  for (int step = 0; step < 20000; ++step) {
    auto k = key();
    switch (rng() % 3) {
    case 0:
    case 1: {
      int v = static_cast<int>(rng() % 1000);
      index.insert_or_assign(k, v);
      model.insert_or_assign(k, v);
      break;
    }
    default:
      index.erase(k);
      model.erase(k);
    }
    auto probe = key();
    auto it = index.find(probe);
    auto want = model.find(probe);
    ASSERT_EQ(it == index.end(), want == model.end()) << probe;
    if (want != model.end()) {
      EXPECT_EQ(it->first, probe);
      EXPECT_EQ(it->second, want->second);
    }
    EXPECT_EQ(index.contains(probe), model.contains(probe));
  }
  ASSERT_EQ(index.size(), model.size());
  std::vector<std::pair<std::string, int>> walked(index.begin(), index.end());
  std::vector<std::pair<std::string, int>> expected(model.begin(), model.end());
  EXPECT_EQ(walked, expected);
  auto from = index.lower_bound("ns-2/");
  ASSERT_NE(from, index.end());
  EXPECT_EQ(from->first, model.lower_bound("ns-2/")->first);
}

TEST(ObjectIndex, EraseOfAMissingKeyChangesNothing) {
  object_index<int> index;
  index.insert_or_assign("a/x", 1);
  index.erase("a/y");
  EXPECT_EQ(index.size(), 1u);
  ASSERT_NE(index.find("a/x"), index.end());
  EXPECT_EQ(index.find("a/x")->second, 1);
}

} // namespace
} // namespace tessera::apiserver
