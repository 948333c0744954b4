// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/storage.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace tessera::model {

namespace {

// The in-tree plugins CSI migration hands to a CSI driver.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7>
  migrated_provisioners = {{
    {"kubernetes.io/gce-pd", "pd.csi.storage.gke.io"},
    {"kubernetes.io/aws-ebs", "ebs.csi.aws.com"},
    {"kubernetes.io/azure-disk", "disk.csi.azure.com"},
    {"kubernetes.io/azure-file", "file.csi.azure.com"},
    {"kubernetes.io/cinder", "cinder.csi.openstack.org"},
    {"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com"},
    {"kubernetes.io/portworx-volume", "pxd.portworx.com"},
  }};

} // namespace

std::string csi_driver_of_provisioner(std::string_view provisioner) {
  for (const auto& [in_tree, csi] : migrated_provisioners)
    if (in_tree == provisioner)
      return std::string{csi};
  return std::string{provisioner};
}

bool storage_class::allows(const label_set& labels) const noexcept {
  if (allowed_topologies.empty())
    return true;
  return std::any_of(allowed_topologies.begin(), allowed_topologies.end(),
                     [&](const topology_selector_term& term) {
                       return std::all_of(
                         term.match_label_expressions.begin(),
                         term.match_label_expressions.end(),
                         [&](const topology_selector_term::requirement& req) {
                           bool known = false;
                           symbol key = symbol::lookup(req.key, known);
                           const symbol* value
                             = known ? labels.find(key) : nullptr;
                           return value != nullptr
                                  && std::find(req.values.begin(),
                                               req.values.end(), value->view())
                                       != req.values.end();
                         });
                     });
}

const csi_node_driver* csi_node::driver(std::string_view name) const noexcept {
  for (const auto& d : drivers)
    if (d.name == name)
      return &d;
  return nullptr;
}

} // namespace tessera::model
