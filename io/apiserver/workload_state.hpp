// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `workload_state`: the controller thread's state of `workload_controller`
/// (internal to io/apiserver): the workload objects as last seen, the index
/// of their pods, and one sync function per kind — replica sets and
/// deployments in workload_sets.cpp, jobs, daemon sets and stateful sets in
/// workload_pods.cpp, the watches, the index, garbage collection and the
/// shared writes in workload_controller.cpp.
#pragma once

#include "io/apiserver/controller_loop.hpp"
#include "io/apiserver/store.hpp"
#include "io/apiserver/workload_controller.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

namespace boost::json {
class array;
class object;
class value;
} // namespace boost::json

namespace tessera::apiserver::workloads {

/// The label and annotation a Deployment's ReplicaSets carry.
inline constexpr std::string_view hash_label = "pod-template-hash";
inline constexpr std::string_view revision_annotation
  = "deployment.kubernetes.io/revision";
/// The label of a DaemonSet's and StatefulSet's pods naming their
/// template's revision.
inline constexpr std::string_view revision_label = "controller-revision-hash";

/// What the controllers need of one pod.
struct pod_info {
  std::string ns;
  std::string name;
  std::uint64_t rv = 0;
  /// The uid of its controller ownerReference.
  std::string owner;
  /// spec.nodeName, or the node a DaemonSet's pod is meant for.
  std::string node;
  /// The `controller-revision-hash` label.
  std::string revision;
  bool bound = false;
  bool running = false;
  bool ready = false;
  bool deleting = false;
  bool succeeded = false;
  bool failed = false;
  bool active() const {
    return !deleting && !succeeded && !failed;
  }
};

/// Pod counts of one owner.
struct pod_counts {
  std::int64_t active = 0;
  std::int64_t ready = 0;
  std::int64_t succeeded = 0;
  std::int64_t failed = 0;
};

/// An owner as last seen: the object and the uid of its own controller.
struct owner_entry {
  object_ptr obj;
  std::string owner;
};

/// What a DaemonSet needs of a node.
struct node_entry {
  object_ptr obj;
};

const resource_info& res(storage_kind k);

/// The uid of the controller ownerReference of a parsed object; "" when
/// none.
std::string controller_uid(const boost::json::object& root);

/// An int-or-percent of `total` (percentages rounded up or down).
std::int64_t scaled_value(const boost::json::value* v, std::int64_t total,
                          bool round_up, std::int64_t absent);

/// The hash of a pod template: FNV-1a of its JSON, its decimal digits
/// spelled in the alphabet of generated names (no vowels, so no words).
std::string template_hash(const boost::json::value& tmpl);

/// A controller ownerReference to `owner`.
boost::json::object owner_reference(std::string_view api_version,
                                    std::string_view kind,
                                    const stored_object& owner);

/// A condition of a status, carrying over the times of `old` when its
/// status and reason are unchanged (so a settled object is not rewritten).
boost::json::object condition(const boost::json::array* old,
                              std::string_view type, bool status,
                              std::string_view reason, std::string message,
                              const std::string& now, bool update_time);

struct workload_state {
  /// Starts the controller thread on `s`: a pass on each change, and every
  /// resync while one left work (a pod still to create, delete or count).
  workload_state(store& s, workload_controller_config c);
  /// Stops the thread, then the watches.
  ~workload_state();
  workload_state(const workload_state&) = delete;
  workload_state& operator=(const workload_state&) = delete;

  store& st;
  workload_controller_config cfg;
  std::atomic<std::size_t> writes{0};
  std::atomic<bool> pods_open{false};
  std::shared_ptr<watcher> deployments_w, sets_w, jobs_w, daemons_w, stateful_w,
    pods_w, nodes_w;

  // Objects by uid.
  std::map<std::string, owner_entry> deployments, sets, jobs, daemons, stateful;
  /// Nodes by name, while a DaemonSet exists.
  std::map<std::string, node_entry> nodes;
  /// Uids of deleted owners whose dependents are still to be collected.
  std::set<std::string> gone;
  /// Pods by owner uid, then "ns/name".
  std::unordered_map<std::string, std::map<std::string, pod_info>> pods;
  /// Owner uid of each indexed pod.
  std::unordered_map<std::string, std::string> owner_of;
  // Declared last: started when everything else is constructed.
  controller_loop loop;

  // ---- watches and the index (workload_controller.cpp)
  std::shared_ptr<watcher> open(storage_kind kind);
  /// Drains one owner watch into `into`; deleted owners go to `gone`.
  void drain_owners(std::shared_ptr<watcher>& w, storage_kind kind,
                    std::map<std::string, owner_entry>& into);
  /// Keeps `nodes` while a DaemonSet exists.
  void drain_nodes();
  void forget_pod(const std::string& key);
  bool known_owner(const std::string& uid) const;
  void index_pod(const object_ptr& obj);
  void drain_pods();
  pod_counts count(const std::string& owner) const;
  /// The indexed pods of `owner` ("ns/name" → pod; empty when none).
  const std::map<std::string, pod_info>&
  pods_of(const std::string& owner) const;

  // ---- writes (workload_controller.cpp)
  void note_write();
  /// Creates a pod of `owner` from its parsed template, named `name` (or
  /// `<owner>-xxxxx`), after `adjust` had its say on the pod.
  bool create_pod(const stored_object& owner, const boost::json::object* tmpl,
                  boost::json::object owner_ref, std::string_view name = {},
                  const std::function<void(boost::json::object&)>& adjust = {});
  void delete_pod(const std::string& key, const pod_info& p);
  /// Deletes `n` active pods of `owner`, the least advanced first.
  void delete_pods(const std::string& owner, std::int64_t n);
  /// Replaces the status of `obj` when `status` differs from it.
  void write_status(storage_kind kind, const stored_object& obj,
                    const boost::json::object* old, boost::json::object status);
  /// Deletes the dependents of deleted owners; true while some remain.
  bool collect();
  /// Drains the watches and syncs every workload; true while one is not
  /// settled (or dependents remain to be collected).
  bool pass();
  /// A watch the pass needs but the store refused: nothing would wake the
  /// loop for its kind, so it polls at the resync until the watch opens.
  bool watch_missing() const;

  // ---- replica sets and deployments (workload_sets.cpp)
  /// Sets spec.replicas of a replica set; true when written.
  bool scale_set(owner_entry& rs, std::int64_t replicas);
  /// True while the set is not settled.
  bool sync_set(owner_entry& rs);
  /// Creates the replica set of the deployment's current template.
  owner_entry* create_set(const stored_object& d,
                          const boost::json::object& root,
                          const std::string& hash, std::int64_t revision,
                          std::int64_t replicas);
  static std::int64_t revision_of(const stored_object& rs);
  static std::int64_t replicas_of(const stored_object& rs);
  static std::string hash_of(const stored_object& rs);
  /// True while the deployment is not settled.
  bool sync_deployment(owner_entry& d);

  // ---- jobs, daemon sets, stateful sets (workload_pods.cpp)
  /// True while the job runs.
  bool sync_job(owner_entry& j);
  /// True while the daemon set is not settled.
  bool sync_daemon_set(owner_entry& ds);
  /// True while the stateful set is not settled.
  bool sync_stateful_set(owner_entry& sts);
};

} // namespace tessera::apiserver::workloads
