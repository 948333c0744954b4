// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The storage objects the volume plugins read: PersistentVolumes,
/// PersistentVolumeClaims, StorageClasses, CSINodes, CSIDrivers,
/// CSIStorageCapacities and VolumeAttachments. Each keeps only the fields a
/// scheduling rule reads, so a cluster with many volumes stays small in
/// memory.
///
/// In-tree volume sources (gcePersistentDisk, awsElasticBlockStore,
/// azureDisk, cinder) are kept translated to the CSI driver that migration
/// hands them to, with their volume handle, so attach limits count both
/// kinds alike.
#pragma once

#include "model/labels.hpp"
#include "model/node_selector.hpp"
#include "model/symbol.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::model {

/// spec.accessModes as a bit set.
enum access_modes : std::uint8_t {
  read_write_once = 1u << 0,
  read_only_many = 1u << 1,
  read_write_many = 1u << 2,
  read_write_once_pod = 1u << 3,
};

enum class volume_mode : std::uint8_t { filesystem, block };

/// Annotations the scheduler and the volume controllers exchange.
inline constexpr std::string_view selected_node_annotation
  = "volume.kubernetes.io/selected-node";
inline constexpr std::string_view bind_completed_annotation
  = "pv.kubernetes.io/bind-completed";
inline constexpr std::string_view bound_by_controller_annotation
  = "pv.kubernetes.io/bound-by-controller";
/// A class's provisioner that provisions nothing (local volumes).
inline constexpr std::string_view no_provisioner
  = "kubernetes.io/no-provisioner";

/// A volume as the attach limits count it: the CSI driver that attaches it
/// and its handle (empty driver when nothing attaches it).
struct attachable_volume {
  std::string driver;
  std::string handle;
  friend bool operator==(const attachable_volume&, const attachable_volume&)
    = default;
};

/// The in-tree plugin name of a provisioner or source, translated to its CSI
/// driver ("kubernetes.io/gce-pd" -> "pd.csi.storage.gke.io"); other names
/// are returned unchanged.
std::string csi_driver_of_provisioner(std::string_view provisioner);

struct claim_reference {
  symbol ns;
  std::string name;
  /// Empty when the reference was written without one (pre-binding).
  std::string uid;
  friend bool operator==(const claim_reference&, const claim_reference&)
    = default;
};

enum class volume_phase : std::uint8_t {
  pending,
  available,
  bound,
  released,
  failed,
};

struct persistent_volume {
  std::string name;
  std::string uid;
  std::string resource_version;
  /// Zone and region labels are what VolumeZone reads.
  label_set labels;
  /// spec.storageClassName (or the beta annotation); empty for none.
  std::string storage_class;
  /// spec.capacity.storage in bytes.
  std::int64_t capacity_bytes = 0;
  std::uint8_t access_modes = 0;
  volume_mode mode = volume_mode::filesystem;
  /// spec.nodeAffinity.required; nullopt when the volume is reachable from
  /// every node.
  std::optional<node_selector> node_affinity;
  std::optional<claim_reference> claim_ref;
  volume_phase phase = volume_phase::pending;
  /// spec.csi or a translated in-tree source; empty driver for sources
  /// nothing attaches (local, hostPath, nfs, ...).
  attachable_volume attach;
  /// The volume source's field name ("csi", "local", "gcePersistentDisk").
  std::string source_type;
  /// spec.volumeAttributesClassName; empty for none.
  std::string attributes_class;
  friend bool operator==(const persistent_volume&, const persistent_volume&)
    = default;
};
using persistent_volume_ptr = std::shared_ptr<const persistent_volume>;

enum class claim_phase : std::uint8_t { pending, bound, lost };

