// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/config_document.hpp"
#include "config/plugin_args_codec.hpp"
#include "support/flags.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace tessera::config::detail {

namespace {

// Plugins upstream removed from v1; naming them gets upstream's own message.
constexpr std::array<std::string_view, 4> removed_plugins
  = {"AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"};

bool is_removed_plugin(std::string_view name) {
  return std::find(removed_plugins.begin(), removed_plugins.end(), name)
         != removed_plugins.end();
}

std::string removed_plugin_detail() {
  return "was invalid in version \"" + std::string{scheduler_api_version}
         + "\" (KubeSchedulerConfiguration is version \""
         + std::string{scheduler_api_version} + "\")";
}

// The order in which upstream's framework walks the extension points when it
// builds a profile (and so the order of its start-up errors).
constexpr std::array<extension_point, extension_point_count> framework_order = {
  extension_point::pre_filter,  extension_point::filter,
  extension_point::post_filter, extension_point::reserve,
  extension_point::pre_score,   extension_point::score,
  extension_point::pre_bind,    extension_point::bind,
  extension_point::post_bind,   extension_point::permit,
  extension_point::pre_enqueue, extension_point::queue_sort,
};

// An enabled plugin after merging with the defaults, with the index of the
// user's entry it came from (nullopt: a default).
struct merged_entry {
  plugin_spec spec;
  std::optional<std::size_t> user_index;
};

struct merged_set {
  std::vector<merged_entry> enabled;
  std::vector<std::string> disabled;

  bool disables(std::string_view name) const {
    return std::find(disabled.begin(), disabled.end(), name) != disabled.end();
  }
  plugin_set_spec spec() const {
    plugin_set_spec out;
    for (const auto& e : enabled)
      out.enabled.push_back(e.spec);
    out.disabled = disabled;
    return out;
  }
};

// Upstream's mergePluginSet: disabled defaults (or all with "*") go away, a
// user entry with a default's name replaces it in place, other user entries
// follow in their order.
merged_set merge(const plugin_set_spec& defaults, const plugin_set_spec& user) {
  merged_set out;
  out.disabled = user.disabled;
  out.disabled.insert(out.disabled.end(), defaults.disabled.begin(),
                      defaults.disabled.end());
  std::map<std::string, std::size_t> last_index;
  for (std::size_t i = 0; i < user.enabled.size(); ++i)
    last_index[user.enabled[i].name] = i;
  std::set<std::size_t> replaced;
  if (!out.disables("*")) {
    for (const auto& d : defaults.enabled) {
      if (out.disables(d.name))
        continue;
      if (auto it = last_index.find(d.name); it != last_index.end()) {
        out.enabled.push_back({user.enabled[it->second], it->second});
        replaced.insert(it->second);
      } else {
        out.enabled.push_back({d, std::nullopt});
      }
    }
  }
  for (std::size_t i = 0; i < user.enabled.size(); ++i)
    if (!replaced.contains(i))
      out.enabled.push_back({user.enabled[i], i});
  return out;
}

std::string set_path(std::string_view profile_path, std::string_view field) {
  return child(child(profile_path, "plugins"), field);
}

std::string entry_path(std::string_view profile_path, std::string_view field,
                       std::size_t i) {
  return index(child(set_path(profile_path, field), "enabled"), i);
}

// Printed value of a PluginSet in "must be the same" errors.
std::string show_set(const plugin_set_spec& set) {
  std::string out = "{\"enabled\":[";
  for (std::size_t i = 0; i < set.enabled.size(); ++i) {
    if (i > 0)
      out += ',';
    out += "{\"name\":" + go_quote(set.enabled[i].name);
    if (set.enabled[i].weight)
      out += ",\"weight\":" + std::to_string(*set.enabled[i].weight);
    out += '}';
  }
  out += "],\"disabled\":[";
  for (std::size_t i = 0; i < set.disabled.size(); ++i) {
    if (i > 0)
      out += ',';
    out += "{\"name\":" + go_quote(set.disabled[i]) + '}';
  }
  out += "]}";
  return out;
}

std::string does_not_exist(std::string_view iface, std::string_view name) {
  return std::string{iface} + " " + go_quote(name) + " does not exist";
}

// Everything known about one profile while it is built.
struct profile_builder {
  const raw_profile& raw;
  std::string path;
  std::array<merged_set, extension_point_count> points;
  merged_set multi_point;
  field_errors invalid;
  field_errors startup;

