// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/object.hpp"

#include <type_traits>
#include <variant>

namespace tessera::model {

std::string_view to_string(object_kind k) noexcept {
  switch (k) {
  case object_kind::pod:
    return "Pod";
  case object_kind::node:
    return "Node";
  case object_kind::namespace_:
    return "Namespace";
  case object_kind::priority_class:
    return "PriorityClass";
  case object_kind::pod_disruption_budget:
    return "PodDisruptionBudget";
  }
  return "Unknown";
}

object_kind kind_of(const object& o) noexcept {
  // The variant's alternatives are listed in object_kind's order.
  static_assert(std::variant_size_v<object> == 5);
  static_assert(std::is_same_v<std::variant_alternative_t<0, object>, pod_ptr>);
  static_assert(
    std::is_same_v<std::variant_alternative_t<1, object>, node_ptr>);
  static_assert(
    std::is_same_v<std::variant_alternative_t<2, object>, namespace_ptr>);
  static_assert(
    std::is_same_v<std::variant_alternative_t<3, object>, priority_class_ptr>);
  static_assert(std::is_same_v<std::variant_alternative_t<4, object>,
                               disruption_budget_ptr>);
  return static_cast<object_kind>(o.index());
}

} // namespace tessera::model
