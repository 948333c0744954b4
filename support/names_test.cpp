// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/names.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera {
namespace {

TEST(names, grammars) {
  struct test_case {
    std::string name;
    std::string text;
    bool label;
    bool subdomain;
    bool name_part;
  };
  const std::vector<test_case> cases{
    {"empty", "", false, false, false},
    {"simple", "web-1", true, true, true},
    {"dotted", "example.com", false, true, true},
    {"upper case", "Web", false, false, true},
    {"underscore", "a_b", false, false, true},
    {"leading dash", "-a", false, false, false},
    {"trailing dot", "a.", false, false, false},
    {"empty part", "a..b", false, false, true},
    {"dash before dot", "a-.b", false, false, true},
    {"long label part", std::string(70, 'a'), true, true, true},
    {"slash", "a/b", false, false, false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(is_dns1123_label(tc.text), tc.label);
    EXPECT_EQ(is_dns1123_subdomain(tc.text), tc.subdomain);
    EXPECT_EQ(is_qualified_name_part(tc.text), tc.name_part);
  }
}

} // namespace
} // namespace tessera
