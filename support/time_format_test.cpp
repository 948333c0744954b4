// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/time_format.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {
namespace {

TEST(time_format, format_and_parse) {
  struct test_case {
    std::string text;
    std::int64_t micros;
  };
  std::vector<test_case> cases = {
    {"1970-01-01T00:00:00Z", 0},
    {"2026-08-07T05:54:51Z", 1786082091000000},
    {"2026-08-07T05:54:51.123456Z", 1786082091123456},
    {"2026-08-07T07:54:51.5+02:00", 1786082091500000},
    {"2000-02-29T23:59:59Z", 951868799000000},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.text);
    auto t = parse_time(tc.text);
    ASSERT_TRUE(t);
    EXPECT_EQ(std::chrono::duration_cast<std::chrono::microseconds>(
                t->time_since_epoch())
                .count(),
              tc.micros);
  }
  std::chrono::system_clock::time_point t{
    std::chrono::microseconds(1786082091123456)};
  EXPECT_EQ(format_time(t), "2026-08-07T05:54:51Z");
  EXPECT_EQ(format_micro_time(t), "2026-08-07T05:54:51.123456Z");
  for (std::string bad :
       {"", "2026-08-07", "2026-13-01T00:00:00Z", "2026-08-07T05:54:51",
        "2026-08-07T05:54:51Zjunk", "2026-08-07T05:54:51.Z"})
    EXPECT_FALSE(parse_time(bad)) << bad;
}

TEST(time_format, before_the_epoch_and_microseconds) {
  std::chrono::system_clock::time_point t{std::chrono::microseconds(-1)};
  EXPECT_EQ(format_time(t), "1969-12-31T23:59:59Z");
  EXPECT_EQ(format_micro_time(t), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(parse_time("1969-12-31T23:59:59.999999Z"), t);
}

} // namespace
} // namespace tessera
