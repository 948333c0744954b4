// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/taint_toleration/taint_toleration.hpp"

#include "model/taint.hpp"
#include "plugins/framework/normalize.hpp"

namespace tessera::plugins {

taint_toleration::taint_toleration()
  : reason_untolerated_("node(s) had untolerated taint(s)") {
}

std::vector<cluster_event_with_hint>
taint_toleration::events_to_register() const {
  // Queue only on the transition "some hard taint untolerated" -> "all
  // tolerated"; a new node counts as having been untolerated.
  auto node_hint = [](const model::pod& waiting,
                      const model::object* old_object,
                      const model::object* new_object) {
    const model::node* after = object_as<model::node_ptr>(new_object);
    if (after == nullptr)
      return queueing_hint::queue;
    const model::node* before = object_as<model::node_ptr>(old_object);
    const bool was_untolerated = before == nullptr
                                 || model::find_untolerated_hard_taint(
                                      before->taints, waiting.tolerations)
                                      != nullptr;
    const bool is_untolerated
      = model::find_untolerated_hard_taint(after->taints, waiting.tolerations)
        != nullptr;
    return was_untolerated && !is_untolerated ? queueing_hint::queue
                                              : queueing_hint::skip;
  };
  return {
    {{event_resource::node, action::add | action::update_node_taint},
     node_hint},
    {{event_resource::pod, action::update_pod_toleration}, hint_own_update},
  };
}

status taint_toleration::filter(const cycle_state&, const model::pod& p,
                                model::node_view node) const {
  const model::node* n = node.get_node();
  if (n == nullptr)
    return {};
  if (model::find_untolerated_hard_taint(n->taints, p.tolerations) == nullptr)
    return {};
  return {code::unschedulable_and_unresolvable, reason_untolerated_};
}

status taint_toleration::pre_score(cycle_state&, const model::pod&,
                                   const cluster_context&) const {
  return {};
}

std::int64_t taint_toleration::score(const cycle_state&, const model::pod& p,
                                     const model::node_info& node) const {
  const model::node* n = node.get_node();
  if (n == nullptr)
    return 0;
  std::int64_t intolerable = 0;
  for (const auto& t : n->taints)
    if (t.effect == model::taint_effect::prefer_no_schedule
        && !model::tolerated(t, p.tolerations))
      ++intolerable;
  return intolerable;
}

status taint_toleration::normalize_scores(const cycle_state&, const model::pod&,
                                          std::span<node_score> scores) const {
  default_normalize_score(scores, /*reverse=*/true);
  return {};
}

std::shared_ptr<plugin> make_taint_toleration() {
  return std::make_shared<taint_toleration>();
}

} // namespace tessera::plugins
