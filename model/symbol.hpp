// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `symbol`: an interned string. Label keys and values, resource names, taint
/// keys, topology keys, namespaces and node names are compared millions of
/// times per second in Filter and Score; as symbols they compare and hash as
/// one 32-bit integer and cost no allocation to copy.
///
/// The intern table is process-wide and grows only: a string, once interned,
/// lives until exit. That is the right trade for the bounded vocabularies
/// above; do not intern unbounded data such as pod names or UIDs. Interning is
/// thread-safe (decoding runs on I/O threads while actors read); `view()` is
/// lock-free.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace tessera::model {

class symbol {
public:
  /// The empty string.
  constexpr symbol() noexcept = default;
  /// Interns `text` (cheap when already interned: one hash lookup).
  explicit symbol(std::string_view text);

  /// Returns the symbol for `text` if it was ever interned, else the empty
  /// symbol with `found == false`; never grows the table. Useful for lookups
  /// of user-supplied keys that may not exist anywhere.
  static symbol lookup(std::string_view text, bool& found);

  std::string_view view() const noexcept;
  std::string str() const {
    return std::string{view()};
  }
  std::uint32_t id() const noexcept {
    return id_;
  }
  bool empty() const noexcept {
    return id_ == 0;
  }

  friend bool operator==(symbol a, symbol b) noexcept {
    return a.id_ == b.id_;
  }
  /// Orders by intern id: fast and consistent within one process, but not
  /// lexicographic. Use `lexical_less` where humans or the API see the order.
  friend std::strong_ordering operator<=>(symbol a, symbol b) noexcept {
    return a.id_ <=> b.id_;
  }

private:
  std::uint32_t id_ = 0;
};

/// Lexicographic order of the symbols' text.
inline bool lexical_less(symbol a, symbol b) noexcept {
  return a.view() < b.view();
}

inline bool operator==(symbol a, std::string_view b) noexcept {
  return a.view() == b;
}

inline std::ostream& operator<<(std::ostream& out, symbol s) {
  return out << s.view();
}

/// Number of distinct strings interned so far (for metrics and tests).
std::size_t interned_count() noexcept;

} // namespace tessera::model

template <> struct std::hash<tessera::model::symbol> {
  std::size_t operator()(tessera::model::symbol s) const noexcept {
    // Fibonacci hashing spreads the dense ids over the table.
    return static_cast<std::size_t>(s.id()) * 0x9E3779B97F4A7C15ull;
  }
};
