// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The text of an enum whose values run 0, 1, ..., N-1, kept in one table
/// per enum: `enum_names` holds the spellings in enumerator order, and both
/// directions (value to text, text to value) read that one table, so an
/// enum's spellings are written once. `all_named` lets each table check at
/// compile time that no enumerator was left without a spelling.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace tessera {

/// The spellings of an enum's N values, in enumerator order.
template <std::size_t N> using enum_names = std::array<std::string_view, N>;

/// True when every entry of `names` is spelled (a table sized for more
/// enumerators than it lists leaves the rest empty).
template <std::size_t N>
constexpr bool all_named(const enum_names<N>& names) noexcept {
  for (auto n : names)
    if (n.empty())
      return false;
  return true;
}

/// The spelling of `e`, or `unknown` for a value outside the table.
template <class Enum, std::size_t N>
constexpr std::string_view enum_text(Enum e, const enum_names<N>& names,
                                     std::string_view unknown) noexcept {
  auto i = static_cast<std::size_t>(e);
  return i < N ? names[i] : unknown;
}

/// The value spelled `text` (exact match), or nullopt.
template <class Enum, std::size_t N>
constexpr std::optional<Enum>
enum_from_text(std::string_view text, const enum_names<N>& names) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == text)
      return static_cast<Enum>(i);
  return std::nullopt;
}

} // namespace tessera
