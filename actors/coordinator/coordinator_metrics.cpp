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

} // namespace tessera::actors
