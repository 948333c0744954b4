// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Kubernetes time formats: metav1.Time (`2026-08-07T05:54:51Z`, RFC 3339
/// with seconds, UTC) and metav1.MicroTime (`2026-08-07T05:54:51.123456Z`),
/// and a strict RFC 3339 parser. The client, the embedded apiserver and the
/// store bridge all write times through these, so they agree to the byte.
#pragma once

#include <chrono>
#include <cstdint>
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

/// An RFC 3339 time as written: `yyyy-mm-dd`, `T`, `t` or a space,
/// `hh:mm:ss`, an optional fraction, then `Z`, `z` or `±hh:mm`. The fields
/// are checked against that grammar only, so each reader applies its own
/// range checks (parse_time allows a leap second; the JSON decoder follows
/// Go's stricter time.Parse).
struct rfc3339_fields {
  int year = 0;
  int month = 0;
  int day = 0;
  char separator = 'T';
  int hour = 0;
  int minute = 0;
  int second = 0;
  /// The fraction's first six digits, in microseconds.
  std::int64_t micros = 0;
  /// +1 east of UTC, -1 west; the offset's hours and minutes (0 for `Z`).
  int offset_sign = 1;
  int offset_hours = 0;
  int offset_minutes = 0;

  /// Seconds since the epoch of the whole seconds, the offset applied (the
  /// proleptic Gregorian calendar; the date is not range-checked).
  [[nodiscard]] std::int64_t epoch_seconds() const noexcept;
};

/// Splits `text` into its RFC 3339 fields; nullopt when it does not follow
/// the grammar (the whole text must match).
[[nodiscard]] std::optional<rfc3339_fields>
scan_rfc3339(std::string_view text) noexcept;

} // namespace tessera
