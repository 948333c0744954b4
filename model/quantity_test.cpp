// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/quantity.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace tessera::model::quantity_test {
namespace {

using fmt = quantity::format;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

/// Decimal text of a nano-unit count, so that expectations beyond 64 bits
/// can be written as literals.
std::string nano_text(__int128 v) {
  if (v == 0)
    return "0";
  const bool negative = v < 0;
  auto mag = negative ? -static_cast<unsigned __int128>(v)
                      : static_cast<unsigned __int128>(v);
  std::string digits;
  while (mag != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + mag % 10));
    mag /= 10;
  }
  return negative ? "-" + digits : digits;
}

quantity must_parse(const std::string& text) {
  auto q = quantity::parse(text);
  EXPECT_TRUE(q.has_value()) << text << ": " << q.err().message;
  return q.has_value() ? *q : quantity{};
}

TEST(quantity_test, parse_valid) {
  struct test_case {
    std::string name;
    std::string input;
    std::string nano;
    fmt format;
    std::string canonical;
  };
  const std::vector<test_case> cases = {
    // Zero in every spelling; zero keeps its format.
    {"zero", "0", "0", fmt::decimal_si, "0"},
    {"zero nano", "0n", "0", fmt::decimal_si, "0"},
    {"zero Ki", "0Ki", "0", fmt::binary_si, "0"},
    {"zero exponent", "0e3", "0", fmt::decimal_exponent, "0"},
    {"negative zero", "-0", "0", fmt::decimal_si, "0"},
    {"zero fraction Gi", "-0.0Gi", "0", fmt::binary_si, "0"},
    {"zero huge exponent", "0e2147483647", "0", fmt::decimal_exponent, "0"},
    // Upstream's scanner takes a number without digits as zero.
    {"only minus", "-", "0", fmt::decimal_si, "0"},
    {"only plus", "+", "0", fmt::decimal_si, "0"},
    {"only point", ".", "0", fmt::decimal_si, "0"},
    {"minus point", "-.", "0", fmt::decimal_si, "0"},
    {"only suffix Mi", "Mi", "0", fmt::binary_si, "0"},
    {"only suffix k", "k", "0", fmt::decimal_si, "0"},
    {"only exponent", "e3", "0", fmt::decimal_exponent, "0"},
    // Plain numbers and signs.
    {"one", "1", "1000000000", fmt::decimal_si, "1"},
    {"plus one", "+1", "1000000000", fmt::decimal_si, "1"},
    {"minus one", "-1", "-1000000000", fmt::decimal_si, "-1"},
    {"leading zeros", "007", "7000000000", fmt::decimal_si, "7"},
    {"int64 max", "9223372036854775807", "9223372036854775807000000000",
     fmt::decimal_si, "9223372036854775807"},
    // Binary SI.
    {"Ki", "1Ki", "1024000000000", fmt::binary_si, "1Ki"},
    {"8Ki", "8Ki", "8192000000000", fmt::binary_si, "8Ki"},
    {"Mi", "7Mi", "7340032000000000", fmt::binary_si, "7Mi"},
    {"Gi", "6Gi", "6442450944000000000", fmt::binary_si, "6Gi"},
    {"Ti", "5Ti", "5497558138880000000000", fmt::binary_si, "5Ti"},
    {"Pi", "4Pi", "4503599627370496000000000", fmt::binary_si, "4Pi"},
    {"Ei", "3Ei", "3458764513820540928000000000", fmt::binary_si, "3Ei"},
    {"Mi to Gi", "1024Mi", "1073741824000000000", fmt::binary_si, "1Gi"},
    {"Gi fraction", "1.5Gi", "1610612736000000000", fmt::binary_si, "1536Mi"},
    {"Ki fraction below a suffix", "1.5Ki", "1536000000000", fmt::binary_si,
     "1536"},
    {"Mi half", "0.5Mi", "524288000000000", fmt::binary_si, "512Ki"},
    {"Ki not integral", "100.035Ki", "102435840000000", fmt::binary_si,
     "102435840m"},
    {"Ki below 1024", "0.3Ki", "307200000000", fmt::binary_si, "307200m"},
    {"Ki exactly one", "0.0009765625Ki", "1000000000", fmt::binary_si, "1"},
    // A binary value between 0 and 1 switches to decimal SI.
    {"Ki below one", "0.0009765624Ki", "999999898", fmt::decimal_si,
     "999999898n"},
    {"Ki tiny rounds up", "0.000000000001Ki", "2", fmt::decimal_si, "2n"},
    {"Ki to nano", ".000000001Ki", "1024", fmt::decimal_si, "1024n"},
    {"Ki to micro", ".000001Ki", "1024000", fmt::decimal_si, "1024u"},
    {"Ki to milli", ".001Ki", "1024000000", fmt::binary_si, "1024m"},
    {"Gi fraction rounds up", "9.5000000001Gi", "10200547328107374183",
     fmt::binary_si, "10200547328107374183n"},
    {"Ki many nines", "0." + std::string(1000, '9') + "Ki", "1024000000000",
     fmt::binary_si, "1Ki"},
    // Binary values are capped at 2^63-1 units, not rejected.
    {"Ei capped", "9Ei", "9223372036854775807000000000", fmt::binary_si,
     "9223372036854775807"},
    {"16Ei capped", "16Ei", "9223372036854775807000000000", fmt::binary_si,
     "9223372036854775807"},
    {"Ki capped", "9223372036854775807Ki", "9223372036854775807000000000",
     fmt::binary_si, "9223372036854775807"},
    {"negative capped", "-9Ei", "-9223372036854775807000000000", fmt::binary_si,
     "-9223372036854775807"},
    {"huge Ki capped", std::string(60, '9') + "Ki",
     "9223372036854775807000000000", fmt::binary_si, "9223372036854775807"},
    {"8Ei capped", "8Ei", "9223372036854775807000000000", fmt::binary_si,
     "9223372036854775807"},
    // Decimal SI.
    {"nano", "5n", "5", fmt::decimal_si, "5n"},
    {"micro", "4u", "4000", fmt::decimal_si, "4u"},
    {"milli", "3m", "3000000", fmt::decimal_si, "3m"},
    {"kilo", "8k", "8000000000000", fmt::decimal_si, "8k"},
    {"50k", "50k", "50000000000000", fmt::decimal_si, "50k"},
    {"mega", "7M", "7000000000000000", fmt::decimal_si, "7M"},
    {"giga", "6G", "6000000000000000000", fmt::decimal_si, "6G"},
    {"tera", "5T", "5000000000000000000000", fmt::decimal_si, "5T"},
    {"peta", "2P", "2000000000000000000000000", fmt::decimal_si, "2P"},
    {"exa", "1E", "1000000000000000000000000000", fmt::decimal_si, "1E"},
    {"12E beyond int64", "12E", "12000000000000000000000000000",
     fmt::decimal_si, "12E"},
    {"1000E past the table", "1000E", "1000000000000000000000000000000",
     fmt::decimal_si, "1e21"},
    {"thousand to k", "100000", "100000000000000", fmt::decimal_si, "100k"},
    {"M to G", "1000M", "1000000000000000000", fmt::decimal_si, "1G"},
    {"k fraction", "100.035k", "100035000000000", fmt::decimal_si, "100035"},
    {"M fraction", "10.035M", "10035000000000000", fmt::decimal_si, "10035k"},
    {"one and a half", "1.5", "1500000000", fmt::decimal_si, "1500m"},
    {"tenth", "0.1", "100000000", fmt::decimal_si, "100m"},
    {"point form", ".001", "1000000", fmt::decimal_si, "1m"},
    {"point with k", ".0001k", "100000000", fmt::decimal_si, "100m"},
    {"trailing point", "1.", "1000000000", fmt::decimal_si, "1"},
    {"trailing point G", "1.G", "1000000000000000000", fmt::decimal_si, "1G"},
    {"trailing zeros", "0.50000", "500000000", fmt::decimal_si, "500m"},
    {"1080m", "1.08", "1080000000", fmt::decimal_si, "1080m"},
    // Decimal exponents.
    {"exponent", "1e3", "1000000000000", fmt::decimal_exponent, "1e3"},
    {"capital exponent", "1E6", "1000000000000000", fmt::decimal_exponent,
     "1e6"},
    {"plus exponent", "1e+3", "1000000000000", fmt::decimal_exponent, "1e3"},
    {"zero padded exponent", "1e03", "1000000000000", fmt::decimal_exponent,
     "1e3"},
    {"negative exponent", "1E-3", "1000000", fmt::decimal_exponent, "1e-3"},
    {"exponent zero", "1e0", "1000000000", fmt::decimal_exponent, "1"},
    {"exponent minus zero", "5e-0", "5000000000", fmt::decimal_exponent, "5"},
    {"exponent not multiple of 3", "1e14", "100000000000000000000000",
     fmt::decimal_exponent, "100e12"},
    {"exponent fraction", "1.2e3", "1200000000000", fmt::decimal_exponent,
     "1200"},
    {"exponent fraction plus", "1.3E+6", "1300000000000000",
     fmt::decimal_exponent, "1300e3"},
    {"exponent half", "0.5e-1", "50000000", fmt::decimal_exponent, "50e-3"},
    {"exponent nano", "1.1E-9", "2", fmt::decimal_exponent, "2e-9"},
    {"exponent beyond int64", "1e21", "1000000000000000000000000000000",
     fmt::decimal_exponent, "1e21"},
    {"exponent int32 min plus one", "1e-2147483647", "1", fmt::decimal_exponent,
     "1e-9"},
    {"negative exponent tiny", "-.484785E-7466", "-1", fmt::decimal_exponent,
     "-1e-9"},
    // Anything finer than 1n rounds up, away from zero.
    {"rounds up", "3.001n", "4", fmt::decimal_si, "4n"},
    {"below nano", "0.0000000001", "1", fmt::decimal_si, "1n"},
    {"half nano", "0.5e-9", "1", fmt::decimal_exponent, "1e-9"},
    {"below nano in n", "0.9n", "1", fmt::decimal_si, "1n"},
    {"rounds up digits", "0.00000012345", "124", fmt::decimal_si, "124n"},
    {"negative rounds away from zero", "-0.1n", "-1", fmt::decimal_si, "-1n"},
    {"negative rounds away 3.001n", "-3.001n", "-4", fmt::decimal_si, "-4n"},
    {"long fraction", "0." + std::string(1000, '0') + "1", "1", fmt::decimal_si,
     "1n"},
    {"long exact fraction", "1." + std::string(1000, '0'), "1000000000",
     fmt::decimal_si, "1"},
    {"long leading zeros", std::string(1000, '0') + "2", "2000000000",
     fmt::decimal_si, "2"},
    // The edge of the __int128 range.
    {"largest", "170141183460469231731687303715.884105727",
     "170141183460469231731687303715884105727", fmt::decimal_si,
     "170141183460469231731687303715884105727n"},
    {"largest after rounding", "170141183460469231731687303715.8841057261",
     "170141183460469231731687303715884105727", fmt::decimal_si,
     "170141183460469231731687303715884105727n"},
    {"most negative", "-170141183460469231731687303715.884105727",
     "-170141183460469231731687303715884105727", fmt::decimal_si,
     "-170141183460469231731687303715884105727n"},
    {"1e29", "1e29", "100000000000000000000000000000000000000",
     fmt::decimal_exponent, "100e27"},
    {"1e29 decimal SI", "100000000000000000000000000000",
     "100000000000000000000000000000000000000", fmt::decimal_si, "100e27"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto q = quantity::parse(tc.input);
    ASSERT_TRUE(q.has_value()) << q.err().message;
    EXPECT_EQ(nano_text(q->nano()), tc.nano);
    EXPECT_EQ(q->fmt(), tc.format);
    EXPECT_EQ(q->to_string(), tc.canonical);
    // The canonical form reads back as the same value.
    auto again = quantity::parse(q->to_string());
    ASSERT_TRUE(again.has_value()) << again.err().message;
    EXPECT_EQ(again->nano(), q->nano());
  }
}

TEST(quantity_test, parse_invalid) {
  struct test_case {
    std::string name;
    std::string input;
    std::string message;
  };
  const std::vector<test_case> cases = {
    {"empty", "", R"(invalid quantity "")"},
    {"unknown suffix", "12x", R"(invalid quantity "12x")"},
    {"two points", "1.1.M", R"(invalid quantity "1.1.M")"},
    {"sign inside", "1+1.0M", R"(invalid quantity "1+1.0M")"},
    {"mi", "0.1mi", R"(invalid quantity "0.1mi")"},
    {"am", "0.1am", R"(invalid quantity "0.1am")"},
    {"word", "aoeu", R"(invalid quantity "aoeu")"},
    {"lone i", ".5i", R"(invalid quantity ".5i")"},
    {"1i", "1i", R"(invalid quantity "1i")"},
    {"negative i", "-3.01i", R"(invalid quantity "-3.01i")"},
    {"exponent without digits", "-3.01e-", R"(invalid quantity "-3.01e-")"},
    {"exponent plus only", "1e+", R"(invalid quantity "1e+")"},
    {"lone e", "1e", R"(invalid quantity "1e")"},
    {"exponent fraction", "1e3.5", R"(invalid quantity "1e3.5")"},
    {"double exponent", "1Ee3", R"(invalid quantity "1Ee3")"},
    {"exponent then suffix", "1e3k", R"(invalid quantity "1e3k")"},
    {"suffix then digits", "1m3", R"(invalid quantity "1m3")"},
    {"lower ki", "1ki", R"(invalid quantity "1ki")"},
    {"capital K", "1K", R"(invalid quantity "1K")"},
    {"KiB", "1KiB", R"(invalid quantity "1KiB")"},
    {"two signs", "--1", R"(invalid quantity "--1")"},
    {"mixed signs", "+-1", R"(invalid quantity "+-1")"},
    {"leading space", " 1", R"(invalid quantity " 1")"},
    {"trailing space", "1 ", R"(invalid quantity "1 ")"},
    {"hex", "0x10", R"(invalid quantity "0x10")"},
    {"comma", "1,5", R"(invalid quantity "1,5")"},
    {"micro sign", "1\xC2\xB5", "invalid quantity \"1\xC2\xB5\""},
    {"nul byte", std::string("1\0", 2),
     std::string("invalid quantity \"1\0\"", 21)},
    {"exponent past int32", "1e2147483648",
     R"(invalid quantity "1e2147483648")"},
    {"exponent int32 min", "1e-2147483648",
     R"(invalid quantity "1e-2147483648")"},
    {"exponent 2^32+1", "1e4294967297", R"(invalid quantity "1e4294967297")"},
    {"exponent int64 overflow", "1e99999999999999999999",
     R"(invalid quantity "1e99999999999999999999")"},
    {"zero with exponent past int32", "0e2147483648",
     R"(invalid quantity "0e2147483648")"},
    // Decimal values past the __int128 nano range (a documented deviation:
    // upstream has arbitrary precision).
    {"too many digits", "170141183460469231731687303715.884105728",
     R"(quantity "170141183460469231731687303715.884105728" is out of range)"},
    {"too negative", "-170141183460469231731687303715.884105728",
     R"(quantity "-170141183460469231731687303715.884105728" is out of range)"},
    {"exponent too large", "1e30", R"(quantity "1e30" is out of range)"},
    {"huge exponent", "1e999999999",
     R"(quantity "1e999999999" is out of range)"},
    {"huge E", "1000000000000E",
     R"(quantity "1000000000000E" is out of range)"},
    {"fast path too large", "999999999999999999E",
     R"(quantity "999999999999999999E" is out of range)"},
    {"many digits", "1" + std::string(1000, '0'),
     "quantity \"1" + std::string(1000, '0') + "\" is out of range"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto q = quantity::parse(tc.input);
    ASSERT_FALSE(q.has_value()) << nano_text(q->nano());
    EXPECT_EQ(q.err().code, ec::invalid_input);
    EXPECT_EQ(q.err().message, tc.message);
  }
}

TEST(quantity_test, canonical_form_of_constructed_values) {
  struct test_case {
    std::string name;
    quantity q;
    std::string canonical;
    bool round_trips = true;
  };
  const std::vector<test_case> cases = {
    {"default", quantity{}, "0"},
    {"int", quantity::from_int(1), "1"},
    {"int k", quantity::from_int(1000), "1k"},
    {"int 1234k", quantity::from_int(1234000), "1234k"},
    {"int Ki", quantity::from_int(1024, fmt::binary_si), "1Ki"},
    {"int Mi", quantity::from_int(1024 * 1024, fmt::binary_si), "1Mi"},
    {"int exponent", quantity::from_int(1000000, fmt::decimal_exponent), "1e6"},
    {"binary 2000", quantity::from_int(2000, fmt::binary_si), "2000"},
    {"binary -2000", quantity::from_int(-2000, fmt::binary_si), "-2000"},
    {"binary 1025", quantity::from_int(1025, fmt::binary_si), "1025"},
    {"binary 5", quantity::from_int(5, fmt::binary_si), "5"},
    {"binary -1Ki", quantity::from_int(-1024, fmt::binary_si), "-1Ki"},
    {"binary zero", quantity::from_int(0, fmt::binary_si), "0"},
    {"int64 max", quantity::from_int(int64_max), "9223372036854775807"},
    // 2^63 prints as "8Ei", but parsing caps binary values at 2^63-1 (as
    // upstream does), so it does not read back.
    {"int64 min binary", quantity::from_int(int64_min, fmt::binary_si), "-8Ei",
     false},
    {"int64 min decimal", quantity::from_int(int64_min),
     "-9223372036854775808"},
    {"milli", quantity::from_milli(1), "1m"},
    {"milli whole", quantity::from_milli(1000), "1"},
    {"milli 1234", quantity::from_milli(1234000), "1234"},
    {"milli binary", quantity::from_milli(1024, fmt::binary_si), "1024m"},
    {"milli binary Mi", quantity::from_milli(1024 * 1024, fmt::binary_si),
     "1048576m"},
    {"milli exponent", quantity::from_milli(1000000, fmt::decimal_exponent),
     "1e3"},
    {"milli exponent 80", quantity::from_milli(80, fmt::decimal_exponent),
     "80e-3"},
    {"negative milli", quantity::from_milli(-9010), "-9010m"},
    {"milli int64 max", quantity::from_milli(int64_max),
     "9223372036854775807m"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.q.to_string(), tc.canonical);
    const quantity back = must_parse(tc.canonical);
    EXPECT_EQ(back == tc.q, tc.round_trips)
      << nano_text(back.nano()) << " vs " << nano_text(tc.q.nano());
  }
}

// A binary value no binary suffix divides prints bare; read back, it is
// decimal SI and prints with a decimal suffix. Upstream's canonical form has
// the same two steps, and the second form is a fixed point.
TEST(quantity_test, bare_binary_form_reads_back_as_decimal) {
  const quantity q = must_parse("11387777062.5Ki");
  EXPECT_EQ(q.to_string(), "11661083712000");
  const quantity back = must_parse(q.to_string());
  EXPECT_EQ(back, q);
  EXPECT_EQ(back.fmt(), fmt::decimal_si);
  EXPECT_EQ(back.to_string(), "11661083712k");
  EXPECT_EQ(must_parse(back.to_string()).to_string(), "11661083712k");
}

TEST(quantity_test, canonical_form_of_negative_values) {
  struct test_case {
    std::string name;
    std::string input;
    std::string canonical;
  };
  const std::vector<test_case> cases = {
    {"Gi fraction", "-1.5Gi", "-1536Mi"},
    {"Ki", "-1Ki", "-1Ki"},
    {"Mi to Gi", "-1024Mi", "-1Gi"},
    {"binary below 1024", "-0.5Ki", "-512"},
    {"binary 1023Ki", "-1023Ki", "-1023Ki"},
    {"binary not integral", "-1.1Ki", "-1126400m"},
    {"binary tiny", "-.000000000001Ki", "-2n"},
    {"decimal", "-1.5", "-1500m"},
    {"decimal k", "-100000", "-100k"},
    {"exponent", "-1e3", "-1e3"},
    {"milli", "-0.1", "-100m"},
    {"micro", "-80u", "-80u"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(must_parse(tc.input).to_string(), tc.canonical);
  }
}

TEST(quantity_test, value_and_milli_value) {
  struct test_case {
    std::string name;
    std::string input;
    std::optional<std::int64_t> value;
    std::optional<std::int64_t> milli;
  };
  const std::vector<test_case> cases = {
    {"zero", "0", 0, 0},
    {"one", "1", 1, 1000},
    {"minus one", "-1", -1, -1000},
    {"Ki", "1Ki", 1024, 1024000},
    {"1500m", "1500m", 2, 1500},
    {"-1500m", "-1500m", -2, -1500},
    {"100m", "100m", 1, 100},
    {"sub-milli", "0.0005", 1, 1},
    {"negative sub-milli", "-0.0005", -1, -1},
    {"fraction of milli", "1.0001m", 1, 2},
    {"negative fraction of milli", "-1.0001m", -1, -2},
    {"nano", "1n", 1, 1},
    {"negative nano", "-1n", -1, -1},
    {"exponent fraction", ".484785E-1", 1, 49},
    {"negative exponent fraction", "-.484785E-1", -1, -49},
    {"tiny", ".484785E-7466", 1, 1},
    {"negative tiny", "-.484785E-7466", -1, -1},
    {"binary fraction", "9.5000000001Gi", 10200547329, 10200547328108},
    {"negative binary fraction", "-9.5000000001Gi", -10200547329,
     -10200547328108},
    {"exact integer milli", "2.5", 3, 2500},
    {"negative exact", "-2.5", -3, -2500},
    // Overflow is an error, never a wrapped or saturated number.
    {"int64 max", "9223372036854775807", int64_max, std::nullopt},
    {"int64 min", "-9223372036854775808", int64_min, std::nullopt},
    {"int64 max milli", "9223372036854775807m", 9223372036854776, int64_max},
    {"int64 min milli", "-9223372036854775808m", -9223372036854776, int64_min},
    {"past int64 milli", "9223372036854775808m", 9223372036854776,
     std::nullopt},
    {"past int64 min milli", "-9223372036854775809m", -9223372036854776,
     std::nullopt},
    {"past int64", "9223372036854775808", std::nullopt, std::nullopt},
    {"rounds past int64", "9223372036854775807.5", std::nullopt, std::nullopt},
    {"rounds past int64 min", "-9223372036854775808.5", std::nullopt,
     std::nullopt},
    {"capped binary", "9Ei", int64_max, std::nullopt},
    {"1e19", "1e19", std::nullopt, std::nullopt},
    {"largest milli value", "9223372036854775.807", 9223372036854776,
     int64_max},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const quantity q = must_parse(tc.input);
    auto value = q.value();
    ASSERT_EQ(value.has_value(), tc.value.has_value());
    if (tc.value) {
      EXPECT_EQ(*value, *tc.value);
    }
    auto milli = q.milli_value();
    ASSERT_EQ(milli.has_value(), tc.milli.has_value());
    if (tc.milli) {
      EXPECT_EQ(*milli, *tc.milli);
    }
  }
}

TEST(quantity_test, overflow_errors) {
  struct test_case {
    std::string name;
    std::string input;
    bool milli;
    std::string message;
  };
  const std::vector<test_case> cases = {
    {"value", "1e19", false, R"(quantity "10e18" does not fit in an int64)"},
    {"negative value", "-12E", false,
     R"(quantity "-12E" does not fit in an int64)"},
    {"milli", "9223372036854775807", true,
     R"(quantity "9223372036854775807" does not fit in an int64 in milli-units)"},
    {"milli binary", "8Ei", true,
     R"(quantity "9223372036854775807" does not fit in an int64 in milli-units)"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const quantity q = must_parse(tc.input);
    auto result = tc.milli ? q.milli_value() : q.value();
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.err().code, ec::invalid_input);
    EXPECT_EQ(result.err().message, tc.message);
  }
}

TEST(quantity_test, comparisons) {
  struct test_case {
    std::string name;
    std::string a;
    std::string b;
    int expected; // -1: a < b, 0: equal, 1: a > b
  };
  const std::vector<test_case> cases = {
    {"zeros", "0", "0", 0},
    {"zero spellings", "0Ki", "-0.0e5", 0},
    {"milli", "100m", "50m", 1},
    {"milli reversed", "50m", "100m", -1},
    {"T versus Gi", "10000T", "100Gi", 1},
    {"Ki equals 1024", "1Ki", "1024", 0},
    {"k equals exponent", "1k", "1e3", 0},
    {"rounded nano", "0.1n", "1n", 0},
    {"nano above zero", "1n", "0", 1},
    {"negative below zero", "-1", "0", -1},
    {"negatives", "-1Ki", "-1000", -1},
    {"M versus Mi", "1M", "1Mi", -1},
    {"cap versus 8Ei", "9Ei", "8Ei", 0},
    {"beyond int64", "12E", "9223372036854775807", 1},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const quantity a = must_parse(tc.a);
    const quantity b = must_parse(tc.b);
    EXPECT_EQ(a == b, tc.expected == 0);
    EXPECT_EQ(a < b, tc.expected < 0);
    EXPECT_EQ(a > b, tc.expected > 0);
    EXPECT_EQ(b<a, tc.expected> 0);
  }
}

TEST(quantity_test, predicates) {
  struct test_case {
    std::string name;
    std::string input;
    bool zero;
    bool negative;
  };
  const std::vector<test_case> cases = {
    {"zero", "0", true, false},
    {"negative zero", "-0Mi", true, false},
    {"positive", "1n", false, false},
    {"negative", "-1n", false, true},
    {"negative tiny", "-1e-1000", false, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const quantity q = must_parse(tc.input);
    EXPECT_EQ(q.is_zero(), tc.zero);
    EXPECT_EQ(q.is_negative(), tc.negative);
  }
}

TEST(quantity_test, odd_inputs_never_crash) {
  // Every input here must return, either way; the expectations pin which.
  struct test_case {
    std::string name;
    std::string input;
    bool valid;
  };
  const std::vector<test_case> cases = {
    {"100k digits", std::string(100000, '7'), false},
    {"100k fraction digits", "0." + std::string(100000, '3'), true},
    {"100k fraction digits Ei", "0." + std::string(100000, '3') + "Ei", true},
    {"100k zeros then Ei", std::string(100000, '0') + "1Ei", true},
    {"huge negative exponent", "-9.9e-2147483647", true},
    {"huge positive exponent on zero", "0.000e2147483647", true},
    {"huge exponent with digits", "123.456e2147483647", false},
    {"only exponent sign", "e-", false},
    {"only points", "..", false},
    {"sign after number", "1-", false},
    {"all suffix letters", "eEinumkKMGTP", false},
    {"control characters", "\x01\x02\x03", false},
    {"high bytes", "\xff\xfe", false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(quantity::parse(tc.input).has_value(), tc.valid);
  }
}

} // namespace
} // namespace tessera::model::quantity_test
