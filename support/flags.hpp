// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `flag_set`: the command-line parser behind every verb. Flags bind to
/// caller-owned variables; parsing is strict (unknown flags, missing or
/// malformed values are errors naming the flag) so that `cmd/` can exit 2 with
/// a clear message. Accepted spellings follow kube-scheduler's pflag usage:
/// `--name=value`, `--name value`, `-n value`, `-n=value`, `--bool`,
/// `--bool=false`, and both `-v=4` and `--v=4` for single-letter flags.
#pragma once

#include "support/error.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

class flag_set {
public:
  /// `usage` is the first help line, e.g. "tessera simulate -f FILE [flags]".
  explicit flag_set(std::string usage);

  /// Registers a flag; `names` is "long" or "long,s" (with a short alias).
  void add(std::string_view names, std::string& target, std::string help);
  void add(std::string_view names, bool& target, std::string help);
  void add(std::string_view names, int& target, std::string help);
  void add(std::string_view names, std::int64_t& target, std::string help);
  void add(std::string_view names, double& target, std::string help);
  /// A repeatable flag: every occurrence appends.
  void add(std::string_view names, std::vector<std::string>& target,
           std::string help);
  /// A duration in Go's syntax ("1.5s", "300ms", "2m").
  void add(std::string_view names, std::chrono::milliseconds& target,
           std::string help);
  /// An optional value: set only when given on the command line.
  void add(std::string_view names, std::optional<int>& target,
           std::string help);
  void add(std::string_view names, std::optional<std::string>& target,
           std::string help);

  /// Accept up to `max` positional arguments (default 0: any is an error).
  void allow_positionals(std::size_t max, std::string what);

  /// Parses argv (without the program and verb). On success returns the
  /// positional arguments.
  [[nodiscard]] expected<std::vector<std::string>>
  parse(const std::vector<std::string>& args);

  /// True after parse() saw -h or --help.
  bool help_requested() const noexcept {
    return help_requested_;
  }
  /// True when the flag `long_name` was given on the command line.
  bool was_set(std::string_view long_name) const;

  /// The help text: usage line and one line per flag with its default.
  std::string help() const;

private:
  struct flag {
    std::string long_name;
    std::string short_name;
    std::string help;
    std::string default_text;
    bool is_bool = false;
    bool set = false;
    std::function<error(std::string_view)> assign;
  };
  flag& define(std::string_view names, std::string help,
               std::string default_text, bool is_bool,
               std::function<error(std::string_view)> assign);
  flag* find(std::string_view name);

  std::string usage_;
  std::vector<flag> flags_;
  std::size_t max_positionals_ = 0;
  std::string positional_what_;
  bool help_requested_ = false;
};

/// Parses a Go duration string ("10s", "1m30s", "250ms", "1.5h").
[[nodiscard]] expected<std::chrono::milliseconds>
parse_duration(std::string_view text);

/// Formats a duration the way Go prints it ("1m30s", "250ms", "0s").
std::string format_duration(std::chrono::milliseconds d);

} // namespace tessera
