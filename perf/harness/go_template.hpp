// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `render_go_template`: the part of Go's text/template that
/// scheduler_perf's object templates use, rendered the way upstream's
/// harness renders them before decoding each object.
///
/// Supported: text with `{{ action }}` (and the trimming `{{-` / `-}}`),
/// comments `{{/* */}}`, fields `.Name` of the data (upstream passes
/// `.Index` — the object's number within its op — `.Count`, and the op's
/// `templateParams`), integer, string and boolean literals, parentheses,
/// `if` / `else if` / `else` / `end`, the comparisons `eq ne lt le gt ge`,
/// `and or not`, and upstream's helpers `mod` (also `Mod`), `div`, `DivideInt`,
/// `AddInt`, `SubtractInt` and `MultiplyInt`. Anything else is an error
/// naming the action, never a silent empty string.
#pragma once

#include "support/error.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace tessera::perf {

/// A template value: integers, text or booleans; `std::monostate` is a
/// field the data lacks (false in `if`, printed `<no value>`, as Go does
/// for a map without the key).
using go_value = std::variant<std::int64_t, std::string, bool, std::monostate>;

/// The data a template sees (`.Index` is `data.at("Index")`).
using go_data = std::map<std::string, go_value>;

/// Whether `text` holds template actions at all.
bool has_go_actions(std::string_view text) noexcept;

/// Renders `text` with `data`; errors are ec::invalid_input naming the
/// action.
[[nodiscard]] expected<std::string> render_go_template(std::string_view text,
                                                       const go_data& data);

} // namespace tessera::perf
