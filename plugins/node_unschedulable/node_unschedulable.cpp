// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_unschedulable/node_unschedulable.hpp"

namespace tessera::plugins {

node_unschedulable::node_unschedulable()
  : reason_unschedulable_("node(s) were unschedulable"),
    unschedulable_taint_{model::symbol{unschedulable_taint_key},
                         model::symbol{}, model::taint_effect::no_schedule} {
}

std::vector<cluster_event_with_hint>
node_unschedulable::events_to_register() const {
  // A node that is added schedulable, or turns schedulable, may take the
  // pod. Upstream looks at spec.unschedulable only (not the pod's
  // tolerations), and so does this hint.
  auto node_hint = [](const model::pod&, const model::object* old_object,
                      const model::object* new_object) {
    const model::node* after = object_as<model::node_ptr>(new_object);
    if (after == nullptr)
      return queueing_hint::queue;
    const model::node* before = object_as<model::node_ptr>(old_object);
    const bool was_unschedulable = before != nullptr && before->unschedulable;
    const bool added = before == nullptr;
    if (after->unschedulable)
      return queueing_hint::skip;
    return added || was_unschedulable ? queueing_hint::queue
                                      : queueing_hint::skip;
  };
  // The waiting pod itself gained a toleration: queue it if it now
  // tolerates the unschedulable taint (tolerations can only be added, so
  // the old pod need not be checked).
  auto pod_hint = [taint = unschedulable_taint_](
                    const model::pod& waiting, const model::object*,
                    const model::object* new_object) {
    const model::pod* updated = object_as<model::pod_ptr>(new_object);
    if (updated == nullptr)
      return queueing_hint::queue;
    if (!updated->same_identity(waiting))
      return queueing_hint::skip;
    return model::tolerated(taint, updated->tolerations) ? queueing_hint::queue
                                                         : queueing_hint::skip;
  };
  return {
    {{event_resource::node, action::add | action::update_node_taint},
     node_hint},
    {{event_resource::pod, action::update_pod_toleration}, pod_hint},
  };
}

status node_unschedulable::filter(const cycle_state&, const model::pod& p,
                                  model::node_view node) const {
  const model::node* n = node.get_node();
  if (n == nullptr || !n->unschedulable)
    return {};
  if (model::tolerated(unschedulable_taint_, p.tolerations))
    return {};
  return {code::unschedulable_and_unresolvable, reason_unschedulable_};
}

std::shared_ptr<plugin> make_node_unschedulable() {
  return std::make_shared<node_unschedulable>();
}

} // namespace tessera::plugins
