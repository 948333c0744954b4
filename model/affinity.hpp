// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `affinity_spec`: node affinity (required selector, weighted preferred terms)
/// and pod affinity / anti-affinity terms (label selector, namespaces or
/// namespaceSelector, topologyKey). `matchLabelKeys` / `mismatchLabelKeys`
/// are merged into the term's selector when the pod is decoded (as the newest
/// API server does at admission), using the owning pod's label values; the
/// original key lists are kept for display.
#pragma once

#include "model/labels.hpp"
#include "model/node_selector.hpp"
#include "model/symbol.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::model {

struct preferred_scheduling_term {
  std::int32_t weight = 0;
  node_selector_term preference;
  friend bool operator==(const preferred_scheduling_term&,
                         const preferred_scheduling_term&)
    = default;
};

struct node_affinity {
  /// requiredDuringSchedulingIgnoredDuringExecution; nullopt = no constraint.
  std::optional<node_selector> required;
  std::vector<preferred_scheduling_term> preferred;
  friend bool operator==(const node_affinity&, const node_affinity&) = default;
};

struct pod_affinity_term {
  /// Nil selector (absent) matches no pod.
  label_selector selector = label_selector::nothing();
  /// Explicit namespaces; with no namespace_selector and no namespaces, the
  /// term applies to the owning pod's namespace.
  std::vector<symbol> namespaces;
  /// nullopt = nil; an empty selector matches all namespaces.
  std::optional<label_selector> namespace_selector;
  symbol topology_key;
  std::vector<symbol> match_label_keys;
  std::vector<symbol> mismatch_label_keys;
  friend bool operator==(const pod_affinity_term&, const pod_affinity_term&)
    = default;
};

struct weighted_pod_affinity_term {
  std::int32_t weight = 0;
  pod_affinity_term term;
  friend bool operator==(const weighted_pod_affinity_term&,
                         const weighted_pod_affinity_term&)
    = default;
};

/// Used for both podAffinity and podAntiAffinity.
struct pod_affinity {
  std::vector<pod_affinity_term> required;
  std::vector<weighted_pod_affinity_term> preferred;
  bool empty() const noexcept {
    return required.empty() && preferred.empty();
  }
  friend bool operator==(const pod_affinity&, const pod_affinity&) = default;
};

struct affinity_spec {
  std::optional<node_affinity> node;
  std::optional<pod_affinity> pod;
  std::optional<pod_affinity> pod_anti;
  friend bool operator==(const affinity_spec&, const affinity_spec&) = default;
};

} // namespace tessera::model
