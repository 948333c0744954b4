// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/node_claims.hpp"

namespace tessera::actors {

void node_claims::assumed(model::symbol node) {
  claims_.push_back(claim{++latest_, node, false, 0});
}

void node_claims::nominated(model::symbol node, std::int32_t priority) {
  claims_.push_back(claim{++latest_, node, true, priority});
}

bool node_claims::any_since(model::symbol node, std::uint64_t since,
                            std::int32_t priority, bool assumes) const {
  // Newest first: the claims a cycle can have missed are at the back.
  for (auto it = claims_.rbegin(); it != claims_.rend() && it->number > since;
       ++it)
    if (it->node == node
        && (it->nomination ? it->priority >= priority : assumes))
      return true;
  return false;
}

void node_claims::forget_through(std::uint64_t oldest) {
  while (!claims_.empty() && claims_.front().number <= oldest)
    claims_.pop_front();
}

} // namespace tessera::actors
