// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `volume_controller`: the embedded cluster's stand-in for the persistent
/// volume controller and a dynamic provisioner, enough for a scheduler's
/// volume binding to complete. It watches volumes, claims, classes and nodes
/// in-process and, on each change (and every `resync` otherwise), brings
/// every object one step closer to its bound state with ordinary writes:
///
///   available   a volume with no claimRef gets status.phase Available.
///   bind        an unbound claim whose class binds Immediate (or which has
///               no class) takes the smallest Available volume that matches
///               it (class, access and volume modes, size, selector): the
///               volume gets the claimRef and bound-by-controller.
///   provision   a claim annotated volume.kubernetes.io/selected-node (the
///               scheduler chose its node), or an Immediate one, whose class
///               has a provisioner other than kubernetes.io/no-provisioner,
///               gets a volume `pvc-<claim uid>` of the class with the
///               claim's request and access modes, bound to it and, for a
///               selected node, reachable only from that node (hostname
///               label, else the node's name); a node whose labels do not
///               satisfy the class's allowedTopologies gets none.
///   complete    a claim whose volume names it in claimRef (the scheduler's
///               static binding, or the steps above) gets spec.volumeName,
///               pv.kubernetes.io/bind-completed and bound-by-controller,
///               status Bound with capacity and access modes; its volume
///               gets status Bound.
///   lost        a bound claim whose volume is gone gets status Lost.
///   release     a bound volume whose claim is gone is deleted (reclaim
///               policy Delete) or Released (Retain, the default).
///
/// A failed write is logged and retried on the next pass.
#pragma once

#include "io/apiserver/store.hpp"

#include <chrono>
#include <cstddef>
#include <memory>

namespace tessera::apiserver {

struct volume_controller_config {
  /// A full pass at least this often, changes or not.
  std::chrono::milliseconds resync{500};
};

class volume_controller {
public:
  /// Starts the controller thread on `s` (which must outlive it).
  volume_controller(store& s, volume_controller_config config = {});
  /// Stops and joins.
  ~volume_controller();
  volume_controller(const volume_controller&) = delete;
  volume_controller& operator=(const volume_controller&) = delete;

  /// Writes done so far (for tests).
  std::size_t writes() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::apiserver
