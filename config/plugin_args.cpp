// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/plugin_args.hpp"

#include "config/plugin_args_codec.hpp"
#include "config/plugin_catalog.hpp"
#include "config/yaml_reader.hpp"
#include "model/decode.hpp"
#include "support/names.hpp"

#include <algorithm>
#include <utility>

namespace tessera::config::detail {

namespace {

constexpr std::string_view args_group = "kubescheduler.config.k8s.io";

// tessera models no volumes, so it keeps StorageCapacityScoring's gate-off
// behaviour although 1.37 turns the gate on by default.
constexpr bool storage_capacity_scoring = false;

// ---------------------------------------------------------------------------
// apimachinery's label-name rules, with its exact messages.

constexpr std::string_view qualified_name_msg
  = "must consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
    "'123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

constexpr std::string_view dns_subdomain_msg
  = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
    "characters, '-' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

std::vector<std::string> qualified_name_problems(std::string_view value) {
  std::vector<std::string> problems;
  std::string_view name = value;
  auto slashes = std::count(value.begin(), value.end(), '/');
  if (slashes > 1) {
    problems.push_back("a qualified name " + std::string{qualified_name_msg}
                       + " with an optional DNS subdomain prefix and '/' (e.g. "
                         "'example.com/MyName')");
    return problems;
  }
  if (slashes == 1) {
    auto slash = value.find('/');
    auto prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      problems.emplace_back("prefix part must be non-empty");
    } else {
      if (prefix.size() > 253)
        problems.emplace_back(
          "prefix part must be no more than 253 characters");
      if (!is_dns1123_subdomain(prefix))
        problems.push_back("prefix part " + std::string{dns_subdomain_msg});
    }
  }
  if (name.empty())
    problems.emplace_back("name part must be non-empty");
  else if (name.size() > 63)
    problems.emplace_back("name part must be no more than 63 characters");
  if (!is_qualified_name_part(name))
    problems.push_back("name part " + std::string{qualified_name_msg});
  return problems;
}

void validate_label_name(std::string_view value, std::string_view path,
                         field_errors& invalid) {
  for (const auto& problem : qualified_name_problems(value))
    invalid.invalid(path, show(value), problem);
}

// ---------------------------------------------------------------------------
// Shared pieces.

// Checks apiVersion and kind of an args mapping. False when the args are of
// another type; the mapping is then not decoded further.
bool check_type_meta(object_reader& r, std::string_view plugin,
                     field_errors& strict) {
  std::string kind = std::string{plugin} + "Args";
  std::optional<std::string> api_version;
  std::optional<std::string> given_kind;
  if (auto n = r.get("apiVersion"))
    api_version = read_string(*n, r.path("apiVersion"), strict);
  if (auto n = r.get("kind"))
    given_kind = read_string(*n, r.path("kind"), strict);
  std::string group{args_group};
  std::string version = "v1";
  if (api_version && !api_version->empty()) {
    auto slash = api_version->rfind('/');
    if (slash == std::string::npos) {
      group.clear();
      version = *api_version;
    } else {
      group = api_version->substr(0, slash);
      version = api_version->substr(slash + 1);
    }
  }
  std::string got_kind
    = given_kind && !given_kind->empty() ? *given_kind : kind;
  if (got_kind != kind || group != args_group) {
    std::string got = group.empty() ? got_kind : got_kind + "." + group;
    strict.add(r.path() + ": args for plugin " + std::string{plugin}
               + " were not of type " + kind + "." + std::string{args_group}
               + ", got " + got);
    strict.set_position(r.position());
    r.skip_all();
    return false;
  }
  if (version != "v1") {
    strict.not_supported(r.path("apiVersion"), show(*api_version),
                         {args_api_version});
    strict.set_position(r.position());
    r.skip_all();
    return false;
  }
  return true;
}

std::vector<resource_spec> read_resources(const YAML::Node& node,
                                          const std::string& path,
                                          field_errors& strict) {
  return read_object_list<resource_spec>(
    node, path, strict, [&](object_reader& r) {
      resource_spec spec;
      spec.weight = 0;
      read_into(r, "name", spec.name, read_string, strict);
      read_into(r, "weight", spec.weight, read_int64, strict);
      return spec;
    });
}

std::vector<utilization_shape_point> read_shape(const YAML::Node& node,
                                                const std::string& path,
                                                field_errors& strict) {
  return read_object_list<utilization_shape_point>(
    node, path, strict, [&](object_reader& r) {
      utilization_shape_point point;
      read_into(r, "utilization", point.utilization, read_int32, strict);
      read_into(r, "score", point.score, read_int32, strict);
      return point;
    });
}

const std::vector<resource_spec>& default_resources() {
  static const std::vector<resource_spec> resources{{"cpu", 1}, {"memory", 1}};
  return resources;
}

void default_weights(std::vector<resource_spec>& resources) {
  for (auto& r : resources)
    if (r.weight == 0)
      r.weight = 1;
}

void validate_shape(const std::vector<utilization_shape_point>& shape,
                    const std::string& path, field_errors& invalid) {
  if (shape.empty()) {
    invalid.required(path, "at least one point must be specified");
    return;
  }
  for (std::size_t i = 1; i < shape.size(); ++i)
    if (shape[i - 1].utilization >= shape[i].utilization) {
      invalid.invalid(child(index(path, i), "utilization"),
                      show(shape[i].utilization),
                      "values must be sorted in increasing order");
      break;
    }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].utilization < 0 || shape[i].utilization > 100)
      invalid.invalid(child(index(path, i), "utilization"),
                      show(shape[i].utilization),
                      "not in valid range [0, 100]");
    if (shape[i].score < 0 || shape[i].score > 10)
      invalid.invalid(child(index(path, i), "score"), show(shape[i].score),
                      "not in valid range [0, 10]");
  }
}

