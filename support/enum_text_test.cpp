// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/enum_text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {
namespace {

enum class colour : std::uint8_t { red, green, blue };

constexpr enum_names<3> colour_names = {"Red", "Green", "Blue"};
static_assert(all_named(colour_names));
static_assert(!all_named(enum_names<3>{"Red", "Green"}));

TEST(enum_text, both_directions_read_one_table) {
  struct test_case {
    std::string name;
    std::string text;
    std::optional<colour> value;
  };
  const std::vector<test_case> cases{
    {"first", "Red", colour::red},  {"middle", "Green", colour::green},
    {"last", "Blue", colour::blue}, {"wrong case", "blue", std::nullopt},
    {"empty", "", std::nullopt},    {"prefix", "Gre", std::nullopt},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto got = enum_from_text<colour>(tc.text, colour_names);
    EXPECT_EQ(got, tc.value);
    if (got) {
      EXPECT_EQ(enum_text(*got, colour_names, "?"), tc.text);
    }
  }
}

TEST(enum_text, value_outside_the_table_gets_the_fallback) {
  EXPECT_EQ(enum_text(static_cast<colour>(3), colour_names, "Unknown"),
            "Unknown");
}

} // namespace
} // namespace tessera
