// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/base64.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera {
namespace {

TEST(base64, standard_round_trips_and_rejects_garbage) {
  for (std::string s : {"", "a", "ab", "abc", "abcd", "hello world!"})
    EXPECT_EQ(base64_decode(base64_encode(s)).value_or("?"), s) << s;
  EXPECT_EQ(base64_encode("hi?"), "aGk/");
  EXPECT_EQ(base64_encode("h"), "aA==");
  EXPECT_EQ(base64_decode("aGVs\nbG8=").value_or("?"), "hello");
  EXPECT_FALSE(base64_decode("a$=="));
  EXPECT_FALSE(base64_decode("abc"));
  EXPECT_FALSE(base64_decode("ab==cd"));
  EXPECT_FALSE(base64_decode("a==="));
}

TEST(base64, url_form_has_no_padding) {
  struct test_case {
    std::string name;
    std::string raw;
    std::string encoded;
  };
  const std::vector<test_case> cases{
    {"empty", "", ""},
    {"one byte", "h", "aA"},
    {"url alphabet", "hi?\xfb", "aGk_-w"},
    {"continue token", "12:40", "MTI6NDA"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(base64url_encode(tc.raw), tc.encoded);
    EXPECT_EQ(base64url_decode(tc.encoded).value_or("?"), tc.raw);
  }
  EXPECT_FALSE(base64url_decode("aA=="));
  EXPECT_FALSE(base64url_decode("aG k"));
  EXPECT_FALSE(base64url_decode("aGk/"));
}

} // namespace
} // namespace tessera
