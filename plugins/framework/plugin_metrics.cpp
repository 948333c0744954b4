// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_metrics.hpp"

#include "metrics/scheduler_metrics.hpp"
#include "support/enum_text.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <string>

namespace tessera::plugins {

std::string_view to_string(metric_extension_point p) noexcept {
  static constexpr enum_names<metric_extension_point_count> names
    = {"PreFilter",
       "PreFilterExtensionAddPod",
       "PreFilterExtensionRemovePod",
       "Filter",
       "PostFilter",
       "PreScore",
       "Score",
       "ScoreExtensionNormalize",
       "Reserve",
       "Unreserve",
       "Permit",
       "PreBind",
       "Bind",
       "PostBind"};
  static_assert(all_named(names));
  return enum_text(p, names, "Unknown");
}

namespace {

using steady = std::chrono::steady_clock;

// Written once by call_clock::setup(), before any proxy exists.
std::atomic<bool> tsc_in_use{false};
std::atomic<double> seconds_per_tick{1e-9};

std::uint64_t steady_ns() noexcept {
  return static_cast<std::uint64_t>(
    std::chrono::duration_cast<std::chrono::nanoseconds>(
      steady::now().time_since_epoch())
      .count());
}

#if defined(__x86_64__)
// The kernel trusts the counter (constant rate, synchronized across CPUs)
// exactly when it made it the clocksource.
bool kernel_uses_tsc() {
  std::ifstream in{"/sys/devices/system/clocksource/clocksource0/"
                   "current_clocksource"};
  std::string name;
  return in >> name && name == "tsc";
}

// One (steady ns, tsc) pair read back to back; false when the thread was
// interrupted between the readings.
bool paired_reading(std::uint64_t& ns, std::uint64_t& ticks) {
  std::uint64_t before = steady_ns();
  ticks = __builtin_ia32_rdtsc();
  std::uint64_t after = steady_ns();
  ns = before + (after - before) / 2;
  return after - before < 20'000;
}

// Seconds per tick over a few milliseconds of spinning; 0 on failure.
double calibrate_tsc() {
  for (int attempt = 0; attempt < 5; ++attempt) {
    std::uint64_t ns0 = 0, t0 = 0, ns1 = 0, t1 = 0;
    if (!paired_reading(ns0, t0))
      continue;
    while (steady_ns() - ns0 < 5'000'000) {
    }
    if (!paired_reading(ns1, t1) || t1 <= t0)
      continue;
    return static_cast<double>(ns1 - ns0) * 1e-9 / static_cast<double>(t1 - t0);
  }
  return 0;
}
#endif

} // namespace

void call_clock::setup() {
  static std::once_flag once;
  std::call_once(once, [] {
#if defined(__x86_64__)
    if (kernel_uses_tsc())
      if (double spt = calibrate_tsc(); spt > 0) {
        seconds_per_tick.store(spt, std::memory_order_relaxed);
        tsc_in_use.store(true, std::memory_order_relaxed);
      }
#endif
  });
}

std::uint64_t call_clock::now() noexcept {
#if defined(__x86_64__)
  if (tsc_in_use.load(std::memory_order_relaxed))
    return __builtin_ia32_rdtsc();
#endif
  return steady_ns();
}

double call_clock::seconds(std::uint64_t ticks) noexcept {
  return static_cast<double>(ticks)
         * seconds_per_tick.load(std::memory_order_relaxed);
}

bool call_clock::uses_tsc() noexcept {
  return tsc_in_use.load(std::memory_order_relaxed);
}

namespace {

// Status codes are 0 .. pending.
constexpr std::size_t plugin_code_count
  = static_cast<std::size_t>(code::pending) + 1;

// The recording side of one timed plugin: its series per (extension point,
// code), resolved on first use (a family lookup takes a lock) and then read
// with one acquire load. Shards record concurrently, hence atomics. It
// records only into the instance it was built for, which outlives it (see
// make_timed_profile).
class plugin_timer {
public:
  plugin_timer(std::string_view plugin, metrics::scheduler_metrics& m)
    : plugin_(plugin), owner_(&m) {
  }

  /// Whether this call may be timed: the instance's per-second budget has
  /// room.
  bool admit() const noexcept {
    return owner_->plugin_duration_budget.take();
  }

