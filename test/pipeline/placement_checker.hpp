// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `check_placements`: the hard rules every final placement must satisfy,
/// checked from the generator's specs and the final pod -> node map alone
/// (no plugin code): resources (cpu, memory, pods, example.com/gpu), host
/// ports, NoSchedule/NoExecute taints, unschedulable nodes, node affinity,
/// node selector and metadata.name fields, required anti-affinity between
/// any two pods, and the spread groups' final skew (see cluster_gen.hpp for
/// why max - min <= maxSkew must hold at the end).
#pragma once

#include "test/pipeline/cluster_gen.hpp"

#include <map>
#include <string>
#include <vector>

namespace tessera::pipeline_test {

/// Every violation found, one readable line each; empty when none.
/// `where` maps pod name -> node for every pod present at the end.
std::vector<std::string>
check_placements(const cluster_spec& spec,
                 const std::map<std::string, std::string>& where);

/// True when `message` reads like a FitError over `nodes` nodes:
/// "0/<nodes> nodes are available: <reasons>." with an optional
/// " preemption: ..." suffix.
bool is_fit_error(const std::string& message, std::size_t nodes);

} // namespace tessera::pipeline_test
