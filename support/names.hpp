// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The name grammars of Kubernetes (apimachinery's validation package):
/// DNS-1123 labels and subdomains, and the name part of a qualified name
/// (label keys and values, extended resource names). These check the
/// characters only; each caller checks the lengths, because callers report a
/// too-long name with their own message, or not at all.
#pragma once

#include <cstddef>
#include <string_view>

namespace tessera {

/// The longest DNS-1123 label (a namespace name, one part of a subdomain).
inline constexpr std::size_t max_dns1123_label_length = 63;
/// The longest DNS-1123 subdomain (most object names, label key prefixes).
inline constexpr std::size_t max_dns1123_subdomain_length = 253;
/// The longest name part of a qualified name, and the longest label value.
inline constexpr std::size_t max_qualified_name_part_length = 63;

/// True for `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, whatever its length.
[[nodiscard]] bool is_dns1123_label(std::string_view s) noexcept;

/// True for dot-separated DNS-1123 labels, whatever the length.
[[nodiscard]] bool is_dns1123_subdomain(std::string_view s) noexcept;

/// True for `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`, whatever its length:
/// the name part of a qualified name, or a non-empty label value.
[[nodiscard]] bool is_qualified_name_part(std::string_view s) noexcept;

} // namespace tessera
