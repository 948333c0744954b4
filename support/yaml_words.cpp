// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/yaml_words.hpp"

#include <initializer_list>
#include <limits>

namespace tessera {

namespace {

bool is_one_of(std::string_view s,
               std::initializer_list<std::string_view> words) noexcept {
  for (auto w : words)
    if (s == w)
      return true;
  return false;
}

} // namespace

bool is_yaml_null(std::string_view s) noexcept {
  return is_one_of(s, {"", "~", "null", "Null", "NULL"});
}

std::optional<bool> yaml_bool(std::string_view s) noexcept {
  if (is_one_of(s, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on",
                    "On", "ON"}))
    return true;
  if (is_one_of(s, {"n", "N", "no", "No", "NO", "false", "False", "FALSE",
                    "off", "Off", "OFF"}))
    return false;
  return std::nullopt;
}

std::optional<double> yaml_special_float(std::string_view s) noexcept {
  if (is_one_of(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}))
    return std::numeric_limits<double>::infinity();
  if (is_one_of(s, {"-.inf", "-.Inf", "-.INF"}))
    return -std::numeric_limits<double>::infinity();
  if (is_one_of(s, {".nan", ".NaN", ".NAN"}))
    return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

} // namespace tessera
