// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The verbs of the `tessera` binary. Each takes the arguments after the verb
/// and returns the process exit code: 0 success, 1 runtime failure, 2 bad
/// flags or bad input files.
#pragma once

#include <string>
#include <vector>

namespace tessera::cmd {

using args = std::vector<std::string>;

int run_main(const args& a);
int simulate_main(const args& a);
int cluster_main(const args& a);
int perf_main(const args& a);
int version_main(const args& a);

/// Exit codes.
inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;

} // namespace tessera::cmd
