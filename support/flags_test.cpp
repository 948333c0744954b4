// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/flags.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace tessera {
namespace {

struct parsed {
  std::string config;
  bool explain = false;
  int shards = 2;
  std::vector<std::string> files;
  std::chrono::milliseconds lease{15000};
  std::optional<int> seed;
};

flag_set make_flags(parsed& p) {
  flag_set flags{"tessera simulate -f FILE [flags]"};
  flags.add("config", p.config, "config file");
  flags.add("explain", p.explain, "explain");
  flags.add("shards", p.shards, "node shards");
  flags.add("filename,f", p.files, "objects file");
  flags.add("lease-duration", p.lease, "lease");
  flags.add("seed", p.seed, "seed");
  return flags;
}

TEST(flag_set, accepts_every_spelling) {
  struct test_case {
    std::string name;
    std::vector<std::string> args;
    std::string config;
    bool explain;
    int shards;
    std::vector<std::string> files;
  };
  std::vector<test_case> cases{
    {"equals", {"--config=a.yaml", "--shards=4"}, "a.yaml", false, 4, {}},
    {"separate",
     {"--config", "a.yaml", "--shards", "8"},
     "a.yaml",
     false,
     8,
     {}},
    {"single dash long", {"-config=b", "-explain"}, "b", true, 2, {}},
    {"bool false", {"--explain=false"}, "", false, 2, {}},
    {"repeated short",
     {"-f", "x", "-f=y", "--filename", "z"},
     "",
     false,
     2,
     {"x", "y", "z"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    parsed p;
    auto flags = make_flags(p);
    auto rest = flags.parse(tc.args);
    ASSERT_TRUE(rest) << rest.err().message;
    EXPECT_TRUE(rest->empty());
    EXPECT_EQ(p.config, tc.config);
    EXPECT_EQ(p.explain, tc.explain);
    EXPECT_EQ(p.shards, tc.shards);
    EXPECT_EQ(p.files, tc.files);
  }
}

TEST(flag_set, rejects_bad_input_with_the_flag_named) {
  struct test_case {
    std::string name;
    std::vector<std::string> args;
    std::string message;
  };
  std::vector<test_case> cases{
    {"unknown", {"--nope=1"}, "unknown flag: --nope"},
    {"missing value", {"--config"}, "flag needs an argument: --config"},
    {"bad int",
     {"--shards=two"},
     "invalid argument \"two\" for \"--shards\" flag: not an integer"},
    {"bad bool",
     {"--explain=maybe"},
     "invalid argument \"maybe\" for \"--explain\" flag: strconv.ParseBool: "
     "parsing \"maybe\": invalid syntax"},
    {"bad duration",
     {"--lease-duration=10parsecs"},
     "invalid argument \"10parsecs\" for \"--lease-duration\" flag: time: "
     "invalid duration \"10parsecs\""},
    {"positional", {"extra"}, "unexpected argument \"extra\""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    parsed p;
    auto flags = make_flags(p);
    auto rest = flags.parse(tc.args);
    ASSERT_FALSE(rest);
    EXPECT_EQ(rest.err().code, ec::invalid_input);
    EXPECT_EQ(rest.err().message, tc.message);
  }
}

TEST(flag_set, records_what_was_set_and_help) {
  parsed p;
  auto flags = make_flags(p);
  ASSERT_TRUE(flags.parse({"--seed=7", "--help"}));
  EXPECT_TRUE(flags.help_requested());
  EXPECT_TRUE(flags.was_set("seed"));
  EXPECT_FALSE(flags.was_set("shards"));
  EXPECT_EQ(p.seed, 7);
  auto help = flags.help();
  EXPECT_NE(help.find("--shards"), std::string::npos);
  EXPECT_NE(help.find("(default 2)"), std::string::npos);
}

TEST(duration, parses_and_formats_like_go) {
  struct test_case {
    std::string text;
    long long ms;
    std::string formatted;
  };
  std::vector<test_case> cases{
    {"15s", 15000, "15s"},   {"1m30s", 90000, "1m30s"},
    {"250ms", 250, "250ms"}, {"1.5h", 5400000, "1h30m0s"},
    {"0", 0, "0s"},          {"2.5s", 2500, "2.5s"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.text);
    auto d = parse_duration(tc.text);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->count(), tc.ms);
    EXPECT_EQ(format_duration(*d), tc.formatted);
  }
  EXPECT_FALSE(parse_duration("10"));
  EXPECT_FALSE(parse_duration("s"));
  EXPECT_FALSE(parse_duration(""));
  // Longer than Go's int64 nanoseconds allow (about 292 years): invalid,
  // as in Go, instead of overflowing.
  EXPECT_FALSE(parse_duration("4444444444444444444444444s"));
  EXPECT_FALSE(parse_duration("-2562048h"));
  EXPECT_TRUE(parse_duration("2562047h"));
  EXPECT_EQ(format_duration(std::chrono::milliseconds{
              std::numeric_limits<std::int64_t>::min()}),
            "-2562047788015h12m55.808s");
}

} // namespace
} // namespace tessera