// Adds every line of a model decoding error.
void add_model_error(const error& err, field_errors& invalid) {
  std::string_view text = err.message;
  while (!text.empty()) {
    auto nl = text.find('\n');
    auto line = text.substr(0, nl);
    if (!line.empty())
      invalid.add(std::string{line});
    if (nl == std::string_view::npos)
      break;
    text.remove_prefix(nl + 1);
  }
}

// ---------------------------------------------------------------------------
// Strict key checks of the core/v1 types inside args (the model decoder
// ignores unknown fields, as API clients do). Wrong node kinds are left to
// the model decoder, which reports them.

template <class F>
void for_each_item(const YAML::Node& node, const std::string& path, F f) {
  if (!node.IsSequence())
    return;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i)
    f(*it, index(path, i));
}

void check_requirement(const YAML::Node& node, const std::string& path,
                       field_errors& strict) {
  if (!node.IsMap())
    return;
  object_reader r(node, path, strict);
  r.skip("key");
  r.skip("operator");
  r.skip("values");
}

void check_selector_term(const YAML::Node& node, const std::string& path,
                         field_errors& strict) {
  if (!node.IsMap())
    return;
  object_reader r(node, path, strict);
  for (auto field : {"matchExpressions", "matchFields"})
    if (auto list = r.get(field))
      for_each_item(*list, r.path(field),
                    [&](const YAML::Node& item, const std::string& p) {
                      check_requirement(item, p, strict);
                    });
}

void check_node_affinity(const YAML::Node& node, const std::string& path,
                         field_errors& strict) {
  if (!node.IsMap())
    return;
  object_reader r(node, path, strict);
  if (auto required = r.get("requiredDuringSchedulingIgnoredDuringExecution")) {
    if (required->IsMap()) {
      object_reader sel(
        *required, r.path("requiredDuringSchedulingIgnoredDuringExecution"),
        strict);
      if (auto terms = sel.get("nodeSelectorTerms"))
        for_each_item(*terms, sel.path("nodeSelectorTerms"),
                      [&](const YAML::Node& item, const std::string& p) {
                        check_selector_term(item, p, strict);
                      });
    }
  }
  if (auto preferred = r.get("preferredDuringSchedulingIgnoredDuringExecution"))
    for_each_item(
      *preferred, r.path("preferredDuringSchedulingIgnoredDuringExecution"),
      [&](const YAML::Node& item, const std::string& p) {
        if (!item.IsMap())
          return;
        object_reader term(item, p, strict);
        term.skip("weight");
        if (auto pref = term.get("preference"))
          check_selector_term(*pref, term.path("preference"), strict);
      });
}

