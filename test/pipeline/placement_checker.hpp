// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `check_placements`: the hard rules every final placement must satisfy,
/// checked from the generator's specs and the final pod -> node map alone
/// (no plugin code): resources (cpu, memory, pods, example.com/gpu), host
/// ports, NoSchedule/NoExecute taints, unschedulable nodes, node affinity,
/// node selector and metadata.name fields, required anti-affinity between
/// any two pods, and the spread groups' final skew (see cluster_gen.hpp for
/// why max - min <= maxSkew must hold at the end).
///
/// Storage is checked from the storage specs and the volume writes PreBind
/// made: no volume bound to two claims (nor a claim to two volumes, nor
/// both bound and provisioned), every static binding to a volume of the
/// claim's class with room and access modes, reachable from the pod's node;
/// provisioning only for WaitForFirstConsumer classes with a provisioner
/// whose allowedTopologies admit the node; every placed pod's claims bound
/// to volumes reachable from its node (node affinity and zone label) or
/// provisioned on its node; per node, the unique volumes of `csi_driver`
/// within the CSINode's count; at most one pod per ReadWriteOncePod claim.
#pragma once

#include "test/pipeline/cluster_gen.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tessera::pipeline_test {

/// One PreBind volume write, as plain names.
struct volume_write_record {
  std::string pod;
  std::string node;
  /// (claim, volume) pairs bound.
  std::vector<std::pair<std::string, std::string>> bindings;
  /// Claims annotated with the selected node.
  std::vector<std::string> provisions;
};

/// Every violation found, one readable line each; empty when none.
/// `where` maps pod name -> node for every pod present at the end;
/// `writes` are the volume writes, in order.
std::vector<std::string>
check_placements(const cluster_spec& spec,
                 const std::map<std::string, std::string>& where,
                 const std::vector<volume_write_record>& writes = {});

/// True when `message` reads like a FitError over `nodes` nodes:
/// "0/<nodes> nodes are available: <reasons>." with an optional
/// " preemption: ..." suffix.
bool is_fit_error(const std::string& message, std::size_t nodes);

} // namespace tessera::pipeline_test
