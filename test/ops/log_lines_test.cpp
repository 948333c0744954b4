// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The scheduler's main log lines at kube-scheduler's verbosities, in both
// formats, from a real pipeline run: V(2) "successfully bound pod to node"
// with pod, node, evaluatedNodes and feasibleNodes; V(3) the attempts.
#include "support/log.hpp"
#include "test/pipeline/pipeline_runner.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <regex>

namespace tessera {
namespace {

struct captured_run {
  std::vector<std::string> lines;
};

captured_run run_at(int verbosity, log::format format) {
  captured_run out;
  std::mutex mutex;
  log::set_sink([&](std::string_view line) {
    std::lock_guard guard{mutex};
    while (!line.empty() && line.back() == '\n')
      line.remove_suffix(1);
    out.lines.emplace_back(line);
  });
  log::set_format(format);
  log::verbosity = verbosity;
  std::vector<model::object> objects;
  objects.emplace_back(
    test::make_node("n0").cpu("4").memory("16Gi").pods(110).build());
  objects.emplace_back(
    test::make_node("n1").cpu("4").memory("16Gi").pods(110).build());
  objects.emplace_back(test::make_pod("web").ns("shop").cpu("1").build());
  auto run = pipeline_test::run_pipeline(objects,
                                         pipeline_test::default_profile(), {});
  log::verbosity = 0;
  log::set_format(log::format::text);
  log::set_sink(nullptr);
  EXPECT_TRUE(run.idle);
  return out;
}

std::size_t count_matching(const std::vector<std::string>& lines,
                           const std::regex& re) {
  std::size_t n = 0;
  for (const auto& l : lines)
    if (std::regex_search(l, re))
      ++n;
  return n;
}

TEST(scheduler_log_lines, verbosity_levels_and_formats) {
  // klog header: Lmmdd hh:mm:ss.uuuuuu threadid file:line] "msg" k="v" ...
  const std::regex bound_text{
    R"(^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ [a-z_]+\.cpp:\d+\] )"
    R"("successfully bound pod to node" pod="shop/web" node="n[01]" )"
    R"(evaluatedNodes=2 feasibleNodes=2$)"};
  const std::regex attempt_text{
    R"(\] "attempting to schedule pod" pod="shop/web"$)"};
  const std::regex bound_json{
    R"(^\{"ts":[0-9.]+,"caller":"[a-z_]+\.cpp:\d+","msg":"successfully )"
    R"(bound pod to node","v":2,"pod":"shop/web","node":"n[01]",)"
    R"("evaluatedNodes":2,"feasibleNodes":2\}$)"};
  struct test_case {
    std::string name;
    int verbosity;
    log::format format;
    std::size_t bound_text, attempts, bound_json;
  };
  std::vector<test_case> cases = {
    {"v1 hides both", 1, log::format::text, 0, 0, 0},
    {"v2 shows the binding", 2, log::format::text, 1, 0, 0},
    {"v3 shows attempts", 3, log::format::text, 1, 1, 0},
    {"json at v2", 2, log::format::json, 0, 0, 1},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto run = run_at(tc.verbosity, tc.format);
    std::string all;
    for (const auto& l : run.lines)
      all += l + "\n";
    EXPECT_EQ(count_matching(run.lines, bound_text), tc.bound_text) << all;
    EXPECT_EQ(count_matching(run.lines, attempt_text), tc.attempts) << all;
    EXPECT_EQ(count_matching(run.lines, bound_json), tc.bound_json) << all;
  }
}

} // namespace
} // namespace tessera
