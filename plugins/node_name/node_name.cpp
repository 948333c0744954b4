// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_name/node_name.hpp"

namespace tessera::plugins {

node_name::node_name()
  : reason_mismatch_("node(s) didn't match the requested node name") {
}

std::vector<cluster_event_with_hint> node_name::events_to_register() const {
  // A new node may be the one the pod names; no hint: always queue.
  return {{{event_resource::node, action::add}, {}}};
}

status node_name::filter(const cycle_state&, const model::pod& p,
                         model::node_view node) const {
  if (p.node_name.empty() || p.node_name == node.name())
    return {};
  return {code::unschedulable_and_unresolvable, reason_mismatch_};
}

std::shared_ptr<plugin> make_node_name() {
  return std::make_shared<node_name>();
}

} // namespace tessera::plugins
