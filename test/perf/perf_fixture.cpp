// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/perf/perf_fixture.hpp"

#include "cmd/scheduler_setup.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace tessera::perf::testing {

namespace fs = std::filesystem;

temp_dir::temp_dir() {
  static std::atomic<int> n{0};
  path_ = fs::temp_directory_path()
          / ("tessera-perf-test-" + std::to_string(::getpid()) + "-"
             + std::to_string(n++));
  fs::create_directories(path_);
}

temp_dir::~temp_dir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string temp_dir::write(const std::string& name,
                            const std::string& text) const {
  fs::path p = path_ / name;
  fs::create_directories(p.parent_path());
  std::ofstream{p} << text;
  return p.string();
}

std::string write_small_workload(const temp_dir& dir, const std::string& text) {
  dir.write("templates/node.yaml", R"(apiVersion: v1
kind: Node
metadata:
  generateName: node-
status:
  allocatable: {cpu: "4", memory: 32Gi, pods: "110"}
  capacity: {cpu: "4", memory: 32Gi, pods: "110"}
  conditions:
  - {type: Ready, status: "True"}
)");
  dir.write("templates/pod.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  generateName: pod-
spec:
  containers:
  - name: pause
    image: pause
    resources:
      requests: {cpu: 100m, memory: 100Mi}
)");
  return dir.write("workload.yaml", text);
}

std::string small_workload_text(int nodes, int init, int measured) {
  return "- name: Small\n"
         "  defaultPodTemplatePath: templates/pod.yaml\n"
         "  workloadTemplate:\n"
         "  - opcode: createNodes\n"
         "    countParam: $nodes\n"
         "    nodeTemplatePath: templates/node.yaml\n"
         "  - opcode: createPods\n"
         "    countParam: $init\n"
         "  - opcode: createPods\n"
         "    countParam: $measured\n"
         "    collectMetrics: true\n"
         "  workloads:\n"
         "  - name: w\n"
         "    params: {nodes: "
         + std::to_string(nodes) + ", init: " + std::to_string(init)
         + ", measured: " + std::to_string(measured) + "}\n";
}

plan only_plan(const std::string& file, const std::string& test_case,
               const std::string& workload) {
  auto f = load_workload_file(file);
  EXPECT_TRUE(f) << f.err().message;
  if (!f)
    return {};
  auto plans = select_plans(*f, test_case, workload);
  EXPECT_TRUE(plans) << plans.err().message;
  if (!plans || plans->empty())
    return {};
  EXPECT_EQ(plans->size(), 1u);
  return plans->front();
}

run_options test_options(target_kind kind) {
  run_options o;
  o.target.kind = kind;
  o.target.seed = 7;
  o.op_timeout = std::chrono::minutes(2);
  auto setup = cmd::load_scheduler_setup(cmd::knob_flags{});
  EXPECT_TRUE(setup) << setup.err().message;
  if (setup)
    o.scheduler.profiles = setup->profiles;
  o.scheduler.shards = 2;
  o.scheduler.max_inflight_cycles = 4;
  o.scheduler.threads = 2;
  o.scheduler.seed = 7;
  return o;
}

std::string source_dir() {
  const char* src = std::getenv("TESSERA_SOURCE_DIR");
  return src != nullptr ? src : ".";
}

} // namespace tessera::perf::testing
