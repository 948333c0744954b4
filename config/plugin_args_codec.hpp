// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Reading and writing the typed `pluginConfig[].args` of every in-tree plugin
/// with an args type. Reading decodes strictly, applies upstream's v1 args
/// defaulting (pkg/scheduler/apis/config/v1/defaults.go) and validates
/// (validation_pluginargs.go) in one pass, because defaulting depends on
/// which fields were given. NodeAffinityArgs.addedAffinity and
/// PodTopologySpreadArgs.defaultConstraints are decoded by model/decode.hpp
/// after their keys were checked strictly here. Writing is in
/// plugin_args_write.cpp. Internal to config/.
#pragma once

#include "config/field_errors.hpp"
#include "config/plugin_args.hpp"
#include "config/yaml_writer.hpp"

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>

namespace tessera::config::detail {

/// The group/version of every args kind.
inline constexpr std::string_view args_api_version
  = "kubescheduler.config.k8s.io/v1";

/// True when `plugin` (an in-tree plugin tessera has) takes typed args.
bool has_args_type(std::string_view plugin);

/// Upstream's defaulted args of `plugin`, which must have an args type.
plugin_args default_plugin_args(std::string_view plugin);

/// Decodes the args of `plugin` found at `path` (absent = all defaults).
/// Decoding problems go to `strict`, validation problems to `invalid`.
plugin_args decode_plugin_args(std::string_view plugin,
                               const std::optional<YAML::Node>& args,
                               const std::string& path, field_errors& strict,
                               field_errors& invalid);

/// The `args` mapping of `plugin`, with apiVersion and kind, every defaulted
/// field written.
yaml_value write_plugin_args(std::string_view plugin, const plugin_args& args);

} // namespace tessera::config::detail
