// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// `tessera perf`'s flag checks, through the binary: bad flags and files
// exit 2 naming the problem, before any run.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct run_result {
  int status = -1;
  std::string err;
};

run_result run_perf(const std::string& args,
                    const std::string& file = std::string{TESSERA_SOURCE_DIR}
                                              + "/perf/workloads/"
                                                "performance-config.yaml") {
  // One file per process: ctest runs this binary's tests in parallel.
  std::string err_file = testing::TempDir() + "tessera_perf_verb_stderr_"
                         + std::to_string(getpid()) + ".txt";
  std::string cmd = std::string{TESSERA_BINARY} + " perf --workload-file "
                    + file + " " + args + " >/dev/null 2>" + err_file;
  int raw = std::system(cmd.c_str());
  run_result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in{err_file};
  std::stringstream s;
  s << in.rdbuf();
  r.err = s.str();
  return r;
}

TEST(perf_verb, a_missing_kubeconfig_file_is_a_usage_error) {
  auto r = run_perf("--kubeconfig /nonexistent/kubeconfig");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/nonexistent/kubeconfig"), std::string::npos) << r.err;
}

TEST(perf_verb, fake_kubelet_applies_to_the_embedded_targets_only) {
  std::string kubeconfig = testing::TempDir() + "tessera_perf_verb_kubeconfig";
  std::ofstream{kubeconfig}
    << "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
       "    server: http://127.0.0.1:1\ncontexts:\n- name: x\n"
       "  context: {cluster: c, user: u}\ncurrent-context: x\n"
       "users:\n- name: u\n  user: {}\n";
  auto r = run_perf("--kubeconfig " + kubeconfig + " --fake-kubelet");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--fake-kubelet applies to the embedded targets only"),
            std::string::npos)
    << r.err;
}

TEST(perf_verb, an_unknown_target_is_a_usage_error) {
  auto r = run_perf("--target nowhere");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("\"nowhere\" for \"--target\""), std::string::npos)
    << r.err;
}

// The files a run wrote to `dir` whose names end with `suffix`.
std::vector<std::filesystem::path> written(const std::string& dir,
                                           const std::string& suffix) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator{dir})
    if (e.path().filename().string().ends_with(suffix))
      out.push_back(e.path());
  return out;
}

// The scheduler's metrics are recorded during a run, as in `tessera run`,
// and written next to the results; --metrics=false runs without them.
TEST(perf_verb, metrics_are_recorded_and_written_unless_turned_off) {
  for (bool on : {true, false}) {
    SCOPED_TRACE(on ? "metrics on" : "metrics off");
    std::string dir
      = testing::TempDir() + "tessera_perf_verb_metrics_" + (on ? "on" : "off");
    std::filesystem::remove_all(dir);
    auto r = run_perf("--test-case SchedulingBasic --workload 5Nodes "
                      "--target inprocess --progress off --output-dir "
                      + dir + (on ? "" : " --metrics=false"));
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(written(dir, ".json").size(), 1u);
    auto files = written(dir, "_metrics.txt");
    if (!on) {
      EXPECT_TRUE(files.empty());
      continue;
    }
    ASSERT_EQ(files.size(), 1u);
    std::ifstream in{files.front()};
    std::stringstream text;
    text << in.rdbuf();
    // 5 + 20 pods of the workload, each scheduled in one attempt.
    EXPECT_NE(
      text.str().find("scheduler_schedule_attempts_total{result="
                      "\"scheduled\",profile=\"default-scheduler\"} 25"),
      std::string::npos)
      << text.str().substr(0, 2000);
  }
}

TEST(perf_verb, unsupported_test_cases_are_skipped_and_counted) {
  std::string dir = testing::TempDir() + "tessera_perf_verb_skipped";
  std::filesystem::remove_all(dir);
  // A test case with an op tessera lacks (pod groups) beside one it runs.
  std::string file = testing::TempDir() + "tessera_perf_verb_skipped.yaml";
  std::ofstream{file} << "- name: Plain\n"
                         "  workloadTemplate:\n"
                         "  - opcode: createNodes\n    count: 2\n"
                         "  - opcode: createPods\n    count: 2\n"
                         "    collectMetrics: true\n"
                         "  workloads:\n  - name: tiny\n"
                         "- name: Gang\n"
                         "  workloadTemplate:\n"
                         "  - opcode: createNodes\n    count: 2\n"
                         "  - opcode: createPodGroups\n    count: 1\n"
                         "  workloads:\n  - name: tiny\n";
  auto r = run_perf("--target inprocess --progress off --metrics=false "
                    "--output-dir "
                      + dir,
                    file);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("Gang/tiny: skipped:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("createPodGroups"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2 workload runs: 1 ran, 0 failed, 1 skipped"),
            std::string::npos)
    << r.err;
  auto json = written(dir, ".json");
  ASSERT_EQ(json.size(), 1u);
  std::ifstream in{json.front()};
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"Skipped\":1"), std::string::npos);
  EXPECT_NE(text.str().find("\"Name\":\"Gang/tiny\""), std::string::npos);
}

// A workload's featureGates: a gate tessera knows is set, one it does not
// know is reported, and a locked gate set against its value is refused.
TEST(perf_verb, workload_feature_gates_are_applied_or_reported) {
  std::string file = testing::TempDir() + "tessera_perf_verb_gates.yaml";
  std::ofstream{file} << "- name: Gated\n"
                         "  featureGates:\n"
                         "    SchedulerPopFromBackoffQ: false\n"
                         "    SchedulerQueueingHints: true\n"
                         "    NodeDeclaredFeatures: false\n"
                         "  workloadTemplate:\n"
                         "  - opcode: createNodes\n    count: 1\n"
                         "  - opcode: createPods\n    count: 2\n"
                         "    collectMetrics: true\n"
                         "  workloads:\n  - name: w\n";
  auto r = run_perf("--target inprocess --progress off --metrics=false", file);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("SchedulerPopFromBackoffQ=false applied"),
            std::string::npos)
    << r.err;
  EXPECT_NE(r.err.find("SchedulerQueueingHints=true reported only"),
            std::string::npos)
    << r.err;
  EXPECT_NE(r.err.find("NodeDeclaredFeatures=false not applied"),
            std::string::npos)
    << r.err;
}

TEST(perf_verb, compare_thresholds_fails_a_run_below_its_floor) {
  std::string file = testing::TempDir() + "tessera_perf_verb_floor.yaml";
  std::ofstream{file} << "- name: Floor\n"
                         "  workloadTemplate:\n"
                         "  - opcode: createNodes\n    count: 1\n"
                         "  - opcode: createPods\n    count: 2\n"
                         "    collectMetrics: true\n"
                         "  workloads:\n  - name: w\n"
                         "    threshold: 100000000\n";
  for (bool compare : {false, true}) {
    SCOPED_TRACE(compare ? "compared" : "reported only");
    auto r = run_perf(std::string{"--target inprocess --progress off "
                                  "--metrics=false"}
                        + (compare ? " --compare-thresholds" : ""),
                      file);
    EXPECT_EQ(r.status, compare ? 1 : 0) << r.err;
    EXPECT_EQ(r.err.find("below upstream's floor") != std::string::npos,
              compare)
      << r.err;
  }
}

} // namespace
