// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

#include "plugins/framework/cluster_event.hpp"

namespace tessera::plugins {

namespace inter_pod_affinity_detail {

// The waiting pod's required terms, as a hint sees them: namespaceSelectors
// are not resolved, and they are matched against no namespace labels (an
// empty selector matches every namespace, others only by their explicit
// namespaces), as upstream's hints do.
bool hint_matches_all(const std::vector<model::pod_affinity_term>* terms,
                      const model::pod& waiting, const model::pod& other) {
  if (terms == nullptr || terms->empty())
    return false;
  static const model::label_set no_labels;
  for (const auto& t : *terms)
    if (!term_matches(t, waiting, other, no_labels))
      return false;
  return true;
}

const std::vector<model::pod_affinity_term>*
required_terms(const std::optional<model::pod_affinity>& a) noexcept {
  return a ? &a->required : nullptr;
}

queueing_hint after_pod_change(const model::pod& waiting,
                               const model::object* old_object,
                               const model::object* new_object) {
  const model::pod* before = object_as<model::pod_ptr>(old_object);
  const model::pod* after = object_as<model::pod_ptr>(new_object);
  if (before == nullptr && after == nullptr)
    return queueing_hint::queue;
  // Unscheduled pods take no part in affinity.
  if ((after != nullptr && after->node_name.empty())
      || (before != nullptr && before->node_name.empty()))
    return queueing_hint::skip;
  const auto* affinity = required_terms(waiting.affinity->pod);
  const auto* anti = required_terms(waiting.affinity->pod_anti);
  if (before != nullptr && after != nullptr) {
    // One existing pod must satisfy all affinity terms at once, so checking
    // "all terms" is enough.
    if (!hint_matches_all(affinity, waiting, *before)
        && hint_matches_all(affinity, waiting, *after))
      return queueing_hint::queue;
    if (hint_matches_all(anti, waiting, *before)
        && !hint_matches_all(anti, waiting, *after))
      return queueing_hint::queue;
    return queueing_hint::skip;
  }
  if (after != nullptr)
    return hint_matches_all(affinity, waiting, *after) ? queueing_hint::queue
                                                       : queueing_hint::skip;
  return hint_matches_all(anti, waiting, *before) ? queueing_hint::queue
                                                  : queueing_hint::skip;
}

queueing_hint after_node_change(const model::pod& waiting,
                                const model::object* old_object,
                                const model::object* new_object) {
  const model::node* before = object_as<model::node_ptr>(old_object);
  const model::node* after = object_as<model::node_ptr>(new_object);
  if (after == nullptr)
    return queueing_hint::queue;
  // Affinity: a node that newly carries a term's key, or carries another
  // value, may now host the pod.
  if (const auto* affinity = required_terms(waiting.affinity->pod))
    for (const auto& t : *affinity) {
      const model::symbol* now = after->labels.find(t.topology_key);
      if (before == nullptr) {
        if (now != nullptr)
          return queueing_hint::queue;
        continue;
      }
      const model::symbol* was = before->labels.find(t.topology_key);
      if (was == nullptr && now != nullptr)
        return queueing_hint::queue;
      if (was != nullptr && now != nullptr && *was != *now)
        return queueing_hint::queue;
    }
  // Anti-affinity: any new node may do (a node without the key always
  // passes); an existing one when it loses the key or changes its value.
  if (const auto* anti = required_terms(waiting.affinity->pod_anti))
    for (const auto& t : *anti) {
      if (before == nullptr)
        return queueing_hint::queue;
      const model::symbol* was = before->labels.find(t.topology_key);
      const model::symbol* now = after->labels.find(t.topology_key);
      if (was != nullptr && now == nullptr)
        return queueing_hint::queue;
      if (was != nullptr && now != nullptr && *was != *now)
        return queueing_hint::queue;
    }
  return queueing_hint::skip;
}

} // namespace inter_pod_affinity_detail

inter_pod_affinity::inter_pod_affinity(
  const config::inter_pod_affinity_args& args)
  : args_(args), reason_affinity_(affinity_rules_not_match),
    reason_anti_affinity_(anti_affinity_rules_not_match),
    reason_existing_anti_affinity_(existing_anti_affinity_rules_not_match) {
}

std::vector<cluster_event_with_hint>
inter_pod_affinity::events_to_register() const {
  // With queueing hints on there is no preCheck, so a node's taint update
  // need not be registered (upstream registers it only with hints off).
  return {
    {{event_resource::pod,
      action::add | action::update_pod_label | action::remove},
     inter_pod_affinity_detail::after_pod_change},
    {{event_resource::node, action::add | action::update_node_label},
     inter_pod_affinity_detail::after_node_change},
  };
}

std::shared_ptr<plugin>
make_inter_pod_affinity(const config::inter_pod_affinity_args& args) {
  return std::make_shared<inter_pod_affinity>(args);
}

} // namespace tessera::plugins
