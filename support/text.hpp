// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// String quoting shared by every layer: JSON string literals (log lines,
/// apiserver bodies, YAML-to-JSON text) and the Go-style `%q` quoting that
/// kube-scheduler's validation messages use. One implementation keeps the
/// escapes of every output byte-identical. Also Go's ASCII blank trimming.
#pragma once

#include <string>
#include <string_view>

namespace tessera {

/// Appends `text` escaped as the inside of a JSON string (no quotes): `"`,
/// `\`, newline, tab and carriage return as two-character escapes, other
/// control characters as `\u00XX`. Other bytes, UTF-8 included, pass through.
void append_json_escaped(std::string& out, std::string_view text);

/// Appends `text` as a quoted JSON string literal.
void append_json_quoted(std::string& out, std::string_view text);

/// `text` as a quoted JSON string literal.
[[nodiscard]] std::string json_quoted(std::string_view text);

/// `text` in double quotes as Go's `%q` prints ASCII text, so that error
/// messages read as kube-scheduler's: `"`, `\`, newline, tab and carriage
/// return escaped, other control characters and DEL as `\xNN`.
[[nodiscard]] std::string go_quote(std::string_view text);

/// `text` without leading and trailing ASCII blanks (space, tab, newline,
/// vertical tab, form feed, carriage return), as Go's strings.TrimSpace
/// treats ASCII text.
[[nodiscard]] std::string_view trim_blanks(std::string_view text) noexcept;

} // namespace tessera
