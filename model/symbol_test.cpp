// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/symbol.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace tessera::model {
namespace {

/// A tag that differs on every call, so tests that count new strings still
/// see new strings under --gtest_repeat.
std::string fresh_tag(const std::string& base) {
  static int calls = 0;
  return "symbol-test/" + base + "/" + std::to_string(++calls) + "/";
}

TEST(symbol_test, identity) {
  struct test_case {
    std::string name;
    std::string a;
    std::string b;
    bool same;
  };
  const std::vector<test_case> cases = {
    {"same text", "symbol-test/zone", "symbol-test/zone", true},
    {"different text", "symbol-test/zone", "symbol-test/region", false},
    {"case matters", "symbol-test/Zone", "symbol-test/zone", false},
    {"prefix is different", "symbol-test/a", "symbol-test/ab", false},
    {"embedded nul", std::string("symbol-test\0x", 13), "symbol-test", false},
    {"empty and empty", "", "", true},
    {"empty and text", "", "symbol-test/x", false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const symbol a{tc.a};
    const symbol b{tc.b};
    EXPECT_EQ(a == b, tc.same);
    EXPECT_EQ(a.id() == b.id(), tc.same);
    EXPECT_EQ(std::hash<symbol>{}(a) == std::hash<symbol>{}(b), tc.same);
    // The text survives interning byte for byte.
    EXPECT_EQ(a.view(), tc.a);
    EXPECT_EQ(b.str(), tc.b);
    EXPECT_TRUE(a == std::string_view{tc.a});
  }
}

TEST(symbol_test, empty_symbol) {
  struct test_case {
    std::string name;
    symbol s;
    bool empty;
  };
  const std::vector<test_case> cases = {
    {"default constructed", symbol{}, true},
    {"interned empty string", symbol{""}, true},
    {"interned text", symbol{"symbol-test/non-empty"}, false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.s.empty(), tc.empty);
    EXPECT_EQ(tc.s.id() == 0, tc.empty);
    EXPECT_EQ(tc.s.view().empty(), tc.empty);
    EXPECT_EQ(tc.s == symbol{}, tc.empty);
  }
}

TEST(symbol_test, ordering_and_printing) {
  const symbol first{"symbol-test/order-b"};
  const symbol second{"symbol-test/order-a"};
  // Interned later, so a larger id, though lexically smaller.
  EXPECT_LT(first, second);
  EXPECT_TRUE(lexical_less(second, first));
  EXPECT_FALSE(lexical_less(first, second));
  std::ostringstream out;
  out << first << "," << symbol{};
  EXPECT_EQ(out.str(), "symbol-test/order-b,");
}

TEST(symbol_test, lookup_does_not_grow_the_table) {
  const symbol known{"symbol-test/known"};
  struct test_case {
    std::string name;
    std::string text;
    bool found;
    symbol expected;
  };
  const std::vector<test_case> cases = {
    {"known text", "symbol-test/known", true, known},
    {"unknown text", "symbol-test/never-interned-anywhere", false, symbol{}},
    {"empty text", "", true, symbol{}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const std::size_t before = interned_count();
    bool found = !tc.found;
    const symbol s = symbol::lookup(tc.text, found);
    EXPECT_EQ(found, tc.found);
    EXPECT_EQ(s, tc.expected);
    EXPECT_EQ(interned_count(), before);
  }
  // Interning a new string does grow it, by one, once.
  const std::string text = fresh_tag("grows-once");
  const std::size_t before = interned_count();
  const symbol fresh{text};
  EXPECT_EQ(interned_count(), before + 1);
  const symbol again{text};
  EXPECT_EQ(interned_count(), before + 1);
  EXPECT_EQ(fresh, again);
}

TEST(symbol_test, concurrent_interning) {
  struct test_case {
    std::string name;
    int threads;
    int shared;
    int own;
  };
  const std::vector<test_case> cases = {
    {"two threads", 2, 200, 200},
    {"eight threads", 8, 500, 300},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const std::string tag = fresh_tag(tc.name);
    // Each thread interns the shared strings (in a different order) and its
    // own strings, and records the ids it got.
    std::vector<std::vector<std::uint32_t>> shared_ids(tc.threads);
    std::vector<std::vector<symbol>> own_symbols(tc.threads);
    std::vector<std::thread> workers;
    const std::size_t before = interned_count();
    for (int t = 0; t < tc.threads; ++t) {
      workers.emplace_back([&, t] {
        auto& ids = shared_ids[t];
        ids.resize(tc.shared);
        for (int k = 0; k < tc.shared; ++k) {
          const int i = (k + t * 37) % tc.shared;
          ids[i] = symbol{tag + "shared-" + std::to_string(i)}.id();
        }
        for (int i = 0; i < tc.own; ++i)
          own_symbols[t].emplace_back(tag + "own-" + std::to_string(t) + "-"
                                      + std::to_string(i));
      });
    }
    for (auto& w : workers)
      w.join();

    for (int t = 1; t < tc.threads; ++t)
      EXPECT_EQ(shared_ids[t], shared_ids[0]);
    std::unordered_set<std::uint32_t> distinct(shared_ids[0].begin(),
                                               shared_ids[0].end());
    for (int t = 0; t < tc.threads; ++t) {
      for (int i = 0; i < tc.own; ++i) {
        const symbol s = own_symbols[t][i];
        EXPECT_EQ(s.view(),
                  tag + "own-" + std::to_string(t) + "-" + std::to_string(i));
        distinct.insert(s.id());
      }
    }
    const auto expected
      = static_cast<std::size_t>(tc.shared + tc.threads * tc.own);
    EXPECT_EQ(distinct.size(), expected);
    EXPECT_EQ(interned_count(), before + expected);
    for (int i = 0; i < tc.shared; ++i) {
      bool found = false;
      const symbol s
        = symbol::lookup(tag + "shared-" + std::to_string(i), found);
      EXPECT_TRUE(found);
      EXPECT_EQ(s.id(), shared_ids[0][i]);
    }
  }
}

} // namespace
} // namespace tessera::model
