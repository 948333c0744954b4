// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `storage_objects`: a local volume and two claims in an embedded store,
/// the PreBind plans a scheduler would make over them, and the volume
/// controller's part of a binding, for the tests of the sinks' volume
/// binding. Objects: PersistentVolume `pv1` (1Gi, class `local`), claims
/// `default/static` and `default/dynamic` (1Gi, class `local`) and the pod
/// `default/web` that uses them.
#pragma once

#include "actors/sink.hpp"
#include "io/apiserver/store.hpp"
#include "model/storage_view.hpp"

#include <chrono>
#include <future>
#include <string>

namespace tessera::test {

class storage_objects {
public:
  /// Creates the objects in `st`.
  explicit storage_objects(apiserver::store& st);

  /// Bind pv1 to default/static, as chosen from the objects as stored now.
  model::volume_binding_plan_ptr static_plan() const;
  /// Provision default/dynamic.
  model::volume_binding_plan_ptr provision_plan() const;

  /// What the volume controller writes once it bound `claim` to `volume`:
  /// spec.volumeName, bind-completed, status Bound.
  void complete(const std::string& claim, const std::string& volume);
  /// Deletes a claim.
  void remove_claim(const std::string& claim);
  /// The pod, as the scheduler holds it.
  model::pod_ptr pod() const;
  /// Deletes the pod.
  void remove_pod();

  /// "namespace/name/uid" of pv1's claimRef; empty without one.
  std::string claim_ref() const;
  /// An annotation of a claim; empty when absent.
  std::string claim_annotation(const std::string& claim,
                               const std::string& key) const;

private:
  apiserver::store& st_;
};

/// `sink.bind_volumes(pod, node "n1", plan, timeout)`; the future gets
/// what `done` got.
std::future<error> bind_volumes(actors::cluster_sink& sink,
                                const model::pod_ptr& pod,
                                const model::volume_binding_plan_ptr& plan,
                                std::chrono::milliseconds timeout);

} // namespace tessera::test
