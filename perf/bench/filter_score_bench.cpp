// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The default profile's Filter + Score for one pod over 5,000 NodeInfos of a
// realistic cluster (zones, instance types, some taints, 10 pods per node), on
// one core: the per-node cost of a scheduling cycle without any actor.
//
//   build/bin/filter_score_bench --benchmark_counters_tabular=true
//
// Reported: ns/node for a plain pod (requests only) and for a pod with
// required anti-affinity and hard topology spread (scan included). These two
// are the per-node cost of a cycle; the BM_phase_* and BM_plugin_* benchmarks
// break the same cycle down by phase and by plugin, to show where time goes
// (all per node over the 5,000 nodes; a plugin's Filter and Score run on
// every node there, skipped plugins report 0). BM_plain_pod_sweep prices a
// node the way the pipeline meets it in larger clusters: a fresh stretch of
// the cluster each cycle.
#include "config/scheduler_config.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"

#include <benchmark/benchmark.h>

#include <map>
#include <random>

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

fixture build_cluster(int nodes) {
  fixture out;
  auto reg = plugins::make_in_tree_registry();
  out.profile
    = *plugins::profile::build(config::default_config().profiles[0], reg, 0);
  std::mt19937 rng{7};
  const char* types[] = {"m5.xlarge", "m5.2xlarge", "c5.4xlarge"};
  for (int i = 0; i < nodes; ++i) {
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
  out.cluster.node_count = nodes;
  return out;
}

const fixture& cluster() {
  static const fixture f = build_cluster(node_count);
  return f;
}

void run_cycle(benchmark::State& state, const model::pod& p) {
  const fixture& f = cluster();
  plugins::filter_options all;
  std::size_t start = 0;
  for (auto _ : state) {
    auto begun = plugins::begin_cycle(*f.profile, p, f.cluster);
    auto partials
      = plugins::run_scans(*f.profile, begun.state, p, begun.scans, f.nodes);
    std::vector<std::vector<plugins::scan_partial_ptr>> per_shard{partials};
    (void)plugins::merge_scans(*f.profile, begun.state, p, begun.scans,
                               std::move(per_shard));
    auto result = plugins::filter_and_score(*f.profile, begun.state, p, f.nodes,
                                            start, all);
    benchmark::DoNotOptimize(result.feasible.data());
    start = (start + 1) % f.nodes.size();
  }
  state.counters["ns_per_node"] = benchmark::Counter(
    static_cast<double>(state.iterations()) * node_count,
    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

model::pod_ptr plain_pod() {
  return make_pod("plain").cpu("100m").memory("500Mi").build();
}

model::pod_ptr anti_affinity_and_spread_pod() {
  return make_pod("spread")
    .label("app", "app-7")
    .cpu("100m")
    .memory("500Mi")
    .required_anti_affinity("app", "app-7", "kubernetes.io/hostname")
    .spread("topology.kubernetes.io/zone", 1, "DoNotSchedule",
            {{"app", "app-7"}})
    .build();
}

void BM_plain_pod(benchmark::State& state) {
  run_cycle(state, *plain_pod());
}
BENCHMARK(BM_plain_pod)->Unit(benchmark::kMicrosecond);

void BM_anti_affinity_and_spread(benchmark::State& state) {
  run_cycle(state, *anti_affinity_and_spread_pod());
}
BENCHMARK(BM_anti_affinity_and_spread)->Unit(benchmark::kMicrosecond);

// The same cluster shape at N nodes, walked as the pipeline walks it: each
// cycle looks for percentageOfNodesToScore's share of feasible nodes (500 of
// 5,000, 1,000 of 20,000, 5,000 of 100,000) and starts where the last one
// stopped. Over a run that sweeps the whole cluster, so once the node infos
// outgrow the caches most visits start with a miss, which BM_plain_pod's
// 5,000 nodes mostly avoid. ns per node is per node examined.
void BM_plain_pod_sweep(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  static std::map<int, fixture> built;
  auto it = built.find(nodes);
  if (it == built.end())
    it = built.emplace(nodes, build_cluster(nodes)).first;
  const fixture& f = it->second;
  auto p = plain_pod();
  plugins::filter_options options;
  options.quota
    = plugins::num_feasible_nodes_to_find(0, static_cast<std::size_t>(nodes));
  std::size_t start = 0;
  std::size_t examined = 0;
  for (auto _ : state) {
    auto begun = plugins::begin_cycle(*f.profile, *p, f.cluster);
    auto partials
      = plugins::run_scans(*f.profile, begun.state, *p, begun.scans, f.nodes);
    std::vector<std::vector<plugins::scan_partial_ptr>> per_shard{partials};
    (void)plugins::merge_scans(*f.profile, begun.state, *p, begun.scans,
                               std::move(per_shard));
    auto result = plugins::filter_and_score(*f.profile, begun.state, *p,
                                            f.nodes, start, options);
    benchmark::DoNotOptimize(result.feasible.data());
    examined += result.processed;
    start = (start + result.processed) % f.nodes.size();
  }
  state.counters["visited"] = static_cast<double>(options.quota);
  state.counters["ns_per_node"] = benchmark::Counter(
    static_cast<double>(examined),
    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_plain_pod_sweep)
  ->Arg(5000)
  ->Arg(20000)
  ->Arg(100000)
  ->Unit(benchmark::kMicrosecond);

// --- Breakdown ---------------------------------------------------------------

void report_per_node(benchmark::State& state) {
  state.counters["ns_per_node"] = benchmark::Counter(
    static_cast<double>(state.iterations()) * node_count,
    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// begin_cycle, run_scans and merge_scans, as run_cycle does them.
plugins::cycle_start prepared_cycle(const model::pod& p) {
  const fixture& f = cluster();
  auto begun = plugins::begin_cycle(*f.profile, p, f.cluster);
  auto partials
    = plugins::run_scans(*f.profile, begun.state, p, begun.scans, f.nodes);
  std::vector<std::vector<plugins::scan_partial_ptr>> per_shard{partials};
  (void)plugins::merge_scans(*f.profile, begun.state, p, begun.scans,
                             std::move(per_shard));
  return begun;
}

void BM_phase_begin_cycle(benchmark::State& state, model::pod_ptr (*pod)()) {
  const fixture& f = cluster();
  auto p = pod();
  for (auto _ : state) {
    auto begun = plugins::begin_cycle(*f.profile, *p, f.cluster);
    benchmark::DoNotOptimize(begun.scans.data());
  }
  report_per_node(state);
}

void BM_phase_scans(benchmark::State& state, model::pod_ptr (*pod)()) {
  const fixture& f = cluster();
  auto p = pod();
  auto begun = plugins::begin_cycle(*f.profile, *p, f.cluster);
  for (auto _ : state) {
    auto partials
      = plugins::run_scans(*f.profile, begun.state, *p, begun.scans, f.nodes);
    benchmark::DoNotOptimize(partials.data());
  }
  report_per_node(state);
}

void BM_phase_filter_and_score(benchmark::State& state,
                               model::pod_ptr (*pod)()) {
  const fixture& f = cluster();
  auto p = pod();
  auto begun = prepared_cycle(*p);
  plugins::filter_options all;
  std::size_t start = 0;
  for (auto _ : state) {
    auto result = plugins::filter_and_score(*f.profile, begun.state, *p,
                                            f.nodes, start, all);
    benchmark::DoNotOptimize(result.feasible.data());
    start = (start + 1) % f.nodes.size();
  }
  report_per_node(state);
}

// One plugin's Filter (or Score) on every node, in node order.
template <bool Score>
void BM_plugin(benchmark::State& state, model::pod_ptr (*pod)(),
               const char* name) {
  const fixture& f = cluster();
  auto p = pod();
  auto begun = prepared_cycle(*p);
  const plugins::plugin* plugin = f.profile->find(name);
  const auto* filter = dynamic_cast<const plugins::filter_plugin*>(plugin);
  const auto* score = dynamic_cast<const plugins::score_plugin*>(plugin);
  const bool skipped
    = plugin == nullptr
      || (Score
            ? score == nullptr || begun.state.skip_score.test(plugin->slot())
            : filter == nullptr
                || begun.state.skip_filter.test(plugin->slot()));
  state.SetLabel(skipped ? "skipped" : "");
  for (auto _ : state) {
    if (skipped)
      continue;
    std::int64_t sum = 0;
    for (const auto& node : f.nodes) {
      if constexpr (Score)
        sum += score->score(begun.state, *p, *node);
      else
        sum += filter->filter(begun.state, *p, *node).ok() ? 1 : 0;
    }
    benchmark::DoNotOptimize(sum);
  }
  report_per_node(state);
}

void BM_plugin_filter(benchmark::State& state, model::pod_ptr (*pod)(),
                      const char* name) {
  BM_plugin<false>(state, pod, name);
}

void BM_plugin_score(benchmark::State& state, model::pod_ptr (*pod)(),
                     const char* name) {
  BM_plugin<true>(state, pod, name);
}

// Each phase and each plugin runs for both pods: the plain one, and the one
// the scan plugins (InterPodAffinity, PodTopologySpread) have work for.
using pod_maker = model::pod_ptr (*)();
constexpr std::pair<const char*, pod_maker> bench_pods[] = {
  {"plain", plain_pod},
  {"anti_affinity_and_spread", anti_affinity_and_spread_pod},
};
using phase_bench = void (*)(benchmark::State&, pod_maker);
constexpr std::pair<const char*, phase_bench> phases[] = {
  {"BM_phase_begin_cycle", BM_phase_begin_cycle},
  {"BM_phase_scans", BM_phase_scans},
  {"BM_phase_filter_and_score", BM_phase_filter_and_score},
};
constexpr const char* filter_plugins[] = {
  "NodeUnschedulable", "NodeName",         "TaintToleration",
  "NodeAffinity",      "NodePorts",        "NodeResourcesFit",
  "PodTopologySpread", "InterPodAffinity",
};
constexpr const char* score_plugins[] = {
  "TaintToleration",   "NodeAffinity",     "NodeResourcesFit",
  "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation",
  "ImageLocality",
};

[[maybe_unused]] const bool per_pod_registered = [] {
  for (auto [phase, run] : phases)
    for (auto [pod_name, pod] : bench_pods)
      benchmark::RegisterBenchmark(
        (std::string(phase) + "/" + pod_name).c_str(), run, pod)
        ->Unit(benchmark::kMicrosecond);
  auto per_plugin = [](const char* bench, auto run, const auto& plugins) {
    for (const char* plugin : plugins)
      for (auto [pod_name, pod] : bench_pods)
        benchmark::RegisterBenchmark(
          (std::string(bench) + "/" + pod_name + "_" + plugin).c_str(), run,
          pod, plugin)
          ->Unit(benchmark::kMicrosecond);
  };
  per_plugin("BM_plugin_filter", BM_plugin_filter, filter_plugins);
  per_plugin("BM_plugin_score", BM_plugin_score, score_plugins);
  return true;
}();

} // namespace
} // namespace tessera
