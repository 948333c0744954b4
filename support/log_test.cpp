// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/log.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <vector>

namespace tessera::log {
namespace {

class log_capture : public ::testing::Test {
protected:
  void SetUp() override {
    set_sink([this](std::string_view line) { lines.emplace_back(line); });
    verbosity = 2;
  }
  void TearDown() override {
    set_sink(nullptr);
    set_format(format::text);
    verbosity = 0;
  }
  std::vector<std::string> lines;
};

TEST_F(log_capture, text_lines_have_klog_header_and_quoted_values) {
  TLOG_V(2, "successfully bound pod to node", "pod", "default/p1", "node",
         std::string{"n1"}, "evaluatedNodes", 3, "ok", true);
  ASSERT_EQ(lines.size(), 1u);
  std::regex shape{
    R"(^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ log_test\.cpp:\d+\] )"
    R"("successfully bound pod to node" pod="default/p1" )"
    R"(node="n1" evaluatedNodes=3 ok=true\n$)"};
  EXPECT_TRUE(std::regex_match(lines[0], shape)) << lines[0];
}

TEST_F(log_capture, disabled_levels_evaluate_nothing) {
  int evaluated = 0;
  auto costly = [&] {
    ++evaluated;
    return 1;
  };
  TLOG_V(3, "not shown", "x", costly());
  TLOG_DEBUG("not shown either", "x", costly());
  EXPECT_EQ(evaluated, 0);
  EXPECT_TRUE(lines.empty());
  TLOG_V(2, "shown", "x", costly());
  EXPECT_EQ(evaluated, 1);
}

TEST_F(log_capture, json_lines_and_escaping) {
  set_format(format::json);
  TLOG_ERROR("bind failed", "err", "quote \" and\nnewline", "code", 409);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(R"("msg":"bind failed")"), std::string::npos);
  EXPECT_NE(lines[0].find(R"("err":"quote \" and\nnewline")"),
            std::string::npos);
  EXPECT_NE(lines[0].find(R"("code":409})"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].front(), '{');
}

TEST_F(log_capture, severities) {
  TLOG_WARN("w");
  TLOG_ERROR("e");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0][0], 'W');
  EXPECT_EQ(lines[1][0], 'E');
}

} // namespace
} // namespace tessera::log
