// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `configz_json`: the body of `/configz` — the effective configuration
/// under the key `componentconfig`, as kube-scheduler serves it — made from
/// the YAML that `config::write_config` prints (the same text as
/// `--write-config-to`). Plain YAML scalars become JSON booleans, numbers
/// and null where they read as such; quoted scalars stay strings.
#pragma once

#include "support/error.hpp"

#include <string>
#include <string_view>

namespace tessera::serving {

/// `{"componentconfig": <config as JSON>}`; an error for malformed YAML.
[[nodiscard]] expected<std::string> configz_json(std::string_view yaml);

} // namespace tessera::serving
