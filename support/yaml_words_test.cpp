// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/yaml_words.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace tessera {
namespace {

TEST(yaml_words, plain_scalars) {
  enum class kind { other, null, yes, no, plus_inf, minus_inf, nan };
  struct test_case {
    std::string text;
    kind want;
  };
  const std::vector<test_case> cases{
    {"", kind::null},          {"~", kind::null},
    {"Null", kind::null},      {"NULL", kind::null},
    {"nULL", kind::other},     {"yes", kind::yes},
    {"Y", kind::yes},          {"On", kind::yes},
    {"TRUE", kind::yes},       {"tRUE", kind::other},
    {"off", kind::no},         {"N", kind::no},
    {"False", kind::no},       {".inf", kind::plus_inf},
    {"+.INF", kind::plus_inf}, {"-.Inf", kind::minus_inf},
    {".NaN", kind::nan},       {".nAn", kind::other},
    {"1", kind::other},        {"0", kind::other},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE("\"" + tc.text + "\"");
    EXPECT_EQ(is_yaml_null(tc.text), tc.want == kind::null);
    auto b = yaml_bool(tc.text);
    EXPECT_EQ(b.has_value(), tc.want == kind::yes || tc.want == kind::no);
    if (b) {
      EXPECT_EQ(*b, tc.want == kind::yes);
    }
    auto f = yaml_special_float(tc.text);
    switch (tc.want) {
    case kind::plus_inf:
      ASSERT_TRUE(f);
      EXPECT_TRUE(std::isinf(*f) && *f > 0);
      break;
    case kind::minus_inf:
      ASSERT_TRUE(f);
      EXPECT_TRUE(std::isinf(*f) && *f < 0);
      break;
    case kind::nan:
      ASSERT_TRUE(f);
      EXPECT_TRUE(std::isnan(*f));
      break;
    default:
      EXPECT_FALSE(f);
    }
  }
}

} // namespace
} // namespace tessera