// ---------------------------------------------------------------------------
// One decoder per args type.

default_preemption_args decode_default_preemption(object_reader& r,
                                                  field_errors& strict,
                                                  field_errors& invalid) {
  default_preemption_args a;
  if (!check_type_meta(r, "DefaultPreemption", strict))
    return a;
  read_into(r, "minCandidateNodesPercentage", a.min_candidate_nodes_percentage,
            read_int32, strict);
  read_into(r, "minCandidateNodesAbsolute", a.min_candidate_nodes_absolute,
            read_int32, strict);

  auto pct_path = r.path("minCandidateNodesPercentage");
  auto abs_path = r.path("minCandidateNodesAbsolute");
  if (a.min_candidate_nodes_percentage < 0
      || a.min_candidate_nodes_percentage > 100)
    invalid.invalid(pct_path, show(a.min_candidate_nodes_percentage),
                    "not in valid range [0, 100]");
  if (a.min_candidate_nodes_absolute < 0)
    invalid.invalid(abs_path, show(a.min_candidate_nodes_absolute),
                    "not in valid range [0, inf)");
  if (a.min_candidate_nodes_percentage == 0
      && a.min_candidate_nodes_absolute == 0) {
    invalid.invalid(pct_path, "0",
                    "cannot be zero at the same time as "
                    "minCandidateNodesAbsolute");
    invalid.invalid(abs_path, "0",
                    "cannot be zero at the same time as "
                    "minCandidateNodesPercentage");
  }
  return a;
}

inter_pod_affinity_args decode_inter_pod_affinity(object_reader& r,
                                                  field_errors& strict,
                                                  field_errors& invalid) {
  inter_pod_affinity_args a;
  if (!check_type_meta(r, "InterPodAffinity", strict))
    return a;
  read_into(r, "hardPodAffinityWeight", a.hard_pod_affinity_weight, read_int32,
            strict);
  read_into(r, "ignorePreferredTermsOfExistingPods",
            a.ignore_preferred_terms_of_existing_pods, read_bool, strict);
  if (a.hard_pod_affinity_weight < 0 || a.hard_pod_affinity_weight > 100)
    invalid.invalid(r.path("hardPodAffinityWeight"),
                    show(a.hard_pod_affinity_weight),
                    "not in valid range [0, 100]");
  return a;
}

// Upstream's args validation parses addedAffinity's terms as its selector
// parser does and refuses what the parser refuses (the pod decoder only
// marks such requirements unusable).
void check_usable_terms(const model::node_affinity& a, std::string_view path,
                        field_errors& invalid) {
  auto report
    = [&](const model::node_selector_term& term, const std::string& term_path) {
        if (auto bad = term.first_problem())
          invalid.invalid(
            child(index(child(term_path, "matchExpressions"), bad->first),
                  bad->second.field),
            show(bad->second.value), bad->second.detail);
      };
  if (a.required) {
    auto terms
      = child(child(path, "requiredDuringSchedulingIgnoredDuringExecution"),
              "nodeSelectorTerms");
    for (std::size_t i = 0; i < a.required->terms.size(); ++i)
      report(a.required->terms[i], index(terms, i));
  }
  auto preferred
    = child(path, "preferredDuringSchedulingIgnoredDuringExecution");
  for (std::size_t i = 0; i < a.preferred.size(); ++i)
    report(a.preferred[i].preference, child(index(preferred, i), "preference"));
}