struct persistent_volume_claim {
  symbol ns;
  std::string name;
  std::string uid;
  std::string resource_version;
  /// spec.storageClassName: nullopt when unset, "" for "no class".
  std::optional<std::string> storage_class;
  /// spec.volumeName: the volume it is bound or pre-bound to.
  std::string volume_name;
  std::uint8_t access_modes = 0;
  volume_mode mode = volume_mode::filesystem;
  /// spec.resources.requests.storage in bytes (0 when unset).
  std::int64_t request_bytes = 0;
  /// spec.selector: nil selects every volume.
  std::optional<label_selector> selector;
  /// spec.volumeAttributesClassName; empty for none.
  std::string attributes_class;
  /// The volume.kubernetes.io/selected-node annotation; empty when unset.
  std::string selected_node;
  /// The pv.kubernetes.io/bind-completed annotation is present.
  bool bind_completed = false;
  claim_phase phase = claim_phase::pending;
  /// metadata.deletionTimestamp is set.
  bool deleting = false;
  /// UID of the controlling owner reference (a generic ephemeral volume's
  /// claim is controlled by its pod); empty when none.
  std::string controller_uid;

  /// The class name as the binder reads it (unset and "" alike).
  std::string_view class_name() const noexcept {
    return storage_class ? std::string_view{*storage_class}
                         : std::string_view{};
  }
  /// Bound as kube-scheduler counts it: a volume name and bind-completed.
  bool fully_bound() const noexcept {
    return !volume_name.empty() && bind_completed;
  }
  friend bool operator==(const persistent_volume_claim&,
                         const persistent_volume_claim&)
    = default;
};
using persistent_volume_claim_ptr
  = std::shared_ptr<const persistent_volume_claim>;

enum class binding_mode : std::uint8_t { immediate, wait_for_first_consumer };

/// One allowedTopologies term: every listed key must have one of its values.
struct topology_selector_term {
  struct requirement {
    std::string key;
    std::vector<std::string> values;
    friend bool operator==(const requirement&, const requirement&) = default;
  };
  std::vector<requirement> match_label_expressions;
  friend bool operator==(const topology_selector_term&,
                         const topology_selector_term&)
    = default;
};

struct storage_class {
  std::string name;
  std::string resource_version;
  std::string provisioner;
  binding_mode binding = binding_mode::immediate;
  /// Empty: every node.
  std::vector<topology_selector_term> allowed_topologies;

  /// True when `labels` satisfy allowedTopologies (terms ORed).
  bool allows(const label_set& labels) const noexcept;
  friend bool operator==(const storage_class&, const storage_class&) = default;
};
using storage_class_ptr = std::shared_ptr<const storage_class>;

struct csi_node_driver {
  std::string name;
  /// spec.drivers[].allocatable.count; nullopt: no limit.
  std::optional<std::int32_t> allocatable_count;
  friend bool operator==(const csi_node_driver&, const csi_node_driver&)
    = default;
};

struct csi_node {
  /// The node's name (a CSINode is named after its node).
  symbol name;
  std::string resource_version;
  std::vector<csi_node_driver> drivers;

  const csi_node_driver* driver(std::string_view name) const noexcept;
  friend bool operator==(const csi_node&, const csi_node&) = default;
};
using csi_node_ptr = std::shared_ptr<const csi_node>;

struct csi_driver {
  std::string name;
  std::string resource_version;
  /// spec.attachRequired (default true).
  bool attach_required = true;
  /// spec.storageCapacity (default false): provisioning checks capacity.
  bool storage_capacity = false;
  friend bool operator==(const csi_driver&, const csi_driver&) = default;
};
using csi_driver_ptr = std::shared_ptr<const csi_driver>;

struct csi_storage_capacity {
  symbol ns;
  std::string name;
  std::string resource_version;
  std::string storage_class;
  /// nodeTopology; nil matches no node.
  label_selector node_topology = label_selector::nothing();
  /// capacity and maximumVolumeSize in bytes, when set.
  std::optional<std::int64_t> capacity;
  std::optional<std::int64_t> maximum_volume_size;
  friend bool operator==(const csi_storage_capacity&,
                         const csi_storage_capacity&)
    = default;
};
using csi_storage_capacity_ptr = std::shared_ptr<const csi_storage_capacity>;

struct volume_attachment {
  std::string name;
  std::string resource_version;
  /// spec.attacher: the CSI driver.
  std::string attacher;
  symbol node;
  /// spec.source.persistentVolumeName; empty for inline sources.
  std::string volume_name;
  friend bool operator==(const volume_attachment&, const volume_attachment&)
    = default;
};
using volume_attachment_ptr = std::shared_ptr<const volume_attachment>;

} // namespace tessera::model
