// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `pod_key`: the identity under which the cache, the queue and the
/// coordinator index a pod: its UID, or `namespace/name` when it has none
/// (objects read from files). One definition, so that the actors that hand
/// pods to each other always agree on which pod they mean.
#pragma once

#include "model/fwd.hpp"

#include <string>

namespace tessera::model {

/// The pod's UID, or `namespace/name` when the UID is empty.
std::string pod_key(const pod_core& p);

} // namespace tessera::model
