// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The default profile's Filter + Score for one pod over 5,000 NodeInfos of a
// realistic cluster (zones, instance types, some taints, 10 pods per node), on
// one core: the per-node cost of a scheduling cycle without any actor.
//
//   build/bin/filter_score_bench --benchmark_counters_tabular=true
//
// Reported: ns/node for a plain pod (requests only) and for a pod with
// required anti-affinity and hard topology spread (scan included).
#include <benchmark/benchmark.h>

#include <random>

#include "config/scheduler_config.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"

namespace tessera {
namespace {

using test::make_node;
using test::make_pod;

constexpr int node_count = 5000;
constexpr int pods_per_node = 10;

struct fixture {
  plugins::profile_ptr profile;
  std::vector<model::node_info_ptr> nodes;
  plugins::cluster_context cluster;
};

const fixture& cluster() {
  static const fixture f = [] {
    fixture out;
    auto reg = plugins::make_in_tree_registry();
    out.profile = *plugins::profile::build(config::default_config().profiles[0],
                                           reg, 0);
    std::mt19937 rng{7};
    const char* types[] = {"m5.xlarge", "m5.2xlarge", "c5.4xlarge"};
    for (int i = 0; i < node_count; ++i) {
      std::string name = "node-" + std::to_string(i);
      auto nb = make_node(name)
                  .cpu("32")
                  .memory("128Gi")
                  .pods(110)
                  .zone("zone-" + std::to_string(i % 3))
                  .label("topology.kubernetes.io/region", "region-1")
                  .label("node.kubernetes.io/instance-type", types[i % 3])
                  .label("kubernetes.io/os", "linux")
                  .label("pool", i % 10 == 0 ? "gpu" : "general");
      if (i % 10 == 0)
        nb.taint("dedicated", "gpu", "NoSchedule");
      if (i % 17 == 0)
        nb.taint("maintenance", "soon", "PreferNoSchedule");
      auto node = nb.build();
      std::vector<model::pod_ptr> pods;
      for (int j = 0; j < pods_per_node; ++j)
        pods.push_back(make_pod(name + "-p" + std::to_string(j))
                         .label("app", "app-" + std::to_string(rng() % 200))
                         .label("tier", j % 2 ? "web" : "backend")
                         .cpu("500m")
                         .memory("1Gi")
                         .node(name)
                         .build());
      out.nodes.push_back(test::make_node_info_ptr(node, pods));
    }
    out.cluster.node_count = node_count;
    return out;
  }();
  return f;
}

void run_cycle(benchmark::State& state, const model::pod& p) {
  const fixture& f = cluster();
  plugins::filter_options all;
  std::size_t start = 0;
  for (auto _ : state) {
    auto begun = plugins::begin_cycle(*f.profile, p, f.cluster);
    auto partials = plugins::run_scans(*f.profile, begun.state, p, begun.scans,
                                       f.nodes);
    std::vector<std::vector<plugins::scan_partial_ptr>> per_shard{partials};
    (void)plugins::merge_scans(*f.profile, begun.state, p, begun.scans,
                               std::move(per_shard));
    auto result =
      plugins::filter_and_score(*f.profile, begun.state, p, f.nodes, start, all);
    benchmark::DoNotOptimize(result.feasible.data());
    start = (start + 1) % f.nodes.size();
  }
  state.counters["ns_per_node"] = benchmark::Counter(
    static_cast<double>(state.iterations()) * node_count,
    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_plain_pod(benchmark::State& state) {
  auto p = make_pod("plain").cpu("100m").memory("500Mi").build();
  run_cycle(state, *p);
}
BENCHMARK(BM_plain_pod)->Unit(benchmark::kMicrosecond);

void BM_anti_affinity_and_spread(benchmark::State& state) {
  auto p = make_pod("spread")
             .label("app", "app-7")
             .cpu("100m")
             .memory("500Mi")
             .required_anti_affinity("app", "app-7", "kubernetes.io/hostname")
             .spread("topology.kubernetes.io/zone", 1, "DoNotSchedule",
                     {{"app", "app-7"}})
             .build();
  run_cycle(state, *p);
}
BENCHMARK(BM_anti_affinity_and_spread)->Unit(benchmark::kMicrosecond);

} // namespace
} // namespace tessera
