// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `perf_fixture`: what the end-to-end perf tests share — a temporary
/// directory holding a small workload file and its templates, the default
/// scheduler profiles, and run options sized for a loaded 2-core machine
/// (generous timeouts, progress off).
#pragma once

#include "io/apiserver/fwd.hpp"
#include "io/apiserver/resources.hpp"
#include "perf/harness/runner.hpp"
#include "test/support/temp_dir.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace tessera::perf::testing {

using test::temp_dir;

/// Writes `templates/node.yaml` and `templates/pod.yaml` (a default node,
/// a 100m pod) and `workload.yaml` with `text`; returns the workload path.
std::string write_small_workload(const temp_dir& dir, const std::string& text);

/// A SchedulingBasic-like test case "Small" with workload "w":
/// `nodes` nodes, `init` pods, `measured` measured pods.
std::string small_workload_text(int nodes, int init, int measured);

/// The single plan of `file` (test case / workload selected when given).
plan only_plan(const std::string& file, const std::string& test_case = "",
               const std::string& workload = "");

/// Default profiles, 2 shards, 4 cycles in flight, 1 s backoff, a 2-minute
/// op timeout;
/// the fake kubelet as `tessera perf` defaults it (off in-process, on over
/// embedded HTTP).
run_options test_options(target_kind kind);

/// What the kubeconfig target runs against in tests: an embedded API
/// server on a loopback port with kwok's fake kubelet (fake nodes only, as
/// kwok does), and a kubeconfig file in `dir` naming it.
class kubeconfig_cluster {
public:
  explicit kubeconfig_cluster(const temp_dir& dir);
  ~kubeconfig_cluster();
  kubeconfig_cluster(const kubeconfig_cluster&) = delete;
  kubeconfig_cluster& operator=(const kubeconfig_cluster&) = delete;

  /// False when the server did not start (the test has failed).
  bool up() const {
    return server_ != nullptr;
  }
  apiserver::store& store() {
    return *store_;
  }
  /// test_options for the kubeconfig target naming this cluster.
  run_options options() const;
  /// The names of the stored objects of `kind`.
  std::vector<std::string> names(apiserver::storage_kind kind) const;

private:
  std::unique_ptr<apiserver::store> store_;
  std::unique_ptr<apiserver::kwok_controller> kwok_;
  std::unique_ptr<apiserver::api_server> server_;
  std::string kubeconfig_;
};

/// The test cases of perf/workloads/performance-config.yaml (each has a
/// 5Nodes workload).
std::vector<std::string> shipped_test_cases();

/// perf/workloads/performance-config.yaml in the source tree.
std::string shipped_workload_file();

/// The source tree (TESSERA_SOURCE_DIR).
std::string source_dir();

} // namespace tessera::perf::testing
