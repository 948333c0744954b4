// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

#include "model/node.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/pod_topology_spread/default_selector.hpp"

namespace tessera::plugins {

namespace pod_topology_spread_detail {

// A changed pod takes part in the waiting pod's spreading when it is the
// waiting pod itself, or an assigned pod of the same namespace.
bool involved_in_spreading(const model::pod& changed,
                           const model::pod& waiting) noexcept {
  return changed.same_identity(waiting)
         || (!changed.node_name.empty() && changed.ns == waiting.ns);
}

bool any_selector_matches(const std::vector<spread_constraint>& constraints,
                          const model::label_set& labels) noexcept {
  for (const auto& c : constraints)
    if (c.selector.matches(labels))
      return true;
  return false;
}

bool any_honors_taints(
  const std::vector<spread_constraint>& constraints) noexcept {
  for (const auto& c : constraints)
    if (c.node_taints_policy == inclusion_policy::honor)
      return true;
  return false;
}

// A topology key's value, "" when absent (as a Go map lookup reads it).
model::symbol value_or_empty(const model::label_set& labels,
                             model::symbol key) noexcept {
  const model::symbol* v = labels.find(key);
  return v == nullptr ? model::symbol{} : *v;
}

bool topology_values_changed(
  const model::label_set& before, const model::label_set& after,
  const std::vector<spread_constraint>& constraints) noexcept {
  for (const auto& c : constraints)
    if (value_or_empty(before, c.topology_key)
        != value_or_empty(after, c.topology_key))
      return true;
  return false;
}

} // namespace pod_topology_spread_detail

model::label_selector workload_selector(const model::pod& p,
                                        const cluster_context& cluster) {
  if (!cluster.workloads)
    return model::label_selector::everything();
  return default_selector(p, *cluster.workloads);
}

model::label_selector no_default_selector(const model::pod&,
                                          const cluster_context&) {
  return model::label_selector::everything();
}

pod_topology_spread::pod_topology_spread(
  const config::pod_topology_spread_args& args, selector_source defaults)
  : system_defaulted_(args.defaulting_type
                      == config::pod_topology_spread_args::defaulting::system),
    default_selector_(std::move(defaults)),
    hostname_key_(model::node_labels::hostname),
    reason_constraints_(constraints_not_match),
    reason_missing_label_(node_label_not_match) {
  using pod_topology_spread_detail::select_constraints;
  std::vector<model::topology_spread_constraint> defaults_api;
  if (system_defaulted_) {
    model::topology_spread_constraint host;
    host.topology_key = hostname_key_;
    host.max_skew = 3;
    host.action = when_unsatisfiable::schedule_anyway;
    model::topology_spread_constraint zone;
    zone.topology_key = model::symbol{model::node_labels::zone};
    zone.max_skew = 5;
    zone.action = when_unsatisfiable::schedule_anyway;
    defaults_api = {host, zone};
  } else {
    defaults_api = args.default_constraints;
  }
  default_hard_ = select_constraints(
    defaults_api, when_unsatisfiable::do_not_schedule, hostname_key_);
  default_soft_ = select_constraints(
    defaults_api, when_unsatisfiable::schedule_anyway, hostname_key_);
}

bool pod_topology_spread::signable(const model::pod& p,
                                   const cluster_context& cluster) const {
  if (!p.topology_spread_constraints.empty())
    return false;
  if ((default_hard_.empty() && default_soft_.empty()) || !default_selector_)
    return true;
  return default_selector_(p, cluster).is_everything();
}

std::vector<pod_topology_spread::spread_constraint>
pod_topology_spread::constraints_for(const model::pod& p,
                                     when_unsatisfiable action,
                                     const cluster_context* cluster) const {
  using pod_topology_spread_detail::select_constraints;
  if (!p.topology_spread_constraints.empty())
    return select_constraints(p.topology_spread_constraints, action,
                              hostname_key_);
  // Default constraints, with the selector of the workload objects that
  // select the pod; none when that selector is empty.
  const auto& defaults = action == when_unsatisfiable::do_not_schedule
                           ? default_hard_
                           : default_soft_;
  if (defaults.empty() || !default_selector_)
    return {};
  model::label_selector selector = cluster == nullptr
                                     ? model::label_selector::everything()
                                     : default_selector_(p, *cluster);
  if (cluster != nullptr && selector.is_everything())
    return {};
  std::vector<spread_constraint> out = defaults;
  for (auto& c : out)
    c.selector = selector;
  return out;
}

std::vector<cluster_event_with_hint>
pod_topology_spread::events_to_register() const {
  using namespace pod_topology_spread_detail;
  auto pod_hint = [this](const model::pod& waiting,
                         const model::object* old_object,
                         const model::object* new_object) {
    const model::pod* before = object_as<model::pod_ptr>(old_object);
    const model::pod* after = object_as<model::pod_ptr>(new_object);
    if (before == nullptr && after == nullptr)
      return queueing_hint::queue;
    if ((after != nullptr && !involved_in_spreading(*after, waiting))
        || (before != nullptr && !involved_in_spreading(*before, waiting)))
      return queueing_hint::skip;
    auto constraints
      = constraints_for(waiting, when_unsatisfiable::do_not_schedule, nullptr);
    if (before != nullptr && after != nullptr) {
      // The waiting pod gained a toleration: a node excluded by a
      // nodeTaintsPolicy: Honor constraint may count now.
      if (after->same_identity(waiting)
          && after->tolerations != before->tolerations
          && any_honors_taints(constraints))
        return queueing_hint::queue;
      if (after->labels == before->labels)
        return queueing_hint::skip;
      for (const auto& c : constraints)
        if (c.selector.matches(before->labels)
            != c.selector.matches(after->labels))
          return queueing_hint::queue;
      return queueing_hint::skip;
    }
    const model::pod* changed = after != nullptr ? after : before;
    return any_selector_matches(constraints, changed->labels)
             ? queueing_hint::queue
             : queueing_hint::skip;
  };
  auto node_hint = [this](const model::pod& waiting,
                          const model::object* old_object,
                          const model::object* new_object) {
    const model::node* before = object_as<model::node_ptr>(old_object);
    const model::node* after = object_as<model::node_ptr>(new_object);
    if (before == nullptr && after == nullptr)
      return queueing_hint::queue;
    auto constraints
      = constraints_for(waiting, when_unsatisfiable::do_not_schedule, nullptr);
    const bool was_matching
      = before != nullptr && has_all_keys(before->labels, constraints);
    const bool is_matching
      = after != nullptr && has_all_keys(after->labels, constraints);
    if (before != nullptr && after != nullptr) {
      if (was_matching != is_matching)
        return queueing_hint::queue;
      if (is_matching
          && (topology_values_changed(before->labels, after->labels,
                                      constraints)
              || before->taints != after->taints))
        return queueing_hint::queue;
      return queueing_hint::skip;
    }
    if (after != nullptr)
      return is_matching ? queueing_hint::queue : queueing_hint::skip;
    return was_matching ? queueing_hint::queue : queueing_hint::skip;
  };
  return {
    {{event_resource::pod, action::add | action::update_pod_label
                             | action::update_pod_toleration | action::remove},
     pod_hint},
    {{event_resource::node, action::add | action::remove
                              | action::update_node_label
                              | action::update_node_taint},
     node_hint},
  };
}

std::shared_ptr<plugin>
make_pod_topology_spread(const config::pod_topology_spread_args& args) {
  return std::make_shared<pod_topology_spread>(args);
}

} // namespace tessera::plugins
