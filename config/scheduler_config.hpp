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
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/plugin_args.hpp"
#include "support/error.hpp"

namespace tessera::config {

/// One enabled plugin at an extension point.
struct plugin_ref {
  std::string name;
  /// Score weight; 0 means "not set" in user input and is defaulted to the
  /// default profile's weight or 1 in the effective config.
  std::int32_t weight = 0;
  friend bool operator==(const plugin_ref&, const plugin_ref&) = default;
};

/// Effective plugin lists of a profile, one per extension point, in run order.
struct plugin_sets {
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

struct profile_config {
  std::string scheduler_name = "default-scheduler";
  /// Per-profile percentageOfNodesToScore; nullopt = use the global value.
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  plugin_sets plugins;
  /// Args for every enabled plugin that has an args type, by plugin name.
  std::map<std::string, plugin_args> plugin_config;
  friend bool operator==(const profile_config&,
                         const profile_config&) = default;
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
                         const leader_election_config&) = default;
};

struct client_connection_config {
  std::string kubeconfig;
  std::string accept_content_types;
  std::string content_type = "application/vnd.kubernetes.protobuf";
  float qps = 50;
  std::int32_t burst = 100;
  friend bool operator==(const client_connection_config&,
                         const client_connection_config&) = default;
};

/// tessera's own knobs (kind TesseraConfiguration, tessera.dev/v1alpha1).
struct tessera_config {
  /// Node shards; 0 = number of cores.
  std::int32_t shards = 0;
  /// Scheduling cycles in flight; 0 = 2 x cores.
  std::int32_t max_inflight_cycles = 0;
  std::int32_t bind_concurrency = 64;
  friend bool operator==(const tessera_config&,
                         const tessera_config&) = default;
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
  friend bool operator==(const scheduler_config&,
                         const scheduler_config&) = default;
};

/// The defaulted configuration used when no --config is given: one profile
/// "default-scheduler" with the default plugins.
scheduler_config default_config();

/// Loads a config file's text (YAML or JSON; one KubeSchedulerConfiguration
/// document and optionally one TesseraConfiguration document). On failure the
/// error message lists every problem, one per line, each with its field path.
[[nodiscard]] expected<scheduler_config> load_config(std::string_view text);

/// Reads and loads a file; errors are prefixed with the file name.
[[nodiscard]] expected<scheduler_config> load_config_file(
  const std::string& path);

/// Renders the effective configuration as YAML, both documents, as
/// `--write-config-to` writes it.
std::string write_config(const scheduler_config& cfg);

} // namespace tessera::config
