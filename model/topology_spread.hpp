// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `topology_spread_constraint` (v1.TopologySpreadConstraint). Defaults are
/// applied at decode time as kube-scheduler reads them: minDomains absent = 1,
/// nodeAffinityPolicy absent = Honor, nodeTaintsPolicy absent = Ignore.
/// matchLabelKeys are merged into `selector` at decode time (key In [pod's
/// value]; keys the pod lacks are ignored).
#pragma once

#include "model/labels.hpp"
#include "model/symbol.hpp"

#include <cstdint>
#include <vector>

namespace tessera::model {

struct topology_spread_constraint {
  enum class when_unsatisfiable : std::uint8_t {
    do_not_schedule,
    schedule_anyway
  };
  enum class inclusion_policy : std::uint8_t { honor, ignore };

  std::int32_t max_skew = 1;
  symbol topology_key;
  when_unsatisfiable action = when_unsatisfiable::do_not_schedule;
  /// Nil (absent) selector matches no pod.
  label_selector selector = label_selector::nothing();
  std::int32_t min_domains = 1;
  /// True when minDomains was given explicitly.
  bool min_domains_set = false;
  inclusion_policy node_affinity_policy = inclusion_policy::honor;
  inclusion_policy node_taints_policy = inclusion_policy::ignore;
  std::vector<symbol> match_label_keys;

  friend bool operator==(const topology_spread_constraint&,
                         const topology_spread_constraint&)
    = default;
};

} // namespace tessera::model
