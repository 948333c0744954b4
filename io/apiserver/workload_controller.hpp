// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `workload_controller`: kwok-style stand-ins for the workload controllers
/// of kube-controller-manager, running on the store in-process:
///
///   ReplicaSet  keeps `spec.replicas` pods of its template (generateName
///               `<set>-`, a controller ownerReference), deleting the
///               least advanced first (unbound, then not Running, then not
///               Ready, then the newest); status replicas, ready and
///               available (Ready pods; `minReadySeconds` is not waited),
///               observedGeneration.
///   Deployment  one ReplicaSet per pod template (`<deployment>-<hash>`,
///               label `pod-template-hash`, annotation
///               `deployment.kubernetes.io/revision`); a template change
///               rolls: the new set grows within maxSurge while the old
///               ones shrink within maxUnavailable (as upstream's rolling
///               step, without proportional scaling of several old sets),
///               or Recreate; old sets with no pods beyond
///               revisionHistoryLimit are deleted; status counts and the
///               Available and Progressing conditions `kubectl rollout
///               status` reads (no progress deadline is enforced).
///   Job         runs up to `parallelism` pods at once until `completions`
///               succeeded (kwok's fake kubelet completes Job pods), then
///               the Complete condition; more failed pods than
///               `backoffLimit`: Failed. NonIndexed only: an Indexed job
///               runs as NonIndexed. `suspend` deletes the active pods.
///   DaemonSet   one pod per node its template's nodeSelector and
///               tolerations fit (plus the node-condition tolerations
///               upstream adds), with a required node affinity term on
///               `metadata.name` so the scheduler puts it there; outdated
///               pods are replaced within maxUnavailable.
///   StatefulSet pods `<set>-<ordinal>`, created in order once the one
///               before is Ready (or at once with Parallel), removed from
///               the highest ordinal, one claim per volumeClaimTemplate
///               (`<template>-<set>-<ordinal>`, kept: Retain); a template
///               change replaces pods from the highest ordinal down.
///   Garbage collection  when one of them is deleted
///               (Background or Foreground propagation; Orphan is done by
///               the store in the delete itself), its dependents go too.
///               Only dependents of owners this controller saw are
///               collected: a pod whose owner never existed stays.
///
/// It watches the workload kinds; the pod watch it needs is open only
/// while a workload object exists (or dependents of a deleted one remain),
/// and the node watch only while a DaemonSet does, so a cluster without
/// workload objects — the scheduler-only benchmarks — costs it nothing per
/// pod.
#pragma once

#include "io/apiserver/store.hpp"

#include <chrono>
#include <cstddef>
#include <memory>

namespace tessera::apiserver {

struct workload_controller_config {
  /// A pass at least this often while some workload is not settled.
  std::chrono::milliseconds resync{500};
};

class workload_controller {
public:
  /// Starts the controller thread on `s` (which must outlive it).
  explicit workload_controller(store& s,
                               workload_controller_config config = {});
  /// Stops and joins.
  ~workload_controller();
  workload_controller(const workload_controller&) = delete;
  workload_controller& operator=(const workload_controller&) = delete;

  /// Writes done so far (for tests and metrics).
  std::size_t writes() const;
  /// True while the pod watch is open (for tests: it must be closed when
  /// no workload object exists).
  bool watching_pods() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::apiserver
