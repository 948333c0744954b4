// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Throughput of the whole actor pipeline (cache, queue, shards, coordinator,
// binder) on an in-memory cluster, default profile, settling queue
// as `simulate` runs it. Nodes are shaped like upstream's default node (4
// cpu, 32Gi, 110 pods); pods ask for 100m cpu / 500Mi. One iteration =
// start the pipeline, deliver every object, wait until every pod is bound
// (every pod fits). Reports pods/s and the cache's assume conflicts per
// (shards, max inflight cycles) for three workloads:
//
//   plain      1,000 nodes,  5,000 plain pods           shards {1,2,4} x
//   anti       1,000 nodes,  2,000 pods in 10 groups    inflight {1,4,16}
//              with required hostname anti-affinity to
//              their own group (every pod needs a scan
//              of all shards)
//   large      5,000 nodes, 10,000 plain pods           (1,1) (2,1) (2,8)
//              (the `simulate` cluster of               (4,16)
//              docs/benchmarks.md)
//
//   build/bin/pipeline_bench --benchmark_counters_tabular=true
//
// PIPELINE_BENCH_SCALE=<percent> scales every workload's node and pod counts
// for a quick look; PIPELINE_BENCH_THREADS sets CAF's scheduler threads
// (default: cores).

#include "actors/memory_cluster.hpp"
#include "actors/pipeline.hpp"
#include "model/node.hpp"
#include "model/pod.hpp"
#include "test/support/default_profile.hpp"

#include <benchmark/benchmark.h>
#include <caf/all.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>

namespace {

using namespace tessera;

std::int64_t env_or(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoll(v, nullptr, 10) : fallback;
}

model::node_ptr make_node(std::size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "node-%05zu", i);
  model::node n;
  n.name = model::symbol{name};
  n.labels.set(model::symbol{model::node_labels::hostname}, n.name);
  n.capacity.milli_cpu = 4000;
  n.capacity.memory = std::int64_t{32} << 30;
  n.capacity.pods = 110;
  n.allocatable = n.capacity;
  return std::make_shared<const model::node>(std::move(n));
}

/// Pod `i`; with `anti_groups` > 0 it carries app=g<i % groups> and a
/// required hostname anti-affinity term against its own group.
model::pod_ptr make_pod(std::size_t i, std::size_t anti_groups) {
  char name[32];
  std::snprintf(name, sizeof name, "pod-%05zu", i);
  model::pod p;
  p.name = name;
  p.ns = model::symbol{"default"};
  p.uid = std::string{"uid-"} + name;
  p.scheduler_name = model::symbol{"default-scheduler"};
  model::container c;
  c.name = "main";
  c.requests.milli_cpu = 100;
  c.requests.memory = std::int64_t{500} << 20;
  c.has_cpu_request = true;
  c.has_memory_request = true;
  p.containers.push_back(std::move(c));
  if (anti_groups > 0) {
    std::string group = "g" + std::to_string(i % anti_groups);
    p.labels.set(model::symbol{"app"}, model::symbol{group});
    model::pod_affinity_term term;
    term.selector = *model::label_selector::parse("app=" + group);
    term.topology_key = model::symbol{model::node_labels::hostname};
    model::pod_affinity anti;
    anti.required.push_back(std::move(term));
    p.affinity.edit().pod_anti = std::move(anti);
  }
  p.complete();
  return std::make_shared<const model::pod>(std::move(p));
}

enum workload : std::int64_t { plain = 0, anti = 1, large = 2 };

std::size_t scaled(std::size_t n) {
  auto percent = env_or("PIPELINE_BENCH_SCALE", 100);
  return std::max<std::size_t>(1, n * static_cast<std::size_t>(percent) / 100);
}

