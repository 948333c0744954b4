// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/decode.hpp"

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

error resolve_priority(pod& p, const std::vector<priority_class_ptr>& classes) {
  if (p.priority_class_name.empty()) {
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
  if (const auto* c = by_name(classes, p.priority_class_name)) {
    p.priority = c->value;
    p.preemption = c->preemption;
    return {};
  }
  for (const auto& b : builtin_classes) {
    if (b.name == p.priority_class_name) {
      p.priority = b.value;
      p.preemption = preemption_policy::preempt_lower_priority;
      return {};
    }
  }
  return make_error(ec::not_found, "no PriorityClass with name "
                                     + p.priority_class_name + " was found");
}

} // namespace tessera::model
