// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `tessera run`, embeddable: `run_scheduler` is the whole verb minus the
/// signal handling, so tests run it in-process (and stop it through
/// `run_control`), and the health/metrics server plugs in through
/// `run_hooks::start_serving`, reading `run_status`.
///
/// Life of a run:
///
///   flags + config ──(bad: exit 2)──> connect (kubeconfig / in-cluster /
///   --master; bad: exit 2) ──> start_serving hook ──> leader election
///   (when enabled: wait until leading) ──> pipeline + API source/sink ──>
///   caches synced (first cycle only after that) ──> schedule ...
///     stop requested (SIGTERM/SIGINT): stop popping, drain binds (grace
///       period), stop the pipeline, release the lease, exit 0
///     lease lost: stop at once, exit 1 (as kube-scheduler)
#pragma once

#include "adapters/fwd.hpp"
#include "cmd/verbs.hpp"
#include "io/fwd.hpp"
#include "io/kubeconfig.hpp"
#include "io/serving/delegated_auth.hpp"
#include "metrics/fwd.hpp"
#include "metrics/series.hpp"
#include "support/clock.hpp"
#include "support/error.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace tessera::cmd {

/// A stop request shared between the signal handler (or a test) and the
/// run.
class run_control {
public:
  void request_stop();
  bool stop_requested() const;
  /// Waits until a stop is requested or `d` passed; returns
  /// stop_requested().
  bool wait_for(std::chrono::milliseconds d);

private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
};

/// What the health server reads while the scheduler runs (thread-safe).
class run_status {
public:
  /// The caches delivered their initial state.
  bool synced() const noexcept {
    return synced_.load();
  }
  /// Leader election is on.
  bool leader_election() const noexcept {
    return leader_election_.load();
  }
  /// This instance holds the lease (always true without leader election).
  bool leading() const noexcept {
    return leading_.load();
  }
  /// Shutdown began.
  bool stopping() const noexcept {
    return stopping_.load();
  }
  /// Ready to schedule: synced, leading (or no leader election), not
  /// stopping. A standby instance is alive but not ready.
  bool ready() const noexcept {
    return synced() && leading() && !stopping();
  }
  /// The holder identity (`hostname_uuid`; empty without leader election).
  std::string identity() const;

  void set_synced(bool v) noexcept {
    synced_.store(v);
  }
  void set_leader_election(bool v) noexcept {
    leader_election_.store(v);
  }
  void set_leading(bool v) noexcept {
    leading_.store(v);
    if (leading_gauge_ != nullptr)
      leading_gauge_->set(v ? 1 : 0);
  }
  /// Mirror leading() into `g` (leader_election_master_status) from now on;
  /// set before other threads see this status.
  void mirror_leading(metrics::gauge* g) noexcept {
    leading_gauge_ = g;
  }
  void set_stopping(bool v) noexcept {
    stopping_.store(v);
  }
  void set_identity(std::string id);

private:
  std::atomic<bool> synced_{false};
  std::atomic<bool> leader_election_{false};
  std::atomic<bool> leading_{false};
  std::atomic<bool> stopping_{false};
  metrics::gauge* leading_gauge_ = nullptr;
  mutable std::mutex mutex_;
  std::string identity_;
};

/// `--bind-address`, `--secure-port`, `--port` as validated.
struct serving_options {
  std::string bind_address = "0.0.0.0";
  /// HTTPS port (kube-scheduler 10259); 0 = off.
  int secure_port = 10259;
  /// Plain HTTP port; 0 = off (the default).
  int port = 0;
  /// `--tls-cert-file`, `--tls-private-key-file`; neither = a self-signed
  /// certificate made at start, as kube-scheduler does.
  std::string tls_cert_file;
  std::string tls_private_key_file;
  /// The effective configuration as YAML (what --write-config-to writes),
  /// served as JSON on /configz.
  std::string effective_config;

  /// How the secure port checks requests (paths, groups, cache TTLs); the
  /// reviewers and the client CA are filled in when serving starts.
  serving::delegated_auth_config auth;
  /// `--client-ca-file` ("" = look it up unless skip_lookup).
  std::string client_ca_file;
  /// `--authentication-skip-lookup`: never read the client CA from
  /// kube-system/extension-apiserver-authentication.
  bool skip_lookup = false;
  /// `--authentication-tolerate-lookup-failure`: a failed lookup is a
  /// warning (upstream's kube-scheduler default), not an exit.
  bool tolerate_lookup_failure = true;
  /// Where TokenReviews and SubjectAccessReviews go
  /// (`--authentication-kubeconfig`, `--authorization-kubeconfig`, else
  /// the scheduler's own connection).
  io::rest_config authentication_target;
  io::rest_config authorization_target;
};

/// The running pieces, for tests and the health server.
struct run_handles {
  adapters::api_source* source = nullptr;
  adapters::api_sink* sink = nullptr;
  io::rest_client* client = nullptr;
  const run_status* status = nullptr;
};

struct run_hooks {
  /// Stop requests; null = a private one (nothing but a lost lease stops).
  run_control* control = nullptr;
  /// Starts the health/metrics server once flags are valid;
  /// an error ends the run with exit 1. Null: no server (the flags are
  /// still validated).
  std::function<error(const serving_options&, const run_status&)> start_serving;
  /// Stops it, last thing before returning.
  std::function<void()> stop_serving;
  /// Called once the pipeline runs (before the caches synced).
  std::function<void(const run_handles&)> on_started;
  /// Where the pipeline, the API clients and the source record (not owned;
  /// it must outlive run_scheduler, which returns only once nothing records
  /// into it); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

/// `tessera run` without signal handling; returns the exit code.
int run_scheduler(const args& a, run_hooks& hooks);

} // namespace tessera::cmd