  const merged_set& point(extension_point p) const {
    return points[static_cast<std::size_t>(p)];
  }

  // Upstream's validatePluginSetForInvalidPlugins for every set, plus
  // tessera's check of negative weights.
  void check_plugin_names() {
    auto check = [&](const merged_set& set, std::string_view field) {
      for (std::size_t i = 0; i < set.enabled.size(); ++i) {
        const auto& e = set.enabled[i];
        if (!e.user_index || !is_removed_plugin(e.spec.name))
          continue;
        invalid.invalid(entry_path(path, field, *e.user_index),
                        show(e.spec.name), removed_plugin_detail());
      }
    };
    for (auto p : all_extension_points)
      check(point(p), field_name(p));
    check(multi_point, "multiPoint");

    auto check_weights = [&](const merged_set& set, std::string_view field,
                             bool score_only) {
      for (const auto& e : set.enabled) {
        if (!e.user_index || !e.spec.weight || *e.spec.weight >= 0)
          continue;
        if (score_only) {
          const auto* info = find_in_tree_plugin(e.spec.name);
          if (info == nullptr || !info->implements(extension_point::score))
            continue;
        }
        invalid.invalid(child(entry_path(path, field, *e.user_index), "weight"),
                        show(*e.spec.weight), "must not be negative");
      }
    };
    check_weights(point(extension_point::score), "score", false);
    check_weights(multi_point, "multiPoint", true);
  }

  // Upstream's validation of pluginConfig: duplicates, removed plugins, args.
  void check_plugin_config() {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < raw.plugin_config.size(); ++i) {
      const auto& pc = raw.plugin_config[i];
      auto pc_path = index(child(path, "pluginConfig"), i);
      if (!seen.insert(pc.name).second)
        invalid.duplicate(pc_path, show(pc.name));
      if (is_removed_plugin(pc.name))
        invalid.invalid(pc_path, show(pc.name), removed_plugin_detail());
      else
        invalid.append(pc.invalid);
    }
  }

