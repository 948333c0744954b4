// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// scheduler_plugin_execution_duration_seconds: the timed profile of a
// sampled cycle behaves exactly like its profile and records one
// observation per plugin call under the call's status, into the instance
// it was built for only; the sampler picks cycles deterministically and
// never times anything without an instance.
#include "metrics/scheduler_metrics.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_metrics.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "test/pipeline/pipeline_runner.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tessera {
namespace {

using plugins::profile;
using test::make_pod;

// Observations per (plugin, extension point, status) in `m`.
using observation_counts
  = std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t>;

observation_counts observations(const metrics::scheduler_metrics& m) {
  observation_counts out;
  m.plugin_execution_duration.for_each(
    [&](const std::vector<std::string>& labels, const metrics::histogram& h) {
      if (h.count() > 0)
        out[{labels[0], labels[1], labels[2]}] += h.count();
    });
  return out;
}

using plugins::plugin_testing::names_of;

// A small cluster: one tainted node, one too small for the pod, two that fit.
struct small_cluster {
  std::vector<model::node_info_ptr> nodes
    = plugins::plugin_testing::tainted_then_sized(
      {{"small", "1"}, {"fit-1", "4"}, {"fit-2", "8"}});
  plugins::cluster_context cluster;
  model::pod_ptr pod = make_pod("p").cpu("2").memory("1Gi").build();
  small_cluster() {
    cluster.node_count = static_cast<std::int64_t>(nodes.size());
  }
};

TEST(timed_profile, lists_the_same_plugins_at_every_extension_point) {
  metrics::scheduler_metrics m;
  auto prof = pipeline_test::default_profile();
  auto timed = plugins::make_timed_profile(*prof, m);
  EXPECT_FALSE(prof->instrumented());
  EXPECT_TRUE(timed->instrumented());
  EXPECT_EQ(timed->slot_count(), prof->slot_count());
  EXPECT_EQ(timed->scheduler_name(), prof->scheduler_name());
  EXPECT_EQ(names_of(timed->pre_filter()), names_of(prof->pre_filter()));
  EXPECT_EQ(names_of(timed->filter()), names_of(prof->filter()));
  EXPECT_EQ(names_of(timed->post_filter()), names_of(prof->post_filter()));
  EXPECT_EQ(names_of(timed->pre_score()), names_of(prof->pre_score()));
  EXPECT_EQ(names_of(timed->reserve()), names_of(prof->reserve()));
  EXPECT_EQ(names_of(timed->bind()), names_of(prof->bind()));
  EXPECT_EQ(names_of(timed->scanners()), names_of(prof->scanners()));
  ASSERT_EQ(timed->score().size(), prof->score().size());
  for (std::size_t i = 0; i < prof->score().size(); ++i) {
    SCOPED_TRACE(std::string{prof->score()[i].plugin->name()});
    EXPECT_EQ(timed->score()[i].plugin->name(),
              prof->score()[i].plugin->name());
    EXPECT_EQ(timed->score()[i].weight, prof->score()[i].weight);
    EXPECT_EQ(timed->score()[i].summarizer == nullptr,
              prof->score()[i].summarizer == nullptr);
    EXPECT_NE(timed->score()[i].plugin, prof->score()[i].plugin);
    // Same slot: the cycle state's skip bits mean the same plugin.
    EXPECT_EQ(timed->score()[i].plugin->slot(),
              prof->score()[i].plugin->slot());
  }
  for (std::size_t i = 0; i < prof->filter().size(); ++i) {
    EXPECT_EQ(timed->filter()[i]->node_local(),
              prof->filter()[i]->node_local());
    EXPECT_EQ(timed->filter()[i]->slot(), prof->filter()[i]->slot());
  }
}

// The reference: which filters run on each node (in order, up to the first
// rejection) and with what status, computed with the untimed plugins.
observation_counts
expected_filter_calls(const profile& prof, const plugins::cycle_state& state,
                      const model::pod& p,
                      const std::vector<model::node_info_ptr>& nodes) {
  observation_counts out;
  for (const auto& node : nodes)
    for (const auto* f : prof.active_filters(state)) {
      plugins::status s = f->filter(state, p, *node);
      ++out[{std::string{f->name()}, "Filter",
             std::string{plugins::to_string(s.get_code())}}];
      if (!s.ok())
        break;
    }
  return out;
}

TEST(timed_profile, same_results_and_one_observation_per_plugin_call) {
  metrics::scheduler_metrics m;
  m.plugin_duration_budget.set_limit(0);
  small_cluster sc;
  auto prof = pipeline_test::default_profile();
  auto timed = plugins::make_timed_profile(*prof, m);

  auto plain_start = plugins::begin_cycle(*prof, *sc.pod, sc.cluster);
  auto plain = plugins::filter_and_score(*prof, plain_start.state, *sc.pod,
                                         sc.nodes, 0, {});
  ASSERT_TRUE(observations(m).empty()) << "the untimed profile recorded";

  auto start = plugins::begin_cycle(*timed, *sc.pod, sc.cluster);
  ASSERT_TRUE(start.pre_filter_status.ok());
  auto pass_began = std::chrono::steady_clock::now();
  auto result
    = plugins::filter_and_score(*timed, start.state, *sc.pod, sc.nodes, 0, {});
  double pass_seconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - pass_began)
                          .count();
  EXPECT_EQ(result.feasible, plain.feasible);
  EXPECT_EQ(result.scores, plain.scores);
  ASSERT_EQ(result.failures.size(), plain.failures.size());
  for (std::size_t i = 0; i < plain.failures.size(); ++i)
    EXPECT_EQ(result.failures[i].result, plain.failures[i].result);
  ASSERT_EQ(result.feasible.size(), 2u);

