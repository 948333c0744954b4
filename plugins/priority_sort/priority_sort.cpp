// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/priority_sort/priority_sort.hpp"

namespace tessera::plugins {

bool priority_sort::less(const queued_pod& a, const queued_pod& b) const {
  // model::pod::priority already holds 0 for a pod without spec.priority.
  const std::int32_t pa = a.pod ? a.pod->priority : 0;
  const std::int32_t pb = b.pod ? b.pod->priority : 0;
  if (pa != pb)
    return pa > pb;
  if (a.timestamp_ns != b.timestamp_ns)
    return a.timestamp_ns < b.timestamp_ns;
  return a.sequence < b.sequence;
}

std::shared_ptr<plugin> make_priority_sort() {
  return std::make_shared<priority_sort>();
}

} // namespace tessera::plugins
