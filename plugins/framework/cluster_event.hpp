// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Cluster events and queueing hints: how the queue knows which unschedulable
/// pods a change may help. Each plugin registers the events that can make a
/// pod it rejected schedulable, optionally with a hint function that looks at
/// the pod and the changed object and answers Queue or Skip. When an event
/// arrives the queue asks only the hints of the plugins that rejected each
/// pod (upstream's QueueingHint mechanism, on by default since 1.32).
#pragma once

#include "model/object.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace tessera::plugins {

enum class event_resource : std::uint8_t {
  /// Any pod other than the waiting one (assigned or not); hints check.
  pod,
  node,
  namespace_,
  pod_disruption_budget,
  persistent_volume,
  persistent_volume_claim,
  storage_class,
  csi_node,
  csi_driver,
  csi_storage_capacity,
  volume_attachment,
  /// Matches every resource (e.g. UnschedulableTimeout, ForceActivate).
  wildcard,
};

/// Bitmask of what happened to the object.
enum class action : std::uint32_t {
  none = 0,
  add = 1u << 0,
  remove = 1u << 1,
  update_node_allocatable = 1u << 2,
  update_node_label = 1u << 3,
  update_node_taint = 1u << 4,
  update_node_condition = 1u << 5,
  update_node_annotation = 1u << 6,
  update_pod_label = 1u << 7,
  update_pod_scale_down = 1u << 8,
  update_pod_toleration = 1u << 9,
  update_pod_scheduling_gates_eliminated = 1u << 10,
  /// Any other update of the object.
  update_other = 1u << 11,
  /// A node's status.declaredFeatures changed.
  update_node_declared_feature = 1u << 12,
  update = (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5) | (1u << 6) | (1u << 7)
           | (1u << 8) | (1u << 9) | (1u << 10) | (1u << 11) | (1u << 12),
  all = 0xffffffffu,
};

constexpr action operator|(action a, action b) noexcept {
  return static_cast<action>(static_cast<std::uint32_t>(a)
                             | static_cast<std::uint32_t>(b));
}
constexpr bool intersects(action a, action b) noexcept {
  return (static_cast<std::uint32_t>(a) & static_cast<std::uint32_t>(b)) != 0;
}

struct cluster_event {
  event_resource resource = event_resource::wildcard;
  action actions = action::all;

  /// True when this registered event covers the concrete event `e`.
  bool matches(const cluster_event& e) const noexcept {
    return (resource == event_resource::wildcard || e.resource == resource
            || e.resource == event_resource::wildcard)
           && intersects(actions, e.actions);
  }
  /// Upstream's label for metrics and logs, e.g. "NodeAdd",
  /// "AssignedPodDelete", "NodeTaintChange".
  std::string label() const;
};

/// Well-known non-object events.
inline constexpr cluster_event unschedulable_timeout{event_resource::wildcard,
                                                     action::all};

enum class queueing_hint : std::uint8_t { queue, skip };

/// Decides whether `changed` (before: `old_object`, after: `new_object`;
/// either may be empty for add/remove) may make `waiting` schedulable.
using hint_function = std::function<queueing_hint(
  const model::pod& waiting, const model::object* old_object,
  const model::object* new_object)>;

struct cluster_event_with_hint {
  cluster_event event;
  /// Empty: always queue.
  hint_function hint;
};

/// The object a hint is passed, as the kind `Ptr` points to (`model::pod_ptr`
/// gives a `const model::pod*`): null when no object is passed, when it is of
/// another kind, or when its pointer is null.
template <class Ptr>
const typename Ptr::element_type* object_as(const model::object* o) noexcept {
  const auto* held = o != nullptr ? std::get_if<Ptr>(o) : nullptr;
  return held != nullptr ? held->get() : nullptr;
}

/// The hint for an update of the waiting pod itself (a gate removed, a
/// toleration added): Queue when the updated pod is the waiting one, Skip for
/// any other pod, and Queue when no pod is passed.
queueing_hint hint_own_update(const model::pod& waiting,
                              const model::object* old_object,
                              const model::object* new_object);

} // namespace tessera::plugins
