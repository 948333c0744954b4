// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `rewrite_slot`: how a plugin changes its data in a cycle_state. A slot
/// may be shared with copies of the state (the shards' frozen state, a
/// preemption dry run), so the data is copied, changed and written back as a
/// new slot, never changed in place.
#pragma once

#include "plugins/framework/cycle_state.hpp"

#include <cstddef>
#include <memory>

namespace tessera::plugins {

/// Replaces slot `slot` of `state` with a copy of its `Data` (a default
/// `Data` when the slot is empty) changed by `change(Data&)`.
template <class Data, class Change>
void rewrite_slot(cycle_state& state, std::size_t slot, Change change) {
  const Data* current = state.read<Data>(slot);
  auto next = current != nullptr ? std::make_shared<Data>(*current)
                                 : std::make_shared<Data>();
  change(*next);
  state.write(slot, std::move(next));
}

} // namespace tessera::plugins
