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
///
/// The secure port checks every request as kube-scheduler's does
/// (`serving::delegated_auth`): its reviews go through REST clients of
/// their own to the API server the `--authentication-kubeconfig` and
/// `--authorization-kubeconfig` name (else the scheduler's), and its client
/// CA comes from `--client-ca-file` or, unless skipped, from the configmap
/// kube-system/extension-apiserver-authentication, read once at start.
#pragma once

#include "cmd/run.hpp"
#include "io/serving/ops_server.hpp"
#include "io/serving/review_client.hpp"
#include "metrics/scheduler_metrics.hpp"

#include <memory>

namespace tessera::cmd {

/// The health checks above over `status` (which must outlive them).
serving::ops_providers scheduler_providers(const run_status& status);

class ops_hooks {
public:
  /// A fresh metrics instance and no server yet.
  ops_hooks();
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
  /// The secure port's checks (clients, reviewers, client CA).
  expected<std::shared_ptr<serving::delegated_auth>>
  make_auth(const serving_options& options);

  metrics::scheduler_metrics metrics_;
  // In this order: each is used by the next, the server last.
  std::unique_ptr<io::rest_client> authn_client_;
  std::unique_ptr<io::rest_client> authz_client_;
  std::unique_ptr<serving::review_client> token_reviews_;
  std::unique_ptr<serving::review_client> access_reviews_;
  std::unique_ptr<serving::ops_server> server_;
};

} // namespace tessera::cmd
