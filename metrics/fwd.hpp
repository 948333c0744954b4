// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Forward declarations of the metric types, for the `<role>_config`
/// structs and other headers that only hold a pointer to the series.
#pragma once

namespace tessera::metrics {

class counter;
class gauge;
class histogram;
class scheduler_metrics;

} // namespace tessera::metrics
