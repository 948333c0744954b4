// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "metrics/scheduler_metrics.hpp"

#include "metrics/process_metrics.hpp"

#include <prometheus/text_serializer.h>

namespace tessera::metrics {

namespace {

using prometheus::MetricType;

// client-go's rest_client_request_duration_seconds buckets.
std::vector<double> rest_latency_buckets() {
  return {0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0};
}

std::uint64_t next_instance_id() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

} // namespace

void scrape_hooks::add(std::function<void()> hook) {
  std::lock_guard guard{mutex_};
  hooks_.push_back(std::move(hook));
}

void scrape_hooks::run() const {
  std::lock_guard guard{mutex_};
  for (const auto& h : hooks_)
    h();
}

void scrape_hooks::clear() {
  std::lock_guard guard{mutex_};
  hooks_.clear();
}

std::string attempts_label(std::int32_t attempts) {
  if (attempts >= 15)
    return "15+";
  return std::to_string(attempts < 1 ? 1 : attempts);
}

scheduler_metrics::scheduler_metrics()
  : schedule_attempts(
    "scheduler_schedule_attempts_total",
    "Number of attempts to schedule pods, by the result. 'unschedulable' "
    "means a pod could not be scheduled, while 'error' means an internal "
    "scheduler problem.",
    MetricType::Counter, {"result", "profile"}),
    attempt_duration("scheduler_scheduling_attempt_duration_seconds",
                     "Scheduling attempt latency in seconds (scheduling "
                     "algorithm + binding)",
                     {"result", "profile"}, exponential_buckets(0.001, 2, 15)),
    algorithm_duration("scheduler_scheduling_algorithm_duration_seconds",
                       "Scheduling algorithm latency in seconds", {},
                       exponential_buckets(0.001, 2, 15)),
    pending_pods("scheduler_pending_pods",
                 "Number of pending pods, by the queue type. 'active' means "
                 "number of pods in activeQ; 'backoff' means number of pods "
                 "in backoffQ; 'unschedulable' means number of pods in "
                 "unschedulablePods that the scheduler attempted to "
                 "schedule and failed; 'gated' is the number of "
                 "unschedulable pods that the scheduler never attempted to "
                 "schedule because they are gated.",
                 MetricType::Gauge, {"queue"}),
    pod_sli_duration("scheduler_pod_scheduling_sli_duration_seconds",
                     "E2e latency for a pod being scheduled, from the time "
                     "the pod enters the scheduling queue and might involve "
                     "multiple scheduling attempts.",
                     {"attempts"}, exponential_buckets(0.01, 2, 20)),
    pod_scheduling_attempts("scheduler_pod_scheduling_attempts",
                            "Number of attempts to successfully schedule a "
                            "pod.",
                            {}, exponential_buckets(1, 2, 5)),
    pod_scheduled_after_flush(
      "scheduler_pod_scheduled_after_flush_total",
      "Number of pods that were successfully scheduled after being flushed "
      "from unschedulablePods due to timeout. This metric helps detect "
      "potential queueing hint misconfigurations or event handling issues.",
      MetricType::Counter, {}),
    extension_point_duration(
      "scheduler_framework_extension_point_duration_seconds",
      "Latency for running all plugins of a specific extension point.",
      {"extension_point", "status", "profile"},
      exponential_buckets(0.0001, 2, 12)),
    plugin_execution_duration(
      "scheduler_plugin_execution_duration_seconds",
      "Duration for running a plugin at a specific extension point.",
      {"plugin", "extension_point", "status"},
      exponential_buckets(0.00001, 1.5, 20)),
    queue_incoming_pods("scheduler_queue_incoming_pods_total",
                        "Number of pods added to scheduling queues by event "
                        "and queue type.",
                        MetricType::Counter, {"queue", "event"}),
    preemption_attempts("scheduler_preemption_attempts_total",
                        "Total preemption attempts in the cluster till now",
                        MetricType::Counter, {}),
    preemption_victims("scheduler_preemption_victims",
                       "Number of selected preemption victims", {},
                       exponential_buckets(1, 2, 7)),
    preemption_goroutines_duration(
      "scheduler_preemption_goroutines_duration_seconds",
      "Duration in seconds for running goroutines for the preemption.",
      {"result"}, exponential_buckets(0.01, 2, 20)),
    preemption_goroutines_execution(
      "scheduler_preemption_goroutines_execution_total",
      "Number of preemption goroutines in preemption.Run.", MetricType::Counter,
      {"result"}),
    unschedulable_pods("scheduler_unschedulable_pods",
                       "The number of unschedulable pods broken down by "
                       "plugin name. A pod will increment the gauge for all "
                       "plugins that caused it to not schedule and so this "
                       "metric have meaning only when broken down by plugin.",
                       MetricType::Gauge, {"plugin", "profile"}),
    event_handling_duration("scheduler_event_handling_duration_seconds",
                            "Event handling latency in seconds.", {"event"},
                            exponential_buckets(0.0001, 2, 12)),
    queueing_hint_duration(
      "scheduler_queueing_hint_execution_duration_seconds",
      "Duration for running a queueing hint function of a plugin.",
      {"plugin", "event", "hint"}, exponential_buckets(0.00001, 1.5, 20)),
    plugin_evaluations("scheduler_plugin_evaluation_total",
                       "Number of attempts to schedule pods by each plugin and "
                       "the extension point (available only in PreFilter, "
                       "Filter, PreScore, and Score).",
                       MetricType::Counter,
                       {"plugin", "extension_point", "profile"}),
    goroutines("scheduler_goroutines",
               "Number of running goroutines split by the work they do such "
               "as binding.",
               MetricType::Gauge, {"operation"}),
    inflight_events("scheduler_inflight_events",
                    "Number of events currently tracked in the scheduling "
                    "queue.",
                    MetricType::Gauge, {"event"}),
    cache_size("scheduler_cache_size",
               "Number of nodes, pods, and assumed (bound) pods in the "
               "scheduler cache.",
               MetricType::Gauge, {"type"}),
    batch_attempts("scheduler_batch_attempts_total",
                   "Counts of results when we attempt to use batching.",
                   MetricType::Counter, {"profile", "result"}),
    batch_cache_flushed("scheduler_batch_cache_flushed_total",
                        "Counts of cache flushes by reason.",
                        MetricType::Counter, {"profile", "reason"}),
    batch_rescore_attempts(
      "scheduler_batch_rescore_attempts_total",
      "Counts of rescore attempts during opportunistic batching.",
      MetricType::Counter, {"profile"}),
    // Upstream's buckets for the three: 10 µs doubling to about 20 ms.
    get_node_hint_duration("scheduler_get_node_hint_duration_seconds",
                           "Latency for getting a node hint.",
                           {"hinted", "profile"},
                           exponential_buckets(0.00001, 2, 12)),
    store_schedule_results_duration(
      "scheduler_store_schedule_results_duration_seconds",
      "Latency for storing scheduling results.", {"profile"},
      exponential_buckets(0.00001, 2, 12)),
    batch_rescore_duration(
      "scheduler_batch_rescore_duration_seconds",
      "Latency for rescoring a node during opportunistic batching.",
      {"profile"}, exponential_buckets(0.00001, 2, 12)),
    rest_requests("rest_client_requests_total",
                  "Number of HTTP requests, partitioned by status code, "
                  "method, and host.",
                  MetricType::Counter, {"code", "method", "host"}),
    rest_request_duration("rest_client_request_duration_seconds",
                          "Request latency in seconds. Broken down by verb, "
                          "and host.",
                          {"verb", "host"}, rest_latency_buckets()),
    assume_conflicts("tessera_assume_conflicts_total",
                     "Optimistic assumes the cache rejected because the "
                     "cycle's view was stale; the pod is retried at once.",
                     MetricType::Counter, {}),
    inflight_cycles("tessera_inflight_cycles",
                    "Scheduling cycles the coordinator is running.",
                    MetricType::Gauge, {}),
    shard_filter_score_duration(
      "tessera_shard_filter_score_duration_seconds",
      "Time one shard spent in Filter and local Score for one cycle.",
      {"shard"}, exponential_buckets(0.00001, 2, 18)),
    actor_mailbox_size("tessera_actor_mailbox_size",
                       "Messages waiting in an actor's mailbox (sampled).",
                       MetricType::Gauge, {"actor"}),
    watch_events("tessera_watch_events_total",
                 "Watch events received from the API server.",
                 MetricType::Counter, {"resource", "type"}),
    relists("tessera_relists_total",
            "Full lists of a resource (initial list and relists after a "
            "watch expired).",
            MetricType::Counter, {"resource"}),
    leader_election_master_status(
      "leader_election_master_status",
      "Gauge of if the reporting system is master of the relevant lease, 0 "
      "indicates backup, 1 indicates master. 'name' is the string used to "
      "identify the lease. Please make sure to group by name.",
      MetricType::Gauge, {"name"}),
    pending_active(pending_pods.with({"active"})),
    pending_backoff(pending_pods.with({"backoff"})),
    pending_unschedulable(pending_pods.with({"unschedulable"})),
    pending_gated(pending_pods.with({"gated"})),
    cache_nodes(cache_size.with({"nodes"})),
    cache_pods(cache_size.with({"pods"})),
    cache_assumed_pods(cache_size.with({"assumed_pods"})),
    conflicts_total(assume_conflicts.only()), inflight(inflight_cycles.only()),
    preemptions(preemption_attempts.only()), victims(preemption_victims.only()),
    algorithm(algorithm_duration.only()),
    pod_attempts(pod_scheduling_attempts.only()),
    scheduled_after_flush(pod_scheduled_after_flush.only()),
    instance_id(next_instance_id()) {
}

std::vector<prometheus::MetricFamily> scheduler_metrics::collect() const {
  std::vector<prometheus::MetricFamily> out;
  out.push_back(schedule_attempts.collect());
  out.push_back(attempt_duration.collect());
  out.push_back(algorithm_duration.collect());
  out.push_back(pending_pods.collect());
  out.push_back(pod_sli_duration.collect());
  out.push_back(pod_scheduling_attempts.collect());
  out.push_back(pod_scheduled_after_flush.collect());
  out.push_back(extension_point_duration.collect());
  out.push_back(plugin_execution_duration.collect());
  out.push_back(queue_incoming_pods.collect());
  out.push_back(preemption_attempts.collect());
  out.push_back(preemption_victims.collect());
  out.push_back(preemption_goroutines_duration.collect());
  out.push_back(preemption_goroutines_execution.collect());
  out.push_back(unschedulable_pods.collect());
  out.push_back(event_handling_duration.collect());
  out.push_back(queueing_hint_duration.collect());
  out.push_back(goroutines.collect());
  out.push_back(plugin_evaluations.collect());
  out.push_back(inflight_events.collect());
  out.push_back(cache_size.collect());
  out.push_back(batch_attempts.collect());
  out.push_back(batch_cache_flushed.collect());
  out.push_back(batch_rescore_attempts.collect());
  out.push_back(get_node_hint_duration.collect());
  out.push_back(store_schedule_results_duration.collect());
  out.push_back(batch_rescore_duration.collect());
  out.push_back(rest_requests.collect());
  out.push_back(rest_request_duration.collect());
  out.push_back(assume_conflicts.collect());
  out.push_back(inflight_cycles.collect());
  out.push_back(shard_filter_score_duration.collect());
  out.push_back(actor_mailbox_size.collect());
  out.push_back(watch_events.collect());
  out.push_back(relists.collect());
  out.push_back(leader_election_master_status.collect());
  for (auto& f : process_families())
    out.push_back(std::move(f));
  return out;
}

void record_rest_request(scheduler_metrics& m, std::string_view method,
                         std::string_view host, int code, double seconds) {
  std::string code_text = code > 0 ? std::to_string(code) : "<error>";
  m.rest_requests.with({code_text, method, host}).inc();
  m.rest_request_duration.with({method, host}).observe(seconds);
}

std::string scheduler_metrics::render() const {
  hooks.run();
  return prometheus::TextSerializer{}.Serialize(collect());
}

} // namespace tessera::metrics
