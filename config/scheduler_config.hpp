// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `scheduler_config`: the effective, fully defaulted configuration tessera
/// runs with — upstream's KubeSchedulerConfiguration v1 (every profile's plugin
/// lists already expanded from multiPoint and merged with the defaults, in
/// upstream's order) plus tessera's own TesseraConfiguration document.
///
/// `load_config` parses YAML or JSON strictly (unknown and duplicate fields
/// are errors), applies upstream's v1 defaulting, validates, and reports every
/// problem at once with upstream-style field paths.
///
/// Each profile keeps two views of its plugins: `plugins_v1`, the `plugins`
/// section as upstream's v1 defaulting leaves it (default plugins under
/// multiPoint, merged with the user's enabled/disabled lists; this is what
/// `write_config` prints, like `kube-scheduler --write-config-to`), and
/// `plugins`, its expansion into one run-ordered list per extension point, as
/// upstream's framework builds it at start-up. plugins/ builds profiles from
/// `plugins` and `plugin_config` only.
#pragma once

#include "config/feature_gates.hpp"
#include "config/plugin_args.hpp"
#include "config/plugin_catalog.hpp"
#include "support/error.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::config {

/// One enabled plugin at an extension point of the effective config.
struct plugin_ref {
  std::string name;
  /// Score weight, always >= 1 in `plugin_sets::score` (the explicit score
  /// weight, else the multiPoint weight, else 1); 0 at every other point.
  std::int32_t weight = 0;
  friend bool operator==(const plugin_ref&, const plugin_ref&) = default;
};

/// Effective plugin lists of a profile, one per extension point, in run order.
struct plugin_sets {
  /// The list of extension point `p`.
  std::vector<plugin_ref>& at(extension_point p);
  const std::vector<plugin_ref>& at(extension_point p) const;

  std::vector<plugin_ref> pre_enqueue;
  std::vector<plugin_ref> queue_sort;
  std::vector<plugin_ref> pre_filter;
  std::vector<plugin_ref> filter;
  std::vector<plugin_ref> post_filter;
  std::vector<plugin_ref> pre_score;
  std::vector<plugin_ref> score;
  std::vector<plugin_ref> reserve;
  std::vector<plugin_ref> permit;
  std::vector<plugin_ref> pre_bind;
  std::vector<plugin_ref> bind;
  std::vector<plugin_ref> post_bind;
  friend bool operator==(const plugin_sets&, const plugin_sets&) = default;
};

/// One entry of a v1 PluginSet's `enabled` list (v1.Plugin).
struct plugin_spec {
  std::string name;
  /// nullopt = not given (upstream's nil pointer).
  std::optional<std::int32_t> weight;
  friend bool operator==(const plugin_spec&, const plugin_spec&) = default;
};

/// A v1 PluginSet: enabled plugins and the names of disabled ones ("*" = all
/// defaults).
struct plugin_set_spec {
  std::vector<plugin_spec> enabled;
  std::vector<std::string> disabled;
  bool empty() const noexcept {
    return enabled.empty() && disabled.empty();
  }
  friend bool operator==(const plugin_set_spec&, const plugin_set_spec&)
    = default;
};

/// A v1 `plugins` section: one PluginSet per extension point plus multiPoint.
struct plugins_spec {
  plugin_set_spec pre_enqueue;
  plugin_set_spec queue_sort;
  plugin_set_spec pre_filter;
  plugin_set_spec filter;
  plugin_set_spec post_filter;
  plugin_set_spec pre_score;
  plugin_set_spec score;
  plugin_set_spec reserve;
  plugin_set_spec permit;
  plugin_set_spec pre_bind;
  plugin_set_spec bind;
  plugin_set_spec post_bind;
  plugin_set_spec multi_point;

  /// The PluginSet of extension point `p`.
  plugin_set_spec& at(extension_point p);
  const plugin_set_spec& at(extension_point p) const;
  friend bool operator==(const plugins_spec&, const plugins_spec&) = default;
};

