// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/config_document.hpp"
#include "config/plugin_args_codec.hpp"
#include "config/yaml_reader.hpp"

namespace tessera::config::detail {

namespace {

void decode_leader_election(const YAML::Node& node, const std::string& path,
                            raw_config& out, field_errors& strict) {
  object_reader r(node, path, strict);
  read_into(r, "leaderElect", out.leader_elect, read_bool, strict);
  read_into(r, "leaseDuration", out.lease_duration, read_duration, strict);
  read_into(r, "renewDeadline", out.renew_deadline, read_duration, strict);
  read_into(r, "retryPeriod", out.retry_period, read_duration, strict);
  read_into(r, "resourceLock", out.resource_lock, read_string, strict);
  read_into(r, "resourceName", out.resource_name, read_string, strict);
  read_into(r, "resourceNamespace", out.resource_namespace, read_string,
            strict);
}

void decode_client_connection(const YAML::Node& node, const std::string& path,
                              raw_config& out, field_errors& strict) {
  object_reader r(node, path, strict);
  read_into(r, "kubeconfig", out.kubeconfig, read_string, strict);
  read_into(r, "acceptContentTypes", out.accept_content_types, read_string,
            strict);
  read_into(r, "contentType", out.content_type, read_string, strict);
  if (auto n = r.get("qps"))
    if (auto v = read_number(*n, r.path("qps"), strict))
      out.qps = static_cast<float>(*v);
  read_into(r, "burst", out.burst, read_int32, strict);
}

plugin_set_spec decode_plugin_set(const YAML::Node& node,
                                  const std::string& path,
                                  field_errors& strict) {
  plugin_set_spec set;
  object_reader r(node, path, strict);
  if (auto list = r.get("enabled");
      list && expect_list(*list, r.path("enabled"), strict)) {
    std::size_t i = 0;
    for (auto it = list->begin(); it != list->end(); ++it, ++i) {
      object_reader p(*it, index(r.path("enabled"), i), strict);
      plugin_spec spec;
      read_into(p, "name", spec.name, read_string, strict);
      if (auto w = p.get("weight"))
        spec.weight = read_int32(*w, p.path("weight"), strict);
      set.enabled.push_back(std::move(spec));
    }
  }
  if (auto list = r.get("disabled");
      list && expect_list(*list, r.path("disabled"), strict)) {
    std::size_t i = 0;
    for (auto it = list->begin(); it != list->end(); ++it, ++i) {
      object_reader p(*it, index(r.path("disabled"), i), strict);
      std::string name;
      read_into(p, "name", name, read_string, strict);
      // Upstream keeps only the name of a disabled plugin.
      if (auto w = p.get("weight"))
        (void)read_int32(*w, p.path("weight"), strict);
      set.disabled.push_back(std::move(name));
    }
  }
  return set;
}

plugins_spec decode_plugins(const YAML::Node& node, const std::string& path,
                            field_errors& strict) {
  plugins_spec plugins;
  object_reader r(node, path, strict);
  for (auto p : all_extension_points) {
    auto field = field_name(p);
    if (auto n = r.get(field))
      plugins.at(p) = decode_plugin_set(*n, r.path(field), strict);
  }
  if (auto n = r.get("multiPoint"))
    plugins.multi_point = decode_plugin_set(*n, r.path("multiPoint"), strict);
  return plugins;
}

raw_plugin_config decode_plugin_config(const YAML::Node& node,
                                       const std::string& path,
                                       field_errors& strict) {
  raw_plugin_config pc;
  object_reader r(node, path, strict);
  read_into(r, "name", pc.name, read_string, strict);
  auto args = r.get("args");
  if (has_args_type(pc.name)) {
    pc.args
      = decode_plugin_args(pc.name, args, r.path("args"), strict, pc.invalid);
  }
  // Args of plugins without an args type are not decoded, as upstream keeps
  // them raw and only hands them to plugins it runs.
  r.skip("args");
  return pc;
}

raw_profile decode_profile(const YAML::Node& node, const std::string& path,
                           field_errors& strict) {
  raw_profile profile;
  object_reader r(node, path, strict);
  read_into(r, "schedulerName", profile.scheduler_name, read_string, strict);
  read_into(r, "percentageOfNodesToScore", profile.percentage_of_nodes_to_score,
            read_int32, strict);
  if (auto n = r.get("plugins"))
    profile.plugins = decode_plugins(*n, r.path("plugins"), strict);
  if (auto list = r.get("pluginConfig");
      list && expect_list(*list, r.path("pluginConfig"), strict)) {
    std::size_t i = 0;
    for (auto it = list->begin(); it != list->end(); ++it, ++i)
      profile.plugin_config.push_back(
        decode_plugin_config(*it, index(r.path("pluginConfig"), i), strict));
  }
  return profile;
}

void decode_tls_config(const YAML::Node& node, const std::string& path,
                       field_errors& strict) {
  object_reader r(node, path, strict);
  std::optional<bool> flag;
  read_into(r, "insecure", flag, read_bool, strict);
  std::string text;
  for (auto key : {"serverName", "certFile", "keyFile", "caFile", "certData",
                   "keyData", "caData"})
    read_into(r, key, text, read_string, strict);
}

raw_extender decode_extender(const YAML::Node& node, const std::string& path,
                             field_errors& strict) {
  raw_extender ext;
  object_reader r(node, path, strict);
  std::string text;
  read_into(r, "urlPrefix", text, read_string, strict);
  read_into(r, "filterVerb", text, read_string, strict);
  read_into(r, "preemptVerb", text, read_string, strict);
  std::string prioritize;
  read_into(r, "prioritizeVerb", prioritize, read_string, strict);
  ext.prioritizes = !prioritize.empty();
  read_into(r, "weight", ext.weight, read_int64, strict);
  std::string bind;
  read_into(r, "bindVerb", bind, read_string, strict);
  ext.binds = !bind.empty();
  std::optional<bool> flag;
  read_into(r, "enableHTTPS", flag, read_bool, strict);
  if (auto n = r.get("tlsConfig"))
    decode_tls_config(*n, r.path("tlsConfig"), strict);
  std::optional<std::chrono::milliseconds> timeout;
  read_into(r, "httpTimeout", timeout, read_duration, strict);
  read_into(r, "nodeCacheCapable", flag, read_bool, strict);
  if (auto list = r.get("managedResources");
      list && expect_list(*list, r.path("managedResources"), strict)) {
    std::size_t i = 0;
    for (auto it = list->begin(); it != list->end(); ++it, ++i) {
      object_reader m(*it, index(r.path("managedResources"), i), strict);
      read_into(m, "name", text, read_string, strict);
      read_into(m, "ignoredByScheduler", flag, read_bool, strict);
    }
  }
  read_into(r, "ignorable", flag, read_bool, strict);
  return ext;
}

} // namespace

raw_config decode_scheduler_document(const YAML::Node& doc,
                                     field_errors& strict) {
  raw_config out;
  object_reader r(doc, "", strict);
  r.skip("apiVersion");
  r.skip("kind");
  read_into(r, "parallelism", out.parallelism, read_int32, strict);
  if (auto n = r.get("leaderElection"))
    decode_leader_election(*n, "leaderElection", out, strict);
  if (auto n = r.get("clientConnection"))
    decode_client_connection(*n, "clientConnection", out, strict);
  read_into(r, "enableProfiling", out.enable_profiling, read_bool, strict);
  read_into(r, "enableContentionProfiling", out.enable_contention_profiling,
            read_bool, strict);
  read_into(r, "percentageOfNodesToScore", out.percentage_of_nodes_to_score,
            read_int32, strict);
  read_into(r, "podInitialBackoffSeconds", out.pod_initial_backoff_seconds,
            read_int64, strict);
  read_into(r, "podMaxBackoffSeconds", out.pod_max_backoff_seconds, read_int64,
            strict);
  if (auto list = r.get("profiles");
      list && expect_list(*list, "profiles", strict)) {
    std::size_t i = 0;
    for (auto it = list->begin(); it != list->end(); ++it, ++i)
      out.profiles.push_back(decode_profile(*it, index("profiles", i), strict));
  }
  if (auto list = r.get("extenders");
      list && expect_list(*list, "extenders", strict)) {
    std::size_t i = 0;
    for (auto it = list->begin(); it != list->end(); ++it, ++i)
      out.extenders.push_back(
        decode_extender(*it, index("extenders", i), strict));
  }
  read_into(r, "delayCacheUntilActive", out.delay_cache_until_active, read_bool,
            strict);
  return out;
}

tessera_config decode_tessera_document(const YAML::Node& doc,
                                       field_errors& strict,
                                       field_errors& invalid) {
  tessera_config out;
  object_reader r(doc, "", strict);
  r.skip("apiVersion");
  r.skip("kind");
  read_into(r, "shards", out.shards, read_int32, strict);
  read_into(r, "maxInflightCycles", out.max_inflight_cycles, read_int32,
            strict);
  read_into(r, "bindConcurrency", out.bind_concurrency, read_int32, strict);
  auto in_range = [&](const char* field, std::int32_t v, std::int32_t lo,
                      std::int32_t hi) {
    if (v < lo)
      invalid.invalid(field, show(v),
                      "must be greater than or equal to " + std::to_string(lo));
    else if (v > hi)
      invalid.invalid(field, show(v),
                      "must be less than or equal to " + std::to_string(hi));
  };
  in_range("shards", out.shards, 0, max_shards);
  in_range("maxInflightCycles", out.max_inflight_cycles, 0,
           max_inflight_cycles_limit);
  in_range("bindConcurrency", out.bind_concurrency, 1, max_bind_concurrency);
  return out;
}

} // namespace tessera::config::detail
