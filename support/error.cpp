// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/error.hpp"

namespace tessera {

const char* to_string(ec code) noexcept {
  switch (code) {
  case ec::ok:
    return "ok";
  case ec::invalid_input:
    return "invalid_input";
  case ec::not_found:
    return "not_found";
  case ec::conflict:
    return "conflict";
  case ec::unavailable:
    return "unavailable";
  case ec::timeout:
    return "timeout";
  case ec::unsupported:
    return "unsupported";
  case ec::exhausted:
    return "exhausted";
  case ec::internal:
    return "internal";
  }
  return "unknown";
}

} // namespace tessera
