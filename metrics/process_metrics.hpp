// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The process families every Go component exposes (client_golang's
/// process collector): process_cpu_seconds_total, process_resident_memory_
/// bytes, process_virtual_memory_bytes, process_start_time_seconds,
/// process_open_fds and process_max_fds, read from /proc when a scrape
/// renders. Dashboards written for kube-scheduler pick its instances by
/// process_cpu_seconds_total.
#pragma once

#include <prometheus/metric_family.h>

#include <vector>

namespace tessera::metrics {

/// The families as this process stands now; empty where /proc cannot be
/// read (a family whose value cannot be read is left out, never zero).
std::vector<prometheus::MetricFamily> process_families();

} // namespace tessera::metrics
