// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/time_format.hpp"

#include <cstdio>
#include <ctime>

namespace tessera::apiserver {

namespace {

std::string format_utc(std::chrono::system_clock::time_point t, bool micro) {
  using namespace std::chrono;
  auto us = duration_cast<microseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(us / 1000000);
  long frac = static_cast<long>(us % 1000000);
  if (frac < 0) {
    frac += 1000000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];
  if (micro)
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ",
                  tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                  tm.tm_min, tm.tm_sec, frac);
  else
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ",
                  tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                  tm.tm_min, tm.tm_sec);
  return buf;
}

} // namespace

std::string format_time(std::chrono::system_clock::time_point t) {
  return format_utc(t, false);
}

std::string format_micro_time(std::chrono::system_clock::time_point t) {
  return format_utc(t, true);
}

std::optional<std::chrono::system_clock::time_point>
parse_time(std::string_view text) {
  std::tm tm{};
  if (text.size() < 20)
    return std::nullopt;
  std::string s{text};
  int y, mo, d, h, mi, sec;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi,
                  &sec)
      != 6)
    return std::nullopt;
  if (s.back() != 'Z')
    return std::nullopt;
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  std::time_t secs = timegm(&tm);
  return std::chrono::system_clock::from_time_t(secs);
}

std::string format_age(std::chrono::system_clock::duration d) {
  using namespace std::chrono;
  auto s = duration_cast<seconds>(d).count();
  if (s < 0)
    s = 0;
  auto render = [](long long a, const char* ua, long long b, const char* ub) {
    std::string out = std::to_string(a) + ua;
    if (b > 0)
      out += std::to_string(b) + ub;
    return out;
  };
  if (s < 120)
    return std::to_string(s) + "s";
  long long m = s / 60;
  if (m < 10)
    return render(m, "m", s % 60, "s");
  long long h = m / 60;
  if (h < 3)
    return std::to_string(m) + "m";
  if (h < 8)
    return render(h, "h", m % 60, "m");
  long long days = h / 24;
  if (h < 48)
    return std::to_string(h) + "h";
  if (days < 8)
    return render(days, "d", h % 24, "h");
  if (days < 365 * 2)
    return std::to_string(days) + "d";
  return std::to_string(days / 365) + "y";
}

} // namespace tessera::apiserver
