// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/time_format.hpp"

namespace tessera::apiserver {

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
