// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `storage_book`: the cache's storage objects and the volume bindings it
/// assumed, without CAF. It answers the one storage question an assume
/// must settle against the newest state — can the pod's claims be had on
/// the chosen node, and with which volumes — and records the answer, so
/// that two cycles in flight never take the same volume or the same
/// ReadWriteOncePod claim.
///
/// An assumed binding is an overlay on the object the API reported: the
/// volume with its claimRef set, or the claim with the selected node. It
/// lasts until the API reports a newer version of that object (PreBind's
/// write or the controller's) or the pod is forgotten.
#pragma once

#include "actors/source.hpp"
#include "model/object.hpp"
#include "model/storage_view.hpp"
#include "plugins/framework/cluster_event.hpp"

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::actors {

class storage_book {
public:
  /// A change the queue should hear of (queueing hints).
  struct event {
    plugins::event_resource resource = plugins::event_resource::wildcard;
    plugins::action actions = plugins::action::none;
    std::optional<model::object> old_object;
    std::optional<model::object> new_object;
  };

  /// Applies one storage object change; returns the event to emit, if the
  /// object is a storage kind and something changed.
  std::optional<event> apply(object_event::kind type, const model::object& o);

  /// A pod (bound or assumed) appeared in or left the cluster: counts the
  /// users of its claims.
  void pod_added(const model::pod_core& p);
  void pod_removed(const model::pod_core& p);

  /// The assume check for `p` on `node`: empty when the pod's claims can be
  /// had there, with `plan` set to what PreBind must write; else why not.
  /// On success the bindings are recorded under `pod_key`.
  std::string assume(const std::string& pod_key, const model::pod& p,
                     const model::node& node,
                     model::volume_binding_plan_ptr& plan);
  /// Reverts what `assume` recorded for the pod (its binding failed).
  void forget(const std::string& pod_key);

  /// True when the view changed since the last `view()`.
  bool dirty() const noexcept {
    return dirty_;
  }
  /// The current view (rebuilt when dirty); null while no storage object
  /// and no claim user is known.
  model::storage_view_ptr view();

  /// True when `p` uses any claim (only such pods need the assume check).
  static bool uses_claims(const model::pod_core& p) noexcept;

private:
  void sync_users(const std::string& claim);
  void show_volume(const std::string& name);
  void show_claim(const std::string& key);
  void count_limits(const model::csi_node& n, bool add);

  struct assumption {
    std::vector<std::string> volumes;
    std::vector<std::string> claims;
  };

  std::unordered_map<std::string, model::persistent_volume_ptr> volumes_;
  std::unordered_map<std::string, model::persistent_volume_claim_ptr> claims_;
  std::unordered_map<std::string, model::storage_class_ptr> classes_;
  std::unordered_map<std::string, model::csi_node_ptr> csi_nodes_;
  /// Driver -> the attach limits CSINodes give it, for the view's
  /// smallest_limits.
  std::unordered_map<std::string, std::multiset<std::int64_t>> limits_;
  std::unordered_map<std::string, model::csi_driver_ptr> drivers_;
  std::unordered_map<std::string, model::csi_storage_capacity_ptr> capacities_;
  std::unordered_map<std::string, model::volume_attachment_ptr> attachments_;
  /// Users of every claim a pod names (the view keeps the ReadWriteOncePod
  /// ones).
  std::unordered_map<std::string, std::int32_t> claim_users_;

  /// Overlays: volume name / claim key -> the assumed object.
  std::unordered_map<std::string, model::persistent_volume_ptr>
    assumed_volumes_;
  std::unordered_map<std::string, model::persistent_volume_claim_ptr>
    assumed_claims_;
  /// Pod key -> what its assume recorded.
  std::unordered_map<std::string, assumption> by_pod_;

  /// The view as it stands, changed in place (its big maps share their
  /// contents with the views already published).
  model::storage_view working_;
  model::storage_view_ptr view_;
  bool dirty_ = false;
  bool attachments_stale_ = false;
};

} // namespace tessera::actors
