// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Pod affinity term matching, as kube-scheduler's AffinityTerm does it.
///
/// A term matches a pod when the pod's namespace is one of the term's
/// namespaces, or the term's namespaceSelector matches the labels of the
/// pod's namespace, and the term's label selector matches the pod's labels.
/// A term with neither namespaces nor a namespaceSelector means "the owning
/// pod's namespace"; a nil namespaceSelector matches no namespace, an empty
/// one matches every namespace.
///
/// Two forms:
/// - `resolved_term`: a term of the pod being scheduled, with its
///   namespaceSelector resolved against the cluster's namespaces once per
///   cycle (upstream's mergeAffinityTermNamespacesIfNotEmpty). Matching an
///   existing pod then needs no namespace lookup.
/// - `term_matches`: a term of an existing pod (or of a waiting pod in a
///   queueing hint), matched against the pod being scheduled with that pod's
///   namespace labels.
#pragma once

#include "model/affinity.hpp"
#include "model/labels.hpp"
#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/cluster_context.hpp"

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::plugins::inter_pod_affinity_detail {

/// A term of the pod being scheduled with its namespaces resolved.
struct resolved_term {
  model::symbol topology_key;
  model::label_selector selector = model::label_selector::nothing();
  /// The explicit namespaces, the owner's namespace (no namespaces and no
  /// namespaceSelector), plus those the namespaceSelector selected.
  boost::container::small_vector<model::symbol, 2> namespaces;
  /// The namespaceSelector was empty: every namespace matches.
  bool all_namespaces = false;
  /// The preference weight (0 for required terms).
  std::int32_t weight = 0;

  /// True when `p` is in one of the namespaces and matches the selector.
  /// The selector is checked first: most pods fail it, and the pod's labels
  /// are then the only memory the check touches.
  bool matches(const model::pod_core& p) const noexcept {
    return matches(p.labels.view(), p.ns);
  }
  /// The same for a pod known by its labels and namespace (a node_info's
  /// pod digest).
  bool matches(model::label_view labels, model::symbol ns) const noexcept {
    if (!selector.matches(labels))
      return false;
    return all_namespaces
           || std::find(namespaces.begin(), namespaces.end(), ns)
                != namespaces.end();
  }
};

/// Resolves `term` of `owner` against the namespaces in `cluster`.
resolved_term resolve_term(const model::pod_affinity_term& term,
                           const model::pod_core& owner,
                           const cluster_context& cluster,
                           std::int32_t weight = 0);

/// Resolves every required term of `terms` (may be absent).
std::vector<resolved_term>
resolve_required(const std::optional<model::pod_affinity>& terms,
                 const model::pod_core& owner, const cluster_context& cluster);

/// Resolves every preferred term of `terms` (may be absent), with weights.
std::vector<resolved_term>
resolve_preferred(const std::optional<model::pod_affinity>& terms,
                  const model::pod_core& owner, const cluster_context& cluster);

/// True when `p` matches every term; false for no terms (upstream's
/// podMatchesAllAffinityTerms).
bool matches_all(const std::vector<resolved_term>& terms,
                 const model::pod_core& p) noexcept;
/// The same for a pod known by its labels and namespace.
bool matches_all(const std::vector<resolved_term>& terms,
                 model::label_view labels, model::symbol ns) noexcept;

/// Whether `term`, owned by `owner`, matches `target`, whose namespace
/// carries `target_namespace_labels` (empty when the namespace is unknown).
bool term_matches(const model::pod_affinity_term& term,
                  const model::pod_core& owner, const model::pod_core& target,
                  const model::label_set& target_namespace_labels) noexcept;

} // namespace tessera::plugins::inter_pod_affinity_detail
