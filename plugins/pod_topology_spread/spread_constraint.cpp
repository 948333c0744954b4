// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/pod_topology_spread/spread_constraint.hpp"

#include "model/taint.hpp"

namespace tessera::plugins::pod_topology_spread_detail {

std::vector<spread_constraint>
select_constraints(const std::vector<model::topology_spread_constraint>& from,
                   when_unsatisfiable action, model::symbol hostname_key) {
  std::vector<spread_constraint> out;
  for (const auto& c : from) {
    if (c.action != action)
      continue;
    spread_constraint s;
    s.max_skew = c.max_skew;
    s.topology_key = c.topology_key;
    s.selector = c.selector;
    s.min_domains = c.min_domains;
    s.node_affinity_policy = c.node_affinity_policy;
    s.node_taints_policy = c.node_taints_policy;
    s.hostname = c.topology_key == hostname_key;
    out.push_back(std::move(s));
  }
  return out;
}

bool has_all_keys(const model::label_set& labels,
                  const std::vector<spread_constraint>& constraints) noexcept {
  for (const auto& c : constraints)
    if (!labels.contains(c.topology_key))
      return false;
  return true;
}

bool matches_required_node_affinity(const model::pod& p,
                                    const model::node& node) noexcept {
  for (const auto& l : p.node_selector) {
    const model::symbol* value = node.labels.find(l.key);
    if (value == nullptr || *value != l.value)
      return false;
  }
  if (p.affinity->node && p.affinity->node->required)
    return p.affinity->node->required->matches(node.labels, node.name);
  return true;
}

bool passes_inclusion_policies(const spread_constraint& c, const model::pod& p,
                               const model::node& node,
                               bool node_affinity_ok) noexcept {
  if (c.node_affinity_policy == inclusion_policy::honor && !node_affinity_ok)
    return false;
  if (c.node_taints_policy == inclusion_policy::honor
      && model::find_untolerated_hard_taint(node.taints, p.tolerations)
           != nullptr)
    return false;
  return true;
}

std::int64_t count_matching(const std::vector<model::pod_ptr>& pods,
                            const model::label_selector& selector,
                            model::symbol ns) noexcept {
  if (selector.is_everything())
    return 0;
  std::int64_t n = 0;
  for (const auto& p : pods) {
    // The selector first: it fails for most pods, and their labels are then
    // all the memory this touches. Pods being deleted are on their way out
    // (kubernetes/kubernetes#87621).
    if (selector.matches(p->labels) && !p->deleting && p->ns == ns)
      ++n;
  }
  return n;
}

std::int64_t count_matching(const model::node_info& node,
                            const model::label_selector& selector,
                            model::symbol ns) noexcept {
  if (selector.is_everything())
    return 0;
  std::int64_t n = 0;
  for (const auto& d : node.pod_digests())
    if (d.ns == ns && !d.deleting && selector.matches(node.labels_of(d)))
      ++n;
  return n;
}

} // namespace tessera::plugins::pod_topology_spread_detail
