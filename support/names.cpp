// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/names.hpp"

#include <algorithm>

namespace tessera {

namespace {

bool is_lower_alnum(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool is_alnum(char c) noexcept {
  return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

} // namespace

bool is_dns1123_label(std::string_view s) noexcept {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back()))
    return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return is_lower_alnum(c) || c == '-'; });
}

bool is_dns1123_subdomain(std::string_view s) noexcept {
  for (;;) {
    const auto dot = s.find('.');
    if (!is_dns1123_label(s.substr(0, dot)))
      return false;
    if (dot == std::string_view::npos)
      return true;
    s.remove_prefix(dot + 1);
  }
}

bool is_qualified_name_part(std::string_view s) noexcept {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back()))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return is_alnum(c) || c == '-' || c == '_' || c == '.';
  });
}

} // namespace tessera