  auto seen = observations(m);
  // The calls' durations are real: positive, and together no longer than
  // the pass that made them.
  double call_seconds = 0;
  m.plugin_execution_duration.for_each(
    [&](const std::vector<std::string>& labels, const metrics::histogram& h) {
      if (labels[1] == "Filter" || labels[1] == "Score")
        call_seconds += h.sum();
    });
  EXPECT_GT(call_seconds, 0);
  EXPECT_LE(call_seconds, pass_seconds);
  // PreFilter and PreScore: once per plugin, under the code it returned.
  for (const auto* pf : prof->pre_filter()) {
    plugins::cycle_state scratch = plain_start.state;
    auto r = pf->pre_filter(scratch, *sc.pod, sc.cluster);
    std::string code{plugins::to_string(r.result.get_code())};
    EXPECT_EQ((seen[{std::string{pf->name()}, "PreFilter", code}]), 1u)
      << pf->name();
  }
  for (const auto* ps : prof->pre_score())
    EXPECT_GT((seen[{std::string{ps->name()}, "PreScore", "Success"}]
               + seen[{std::string{ps->name()}, "PreScore", "Skip"}]),
              0u)
      << ps->name();
  // Filter: exactly the calls the untimed chain makes, with their codes.
  auto filters
    = expected_filter_calls(*prof, plain_start.state, *sc.pod, sc.nodes);
  for (const auto& [key, count] : filters)
    EXPECT_EQ(seen[key], count) << std::get<0>(key) << " " << std::get<2>(key);
  // The tainted node and the small one: one rejection each, under the
  // rejection's code (a request above allocatable is unresolvable).
  auto rejections = [&](const std::string& plugin) {
    return seen[{plugin, "Filter", "UnschedulableAndUnresolvable"}]
           + seen[{plugin, "Filter", "Unschedulable"}];
  };
  EXPECT_EQ(rejections("TaintToleration"), 1u);
  EXPECT_EQ(rejections("NodeResourcesFit"), 1u);
  // Filters PreFilter skipped are not called, so not observed.
  EXPECT_EQ((seen[{"NodeAffinity", "PreFilter", "Skip"}]), 1u);
  EXPECT_EQ((seen[{"NodeAffinity", "Filter", "Success"}]), 0u);
  // Score: each local score plugin once per feasible node.
  auto plan = plugins::score_plan(*prof, plain_start.state);
  ASSERT_FALSE(plan.local.empty());
  for (auto i : plan.local) {
    std::string name{prof->score()[i].plugin->name()};
    EXPECT_EQ((seen[{name, "Score", "Success"}]), result.feasible.size())
      << name;
  }
  // NormalizeScore: once per plugin that has one, at select_host.
  plugins::score_table table;
  table.nodes = result.feasible;
  table.plugins = plan.local;
  table.scores = result.scores;
  std::mt19937_64 rng{1};
  ASSERT_TRUE(plugins::select_host(*timed, start.state, *sc.pod, table, rng));
  seen = observations(m);
  for (auto i : plan.local) {
    const auto* sp = prof->score()[i].plugin;
    EXPECT_EQ(
      (seen[{std::string{sp->name()}, "ScoreExtensionNormalize", "Success"}]),
      sp->has_normalize() ? 1u : 0u)
      << sp->name();
  }
}

TEST(timed_profile, records_only_into_the_instance_it_was_built_for) {
  small_cluster sc;
  auto prof = pipeline_test::default_profile();
  metrics::scheduler_metrics first, second;
  for (auto* built_for : {&first, &second}) {
    auto* other = built_for == &first ? &second : &first;
    SCOPED_TRACE(built_for == &first ? "first" : "second");
    auto before = observations(*other);
    auto timed = plugins::make_timed_profile(*prof, *built_for);
    auto start = plugins::begin_cycle(*timed, *sc.pod, sc.cluster);
    auto result = plugins::filter_and_score(*timed, start.state, *sc.pod,
                                            sc.nodes, 0, {});
    EXPECT_EQ(result.feasible.size(), 2u);
    EXPECT_FALSE(observations(*built_for).empty());
    EXPECT_EQ(observations(*other), before);
  }
}

