// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `storage_view`: the storage objects of the cluster as one immutable
/// value, with the cache's assumed volume bindings folded in (a volume an
/// assumed pod took carries its claim; a claim an assumed pod will have
/// provisioned carries the selected node). The cache builds it; the volume
/// plugins read it from the cluster context, and the cache's assume check
/// reads the newest one.
///
/// The binder's matching rule (which available volume a claim may take on a
/// node) lives here because both read it: VolumeBinding's Filter on the
/// cycle's view, the cache's assume on the current one.
#pragma once

#include "model/labels.hpp"
#include "model/pod.hpp"
#include "model/storage.hpp"
#include "model/symbol.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::model {

/// "namespace/name" of a claim.
std::string claim_key(symbol ns, std::string_view name);

/// The volume writes PreBind must make for a pod on a node: static volumes
/// to bind to claims, claims to annotate for provisioning.
struct volume_binding_plan {
  struct static_binding {
    persistent_volume_claim_ptr claim;
    /// The volume as it was when chosen (its claimRef still unset).
    persistent_volume_ptr volume;
  };
  std::vector<static_binding> bindings;
  std::vector<persistent_volume_claim_ptr> provisions;

  bool empty() const noexcept {
    return bindings.empty() && provisions.empty();
  }
};
using volume_binding_plan_ptr = std::shared_ptr<const volume_binding_plan>;

class storage_view {
public:
  /// Objects by key; the builder fills them.
  std::unordered_map<std::string, persistent_volume_ptr> volumes;
  /// By claim_key().
  std::unordered_map<std::string, persistent_volume_claim_ptr> claims;
  std::unordered_map<std::string, storage_class_ptr> classes;
  std::unordered_map<symbol, csi_node_ptr> csi_nodes;
  std::unordered_map<std::string, csi_driver_ptr> drivers;
  std::vector<csi_storage_capacity_ptr> capacities;
  /// Attached volumes per node (VolumeAttachments of CSI drivers).
  std::unordered_map<symbol, std::vector<attachable_volume>> attachments;
  /// claim_key() -> how many pods in the cluster (bound or assumed) use it.
  std::unordered_map<std::string, std::int32_t> claim_users;

  /// Builds the lookup index of volumes still free to bind. Call once after
  /// filling `volumes`.
  void index();

  const persistent_volume_claim* claim(symbol ns,
                                       std::string_view name) const noexcept;
  const persistent_volume* volume(std::string_view name) const noexcept;
  const storage_class* class_named(std::string_view name) const noexcept;
  const csi_node* csi_node_of(symbol node) const noexcept;
  const csi_driver* driver(std::string_view name) const noexcept;
  std::int32_t users_of(symbol ns, std::string_view claim) const noexcept;

  /// True when `claim` waits for its first consumer: unbound, and its class
  /// exists with volumeBindingMode WaitForFirstConsumer. `class_missing` is
  /// set when the claim names a class that does not exist.
  bool delays_binding(const persistent_volume_claim& claim,
                      bool& class_missing) const noexcept;

  /// The smallest free volume that `claim` may take on the node (labels and
  /// name): same class, not taken, access modes and volume mode covered,
  /// capacity large enough, the claim's selector and the volume's node
  /// affinity satisfied; a volume pre-bound to the claim (claimRef) or
  /// named by it (volumeName) is the only candidate for it. Volumes in
  /// `chosen` are skipped (already picked for the pod's other claims).
  persistent_volume_ptr
  find_matching_volume(const persistent_volume_claim& claim,
                       const label_set& node_labels, symbol node_name,
                       const std::unordered_set<std::string>& chosen) const;

  /// True when `capacity` objects let a claim of `class_name` with the
  /// claim's request be provisioned on the node (only asked for drivers
  /// with storageCapacity: true).
  bool has_capacity(const storage_class& cls,
                    const persistent_volume_claim& claim,
                    const label_set& node_labels) const noexcept;

private:
  /// Volumes free to bind (no claimRef, or pre-bound to a claim that is not
  /// bound yet), by class, then by the one hostname their node affinity
  /// names (empty key: any other node affinity, or none).
  std::unordered_map<
    std::string,
    std::unordered_map<std::string, std::vector<persistent_volume_ptr>>>
    free_;
};
using storage_view_ptr = std::shared_ptr<const storage_view>;

/// True when the volume's node affinity admits the node.
bool volume_reachable(const persistent_volume& pv, const label_set& node_labels,
                      symbol node_name) noexcept;

} // namespace tessera::model
