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
#include "model/shared_map.hpp"
#include "model/storage.hpp"
#include "model/symbol.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
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
  /// Objects by key. Volumes change through set_volume / erase_volume
  /// (which keep the index), or are filled directly and then index()ed.
  shared_map<std::string, persistent_volume_ptr> volumes;
  /// By claim_key().
  shared_map<std::string, persistent_volume_claim_ptr> claims;
  std::unordered_map<std::string, storage_class_ptr> classes;
  shared_map<symbol, csi_node_ptr> csi_nodes;
  /// Per CSI driver, the smallest attach limit any CSINode gives it; a
  /// driver no CSINode limits is absent. A pod whose volumes, with every
  /// volume on a node, stay within this fits the node's limits without its
  /// CSINode being looked up (most nodes, most of the time).
  std::unordered_map<std::string, std::int64_t> smallest_limits;
  std::unordered_map<std::string, csi_driver_ptr> drivers;
  std::vector<csi_storage_capacity_ptr> capacities;
  /// Attached volumes per node (VolumeAttachments of CSI drivers), as the
  /// attached volume's driver and handle when the volume is known.
  std::unordered_map<symbol, std::vector<attachable_volume>> attachments;
  /// claim_key() -> how many pods in the cluster (bound or assumed) use it;
  /// kept only for ReadWriteOncePod claims, the only ones a rule counts.
  std::unordered_map<std::string, std::int32_t> claim_users;

  /// Builds the volume indexes and `smallest_limits` anew. Call after
  /// filling `volumes` or `csi_nodes` directly.
  void index();
  /// Adds or replaces a volume, keeping the indexes (the free-volume index
  /// is rebuilt by refresh() when a free volume changed).
  void set_volume(persistent_volume_ptr pv);
  void erase_volume(const std::string& name);
  /// Rebuilds what set_volume / erase_volume left stale.
  void refresh();

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
  /// affinity satisfied. A volume the claim names (volumeName) or whose
  /// claimRef names the claim (pre-bound, or taken by an assumed pod) is the
  /// only candidate for it. Volumes in `chosen` are skipped (already picked
  /// for the pod's other claims).
  persistent_volume_ptr
  find_matching_volume(const persistent_volume_claim& claim,
                       const label_set& node_labels, symbol node_name,
                       const std::unordered_set<std::string>& chosen) const;

  /// True when a volume is set aside for `claim`: the claim names it
  /// (volumeName) or its claimRef names the claim (pre-bound, or taken by
  /// an assumed pod). Such a claim ends up bound to that volume, so it is
  /// never provisioned instead.
  bool has_reserved_volume(const persistent_volume_claim& claim) const;

  /// True when `capacity` objects let a claim of `class_name` with the
  /// claim's request be provisioned on the node (only asked for drivers
  /// with storageCapacity: true).
  bool has_capacity(const storage_class& cls,
                    const persistent_volume_claim& claim,
                    const label_set& node_labels) const noexcept;

private:
  /// Volumes free to bind (no claimRef), by class, then by the one hostname
  /// their node affinity names (empty key: any other node affinity, or
  /// none); each list smallest first.
  using free_index = std::unordered_map<
    std::string,
    std::unordered_map<std::string, std::vector<persistent_volume_ptr>>>;
  void index_free();
  void unclaim(const persistent_volume& pv);

  std::shared_ptr<const free_index> free_;
  bool free_stale_ = false;
  /// claim_key() -> the volume whose claimRef names that claim.
  shared_map<std::string, persistent_volume_ptr> claimed_;
};
using storage_view_ptr = std::shared_ptr<const storage_view>;

/// A pod's claims as VolumeBinding's PreFilter sorts them.
struct pod_claims {
  /// Bound (volumeName and bind-completed).
  std::vector<persistent_volume_claim_ptr> bound;
  /// The volume of each bound claim (same order; null when it does not
  /// exist), looked up once for all nodes.
  std::vector<persistent_volume_ptr> bound_volumes;
  /// Unbound, with a WaitForFirstConsumer class: bound or provisioned for
  /// the node the pod goes to.
  std::vector<persistent_volume_claim_ptr> delayed;
  /// Unbound, with Immediate binding: the PV controller must bind them
  /// first.
  std::vector<persistent_volume_claim_ptr> immediate;
};

/// Why a pod's claims cannot be sorted (VolumeBinding's PreFilter).
struct claims_problem {
  /// The message, e.g. `persistentvolumeclaim "data" not found`.
  std::string message;
  /// True for an unusable claim (UnschedulableAndUnresolvable); false for
  /// an error (a claim naming a class that does not exist).
  bool unresolvable = true;
};

/// Sorts the claims `p` uses (persistentVolumeClaim and generic ephemeral
/// volumes; each claim once). Fails on a missing claim, a claim being
/// deleted, a Lost claim, an ephemeral claim the pod does not own, or an
/// unbound claim naming a class that does not exist. Delayed claims come
/// smallest request first, as the binder matches them.
std::optional<claims_problem> sort_claims(const storage_view& view,
                                          const pod& p, pod_claims& out);

/// What the pod's claims find on one node (VolumeBinding's Filter; the
/// cache's assume asks the same on the newest view).
struct claim_fit {
  /// Every bound claim's volume exists.
  bool volumes_found = true;
  /// Every bound claim's volume is reachable from the node.
  bool bound_reachable = true;
  /// Every delayed claim gets a volume or can be provisioned here.
  bool unbound_satisfied = true;
  /// Provisioning has the capacity it needs here.
  bool enough_storage = true;
  /// On success: the bindings and provisions for the node.
  volume_binding_plan plan;

  bool ok() const noexcept {
    return volumes_found && bound_reachable && unbound_satisfied
           && enough_storage;
  }
  /// kube-scheduler's reason texts, in its order.
  static constexpr std::array<std::string_view, 4> reason_texts
    = {"node(s) had volume node affinity conflict",
       "node(s) didn't find available persistent volumes to bind",
       "node(s) did not have enough free storage",
       "node(s) unavailable due to one or more pvc(s) bound to non-existent "
       "pv(s)"};
  /// Whether the rule of reason_texts[i] failed.
  bool failed(std::size_t i) const noexcept {
    const bool ok[]
      = {bound_reachable, unbound_satisfied, enough_storage, volumes_found};
    return i < reason_texts.size() && !ok[i];
  }
  /// kube-scheduler's reasons for what failed, in its order.
  std::vector<std::string_view> reasons() const;
};

/// Checks `claims` against a node (labels and name) by the binder's rules.
/// A delayed claim that already names a selected node fits only there; the
/// others take a matching free volume (smallest first, never one taken by
/// another claim of the pod) or are provisioned, if their class has a
/// provisioner, allows the node's topology and (for drivers that publish
/// capacity) has the capacity. A claim with a volume set aside for it
/// (`has_reserved_volume`) fits only where that volume is reachable:
/// upstream's Filter would offer to provision it, but the PV controller
/// binds it to the reserved volume and PreBind's wait then fails on the
/// volume's node affinity, so the node is rejected here at once (this is
/// what keeps pods sharing a claim on nodes its assumed volume reaches).
claim_fit fit_claims(const storage_view& view, const pod_claims& claims,
                     const label_set& node_labels, symbol node_name);

/// True when the volume's node affinity admits the node.
bool volume_reachable(const persistent_volume& pv, const label_set& node_labels,
                      symbol node_name) noexcept;

} // namespace tessera::model
