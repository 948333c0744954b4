// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/node_view.hpp"

#include <algorithm>

namespace tessera::model {

bool node_view::port_in_use(const host_port& port) const noexcept {
  if (base_->port_in_use(port))
    return true;
  auto added = extra();
  return std::any_of(added.begin(), added.end(), [&](const pod_core* q) {
    return std::any_of(
      q->host_ports.begin(), q->host_ports.end(),
      [&](const host_port& used) { return conflicts(port, used); });
  });
}

void node_overlay::reset(const node_info& base) {
  base_ = &base;
  extra_.clear();
  requested_ = base.requested();
  extra_volumes_ = 0;
}

void node_overlay::add(const pod_core& p) {
  extra_.push_back(&p);
  extra_volumes_ += p.volumes.size();
  // node_info drops scalar entries that sum to zero; readers of a view see
  // an absent scalar and a zero one alike (both read as 0), so the sum is
  // kept as it comes.
  requested_.add(p.requests);
}

} // namespace tessera::model