  void observe(metric_extension_point point, code c,
               std::uint64_t began) const {
    // A thread moved to another CPU mid-call may read a counter a few ticks
    // behind.
    std::uint64_t ended = call_clock::now();
    double seconds = call_clock::seconds(ended > began ? ended - began : 0);
    auto& slot = series_[static_cast<std::size_t>(point) * plugin_code_count
                         + static_cast<std::size_t>(c)];
    metrics::histogram* h = slot.load(std::memory_order_acquire);
    if (h == nullptr) {
      h = &owner_->plugin_execution_duration.with(
        {plugin_, to_string(point), to_string(c)});
      slot.store(h, std::memory_order_release);
    }
    h->observe(seconds);
  }

private:
  std::string plugin_;
  metrics::scheduler_metrics* owner_;
  mutable std::array<std::atomic<metrics::histogram*>,
                     metric_extension_point_count * plugin_code_count>
    series_{};
};

// Stands in for one plugin in a timed profile: implements every plugin
// interface, but the profile lists it only where the original is listed,
// so a forwarding call always has its target.
class timed_plugin final : public queue_sort_plugin,
                           public pre_enqueue_plugin,
                           public pre_filter_plugin,
                           public node_scanner,
                           public filter_plugin,
                           public post_filter_plugin,
                           public pre_score_plugin,
                           public feasible_summarizer,
                           public score_plugin,
                           public reserve_plugin,
                           public permit_plugin,
                           public pre_bind_plugin,
                           public bind_plugin,
                           public post_bind_plugin {
public:
  timed_plugin(std::shared_ptr<plugin> inner, metrics::scheduler_metrics& m)
    : inner_(std::move(inner)), timer_(inner_->name(), m),
      queue_sort_(as<queue_sort_plugin>()),
      pre_enqueue_(as<pre_enqueue_plugin>()),
      pre_filter_(as<pre_filter_plugin>()), scanner_(as<node_scanner>()),
      filter_(as<filter_plugin>()), post_filter_(as<post_filter_plugin>()),
      pre_score_(as<pre_score_plugin>()),
      summarizer_(as<feasible_summarizer>()), score_(as<score_plugin>()),
      reserve_(as<reserve_plugin>()), permit_(as<permit_plugin>()),
      pre_bind_(as<pre_bind_plugin>()), bind_(as<bind_plugin>()),
      post_bind_(as<post_bind_plugin>()) {
  }

  std::string_view name() const noexcept override {
    return inner_->name();
  }
  std::vector<cluster_event_with_hint> events_to_register() const override {
    return inner_->events_to_register();
  }
  bool signs_pods() const noexcept override {
    return inner_->signs_pods();
  }
  bool signable(const model::pod& p,
                const cluster_context& cluster) const override {
    return inner_->signable(p, cluster);
  }
  bool same_signature(const model::pod& a, const model::pod& b) const override {
    return inner_->same_signature(a, b);
  }

  // ---- not part of a cycle: forwarded untimed ---------------------------
  bool less(const queued_pod& a, const queued_pod& b) const override {
    return queue_sort_->less(a, b);
  }
  status pre_enqueue(const model::pod& p) const override {
    return pre_enqueue_->pre_enqueue(p);
  }

  // ---- PreFilter and its extensions -------------------------------------
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override {
    return timed(
      metric_extension_point::pre_filter,
      [&] { return pre_filter_->pre_filter(state, p, cluster); },
      [](const pre_filter_result& r) { return r.result.get_code(); });
  }
  bool has_extensions() const noexcept override {
    return pre_filter_->has_extensions();
  }
  status add_pod(cycle_state& state, const model::pod& to_schedule,
                 const model::pod_core& added,
                 model::node_view node) const override {
    return timed(metric_extension_point::pre_filter_add_pod, [&] {
      return pre_filter_->add_pod(state, to_schedule, added, node);
    });
  }
  status remove_pod(cycle_state& state, const model::pod& to_schedule,
                    const model::pod_core& removed,
                    model::node_view node) const override {
    return timed(metric_extension_point::pre_filter_remove_pod, [&] {
      return pre_filter_->remove_pod(state, to_schedule, removed, node);
    });
  }

  // ---- node scans: no upstream extension point, untimed -----------------
  bool wants_scan(const cycle_state& state,
                  const model::pod& p) const override {
    return scanner_->wants_scan(state, p);
  }
  scan_partial_ptr
  scan(const cycle_state& state, const model::pod& p,
       std::span<const model::node_info_ptr> nodes) const override {
    return scanner_->scan(state, p, nodes);
  }
  status merge(cycle_state& state, const model::pod& p,
               std::vector<scan_partial_ptr> partials) const override {
    return scanner_->merge(state, p, std::move(partials));
  }

  // ---- Filter -----------------------------------------------------------
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override {
    return timed(metric_extension_point::filter,
                 [&] { return filter_->filter(state, p, node); });
  }
  bool node_local() const noexcept override {
    return filter_->node_local();
  }
  bool skip_depends_on_other_pods() const noexcept override {
    return filter_->skip_depends_on_other_pods();
  }

  // ---- PostFilter: the eligibility check that ends it, and each shard's
  // dry run (where its time goes) --------------------------------------
  status check_pod_eligible(const model::pod& p) const override {
    if (!timer_.admit())
      return post_filter_->check_pod_eligible(p);
    auto began = call_clock::now();
    status s = post_filter_->check_pod_eligible(p);
    if (!s.ok())
      timer_.observe(metric_extension_point::post_filter, s.get_code(), began);
    return s;
  }
  status check_nominated_node(const model::pod& p,
                              const model::node_info& nominated,
                              const status& nominated_status) const override {
    return post_filter_->check_nominated_node(p, nominated, nominated_status);
  }
  std::size_t candidates_wanted(std::size_t potential) const override {
    return post_filter_->candidates_wanted(potential);
  }
  dry_run_result dry_run(const profile& prof, const cycle_state& state,
                         const model::pod& p,
                         std::span<const dry_run_node> nodes,
                         std::size_t wanted,
                         const cluster_context& cluster) const override {
    return timed(
      metric_extension_point::post_filter,
      [&] {
        return post_filter_->dry_run(prof, state, p, nodes, wanted, cluster);
      },
      dry_run_code);
  }
  post_filter_outcome
  select(const model::pod& p,
         std::vector<preemption_candidate> candidates) const override {
    return post_filter_->select(p, std::move(candidates));
  }
  std::string wrap_message(std::string_view message) const override {
    return post_filter_->wrap_message(message);
  }

  // ---- PreScore, Score, NormalizeScore ----------------------------------
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override {
    return timed(metric_extension_point::pre_score,
                 [&] { return pre_score_->pre_score(state, p, cluster); });
  }
  bool wants_summary(const cycle_state& state) const override {
    return summarizer_->wants_summary(state);
  }
  feasible_summary_ptr
  summarize(const cycle_state& state, const model::pod& p,
            std::span<const model::node_info* const> feasible) const override {
    return summarizer_->summarize(state, p, feasible);
  }
  status
  merge_summaries(cycle_state& state, const model::pod& p,
                  std::vector<feasible_summary_ptr> parts) const override {
    return summarizer_->merge_summaries(state, p, std::move(parts));
  }
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override {
    // tessera's Score cannot fail: a bad score fails select_host instead.
    return timed(
      metric_extension_point::score,
      [&] { return score_->score(state, p, node); },
      [](std::int64_t) { return code::success; });
  }
  bool has_normalize() const noexcept override {
    return score_->has_normalize();
  }
  status normalize_scores(const cycle_state& state, const model::pod& p,
                          std::span<node_score> scores) const override {
    return timed(metric_extension_point::normalize_score,
                 [&] { return score_->normalize_scores(state, p, scores); });
  }

  // ---- the binding cycle ------------------------------------------------
  status reserve(cycle_state& state, const model::pod& p,
                 model::symbol node) const override {
    return timed(metric_extension_point::reserve,
                 [&] { return reserve_->reserve(state, p, node); });
  }
  void unreserve(cycle_state& state, const model::pod& p,
                 model::symbol node) const override {
    timed(metric_extension_point::unreserve, [&] {
      reserve_->unreserve(state, p, node);
      return status{};
    });
  }
  status permit(cycle_state& state, const model::pod& p, model::symbol node,
                std::int64_t& timeout_ms) const override {
    return timed(metric_extension_point::permit,
                 [&] { return permit_->permit(state, p, node, timeout_ms); });
  }
  status pre_bind(cycle_state& state, const model::pod& p,
                  model::symbol node) const override {
    return timed(metric_extension_point::pre_bind,
                 [&] { return pre_bind_->pre_bind(state, p, node); });
  }
  std::optional<std::chrono::milliseconds>
  api_wait_timeout() const noexcept override {
    return pre_bind_ != nullptr ? pre_bind_->api_wait_timeout() : std::nullopt;
  }
  status accepts(const cycle_state& state, const model::pod& p,
                 model::symbol node) const override {
    return timed(metric_extension_point::bind,
                 [&] { return bind_->accepts(state, p, node); });
  }
  void post_bind(const cycle_state& state, const model::pod& p,
                 model::symbol node) const override {
    timed(metric_extension_point::post_bind, [&] {
      post_bind_->post_bind(state, p, node);
      return status{};
    });
  }

private:
  // Times one call when the budget admits it, observed under the code
  // `code_of` reads from its result (by default the status it returns).
  template <class Call, class CodeOf>
  auto timed(metric_extension_point point, Call&& call, CodeOf&& code_of) const
    -> decltype(call()) {
    if (!timer_.admit())
      return call();
    auto began = call_clock::now();
    auto r = call();
    timer_.observe(point, code_of(r), began);
    return r;
  }
  template <class Call>
  status timed(metric_extension_point point, Call&& call) const {
    return timed(point, std::forward<Call>(call),
                 [](const status& s) { return s.get_code(); });
  }

  template <class Interface> const Interface* as() const {
    return dynamic_cast<const Interface*>(inner_.get());
  }

  // A shard's dry run succeeds when it found candidates; otherwise it failed
  // with an Error if any node did, else Unschedulable.
  static code dry_run_code(const dry_run_result& r) {
    if (!r.non_violating.empty() || !r.violating.empty())
      return code::success;
    for (const auto& [node, s] : r.failures)
      if (s.get_code() == code::error)
        return code::error;
    return code::unschedulable;
  }

  std::shared_ptr<plugin> inner_;
  plugin_timer timer_;
  const queue_sort_plugin* queue_sort_;
  const pre_enqueue_plugin* pre_enqueue_;
  const pre_filter_plugin* pre_filter_;
  const node_scanner* scanner_;
  const filter_plugin* filter_;
  const post_filter_plugin* post_filter_;
  const pre_score_plugin* pre_score_;
  const feasible_summarizer* summarizer_;
  const score_plugin* score_;
  const reserve_plugin* reserve_;
  const permit_plugin* permit_;
  const pre_bind_plugin* pre_bind_;
  const bind_plugin* bind_;
  const post_bind_plugin* post_bind_;
};

} // namespace

profile_ptr make_timed_profile(const profile& prof,
                               metrics::scheduler_metrics& m) {
  call_clock::setup();
  return prof.with_wrapped_plugins([&m](const std::shared_ptr<plugin>& p) {
    return std::shared_ptr<plugin>{std::make_shared<timed_plugin>(p, m)};
  });
}

profile_ptr plugin_metrics_sampler::for_cycle(profile_ptr prof) {
  auto* m = metrics_;
  if (m == nullptr || !prof)
    return prof;
  std::uint32_t percent
    = m->plugin_sample_percent.load(std::memory_order_relaxed);
  if (percent == 0)
    return prof;
  // upstream: rand.Intn(100) < pluginMetricsSamplePercent.
  if (percent < 100 && rng_() % 100 >= percent)
    return prof;
  // Upstream drops what its recorder's buffer cannot hold; here a cycle
  // begun when this second's durations are all recorded is not timed.
  if (!m->plugin_duration_budget.renew(steady_ns()))
    return prof;
  for (const auto& c : copies_)
    if (c.original == prof)
      return c.timed;
  copies_.push_back({prof, make_timed_profile(*prof, *m)});
  return copies_.back().timed;
}

} // namespace tessera::plugins
