// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_resources/balanced_allocation.hpp"

#include <cmath>

namespace tessera::plugins {

namespace {

constexpr std::int64_t half_score = node_resources::max_score / 2;

double capped_fraction(std::int64_t used, std::int64_t allocatable) {
  const double f = static_cast<double>(used) / static_cast<double>(allocatable);
  return f > 1 ? 1.0 : f;
}

std::int64_t balance_from_deviation(double deviation) {
  return static_cast<std::int64_t>(
    (1 - deviation) * static_cast<double>(node_resources::max_score));
}

// The fractions of one side (with or without the pod) as Score walks the
// resources: their count, running total and the first two values, enough
// for the deviation of up to two resources without storing them.
struct fraction_walk {
  int count = 0;
  double total = 0;
  double first = 0;
  double second = 0;

  void add(double f) noexcept {
    if (count == 0)
      first = f;
    else if (count == 1)
      second = f;
    ++count;
    total += f;
  }
};

// Population standard deviation of more than two fractions: a second walk
// recomputes them (bit-identical) to sum the squared distances to the mean
// in the same order as kube-scheduler.
[[gnu::noinline]] double
spread(const node_resources_balanced_allocation::cycle_data& data,
       const model::node_info& node, bool with_pod, const fraction_walk& walk) {
  const auto& alloc = node_resources::node_allocatable(node);
  const auto& used = node.requested();
  const double mean = walk.total / static_cast<double>(walk.count);
  double squares = 0;
  for (const auto& e : data.scored_resources) {
    const std::int64_t capacity = e.field.read(alloc);
    if (capacity == 0)
      continue;
    std::int64_t amount = e.field.read(used);
    if (with_pod)
      amount = node_resources::add_saturating(amount, e.pod_request);
    const double f = capped_fraction(amount, capacity);
    squares += (f - mean) * (f - mean);
  }
  return std::sqrt(squares / static_cast<double>(walk.count));
}

double deviation(const node_resources_balanced_allocation::cycle_data& data,
                 const model::node_info& node, bool with_pod,
                 const fraction_walk& walk) {
  if (walk.count == 2)
    return std::abs((walk.first - walk.second) / 2);
  if (walk.count > 2)
    return spread(data, node, with_pod, walk);
  return 0;
}

} // namespace

node_resources_balanced_allocation::node_resources_balanced_allocation(
  const config::node_resources_balanced_allocation_args& args)
  : resources_(node_resources::resolve_resources(args.resources)) {
}

void node_resources_balanced_allocation::prepare(cycle_data& data,
                                                 const model::pod& p) const {
  data.scored_resources.clear();
  data.best_effort = true;
  for (const auto& r : resources_) {
    switch (r.kind) {
    case model::resource_kind::cpu:
    case model::resource_kind::memory:
    case model::resource_kind::ephemeral_storage:
    case model::resource_kind::scalar:
      break;
    case model::resource_kind::pods:
    case model::resource_kind::ignored:
      // Never among the node's resources, and the pod requests none.
      continue;
    }
    const auto field = node_resources::field_of(r);
    // Actual requests: no scoring defaults for cpu and memory.
    const std::int64_t request = field.read(p.requests);
    if (request != 0)
      data.best_effort = false;
    // A scalar resource the pod does not request is not part of the
    // balance, with or without the pod.
    if (r.kind == model::resource_kind::scalar && request == 0)
      continue;
    data.scored_resources.push_back({field, request});
  }
}

status node_resources_balanced_allocation::pre_score(
  cycle_state& state, const model::pod& p,
  const cluster_context& cluster) const {
  (void)cluster;
  auto data = std::make_shared<cycle_data>();
  prepare(*data, p);
  // Scoring best-effort pods would pile them onto the same node
  // (kubernetes/kubernetes#129138).
  if (data->best_effort)
    return status::skip();
  state.write(slot(), std::move(data));
  return {};
}

std::int64_t
node_resources_balanced_allocation::score(const cycle_state& state,
                                          const model::pod& p,
                                          const model::node_info& node) const {
  const auto* s = state.read<cycle_data>(slot());
  if (s != nullptr) [[likely]]
    return score_prepared(*s, node);
  // PreScore did not run: compute here, scoring best-effort pods 0.
  cycle_data local;
  prepare(local, p);
  return local.best_effort ? 0 : score_prepared(local, node);
}

std::int64_t node_resources_balanced_allocation::score_prepared(
  const cycle_data& data, const model::node_info& node) const {
  const auto& alloc = node_resources::node_allocatable(node);
  const auto& used = node.requested();
  fraction_walk with_pod;
  fraction_walk without_pod;
  for (const auto& e : data.scored_resources) {
    const std::int64_t capacity = e.field.read(alloc);
    if (capacity == 0)
      continue;
    const std::int64_t before = e.field.read(used);
    with_pod.add(capped_fraction(
      node_resources::add_saturating(before, e.pod_request), capacity));
    without_pod.add(capped_fraction(before, capacity));
  }
  const std::int64_t gain
    = balance_from_deviation(deviation(data, node, true, with_pod))
      - balance_from_deviation(deviation(data, node, false, without_pod));
  return half_score + (half_score + gain) / 2;
}

std::int64_t node_resources_balanced_allocation::balance(
  std::span<const double> fractions) noexcept {
  double deviation = 0;
  if (fractions.size() == 2) {
    // The common cpu + memory case: the deviation of two values.
    deviation = std::abs((fractions[0] - fractions[1]) / 2);
  } else if (fractions.size() > 2) {
    double total = 0;
    for (double f : fractions)
      total += f;
    const double mean = total / static_cast<double>(fractions.size());
    double squares = 0;
    for (double f : fractions)
      squares += (f - mean) * (f - mean);
    deviation = std::sqrt(squares / static_cast<double>(fractions.size()));
  }
  return balance_from_deviation(deviation);
}

std::shared_ptr<plugin> make_node_resources_balanced_allocation(
  const config::node_resources_balanced_allocation_args& args) {
  return std::make_shared<node_resources_balanced_allocation>(args);
}

} // namespace tessera::plugins
