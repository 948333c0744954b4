// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/perf/perf_fixture.hpp"

#include "cmd/scheduler_setup.hpp"
#include "io/apiserver/kwok.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace tessera::perf::testing {

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
  o.target.fake_kubelet = kind == target_kind::embedded_http;
  o.scheduler.shards = 2;
  o.scheduler.max_inflight_cycles = 4;
  o.scheduler.threads = 2;
  o.scheduler.seed = 7;
  // Preemptors retry after their victims are gone, through backoff: keep
  // it at its floor so that the tests stay quick.
  o.scheduler.initial_backoff = std::chrono::seconds(1);
  o.scheduler.max_backoff = std::chrono::seconds(1);
  return o;
}

kubeconfig_cluster::kubeconfig_cluster(const temp_dir& dir) {
  store_ = std::make_unique<apiserver::store>(apiserver::store_config{});
  kwok_ = std::make_unique<apiserver::kwok_controller>(
    *store_, apiserver::kwok_config{});
  apiserver::server_config cfg;
  cfg.port = 0;
  cfg.threads = 2;
  auto s = apiserver::api_server::start(*store_, cfg);
  EXPECT_TRUE(s) << s.err().message;
  if (!s)
    return;
  server_ = std::move(*s);
  kubeconfig_ = dir.write(
    "kubeconfig",
    "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
    "    server: "
      + server_->url()
      + "\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\n"
        "current-context: x\nusers:\n- name: u\n  user: {}\n");
}

kubeconfig_cluster::~kubeconfig_cluster() {
  if (server_)
    server_->stop();
  kwok_.reset();
}

run_options kubeconfig_cluster::options() const {
  auto o = test_options(target_kind::kubeconfig);
  o.target.kubeconfig = kubeconfig_;
  return o;
}

std::vector<std::string>
kubeconfig_cluster::names(apiserver::storage_kind kind) const {
  std::vector<std::string> out;
  auto l = store_->list(apiserver::primary_resource(kind), "",
                        apiserver::list_options{});
  EXPECT_TRUE(l);
  if (l)
    for (const auto& o : l->items)
      out.push_back(std::string{o->name()});
  return out;
}

std::vector<std::string> shipped_test_cases() {
  return {"SchedulingBasic",
          "SchedulingCSIPVs",
          "SchedulingPodAntiAffinity",
          "SchedulingPodAffinity",
          "SchedulingPreferredPodAntiAffinity",
          "SchedulingNodeAffinity",
          "TopologySpreading",
          "PreferredTopologySpreading",
          "PreemptionBasic",
          "Unschedulable",
          "SchedulingWithMixedChurn"};
}

std::string shipped_workload_file() {
  return source_dir() + "/perf/workloads/performance-config.yaml";
}

std::string source_dir() {
  const char* src = std::getenv("TESSERA_SOURCE_DIR");
  return src != nullptr ? src : ".";
}

} // namespace tessera::perf::testing