struct profile_config {
  std::string scheduler_name = "default-scheduler";
  /// Per-profile percentageOfNodesToScore; nullopt = use the global value.
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  /// The defaulted v1 `plugins` section (see the file comment).
  plugins_spec plugins_v1;
  /// The effective plugins, expanded from `plugins_v1`.
  plugin_sets plugins;
  /// Typed args by plugin name: the user's pluginConfig entries for plugins
  /// with an args type, plus defaults for every enabled plugin with an args
  /// type (as upstream's defaulting appends them). Args given for plugins
  /// tessera does not have, or for plugins without an args type, are accepted
  /// and ignored, as kube-scheduler ignores args of plugins it does not run.
  std::map<std::string, plugin_args> plugin_config;
  friend bool operator==(const profile_config&, const profile_config&)
    = default;
};

struct leader_election_config {
  bool leader_elect = true;
  std::chrono::milliseconds lease_duration{15000};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
  std::string resource_lock = "leases";
  std::string resource_name = "kube-scheduler";
  std::string resource_namespace = "kube-system";
  friend bool operator==(const leader_election_config&,
                         const leader_election_config&)
    = default;
};

struct client_connection_config {
  std::string kubeconfig;
  std::string accept_content_types;
  std::string content_type = "application/vnd.kubernetes.protobuf";
  float qps = 50;
  std::int32_t burst = 100;
  friend bool operator==(const client_connection_config&,
                         const client_connection_config&)
    = default;
};

/// Upper bounds of tessera's knobs: each shard, cycle slot and binding
/// slot costs an actor or memory up front, so an absurd value would
/// exhaust memory at start instead of being refused.
inline constexpr std::int32_t max_shards = 1024;
inline constexpr std::int32_t max_inflight_cycles_limit = 65536;
inline constexpr std::int32_t max_bind_concurrency = 65536;

/// tessera's own knobs (kind TesseraConfiguration, tessera.dev/v1alpha1).
struct tessera_config {
  /// Node shards; 0 = number of cores.
  std::int32_t shards = 0;
  /// Scheduling cycles in flight; 0 = 4 x cores (measured best on 2 cores:
  /// perf SchedulingBasic, anti-affinity and spreading at 5,000 nodes).
  std::int32_t max_inflight_cycles = 0;
  std::int32_t bind_concurrency = 64;
  friend bool operator==(const tessera_config&, const tessera_config&)
    = default;
};

struct scheduler_config {
  std::int32_t parallelism = 16;
  leader_election_config leader_election;
  client_connection_config client_connection;
  bool enable_profiling = true;
  bool enable_contention_profiling = true;
  std::int32_t percentage_of_nodes_to_score = 0;
  std::int64_t pod_initial_backoff_seconds = 1;
  std::int64_t pod_max_backoff_seconds = 10;
  std::vector<profile_config> profiles;
  bool delay_cache_until_active = false;
  tessera_config tessera;
  /// kube-scheduler's feature gates. Not part of the file (upstream sets
  /// them with --feature-gates only): the verbs fill them from the flag;
  /// `load_config` leaves every gate at its 1.37 default.
  feature_gates gates;
  friend bool operator==(const scheduler_config&, const scheduler_config&)
    = default;
};

/// The defaulted configuration used when no --config is given: one profile
/// "default-scheduler" with the default plugins.
scheduler_config default_config();

/// Loads a config file's text (YAML or JSON; one KubeSchedulerConfiguration
/// document and optionally one TesseraConfiguration document, in any order).
/// On failure (ec::invalid_input) the message lists every problem, one per
/// line: problems with the documents themselves ("doc 2: unsupported
/// document: ..."), then the KubeSchedulerConfiguration's strict decoding
/// problems in document order, its validation problems in upstream's order
/// and the framework's start-up checks of each profile's plugins, then the
/// TesseraConfiguration's problems, prefixed "TesseraConfiguration: ".
/// Field paths always point into the file as written.
[[nodiscard]] expected<scheduler_config> load_config(std::string_view text);

/// Reads and loads a file; every error line is prefixed with "<path>: ".
[[nodiscard]] expected<scheduler_config>
load_config_file(const std::string& path);

/// Renders the effective configuration as YAML, both documents separated by
/// `---`, as `--write-config-to` writes it: upstream's field names in the
/// order of upstream's types, every defaulted field written, plugins as
/// `plugins_v1`. `load_config(write_config(c))` gives `c` back.
std::string write_config(const scheduler_config& cfg);

} // namespace tessera::config
