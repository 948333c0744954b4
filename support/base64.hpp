// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Base64 in the two forms tessera reads and writes: the standard padded
/// alphabet of RFC 4648 §4 (kubeconfig `*-data` fields, secrets) and the
/// unpadded URL-safe alphabet of §5 (list continue tokens, which travel in
/// query strings).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tessera {

/// Standard base64 with `=` padding.
[[nodiscard]] std::string base64_encode(std::string_view in);

/// Strict standard base64: whitespace is ignored, padding must complete the
/// last group of four, nothing may follow it; nullopt when malformed.
[[nodiscard]] std::optional<std::string> base64_decode(std::string_view in);

/// URL-safe base64 (`-` and `_`) without padding.
[[nodiscard]] std::string base64url_encode(std::string_view in);

/// URL-safe base64 without padding; nullopt on any other character.
[[nodiscard]] std::optional<std::string> base64url_decode(std::string_view in);

} // namespace tessera
