// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// What both queues (`queue_state`, `settling_queue_state`) decide alike:
/// the order pods pop in and whether PreEnqueue lets a pod in.
#pragma once

#include "plugins/framework/plugin.hpp"
#include "plugins/framework/profile.hpp"

namespace tessera::actors {

/// True when `a` pops before `b`: the profile's QueueSort when it has one
/// (else higher priority, then earlier arrival), ties broken by the arrival
/// sequence so that the order is total.
bool pops_before(const plugins::queue_sort_plugin* sort,
                 const plugins::queued_pod& a, const plugins::queued_pod& b);

/// True when every PreEnqueue plugin of `prof` admits `p` (else it is gated).
bool passes_pre_enqueue(const plugins::profile& prof, const model::pod& p);

} // namespace tessera::actors
