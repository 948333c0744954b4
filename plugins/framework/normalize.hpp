// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Score normalization shared by the score plugins: kube-scheduler's default
/// normalization (plugins/helper DefaultNormalizeScore), which maps raw
/// scores in [0, max] linearly onto [0, max_priority] with integer division,
/// optionally reversed. TaintToleration uses it reversed (fewer intolerable
/// taints is better); NodeAffinity and InterPodAffinity-style plugins use it
/// as is.
#pragma once

#include "plugins/framework/plugin.hpp"

#include <cstdint>
#include <span>

namespace tessera::plugins {

/// The range every score must fall in after NormalizeScore (upstream's
/// MinNodeScore and MaxNodeScore).
namespace score_range {
inline constexpr std::int64_t min = 0;
inline constexpr std::int64_t max = 100;
} // namespace score_range

/// Rewrites `scores` in place. With m = the largest score (never below 0):
/// m == 0 leaves every score unchanged, or sets every score to
/// `max_priority` when `reverse`; otherwise each score s becomes
/// max_priority * s / m (integer division), and max_priority minus that when
/// `reverse`. Scores are assumed to be non-negative, as upstream assumes.
void default_normalize_score(std::span<node_score> scores, bool reverse,
                             std::int64_t max_priority
                             = score_range::max) noexcept;

} // namespace tessera::plugins
