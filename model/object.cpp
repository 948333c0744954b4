// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/object.hpp"

#include "support/enum_text.hpp"

#include <type_traits>
#include <variant>

namespace tessera::model {

namespace {

constexpr enum_names<5> object_kind_names
  = {"Pod", "Node", "Namespace", "PriorityClass", "PodDisruptionBudget"};
static_assert(all_named(object_kind_names));

} // namespace

std::string_view to_string(object_kind k) noexcept {
  return enum_text(k, object_kind_names, "Unknown");
}

std::optional<object_kind> parse_object_kind(std::string_view s) noexcept {
  return enum_from_text<object_kind>(s, object_kind_names);
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
