// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `sweep_grid`: the knob settings `tessera perf` runs a workload with —
/// one setting normally, the grid of `--sweep shards=1,2,4 inflight=1,4,16`
/// otherwise, and the shards=1 inflight=1 run that `--baseline` adds.
#pragma once

#include "support/error.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace tessera::perf {

/// One (shards, max in-flight cycles) setting of a run.
struct knob_setting {
  std::size_t shards = 1;
  std::size_t inflight = 1;
  bool baseline = false;
};

struct sweep_grid {
  std::vector<std::size_t> shards;
  std::vector<std::size_t> inflight;
};

/// Parses sweep axes, each `shards=LIST` or `inflight=LIST` (also
/// `max-inflight-cycles=LIST`), LIST a comma-separated list of positive
/// integers; an axis may be given once. A missing axis stays empty.
/// Errors name the offending text.
[[nodiscard]] expected<sweep_grid>
parse_sweep(const std::vector<std::string>& axes);

/// The settings to run, in order: the baseline first when asked, then
/// the grid (shards outer, inflight inner), an empty axis taking the
/// default value. A grid point equal to the baseline is still run (it is
/// the same setting, measured again, and makes the grid complete).
std::vector<knob_setting> plan_settings(const sweep_grid& grid,
                                        knob_setting defaults, bool baseline);

} // namespace tessera::perf
