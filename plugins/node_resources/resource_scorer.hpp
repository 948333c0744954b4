// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `resource_scorer`: the three scoring strategies of NodeResourcesFit
/// (LeastAllocated, MostAllocated, RequestedToCapacityRatio), each a weighted
/// mean over the configured resources of a per-resource score in 0..100.
///
/// The scorer is built once from the args and is allocation-free per node:
/// `score` takes a visitor that emits each counted resource (requested =
/// node's requested + the pod's request, allocatable > 0), with the
/// strategy chosen once per node. Integer arithmetic follows kube-scheduler
/// exactly: int64 divisions truncate, and RequestedToCapacityRatio rounds the
/// weighted mean half away from zero. Products that could overflow int64
/// (allocatable above 9.2e16) are computed in 128 bits, giving the exact
/// quotient.
///
/// Also here: `resource_ref`, a configured resource name resolved once to its
/// symbol and accounting kind, shared with NodeResourcesBalancedAllocation.
#pragma once

#include "config/plugin_args.hpp"
#include "model/node_view.hpp"
#include "model/resource_list.hpp"
#include "model/symbol.hpp"

#include <cstdint>
#include <vector>

namespace tessera::plugins::node_resources {

/// kube-scheduler's MaxNodeScore.
inline constexpr std::int64_t max_score = 100;
/// Shape scores are given on 0..10 (MaxCustomPriorityScore) and scaled up by
/// this factor to 0..100.
inline constexpr std::int64_t shape_score_scale = 10;

/// A configured resource (args `resources[]`), resolved once.
struct resource_ref {
  model::symbol name;
  model::resource_kind kind = model::resource_kind::ignored;
  std::int64_t weight = 1;
};

/// Resolves the configured resources, keeping their order.
std::vector<resource_ref>
resolve_resources(const std::vector<config::resource_spec>& specs);

/// A resource resolved for fast reads from a resource_list: cpu, memory and
/// ephemeral-storage as a pointer to the member, scalars by name.
struct resource_field {
  model::symbol name;
  /// Null for a scalar resource.
  std::int64_t model::resource_list::*member = nullptr;

  std::int64_t read(const model::resource_list& list) const noexcept {
    return member != nullptr ? list.*member : list.scalar(name);
  }
};

/// The field of `r`, which must be cpu, memory, ephemeral-storage or a
/// scalar resource.
resource_field field_of(const resource_ref& r) noexcept;

/// The node's allocatable, read inline (node_view::allocatable() is;
/// placeholders without a node object have none).
inline const model::resource_list&
node_allocatable(model::node_view n) noexcept {
  return n.allocatable();
}

/// int64 addition that saturates instead of overflowing.
inline std::int64_t add_saturating(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) [[likely]]
    return sum;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

/// `x * max_score / d` truncated, exact even where `x * 100` overflows
/// int64 (then computed in 128 bits). `d` must not be 0.
inline std::int64_t scaled_ratio(std::int64_t x, std::int64_t d) noexcept {
  constexpr std::int64_t limit = INT64_MAX / max_score;
  if (x <= limit && x >= -limit) [[likely]]
    return x * max_score / d;
  // C++ and Go both truncate toward zero, so this is the quotient
  // kube-scheduler gets whenever its own product does not overflow.
  return static_cast<std::int64_t>(static_cast<__int128>(x) * max_score / d);
}

class resource_scorer {
public:
  using strategy = config::scoring_strategy::kind;

  /// A shape point with the score already scaled to 0..100.
  struct shape_point {
    std::int64_t utilization = 0;
    std::int64_t score = 0;
  };

  /// Builds the strategy of `s` (its shape is used only by
  /// RequestedToCapacityRatio).
  explicit resource_scorer(const config::scoring_strategy& s);

  strategy type() const noexcept {
    return type_;
  }

  /// Scores one node. `visit(emit)` must call
  /// `emit(requested, allocatable, weight)` once per resource that counts,
  /// where requested is the node's plus the pod's and allocatable > 0 (the
  /// caller skips the others). The strategy is chosen once per node, not per
  /// resource. Returns the weighted mean, 0 when nothing counted.
  template <class Visit> std::int64_t score(Visit&& visit) const {
    std::int64_t weighted = 0;
    std::int64_t weights = 0;
    switch (type_) {
    case strategy::least_allocated:
      visit([&](std::int64_t requested, std::int64_t allocatable,
                std::int64_t weight) {
        weighted += least_requested(requested, allocatable) * weight;
        weights += weight;
      });
      return integer_mean(weighted, weights);
    case strategy::most_allocated:
      visit([&](std::int64_t requested, std::int64_t allocatable,
                std::int64_t weight) {
        weighted += most_requested(requested, allocatable) * weight;
        weights += weight;
      });
      return integer_mean(weighted, weights);
    case strategy::requested_to_capacity_ratio:
      visit([&](std::int64_t requested, std::int64_t allocatable,
                std::int64_t weight) {
        const std::int64_t s = ratio_score(requested, allocatable);
        // Resources scoring 0 are left out, weight included.
        if (s > 0) {
          weighted += s * weight;
          weights += weight;
        }
      });
      return rounded_mean(weighted, weights);
    }
    return 0;
  }

  /// LeastAllocated's per-resource score: the free share, 0 when the
  /// resource is over-committed or allocatable is 0.
  static std::int64_t least_requested(std::int64_t requested,
                                      std::int64_t allocatable) noexcept {
    if (allocatable == 0 || requested > allocatable)
      return 0;
    return scaled_ratio(allocatable - requested, allocatable);
  }
  /// MostAllocated's per-resource score: the used share, capped at 100
  /// (pods without requests count the scoring defaults, so the node's sum
  /// may exceed allocatable).
  static std::int64_t most_requested(std::int64_t requested,
                                     std::int64_t allocatable) noexcept {
    if (allocatable == 0)
      return 0;
    if (requested > allocatable)
      requested = allocatable;
    return scaled_ratio(requested, allocatable);
  }
  /// RequestedToCapacityRatio's per-resource score: the shape at the
  /// utilization (truncated percent; over-committed or no allocatable
  /// counts as 100).
  std::int64_t ratio_score(std::int64_t requested,
                           std::int64_t allocatable) const noexcept;
  /// The piecewise-linear shape at `utilization` (0..100): the first score
  /// up to the first point, the last score beyond the last point.
  std::int64_t shape_at(std::int64_t utilization) const noexcept;

private:
  /// Truncating weighted mean (LeastAllocated, MostAllocated).
  static std::int64_t integer_mean(std::int64_t weighted,
                                   std::int64_t weights) noexcept {
    if (weights == 0)
      return 0;
    // The default two resources of weight 1: a shift, not a division.
    if (weights == 2)
      return weighted / 2;
    return weighted / weights;
  }
  /// Weighted mean rounded half away from zero (Go's math.Round).
  static std::int64_t rounded_mean(std::int64_t weighted,
                                   std::int64_t weights) noexcept;

  strategy type_;
  std::vector<shape_point> shape_;
};

} // namespace tessera::plugins::node_resources
