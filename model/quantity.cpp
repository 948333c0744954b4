// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/quantity.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace tessera::model {

namespace {
// A named scope of its own: unity builds merge the anonymous namespaces of
// all model sources, and these helper names are common.
namespace quantity_codec {

using u128 = unsigned __int128;
using format = quantity::format;

constexpr u128 u128_max = ~u128{0};
// The largest magnitude a quantity holds: the __int128 maximum.
constexpr u128 max_nano = u128_max >> 1;
constexpr u128 nano_per_unit = 1'000'000'000;
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
// Upstream caps binary-SI magnitudes at the int64 maximum (in whole units).
constexpr u128 binary_cap = static_cast<u128>(int64_max) * nano_per_unit;
// Exponents are int32 upstream; anything wider is rejected.
constexpr std::int64_t max_exponent = std::numeric_limits<std::int32_t>::max();
// 10^38 is the largest power of ten below 2^128.
constexpr std::size_t max_pow10 = 38;

constexpr std::array<u128, max_pow10 + 1> make_pow10() {
  std::array<u128, max_pow10 + 1> table{};
  u128 v = 1;
  for (std::size_t i = 0; i <= max_pow10; ++i) {
    table[i] = v;
    if (i < max_pow10)
      v *= 10;
  }
  return table;
}

constexpr auto pow10 = make_pow10();

bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}

/// What a suffix means: value = number * 10^decimal_exponent *
/// 2^binary_exponent.
struct suffix_meaning {
  std::int64_t decimal_exponent = 0;
  unsigned binary_exponent = 0;
  quantity::format fmt = quantity::format::decimal_si;
};

/// Reads "e<signed integer>" / "E<signed integer>" after the first letter.
bool interpret_exponent(std::string_view rest, suffix_meaning& out) noexcept {
  bool negative = false;
  std::size_t i = 0;
  if (i < rest.size() && (rest[i] == '+' || rest[i] == '-')) {
    negative = rest[i] == '-';
    ++i;
  }
  if (i == rest.size())
    return false;
  std::int64_t value = 0;
  for (; i < rest.size(); ++i) {
    if (!is_digit(rest[i]))
      return false;
    value = value * 10 + (rest[i] - '0');
    if (value > max_exponent)
      return false;
  }
  out.decimal_exponent = negative ? -value : value;
  out.binary_exponent = 0;
  out.fmt = quantity::format::decimal_exponent;
  return true;
}

struct suffix_entry {
  std::string_view text;
  suffix_meaning meaning;
};

constexpr std::array<suffix_entry, 16> suffix_table = {{
  {"", {0, 0, quantity::format::decimal_si}},
  {"n", {-9, 0, quantity::format::decimal_si}},
  {"u", {-6, 0, quantity::format::decimal_si}},
  {"m", {-3, 0, quantity::format::decimal_si}},
  {"k", {3, 0, quantity::format::decimal_si}},
  {"M", {6, 0, quantity::format::decimal_si}},
  {"G", {9, 0, quantity::format::decimal_si}},
  {"T", {12, 0, quantity::format::decimal_si}},
  {"P", {15, 0, quantity::format::decimal_si}},
  {"E", {18, 0, quantity::format::decimal_si}},
  {"Ki", {0, 10, quantity::format::binary_si}},
  {"Mi", {0, 20, quantity::format::binary_si}},
  {"Gi", {0, 30, quantity::format::binary_si}},
  {"Ti", {0, 40, quantity::format::binary_si}},
  {"Pi", {0, 50, quantity::format::binary_si}},
  {"Ei", {0, 60, quantity::format::binary_si}},
}};

bool interpret_suffix(std::string_view s, suffix_meaning& out) noexcept {
  if (s.size() <= 2) {
    for (const auto& entry : suffix_table) {
      if (entry.text == s) {
        out = entry.meaning;
        return true;
      }
    }
  }
  // "E" alone is exa, found above; "e" alone is nothing.
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E'))
    return interpret_exponent(s.substr(1), out);
  return false;
}

/// The number part of a quantity: the digits before and after the point.
struct number_digits {
  std::string_view whole;
  std::string_view fraction;

