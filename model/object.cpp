// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/object.hpp"

#include "support/enum_text.hpp"

#include <type_traits>
#include <variant>

namespace tessera::model {

namespace {

constexpr enum_names<16> object_kind_names = {"Pod",
                                              "Node",
                                              "Namespace",
                                              "PriorityClass",
                                              "PodDisruptionBudget",
                                              "Service",
                                              "ReplicationController",
                                              "ReplicaSet",
                                              "StatefulSet",
                                              "PersistentVolume",
                                              "PersistentVolumeClaim",
                                              "StorageClass",
                                              "CSINode",
                                              "CSIDriver",
                                              "CSIStorageCapacity",
                                              "VolumeAttachment"};
static_assert(all_named(object_kind_names));

} // namespace

std::string_view to_string(object_kind k) noexcept {
  return enum_text(k, object_kind_names, "Unknown");
}

std::optional<object_kind> parse_object_kind(std::string_view s) noexcept {
  return enum_from_text<object_kind>(s, object_kind_names);
}

object_kind kind_of(const object& o) noexcept {
  // The variant's alternatives are listed in object_kind's order, the
  // workload kinds last and shared.
  static_assert(std::variant_size_v<object> == 13);
  static_assert(std::is_same_v<std::variant_alternative_t<0, object>, pod_ptr>);
  static_assert(
    std::is_same_v<std::variant_alternative_t<1, object>, node_ptr>);
  static_assert(
    std::is_same_v<std::variant_alternative_t<2, object>, namespace_ptr>);
  static_assert(
    std::is_same_v<std::variant_alternative_t<3, object>, priority_class_ptr>);
  static_assert(std::is_same_v<std::variant_alternative_t<4, object>,
                               disruption_budget_ptr>);
  static_assert(std::is_same_v<std::variant_alternative_t<6, object>,
                               persistent_volume_ptr>);
  if (const auto* w = std::get_if<workload_ptr>(&o))
    return *w ? kind_of((*w)->kind) : object_kind::service;
  if (o.index() < 5)
    return static_cast<object_kind>(o.index());
  // The storage kinds follow the four workload kinds.
  return static_cast<object_kind>(
    o.index() - 6 + static_cast<std::size_t>(object_kind::persistent_volume));
}

namespace {

struct workload_kind_pair {
  workload_kind workload;
  object_kind object;
};
constexpr workload_kind_pair workload_kinds[] = {
  {workload_kind::service, object_kind::service},
  {workload_kind::replication_controller, object_kind::replication_controller},
  {workload_kind::replica_set, object_kind::replica_set},
  {workload_kind::stateful_set, object_kind::stateful_set},
};

} // namespace

object_kind kind_of(workload_kind k) noexcept {
  for (const auto& pair : workload_kinds)
    if (pair.workload == k)
      return pair.object;
  return object_kind::service;
}

std::optional<workload_kind> workload_kind_of(object_kind k) noexcept {
  for (const auto& pair : workload_kinds)
    if (pair.object == k)
      return pair.workload;
  return std::nullopt;
}

} // namespace tessera::model
