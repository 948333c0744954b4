// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/queue/pod_order.hpp"

namespace tessera::actors {

bool pops_before(const plugins::queue_sort_plugin* sort,
                 const plugins::queued_pod& a, const plugins::queued_pod& b) {
  if (sort != nullptr) {
    if (sort->less(a, b))
      return true;
    if (sort->less(b, a))
      return false;
    return a.sequence < b.sequence;
  }
  if (a.pod->priority != b.pod->priority)
    return a.pod->priority > b.pod->priority;
  if (a.timestamp_ns != b.timestamp_ns)
    return a.timestamp_ns < b.timestamp_ns;
  return a.sequence < b.sequence;
}

bool passes_pre_enqueue(const plugins::profile& prof, const model::pod& p) {
  for (const auto* pe : prof.pre_enqueue())
    if (!pe->pre_enqueue(p).ok())
      return false;
  return true;
}

} // namespace tessera::actors
