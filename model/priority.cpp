// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/decode.hpp"

#include <string>
#include <string_view>

namespace tessera::model {

namespace {

// The classes every API server creates at start-up; a scheduler reading
// files has none of them as objects, yet pods name them.
struct builtin_class {
  std::string_view name;
  std::int32_t value;
};
constexpr builtin_class builtin_classes[] = {
  {"system-node-critical", 2000001000},
  {"system-cluster-critical", 2000000000},
};

// With several global defaults (a race the API server cannot rule out) the
// one with the lowest value wins, as in the Priority admission plugin.
const priority_class*
global_default(const std::vector<priority_class_ptr>& classes) noexcept {
  const priority_class* found = nullptr;
  for (const auto& c : classes)
    if (c && c->global_default && (!found || c->value < found->value))
      found = c.get();
  return found;
}

const priority_class* by_name(const std::vector<priority_class_ptr>& classes,
                              std::string_view name) noexcept {
  for (const auto& c : classes)
    if (c && c->name == name)
      return c.get();
  return nullptr;
}

} // namespace

namespace {

// Sets the class's value and policy; a priority the pod gives must be the
// class's, as the Priority admission plugin insists.
error apply_class(pod& p, std::int32_t value, preemption_policy preemption,
                  std::string_view class_name) {
  if (p.priority_given && p.priority != value)
    return make_error(ec::invalid_input,
                      "spec.priority: " + std::to_string(p.priority)
                        + " contradicts PriorityClass "
                        + std::string{class_name} + ", whose value is "
                        + std::to_string(value));
  p.priority = value;
  p.preemption = preemption;
  return {};
}

} // namespace

error resolve_priority(pod& p, const std::vector<priority_class_ptr>& classes) {
  if (p.priority_class_name.empty()) {
    // A priority written without a class is taken as given: the pod stands
    // for one that was admitted with it.
    if (p.priority_given)
      return {};
    // No class: the global default (whose name the pod then carries), else
    // priority 0 and the default preemption policy.
    if (const auto* d = global_default(classes)) {
      p.priority_class_name = d->name;
      p.priority = d->value;
      p.preemption = d->preemption;
    } else {
      p.priority = 0;
      p.preemption = preemption_policy::preempt_lower_priority;
    }
    return {};
  }
  if (const auto* c = by_name(classes, p.priority_class_name))
    return apply_class(p, c->value, c->preemption, c->name);
  for (const auto& b : builtin_classes)
    if (b.name == p.priority_class_name)
      return apply_class(p, b.value, preemption_policy::preempt_lower_priority,
                         b.name);
  return make_error(ec::not_found, "spec.priorityClassName: no PriorityClass "
                                   "with name "
                                     + p.priority_class_name + " was found");
}

} // namespace tessera::model
