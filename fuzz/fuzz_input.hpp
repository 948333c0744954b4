// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// What every fuzz target shares: the input as text, splitting it into the
/// parts a target needs, and reporting a finding. A target returns quietly
/// on every error the entry point documents as "bad input" and calls
/// `finding` when a property the entry point promises does not hold;
/// crashes, sanitizer reports and uncaught exceptions are findings by
/// themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

namespace tessera::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The first line (without its newline) and the rest. Targets that need a
/// kind or a resource name take it from the first line, so that seed files
/// stay readable.
inline std::pair<std::string_view, std::string_view>
first_line(std::string_view text) {
  auto nl = text.find('\n');
  if (nl == std::string_view::npos)
    return {text, {}};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

/// Splits at the first line that is exactly `---`: (before, after). Without
/// one, the whole text is `before`.
inline std::pair<std::string_view, std::string_view>
split_at_marker(std::string_view text) {
  static constexpr std::string_view marker = "\n---\n";
  auto at = text.find(marker);
  if (at == std::string_view::npos)
    return {text, {}};
  return {text.substr(0, at), text.substr(at + marker.size())};
}

/// A broken promise: prints what and why, then aborts so that libFuzzer
/// keeps the input as a crash artifact.
[[noreturn]] inline void finding(std::string_view what,
                                 std::string_view detail = {}) {
  std::fprintf(stderr, "FINDING: %.*s\n%.*s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(detail.size()), detail.data());
  std::abort();
}

} // namespace tessera::fuzz