const std::vector<model::object>& cluster_objects(std::int64_t w) {
  auto build = [](std::size_t nodes, std::size_t pods, std::size_t groups) {
    std::vector<model::object> out;
    for (std::size_t i = 0; i < scaled(nodes); ++i)
      out.emplace_back(make_node(i));
    for (std::size_t i = 0; i < scaled(pods); ++i)
      out.emplace_back(make_pod(i, groups));
    return out;
  };
  static const std::vector<model::object> plain_objects = build(1000, 5000, 0);
  static const std::vector<model::object> anti_objects = build(1000, 2000, 10);
  static const std::vector<model::object> large_objects = build(5000, 10000, 0);
  switch (w) {
  case plain:
    return plain_objects;
  case anti:
    return anti_objects;
  default:
    return large_objects;
  }
}

void BM_Pipeline(benchmark::State& state) {
  const auto& objects = cluster_objects(state.range(2));
  auto prof = tessera::test::default_profile();
  std::size_t pods = 0;
  for (const auto& o : objects)
    pods += std::holds_alternative<model::pod_ptr>(o);
  auto threads
    = env_or("PIPELINE_BENCH_THREADS",
             static_cast<std::int64_t>(actors::default_worker_threads()));
  double scheduled = 0;
  double conflicts = 0;
  for (auto _ : state) {
    actors::memory_cluster cluster{objects};
    caf::actor_system_config cfg;
    // As `simulate` configures CAF.
    actors::configure_scheduler(cfg, static_cast<std::size_t>(threads),
                                actors::worker_polling::eager());
    caf::actor_system sys{cfg};
    actors::pipeline_config pc;
    pc.shards = static_cast<std::size_t>(state.range(0));
    pc.max_inflight_cycles = static_cast<std::size_t>(state.range(1));
    pc.seed = 1;
    pc.requeue = actors::requeue_policy::settle;
    auto started = std::chrono::steady_clock::now();
    auto p = actors::start_pipeline(sys, pc, {prof}, cluster, cluster,
                                    system_clock::instance());
    // Every pod fits: the run is over at the last binding. Polling the
    // binding count (1 ms) measures that instant more closely than
    // wait_until_idle, which may sleep up to its re-check interval.
    auto deadline = started + std::chrono::minutes(10);
    while (cluster.bindings() < pods
           && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - started)
                       .count();
    state.SetIterationTime(seconds);
    bool idle = actors::wait_until_idle(sys, p, std::chrono::minutes(1));
    if (!idle)
      state.SkipWithError("the pipeline did not finish");
    {
      caf::scoped_actor self{sys};
      self
        ->request(p.cache, std::chrono::seconds(30), actors::stats_atom::value)
        .receive(
          [&](const actors::cache_stats& s) {
            conflicts += static_cast<double>(s.conflicts);
          },
          [](caf::error&) {});
    }
    scheduled += static_cast<double>(cluster.bindings());
    actors::stop_pipeline(p, cluster);
  }
  auto n = static_cast<double>(state.iterations());
  state.counters["pods/s"] = benchmark::Counter(static_cast<double>(pods) * n,
                                                benchmark::Counter::kIsRate);
  state.counters["bound"] = scheduled / n;
  state.counters["conflicts"] = conflicts / n;
  state.counters["conflict_rate"] = conflicts / std::max(1.0, scheduled);
}

void grid(benchmark::internal::Benchmark* b) {
  for (std::int64_t w : {plain, anti})
    for (std::int64_t shards : {1, 2, 4})
      for (std::int64_t inflight : {1, 4, 16})
        b->Args({shards, inflight, w});
  for (auto [shards, inflight] :
       {std::pair<std::int64_t, std::int64_t>{1, 1}, {2, 1}, {2, 8}, {4, 16}})
    b->Args({shards, inflight, large});
}

BENCHMARK(BM_Pipeline)
  ->ArgNames({"shards", "inflight", "workload"})
  ->Apply(grid)
  ->UseManualTime()
  ->Unit(benchmark::kMillisecond)
  ->Iterations(2);

} // namespace