  // The explicit list of one extension point, checked as upstream's
  // updatePluginList does; returns the accepted names.
  std::vector<std::string> explicit_list(extension_point p) {
    std::vector<std::string> names;
    const auto& set = point(p);
    for (const auto& e : set.enabled) {
      const auto& name = e.spec.name;
      auto at = entry_path(path, field_name(p), e.user_index.value_or(0));
      const auto* info = find_in_tree_plugin(name);
      if (info == nullptr) {
        if (!is_removed_plugin(name))
          startup.invalid(at, show(name),
                          does_not_exist(interface_name(p), name));
        continue;
      }
      if (!info->implements(p)) {
        startup.invalid(at, show(name),
                        "plugin " + go_quote(name) + " does not extend "
                          + std::string{interface_name(p)} + " plugin");
        continue;
      }
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        startup.invalid(at, show(name),
                        "plugin " + go_quote(name) + " already registered as "
                          + go_quote(interface_name(p)));
        continue;
      }
      names.push_back(name);
    }
    return names;
  }

  // The user index of the second occurrence of `name` in multiPoint.
  std::size_t second_user_occurrence(std::string_view name) const {
    const auto& user = raw.plugins.multi_point.enabled;
    bool first = true;
    for (std::size_t i = 0; i < user.size(); ++i)
      if (user[i].name == name) {
        if (!first)
          return i;
        first = false;
      }
    return 0;
  }

  std::int32_t score_weight(std::string_view name) const {
    for (const auto& e : point(extension_point::score).enabled)
      if (e.spec.name == name)
        return e.spec.weight.value_or(0) == 0 ? 1 : *e.spec.weight;
    for (const auto& e : multi_point.enabled)
      if (e.spec.name == name)
        return e.spec.weight.value_or(0) == 0 ? 1 : *e.spec.weight;
    return 1;
  }

  // Upstream's framework: explicit lists first, then multiPoint expansion.
  plugin_sets expand() {
    std::array<std::vector<std::string>, extension_point_count> explicit_names;
    for (auto p : framework_order)
      explicit_names[static_cast<std::size_t>(p)] = explicit_list(p);

    for (const auto& e : multi_point.enabled)
      if (find_in_tree_plugin(e.spec.name) == nullptr
          && !is_removed_plugin(e.spec.name))
        startup.invalid(
          entry_path(path, "multiPoint", e.user_index.value_or(0)),
          show(e.spec.name), does_not_exist("plugin", e.spec.name));

    plugin_sets out;
    std::set<std::string> reported_duplicates;
    for (auto p : framework_order) {
      const auto& set = point(p);
      const auto& names = explicit_names[static_cast<std::size_t>(p)];
      std::vector<std::string> result;
      if (set.disables("*")) {
        result = names;
      } else {
        std::vector<std::string> overrides;
        std::vector<std::string> expanded;
        for (const auto& e : multi_point.enabled) {
          const auto& name = e.spec.name;
          const auto* info = find_in_tree_plugin(name);
          if (info == nullptr || !info->implements(p) || set.disables(name))
            continue;
          if (std::find(names.begin(), names.end(), name) != names.end()) {
            overrides.push_back(name);
            continue;
          }
          if (std::find(expanded.begin(), expanded.end(), name)
              != expanded.end()) {
            if (reported_duplicates.insert(name).second)
              startup.invalid(
                entry_path(path, "multiPoint", second_user_occurrence(name)),
                show(name),
                "plugin " + go_quote(name) + " already registered as "
                  + go_quote(interface_name(p)));
            continue;
          }
          expanded.push_back(name);
        }
        auto is_override = [&](const std::string& name) {
          return std::find(overrides.begin(), overrides.end(), name)
                 != overrides.end();
        };
        for (const auto& name : names)
          if (is_override(name))
            result.push_back(name);
        result.insert(result.end(), expanded.begin(), expanded.end());
        for (const auto& name : names)
          if (!is_override(name))
            result.push_back(name);
      }
      auto& list = out.at(p);
      for (const auto& name : result)
        list.push_back(plugin_ref{
          name, p == extension_point::score ? score_weight(name) : 0});
    }

    std::string profile_name = raw.scheduler_name.value_or("");
    if (out.queue_sort.empty())
      startup.required(set_path(path, "queueSort"),
                       "only one queue sort plugin required for profile with "
                       "scheduler name "
                         + go_quote(profile_name) + ", but got 0");
    if (out.bind.empty())
      startup.required(set_path(path, "bind"),
                       "at least one bind plugin is needed for profile with "
                       "scheduler name "
                         + go_quote(profile_name));
    return out;
  }
};

std::string show_duration(std::chrono::milliseconds d) {
  return format_duration(d);
}

void validate_percentage(std::optional<std::int32_t> value,
                         const std::string& path, field_errors& invalid) {
  if (value && (*value < 0 || *value > 100))
    invalid.invalid(path, show(*value), "not in valid range [0-100]");
}

} // namespace

plugins_spec default_plugins() {
  plugins_spec spec;
  for (const auto& info : in_tree_plugins()) {
    plugin_spec entry{std::string{info.name}, std::nullopt};
    if (info.default_weight > 0)
      entry.weight = info.default_weight;
    spec.multi_point.enabled.push_back(std::move(entry));
  }
  return spec;
}

