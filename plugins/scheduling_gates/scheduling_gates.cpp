// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/scheduling_gates/scheduling_gates.hpp"

#include <string>

namespace tessera::plugins {

std::vector<cluster_event_with_hint>
scheduling_gates::events_to_register() const {
  return {
    {{event_resource::pod, action::update_pod_scheduling_gates_eliminated},
     hint_own_update}};
}

status scheduling_gates::pre_enqueue(const model::pod& p) const {
  if (p.scheduling_gates.empty())
    return {};
  // PreEnqueue runs once per queue admission, not per node: building the
  // text here is fine. Gate sets are a small vocabulary, so interning the
  // message is too.
  std::string message{reason_prefix};
  message += '[';
  for (std::size_t i = 0; i < p.scheduling_gates.size(); ++i) {
    if (i > 0)
      message += ' ';
    message += p.scheduling_gates[i];
  }
  message += ']';
  return {code::unschedulable_and_unresolvable, model::symbol{message}};
}

std::shared_ptr<plugin> make_scheduling_gates() {
  return std::make_shared<scheduling_gates>();
}

} // namespace tessera::plugins
