// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The verbs of the `tessera` binary. Each takes the arguments after the verb
/// and returns the process exit code: 0 success, 1 runtime failure, 2 bad
/// flags or bad input files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {
class flag_set;
} // namespace tessera

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

/// Prints "tessera VERB: why" on stderr; returns exit_usage.
int usage_error(std::string_view verb, std::string_view message);

/// Reads a verb's arguments into `flags`. Returns the exit code when the
/// verb ends here: bad flags print "tessera VERB: why" on stderr
/// (exit_usage), -h and --help print the help on stdout (exit_ok).
/// Otherwise nullopt, with the positional arguments in `positionals` when
/// given.
std::optional<int> parse_verb_flags(flag_set& flags, const args& a,
                                    std::string_view verb,
                                    args* positionals = nullptr);

} // namespace tessera::cmd
