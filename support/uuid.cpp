// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/uuid.hpp"

#include <cstdio>

namespace tessera {

std::string format_uuid_v4(std::uint64_t a, std::uint64_t b) {
  a = (a & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  b = (b & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  char buf[40];
  std::snprintf(
    buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx",
    static_cast<unsigned>(a >> 32), static_cast<unsigned>((a >> 16) & 0xffff),
    static_cast<unsigned>(a & 0xffff), static_cast<unsigned>(b >> 48),
    static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

} // namespace tessera
