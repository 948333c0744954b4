// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Runs the real actor pipeline (as `tessera simulate` does) with a metrics
// instance in its config, scrapes the text exposition and checks it
// against what the memory cluster saw happen.
#include "metrics/scheduler_metrics.hpp"
#include "test/pipeline/pipeline_runner.hpp"
#include "test/support/builders.hpp"
#include "test/support/exposition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

namespace tessera {
namespace {

using test::make_node;
using test::make_pod;
using testing_support_labels = std::map<std::string, std::string>;

using sample = test::exposition_sample;
using test::parse_exposition;

// Sum of every sample named `name` whose labels include `match`.
double total(const std::vector<sample>& samples, const std::string& name,
             const testing_support_labels& match = {}) {
  double sum = 0;
  for (const auto& s : samples) {
    if (s.name != name)
      continue;
    bool ok = true;
    for (const auto& [k, v] : match)
      if (auto it = s.labels.find(k); it == s.labels.end() || it->second != v)
        ok = false;
    if (ok)
      sum += s.value;
  }
  return sum;
}

// An instance to hand to the pipeline; run_pipeline awaits its actors
// before it returns, so the instance outlives every recording.
struct recorded_metrics {
  metrics::scheduler_metrics m;
  /// Pipeline options that record into `m`.
  pipeline_test::pipeline_options options() {
    pipeline_test::pipeline_options opts;
    opts.metrics = &m;
    return opts;
  }
};

// 3 nodes x 4 cpu, one zone each, and ten pending 1-cpu pods.
std::vector<model::object> three_nodes_ten_small_pods() {
  std::vector<model::object> objects;
  for (int n = 0; n < 3; ++n)
    objects.emplace_back(make_node("n" + std::to_string(n))
                           .cpu("4")
                           .memory("16Gi")
                           .pods(110)
                           .zone("z" + std::to_string(n))
                           .build());
  for (int i = 0; i < 10; ++i)
    objects.emplace_back(
      make_pod("small-" + std::to_string(i)).cpu("1").build());
  return objects;
}

TEST(metrics_after_pipeline_run, counts_match_what_happened) {
  struct test_case {
    std::string name;
    std::size_t shards;
    std::size_t inflight;
  };
  for (const auto& tc :
       std::vector<test_case>{{"one shard", 1, 1}, {"three shards", 3, 4}}) {
    SCOPED_TRACE(tc.name);
    // 3 nodes x 4 cpu: twelve 1-cpu pods fit; 8-cpu pods never do.
    std::vector<model::object> objects = three_nodes_ten_small_pods();
    for (int i = 0; i < 3; ++i)
      objects.emplace_back(
        make_pod("huge-" + std::to_string(i)).cpu("8").build());

    recorded_metrics rec;
    auto opts = rec.options();
    opts.shards = tc.shards;
    opts.inflight = tc.inflight;
    auto prof = pipeline_test::default_profile();
    auto run = pipeline_test::run_pipeline(objects, prof, opts);
    ASSERT_TRUE(run.idle);

    std::size_t scheduled = 0, unschedulable = 0;
    std::int64_t attempts = 0;
    for (const auto& r : run.results) {
      attempts += r.attempts;
      if (r.state == actors::memory_cluster::pod_result::status::scheduled)
        ++scheduled;
      else if (r.state
               == actors::memory_cluster::pod_result::status::unschedulable)
        ++unschedulable;
    }
    ASSERT_EQ(scheduled, 10u);
    ASSERT_EQ(unschedulable, 3u);

    auto samples = parse_exposition(rec.m.render());
    const std::string profile = prof->scheduler_name();
    const std::string attempts_total = "scheduler_schedule_attempts_total";
    EXPECT_EQ(total(samples, attempts_total,
                    {{"result", "scheduled"}, {"profile", profile}}),
              scheduled);
    EXPECT_EQ(total(samples, attempts_total, {{"result", "error"}}), 0);
    // Every attempt the cluster saw reported is counted once.
    EXPECT_EQ(total(samples, attempts_total), attempts);
    EXPECT_GE(total(samples, attempts_total, {{"result", "unschedulable"}}),
              unschedulable);
    // Attempt durations: one observation per counted attempt.
    EXPECT_EQ(total(samples,
                    "scheduler_scheduling_attempt_duration_seconds_count",
                    {{"result", "unschedulable"}}),
              total(samples, attempts_total, {{"result", "unschedulable"}}));
    EXPECT_EQ(total(samples, "scheduler_pod_scheduling_attempts_count"),
              scheduled);
    EXPECT_EQ(
      total(samples, "scheduler_pod_scheduling_sli_duration_seconds_count"),
      scheduled);
    EXPECT_EQ(
      total(samples,
            "scheduler_framework_extension_point_duration_seconds_"
            "count",
            {{"extension_point", "PreFilter"}}),
      total(samples, "scheduler_scheduling_algorithm_duration_seconds_"
                     "count")
        + total(samples, attempts_total, {{"result", "unschedulable"}}));
    // Unschedulable pods reach PostFilter (DefaultPreemption); no victims
    // exist, so none are chosen.
    EXPECT_EQ(total(samples, "scheduler_preemption_attempts_total"),
              total(samples, attempts_total, {{"result", "unschedulable"}}));
    EXPECT_EQ(total(samples, "scheduler_preemption_victims_count"), 0);
    EXPECT_EQ(total(samples, "scheduler_cache_size", {{"type", "nodes"}}), 3);
    EXPECT_EQ(total(samples, "scheduler_cache_size", {{"type", "pods"}}),
              scheduled);
    EXPECT_EQ(total(samples, "scheduler_pending_pods"), 0);
    EXPECT_EQ(total(samples, "tessera_inflight_cycles"), 0);
    // NodeResourcesFit's PreFilter never skips: once per cycle at least
    // (conflicts repeat cycles); its Filter ran on every node visited.
    const std::string evaluations = "scheduler_plugin_evaluation_total";
    EXPECT_GE(
      total(samples, evaluations,
            {{"plugin", "NodeResourcesFit"}, {"extension_point", "PreFilter"}}),
      attempts);
    EXPECT_GE(
      total(samples, evaluations,
            {{"plugin", "NodeResourcesFit"}, {"extension_point", "Filter"}}),
      total(
        samples, evaluations,
        {{"plugin", "NodeResourcesFit"}, {"extension_point", "PreFilter"}}));
    // The work gauges went up and came back: their series exist, at 0.
    for (const char* op : {"binding", "Filter"}) {
      bool seen = false;
      for (const auto& smp : samples)
        if (smp.name == "scheduler_goroutines"
            && smp.labels.count("operation") != 0
            && smp.labels.at("operation") == op) {
          seen = true;
          EXPECT_EQ(smp.value, 0) << op;
        }
      EXPECT_TRUE(seen) << op;
    }
    EXPECT_EQ(total(samples, "scheduler_queue_incoming_pods_total",
                    {{"event", "PodAdd"}}),
              13);
    // Every shard that filtered reported its time.
    double shard_cycles
      = total(samples, "tessera_shard_filter_score_duration_seconds_count");
    EXPECT_GE(shard_cycles, static_cast<double>(attempts));
    for (std::size_t s = 0; s < tc.shards; ++s)
      EXPECT_GT(total(samples,
                      "tessera_shard_filter_score_duration_seconds_count",
                      {{"shard", std::to_string(s)}}),
                0)
        << "shard " << s;
  }
}

TEST(metrics_after_pipeline_run,
     nothing_recorded_into_an_instance_not_handed_over) {
  metrics::scheduler_metrics idle; // never handed to the pipeline
  std::vector<model::object> objects;
  objects.emplace_back(
    make_node("n0").cpu("4").memory("16Gi").pods(110).build());
  objects.emplace_back(make_pod("p").cpu("1").build());
  auto run = pipeline_test::run_pipeline(objects,
                                         pipeline_test::default_profile(), {});
  ASSERT_TRUE(run.idle);
  auto samples = parse_exposition(idle.render());
  EXPECT_EQ(total(samples, "scheduler_schedule_attempts_total"), 0);
  EXPECT_EQ(total(samples, "scheduler_cache_size"), 0);
  EXPECT_EQ(total(samples, "scheduler_plugin_execution_duration_seconds_count"),
            0);
  EXPECT_EQ(total(samples, "scheduler_unschedulable_pods"), 0);
  EXPECT_EQ(total(samples, "tessera_actor_mailbox_size"), 0);
}

// 3 nodes x 4 cpu; ten 1-cpu pods, one 3-cpu pod (together more than the
// 12 cpu: some pod is rejected where preemption could look for victims) and
// one 8-cpu pod that never fits (rejected as unresolvable).
std::vector<model::object> ten_small_one_huge() {
  std::vector<model::object> objects = three_nodes_ten_small_pods();
  objects.emplace_back(make_pod("medium").cpu("3").build());
  objects.emplace_back(make_pod("huge").cpu("8").build());
  return objects;
}

// With every cycle sampled, every plugin call of every extension point is
// observed under its plugin and status.
TEST(metrics_after_pipeline_run, plugin_durations_when_every_cycle_is_sampled) {
  for (std::size_t shards : {1u, 3u}) {
    SCOPED_TRACE(std::to_string(shards) + " shard(s)");
    recorded_metrics rec;
    rec.m.plugin_sample_percent = 100;
    rec.m.plugin_duration_budget.set_limit(0);
    auto opts = rec.options();
    opts.shards = shards;
    opts.inflight = shards;
    auto run = pipeline_test::run_pipeline(
      ten_small_one_huge(), pipeline_test::default_profile(), opts);
    ASSERT_TRUE(run.idle);
    auto samples = parse_exposition(rec.m.render());
    const std::string family
      = "scheduler_plugin_execution_duration_seconds_count";
    auto count = [&](const std::string& plugin, const std::string& point,
                     const std::string& status) {
      return total(
        samples, family,
        {{"plugin", plugin}, {"extension_point", point}, {"status", status}});
    };
    std::size_t scheduled = 0;
    for (const auto& r : run.results)
      if (r.state == actors::memory_cluster::pod_result::status::scheduled)
        ++scheduled;
    ASSERT_GT(scheduled, 0u);
    // Plain pods: PreFilter skips NodeAffinity, NodePorts, ... whose
    // filters then never run; the others run on every node visited.
    for (const char* plugin : {"NodeAffinity", "NodePorts"}) {
      EXPECT_GT(count(plugin, "PreFilter", "Skip"), 0) << plugin;
      EXPECT_EQ(total(samples, family,
                      {{"plugin", plugin}, {"extension_point", "Filter"}}),
                0)
        << plugin;
    }
    for (const char* plugin : {"NodeUnschedulable", "NodeName",
                               "TaintToleration", "NodeResourcesFit"})
      EXPECT_GT(count(plugin, "Filter", "Success"), 0) << plugin;
    // The huge pod fails NodeResourcesFit on every node.
    EXPECT_GE(
      count("NodeResourcesFit", "Filter", "UnschedulableAndUnresolvable"), 3);
    for (const char* plugin :
         {"TaintToleration", "NodeResourcesFit",
          "NodeResourcesBalancedAllocation", "ImageLocality"})
      EXPECT_GT(count(plugin, "Score", "Success"), 0) << plugin;
    EXPECT_GT(count("TaintToleration", "ScoreExtensionNormalize", "Success"),
              0);
    EXPECT_GT(count("NodeResourcesFit", "PreFilter", "Success"), 0);
    // A resolvable rejection: DefaultPreemption's dry runs find no victims.
    EXPECT_GT(count("DefaultPreemption", "PostFilter", "Unschedulable"), 0);
    // One Reserve and one Bind per scheduled pod.
    EXPECT_EQ(count("DefaultBinder", "Bind", "Success"),
              static_cast<double>(scheduled));
    EXPECT_EQ(count("VolumeBinding", "Reserve", "Success"),
              static_cast<double>(scheduled));
    // The sum of the durations is positive and every label set is known.
    EXPECT_GT(total(samples, "scheduler_plugin_execution_duration_seconds_sum"),
              0);
    for (const auto& s : samples)
      if (s.name == family) {
        EXPECT_EQ(s.labels.size(), 3u);
        EXPECT_TRUE(s.labels.count("status") == 1) << s.labels.size();
      }
  }
}

// Upstream's 10 %: only some cycles are timed, never more calls than the
// fully sampled run makes.
TEST(metrics_after_pipeline_run, plugin_durations_are_sampled_by_default) {
  auto filter_calls = [](std::uint32_t percent) {
    recorded_metrics rec;
    rec.m.plugin_sample_percent = percent;
    rec.m.plugin_duration_budget.set_limit(0);
    auto run = pipeline_test::run_pipeline(
      ten_small_one_huge(), pipeline_test::default_profile(), rec.options());
    EXPECT_TRUE(run.idle);
    return total(parse_exposition(rec.m.render()),
                 "scheduler_plugin_execution_duration_seconds_count",
                 {{"extension_point", "Filter"}});
  };
  double all = filter_calls(100);
  double some = filter_calls(metrics::default_plugin_sample_percent);
  EXPECT_GT(all, 0);
  EXPECT_LT(some, all);
  EXPECT_EQ(filter_calls(0), 0);
}

// Upstream's recorder keeps at most its buffer's worth of durations a
// second; so does tessera, whatever the sampled cycles call.
TEST(metrics_after_pipeline_run, plugin_durations_per_second_are_capped) {
  auto recorded = [](std::uint32_t limit, double& seconds) {
    recorded_metrics rec;
    rec.m.plugin_sample_percent = 100;
    rec.m.plugin_duration_budget.set_limit(limit);
    auto run = pipeline_test::run_pipeline(
      ten_small_one_huge(), pipeline_test::default_profile(), rec.options());
    EXPECT_TRUE(run.idle);
    seconds = run.seconds;
    return total(parse_exposition(rec.m.render()),
                 "scheduler_plugin_execution_duration_seconds_count");
  };
  double seconds = 0;
  double all = recorded(0, seconds);
  double capped = recorded(20, seconds);
  // One window per second begun, and the window open at the start.
  double windows = std::floor(seconds) + 2;
  EXPECT_GT(all, 20 * windows) << "the run makes too few calls to tell";
  EXPECT_GT(capped, 0);
  EXPECT_LE(capped, 20 * windows);
}

// A pod parked in the unschedulable pool (the queue's normal mode, as in
// `tessera run`) counts under the plugin that rejected it.
TEST(metrics_after_pipeline_run, unschedulable_pods_by_plugin) {
  recorded_metrics rec;
  auto opts = rec.options();
  opts.requeue = actors::requeue_policy::live;
  auto prof = pipeline_test::default_profile();
  auto run = pipeline_test::run_pipeline(ten_small_one_huge(), prof, opts);
  ASSERT_TRUE(run.idle);
  auto samples = parse_exposition(rec.m.render());
  // The 3-cpu and the 8-cpu pods, both rejected by NodeResourcesFit only.
  EXPECT_EQ(
    total(samples, "scheduler_pending_pods", {{"queue", "unschedulable"}}), 2);
  EXPECT_EQ(total(samples, "scheduler_unschedulable_pods",
                  {{"plugin", "NodeResourcesFit"},
                   {"profile", prof->scheduler_name()}}),
            2);
  EXPECT_EQ(total(samples, "scheduler_unschedulable_pods"), 2);
}

// Every actor of the pipeline reports its mailbox (sampled from its first
// message on).
TEST(metrics_after_pipeline_run, mailbox_sizes_of_every_actor) {
  recorded_metrics rec;
  auto opts = rec.options();
  opts.shards = 3;
  auto run = pipeline_test::run_pipeline(
    ten_small_one_huge(), pipeline_test::default_profile(), opts);
  ASSERT_TRUE(run.idle);
  std::set<std::string> actors;
  for (const auto& s : parse_exposition(rec.m.render()))
    if (s.name == "tessera_actor_mailbox_size") {
      actors.insert(s.labels.at("actor"));
      EXPECT_GE(s.value, 0);
    }
  EXPECT_EQ(actors,
            (std::set<std::string>{"binder", "cache", "coordinator", "queue",
                                   "shard-0", "shard-1", "shard-2"}));
}

} // namespace
} // namespace tessera
