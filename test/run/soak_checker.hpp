// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `soak_checker`: the fault soak's judge. It sees the cluster only as the
/// API serves it (a NodeList and a PodList, decoded here with its own
/// resource arithmetic) and never the schedulers' state, and it remembers
/// what the soak driver did: which pods it created and deleted, which nodes
/// vanished and when. From that it names every broken invariant:
///
///   safety (must hold at every observation)
///     - a pod the driver created and never deleted is still there;
///     - a pod's spec.nodeName never changes once set (a second binding is
///       a rebind or a duplicate);
///     - no node holds more than its allocatable cpu, memory and pods;
///     - no pod is bound to a node that does not exist, except a binding
///       that raced the node's deletion (bound, per its PodScheduled
///       transition time, within the deletion's race window), which the
///       pod garbage collector removes in a real cluster and the driver
///       here; a node the cluster came back without has no race window;
///   liveness (after the cluster settled)
///     - every pending pod carries PodScheduled=False, reason
///       Unschedulable and a message;
///     - no pending pod fits on a node: with room for it, it should have
///       been bound.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::test {

/// A pod as the API showed it.
struct observed_pod {
  std::string name;
  /// spec.nodeName ("" when pending).
  std::string node;
  /// metadata.deletionTimestamp is set.
  bool terminating = false;
  /// The pod's effective requests: the containers' sum, raised to any
  /// init container's request.
  std::int64_t cpu_milli = 0;
  std::int64_t memory_bytes = 0;
  /// The PodScheduled condition ("" when absent).
  std::string scheduled_status;
  std::string scheduled_reason;
  std::string scheduled_message;
  /// lastTransitionTime of PodScheduled=True: when it was bound.
  std::optional<std::chrono::system_clock::time_point> bound_at;
};

/// A node as the API showed it.
struct observed_node {
  std::string name;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t pods = 0;
  /// Neither spec.unschedulable nor tainted: a node every soak pod may use.
  bool open = true;
};

/// One look at the cluster.
struct observation {
  std::map<std::string, observed_node> nodes;
  std::map<std::string, observed_pod> pods;

  /// Bound pods (including terminating ones).
  std::size_t bound() const;
  /// Pending pods that are not being deleted.
  std::size_t pending() const;
};

/// Decodes a NodeList and a PodList body (JSON); nullopt with `error` set
/// when either is not what the API serves.
std::optional<observation> decode_observation(std::string_view nodes_json,
                                              std::string_view pods_json,
                                              std::string& error);

class soak_checker {
public:
  /// The driver created pod `name` (names are never reused).
  void created(const std::string& name);
  /// The driver deleted pod `name` (or the garbage collector did): it may
  /// go at any time from now on.
  void deleted(const std::string& name);
  /// Node `name` stopped existing at `when`; node names are never reused.
  /// A binding to it up to `race_window` later raced its disappearance
  /// (nullopt: no binding can have raced it).
  void node_vanished(const std::string& name,
                     std::chrono::system_clock::time_point when,
                     std::optional<std::chrono::seconds> race_window);
  /// Safety violations in `o`, one line each; records first bindings.
  std::vector<std::string> safety(const observation& o);
  /// Pods bound to a vanished node within the race window: not violations,
  /// but orphans the driver removes as the pod garbage collector would.
  std::vector<std::string> raced_orphans(const observation& o) const;
  /// Liveness violations in `o`, one line each (meaningful once settled).
  std::vector<std::string> settled(const observation& o) const;
  /// When node `name` vanished (nullopt: it did not).
  std::optional<std::chrono::system_clock::time_point>
  vanished_at(const std::string& name) const;
  /// Pods created and not deleted.
  const std::set<std::string>& live() const {
    return live_;
  }

private:
  /// When a pod bound to missing `node` is a race, not a violation.
  bool raced(const observed_pod& p) const;

  std::set<std::string> live_;
  std::map<std::string, std::string> bound_to_;
  struct vanished_node {
    std::chrono::system_clock::time_point when;
    std::optional<std::chrono::seconds> race_window;
  };
  std::map<std::string, vanished_node> vanished_;
};

} // namespace tessera::test
