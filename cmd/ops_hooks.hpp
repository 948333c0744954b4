// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `ops_hooks`: what operations need of `tessera run` — a `scheduler_metrics`
/// instance that `attach` hands to the run (`run_hooks::metrics`, for the
/// pipeline, the API clients and the source), and the operations server
/// (`io/serving/ops_server.hpp`) started through `run_hooks::start_serving`
/// with health checks that read `run_status`:
///
///   /livez, /healthz  ping
///   /readyz           ping; sched-handler-sync (the caches delivered their
///                     initial state — or this instance is a standby, whose
///                     caches start when it leads, as kube-scheduler's with
///                     delayCacheUntilActive); shutdown (not stopping)
///
/// So the leader is ready once synced, a standby waiting for the lease is
/// ready (rolling updates of a 2-replica Deployment progress), and every
/// instance turns unready when it begins to stop.
#pragma once

#include "cmd/run.hpp"
#include "io/serving/ops_server.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <memory>

namespace tessera::cmd {

/// The health checks above over `status` (which must outlive them).
serving::ops_providers scheduler_providers(const run_status& status);

class ops_hooks {
public:
  /// A fresh metrics instance and no server yet.
  ops_hooks() = default;
  /// Stops the server. The metrics instance goes after it; whoever attached
  /// this object must have returned from the run first (run_scheduler
  /// stops and awaits its actors before it returns).
  ~ops_hooks();
  ops_hooks(const ops_hooks&) = delete;
  ops_hooks& operator=(const ops_hooks&) = delete;

  /// Sets `hooks.start_serving` and `hooks.stop_serving`; this object must
  /// outlive the run.
  void attach(run_hooks& hooks);

  /// The running server (null before start_serving and after stop).
  const serving::ops_server* server() const noexcept {
    return server_.get();
  }
  metrics::scheduler_metrics& scheduler_metrics() noexcept {
    return metrics_;
  }

private:
  error start(const serving_options& options, const run_status& status);

  metrics::scheduler_metrics metrics_;
  std::unique_ptr<serving::ops_server> server_;
};

} // namespace tessera::cmd
