// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// What `run`, `simulate` and `perf` share before they start the pipeline:
/// the configuration (from `--config` or the defaults), tessera's knobs with
/// flags overriding the file, `--write-config-to`, and the profiles built
/// through the in-tree registry. One path, so the three verbs behave alike.
#pragma once

#include "config/scheduler_config.hpp"
#include "plugins/framework/profile.hpp"
#include "support/error.hpp"
#include "support/flags.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tessera::cmd {

/// The knob flags every scheduling verb accepts.
struct knob_flags {
  std::string config_path;
  std::string write_config_to;
  std::optional<int> shards;
  std::optional<int> max_inflight_cycles;
  std::optional<int> bind_concurrency;
  /// --feature-gates as given (`Name=true,Other=false`).
  std::string feature_gates;

  /// Registers --config, --write-config-to, --shards, --max-inflight-cycles,
  /// --bind-concurrency, --feature-gates.
  void add_to(flag_set& flags);
};

struct scheduler_setup {
  config::scheduler_config config;
  std::vector<plugins::profile_ptr> profiles;
  /// Effective knobs (0 in the file resolved to the machine's defaults).
  std::size_t shards = 1;
  std::size_t max_inflight_cycles = 1;
  std::size_t bind_concurrency = 64;
};

/// Loads the configuration and applies flag overrides. Errors are input
/// errors (exit 2): the message names the file and every problem.
[[nodiscard]] expected<scheduler_setup>
load_scheduler_setup(const knob_flags& flags);

/// Writes `setup.config` (both documents) to `path`.
[[nodiscard]] error write_effective_config(const scheduler_setup& setup,
                                           const std::string& path);

} // namespace tessera::cmd