  std::size_t size() const noexcept {
    return whole.size() + fraction.size();
  }
  unsigned operator[](std::size_t k) const noexcept {
    char c = k < whole.size() ? whole[k] : fraction[k - whole.size()];
    return static_cast<unsigned>(c - '0');
  }
  /// The digits [from, to) as an integer; false when it exceeds 2^128-1.
  bool value(std::size_t from, std::size_t to, u128& out) const noexcept {
    out = 0;
    for (std::size_t k = from; k < to; ++k) {
      unsigned d = (*this)[k];
      if (out > (u128_max - d) / 10)
        return false;
      out = out * 10 + d;
    }
    return true;
  }
};

/// Computes |number| * 10^decimal_exponent * 2^binary_exponent in nano-units,
/// rounded up to a whole nano-unit. Returns false when it exceeds 2^128-1.
///
/// Works on the digit string without building a big integer: the digits
/// worth at least 1n are accumulated directly; the digits below 1n are a
/// fraction that is multiplied by 2^binary_exponent digit by digit from the
/// right, which yields the whole nano-units it carries into and whether any
/// remainder is left (then the result rounds up).
bool nano_magnitude(const number_digits& digits, const suffix_meaning& suffix,
                    u128& out) noexcept {
  out = 0;
  const std::size_t total = digits.size();
  std::size_t first = 0;
  while (first < total && digits[first] == 0)
    ++first;
  if (first == total)
    return true;
  std::size_t last = total - 1;
  while (digits[last] == 0)
    --last;
  const std::size_t count = last - first + 1;
  const unsigned shift = suffix.binary_exponent;

  // Power of ten, in nano-units, of the last significant digit.
  const std::int64_t place = static_cast<std::int64_t>(digits.whole.size()) - 1
                             - static_cast<std::int64_t>(last)
                             + suffix.decimal_exponent + 9;
  if (place >= 0) {
    // Exact: significant digits * 10^place * 2^shift.
    if (count + static_cast<std::uint64_t>(place) > max_pow10 + 1)
      return false; // at least 10^39
    u128 v = 0;
    if (!digits.value(first, last + 1, v))
      return false;
    if (v > u128_max / pow10[place])
      return false;
    v *= pow10[place];
    if (v > (u128_max >> shift))
      return false;
    out = v << shift;
    return true;
  }

  const std::uint64_t below = static_cast<std::uint64_t>(-place);
  const std::size_t low_count = below < count ? below : count;
  const std::size_t high_end = last + 1 - low_count;
  u128 high = 0;
  if (!digits.value(first, high_end, high))
    return false;
  if (high > (u128_max >> shift))
    return false;
  high <<= shift;

  const std::uint64_t factor = std::uint64_t{1} << shift;
  std::uint64_t carry = 0; // < factor, so digit * factor + carry < 2^64
  bool remainder = false;
  for (std::size_t k = last + 1; k-- > high_end;) {
    const std::uint64_t t = digits[k] * factor + carry;
    remainder = remainder || t % 10 != 0;
    carry = t / 10;
  }
  // Leading zeros of the fraction only shift the carry down further.
  for (std::uint64_t zeros = below - low_count; zeros > 0 && carry > 0;
       --zeros) {
    remainder = remainder || carry % 10 != 0;
    carry /= 10;
  }
  const u128 add = u128{carry} + (remainder ? 1 : 0);
  if (high > u128_max - add)
    return false;
  out = high + add;
  return true;
}

error invalid_quantity(std::string_view text) {
  std::string message = "invalid quantity \"";
  message.append(text);
  message += '"';
  return make_error(ec::invalid_input, std::move(message));
}

error out_of_range(std::string_view text) {
  std::string message = "quantity \"";
  message.append(text);
  message += "\" is out of range";
  return make_error(ec::invalid_input, std::move(message));
}

/// Appends the decimal digits of `v`.
void append_digits(std::string& out, u128 v) {
  char buffer[40];
  std::size_t n = 0;
  do {
    buffer[n++] = static_cast<char>('0' + static_cast<unsigned>(v % 10));
    v /= 10;
  } while (v != 0);
  while (n > 0)
    out += buffer[--n];
}

void append_exponent(std::string& out, std::int64_t e) {
  out += 'e';
  if (e < 0) {
    out += '-';
    e = -e;
  }
  append_digits(out, static_cast<u128>(e));
}

const char* decimal_si_suffix(std::int64_t e) noexcept {
  switch (e) {
  case -9:
    return "n";
  case -6:
    return "u";
  case -3:
    return "m";
  case 0:
    return "";
  case 3:
    return "k";
  case 6:
    return "M";
  case 9:
    return "G";
  case 12:
    return "T";
  case 15:
    return "P";
  case 18:
    return "E";
  default:
    return nullptr;
  }
}

constexpr std::array<const char*, 7> binary_si_suffixes
  = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

expected<std::int64_t> scaled_value(__int128 nano, u128 divisor,
                                    const quantity& q, const char* unit) {
  const bool negative = nano < 0;
  const u128 mag
    = negative ? -static_cast<u128>(nano) : static_cast<u128>(nano);
  const u128 rounded = mag / divisor + (mag % divisor != 0 ? 1 : 0);
  const u128 limit = static_cast<u128>(int64_max) + (negative ? 1 : 0);
  if (rounded > limit) {
    std::string message = "quantity \"";
    message += q.to_string();
    message += "\" does not fit in an int64";
    message += unit;
    return make_error(ec::invalid_input, std::move(message));
  }
  if (!negative)
    return static_cast<std::int64_t>(rounded);
  // -(2^63) is representable; negate in unsigned arithmetic to reach it.
  return static_cast<std::int64_t>(-rounded);
}

/// A parsed value before it becomes a quantity.
struct parsed {
  __int128 nano = 0;
  format fmt = format::decimal_si;
};

expected<parsed> parse(std::string_view text) {
  if (text.empty())
    return invalid_quantity(text);

  std::size_t i = 0;
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    ++i;
  }
  const std::size_t whole_begin = i;
  while (i < text.size() && is_digit(text[i]))
    ++i;
  number_digits digits;
  digits.whole = text.substr(whole_begin, i - whole_begin);
  bool has_point = false;
  if (i < text.size() && text[i] == '.') {
    has_point = true;
    const std::size_t fraction_begin = ++i;
    while (i < text.size() && is_digit(text[i]))
      ++i;
    digits.fraction = text.substr(fraction_begin, i - fraction_begin);
  }
  suffix_meaning suffix;
  if (!interpret_suffix(text.substr(i), suffix))
    return invalid_quantity(text);

