// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_resources/resource_scorer.hpp"

#include <cmath>

namespace tessera::plugins::node_resources {

namespace {

constexpr std::int64_t max_utilization = 100;

} // namespace

std::vector<resource_ref>
resolve_resources(const std::vector<config::resource_spec>& specs) {
  std::vector<resource_ref> out;
  out.reserve(specs.size());
  for (const auto& s : specs)
    out.push_back(
      {model::symbol{s.name}, model::classify_resource(s.name), s.weight});
  return out;
}

resource_field field_of(const resource_ref& r) noexcept {
  switch (r.kind) {
  case model::resource_kind::cpu:
    return {r.name, &model::resource_list::milli_cpu};
  case model::resource_kind::memory:
    return {r.name, &model::resource_list::memory};
  case model::resource_kind::ephemeral_storage:
    return {r.name, &model::resource_list::ephemeral_storage};
  case model::resource_kind::scalar:
  case model::resource_kind::pods:
  case model::resource_kind::ignored:
    break;
  }
  return {r.name, nullptr};
}

resource_scorer::resource_scorer(const config::scoring_strategy& s)
  : type_(s.type) {
  shape_.reserve(s.shape.size());
  for (const auto& p : s.shape)
    shape_.push_back(
      {p.utilization, static_cast<std::int64_t>(p.score) * shape_score_scale});
}

std::int64_t resource_scorer::rounded_mean(std::int64_t weighted,
                                           std::int64_t weights) noexcept {
  if (weights == 0)
    return 0;
  // Go's math.Round: half away from zero, as std::round.
  return static_cast<std::int64_t>(
    std::round(static_cast<double>(weighted) / static_cast<double>(weights)));
}

std::int64_t
resource_scorer::ratio_score(std::int64_t requested,
                             std::int64_t allocatable) const noexcept {
  if (allocatable == 0 || requested > allocatable)
    return shape_at(max_utilization);
  return shape_at(scaled_ratio(requested, allocatable));
}

std::int64_t
resource_scorer::shape_at(std::int64_t utilization) const noexcept {
  if (shape_.empty())
    return 0;
  for (std::size_t i = 0; i < shape_.size(); ++i) {
    if (utilization > shape_[i].utilization)
      continue;
    if (i == 0)
      return shape_[0].score;
    const auto& lo = shape_[i - 1];
    const auto& hi = shape_[i];
    const std::int64_t span = hi.utilization - lo.utilization;
    // Validation keeps utilizations strictly increasing; guard anyway.
    if (span == 0)
      return hi.score;
    return lo.score
           + (hi.score - lo.score) * (utilization - lo.utilization) / span;
  }
  return shape_.back().score;
}

} // namespace tessera::plugins::node_resources
