// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "metrics/scheduler_metrics.hpp"
#include "test/support/exposition.hpp"

#include <gtest/gtest.h>

#include <ctime>
#include <map>
#include <memory>

namespace tessera::metrics {
namespace {

using prometheus::MetricType;
using test::parse_exposition;

// The spec: kube-scheduler's and client-go's REST metrics, as listed in
// docs/operations.md ("Metrics").
struct family_spec {
  std::string name;
  MetricType type;
  std::vector<std::string> labels;
  std::vector<double> buckets;
};

std::vector<family_spec> expected_families() {
  auto exp = exponential_buckets;
  return {
    {"scheduler_schedule_attempts_total",
     MetricType::Counter,
     {"result", "profile"},
     {}},
    {"scheduler_scheduling_attempt_duration_seconds",
     MetricType::Histogram,
     {"result", "profile"},
     exp(0.001, 2, 15)},
    {"scheduler_scheduling_algorithm_duration_seconds",
     MetricType::Histogram,
     {},
     exp(0.001, 2, 15)},
    {"scheduler_pending_pods", MetricType::Gauge, {"queue"}, {}},
    {"scheduler_pod_scheduling_sli_duration_seconds",
     MetricType::Histogram,
     {"attempts"},
     exp(0.01, 2, 20)},
    {"scheduler_pod_scheduling_attempts",
     MetricType::Histogram,
     {},
     exp(1, 2, 5)},
    {"scheduler_framework_extension_point_duration_seconds",
     MetricType::Histogram,
     {"extension_point", "status", "profile"},
     exp(0.0001, 2, 12)},
    {"scheduler_plugin_execution_duration_seconds",
     MetricType::Histogram,
     {"plugin", "extension_point", "status"},
     exp(0.00001, 1.5, 20)},
    {"scheduler_queue_incoming_pods_total",
     MetricType::Counter,
     {"queue", "event"},
     {}},
    {"scheduler_preemption_attempts_total", MetricType::Counter, {}, {}},
    {"scheduler_preemption_victims", MetricType::Histogram, {}, exp(1, 2, 7)},
    {"scheduler_preemption_goroutines_duration_seconds",
     MetricType::Histogram,
     {"result"},
     exp(0.01, 2, 20)},
    {"scheduler_preemption_goroutines_execution_total",
     MetricType::Counter,
     {"result"},
     {}},
    {"scheduler_unschedulable_pods",
     MetricType::Gauge,
     {"plugin", "profile"},
     {}},
    {"scheduler_cache_size", MetricType::Gauge, {"type"}, {}},
    {"scheduler_pod_scheduled_after_flush_total", MetricType::Counter, {}, {}},
    {"scheduler_batch_attempts_total",
     MetricType::Counter,
     {"profile", "result"},
     {}},
    {"scheduler_batch_cache_flushed_total",
     MetricType::Counter,
     {"profile", "reason"},
     {}},
    {"scheduler_batch_rescore_attempts_total",
     MetricType::Counter,
     {"profile"},
     {}},
    {"scheduler_get_node_hint_duration_seconds",
     MetricType::Histogram,
     {"hinted", "profile"},
     exp(0.00001, 2, 12)},
    {"scheduler_store_schedule_results_duration_seconds",
     MetricType::Histogram,
     {"profile"},
     exp(0.00001, 2, 12)},
    {"scheduler_batch_rescore_duration_seconds",
     MetricType::Histogram,
     {"profile"},
     exp(0.00001, 2, 12)},
    {"rest_client_requests_total",
     MetricType::Counter,
     {"code", "method", "host"},
     {}},
    {"rest_client_request_duration_seconds",
     MetricType::Histogram,
     {"verb", "host"},
     {0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60}},
    {"tessera_assume_conflicts_total", MetricType::Counter, {}, {}},
    {"tessera_inflight_cycles", MetricType::Gauge, {}, {}},
    {"tessera_shard_filter_score_duration_seconds",
     MetricType::Histogram,
     {"shard"},
     exp(0.00001, 2, 18)},
    {"tessera_actor_mailbox_size", MetricType::Gauge, {"actor"}, {}},
    {"tessera_watch_events_total",
     MetricType::Counter,
     {"resource", "type"},
     {}},
    {"tessera_relists_total", MetricType::Counter, {"resource"}, {}},
    {"leader_election_master_status", MetricType::Gauge, {"name"}, {}},
    {"scheduler_event_handling_duration_seconds",
     MetricType::Histogram,
     {"event"},
     exp(0.0001, 2, 12)},
    {"scheduler_queueing_hint_execution_duration_seconds",
     MetricType::Histogram,
     {"plugin", "event", "hint"},
     exp(0.00001, 1.5, 20)},
    {"scheduler_goroutines", MetricType::Gauge, {"operation"}, {}},
    {"scheduler_plugin_evaluation_total",
     MetricType::Counter,
     {"plugin", "extension_point", "profile"},
     {}},
    {"scheduler_inflight_events", MetricType::Gauge, {"event"}, {}},
    {"process_cpu_seconds_total", MetricType::Counter, {}, {}},
    {"process_virtual_memory_bytes", MetricType::Gauge, {}, {}},
    {"process_resident_memory_bytes", MetricType::Gauge, {}, {}},
    {"process_start_time_seconds", MetricType::Gauge, {}, {}},
    {"process_open_fds", MetricType::Gauge, {}, {}},
    {"process_max_fds", MetricType::Gauge, {}, {}},
  };
}

TEST(scheduler_metrics, families_have_upstream_names_types_labels_buckets) {
  scheduler_metrics m;
  // Give every family one series so labels and buckets are visible.
  m.schedule_attempts.with({"scheduled", "p"}).inc();
  m.attempt_duration.with({"scheduled", "p"}).observe(0.01);
  m.pod_sli_duration.with({"1"}).observe(0.1);
  m.extension_point_duration.with({"Filter", "Success", "p"}).observe(0.001);
  m.plugin_execution_duration.with({"NodeName", "Filter", "Success"})
    .observe(0.00002);
  m.queue_incoming_pods.with({"active", "PodAdd"}).inc();
  m.preemption_goroutines_duration.with({"success"}).observe(0.02);
  m.preemption_goroutines_execution.with({"success"}).inc();
  m.unschedulable_pods.with({"NodeResourcesFit", "p"}).set(1);
  m.rest_requests.with({"200", "GET", "h"}).inc();
  m.rest_request_duration.with({"GET", "h"}).observe(0.01);
  m.shard_filter_score_duration.with({"0"}).observe(0.001);
  m.actor_mailbox_size.with({"queue"}).set(0);
  m.watch_events.with({"pods", "ADDED"}).inc();
  m.relists.with({"pods"}).inc();
  m.leader_election_master_status.with({"kube-scheduler"}).set(1);
  m.event_handling_duration.with({"NodeAdd"}).observe(0.001);
  m.inflight_events.with({"NodeAdd"}).set(1);
  m.goroutines.with({"binding"}).set(3);
  m.plugin_evaluations.with({"NodeAffinity", "Filter", "default-scheduler"})
    .inc(5);
  m.queueing_hint_duration.with({"NodeResourcesFit", "NodeAdd", "Queue"})
    .observe(0.00002);
  m.batch_attempts.with({"default-scheduler", "hint_used"}).inc();
  m.batch_cache_flushed.with({"default-scheduler", "expired"}).inc();
  m.batch_rescore_attempts.with({"default-scheduler"}).inc();
  m.get_node_hint_duration.with({"hint", "default-scheduler"}).observe(2e-5);
  m.store_schedule_results_duration.with({"default-scheduler"}).observe(3e-5);
  m.batch_rescore_duration.with({"default-scheduler"}).observe(4e-5);

  auto families = m.collect();
  auto specs = expected_families();
  ASSERT_EQ(families.size(), specs.size());
  for (const auto& spec : specs) {
    SCOPED_TRACE(spec.name);
    auto it = std::find_if(families.begin(), families.end(),
                           [&](const auto& f) { return f.name == spec.name; });
    ASSERT_NE(it, families.end());
    EXPECT_EQ(it->type, spec.type);
    ASSERT_FALSE(it->metric.empty());
    const auto& series = it->metric.front();
    std::vector<std::string> labels;
    for (const auto& l : series.label)
      labels.push_back(l.name);
    EXPECT_EQ(labels, spec.labels);
    if (spec.type == MetricType::Histogram) {
      const auto& b = series.histogram.bucket;
      ASSERT_EQ(b.size(), spec.buckets.size() + 1); // + the +Inf bucket
      for (std::size_t i = 0; i < spec.buckets.size(); ++i)
        EXPECT_NEAR(b[i].upper_bound, spec.buckets[i], spec.buckets[i] * 1e-9);
    }
  }
}

TEST(scheduler_metrics, attempts_label_caps_at_15) {
  struct test_case {
    std::int32_t attempts;
    std::string expected;
  };
  for (const auto& tc : std::vector<test_case>{
         {0, "1"}, {1, "1"}, {14, "14"}, {15, "15+"}, {40, "15+"}}) {
    SCOPED_TRACE(tc.attempts);
    EXPECT_EQ(attempts_label(tc.attempts), tc.expected);
  }
}

TEST(scheduler_metrics, render_parses_and_counts_match) {
  scheduler_metrics m;
  for (int i = 0; i < 7; ++i)
    m.schedule_attempts.with({"scheduled", "default-scheduler"}).inc();
  m.schedule_attempts.with({"unschedulable", "default-scheduler"}).inc(2);
  m.pending_active.set(5);
  for (double v : {0.0005, 0.003, 0.003})
    m.algorithm.observe(v);
  int hook_runs = 0;
  m.hooks.add([&] {
    ++hook_runs;
    m.cache_nodes.set(42);
  });

  auto samples = parse_exposition(m.render());
  EXPECT_EQ(hook_runs, 1);
  auto value_of
    = [&](const std::string& name, std::map<std::string, std::string> labels) {
        for (const auto& s : samples)
          if (s.name == name && s.labels == labels)
            return s.value;
        ADD_FAILURE() << "no sample " << name;
        return -1.0;
      };
  EXPECT_EQ(
    value_of("scheduler_schedule_attempts_total",
             {{"result", "scheduled"}, {"profile", "default-scheduler"}}),
    7);
  EXPECT_EQ(
    value_of("scheduler_schedule_attempts_total",
             {{"result", "unschedulable"}, {"profile", "default-scheduler"}}),
    2);
  EXPECT_EQ(value_of("scheduler_pending_pods", {{"queue", "active"}}), 5);
  EXPECT_EQ(value_of("scheduler_pending_pods", {{"queue", "gated"}}), 0);
  EXPECT_EQ(value_of("scheduler_cache_size", {{"type", "nodes"}}), 42);
  EXPECT_EQ(value_of("scheduler_scheduling_algorithm_duration_seconds_bucket",
                     {{"le", "0.001"}}),
            1);
  EXPECT_EQ(value_of("scheduler_scheduling_algorithm_duration_seconds_bucket",
                     {{"le", "0.004"}}),
            3);
  EXPECT_EQ(value_of("scheduler_scheduling_algorithm_duration_seconds_bucket",
                     {{"le", "+Inf"}}),
            3);
  EXPECT_EQ(
    value_of("scheduler_scheduling_algorithm_duration_seconds_count", {}), 3);
}

// The process families read this process: dashboards select kube-scheduler
// instances by process_cpu_seconds_total.
TEST(scheduler_metrics, process_families_describe_this_process) {
  scheduler_metrics m;
  // Burn a little CPU so the counter cannot be 0.
  volatile double sink = 0;
  for (int i = 0; i < 20'000'000; ++i)
    sink = sink + i * 0.5;
  auto samples = parse_exposition(m.render());
  std::map<std::string, double> v;
  for (const auto& s : samples)
    if (s.name.starts_with("process_"))
      v[s.name] = s.value;
  EXPECT_GT(v["process_cpu_seconds_total"], 0.0);
  EXPECT_GT(v["process_resident_memory_bytes"], 1e6);
  EXPECT_GE(v["process_virtual_memory_bytes"],
            v["process_resident_memory_bytes"]);
  EXPECT_GE(v["process_open_fds"], 3.0);
  EXPECT_GE(v["process_max_fds"], v["process_open_fds"]);
  double now = static_cast<double>(std::time(nullptr));
  EXPECT_LE(v["process_start_time_seconds"], now + 1);
  EXPECT_GT(v["process_start_time_seconds"], now - 3600)
    << "started within the hour";
}

TEST(mailbox_sampler, samples_every_nth_call_into_the_given_instance) {
  scheduler_metrics a, b;
  mailbox_sampler sampler{"queue", 4};
  int reads = 0;
  auto read = [&] {
    ++reads;
    return 10 * reads;
  };
  for (int i = 0; i < 8; ++i)
    sampler.sample(nullptr, read); // recording off: never reads
  EXPECT_EQ(reads, 0);
  for (int i = 0; i < 8; ++i)
    sampler.sample(&a, read);
  EXPECT_EQ(reads, 2);
  EXPECT_EQ(a.actor_mailbox_size.with({"queue"}).value(), 20);
  for (int i = 0; i < 4; ++i) // a new instance: the series is resolved again
    sampler.sample(&b, read);
  EXPECT_EQ(b.actor_mailbox_size.with({"queue"}).value(), 30);
  EXPECT_EQ(a.actor_mailbox_size.with({"queue"}).value(), 20);
}

TEST(series_cache, resolves_each_key_once_per_instance) {
  scheduler_metrics a, b;
  series_cache<histogram> cache;
  int lookups = 0;
  auto resolve_point = [&](const char* point) {
    return [&lookups, point](scheduler_metrics& m) -> histogram& {
      ++lookups;
      return m.extension_point_duration.with({point, "Success", "p"});
    };
  };
  for (int i = 0; i < 3; ++i) {
    cache.get(a, 0, resolve_point("PreFilter")).observe(0.001);
    cache.get(a, 5, resolve_point("Filter")).observe(0.001);
  }
  EXPECT_EQ(lookups, 2);
  EXPECT_EQ(
    a.extension_point_duration.with({"PreFilter", "Success", "p"}).count(), 3u);
  EXPECT_EQ(a.extension_point_duration.with({"Filter", "Success", "p"}).count(),
            3u);
  // Another instance: resolved again, into that instance only.
  cache.get(b, 0, resolve_point("PreFilter")).observe(0.001);
  EXPECT_EQ(lookups, 3);
  EXPECT_EQ(
    b.extension_point_duration.with({"PreFilter", "Success", "p"}).count(), 1u);
  EXPECT_EQ(
    a.extension_point_duration.with({"PreFilter", "Success", "p"}).count(), 3u);
}

TEST(scheduler_metrics, instance_ids_are_distinct) {
  auto first = std::make_unique<scheduler_metrics>();
  std::uint64_t id = first->instance_id;
  first.reset();
  scheduler_metrics second;
  EXPECT_NE(second.instance_id, id);
  EXPECT_NE(second.instance_id, 0u);
}

} // namespace
} // namespace tessera::metrics