node_affinity_args decode_node_affinity(object_reader& r, field_errors& strict,
                                        field_errors& invalid) {
  node_affinity_args a;
  if (!check_type_meta(r, "NodeAffinity", strict))
    return a;
  if (auto n = r.get("addedAffinity")) {
    auto path = r.path("addedAffinity");
    field_errors keys;
    check_node_affinity(*n, path, keys);
    strict.append(keys);
    if (keys.empty()) {
      auto decoded = model::decode_node_affinity_json(to_json(*n), path);
      if (decoded) {
        check_usable_terms(*decoded, path, invalid);
        a.added_affinity = std::move(*decoded);
      } else
        add_model_error(decoded.err(), invalid);
    }
  }
  return a;
}

node_resources_balanced_allocation_args
decode_balanced_allocation(object_reader& r, field_errors& strict,
                           field_errors& invalid) {
  node_resources_balanced_allocation_args a;
  if (!check_type_meta(r, "NodeResourcesBalancedAllocation", strict))
    return a;
  if (auto n = r.get("resources")) {
    auto resources = read_resources(*n, r.path("resources"), strict);
    if (!resources.empty()) {
      default_weights(resources);
      a.resources = std::move(resources);
    }
  }
  std::vector<std::string_view> seen;
  for (std::size_t i = 0; i < a.resources.size(); ++i) {
    const auto& res = a.resources[i];
    auto path = index(r.path("resources"), i);
    if (std::find(seen.begin(), seen.end(), res.name) != seen.end())
      invalid.duplicate(child(path, "name"), show(res.name));
    else
      seen.push_back(res.name);
    if (res.weight != 1)
      invalid.invalid(child(path, "weight"), show(res.weight), "must be 1");
  }
  return a;
}

