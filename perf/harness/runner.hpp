// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `run_plan`: runs one workload (a `plan`) on a fresh target, the way
/// upstream's scheduler_perf runs one: the cluster comes up, the scheduler
/// starts and syncs, then the ops run in order — nodes and namespaces are
/// created, pods are created and (unless skipWaitToCompletion) waited for,
/// barriers wait, churn runs in the background until the workload ends.
/// Each `collectMetrics` createPods op yields one `run_result`, measured
/// from the op's start until its last pod is bound.
///
///   make_target -> exclude cluster threads from the CPU meter
///     -> open scheduler side -> scheduler_host (or observer) -> synced
///     -> ops ... -> stop churn -> stop scheduler -> clean up
#pragma once

#include "perf/harness/measurements.hpp"
#include "perf/harness/progress.hpp"
#include "perf/harness/scheduler_host.hpp"
#include "perf/harness/target.hpp"
#include "perf/harness/workload.hpp"
#include "support/error.hpp"

#include <string>
#include <vector>

namespace tessera::perf {

struct run_options {
  target_options target;
  scheduler_settings scheduler;
  /// How long one op may wait for its pods (and the scheduler to sync).
  duration op_timeout = std::chrono::minutes(30);
  /// Marks the results as the --baseline run.
  bool baseline = false;
};

/// What a workload run produced. `results` holds one entry per
/// collectMetrics op reached; `failure` is set when the run stopped early
/// (a timeout, a create the cluster refused), with the results so far.
struct plan_outcome {
  std::vector<run_result> results;
  std::string failure;
};

/// Checks every template a plan uses (readable, one object, decodable), so
/// that bad input is reported before any cluster starts. Errors name the
/// template file.
[[nodiscard]] error check_templates(const plan& p);

/// Why `p` cannot run on a target of `kind` (empty = it can): a template
/// of a kind the embedded cluster does not serve (v1 Service). Unreadable
/// templates are left to `check_templates`.
std::string unsupported_by_target(const plan& p, target_kind kind);

/// Runs `p`; `show` reports progress. Never throws; errors of the cluster
/// or the scheduler end up in `failure`.
plan_outcome run_plan(const plan& p, const run_options& options,
                      progress& show);

} // namespace tessera::perf
