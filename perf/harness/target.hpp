// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `target`: the cluster a workload runs against and how the scheduler
/// reaches it.
///
/// - `inprocess`: the embedded store in this process (fake kubelet off by
///   default); the harness writes by store calls, the scheduler reads and
///   writes through the store bridge (actors/store).
/// - `embedded-http`: the same store with kwok's fake kubelet, served by
///   `tessera cluster`'s HTTP server on 127.0.0.1; the harness writes by
///   store calls, the scheduler uses the API client (actors/api).
/// - `kubeconfig`: a real (kwok) cluster; the harness and the scheduler use
///   the API client, or an external scheduler does the work.
///
/// The harness creates objects through `create()`; the scheduler's side
/// (source and sink) is opened separately, after the cluster exists, so
/// that the CPU meter can tell the scheduler's threads from the cluster's.
#pragma once

#include "actors/sink.hpp"
#include "actors/source.hpp"
#include "io/apiserver/fwd.hpp"
#include "metrics/fwd.hpp"
#include "perf/harness/templates.hpp"
#include "support/clock.hpp"
#include "support/error.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace tessera::perf {

class cpu_meter;

enum class target_kind : std::uint8_t { inprocess, embedded_http, kubeconfig };

/// "inprocess", "embedded-http", "kubeconfig".
std::string_view to_string(target_kind k) noexcept;

struct target_options {
  target_kind kind = target_kind::embedded_http;
  /// kubeconfig target: the file and context.
  std::string kubeconfig;
  std::string context;
  /// kubeconfig target: do not run a scheduler; observe the pods' bindings
  /// (a scheduler deployed in the cluster does the work).
  bool external_scheduler = false;
  /// Client-side rate limit of the API clients (0 = none).
  double qps = 0;
  int burst = 1000;
  /// The embedded server's I/O threads.
  int server_threads = 2;
  /// Write Scheduled / FailedScheduling events.
  bool record_events = true;
  /// Embedded targets: run kwok's fake kubelet in the cluster (bound pods
  /// turn Running — one more pod write and watch event each — and
  /// terminating pods are deleted at once). Off, the cluster is what
  /// upstream's scheduler_perf runs against: an API server, no kubelet.
  bool fake_kubelet = false;
  /// Parallel create calls (kubeconfig target).
  int create_workers = 8;
  /// Seed of the embedded store's UIDs and names (0 = random).
  std::uint64_t seed = 0;
  /// Told about the target's own worker threads (not the scheduler's).
  cpu_meter* meter = nullptr;
  /// Where the target's API clients and source record (not owned); null =
  /// recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

/// What the API answered to a create.
struct created_object {
  std::string name;
  /// The stored object as JSON (shared: the embedded store's own bytes).
  std::shared_ptr<const std::string> json;
};

/// How often `target::create` retries a generated name that collides
/// before it reports the conflict.
inline constexpr int max_name_retries = 8;

class target {
public:
  virtual ~target() = default;

  virtual target_kind kind() const noexcept = 0;

  /// Creates one object (the template's apiVersion and kind pick the
  /// resource) and returns what the API stored. `ns` is ignored for
  /// cluster-scoped kinds. A generated name that collides is retried.
  [[nodiscard]] virtual expected<created_object>
  create(const object_template& t, const std::string& ns,
         const std::string& json)
    = 0;

  /// Creates `count` copies of a pod; `created(object, t)` runs for each
  /// (from any thread, never concurrently) with `t` taken before its
  /// create call. Stops at the first error.
  [[nodiscard]] virtual error create_pods(
    const object_template& t, const std::string& ns, const std::string& json,
    std::size_t count,
    const std::function<void(const created_object&, time_point)>& created);

  /// Replaces object `name` with `json` (PUT, unconditional), or its
  /// `subresource` ("status"; empty = the object itself).
  [[nodiscard]] error update(const object_template& t, const std::string& ns,
                             const std::string& name, const std::string& json,
                             const std::string& subresource);

  /// Deletes one object (404 is not an error).
  [[nodiscard]] error remove(const object_template& t, const std::string& ns,
                             const std::string& name);

  /// Creates a namespace. `owned` tells whether the harness may use an
  /// existing one (the embedded cluster is the harness's own; a real
  /// cluster's existing namespaces are refused).
  [[nodiscard]] virtual error create_namespace(const std::string& name,
                                               const std::string& json)
    = 0;

  /// Nodes must carry kwok's fake-node marks and pods its toleration.
  virtual bool kwok_marks() const noexcept {
    return false;
  }
  /// Whether the harness runs the scheduler (false: an external one).
  virtual bool runs_scheduler() const noexcept {
    return true;
  }

  /// Creates the scheduler's source and sink (after the cluster is up).
  [[nodiscard]] virtual error open_scheduler_side() = 0;
  virtual actors::cluster_source& source() = 0;
  virtual actors::cluster_sink& sink() = 0;
  /// Ends the scheduler side's I/O (after the pipeline stopped).
  virtual void close_scheduler_side() = 0;

  /// Deletes what the harness created on a cluster it does not own.
  virtual void cleanup() {
  }

protected:
  /// `update` for a served resource.
  [[nodiscard]] virtual error
  update_object(const apiserver::resource_info& res, const object_template& t,
                const std::string& ns, const std::string& name,
                const std::string& json, const std::string& subresource)
    = 0;
  /// `remove` for a served resource.
  [[nodiscard]] virtual error
  remove_object(const apiserver::resource_info& res, const object_template& t,
                const std::string& ns, const std::string& name)
    = 0;
};

/// Builds a target; the embedded ones start their store, fake kubelet and
/// (for embedded-http) HTTP server here.
[[nodiscard]] expected<std::unique_ptr<target>>
make_target(const target_options& options);

/// The labels of every object created on a real cluster:
/// `tessera.dev/perf-run: <run id>`.
inline constexpr const char* run_label = "tessera.dev/perf-run";

} // namespace tessera::perf
