// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The object edits of PreBind's volume binding, on whole JSON documents as
/// an API server returns them (so that every field the scheduler does not
/// model survives the update): a static volume gets its claimRef, a claim to
/// provision gets the selected-node annotation. Each edit carries the
/// resourceVersion the scheduler chose from, so a volume or claim changed
/// since then makes the update fail with a conflict, as kube-scheduler's
/// binder updates the objects of its cache.
#pragma once

#include "model/storage.hpp"
#include "model/symbol.hpp"
#include "support/error.hpp"

#include <string>
#include <string_view>

namespace tessera::model {

/// `pv_json` with spec.claimRef naming `claim` (kind, apiVersion, namespace,
/// name, uid, resourceVersion), annotated pv.kubernetes.io/bound-by-controller
/// when the volume was not already pre-bound to the claim, and with
/// metadata.resourceVersion set to `chosen`'s. ec::invalid_input when the
/// document is not a JSON object.
[[nodiscard]] expected<std::string>
bind_volume_json(std::string_view pv_json, const persistent_volume& chosen,
                 const persistent_volume_claim& claim);

/// `pvc_json` annotated volume.kubernetes.io/selected-node=`node`, with
/// metadata.resourceVersion set to `claim`'s.
[[nodiscard]] expected<std::string>
select_node_json(std::string_view pvc_json,
                 const persistent_volume_claim& claim, symbol node);

} // namespace tessera::model
