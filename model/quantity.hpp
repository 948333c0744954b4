// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `quantity`: Kubernetes' resource.Quantity. Parses the full grammar
///
///   <quantity>  ::= <signedNumber><suffix>
///   <number>    ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
///   <suffix>    ::= <binarySI> | <decimalExponent> | <decimalSI>
///   <binarySI>  ::= Ki | Mi | Gi | Ti | Pi | Ei
///   <decimalSI> ::= n | u | m | "" | k | M | G | T | P | E
///   <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
///
/// keeps the value exactly (as an integer count of nano-units; anything more
/// precise than 1n is rounded up, away from zero, to the next nano-unit, as
/// upstream does), and converts to integers and milli-units with Kubernetes'
/// rounding: up, away from zero. Conversions that do not fit an int64 report
/// an error instead of wrapping. `to_string()` renders upstream's canonical
/// form ("1536Mi" for "1.5Gi", "1500m" for "1.5", "1e3" stays "1e3").
///
/// Upstream quirks kept on purpose, since objects in a cluster passed
/// upstream's parser: like upstream's scanner, a number with no digits ("-",
/// ".", "Mi") is zero; binary-SI values are capped at 2^63-1 (so "9Ei" and
/// "16Ei" both mean 9223372036854775807); a binary-SI value between 0 and 1
/// in magnitude switches to decimal SI.
///
/// Deviations from upstream: upstream keeps arbitrary precision, tessera keeps
/// an __int128 count of nano-units (about +-1.7e29 units); decimal values
/// beyond that fail to parse with `quantity "<text>" is out of range`. An
/// exponent outside the int32 range is invalid (as in current upstream).
/// `to_string()` always computes the canonical form, where upstream's String()
/// echoes a parsed text it deems canonical as written ("+1k", "1E3").
/// Parsing never allocates except to build an error.
#pragma once

#include "support/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::model {

/// An exact resource amount (resource.Quantity); see the file comment.
class quantity {
public:
  /// The suffix family the value was written in; canonical output keeps it.
  enum class format : std::uint8_t { decimal_si, binary_si, decimal_exponent };

  /// Zero, decimal SI.
  constexpr quantity() noexcept = default;

  /// Parses `text`. Errors (ec::invalid_input) quote the text exactly:
  /// `invalid quantity "12x"`, `quantity "1e400" is out of range`.
  [[nodiscard]] static expected<quantity> parse(std::string_view text);

  /// Builds a quantity of `value` whole units / milli-units. The format is
  /// kept as given (like upstream's NewQuantity / NewMilliQuantity);
  /// `to_string()` still prints small or fractional binary values in
  /// decimal SI.
  static quantity from_int(std::int64_t value, format f = format::decimal_si);
  static quantity from_milli(std::int64_t milli, format f = format::decimal_si);

  /// The value rounded up (away from zero) to an integer. A result outside
  /// int64 is an ec::invalid_input error (`quantity "1e19" does not fit in
  /// an int64`): the value came from input, so it is the input that is bad.
  [[nodiscard]] expected<std::int64_t> value() const;
  /// The value in milli-units rounded up (away from zero); errors as value()
  /// with " in milli-units" appended.
  [[nodiscard]] expected<std::int64_t> milli_value() const;

  /// The canonical string form (upstream's CanonicalizeBytes): the largest
  /// suffix of the format that shows the value without fractional digits;
  /// binary values below 1024 in magnitude or not integral print as decimal
  /// SI; decimal SI past "E" prints in exponent form ("1e21"); zero is "0".
  std::string to_string() const;

  /// The format `to_string()` starts from.
  format fmt() const noexcept {
    return format_;
  }
  /// True for any spelling of zero ("0", "-0.0Ki", "0e9").
  bool is_zero() const noexcept {
    return nano_ == 0;
  }
  /// True below zero.
  bool is_negative() const noexcept {
    return nano_ < 0;
  }
  /// Exact value in nano-units.
  __int128 nano() const noexcept {
    return nano_;
  }

  /// Compares values only; the format does not take part ("1Ki" == "1024").
  friend bool operator==(const quantity& a, const quantity& b) noexcept {
    return a.nano_ == b.nano_;
  }
  /// Orders by value.
  friend auto operator<=>(const quantity& a, const quantity& b) noexcept {
    return a.nano_ <=> b.nano_;
  }

private:
  constexpr quantity(__int128 nano, format f) noexcept
    : nano_(nano), format_(f) {
  }

  __int128 nano_ = 0;
  format format_ = format::decimal_si;
};

} // namespace tessera::model
