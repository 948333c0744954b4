// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// What recording metrics costs the scheduling hot path: the whole actor
// pipeline (as `tessera simulate` runs it, settling queue) schedules a
// plain workload — 1,000 nodes shaped like upstream's default node (4 cpu,
// 32Gi, 110 pods) and 5,000 pods of 100m / 500Mi, all of which fit — with
// metrics off (no instance in the configs: each recording site is one null
// check) and on (a scheduler_metrics handed to the pipeline, recorded into,
// and rendered once per iteration as a scrape would), the latter with and
// without the sampled plugin timing.
//
//   build/bin/ops_metrics_overhead_bench --benchmark_repetitions=5
//
// OPS_BENCH_SCALE=<percent> scales nodes and pods for a quick look.
#include "metrics/scheduler_metrics.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_metrics.hpp"
#include "test/pipeline/pipeline_runner.hpp"
#include "test/support/builders.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>

namespace {

using namespace tessera;

std::vector<model::object> plain_workload() {
  std::int64_t scale = pipeline_test::env_int("OPS_BENCH_SCALE", 100);
  std::size_t nodes = static_cast<std::size_t>(1000 * scale / 100);
  std::size_t pods = static_cast<std::size_t>(5000 * scale / 100);
  std::vector<model::object> out;
  for (std::size_t i = 0; i < nodes; ++i)
    out.emplace_back(test::make_node("node-" + std::to_string(i))
                       .cpu("4")
                       .memory("32Gi")
                       .pods(110)
                       .zone("zone-" + std::to_string(i % 3))
                       .build());
  for (std::size_t i = 0; i < pods; ++i)
    out.emplace_back(test::make_pod("pod-" + std::to_string(i))
                       .cpu("100m")
                       .memory("500Mi")
                       .build());
  return out;
}

// Args: metrics off (0), on (1: upstream's 10 % of cycles time their
// plugins, up to 1,000 recorded durations a second), on without plugin timing
// (2: plugin_sample_percent 0, to tell the sampled plugin timing apart from the
// rest); shards; max inflight cycles.
void pipeline_with_metrics(benchmark::State& state) {
  static const auto objects = plain_workload();
  bool on = state.range(0) != 0;
  bool plugin_timing = state.range(0) == 1;
  pipeline_test::pipeline_options opts;
  opts.shards = static_cast<std::size_t>(state.range(1));
  opts.inflight = static_cast<std::size_t>(state.range(2));
  opts.threads = 2;
  auto prof = pipeline_test::default_profile();
  std::size_t pods = 0;
  double seconds = 0;
  for (auto _ : state) {
    metrics::scheduler_metrics m;
    if (!plugin_timing)
      m.plugin_sample_percent = 0;
    opts.metrics = on ? &m : nullptr;
    auto run = pipeline_test::run_pipeline(objects, prof, opts);
    if (on)
      benchmark::DoNotOptimize(m.render());
    if (!run.idle) {
      state.SkipWithError("the pipeline did not go idle");
      break;
    }
    for (const auto& r : run.results)
      if (r.state == actors::memory_cluster::pod_result::status::scheduled)
        ++pods;
    seconds += run.seconds;
  }
  state.counters["pods_per_s"] = seconds > 0 ? pods / seconds : 0;
}

// The recording one scheduled pod costs, outside the pipeline: what the
// queue (PodAdd, pending gauges), the coordinator (PreFilter and Filter
// durations, algorithm duration, attempt duration, in-flight gauge twice),
// one shard, the cache (sizes) and the binder (attempts, SLI) do for it.
void record_one_pod(benchmark::State& state) {
  metrics::scheduler_metrics m;
  auto& shard = m.shard_filter_score_duration.with({"0"});
  const std::string profile = "default-scheduler";
  for (auto _ : state) {
    // Each recording site reads the pointer its config holds.
    auto* cur = &m;
    benchmark::DoNotOptimize(cur);
    auto began = std::chrono::steady_clock::now();
    cur->queue_incoming_pods.with({"active", "PodAdd"}).inc();
    cur->pending_active.set(1);
    cur->pending_backoff.set(0);
    cur->pending_unschedulable.set(0);
    cur->pending_gated.set(0);
    cur->inflight.set(1);
    cur->extension_point_duration.with({"PreFilter", "Success", profile})
      .observe(metrics::seconds_since(began));
    shard.observe(metrics::seconds_since(began));
    cur->extension_point_duration.with({"Filter", "Success", profile})
      .observe(metrics::seconds_since(began));
    cur->algorithm.observe(metrics::seconds_since(began));
    cur->attempt_duration.with({"scheduled", profile})
      .observe(metrics::seconds_since(began));
    cur->inflight.set(0);
    cur->cache_nodes.set(1000);
    cur->cache_pods.set(1);
    cur->cache_assumed_pods.set(1);
    cur->schedule_attempts.with({"scheduled", profile}).inc();
    cur->pod_attempts.observe(1);
    cur->pod_sli_duration.with({metrics::attempts_label(1)})
      .observe(metrics::seconds_since(began));
  }
}
BENCHMARK(record_one_pod);

// A scrape of a run's worth of series.
void render_scrape(benchmark::State& state) {
  metrics::scheduler_metrics m;
  for (const char* r : {"scheduled", "unschedulable", "error"})
    m.attempt_duration.with({r, "default-scheduler"}).observe(0.01);
  for (int s = 0; s < 16; ++s)
    m.shard_filter_score_duration.with({std::to_string(s)}).observe(0.001);
  for (auto _ : state)
    benchmark::DoNotOptimize(m.render());
}
BENCHMARK(render_scrape)->Unit(benchmark::kMicrosecond);

// One shard's Filter + local Score pass over 1,000 nodes (all feasible,
// no quota) with the profile as it is (0: every unsampled cycle, metrics
// on or off), with its timed copy and no cap on recorded durations (1:
// every plugin call timed and observed), and with its timed copy once the
// second's 1,000 durations are recorded (2: the calls of a sampled cycle
// past the cap, forwarded untimed).
void filter_and_score_pass(benchmark::State& state) {
  bool timed = state.range(0) != 0;
  std::vector<model::node_info_ptr> nodes;
  for (int i = 0; i < 1000; ++i)
    nodes.push_back(
      test::make_node_info_ptr(test::make_node("node-" + std::to_string(i))
                                 .cpu("4")
                                 .memory("32Gi")
                                 .pods(110)
                                 .zone("zone-" + std::to_string(i % 3))
                                 .build()));
  plugins::cluster_context cluster;
  cluster.node_count = 1000;
  auto pod = test::make_pod("p").cpu("100m").memory("500Mi").build();
  metrics::scheduler_metrics m;
  if (state.range(0) == 1)
    m.plugin_duration_budget.set_limit(0);
  auto prof = pipeline_test::default_profile();
  auto run_with = timed ? plugins::make_timed_profile(*prof, m) : prof;
  auto start = plugins::begin_cycle(*run_with, *pod, cluster);
  for (auto _ : state) {
    auto out
      = plugins::filter_and_score(*run_with, start.state, *pod, nodes, 0, {});
    benchmark::DoNotOptimize(out.feasible.data());
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(filter_and_score_pass)
  ->ArgNames({"timed"})
  ->Arg(0)
  ->Arg(1)
  ->Arg(2)
  ->Unit(benchmark::kMicrosecond);

BENCHMARK(pipeline_with_metrics)
  ->ArgNames({"metrics", "shards", "inflight"})
  ->Args({0, 1, 1})
  ->Args({1, 1, 1})
  ->Args({2, 1, 1})
  ->Args({0, 4, 16})
  ->Args({1, 4, 16})
  ->Args({2, 4, 16})
  ->Unit(benchmark::kMillisecond)
  ->UseRealTime()
  ->Iterations(3);

} // namespace
