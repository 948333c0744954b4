// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Kubernetes time formats: metav1.Time (`2026-08-07T05:54:51Z`, RFC 3339
/// seconds, UTC) and metav1.MicroTime (`2026-08-07T05:54:51.123456Z`), and
/// parsing of the former for ages in tables.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::apiserver {

/// RFC 3339 with seconds, UTC.
std::string format_time(std::chrono::system_clock::time_point t);
/// RFC 3339 with microseconds, UTC.
std::string format_micro_time(std::chrono::system_clock::time_point t);
/// Parses `YYYY-MM-DDTHH:MM:SS[.frac]Z`; nullopt when malformed.
std::optional<std::chrono::system_clock::time_point>
parse_time(std::string_view text);
/// kubectl's short age: "5s", "3m2s", "4h", "2d5h", "3y".
std::string format_age(std::chrono::system_clock::duration d);

} // namespace tessera::apiserver