// The proxies' clock agrees with steady_clock over a 20 ms spin (three
// tries: a loaded machine may interrupt between the paired readings).
TEST(call_clock, agrees_with_the_steady_clock) {
  plugins::call_clock::setup();
  SCOPED_TRACE(plugins::call_clock::uses_tsc() ? "time-stamp counter"
                                               : "steady_clock");
  using steady = std::chrono::steady_clock;
  double best_error = 1;
  for (int attempt = 0; attempt < 3 && best_error > 0.05; ++attempt) {
    auto s0 = steady::now();
    auto c0 = plugins::call_clock::now();
    while (steady::now() - s0 < std::chrono::milliseconds(20)) {
    }
    auto c1 = plugins::call_clock::now();
    double steady_s = std::chrono::duration<double>(steady::now() - s0).count();
    double clock_s = plugins::call_clock::seconds(c1 - c0);
    best_error = std::min(best_error, std::abs(clock_s - steady_s) / steady_s);
  }
  EXPECT_LT(best_error, 0.05);
}

TEST(plugin_metrics_sampler, picks_cycles_deterministically) {
  struct test_case {
    std::string name;
    std::uint32_t percent;
    int min_sampled;
    int max_sampled;
  };
  // 2,000 cycles: 10 % gives 200 on average (binomial sd about 13).
  const std::vector<test_case> cases{
    {"never", 0, 0, 0},
    {"upstream's 10 percent", metrics::default_plugin_sample_percent, 120, 280},
    {"always", 100, 2000, 2000},
  };
  auto prof = pipeline_test::default_profile();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    metrics::scheduler_metrics m;
    m.plugin_sample_percent = tc.percent;
    plugins::plugin_metrics_sampler a{42, &m}, b{42, &m};
    int sampled = 0;
    plugins::profile_ptr first_timed;
    for (int i = 0; i < 2000; ++i) {
      auto pa = a.for_cycle(prof);
      auto pb = b.for_cycle(prof);
      ASSERT_EQ(pa->instrumented(), pb->instrumented()) << "cycle " << i;
      if (!pa->instrumented()) {
        EXPECT_EQ(pa, prof);
        continue;
      }
      ++sampled;
      // One timed copy per profile and instance, reused.
      if (!first_timed)
        first_timed = pa;
      EXPECT_EQ(pa, first_timed);
    }
    EXPECT_GE(sampled, tc.min_sampled);
    EXPECT_LE(sampled, tc.max_sampled);
  }
}

TEST(plugin_metrics_sampler, times_nothing_with_recording_off) {
  auto prof = pipeline_test::default_profile();
  plugins::plugin_metrics_sampler sampler{7, nullptr};
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(sampler.for_cycle(prof), prof);
}

TEST(plugin_metrics_sampler, each_instance_gets_its_own_timed_copy) {
  auto prof = pipeline_test::default_profile();
  small_cluster sc;
  metrics::scheduler_metrics first, second;
  first.plugin_sample_percent = 100;
  second.plugin_sample_percent = 100;
  plugins::plugin_metrics_sampler to_first{7, &first}, to_second{7, &second};
  auto timed_first = to_first.for_cycle(prof);
  auto timed_second = to_second.for_cycle(prof);
  ASSERT_TRUE(timed_first->instrumented());
  ASSERT_TRUE(timed_second->instrumented());
  EXPECT_NE(timed_first, timed_second);
  auto start = plugins::begin_cycle(*timed_first, *sc.pod, sc.cluster);
  plugins::filter_and_score(*timed_first, start.state, *sc.pod, sc.nodes, 0,
                            {});
  EXPECT_FALSE(observations(first).empty());
  EXPECT_TRUE(observations(second).empty());
}

// Past the second's budget, calls run untimed and the sampler hands out
// the plain profile until a new second begins.
TEST(plugin_metrics_sampler, stops_timing_when_the_budget_is_spent) {
  metrics::scheduler_metrics m;
  m.plugin_sample_percent = 100;
  m.plugin_duration_budget.set_limit(5);
  plugins::plugin_metrics_sampler sampler{7, &m};
  small_cluster sc;
  auto prof = pipeline_test::default_profile();
  auto timed = sampler.for_cycle(prof);
  ASSERT_TRUE(timed->instrumented());
  auto start = plugins::begin_cycle(*timed, *sc.pod, sc.cluster);
  auto result
    = plugins::filter_and_score(*timed, start.state, *sc.pod, sc.nodes, 0, {});
  ASSERT_FALSE(result.feasible.empty());
  std::uint64_t recorded = 0;
  for (const auto& [labels, n] : observations(m))
    recorded += n;
  EXPECT_EQ(recorded, 5u) << "the pass makes more calls than the budget";
  EXPECT_EQ(sampler.for_cycle(prof), prof);
}

} // namespace
} // namespace tessera
