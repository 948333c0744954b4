// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `plugin_info`: the one table of tessera's in-tree plugins — for each, the
/// extension points it implements, its weight in the default profile and
/// whether it takes typed args. The table is in upstream's default multiPoint
/// order (pkg/scheduler/apis/config/v1/default_plugins.go), which is also the
/// order in which multiPoint expansion lists plugins at each extension point.
///
/// Upstream's framework expands multiPoint by asking each plugin object which
/// Go interfaces it implements, whatever its feature gates say. The table
/// records the same facts: VolumeBinding implements PreScore and Score even
/// though it only scores with the StorageCapacityScoring gate (so it sits in
/// the score list with weight 1 and skips at run time), and DefaultPreemption
/// implements PreEnqueue as well as PostFilter. DynamicResources is in the
/// table with PreFilter only: tessera does not allocate dynamic resources,
/// and its plugin refuses pods that have resource claims.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tessera::config {

/// A scheduling-framework extension point, in pipeline order.
enum class extension_point : std::uint8_t {
  pre_enqueue,
  queue_sort,
  pre_filter,
  filter,
  post_filter,
  pre_score,
  score,
  reserve,
  permit,
  pre_bind,
  bind,
  post_bind,
};

/// Number of extension points.
inline constexpr std::size_t extension_point_count = 12;

/// All extension points in pipeline order (the order of v1.Plugins' fields).
inline constexpr extension_point all_extension_points[extension_point_count] = {
  extension_point::pre_enqueue, extension_point::queue_sort,
  extension_point::pre_filter,  extension_point::filter,
  extension_point::post_filter, extension_point::pre_score,
  extension_point::score,       extension_point::reserve,
  extension_point::permit,      extension_point::pre_bind,
  extension_point::bind,        extension_point::post_bind,
};

/// The v1 field name of an extension point's PluginSet ("preFilter").
std::string_view field_name(extension_point p) noexcept;

/// The framework's interface name for an extension point ("PreFilterPlugin"),
/// as upstream's start-up errors print it.
std::string_view interface_name(extension_point p) noexcept;

/// One in-tree plugin.
struct plugin_info {
  std::string_view name;
  /// Bit `1 << extension_point` for every extension point implemented.
  std::uint16_t points = 0;
  /// Score weight in the default profile; 0 = none given (the framework then
  /// uses 1 for score plugins).
  std::int32_t default_weight = 0;
  /// True when the plugin has a `<name>Args` type in pluginConfig.
  bool has_args = false;

  bool implements(extension_point p) const noexcept {
    return (points & (1u << static_cast<unsigned>(p))) != 0;
  }
};

/// Every in-tree plugin tessera implements, in default multiPoint order. All
/// of them are enabled in the default profile.
std::span<const plugin_info> in_tree_plugins() noexcept;

/// The plugin named `name`, or nullptr.
const plugin_info* find_in_tree_plugin(std::string_view name) noexcept;

} // namespace tessera::config
