// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Filter with nominated pods on the nodes of the default profile: nodes of K
// running pods (second argument: K) with N pods of higher priority nominated
// to each (first argument: N), visited in turn, on one core.
//
//   build/bin/nominated_bench --benchmark_repetitions=5
//   --benchmark_enable_random_interleaving=true
//
// - BM_filter_view: profile::run_filters_with_nominated, both passes (the
//   pod fits);
// - BM_filter_copy: the same two passes with the first one run on a copy of
//   the node with the nominated pods added (one scratch node per thread, as
//   a reference for the cost of copying);
// - BM_dry_run: DefaultPreemption's dry run on the node, whose K running pods
//   all have lower priority: every reprieve of a victim re-runs the filters
//   with the nominated pods.
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "test/support/builders.hpp"
#include "test/support/default_profile.hpp"

#include <benchmark/benchmark.h>

#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace tessera {
namespace {

using test::make_pod;

constexpr int running_pods_total = 20000;
constexpr int nominated_pool = 4096;

// About 20,000 running pods over as many nodes as that makes (5,000 nodes of
// 4 pods, as PreemptionBasic/5000Nodes), so that each call meets a node whose
// pods are not in cache, as a shard visiting its nodes does.
struct cluster {
  plugins::profile_ptr profile;
  std::vector<model::node_info_ptr> nodes;
  plugins::cluster_context context;
};

// `spare_milli` is the cpu left on each node beside its running pods and
// `nominated` nominated ones (each pod requests 100m).
const cluster& cluster_of(int running, int nominated,
                          std::int64_t spare_milli) {
  static std::map<std::tuple<int, int, std::int64_t>, cluster> built;
  auto key = std::make_tuple(running, nominated, spare_milli);
  if (auto it = built.find(key); it != built.end())
    return it->second;
  // Keep one cluster at a time: the machine is shared.
  built.clear();
  cluster& c = built[key];
  c.profile = test::default_profile();
  const int node_count = running_pods_total / running;
  const std::int64_t cpu = 100 * (running + nominated) + spare_milli;
  for (int i = 0; i < node_count; ++i) {
    std::string name = "n" + std::to_string(i);
    auto node = test::make_node(name)
                  .cpu(std::to_string(cpu) + "m")
                  .memory("512Gi")
                  .pods(300)
                  .zone("z" + std::to_string(i % 3))
                  .build();
    std::vector<model::pod_ptr> pods;
    for (int j = 0; j < running; ++j)
      pods.push_back(make_pod(name + "-r" + std::to_string(j))
                       .label("app", "app-" + std::to_string(j % 7))
                       .cpu("100m")
                       .memory("100Mi")
                       .host_port(10000 + j)
                       .priority(0)
                       .started(1000 + j)
                       .node(name)
                       .build());
    c.nodes.push_back(test::make_node_info_ptr(node, pods));
  }
  c.context.node_count = node_count;
  return c;
}

// Nominated pods (priority 20, 100m each); node i gets the next `n` of the
// pool.
const std::vector<model::pod_ptr>& pool() {
  static const std::vector<model::pod_ptr> pods = [] {
    std::vector<model::pod_ptr> out;
    for (int i = 0; i < nominated_pool; ++i)
      out.push_back(make_pod("q" + std::to_string(i))
                      .label("app", "preemptor")
                      .cpu("100m")
                      .memory("100Mi")
                      .priority(20)
                      .build());
    return out;
  }();
  return pods;
}

std::span<const model::pod_ptr> nominated_on(std::size_t node, int n) {
  const std::size_t first
    = (node * static_cast<std::size_t>(n)) % (nominated_pool - 32);
  return std::span<const model::pod_ptr>{pool()}.subspan(
    first, static_cast<std::size_t>(n));
}

model::pod_ptr preemptor() {
  return make_pod("p")
    .label("app", "preemptor")
    .cpu("100m")
    .memory("100Mi")
    .host_port(80)
    .priority(10)
    .build();
}

// Calls `step(cluster, cycle state, pod, node, nominated pods)` on each node
// in turn, the node's nominated pods of the shape given by the benchmark's
// arguments; a false return stops with an error.
template <class Step>
void over_nodes(benchmark::State& state, std::int64_t spare_milli, Step step) {
  const int n = static_cast<int>(state.range(0));
  const int k = static_cast<int>(state.range(1));
  const cluster& c = cluster_of(k, n, spare_milli);
  auto p = preemptor();
  auto start = plugins::begin_cycle(*c.profile, *p, c.context);
  std::size_t i = 0;
  for (auto _ : state) {
    if (!step(c, start.state, *p, *c.nodes[i], nominated_on(i, n))) {
      state.SkipWithError("unexpected outcome");
      break;
    }
    i = i + 1 == c.nodes.size() ? 0 : i + 1;
  }
}

void BM_filter_view(benchmark::State& state) {
  over_nodes(
    state, 1000,
    [](const cluster& c, const plugins::cycle_state& st, const model::pod& p,
       const model::node_info& node,
       std::span<const model::pod_ptr> nominated) {
      return c.profile->run_filters_with_nominated(st, p, node, nominated).ok();
    });
}

void BM_filter_copy(benchmark::State& state) {
  thread_local model::node_info scratch;
  over_nodes(state, 1000,
             [](const cluster& c, const plugins::cycle_state& st,
                const model::pod& p, const model::node_info& node,
                std::span<const model::pod_ptr> nominated) {
               scratch = node;
               for (const auto& q : nominated)
                 scratch.add_pod(q);
               return c.profile->run_filters(st, p, scratch).ok()
                      && c.profile->run_filters(st, p, node).ok();
             });
}

void BM_dry_run(benchmark::State& state) {
  // One victim is enough: 50m spare plus one running pod's 100m.
  over_nodes(state, 50,
             [](const cluster& c, const plugins::cycle_state& st,
                const model::pod& p, const model::node_info& node,
                std::span<const model::pod_ptr> nominated) {
               plugins::dry_run_node one{&node, nominated};
               auto r = c.profile->post_filter().front()->dry_run(
                 *c.profile, st, p, {&one, 1}, 1, c.context);
               return r.non_violating.size() == 1;
             });
}

void shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"nominated", "running"});
  for (int k : {4, 30, 110})
    for (int n : {1, 8, 32})
      b->Args({n, k});
}

BENCHMARK(BM_filter_view)->Apply(shapes);
BENCHMARK(BM_filter_copy)->Apply(shapes);
BENCHMARK(BM_dry_run)->Apply(shapes);

} // namespace
} // namespace tessera
