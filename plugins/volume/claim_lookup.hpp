// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Helpers the volume filters share: the storage objects of a cycle (an
/// empty view when the cluster has none, so a claim is simply not found),
/// the API server's "not found" texts that upstream's plugins pass on as
/// rejection reasons, which claim a pod volume names, and the queueing hint
/// for a claim the pod names.
#pragma once

#include "model/pod.hpp"
#include "model/storage_view.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/status.hpp"

#include <string_view>

namespace tessera::plugins::volume_lookup {

/// The cluster's storage objects, or an empty view when it has none.
const model::storage_view& storage_of(const cluster_context& cluster) noexcept;

/// The shared empty view (no claims, volumes, classes or CSI objects).
const model::storage_view& empty_storage() noexcept;

/// `<resource> "<name>" not found`, the API server's NotFound text (the
/// name quoted as Go's %q does), e.g. `persistentvolumeclaim "data" not
/// found`.
model::symbol not_found(std::string_view resource, std::string_view name);

/// UnschedulableAndUnresolvable `persistentvolumeclaim "<claim>" not found`:
/// the pod cannot be scheduled until the claim exists.
status claim_not_found(std::string_view claim);

/// The resource names of the NotFound texts.
inline constexpr std::string_view claim_resource = "persistentvolumeclaim";
inline constexpr std::string_view volume_resource = "persistentvolume";
inline constexpr std::string_view class_resource
  = "storageclass.storage.k8s.io";

/// True for a persistentVolumeClaim volume (not a generic ephemeral one).
inline bool is_claim_volume(const model::volume& v) noexcept {
  return !v.claim_name.empty() && !v.ephemeral;
}

/// Calls `visit(claim)` (returning a status) for the claim of each
/// persistentVolumeClaim volume of `p`, in volume order. Stops at the first
/// missing claim (`claim_not_found`) or the first status `visit` returns
/// that is not Success, and returns it.
template <class Visit>
status for_each_claim(const model::storage_view& storage, const model::pod& p,
                      Visit visit) {
  for (const auto& v : p.volumes) {
    if (!is_claim_volume(v))
      continue;
    const auto* claim = storage.claim(p.ns, v.claim_name);
    if (claim == nullptr)
      return claim_not_found(v.claim_name);
    if (status s = visit(*claim); !s.ok())
      return s;
  }
  return {};
}

/// True when `p` has a persistentVolumeClaim volume naming `claim` (or,
/// with `ephemeral_too`, a generic ephemeral volume whose claim it is).
bool names_claim(const model::pod& p, std::string_view claim,
                 bool ephemeral_too = false) noexcept;

/// The queueing hint for a claim that was added or changed: Queue when it
/// is in the waiting pod's namespace and the pod names it (see
/// `names_claim`), Skip otherwise; Queue when no claim is passed.
hint_function claim_named_by_pod(bool ephemeral_too);

} // namespace tessera::plugins::volume_lookup
