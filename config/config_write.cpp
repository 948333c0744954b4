// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/config_document.hpp"
#include "config/plugin_args_codec.hpp"
#include "config/scheduler_config.hpp"
#include "config/yaml_writer.hpp"
#include "support/flags.hpp"

#include <charconv>

namespace tessera::config {

namespace {

using detail::yaml_value;

yaml_value write_plugin_set(const plugin_set_spec& set) {
  auto m = yaml_value::map();
  if (!set.enabled.empty()) {
    auto& list = m.set("enabled", yaml_value::list());
    for (const auto& e : set.enabled) {
      auto& item = list.push(yaml_value::map());
      item.set("name", yaml_value::str(e.name));
      if (e.weight)
        item.set("weight", yaml_value::integer(*e.weight));
    }
  }
  if (!set.disabled.empty()) {
    auto& list = m.set("disabled", yaml_value::list());
    for (const auto& name : set.disabled)
      list.push(yaml_value::map()).set("name", yaml_value::str(name));
  }
  return m;
}

yaml_value write_plugins(const plugins_spec& plugins) {
  auto m = yaml_value::map();
  for (auto p : all_extension_points)
    if (!plugins.at(p).empty())
      m.set(std::string{field_name(p)}, write_plugin_set(plugins.at(p)));
  if (!plugins.multi_point.empty())
    m.set("multiPoint", write_plugin_set(plugins.multi_point));
  return m;
}

yaml_value write_profile(const profile_config& profile) {
  auto m = yaml_value::map();
  m.set("schedulerName", yaml_value::str(profile.scheduler_name));
  if (profile.percentage_of_nodes_to_score)
    m.set("percentageOfNodesToScore",
          yaml_value::integer(*profile.percentage_of_nodes_to_score));
  m.set("plugins", write_plugins(profile.plugins_v1));
  if (!profile.plugin_config.empty()) {
    auto& list = m.set("pluginConfig", yaml_value::list());
    for (const auto& [name, args] : profile.plugin_config) {
      auto& item = list.push(yaml_value::map());
      item.set("name", yaml_value::str(name));
      item.set("args", detail::write_plugin_args(name, args));
    }
  }
  return m;
}

std::string float_text(float value) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  if (ec != std::errc{})
    return "0";
  return std::string{buf, end};
}

yaml_value duration(std::chrono::milliseconds d) {
  return yaml_value::str(format_duration(d));
}

} // namespace

std::string write_config(const scheduler_config& cfg) {
  auto doc = yaml_value::map();
  doc.set("apiVersion", yaml_value::str(detail::scheduler_api_version));
  doc.set("kind", yaml_value::str(detail::scheduler_kind));
  doc.set("parallelism", yaml_value::integer(cfg.parallelism));

  const auto& le = cfg.leader_election;
  auto& leader = doc.set("leaderElection", yaml_value::map());
  leader.set("leaderElect", yaml_value::boolean(le.leader_elect));
  leader.set("leaseDuration", duration(le.lease_duration));
  leader.set("renewDeadline", duration(le.renew_deadline));
  leader.set("retryPeriod", duration(le.retry_period));
  leader.set("resourceLock", yaml_value::str(le.resource_lock));
  leader.set("resourceName", yaml_value::str(le.resource_name));
  leader.set("resourceNamespace", yaml_value::str(le.resource_namespace));

  const auto& cc = cfg.client_connection;
  auto& client = doc.set("clientConnection", yaml_value::map());
  client.set("kubeconfig", yaml_value::str(cc.kubeconfig));
  client.set("acceptContentTypes", yaml_value::str(cc.accept_content_types));
  client.set("contentType", yaml_value::str(cc.content_type));
  client.set("qps", yaml_value::raw(float_text(cc.qps)));
  client.set("burst", yaml_value::integer(cc.burst));

  doc.set("enableProfiling", yaml_value::boolean(cfg.enable_profiling));
  doc.set("enableContentionProfiling",
          yaml_value::boolean(cfg.enable_contention_profiling));
  doc.set("percentageOfNodesToScore",
          yaml_value::integer(cfg.percentage_of_nodes_to_score));
  doc.set("podInitialBackoffSeconds",
          yaml_value::integer(cfg.pod_initial_backoff_seconds));
  doc.set("podMaxBackoffSeconds",
          yaml_value::integer(cfg.pod_max_backoff_seconds));
  auto& profiles = doc.set("profiles", yaml_value::list());
  for (const auto& profile : cfg.profiles)
    profiles.push(write_profile(profile));
  doc.set("delayCacheUntilActive",
          yaml_value::boolean(cfg.delay_cache_until_active));

  auto tessera = yaml_value::map();
  tessera.set("apiVersion", yaml_value::str(detail::tessera_api_version));
  tessera.set("kind", yaml_value::str(detail::tessera_kind));
  tessera.set("shards", yaml_value::integer(cfg.tessera.shards));
  tessera.set("maxInflightCycles",
              yaml_value::integer(cfg.tessera.max_inflight_cycles));
  tessera.set("bindConcurrency",
              yaml_value::integer(cfg.tessera.bind_concurrency));

  return doc.render() + "---\n" + tessera.render();
}

} // namespace tessera::config
