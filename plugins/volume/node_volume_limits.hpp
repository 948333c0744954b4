// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_volume_limits`: kube-scheduler's NodeVolumeLimits, the CSI attach
/// limits (PreFilter, Filter).
///
/// A node's limit for a CSI driver is the driver's
/// `spec.drivers[].allocatable.count` in the node's CSINode; a driver
/// without a count, or a node without a CSINode, has no limit. Volumes are
/// counted once per (driver, handle):
/// - a claim (persistentVolumeClaim or generic ephemeral) bound to a volume
///   counts under the volume's CSI driver and handle (in-tree sources as
///   migration translates them); a volume nothing attaches is not counted;
/// - a claim without a volume (or whose volume is missing) counts under its
///   StorageClass's provisioner, translated to the CSI driver when it is a
///   GCE PD, AWS EBS, Azure Disk or Cinder provisioner, with a handle of its
///   own; a claim with no class, a missing class, or another in-tree
///   provisioner (migration not on) is not counted;
/// - an inline in-tree source counts under its translated driver.
///
/// Filter counts the volumes of the pods on the node, then the node's
/// VolumeAttachments not already counted, then the new pod's volumes not
/// already used on the node; it rejects with Unschedulable `node(s) exceed
/// max volume count` when a driver's count would pass its limit. The new
/// pod's missing claim is UnschedulableAndUnresolvable `looking up PVC
/// NS/NAME: persistentvolumeclaim "NAME" not found` (an existing pod's
/// missing claim is not counted); a generic ephemeral claim not controlled
/// by its pod is an Error. PreFilter returns Skip when the pod has no claim
/// and no attachable inline source, and keeps the cycle's storage objects
/// for Filter, so Filter reads only its node and is node-local: the cache's
/// assume check re-runs it on the node's current pods.
///
/// Not modelled: the CSINode annotation that turns migration on per plugin
/// (Portworx, vSphere and Azure File claims are not counted), and the
/// VolumeLimitScaling check of drivers with preventPodSchedulingIfMissing
/// (the CSIDriver field is not read).
///
/// Queueing hints: CSINode/Add always queues; CSINode/Update queues when a
/// driver's limit is raised or lifted; Pod/Delete queues when the deleted
/// pod was on (or nominated to) a node and had a claim or an attachable
/// inline source; PersistentVolumeClaim/Add queues when the claim is one the
/// pod names; VolumeAttachment/Delete queues when the pod has a claim or an
/// inline source of the attachment's driver (upstream also resolves the
/// claim's volume; a hint here cannot read claims, so any claim queues).
#pragma once

#include "model/pod.hpp"
#include "model/storage_view.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessera::plugins {

class node_volume_limits final : public pre_filter_plugin,
                                 public filter_plugin,
                                 public signs_by<same_volumes> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "NodeVolumeLimits";

  /// Interns the reason text.
  node_volume_limits();

  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) exceed max volume count".
  model::symbol reason_max_volume_count() const noexcept {
    return reason_max_volume_count_;
  }

  /// Volume unique name ("driver/handle") -> driver.
  using volume_set = std::unordered_map<std::string, std::string>;

  /// The storage objects of the cycle and the pod's own attachable volumes
  /// (or why they cannot be had), for Filter.
  struct state : plugin_state {
    model::storage_view_ptr storage;
    volume_set wanted;
    status wanted_status;
    /// The smallest limit any node gives a driver of `wanted`.
    std::int64_t smallest_limit = 0;
  };

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Skip without claims and attachable inline sources; keeps the storage
  /// objects otherwise.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// Unschedulable when a driver's attach limit on the node would be
  /// passed.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

  /// Adds the attachable volumes of `p` to `out`. For the pod being
  /// scheduled (`new_pod`), a missing claim is UnschedulableAndUnresolvable;
  /// for a pod on the node it is skipped.
  static status attachable_volumes(const model::pod_core& p,
                                   const model::storage_view& storage,
                                   bool new_pod, volume_set& out);

private:
  model::symbol reason_max_volume_count_;
};

/// Builds NodeVolumeLimits (it takes no args).
std::shared_ptr<plugin> make_node_volume_limits();

} // namespace tessera::plugins
