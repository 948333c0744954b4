// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `resource_info`: the static table of resources the embedded API server
/// serves (docs/apiserver-protocol.md §1.2) — their group/version, plural,
/// Kind, scope, verbs and subresources — and `storage_kind`, the storage each
/// one lives in. Core/v1 events and events.k8s.io/v1 events are two views of
/// one storage (`storage_kind::event`), so `view` tells them apart. Discovery,
/// routing and the store all read this one table.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tessera::apiserver {

/// Where objects live; one ordered map per storage kind.
enum class storage_kind : std::uint8_t {
  pod,
  node,
  namespace_,
  event,
  lease,
  pod_disruption_budget,
  priority_class,
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
  deployment,
  job,
  config_map,
  secret,
  service_account,
  daemon_set,
};
inline constexpr std::size_t storage_kind_count = 24;

/// How objects of a resource are presented: stored form, or converted.
enum class resource_view : std::uint8_t {
  stored,
  /// events.k8s.io/v1 Event converted from the stored core/v1 Event.
  events_v1,
};

struct resource_info {
  std::string_view group;
  std::string_view version;
  /// Plural resource name, e.g. "pods".
  std::string_view name;
  std::string_view singular;
  std::string_view kind;
  std::string_view list_kind;
  bool namespaced = true;
  storage_kind storage = storage_kind::pod;
  resource_view view = resource_view::stored;
  /// Comma-separated short names for discovery ("po").
  std::string_view short_names;
  /// Comma-separated verbs for discovery.
  std::string_view verbs;
  /// Has a `status` subresource (writes to the main resource ignore status,
  /// writes to /status ignore everything else).
  bool has_status = false;
  /// Updates must carry metadata.resourceVersion (leases).
  bool requires_resource_version = false;

  /// "v1" or "group/version".
  std::string api_version() const;
  /// The resource as named in messages: "pods", "leases.coordination.k8s.io".
  std::string qualified_name() const;
};

/// Every served resource.
std::span<const resource_info> all_resources() noexcept;

/// The resource for (group, version, plural), or nullptr.
const resource_info* find_resource(std::string_view group,
                                   std::string_view version,
                                   std::string_view name) noexcept;

/// The resource that presents `storage` in its stored form (core/v1 events
/// for `storage_kind::event`).
const resource_info& primary_resource(storage_kind storage) noexcept;

/// The group versions served under /apis (every group but core), in
/// discovery order.
std::span<const std::string_view> api_groups() noexcept;

} // namespace tessera::apiserver
