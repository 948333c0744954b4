// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The YAML 1.1 words that Kubernetes' YAML reader (go-yaml v2 behind
/// sigs.k8s.io/yaml) gives a type of their own when they stand unquoted:
/// the nulls, the booleans (`yes`, `off`, `y`, ...) and the infinities and
/// NaN. The object decoder and the configuration reader type plain scalars
/// with these one tables; each still reads numbers its own way.
#pragma once

#include <optional>
#include <string_view>

namespace tessera {

/// True for the plain scalars that read as null: empty, `~`, `null`,
/// `Null`, `NULL`.
[[nodiscard]] bool is_yaml_null(std::string_view plain) noexcept;

/// The boolean a plain scalar reads as (`true`, `yes`, `on`, `y` and their
/// capitalized forms, and their opposites), or nullopt.
[[nodiscard]] std::optional<bool> yaml_bool(std::string_view plain) noexcept;

/// The value of `.inf`, `+.inf`, `-.inf` or `.nan` (three spellings each),
/// or nullopt.
[[nodiscard]] std::optional<double>
yaml_special_float(std::string_view plain) noexcept;

} // namespace tessera
