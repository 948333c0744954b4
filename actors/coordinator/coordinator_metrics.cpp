// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/coordinator_metrics.hpp"

#include <cassert>
#include <iterator>

namespace tessera::actors {

namespace {

// The extension points whose durations the coordinator observes, and the
// number of status codes (series cache keys).
constexpr std::string_view observed_points[]
  = {"PreFilter", "Filter", "PostFilter"};
constexpr std::size_t status_codes
  = static_cast<std::size_t>(plugins::code::pending) + 1;
constexpr std::size_t outcome_kinds = 4;

} // namespace

coordinator_metrics::coordinator_metrics(
  std::vector<plugins::profile_ptr> profiles, metrics::scheduler_metrics* m)
  : profiles_(std::move(profiles)), metrics_(m) {
}

std::size_t
coordinator_metrics::profile_index(const plugins::profile& prof) const {
  for (std::size_t i = 0; i < profiles_.size(); ++i)
    if (profiles_[i].get() == &prof)
      return i;
  // A sampled cycle's timed copy carries its profile's name.
  for (std::size_t i = 0; i < profiles_.size(); ++i)
    if (profiles_[i]->scheduler_name() == prof.scheduler_name())
      return i;
  return profiles_.size();
}

void coordinator_metrics::extension_point(std::string_view point,
                                          plugins::code code,
                                          const plugins::profile& prof,
                                          time_point began) {
  auto* m = metrics_;
  if (m == nullptr)
    return;
  std::size_t point_index = 0;
  while (point_index + 1 < std::size(observed_points)
         && observed_points[point_index] != point)
    ++point_index;
  assert(observed_points[point_index] == point && "unobserved point");
  std::size_t key
    = (profile_index(prof) * std::size(observed_points) + point_index)
        * status_codes
      + static_cast<std::size_t>(code);
  extension_point_series_
    .get(*m, key,
         [&](metrics::scheduler_metrics& into) -> metrics::histogram& {
           return into.extension_point_duration.with(
             {point, plugins::to_string(code), prof.scheduler_name()});
         })
    .observe(metrics::seconds_since(began));
}

void coordinator_metrics::attempt(cycle_outcome::kind outcome,
                                  const plugins::profile& prof,
                                  time_point began) {
  auto* m = metrics_;
  if (m == nullptr)
    return;
  using kind = cycle_outcome::kind;
  if (outcome == kind::retry)
    m->conflicts_total.inc();
  const char* result = outcome == kind::assumed         ? "scheduled"
                       : outcome == kind::unschedulable ? "unschedulable"
                       : outcome == kind::error         ? "error"
                                                        : nullptr;
  if (result == nullptr)
    return;
  const std::string& profile = prof.scheduler_name();
  std::size_t key
    = profile_index(prof) * outcome_kinds + static_cast<std::size_t>(outcome);
  if (outcome != kind::assumed)
    attempt_series_
      .get(*m, key,
           [&](metrics::scheduler_metrics& into) -> metrics::counter& {
             return into.schedule_attempts.with({result, profile});
           })
      .inc();
  attempt_duration_series_
    .get(*m, key,
         [&](metrics::scheduler_metrics& into) -> metrics::histogram& {
           return into.attempt_duration.with({result, profile});
         })
    .observe(metrics::seconds_since(began));
}

void coordinator_metrics::algorithm(time_point began) {
  if (auto* m = metrics_)
    m->algorithm.observe(metrics::seconds_since(began));
}

void coordinator_metrics::inflight(std::size_t cycles) {
  if (auto* m = metrics_)
    m->inflight.set(static_cast<double>(cycles));
}

void coordinator_metrics::preemption_attempt() {
  if (auto* m = metrics_)
    m->preemptions.inc();
}

void coordinator_metrics::victims(std::size_t count) {
  if (auto* m = metrics_)
    m->victims.observe(static_cast<double>(count));
}

namespace {

const std::string& profile_name(const std::vector<plugins::profile_ptr>& all,
                                std::size_t index) {
  static const std::string unknown;
  return index < all.size() ? all[index]->scheduler_name() : unknown;
}

} // namespace

template <class Series>
Series* coordinator_metrics::series(
  metrics::series_cache<Series>& cache, std::size_t key,
  metrics::family<Series> metrics::scheduler_metrics::*family,
  std::initializer_list<std::string_view> labels) {
  auto* m = metrics_;
  if (m == nullptr)
    return nullptr;
  return &cache.get(*m, key, [&](metrics::scheduler_metrics& into) -> Series& {
    return (into.*family).with(labels);
  });
}

void coordinator_metrics::batch_attempt(std::size_t profile,
                                        batcher::attempt result) {
  constexpr std::size_t results = 3;
  if (auto* c
      = series(batch_attempt_series_,
               profile * results + static_cast<std::size_t>(result),
               &metrics::scheduler_metrics::batch_attempts,
               {profile_name(profiles_, profile), batcher::to_string(result)}))
    c->inc();
}

void coordinator_metrics::batch_flushed(std::size_t profile,
                                        batcher::flush_reason why) {
  constexpr std::size_t reasons = 8;
  if (auto* c = series(
        batch_flush_series_, profile * reasons + static_cast<std::size_t>(why),
        &metrics::scheduler_metrics::batch_cache_flushed,
        {profile_name(profiles_, profile), batcher::to_string(why)}))
    c->inc();
}

void coordinator_metrics::batch_rescored(std::size_t profile) {
  if (auto* c = series(batch_rescore_series_, profile,
                       &metrics::scheduler_metrics::batch_rescore_attempts,
                       {profile_name(profiles_, profile)}))
    c->inc();
}

void coordinator_metrics::node_hint(std::size_t profile, bool hinted,
                                    time_point began) {
  // Upstream's label order: {hinted, profile}.
  if (auto* h
      = series(node_hint_series_, profile * 2 + (hinted ? 1 : 0),
               &metrics::scheduler_metrics::get_node_hint_duration,
               {hinted ? "hint" : "no_hint", profile_name(profiles_, profile)}))
    h->observe(metrics::seconds_since(began));
}

void coordinator_metrics::stored_results(std::size_t profile,
                                         time_point began) {
  if (auto* h
      = series(stored_results_series_, profile,
               &metrics::scheduler_metrics::store_schedule_results_duration,
               {profile_name(profiles_, profile)}))
    h->observe(metrics::seconds_since(began));
}

void coordinator_metrics::rescore_duration(std::size_t profile,
                                           std::chrono::nanoseconds took) {
  if (auto* h = series(rescore_duration_series_, profile,
                       &metrics::scheduler_metrics::batch_rescore_duration,
                       {profile_name(profiles_, profile)}))
    h->observe(std::chrono::duration<double>(took).count());
}

} // namespace tessera::actors