build_result build_config(const raw_config& raw) {
  build_result result;
  auto& cfg = result.config;

  // Global defaults (SetDefaults_KubeSchedulerConfiguration and
  // RecommendedDefaultLeaderElectionConfiguration).
  cfg.parallelism = raw.parallelism.value_or(16);
  cfg.percentage_of_nodes_to_score
    = raw.percentage_of_nodes_to_score.value_or(0);
  auto& le = cfg.leader_election;
  le.leader_elect = raw.leader_elect.value_or(true);
  using std::chrono::milliseconds;
  le.lease_duration = raw.lease_duration == milliseconds{0}
                        ? milliseconds{15000}
                        : raw.lease_duration;
  le.renew_deadline = raw.renew_deadline == milliseconds{0}
                        ? milliseconds{10000}
                        : raw.renew_deadline;
  le.retry_period = raw.retry_period == milliseconds{0} ? milliseconds{2000}
                                                        : raw.retry_period;
  le.resource_lock = raw.resource_lock.empty() ? "leases" : raw.resource_lock;
  le.resource_name
    = raw.resource_name.empty() ? "kube-scheduler" : raw.resource_name;
  le.resource_namespace
    = raw.resource_namespace.empty() ? "kube-system" : raw.resource_namespace;
  auto& cc = cfg.client_connection;
  cc.kubeconfig = raw.kubeconfig;
  cc.accept_content_types = raw.accept_content_types;
  cc.content_type = raw.content_type.empty()
                      ? "application/vnd.kubernetes.protobuf"
                      : raw.content_type;
  cc.qps = raw.qps == 0 ? 50.0f : raw.qps;
  cc.burst = raw.burst == 0 ? 100 : raw.burst;
  cfg.pod_initial_backoff_seconds = raw.pod_initial_backoff_seconds.value_or(1);
  cfg.pod_max_backoff_seconds = raw.pod_max_backoff_seconds.value_or(10);
  cfg.enable_profiling = raw.enable_profiling.value_or(true);
  cfg.enable_contention_profiling
    = raw.enable_contention_profiling.value_or(cfg.enable_profiling);
  cfg.delay_cache_until_active = raw.delay_cache_until_active;

  // Profiles.
  std::vector<raw_profile> raw_profiles = raw.profiles;
  if (raw_profiles.empty())
    raw_profiles.emplace_back();
  if (raw_profiles.size() == 1 && !raw_profiles[0].scheduler_name)
    raw_profiles[0].scheduler_name = "default-scheduler";

  auto defaults = default_plugins();
  std::vector<profile_builder> builders;
  builders.reserve(raw_profiles.size());
  for (std::size_t i = 0; i < raw_profiles.size(); ++i) {
    const auto& rp = raw_profiles[i];
    auto& b = builders.emplace_back(
      profile_builder{rp, index("profiles", i), {}, {}, {}, {}});
    for (auto p : all_extension_points)
      b.points[static_cast<std::size_t>(p)]
        = merge(defaults.at(p), rp.plugins.at(p));
    b.multi_point = merge(defaults.multi_point, rp.plugins.multi_point);

    profile_config profile;
    profile.scheduler_name = rp.scheduler_name.value_or("");
    profile.percentage_of_nodes_to_score = rp.percentage_of_nodes_to_score;
    for (auto p : all_extension_points)
      profile.plugins_v1.at(p) = b.point(p).spec();
    profile.plugins_v1.multi_point = b.multi_point.spec();

    // pluginConfig: the user's typed args, then defaults for every enabled
    // plugin with an args type that has none.
    for (const auto& pc : rp.plugin_config)
      if (pc.args && !profile.plugin_config.contains(pc.name))
        profile.plugin_config.emplace(pc.name, *pc.args);
    auto add_defaults = [&](const merged_set& set) {
      for (const auto& e : set.enabled) {
        bool configured = std::any_of(
          rp.plugin_config.begin(), rp.plugin_config.end(),
          [&](const raw_plugin_config& pc) { return pc.name == e.spec.name; });
        if (!configured && has_args_type(e.spec.name))
          profile.plugin_config.emplace(e.spec.name,
                                        default_plugin_args(e.spec.name));
      }
    };
    add_defaults(b.multi_point);
    for (auto p : all_extension_points)
      add_defaults(b.point(p));

    // Validation of the profile, in upstream's order.
    if (profile.scheduler_name.empty())
      b.invalid.required(child(b.path, "schedulerName"));
    validate_percentage(profile.percentage_of_nodes_to_score,
                        child(b.path, "percentageOfNodesToScore"), b.invalid);
    b.check_plugin_names();
    b.check_plugin_config();

    profile.plugins = b.expand();
    cfg.profiles.push_back(std::move(profile));
  }

  // Validation (ValidateKubeSchedulerConfiguration's order).
  auto& invalid = result.invalid;
  if (cc.burst < 0)
    invalid.invalid("clientConnection.burst", show(cc.burst),
                    "must be non-negative");
  if (le.leader_elect) {
    if (le.lease_duration <= milliseconds{0})
      invalid.invalid("leaderElection.leaseDuration",
                      show_duration(le.lease_duration),
                      "must be greater than zero");
    if (le.renew_deadline <= milliseconds{0})
      invalid.invalid("leaderElection.renewDeadline",
                      show_duration(le.renew_deadline),
                      "must be greater than zero");
    if (le.retry_period <= milliseconds{0})
      invalid.invalid("leaderElection.retryPeriod",
                      show_duration(le.retry_period),
                      "must be greater than zero");
    if (le.lease_duration <= le.renew_deadline)
      invalid.invalid("leaderElection.leaseDuration",
                      show_duration(le.renew_deadline),
                      "must be greater than `RenewDeadline`");
    if (le.resource_lock != "leases")
      invalid.invalid("leaderElection.resourceLock", show(le.resource_lock),
                      "resourceLock value must be \"leases\"");
  }
  if (cfg.parallelism <= 0)
    invalid.invalid("parallelism", show(cfg.parallelism),
                    "should be an integer value greater than zero");

  std::map<std::string, std::size_t> names;
  for (std::size_t i = 0; i < builders.size(); ++i) {
    invalid.append(builders[i].invalid);
    const auto& name = cfg.profiles[i].scheduler_name;
    if (auto it = names.find(name); it != names.end())
      invalid.duplicate(child(builders[i].path, "schedulerName"),
                        child(index("profiles", it->second), "schedulerName"));
    names[name] = i;
  }
  if (!builders.empty()) {
    const auto& first = cfg.profiles[0].plugins_v1.queue_sort;
    if (first.enabled.size() > 1)
      invalid.invalid("profiles[0].plugins.queueSort.enabled",
                      show(static_cast<std::int64_t>(first.enabled.size())),
                      "only one queue sort plugin can be enabled");
    for (std::size_t i = 1; i < builders.size(); ++i) {
      const auto& current = cfg.profiles[i].plugins_v1.queue_sort;
      if (!(current == first))
        invalid.invalid(set_path(builders[i].path, "queueSort"),
                        show_set(current), "must be the same for all profiles");
    }
  }
  validate_percentage(cfg.percentage_of_nodes_to_score,
                      "percentageOfNodesToScore", invalid);
  if (cfg.pod_initial_backoff_seconds <= 0)
    invalid.invalid("podInitialBackoffSeconds",
                    show(cfg.pod_initial_backoff_seconds),
                    "must be greater than 0");
  if (cfg.pod_max_backoff_seconds < cfg.pod_initial_backoff_seconds)
    invalid.invalid("podMaxBackoffSeconds", show(cfg.pod_max_backoff_seconds),
                    "must be greater than or equal to "
                    "PodInitialBackoffSeconds");

  std::size_t binders = 0;
  for (std::size_t i = 0; i < raw.extenders.size(); ++i) {
    const auto& ext = raw.extenders[i];
    if (ext.prioritizes && ext.weight <= 0)
      invalid.invalid(child(index("extenders", i), "weight"), show(ext.weight),
                      "must have a positive weight applied to it");
    if (ext.binds)
      ++binders;
  }
  if (binders > 1)
    invalid.invalid(
      "extenders",
      show("found " + std::to_string(binders) + " extenders implementing bind"),
      "only one extender can implement bind");
  for (std::size_t i = 0; i < raw.extenders.size(); ++i)
    invalid.forbidden(index("extenders", i), "extenders are not supported yet");

  for (const auto& b : builders)
    result.startup.append(b.startup);
  return result;
}

} // namespace tessera::config::detail
