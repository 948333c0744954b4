// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The cluster-scoped and policy objects the scheduler reads besides pods and
/// nodes: namespaces (for namespaceSelector), priority classes (for priority
/// admission where no API server did it, e.g. simulate),
/// PodDisruptionBudgets (for preemption) and the workload objects whose
/// selectors give PodTopologySpread its default constraints.
#pragma once

#include "model/labels.hpp"
#include "model/pod.hpp"
#include "model/symbol.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::model {

struct namespace_info {
  symbol name;
  std::string uid;
  std::string resource_version;
  label_set labels;
  bool terminating = false;
  friend bool operator==(const namespace_info&, const namespace_info&)
    = default;
};
using namespace_ptr = std::shared_ptr<const namespace_info>;

struct priority_class {
  std::string name;
  std::string resource_version;
  std::int32_t value = 0;
  bool global_default = false;
  preemption_policy preemption = preemption_policy::preempt_lower_priority;
  friend bool operator==(const priority_class&, const priority_class&)
    = default;
};
using priority_class_ptr = std::shared_ptr<const priority_class>;

/// An intstr.IntOrString such as minAvailable: 2 or "50%".
struct int_or_percent {
  std::int32_t value = 0;
  bool percent = false;
  friend bool operator==(const int_or_percent&, const int_or_percent&)
    = default;
};

struct disruption_budget {
  symbol ns;
  std::string name;
  std::string uid;
  std::string resource_version;
  /// spec.selector; nil matches nothing, empty matches every pod in ns.
  label_selector selector = label_selector::nothing();
  std::optional<int_or_percent> min_available;
  std::optional<int_or_percent> max_unavailable;
  /// status.disruptionsAllowed; nullopt when the object carries no status
  /// (objects from files), in which case the reader may compute it.
  std::optional<std::int32_t> disruptions_allowed;
  /// status.disruptedPods: pod names already being disrupted.
  std::vector<std::string> disrupted_pods;
  friend bool operator==(const disruption_budget&, const disruption_budget&)
    = default;
};
using disruption_budget_ptr = std::shared_ptr<const disruption_budget>;

/// The kinds that select pods for default spreading.
enum class workload_kind : std::uint8_t {
  service,
  replication_controller,
  replica_set,
  stateful_set,
};

/// What the scheduler keeps of a Service, ReplicationController, ReplicaSet
/// or StatefulSet: which pods it selects (nothing else).
struct workload {
  workload_kind kind = workload_kind::service;
  symbol ns;
  std::string name;
  std::string uid;
  std::string resource_version;
  /// spec.selector of a Service or ReplicationController (a plain map);
  /// absent and empty read alike (neither adds to a default selector).
  label_set selector_map;
  /// spec.selector of a ReplicaSet or StatefulSet; nil matches nothing.
  label_selector selector = label_selector::nothing();

  /// True when what default spreading reads is the same in both.
  bool same_selection(const workload& o) const noexcept {
    return kind == o.kind && selector_map == o.selector_map
           && selector == o.selector;
  }
  friend bool operator==(const workload&, const workload&) = default;
};
using workload_ptr = std::shared_ptr<const workload>;

} // namespace tessera::model
