// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/normalize.hpp"

namespace tessera::plugins {

void default_normalize_score(std::span<node_score> scores, bool reverse,
                             std::int64_t max_priority) noexcept {
  std::int64_t highest = 0;
  for (const auto& s : scores)
    if (s.score > highest)
      highest = s.score;
  if (highest == 0) {
    // Nothing to scale by: all nodes are equally good. Reversed, "no
    // penalty anywhere" means the best score everywhere.
    if (reverse)
      for (auto& s : scores)
        s.score = max_priority;
    return;
  }
  for (auto& s : scores) {
    std::int64_t scaled = max_priority * s.score / highest;
    s.score = reverse ? max_priority - scaled : scaled;
  }
}

} // namespace tessera::plugins
