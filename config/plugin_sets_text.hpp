// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Test helpers: `plugin_sets` as compact text, one line per extension point
/// that has plugins ("score: TaintToleration(3) NodeAffinity(2)"), so that
/// golden tests compare whole profiles in one readable string. Used by
/// config's tests only.
#pragma once

#include "config/scheduler_config.hpp"

#include <sstream>
#include <string>

namespace tessera::config::testing {

/// The text form of `sets`; score plugins carry their weight.
inline std::string describe(const plugin_sets& sets) {
  std::string out;
  for (auto p : all_extension_points) {
    const auto& list = sets.at(p);
    if (list.empty())
      continue;
    out += field_name(p);
    out += ':';
    for (const auto& ref : list) {
      out += ' ' + ref.name;
      if (p == extension_point::score)
        out += '(' + std::to_string(ref.weight) + ')';
    }
    out += '\n';
  }
  return out;
}

/// The text form of the default profile's plugins.
inline const std::string& default_plugin_text() {
  static const std::string text
    = "preEnqueue: SchedulingGates\n"
      "queueSort: PrioritySort\n"
      "preFilter: NodeAffinity NodePorts NodeResourcesFit VolumeRestrictions "
      "NodeVolumeLimits VolumeBinding VolumeZone PodTopologySpread "
      "InterPodAffinity DynamicResources NodeDeclaredFeatures\n"
      "filter: NodeUnschedulable NodeName TaintToleration NodeAffinity "
      "NodePorts NodeResourcesFit VolumeRestrictions NodeVolumeLimits "
      "VolumeBinding VolumeZone PodTopologySpread InterPodAffinity "
      "NodeDeclaredFeatures\n"
      "postFilter: DefaultPreemption\n"
      "preScore: TaintToleration NodeAffinity NodeResourcesFit VolumeBinding "
      "PodTopologySpread InterPodAffinity NodeResourcesBalancedAllocation\n"
      "score: TaintToleration(3) NodeAffinity(2) NodeResourcesFit(1) "
      "VolumeBinding(1) PodTopologySpread(2) InterPodAffinity(2) "
      "NodeResourcesBalancedAllocation(1) ImageLocality(1)\n"
      "reserve: VolumeBinding\n"
      "preBind: VolumeBinding\n"
      "bind: DefaultBinder\n";
  return text;
}

/// The default text with the lines of `patch` replacing those of the same
/// extension point; a patch line with nothing after the colon removes the
/// point.
inline std::string patched_default_text(const std::string& patch) {
  std::string out;
  std::istringstream lines(default_plugin_text());
  for (std::string line; std::getline(lines, line);) {
    auto point = line.substr(0, line.find(':') + 1);
    std::string replacement = line;
    std::istringstream patches(patch);
    for (std::string p; std::getline(patches, p);)
      if (p.starts_with(point))
        replacement = p;
    if (replacement != point)
      out += replacement + "\n";
  }
  return out;
}

} // namespace tessera::config::testing
