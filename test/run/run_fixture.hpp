// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Helpers of the `tessera run` integration tests: an embedded API server
/// on a loopback port (`test_cluster`, with direct access to its store and
/// fault hooks), `tessera run` in-process on a thread (`scheduler_run`,
/// stopped through its run_control), child processes, temporary
/// directories and a test PKI made with the openssl CLI.
#pragma once

#include "cmd/run.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "test/support/temp_dir.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tessera::test {

using namespace std::chrono_literals;

/// Polls `pred` every 10 ms until it holds or `timeout` passes.
bool wait_until(const std::function<bool()>& pred,
                std::chrono::milliseconds timeout = 20s);

std::string read_text(const std::string& path);

/// A loopback port free right now, below the kernel's ephemeral range so
/// that no other socket gets it by chance later (the run's port flags take
/// a number; 0 means off).
int free_port();

/// A CA, a server certificate for 127.0.0.1 and client certificates, made
/// with the openssl CLI in `dir` (ca.crt, server.crt/key, client.crt/key
/// for CN tessera, admin.crt/key for CN tessera:cluster-admin in O ops).
/// `ok()` is false (with the failing command in `problem`) when openssl is
/// unavailable.
struct test_pki {
  explicit test_pki(const temp_dir& dir);
  bool ok = true;
  std::string problem;
};

/// The embedded API server in-process.
class test_cluster {
public:
  explicit test_cluster(apiserver::server_config cfg = {},
                        apiserver::store_config sc = {});
  ~test_cluster();

  apiserver::store& store() {
    return *store_;
  }
  std::string url() const;
  /// An outage: the server goes away with its connections; the store stays.
  void stop_server();
  /// The server back on the same port, over the same store.
  void restart_server();

  /// A node with `cpu` and `pods` allocatable; `spec` is its spec as JSON.
  void create_node(const std::string& name, const std::string& cpu = "4",
                   const std::string& pods = "110",
                   const std::string& spec = "{}");
  /// A pod requesting `cpu`; `extra_spec` is spliced into spec (a JSON
  /// fragment ending in a comma, e.g. `"schedulerName":"x",`).
  void create_pod(const std::string& name, const std::string& cpu = "100m",
                  const std::string& extra_spec = "");
  void delete_pod(const std::string& name);
  /// The pod's spec.nodeName ("" when unbound, nullopt when gone).
  std::optional<std::string> node_of(const std::string& name);
  boost::json::value pod_doc(const std::string& name);
  /// Events (core/v1 view) about pod `name`.
  std::vector<boost::json::value> events_of(const std::string& name);
  /// How many pods in "default" are bound.
  std::size_t bound_pods();

private:
  void start_server(std::uint16_t port);

  apiserver::server_config config_;
  std::unique_ptr<apiserver::store> store_;
  std::unique_ptr<apiserver::api_server> server_;
  std::uint16_t port_ = 0;
  std::string url_;
};

/// `tessera run` in-process on a thread of its own.
class scheduler_run {
public:
  /// Starts run_scheduler(args); see `started()` and `stop()`.
  explicit scheduler_run(std::vector<std::string> args);
  /// stop().
  ~scheduler_run();

  /// Requests a stop and returns the exit code.
  int stop();
  /// The exit code once the run ended by itself (lost lease, bad input).
  std::optional<int> finished(std::chrono::milliseconds wait = 0ms);
  /// True once the pipeline runs (the instance is leading).
  bool started() const {
    return handles_.load() != nullptr;
  }
  bool wait_started(std::chrono::milliseconds timeout = 20s) const;
  /// The sink, once started.
  adapters::api_sink* sink() const;
  const cmd::run_status* status() const {
    return status_.load();
  }
  std::chrono::steady_clock::time_point started_at() const {
    return started_at_;
  }
  std::chrono::steady_clock::time_point finished_at() const {
    return finished_at_;
  }

private:
  cmd::run_control control_;
  cmd::run_hooks hooks_;
  std::atomic<const cmd::run_handles*> handles_{nullptr};
  cmd::run_handles handles_copy_;
  std::atomic<const cmd::run_status*> status_{nullptr};
  std::atomic<int> code_{-1};
  std::chrono::steady_clock::time_point started_at_{};
  std::chrono::steady_clock::time_point finished_at_{};
  std::thread thread_;
};

/// A child process with its stdout and stderr captured.
class child_process {
public:
  explicit child_process(const std::vector<std::string>& argv);
  ~child_process();
  /// Reads stdout until a line starting with `prefix` (or timeout).
  std::string wait_for_line(const std::string& prefix,
                            std::chrono::milliseconds timeout = 20s);
  void signal(int sig);
  /// Waits for exit; nullopt on timeout.
  std::optional<int> wait(std::chrono::milliseconds timeout = 20s);
  /// Everything written to stderr so far (after wait()).
  std::string stderr_text();
  /// Reads what the child wrote since the last call and keeps only the
  /// last `keep` bytes of stdout and of stderr: a long-running child that
  /// logs must be drained, or it blocks on a full pipe.
  void drain_output(std::size_t keep);
  int pid() const {
    return pid_;
  }

private:
  int pid_ = -1;
  int out_ = -1;
  int err_ = -1;
  std::string out_buf_;
  std::string err_buf_;
  std::optional<int> code_;
  void drain(int fd, std::string& into);
};

/// The `tessera` binary under test.
std::string tessera_binary();

/// `tessera run` against `url` with leader election on a 2 s lease (and
/// `extra` flags), no health server.
std::vector<std::string> elected_run_args(const std::string& url,
                                          std::vector<std::string> extra = {});

/// The URL a `tessera cluster` child announces ("" when it did not).
std::string cluster_url(child_process& cluster);

} // namespace tessera::test
