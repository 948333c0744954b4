// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/scheduling_gates/scheduling_gates.hpp"

#include <string>
#include <variant>

namespace tessera::plugins {

std::vector<cluster_event_with_hint>
scheduling_gates::events_to_register() const {
  auto hint = [](const model::pod& waiting, const model::object*,
                 const model::object* new_object) {
    const auto* updated
      = new_object ? std::get_if<model::pod_ptr>(new_object) : nullptr;
    if (updated == nullptr || *updated == nullptr)
      return queueing_hint::queue;
    return (*updated)->same_identity(waiting) ? queueing_hint::queue
                                              : queueing_hint::skip;
  };
  return {
    {{event_resource::pod, action::update_pod_scheduling_gates_eliminated},
     hint}};
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
