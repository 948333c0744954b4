// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/plugin_catalog.hpp"

#include <array>

namespace tessera::config {

namespace {

constexpr std::uint16_t bit(extension_point p) {
  return static_cast<std::uint16_t>(1u << static_cast<unsigned>(p));
}

using ep = extension_point;

constexpr std::uint16_t pf = bit(ep::pre_filter);
constexpr std::uint16_t f = bit(ep::filter);
constexpr std::uint16_t ps = bit(ep::pre_score);
constexpr std::uint16_t s = bit(ep::score);

// Upstream's default multiPoint order (v1.37, where the gates that add
// DynamicResources and NodeDeclaredFeatures are locked on), without the
// in-tree volume limit plugins removed in v1.32.
constexpr std::array<plugin_info, 19> catalog{{
  {"SchedulingGates", bit(ep::pre_enqueue), 0, false},
  {"PrioritySort", bit(ep::queue_sort), 0, false},
  {"NodeUnschedulable", f, 0, false},
  {"NodeName", f, 0, false},
  {"TaintToleration", f | ps | s, 3, false},
  {"NodeAffinity", pf | f | ps | s, 2, true},
  {"NodePorts", pf | f, 0, false},
  {"NodeResourcesFit", pf | f | ps | s, 1, true},
  {"VolumeRestrictions", pf | f, 0, false},
  {"NodeVolumeLimits", pf | f, 0, false},
  {"VolumeBinding", pf | f | ps | s | bit(ep::reserve) | bit(ep::pre_bind), 0,
   true},
  {"VolumeZone", pf | f, 0, false},
  {"PodTopologySpread", pf | f | ps | s, 2, true},
  {"InterPodAffinity", pf | f | ps | s, 2, true},
  // tessera's DynamicResources only refuses pods with resource claims, at
  // PreFilter; it reads no DynamicResourcesArgs (upstream's filterTimeout
  // and bindingTimeout have nothing to act on).
  {"DynamicResources", pf, 0, false},
  // Upstream's DefaultPreemption also has a PreEnqueue that holds pods while
  // asynchronous preemption runs; tessera preempts synchronously, so it
  // implements PostFilter only (the written defaults are unchanged: they
  // list plugins under multiPoint).
  {"DefaultPreemption", bit(ep::post_filter), 0, true},
  {"NodeResourcesBalancedAllocation", ps | s, 1, true},
  {"ImageLocality", s, 1, false},
  {"DefaultBinder", bit(ep::bind), 0, false},
}};

} // namespace

std::string_view field_name(extension_point p) noexcept {
  switch (p) {
  case ep::pre_enqueue:
    return "preEnqueue";
  case ep::queue_sort:
    return "queueSort";
  case ep::pre_filter:
    return "preFilter";
  case ep::filter:
    return "filter";
  case ep::post_filter:
    return "postFilter";
  case ep::pre_score:
    return "preScore";
  case ep::score:
    return "score";
  case ep::reserve:
    return "reserve";
  case ep::permit:
    return "permit";
  case ep::pre_bind:
    return "preBind";
  case ep::bind:
    return "bind";
  case ep::post_bind:
    return "postBind";
  }
  return "";
}

std::string_view interface_name(extension_point p) noexcept {
  switch (p) {
  case ep::pre_enqueue:
    return "PreEnqueuePlugin";
  case ep::queue_sort:
    return "QueueSortPlugin";
  case ep::pre_filter:
    return "PreFilterPlugin";
  case ep::filter:
    return "FilterPlugin";
  case ep::post_filter:
    return "PostFilterPlugin";
  case ep::pre_score:
    return "PreScorePlugin";
  case ep::score:
    return "ScorePlugin";
  case ep::reserve:
    return "ReservePlugin";
  case ep::permit:
    return "PermitPlugin";
  case ep::pre_bind:
    return "PreBindPlugin";
  case ep::bind:
    return "BindPlugin";
  case ep::post_bind:
    return "PostBindPlugin";
  }
  return "";
}

std::span<const plugin_info> in_tree_plugins() noexcept {
  return catalog;
}

const plugin_info* find_in_tree_plugin(std::string_view name) noexcept {
  for (const auto& p : catalog)
    if (p.name == name)
      return &p;
  return nullptr;
}

} // namespace tessera::config
