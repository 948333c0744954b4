// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// RFC 4122 version 4 UUIDs as Kubernetes writes them (object UIDs, leader
/// identities): lowercase hex in the 8-4-4-4-12 form. The caller supplies
/// the random bits, so each keeps its own generator (a seeded one makes the
/// embedded apiserver's UIDs reproducible).
#pragma once

#include <cstdint>
#include <string>

namespace tessera {

/// The version 4, variant 10 UUID made from 128 random bits (`high`, `low`);
/// the version and variant bits are overwritten.
[[nodiscard]] std::string format_uuid_v4(std::uint64_t high, std::uint64_t low);

} // namespace tessera
