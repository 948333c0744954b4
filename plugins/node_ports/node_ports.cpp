// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_ports/node_ports.hpp"

namespace tessera::plugins {

node_ports::node_ports()
  : reason_ports_(
    "node(s) didn't have free ports for the requested pod ports") {
}

bool node_ports::ports_fit(std::span<const model::host_port> wanted,
                           std::span<const model::host_port> in_use) noexcept {
  for (const auto& w : wanted)
    for (const auto& u : in_use)
      if (model::conflicts(w, u))
        return false;
  return true;
}

std::vector<cluster_event_with_hint> node_ports::events_to_register() const {
  // Container ports are immutable, so only a deletion can free a port; it
  // matters when the deleted pod was on (or nominated to) a node and held
  // a port this pod wants.
  auto pod_deleted = [](const model::pod& waiting,
                        const model::object* old_object,
                        const model::object* new_object) {
    const model::object* obj = old_object != nullptr ? old_object : new_object;
    const model::pod* deleted = object_as<model::pod_ptr>(obj);
    if (deleted == nullptr)
      return queueing_hint::queue;
    const model::pod& gone = *deleted;
    if (gone.node_name.empty() && gone.nominated_node_name.empty())
      return queueing_hint::skip;
    if (gone.host_ports.empty())
      return queueing_hint::skip;
    return ports_fit(waiting.host_ports, gone.host_ports)
             ? queueing_hint::skip
             : queueing_hint::queue;
  };
  return {
    {{event_resource::pod, action::remove}, pod_deleted},
    {{event_resource::node, action::add}, {}},
  };
}

pre_filter_result node_ports::pre_filter(cycle_state&, const model::pod& p,
                                         const cluster_context&) const {
  if (p.host_ports.empty())
    return {status::skip(), std::nullopt};
  return {};
}

status node_ports::filter(const cycle_state&, const model::pod& p,
                          model::node_view node) const {
  for (const auto& wanted : p.host_ports)
    if (node.port_in_use(wanted))
      return {code::unschedulable, reason_ports_};
  return {};
}

std::shared_ptr<plugin> make_node_ports() {
  return std::make_shared<node_ports>();
}

} // namespace tessera::plugins
