// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/error.hpp"

#include "support/enum_text.hpp"

namespace tessera {

const char* to_string(ec code) noexcept {
  // Each spelling is a literal, so the view's data() ends in a NUL.
  static constexpr enum_names<9> names
    = {"ok",      "invalid_input", "not_found", "conflict", "unavailable",
       "timeout", "unsupported",   "exhausted", "internal"};
  static_assert(all_named(names));
  return enum_text(code, names, "unknown").data();
}

} // namespace tessera
