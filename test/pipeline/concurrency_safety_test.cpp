// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Safety under concurrency, for simulate's settling queue and for the live
// queue `tessera run` uses (on a manual clock): with several shards and many
// cycles in flight,
// optimistic assumes may conflict, but the final placement never breaks a
// hard rule (checked from the generator's specs by placement_checker, not by
// the plugins), every pending pod ends Scheduled or Unschedulable with a
// FitError, and every pod the serial reference could place is accounted
// for. Prints one table row per run with the conflict counts.
//
// Default size (ctest, a few seconds per run in a Debug build): one
// 200-node cluster with 800 pending pods over a diagonal of the grid.
// TESSERA_PIPELINE_FULL=1 runs the full grid shards {1,2,4,8} x inflight
// {1,4,16,64} on 200-, 1,000- and 2,000-node clusters with 2,000-4,000
// pods. TESSERA_PIPELINE_SEED=N shifts every cluster seed by N (the seed is
// in every failure message), so repeated CI runs can cover new clusters.

#include "metrics/scheduler_metrics.hpp"
#include "test/pipeline/cluster_gen.hpp"
#include "test/pipeline/pipeline_runner.hpp"
#include "test/pipeline/placement_checker.hpp"
#include "test/pipeline/reference_scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace tessera::pipeline_test {
namespace {

using pod_status = actors::memory_cluster::pod_result::status;

gen_options safety_cluster(std::size_t nodes, std::size_t pods, bool preemption,
                           bool storage, std::size_t max_replicas) {
  gen_options o;
  o.max_replicas = max_replicas;
  o.nodes = nodes;
  o.pending = pods;
  o.zones = 4;
  o.zoneless = 0.03;
  o.tainted = 0.15;
  o.unschedulable_nodes = 0.03;
  o.gpu_nodes = 0.1;
  o.min_pods = 6;
  o.max_pods = 14;
  o.max_bound_per_node = 2;
  o.resizing = 0.3;
  o.host_ports = 0.15;
  o.tolerations = 0.3;
  o.node_affinity = 0.2;
  o.node_selector = 0.1;
  o.name_fields = 0.01;
  o.gpu_pods = 0.05;
  o.anti_affinity = 0.12;
  o.anti_groups = 6;
  o.spread = 0.15;
  o.spread_groups = 3;
  // Pod sizes such that the pods ask for about 110% of the cluster's cpu
  // (nodes average ~4.7 cores), so every size sees contention.
  double avg
    = 1.1 * 4666.0 * static_cast<double>(nodes) / static_cast<double>(pods);
  o.min_cpu = 100;
  o.max_cpu = std::clamp<std::int64_t>(static_cast<std::int64_t>(2 * avg) - 100,
                                       300, 6000);
  if (preemption) {
    // Victims leave the cluster, so the final skew of a spread group says
    // nothing about the skew each placement saw: no spread groups here.
    o.priorities = true;
    o.preempt_never = 0.1;
    o.spread = 0;
    // Few pod slots, many taken by low-priority running pods: pods that
    // find no free slot preempt.
    o.min_pods = 4;
    o.max_pods = 8;
    o.max_bound_per_node = 4;
  }
  if (max_replicas > 1) {
    // Replicas without pod affinity or spread constraints: those pods have
    // no signature, and one running pod with required anti-affinity makes
    // InterPodAffinity's filter read other nodes for every pod, which ends
    // batching (both are covered by the other cases).
    o.anti_affinity = 0;
    o.spread = 0;
  }
  if (storage) {
    // Local volumes run out, attach counts fill up, ReadWriteOncePod claims
    // are shared: cycles in flight race for the same volumes.
    o.storage_pods = 0.5;
  }
  return o;
}

struct grid_point {
  std::size_t shards;
  std::size_t inflight;
};

struct test_case {
  std::string name;
  std::size_t nodes;
  std::size_t pods;
  std::uint64_t seed;
  std::vector<grid_point> grid;
  /// Priorities, so failed pods preempt (nominations, victims deleted).
  bool preemption = false;
  /// Pods with claims (see cluster_gen.hpp).
  bool storage = false;
  /// Pending pods in runs of identical replicas (see cluster_gen.hpp), so
  /// that batching hands out hints.
  std::size_t max_replicas = 1;
};

std::vector<grid_point> full_grid() {
  std::vector<grid_point> g;
  for (std::size_t s : {1, 2, 4, 8})
    for (std::size_t k : {1, 4, 16, 64})
      g.push_back({s, k});
  return g;
}

std::vector<test_case> cases() {
  auto shift = static_cast<std::uint64_t>(env_int("TESSERA_PIPELINE_SEED", 0));
  if (env_int("TESSERA_PIPELINE_FULL", 0) != 0)
    return {
      {"200 nodes", 200, 2000, 21 + shift, full_grid()},
      {"1000 nodes", 1000, 3000, 22 + shift, full_grid()},
      {"2000 nodes", 2000, 4000, 23 + shift, full_grid()},
      {"preempting", 500, 2000, 41 + shift, full_grid(), true},
      {"storage", 500, 2000, 61 + shift, full_grid(), false, true},
      {"replicas", 1000, 4000, 81 + shift, full_grid(), false, false, 60},
      {"replicas+", 500, 2000, 83 + shift, full_grid(), true, true, 30},
    };
  return {
    {"200 nodes", 200, 800, 21 + shift, {{1, 1}, {2, 4}, {4, 16}, {8, 64}}},
    {"preempting", 100, 400, 41 + shift, {{1, 1}, {2, 8}, {4, 32}}, true},
    {"storage", 100, 400, 61 + shift, {{1, 1}, {2, 8}, {4, 32}}, false, true},
    {"replicas",
     200,
     800,
     81 + shift,
     {{1, 1}, {2, 8}, {4, 32}},
     false,
     false,
     40},
    {"replicas+", 100, 400, 83 + shift, {{1, 1}, {2, 8}}, true, true, 20},
  };
}

TEST(ConcurrencySafety, FinalPlacementsBreakNoHardRule) {
  auto prof = default_profile();
  std::printf("[ safety   ] %-10s %5s %5s %6s %6s %8s %9s %9s %8s %9s %8s "
              "%8s %9s\n",
              "cluster", "queue", "pods", "shards", "flight", "placed",
              "serial", "unsched", "victims", "conflicts", "batched", "seconds",
              "pods/s");
  for (const auto& tc : cases()) {
    cluster_spec spec
      = generate_cluster(safety_cluster(tc.nodes, tc.pods, tc.preemption,
                                        tc.storage, tc.max_replicas),
                         tc.seed);
    auto objects = spec.objects();
    reference_scheduler ref{prof, tc.seed};
    auto serial = ref.run(objects);
    std::size_t serial_placed = 0;
    for (const auto& r : serial)
      serial_placed += r.state == reference_result::kind::scheduled;
    // Refused victim deletions over the case's live runs: a run with few
    // preemptions may ask for one deletion only, which every other refusal
    // then spares, but the case as a whole must meet the fault.
    std::size_t refused_in_case = 0;
    for (const auto& g : tc.grid)
      for (bool live : {false, true}) {
        std::string label = tc.name + ", seed " + std::to_string(tc.seed)
                            + ", shards " + std::to_string(g.shards)
                            + ", inflight " + std::to_string(g.inflight)
                            + (live ? ", live queue" : ", settling queue");
        SCOPED_TRACE(label);
        pipeline_options opts;
        opts.shards = g.shards;
        opts.inflight = g.inflight;
        opts.seed = tc.seed;
        opts.requeue = live ? actors::requeue_policy::live
                            : actors::requeue_policy::settle;
        // The live queue also meets refused victim deletions: their
        // preemptors are tried again (simulate's cluster never refuses).
        if (live && tc.preemption)
          opts.fail_every_nth_deletion = 2;
        // Batching is on, as in `tessera run`: its hints must keep every
        // rule too.
        opts.batching = true;
        metrics::scheduler_metrics recorded;
        opts.metrics = &recorded;
        auto run = run_pipeline(objects, prof, opts);
        const std::uint64_t hinted
          = recorded.batch_attempts.with({"default-scheduler", "hint_used"})
              .value();
        ASSERT_TRUE(run.idle) << "the pipeline did not finish";
        ASSERT_EQ(run.results.size(), serial.size());

        // Every pod ends Scheduled (where the cluster says it is) or
        // Unschedulable with a FitError; none is left undecided.
        std::map<std::string, std::string> where;
        for (const auto& p : run.pods)
          if (p->is_bound())
            where[p->name] = std::string{p->node_name.view()};
        // Pods deleted by preemption (they may have been placed first).
        std::set<std::string> victims;
        for (const auto& r : run.results)
          for (const auto& v : r.victims)
            victims.insert(v->name);
        std::size_t placed = 0;
        std::size_t unschedulable = 0;
        std::size_t problems = 0;
        for (std::size_t i = 0; i < run.results.size(); ++i) {
          const auto& r = run.results[i];
          bool gated = !r.pod->scheduling_gates.empty();
          std::string why;
          if (r.state == pod_status::scheduled) {
            ++placed;
            auto it = where.find(r.pod->name);
            if (it == where.end() && victims.count(r.pod->name) != 0)
              continue;
            if (it == where.end() || it->second != r.node.str())
              why = "reported on " + r.node.str()
                    + " but the cluster has it elsewhere";
          } else if (r.state == pod_status::unschedulable) {
            ++unschedulable;
            if (r.reason != "Unschedulable"
                || !is_fit_error(r.message, spec.nodes.size()))
              why = "not a FitError: " + r.reason + " \"" + r.message + "\"";
          } else if (!gated && victims.count(r.pod->name) == 0) {
            // A victim may be deleted while its binding is still in flight
            // (assumed pods can be preempted, as upstream's can): its bind
            // then fails as not found and it has no decision.
            why = "never decided";
          }
          if (!why.empty() && ++problems <= 5)
            ADD_FAILURE() << r.pod->name << ": " << why
                          << " (serial: " << to_string(serial[i].state) << ")";
        }
        EXPECT_EQ(problems, 0u);
        refused_in_case += run.refused_deletions;
        auto violations
          = check_placements(spec, where, volume_write_records(run));
        for (std::size_t i = 0; i < violations.size() && i < 10; ++i)
          ADD_FAILURE() << "violation: " << violations[i];
        EXPECT_TRUE(violations.empty())
          << violations.size() << " hard-rule violations";
        // One cycle in flight sees every earlier decision: nothing to
        // conflict with.
        if (g.inflight == 1) {
          EXPECT_EQ(run.cache.conflicts, 0u);
        }
        // Runs of replicas must be batched, or the check above says little.
        if (tc.max_replicas > 1) {
          EXPECT_GT(hinted, tc.pods / 10) << "batching did not bite";
        }
        // The batching timings count what the counters count: a hint
        // decision per attempt, a rescore duration per rescore.
        const std::string profile = "default-scheduler";
        auto attempts = [&](const char* result) {
          return recorded.batch_attempts.with({profile, result}).value();
        };
        EXPECT_EQ(
          recorded.get_node_hint_duration.with({"hint", profile}).count(),
          attempts("hint_used") + attempts("hint_not_used"));
        EXPECT_EQ(
          recorded.get_node_hint_duration.with({"no_hint", profile}).count(),
          attempts("no_hint"));
        EXPECT_EQ(recorded.batch_rescore_duration.with({profile}).count(),
                  recorded.batch_rescore_attempts.with({profile}).value());
        if (hinted > 0) {
          EXPECT_GT(
            recorded.store_schedule_results_duration.with({profile}).count(),
            0u);
        }
        std::printf("[ safety   ] %-10s %5s %5zu %6zu %6zu %8zu %9zu %9zu %8zu "
                    "%9llu %8llu %8.2f %9.0f\n",
                    tc.name.c_str(), live ? "live" : "once", tc.pods, g.shards,
                    g.inflight, placed, serial_placed, unschedulable,
                    victims.size(),
                    static_cast<unsigned long long>(run.cache.conflicts),
                    static_cast<unsigned long long>(hinted), run.seconds,
                    run.seconds > 0 ? tc.pods / run.seconds : 0.0);
      }
    if (tc.preemption) {
      EXPECT_GT(refused_in_case, 0u)
        << tc.name << ": no deletion was refused: the fault did not bite";
    }
  }
}

} // namespace
} // namespace tessera::pipeline_test
