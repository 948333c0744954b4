// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `explain_cycle`: a finished cycle's per-node detail for `simulate
/// --explain` — every rejected node with its filter plugin and reasons, and
/// every scored node with its normalized per-plugin scores (sorted by
/// plugin order in the profile) and weighted total.
#pragma once

#include "actors/coordinator/scheduling_cycle.hpp"
#include "actors/sink.hpp"

namespace tessera::actors {

cycle_explanation explain_cycle(const scheduling_cycle& c);

} // namespace tessera::actors
