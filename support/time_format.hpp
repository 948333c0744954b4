// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Kubernetes time formats: metav1.Time (`2026-08-07T05:54:51Z`, RFC 3339
/// with seconds, UTC) and metav1.MicroTime (`2026-08-07T05:54:51.123456Z`),
/// and a strict RFC 3339 parser. The client, the embedded apiserver and the
/// store bridge all write times through these, so they agree to the byte.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace tessera {

/// RFC 3339 with seconds, UTC: `2026-08-07T05:54:51Z` (metav1.Time).
[[nodiscard]] std::string format_time(std::chrono::system_clock::time_point t);
/// RFC 3339 with microseconds, UTC: `2026-08-07T05:54:51.123456Z`
/// (metav1.MicroTime).
[[nodiscard]] std::string
format_micro_time(std::chrono::system_clock::time_point t);
/// Parses RFC 3339 (fractional seconds and `Z` or `±hh:mm` offsets);
/// nullopt when malformed.
[[nodiscard]] std::optional<std::chrono::system_clock::time_point>
parse_time(std::string_view text);

} // namespace tessera
