// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `quantity`: Kubernetes' resource.Quantity. Parses the full grammar
///
///   <quantity>  ::= <signedNumber><suffix>
///   <suffix>    ::= <binarySI> | <decimalExponent> | <decimalSI>
///   <binarySI>  ::= Ki | Mi | Gi | Ti | Pi | Ei
///   <decimalSI> ::= n | u | m | "" | k | M | G | T | P | E
///   <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
///
/// keeps the value exactly (as an integer count of nano-units; anything more
/// precise than 1n is rounded up to the next nano-unit, as upstream does), and
/// converts to integers and milli-units with Kubernetes' rounding: up, away
/// from zero. Conversions that do not fit an int64 report overflow instead of
/// wrapping. `to_string()` renders upstream's canonical form ("1536Mi" for
/// "1.5Gi", "1500m" for "1.5", "1e3" stays "1e3").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "support/error.hpp"

namespace tessera::model {

class quantity {
public:
  /// The suffix family the value was written in; canonical output keeps it.
  enum class format : std::uint8_t { decimal_si, binary_si, decimal_exponent };

  /// Zero, decimal SI.
  constexpr quantity() noexcept = default;

  /// Parses `text`. Errors name the problem, e.g. `invalid quantity "12x"`
  /// or `quantity "1e400" is too large`.
  [[nodiscard]] static expected<quantity> parse(std::string_view text);

  /// Builds a quantity of `value` whole units / milli-units.
  static quantity from_int(std::int64_t value, format f = format::decimal_si);
  static quantity from_milli(std::int64_t milli,
                             format f = format::decimal_si);

  /// The value rounded up (away from zero) to an integer; error on overflow.
  [[nodiscard]] expected<std::int64_t> value() const;
  /// The value in milli-units rounded up (away from zero); error on overflow.
  [[nodiscard]] expected<std::int64_t> milli_value() const;

  /// The canonical string form.
  std::string to_string() const;

  format fmt() const noexcept {
    return format_;
  }
  bool is_zero() const noexcept {
    return nano_ == 0;
  }
  bool is_negative() const noexcept {
    return nano_ < 0;
  }
  /// Exact value in nano-units.
  __int128 nano() const noexcept {
    return nano_;
  }

  friend bool operator==(const quantity& a, const quantity& b) noexcept {
    return a.nano_ == b.nano_;
  }
  friend auto operator<=>(const quantity& a, const quantity& b) noexcept {
    return a.nano_ <=> b.nano_;
  }

private:
  __int128 nano_ = 0;
  format format_ = format::decimal_si;
};

} // namespace tessera::model
