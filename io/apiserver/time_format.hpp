// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// kubectl's short ages for tables. The Kubernetes time formats themselves
/// (format_time, format_micro_time, parse_time) are in
/// support/time_format.hpp, included here for the apiserver's sources.
#pragma once

#include "support/time_format.hpp"

#include <chrono>
#include <string>

namespace tessera::apiserver {

/// kubectl's short age: "5s", "3m2s", "4h", "2d5h", "3y".
std::string format_age(std::chrono::system_clock::duration d);

} // namespace tessera::apiserver
