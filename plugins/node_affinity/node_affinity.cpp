// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_affinity/node_affinity.hpp"

#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/normalize.hpp"

#include <string>
#include <unordered_set>
#include <utility>

namespace tessera::plugins {

node_affinity::node_affinity(const config::node_affinity_args& args)
  : reason_pod_("node(s) didn't match Pod's node affinity/selector"),
    reason_enforced_("node(s) didn't match scheduler-enforced node affinity"),
    reason_conflict_("pod affinity terms conflict"),
    name_field_("metadata.name") {
  if (args.added_affinity) {
    added_required_ = args.added_affinity->required;
    added_preferred_ = args.added_affinity->preferred;
  }
}

bool node_affinity::pod_requirement_matches(const model::pod& p,
                                            const model::label_set& labels,
                                            model::symbol node_name) noexcept {
  // nodeSelector: every pair must be a label of the node (an absent key
  // never matches, even for an empty value).
  for (const auto& wanted : p.node_selector) {
    const model::symbol* value = labels.find(wanted.key);
    if (value == nullptr || *value != wanted.value)
      return false;
  }
  const auto& na = p.affinity->node;
  if (na && na->required)
    return na->required->matches(labels, node_name);
  return true;
}

std::vector<cluster_event_with_hint> node_affinity::events_to_register() const {
  auto hint = [added = added_required_](const model::pod& waiting,
                                        const model::object* old_object,
                                        const model::object* new_object) {
    const model::node* after = object_as<model::node_ptr>(new_object);
    if (after == nullptr)
      return queueing_hint::queue;
    const model::node& now = *after;
    if (added && !added->matches(now.labels, now.name))
      return queueing_hint::skip;
    if (!pod_requirement_matches(waiting, now.labels, now.name))
      return queueing_hint::skip;
    const model::node* before = object_as<model::node_ptr>(old_object);
    if (before == nullptr)
      return queueing_hint::queue;
    // An update helps only if it turned a mismatch into a match.
    const model::node& was = *before;
    return pod_requirement_matches(waiting, was.labels, was.name)
             ? queueing_hint::skip
             : queueing_hint::queue;
  };
  return {{{event_resource::node, action::add | action::update_node_label},
           std::move(hint)}};
}

pre_filter_result node_affinity::pre_filter(cycle_state&, const model::pod& p,
                                            const cluster_context&) const {
  const auto& na = p.affinity->node;
  const bool no_required = !na || !na->required;
  if (no_required && !added_required_ && p.node_selector.empty())
    return {status::skip(), std::nullopt};
  if (no_required || na->required->terms.empty())
    return {{}, std::nullopt};

  // Terms are ORed: if any term does not pin node names, every node may
  // match. Within a term the metadata.name In requirements are ANDed.
  std::optional<std::unordered_set<model::symbol>> names;
  for (const auto& term : na->required->terms) {
    std::optional<std::unordered_set<model::symbol>> term_names;
    for (const auto& r : term.match_fields) {
      if (r.key != name_field_
          || r.oper != model::node_selector_requirement::op::in)
        continue;
      std::unordered_set<model::symbol> listed(r.values.begin(),
                                               r.values.end());
      if (!term_names) {
        term_names = std::move(listed);
        continue;
      }
      std::unordered_set<model::symbol> both;
      for (auto n : *term_names)
        if (listed.count(n) != 0)
          both.insert(n);
      term_names = std::move(both);
    }
    if (!term_names)
      return {{}, std::nullopt};
    if (!names)
      names.emplace();
    names->insert(term_names->begin(), term_names->end());
  }
  if (names && names->empty())
    return {{code::unschedulable_and_unresolvable, reason_conflict_},
            std::nullopt};
  return {{}, std::move(names)};
}

status node_affinity::filter(const cycle_state&, const model::pod& p,
                             model::node_view node) const {
  static const model::label_set no_labels;
  const model::node* n = node.get_node();
  const model::label_set& labels = n != nullptr ? n->labels : no_labels;
  if (added_required_ && !added_required_->matches(labels, node.name()))
    return {code::unschedulable_and_unresolvable, reason_enforced_};
  if (!pod_requirement_matches(p, labels, node.name()))
    return {code::unschedulable_and_unresolvable, reason_pod_};
  return {};
}

status node_affinity::pre_score(cycle_state&, const model::pod& p,
                                const cluster_context&) const {
  const auto& na = p.affinity->node;
  const bool pod_preferred = na && !na->preferred.empty();
  if (!pod_preferred && added_preferred_.empty())
    return status::skip();
  // kube-scheduler cannot parse such a preferred term and fails the
  // attempt with an error rather than scoring without it.
  if (pod_preferred)
    for (std::size_t i = 0; i < na->preferred.size(); ++i)
      if (auto bad = na->preferred[i].preference.first_problem())
        return status::make_error(
          "spec.affinity.nodeAffinity."
          "preferredDuringSchedulingIgnoredDuringExecution["
          + std::to_string(i) + "].preference.matchExpressions["
          + std::to_string(bad->first) + "]." + bad->second.field
          + ": Invalid value: \"" + bad->second.value
          + "\": " + bad->second.detail);
  return {};
}

std::int64_t node_affinity::score(const cycle_state&, const model::pod& p,
                                  const model::node_info& node) const {
  const model::node* n = node.get_node();
  if (n == nullptr)
    return 0;
  std::int64_t sum = 0;
  for (const auto& t : added_preferred_)
    if (t.preference.matches(n->labels, n->name))
      sum += t.weight;
  if (const auto& na = p.affinity->node)
    for (const auto& t : na->preferred)
      if (t.preference.matches(n->labels, n->name))
        sum += t.weight;
  return sum;
}

status node_affinity::normalize_scores(const cycle_state&, const model::pod&,
                                       std::span<node_score> scores) const {
  default_normalize_score(scores, /*reverse=*/false);
  return {};
}

std::shared_ptr<plugin>
make_node_affinity(const config::node_affinity_args& args) {
  return std::make_shared<node_affinity>(args);
}

} // namespace tessera::plugins
