// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `volume_restrictions`: kube-scheduler's VolumeRestrictions (PreFilter
/// with AddPod/RemovePod, Filter).
///
/// - Inline disks a node can mount for one writer only. A pod volume
///   conflicts with a volume of a pod already on the node when both are
///   gcePersistentDisk with the same pdName, unless both are read-only;
///   both awsElasticBlockStore with the same volumeID (always); both iscsi
///   with the same IQN, unless both are read-only; both rbd with a common
///   Ceph monitor and the same pool and image, unless both are read-only.
///   Filter: Unschedulable `node(s) had no available disk`.
/// - ReadWriteOncePod claims. PreFilter looks up every persistentVolumeClaim
///   volume of the pod (a missing claim: UnschedulableAndUnresolvable
///   `persistentvolumeclaim "NAME" not found`) and counts the pod's
///   ReadWriteOncePod claims that a pod in the cluster (bound or assumed)
///   already uses. Filter rejects every node with Unschedulable `node has
///   pod using PersistentVolumeClaim with the same name and ReadWriteOncePod
///   access mode` while that count is above zero; AddPod/RemovePod move the
///   count, so preemption can free a claim by evicting its user.
/// - PreFilter returns Skip when the pod has no inline disk to compare and
///   no ReadWriteOncePod claim. Upstream also skips when its ReadWriteOncePod
///   claims are unused; here the Filter stays on for them (it passes while
///   the count is zero) so that the cache's assume check replays pods added
///   since the cycle and catches two cycles taking the same claim.
///
/// Filter is not node-local: the claim count covers pods on every node.
///
/// Queueing hints (upstream, QueueingHint on): Pod/Delete queues when the
/// deleted pod, in the waiting pod's namespace, held a conflicting disk or
/// used one of its claims; Node/Add always queues; PersistentVolumeClaim/Add
/// queues when the claim is one the pod names.
#pragma once

#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class volume_restrictions final : public counting_pre_filter_plugin,
                                  public filter_plugin,
                                  public signs_by<same_volumes> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "VolumeRestrictions";

  /// Interns the reason texts.
  volume_restrictions();

  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) had no available disk".
  model::symbol reason_disk_conflict() const noexcept {
    return reason_disk_conflict_;
  }
  /// "node has pod using PersistentVolumeClaim with the same name and
  /// ReadWriteOncePod access mode".
  model::symbol reason_read_write_once_pod() const noexcept {
    return reason_read_write_once_pod_;
  }

  /// What PreFilter found: the pod's ReadWriteOncePod claims (names in its
  /// namespace) and how many of them pods in the cluster already use.
  struct state : plugin_state {
    std::vector<std::string> read_write_once_pod_claims;
    std::int32_t conflicting = 0;
  };

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Looks the pod's claims up and counts ReadWriteOncePod conflicts; Skip
  /// when there is nothing to check.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// Disk conflicts on the node, then the ReadWriteOncePod count.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;
  /// False: the ReadWriteOncePod count spans the cluster.
  bool node_local() const noexcept override {
    return false;
  }

  /// True when a volume of `wanted` conflicts with a volume of `existing`
  /// under the disk rules of the file comment.
  static bool disks_conflict(const model::pod& wanted,
                             const model::pod_core& existing) noexcept;

private:
  /// Moves the conflict count by `delta` times `changed`'s uses of the pod's
  /// ReadWriteOncePod claims.
  status update_with_pod(cycle_state& state, const model::pod& to_schedule,
                         const model::pod_core& changed, model::node_view node,
                         std::int64_t delta) const override;

  model::symbol reason_disk_conflict_;
  model::symbol reason_read_write_once_pod_;
};

/// Builds VolumeRestrictions (it takes no args).
std::shared_ptr<plugin> make_volume_restrictions();

} // namespace tessera::plugins
