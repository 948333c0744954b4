// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera {
namespace {

TEST(text, json_and_go_quoting) {
  struct test_case {
    std::string name;
    std::string text;
    std::string json;
    std::string go;
  };
  const std::vector<test_case> cases{
    {"empty", "", R"("")", R"("")"},
    {"plain", "web-1", R"("web-1")", R"("web-1")"},
    {"quote and backslash", "a\"b\\c", R"("a\"b\\c")", R"("a\"b\\c")"},
    {"short escapes", "\n\t\r", R"("\n\t\r")", R"("\n\t\r")"},
    {"other control", std::string{"\x01\x1f"}, R"("\u0001\u001f")",
     R"("\x01\x1f")"},
    {"del", "\x7f", "\"\x7f\"", R"("\x7f")"},
    {"utf-8 passes", "z\xc3\xa9", "\"z\xc3\xa9\"", "\"z\xc3\xa9\""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(json_quoted(tc.text), tc.json);
    EXPECT_EQ(go_quote(tc.text), tc.go);
    std::string inside = "x";
    append_json_escaped(inside, tc.text);
    EXPECT_EQ(inside, "x" + tc.json.substr(1, tc.json.size() - 2));
  }
}

TEST(text, trim_blanks) {
  struct test_case {
    std::string name;
    std::string text;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"nothing to trim", "a b", "a b"},
    {"both ends", " \t a b \r\n", "a b"},
    {"vertical tab and form feed", "\v\fa\f", "a"},
    {"only blanks", " \t ", ""},
    {"empty", "", ""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(trim_blanks(tc.text), tc.want);
  }
}

} // namespace
} // namespace tessera
