// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/plugin_catalog.hpp"

#include "support/enum_text.hpp"

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
// in-tree volume limit plugins removed in v1.32. Upstream's defaulting
// appends NodeDeclaredFeatures after the static list, so it comes last.
constexpr std::array<plugin_info, 20> catalog{{
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
  {"NodeDeclaredFeatures", pf | f, 0, false},
}};

} // namespace

std::string_view field_name(extension_point p) noexcept {
  static constexpr enum_names<extension_point_count> names
    = {"preEnqueue", "queueSort", "preFilter", "filter",
       "postFilter", "preScore",  "score",     "reserve",
       "permit",     "preBind",   "bind",      "postBind"};
  static_assert(all_named(names));
  return enum_text(p, names, "");
}

std::string_view interface_name(extension_point p) noexcept {
  static constexpr enum_names<extension_point_count> names = {
    "PreEnqueuePlugin", "QueueSortPlugin", "PreFilterPlugin", "FilterPlugin",
    "PostFilterPlugin", "PreScorePlugin",  "ScorePlugin",     "ReservePlugin",
    "PermitPlugin",     "PreBindPlugin",   "BindPlugin",      "PostBindPlugin"};
  static_assert(all_named(names));
  return enum_text(p, names, "");
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
