// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `object`: any Kubernetes object kind the scheduler consumes, as one
/// immutable shared value. Sources (files, watches, the embedded store) hand
/// these to the cache.
#pragma once

#include "model/cluster_objects.hpp"
#include "model/node.hpp"
#include "model/pod.hpp"
#include "model/storage.hpp"

#include <optional>
#include <string_view>
#include <variant>

namespace tessera::model {

enum class object_kind : std::uint8_t {
  pod,
  node,
  namespace_,
  priority_class,
  pod_disruption_budget,
  service,
  replication_controller,
  replica_set,
  stateful_set,
  persistent_volume,
  persistent_volume_claim,
  storage_class,
  csi_node,
  csi_driver,
  csi_storage_capacity,
  volume_attachment,
};

/// The Kind: "Pod", "Node", "Namespace", "PriorityClass",
/// "PodDisruptionBudget", "Service", "ReplicationController", "ReplicaSet",
/// "StatefulSet", "PersistentVolume", "PersistentVolumeClaim",
/// "StorageClass", "CSINode", "CSIDriver", "CSIStorageCapacity",
/// "VolumeAttachment".
std::string_view to_string(object_kind k) noexcept;
/// The kind spelled `s` (as `to_string` spells it); nullopt for anything else.
std::optional<object_kind> parse_object_kind(std::string_view s) noexcept;

/// One alternative per kind, in object_kind's order, except that the four
/// workload kinds share `workload_ptr` (its `kind` tells them apart).
using object
  = std::variant<pod_ptr, node_ptr, namespace_ptr, priority_class_ptr,
                 disruption_budget_ptr, workload_ptr, persistent_volume_ptr,
                 persistent_volume_claim_ptr, storage_class_ptr, csi_node_ptr,
                 csi_driver_ptr, csi_storage_capacity_ptr,
                 volume_attachment_ptr>;

/// The object kind of a workload kind, and back (nullopt for other kinds).
object_kind kind_of(workload_kind k) noexcept;
std::optional<workload_kind> workload_kind_of(object_kind k) noexcept;

/// The kind of a held object.
object_kind kind_of(const object& o) noexcept;

} // namespace tessera::model