  const bool binary = suffix.fmt == format::binary_si;
  u128 mag = 0;
  // Fast path: a plain integer of at most 18 digits with a table suffix.
  if (!has_point && digits.whole.size() <= 18
      && (binary
          || (suffix.decimal_exponent >= -9
              && suffix.decimal_exponent + 9
                   <= static_cast<std::int64_t>(max_pow10)))) {
    std::uint64_t v = 0;
    for (char c : digits.whole)
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    if (binary) {
      mag = u128{v} << suffix.binary_exponent; // < 2^60 * 2^60
      if (mag > static_cast<u128>(int64_max))
        mag = static_cast<u128>(int64_max);
      mag *= nano_per_unit;
    } else {
      const u128 scale = pow10[suffix.decimal_exponent + 9];
      if (v > max_nano / scale)
        return out_of_range(text);
      mag = u128{v} * scale;
    }
  } else if (!nano_magnitude(digits, suffix, mag)) {
    if (!binary)
      return out_of_range(text);
    mag = binary_cap;
  }

  format fmt = suffix.fmt;
  if (binary) {
    if (mag > binary_cap)
      mag = binary_cap;
    // A binary value between 0 and 1 would print rounded; upstream switches
    // it to decimal SI.
    if (mag > 0 && mag < nano_per_unit)
      fmt = format::decimal_si;
  } else if (mag > max_nano) {
    return out_of_range(text);
  }
  const auto signed_mag = static_cast<__int128>(mag);
  return parsed{negative ? -signed_mag : signed_mag, fmt};
}

std::string canonical(__int128 nano, format fmt) {
  if (nano == 0)
    return "0";
  const bool negative = nano < 0;
  const u128 mag
    = negative ? -static_cast<u128>(nano) : static_cast<u128>(nano);
  std::string out;
  out.reserve(24);
  if (negative)
    out += '-';

  bool exponent_form = fmt == format::decimal_exponent;
  if (fmt == format::binary_si && mag >= 1024 * nano_per_unit
      && mag % nano_per_unit == 0) {
    u128 units = mag / nano_per_unit;
    std::size_t power = 0;
    while (units % 1024 == 0) {
      units /= 1024;
      ++power;
    }
    if (power < binary_si_suffixes.size()) {
      append_digits(out, units);
      out += binary_si_suffixes[power];
      return out;
    }
    // Past "Ei" there is no binary suffix; print the exact decimal value.
    exponent_form = true;
  }

  // Move trailing zeros into the exponent, then lower the exponent to a
  // multiple of three so it matches an SI suffix.
  u128 mantissa = mag;
  std::int64_t exponent = -9;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  const std::int64_t excess = ((exponent % 3) + 3) % 3;
  mantissa *= pow10[excess];
  exponent -= excess;
  append_digits(out, mantissa);

  const char* si = exponent_form ? nullptr : decimal_si_suffix(exponent);
  if (si != nullptr)
    out += si;
  else if (exponent != 0)
    append_exponent(out, exponent);
  return out;
}

} // namespace quantity_codec
} // namespace

expected<quantity> quantity::parse(std::string_view text) {
  auto result = quantity_codec::parse(text);
  if (!result)
    return std::move(result).err();
  return quantity{result->nano, result->fmt};
}

quantity quantity::from_int(std::int64_t value, format f) {
  return quantity{static_cast<__int128>(value) * 1'000'000'000, f};
}

quantity quantity::from_milli(std::int64_t milli, format f) {
  return quantity{static_cast<__int128>(milli) * 1'000'000, f};
}

expected<std::int64_t> quantity::value() const {
  return quantity_codec::scaled_value(nano_, 1'000'000'000, *this, "");
}

expected<std::int64_t> quantity::milli_value() const {
  return quantity_codec::scaled_value(nano_, 1'000'000, *this,
                                      " in milli-units");
}

std::string quantity::to_string() const {
  return quantity_codec::canonical(nano_, format_);
}

} // namespace tessera::model
