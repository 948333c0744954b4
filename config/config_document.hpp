// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `raw_config`: a KubeSchedulerConfiguration document as written, before
/// defaulting — every field that upstream's v1 type holds as a pointer is an
/// optional here, because defaulting depends on whether it was given. The
/// pipeline of `load_config` is decode (config_decode.cpp, strict) → build
/// (config_build.cpp: defaulting, multiPoint expansion, validation, the
/// framework's start-up checks). Internal to config/.
#pragma once

#include "config/field_errors.hpp"
#include "config/scheduler_config.hpp"

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::config::detail {

inline constexpr std::string_view scheduler_api_version
  = "kubescheduler.config.k8s.io/v1";
inline constexpr std::string_view scheduler_kind = "KubeSchedulerConfiguration";
inline constexpr std::string_view tessera_api_version = "tessera.dev/v1alpha1";
inline constexpr std::string_view tessera_kind = "TesseraConfiguration";

/// One pluginConfig entry.
struct raw_plugin_config {
  std::string name;
  /// Decoded and defaulted args, for in-tree plugins with an args type.
  std::optional<plugin_args> args;
  /// Validation problems of the args (reported in upstream's order).
  field_errors invalid;
};

struct raw_profile {
  std::optional<std::string> scheduler_name;
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  /// The user's plugins section (empty when absent).
  plugins_spec plugins;
  std::vector<raw_plugin_config> plugin_config;
};

/// What validation needs to know of an extender.
struct raw_extender {
  std::int64_t weight = 0;
  bool prioritizes = false;
  bool binds = false;
};

struct raw_config {
  std::optional<std::int32_t> parallelism;
  std::optional<bool> leader_elect;
  /// Zero = not given (upstream defaults a zero duration too).
  std::chrono::milliseconds lease_duration{0};
  std::chrono::milliseconds renew_deadline{0};
  std::chrono::milliseconds retry_period{0};
  std::string resource_lock;
  std::string resource_name;
  std::string resource_namespace;
  std::string kubeconfig;
  std::string accept_content_types;
  std::string content_type;
  float qps = 0;
  std::int32_t burst = 0;
  std::optional<bool> enable_profiling;
  std::optional<bool> enable_contention_profiling;
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  std::optional<std::int64_t> pod_initial_backoff_seconds;
  std::optional<std::int64_t> pod_max_backoff_seconds;
  std::vector<raw_profile> profiles;
  std::vector<raw_extender> extenders;
  bool delay_cache_until_active = false;
};

/// Decodes the fields of a KubeSchedulerConfiguration mapping (apiVersion
/// and kind were checked by the caller). Decoding problems go to `strict`.
raw_config decode_scheduler_document(const YAML::Node& doc,
                                     field_errors& strict);

/// Decodes and validates a TesseraConfiguration mapping.
tessera_config decode_tessera_document(const YAML::Node& doc,
                                       field_errors& strict,
                                       field_errors& invalid);

/// The result of defaulting and checking a raw document.
struct build_result {
  scheduler_config config;
  /// Validation problems, in upstream's order.
  field_errors invalid;
  /// Problems upstream's framework reports when it builds the profiles.
  field_errors startup;
};

/// Applies upstream's v1 defaulting, expands every profile's plugins and
/// checks the result.
build_result build_config(const raw_config& raw);

/// The `plugins` section of the default profile (all defaults under
/// multiPoint).
plugins_spec default_plugins();

} // namespace tessera::config::detail
