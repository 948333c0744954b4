// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `perf_fixture`: what the end-to-end perf tests share — a temporary
/// directory holding a small workload file and its templates, the default
/// scheduler profiles, and run options sized for a loaded 2-core machine
/// (generous timeouts, progress off).
#pragma once

#include "perf/harness/runner.hpp"

#include <filesystem>
#include <string>

namespace tessera::perf::testing {

/// A temporary directory removed at the end of the test.
class temp_dir {
public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::filesystem::path& path() const {
    return path_;
  }
  /// Writes `text` to `name` inside the directory; returns the full path.
  std::string write(const std::string& name, const std::string& text) const;

private:
  std::filesystem::path path_;
};

/// Writes `templates/node.yaml` and `templates/pod.yaml` (a default node,
/// a 100m pod) and `workload.yaml` with `text`; returns the workload path.
std::string write_small_workload(const temp_dir& dir, const std::string& text);

/// A SchedulingBasic-like test case "Small" with workload "w":
/// `nodes` nodes, `init` pods, `measured` measured pods.
std::string small_workload_text(int nodes, int init, int measured);

/// The single plan of `file` (test case / workload selected when given).
plan only_plan(const std::string& file, const std::string& test_case = "",
               const std::string& workload = "");

/// Default profiles, 2 shards, 4 cycles in flight, a 2-minute op timeout.
run_options test_options(target_kind kind);

/// The source tree (TESSERA_SOURCE_DIR).
std::string source_dir();

} // namespace tessera::perf::testing
