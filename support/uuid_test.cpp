// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/uuid.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {
namespace {

TEST(uuid, version_and_variant_bits_overwrite_the_random_ones) {
  struct test_case {
    std::string name;
    std::uint64_t high;
    std::uint64_t low;
    std::string want;
  };
  const std::vector<test_case> cases{
    {"all zero", 0, 0, "00000000-0000-4000-8000-000000000000"},
    {"all ones", ~std::uint64_t{0}, ~std::uint64_t{0},
     "ffffffff-ffff-4fff-bfff-ffffffffffff"},
    {"mixed", 0x0123456789abcdefULL, 0xfedcba9876543210ULL,
     "01234567-89ab-4def-bedc-ba9876543210"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(format_uuid_v4(tc.high, tc.low), tc.want);
  }
}

} // namespace
} // namespace tessera