node_resources_fit_args decode_node_resources_fit(object_reader& r,
                                                  field_errors& strict,
                                                  field_errors& invalid) {
  node_resources_fit_args a;
  if (!check_type_meta(r, "NodeResourcesFit", strict))
    return a;
  read_into(r, "ignoredResources", a.ignored_resources, read_string_list,
            strict);
  read_into(r, "ignoredResourceGroups", a.ignored_resource_groups,
            read_string_list, strict);

  auto strategy_path = r.path("scoringStrategy");
  bool strategy_given = false;
  bool type_supported = true;
  std::string type_text;
  bool ratio_given = false;
  if (auto n = r.get("scoringStrategy")) {
    strategy_given = true;
    object_reader s(*n, strategy_path, strict);
    a.strategy.resources.clear();
    if (auto t = s.get("type"))
      if (auto text = read_string(*t, s.path("type"), strict))
        type_text = *text;
    if (auto res = s.get("resources"))
      a.strategy.resources = read_resources(*res, s.path("resources"), strict);
    if (auto ratio = s.get("requestedToCapacityRatio")) {
      ratio_given = true;
      object_reader rr(*ratio, s.path("requestedToCapacityRatio"), strict);
      if (auto shape = rr.get("shape"))
        a.strategy.shape = read_shape(*shape, rr.path("shape"), strict);
    }
    using k = scoring_strategy::kind;
    if (type_text == "LeastAllocated")
      a.strategy.type = k::least_allocated;
    else if (type_text == "MostAllocated")
      a.strategy.type = k::most_allocated;
    else if (type_text == "RequestedToCapacityRatio")
      a.strategy.type = k::requested_to_capacity_ratio;
    else
      type_supported = false;
    if (a.strategy.resources.empty())
      a.strategy.resources = default_resources();
    default_weights(a.strategy.resources);
  }

  auto ignored_path = r.path("ignoredResources");
  for (std::size_t i = 0; i < a.ignored_resources.size(); ++i)
    validate_label_name(a.ignored_resources[i], index(ignored_path, i),
                        invalid);
  auto groups_path = r.path("ignoredResourceGroups");
  for (std::size_t i = 0; i < a.ignored_resource_groups.size(); ++i) {
    const auto& group = a.ignored_resource_groups[i];
    auto path = index(groups_path, i);
    if (group.find('/') != std::string::npos)
      invalid.invalid(path, show(group),
                      "resource group name can't contain '/'");
    validate_label_name(group, path, invalid);
  }
  if (strategy_given) {
    if (!type_supported)
      invalid.not_supported(
        child(strategy_path, "type"), show(type_text),
        {"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
    auto res_path = child(strategy_path, "resources");
    for (std::size_t i = 0; i < a.strategy.resources.size(); ++i) {
      const auto& res = a.strategy.resources[i];
      if (res.weight <= 0 || res.weight > 100)
        invalid.invalid(child(index(res_path, i), "weight"), show(res.weight),
                        "resource weight of " + res.name
                          + " not in valid range (0, 100]");
    }
    auto ratio_path = child(strategy_path, "requestedToCapacityRatio");
    if (type_supported
        && a.strategy.type
             == scoring_strategy::kind::requested_to_capacity_ratio) {
      if (!ratio_given)
        invalid.required(ratio_path, "must be specified when type is "
                                     "RequestedToCapacityRatio");
      else
        validate_shape(a.strategy.shape, child(ratio_path, "shape"), invalid);
    } else {
      if (ratio_given)
        invalid.forbidden(ratio_path, "must be nil when type is not "
                                      "RequestedToCapacityRatio");
      a.strategy.shape.clear();
    }
  }
  return a;
}

pod_topology_spread_args decode_pod_topology_spread(object_reader& r,
                                                    field_errors& strict,
                                                    field_errors& invalid) {
  pod_topology_spread_args a;
  if (!check_type_meta(r, "PodTopologySpread", strict))
    return a;
  std::string defaulting = "System";
  if (auto n = r.get("defaultingType"))
    if (auto text = read_string(*n, r.path("defaultingType"), strict))
      if (!text->empty())
        defaulting = *text;

  struct item {
    std::string key;
    std::string action;
  };
  std::vector<item> seen;
  field_errors constraint_errors;
  std::size_t count = 0;
  auto list_path = r.path("defaultConstraints");
  if (auto list = r.get("defaultConstraints");
      list && expect_list(*list, list_path, strict)) {
    std::size_t i = 0;
    for (auto it = list->begin(); it != list->end(); ++it, ++i) {
      ++count;
      auto path = index(list_path, i);
      field_errors decode_errors;
      field_errors problems;
      std::int32_t max_skew = 0;
      std::string key;
      std::string action;
      bool has_selector = false;
      {
        object_reader c(*it, path, decode_errors);
        read_into(c, "maxSkew", max_skew, read_int32, decode_errors);
        read_into(c, "topologyKey", key, read_string, decode_errors);
        read_into(c, "whenUnsatisfiable", action, read_string, decode_errors);
        has_selector = c.get("labelSelector").has_value();
        for (auto field : {"minDomains", "nodeAffinityPolicy",
                           "nodeTaintsPolicy", "matchLabelKeys"})
          c.skip(field);
      }
      if (max_skew <= 0)
        problems.invalid(child(path, "maxSkew"), show(max_skew),
                         "not in valid range (0, inf)");
      if (key.empty())
        problems.required(child(path, "topologyKey"), "can not be empty");
      else
        validate_label_name(key, child(path, "topologyKey"), problems);
      if (action.empty())
        problems.required(child(path, "whenUnsatisfiable"), "can not be empty");
      else if (action != "DoNotSchedule" && action != "ScheduleAnyway")
        problems.not_supported(child(path, "whenUnsatisfiable"), show(action),
                               {"DoNotSchedule", "ScheduleAnyway"});
      if (has_selector)
        problems.forbidden(child(path, "labelSelector"),
                           "constraint must not define a selector, as they "
                           "deduced for each pod");
      for (const auto& other : seen)
        if (other.key == key && other.action == action) {
          problems.duplicate(path, show("{" + key + ", " + action + "}"));
          break;
        }
      seen.push_back(item{key, action});
      strict.append(decode_errors);
      constraint_errors.append(problems);
      if (!decode_errors.empty() || !problems.empty())
        continue;
      auto decoded
        = model::decode_topology_spread_constraint_json(to_json(*it), path);
      if (decoded)
        a.default_constraints.push_back(std::move(*decoded));
      else
        add_model_error(decoded.err(), constraint_errors);
    }
  }

  auto type_path = r.path("defaultingType");
  if (defaulting == "System") {
    a.defaulting_type = pod_topology_spread_args::defaulting::system;
    if (count > 0)
      invalid.invalid(type_path, show(defaulting),
                      "when .defaultConstraints are not empty");
  } else if (defaulting == "List") {
    a.defaulting_type = pod_topology_spread_args::defaulting::list;
  } else {
    invalid.not_supported(type_path, show(defaulting), {"System", "List"});
  }
  invalid.append(constraint_errors);
  return a;
}

volume_binding_args decode_volume_binding(object_reader& r,
                                          field_errors& strict,
                                          field_errors& invalid) {
  volume_binding_args a;
  if (!check_type_meta(r, "VolumeBinding", strict))
    return a;
  read_into(r, "bindTimeoutSeconds", a.bind_timeout_seconds, read_int64,
            strict);
  std::optional<YAML::Node> shape = r.get("shape");
  if (shape)
    a.shape = read_shape(*shape, r.path("shape"), strict);
  if (a.bind_timeout_seconds < 0)
    invalid.invalid(r.path("bindTimeoutSeconds"), show(a.bind_timeout_seconds),
                    "invalid BindTimeoutSeconds, should not be a negative "
                    "value");
  if constexpr (storage_capacity_scoring) {
    if (!shape)
      a.shape = {{0, 10}, {100, 0}};
    validate_shape(a.shape, r.path("shape"), invalid);
  } else {
    if (shape)
      invalid.invalid(r.path("shape"), to_json(*shape),
                      "unexpected field `shape`, remove it or turn on the "
                      "feature gate StorageCapacityScoring");
    a.shape.clear();
  }
  return a;
}

} // namespace

bool has_args_type(std::string_view plugin) {
  const auto* info = find_in_tree_plugin(plugin);
  return info != nullptr && info->has_args;
}

plugin_args default_plugin_args(std::string_view plugin) {
  if (plugin == "DefaultPreemption")
    return default_preemption_args{};
  if (plugin == "InterPodAffinity")
    return inter_pod_affinity_args{};
  if (plugin == "NodeAffinity")
    return node_affinity_args{};
  if (plugin == "NodeResourcesBalancedAllocation")
    return node_resources_balanced_allocation_args{};
  if (plugin == "NodeResourcesFit")
    return node_resources_fit_args{};
  if (plugin == "PodTopologySpread")
    return pod_topology_spread_args{};
  if (plugin == "VolumeBinding") {
    volume_binding_args a;
    if constexpr (storage_capacity_scoring)
      a.shape = {{0, 10}, {100, 0}};
    return a;
  }
  return std::monostate{};
}

plugin_args decode_plugin_args(std::string_view plugin,
                               const std::optional<YAML::Node>& args,
                               const std::string& path, field_errors& strict,
                               field_errors& invalid) {
  YAML::Node node = args ? *args : YAML::Node{};
  object_reader r(node, path, strict);
  if (!r.ok())
    return default_plugin_args(plugin);
  if (plugin == "DefaultPreemption")
    return decode_default_preemption(r, strict, invalid);
  if (plugin == "InterPodAffinity")
    return decode_inter_pod_affinity(r, strict, invalid);
  if (plugin == "NodeAffinity")
    return decode_node_affinity(r, strict, invalid);
  if (plugin == "NodeResourcesBalancedAllocation")
    return decode_balanced_allocation(r, strict, invalid);
  if (plugin == "NodeResourcesFit")
    return decode_node_resources_fit(r, strict, invalid);
  if (plugin == "PodTopologySpread")
    return decode_pod_topology_spread(r, strict, invalid);
  if (plugin == "VolumeBinding")
    return decode_volume_binding(r, strict, invalid);
  r.skip_all();
  return std::monostate{};
}

} // namespace tessera::config::detail
