// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/inter_pod_affinity/affinity_terms.hpp"

namespace tessera::plugins::inter_pod_affinity_detail {

resolved_term resolve_term(const model::pod_affinity_term& term,
                           const model::pod_core& owner,
                           const cluster_context& cluster,
                           std::int32_t weight) {
  resolved_term out;
  out.topology_key = term.topology_key;
  out.selector = term.selector;
  out.weight = weight;
  if (term.namespaces.empty() && !term.namespace_selector)
    out.namespaces.push_back(owner.ns);
  else
    out.namespaces.assign(term.namespaces.begin(), term.namespaces.end());
  if (term.namespace_selector) {
    const model::label_selector& ns_selector = *term.namespace_selector;
    if (ns_selector.is_everything()) {
      out.all_namespaces = true;
    } else {
      // A selector with requirements is unrolled into the namespaces it
      // selects now; namespaces created later do not count this cycle.
      for (const auto& [name, ns] : cluster.namespaces)
        if (ns && ns_selector.matches(ns->labels)
            && std::find(out.namespaces.begin(), out.namespaces.end(), name)
                 == out.namespaces.end())
          out.namespaces.push_back(name);
    }
  }
  return out;
}

std::vector<resolved_term>
resolve_required(const std::optional<model::pod_affinity>& terms,
                 const model::pod_core& owner, const cluster_context& cluster) {
  std::vector<resolved_term> out;
  if (!terms)
    return out;
  out.reserve(terms->required.size());
  for (const auto& t : terms->required)
    out.push_back(resolve_term(t, owner, cluster));
  return out;
}

std::vector<resolved_term>
resolve_preferred(const std::optional<model::pod_affinity>& terms,
                  const model::pod_core& owner,
                  const cluster_context& cluster) {
  std::vector<resolved_term> out;
  if (!terms)
    return out;
  out.reserve(terms->preferred.size());
  for (const auto& w : terms->preferred)
    out.push_back(resolve_term(w.term, owner, cluster, w.weight));
  return out;
}

bool matches_all(const std::vector<resolved_term>& terms,
                 const model::pod_core& p) noexcept {
  return matches_all(terms, p.labels.view(), p.ns);
}

bool matches_all(const std::vector<resolved_term>& terms,
                 model::label_view labels, model::symbol ns) noexcept {
  if (terms.empty())
    return false;
  for (const auto& t : terms)
    if (!t.matches(labels, ns))
      return false;
  return true;
}

bool term_matches(const model::pod_affinity_term& term,
                  const model::pod_core& owner, const model::pod_core& target,
                  const model::label_set& target_namespace_labels) noexcept {
  if (!term.selector.matches(target.labels))
    return false;
  if (term.namespaces.empty() && !term.namespace_selector)
    return target.ns == owner.ns;
  return std::find(term.namespaces.begin(), term.namespaces.end(), target.ns)
           != term.namespaces.end()
         || (term.namespace_selector
             && term.namespace_selector->matches(target_namespace_labels));
}

} // namespace tessera::plugins::inter_pod_affinity_detail
