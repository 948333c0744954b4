// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `kwok_controller`: kwok's fake kubelet inside the embedded cluster
/// (docs/apiserver-protocol.md §8). It watches the store in-process and, for
/// nodes it manages (annotated `kwok.x-k8s.io/node: fake`, or all nodes), runs
/// kwok's "fast" stages as ordinary writes, so a scheduler sees kwok's event
/// load:
///
///   node-initialize  a managed node whose Ready condition is not True gets
///                    Ready/no-pressure conditions, addresses, nodeInfo and,
///                    when absent, kwokctl's capacity (32 cpu, 256Gi, 110).
///   pod-ready        a Pending pod bound to a managed node becomes Running,
///                    Ready, with a podIP from the node's podCIDR, after
///                    `pod_ready_delay` (default immediately).
///   pod-complete     a Running pod owned by a Job becomes Succeeded after
///                    `job_pod_run_time` (default 1 s), its fake run.
///   pod-delete       a pod with deletionTimestamp is deleted at once.
///   heartbeat        optional (off by default): node Leases in
///                    kube-node-lease renewed every interval.
///
/// Also `fake_node_json`, the node generator equal to `kwokctl scale node`
/// (`node-000000`, ...), used by `tessera cluster --nodes N`.
#pragma once

#include "io/apiserver/store.hpp"
#include "support/error.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace tessera::apiserver {

struct kwok_config {
  /// Manage every node, not only those annotated kwok.x-k8s.io/node=fake.
  bool manage_all_nodes = false;
  /// Delay between binding and the pod turning Running.
  std::chrono::milliseconds pod_ready_delay{0};
  /// Move Running Job-owned pods to Succeeded.
  bool complete_job_pods = true;
  /// How long a Job-owned pod runs before it succeeds; 0 = at once.
  std::chrono::milliseconds job_pod_run_time{1000};
  /// Node lease renewal interval; 0 disables heartbeats.
  std::chrono::milliseconds heartbeat_interval{0};
};

class kwok_controller {
public:
  /// Starts the controller thread on `s` (which must outlive it).
  kwok_controller(store& s, kwok_config config);
  /// Stops and joins.
  ~kwok_controller();
  kwok_controller(const kwok_controller&) = delete;
  kwok_controller& operator=(const kwok_controller&) = delete;

  /// Number of stage writes done so far (for tests and metrics).
  std::size_t writes() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Options of the node generator.
struct fake_node_options {
  /// Name prefix; names are the prefix plus a 6-digit index.
  std::string name_prefix = "node-";
  /// A Node as JSON to start from; empty = 4 cpu, 32Gi, 110 pods.
  std::string template_json;
  /// Add the `kwok.x-k8s.io/node=fake:NoSchedule` taint.
  bool taint = false;
  /// Spread nodes over this many `topology.kubernetes.io/zone` values
  /// (`zone-0`, ...); 0 = no zone label.
  int zones = 0;
};

/// The JSON of fake node number `index`: the template (or the default), with
/// kwok's annotations and labels, name, podCIDR 10.x.y.0/24 and InternalIP
/// 192.0.2.1 shifted by the index, and an initialized Ready status, so that
/// a generated node costs exactly one write.
expected<std::string> fake_node_json(std::size_t index,
                                     const fake_node_options& options);

/// Creates `count` fake nodes in `s`; returns the first failure.
error create_fake_nodes(store& s, std::size_t count,
                        const fake_node_options& options);

} // namespace tessera::apiserver
