// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/signature.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace {

// ConfigMap and Secret volumes never change where a pod fits.
bool matters_for_placement(const model::volume& v) noexcept {
  return v.type != "configMap" && v.type != "secret";
}

} // namespace

bool same_requests(const model::pod& a, const model::pod& b) noexcept {
  return a.requests == b.requests && a.non_zero_requests == b.non_zero_requests;
}

bool same_tolerations(const model::pod& a, const model::pod& b) noexcept {
  return a.tolerations == b.tolerations;
}

bool same_node_constraints(const model::pod& a, const model::pod& b) noexcept {
  return a.node_selector == b.node_selector
         && a.affinity->node == b.affinity->node;
}

bool same_node_name(const model::pod& a, const model::pod& b) noexcept {
  return a.node_name == b.node_name;
}

bool same_host_ports(const model::pod& a, const model::pod& b) noexcept {
  return a.host_ports == b.host_ports;
}

bool same_images(const model::pod& a, const model::pod& b) noexcept {
  return a.images == b.images;
}

bool same_volumes(const model::pod& a, const model::pod& b) noexcept {
  auto next = [](const std::vector<model::volume>& vs, std::size_t i) {
    while (i < vs.size() && !matters_for_placement(vs[i]))
      ++i;
    return i;
  };
  std::size_t i = next(a.volumes, 0);
  std::size_t j = next(b.volumes, 0);
  while (i < a.volumes.size() && j < b.volumes.size()) {
    if (!(a.volumes[i] == b.volumes[j]))
      return false;
    i = next(a.volumes, i + 1);
    j = next(b.volumes, j + 1);
  }
  return i == a.volumes.size() && j == b.volumes.size();
}

bool same_namespace_and_labels(const model::pod& a,
                               const model::pod& b) noexcept {
  return a.ns == b.ns && a.labels == b.labels;
}

bool always_same(const model::pod&, const model::pod&) noexcept {
  return true;
}

} // namespace tessera::plugins
