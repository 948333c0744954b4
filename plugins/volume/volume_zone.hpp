// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `volume_zone`: kube-scheduler's VolumeZone (PreFilter, Filter).
///
/// PreFilter reads the zone and region labels (topology.kubernetes.io/zone,
/// topology.kubernetes.io/region and their failure-domain.beta.kubernetes.io
/// forms) of the volumes the pod's persistentVolumeClaim volumes are bound
/// to. A label value may list several zones separated by "__" (blanks
/// trimmed); a value with an empty entry is ignored. It rejects the pod, all
/// UnschedulableAndUnresolvable, when a claim is missing
/// (`persistentvolumeclaim "NAME" not found`), when a claim has no volume and
/// no class
/// (`PersistentVolumeClaim had no pv name and storageClass name`), when its
/// class is missing (`storageclass.storage.k8s.io "NAME" not found`), when
/// it has no volume and its class binds immediately (`PersistentVolume had
/// no name`), and when its volume is missing (`persistentvolume "NAME" not
/// found`). A claim with no volume whose class waits for the first consumer
/// is skipped. PreFilter returns Skip when no volume has such a label.
///
/// Filter passes a node that has none of the four labels (a single-zone
/// cluster). Otherwise each volume label must be on the node, under the
/// same key or, for a beta key, its GA form, with one of the volume's
/// values; else UnschedulableAndUnresolvable `node(s) had no available
/// volume zone`.
///
/// Queueing hints (upstream, QueueingHint on): StorageClass/Add queues for a
/// WaitForFirstConsumer class; Node/Add and label updates always queue;
/// PersistentVolumeClaim/Add and Update queue for a claim the pod names;
/// PersistentVolume/Add queues, PersistentVolume/Update queues when the
/// volume's zone labels changed.
#pragma once

#include "model/labels.hpp"
#include "model/pod.hpp"
#include "model/storage.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class volume_zone final : public pre_filter_plugin,
                          public filter_plugin,
                          public signs_by<same_volumes> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "VolumeZone";

  /// Interns the reason texts.
  volume_zone();

  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) had no available volume zone".
  model::symbol reason_conflict() const noexcept {
    return reason_conflict_;
  }

  /// One topology label of one of the pod's volumes.
  struct volume_topology {
    model::symbol key;
    std::vector<std::string> values;
    friend bool operator==(const volume_topology&, const volume_topology&)
      = default;
  };
  /// The topology labels of the pod's bound volumes.
  struct state : plugin_state {
    std::vector<volume_topology> topologies;
  };

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Collects the volumes' topology labels (see the file comment).
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// UnschedulableAndUnresolvable when the node's zone labels do not match.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

  /// The topology labels of `pv` that parse, in a fixed key order.
  static std::vector<volume_topology>
  topologies_of(const model::persistent_volume& pv);

private:
  model::symbol reason_conflict_;
  model::symbol reason_no_pv_or_class_;
  model::symbol reason_no_pv_name_;
};

/// Builds VolumeZone (it takes no args).
std::shared_ptr<plugin> make_volume_zone();

} // namespace tessera::plugins
