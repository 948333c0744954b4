// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/time_format.hpp"

#include <cstdint>
#include <cstdio>

namespace tessera {

namespace {

using wall_clock_time = std::chrono::system_clock::time_point;

// Days since 1970-01-01 of a civil date (proleptic Gregorian).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  auto yoe = static_cast<unsigned>(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct civil {
  std::int64_t y;
  unsigned m, d;
};

civil civil_from_days(std::int64_t z) {
  z += 719468;
  std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  auto doe = static_cast<unsigned>(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  unsigned d = doy - (153 * mp + 2) / 5 + 1;
  unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {y + (m <= 2), m, d};
}

std::string format(wall_clock_time t, bool micros) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(
              t.time_since_epoch())
              .count();
  std::int64_t secs = us / 1000000;
  std::int64_t frac = us % 1000000;
  if (frac < 0) {
    frac += 1000000;
    --secs;
  }
  std::int64_t days = secs / 86400;
  std::int64_t rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  civil c = civil_from_days(days);
  char buf[48];
  if (micros)
    std::snprintf(
      buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%06lldZ",
      static_cast<long long>(c.y), c.m, c.d, static_cast<long long>(rem / 3600),
      static_cast<long long>(rem / 60 % 60), static_cast<long long>(rem % 60),
      static_cast<long long>(frac));
  else
    std::snprintf(
      buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ",
      static_cast<long long>(c.y), c.m, c.d, static_cast<long long>(rem / 3600),
      static_cast<long long>(rem / 60 % 60), static_cast<long long>(rem % 60));
  return buf;
}

bool digits(std::string_view s, std::size_t pos, std::size_t n,
            int& out) noexcept {
  if (pos + n > s.size())
    return false;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9')
      return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

} // namespace

std::string format_time(wall_clock_time t) {
  return format(t, false);
}

std::string format_micro_time(wall_clock_time t) {
  return format(t, true);
}

std::int64_t rfc3339_fields::epoch_seconds() const noexcept {
  const std::int64_t offset
    = offset_sign * (offset_hours * 3600 + offset_minutes * 60);
  return days_from_civil(year, static_cast<unsigned>(month),
                         static_cast<unsigned>(day))
           * 86400
         + hour * 3600 + minute * 60 + second - offset;
}

std::optional<rfc3339_fields> scan_rfc3339(std::string_view s) noexcept {
  rfc3339_fields f;
  if (!digits(s, 0, 4, f.year) || s.size() < 20 || s[4] != '-'
      || !digits(s, 5, 2, f.month) || s[7] != '-' || !digits(s, 8, 2, f.day)
      || (s[10] != 'T' && s[10] != 't' && s[10] != ' ')
      || !digits(s, 11, 2, f.hour) || s[13] != ':'
      || !digits(s, 14, 2, f.minute) || s[16] != ':'
      || !digits(s, 17, 2, f.second))
    return std::nullopt;
  f.separator = s[10];
  std::size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::int64_t scale = 100000;
    std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (scale > 0) {
        f.micros += (s[pos] - '0') * scale;
        scale /= 10;
      }
      ++pos;
    }
    if (pos == start)
      return std::nullopt;
  }
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    if (!digits(s, pos + 1, 2, f.offset_hours) || pos + 3 >= s.size()
        || s[pos + 3] != ':' || !digits(s, pos + 4, 2, f.offset_minutes))
      return std::nullopt;
    f.offset_sign = s[pos] == '+' ? 1 : -1;
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size())
    return std::nullopt;
  return f;
}

std::optional<wall_clock_time> parse_time(std::string_view s) {
  auto f = scan_rfc3339(s);
  if (!f || f->month < 1 || f->month > 12 || f->day < 1 || f->day > 31
      || f->hour > 23 || f->minute > 59 || f->second > 60)
    return std::nullopt;
  return wall_clock_time{std::chrono::duration_cast<wall_clock_time::duration>(
    std::chrono::microseconds(f->epoch_seconds() * 1000000 + f->micros))};
}

} // namespace tessera
