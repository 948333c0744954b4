// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/plugin_args.hpp"
#include "config/plugin_args_codec.hpp"
#include "support/enum_text.hpp"

#include <variant>

namespace tessera::config::detail {

namespace {

yaml_value write_resources(const std::vector<resource_spec>& resources) {
  auto list = yaml_value::list();
  for (const auto& r : resources) {
    auto& item = list.push(yaml_value::map());
    item.set("name", yaml_value::str(r.name));
    item.set("weight", yaml_value::integer(r.weight));
  }
  return list;
}

yaml_value write_shape(const std::vector<utilization_shape_point>& shape) {
  auto list = yaml_value::list();
  for (const auto& p : shape) {
    auto& item = list.push(yaml_value::map());
    item.set("utilization", yaml_value::integer(p.utilization));
    item.set("score", yaml_value::integer(p.score));
  }
  return list;
}

std::string_view operator_name(model::node_selector_requirement::op op) {
  static constexpr enum_names<6> names
    = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
  static_assert(all_named(names));
  return enum_text(op, names, "In");
}

yaml_value
write_requirements(const std::vector<model::node_selector_requirement>& reqs) {
  auto list = yaml_value::list();
  for (const auto& req : reqs) {
    auto& item = list.push(yaml_value::map());
    item.set("key", yaml_value::str(req.key.view()));
    item.set("operator", yaml_value::str(operator_name(req.oper)));
    if (!req.values.empty()) {
      auto& values = item.set("values", yaml_value::list());
      for (auto v : req.values)
        values.push(yaml_value::str(v.view()));
    }
  }
  return list;
}

yaml_value write_term(const model::node_selector_term& term) {
  auto m = yaml_value::map();
  if (!term.match_expressions.empty())
    m.set("matchExpressions", write_requirements(term.match_expressions));
  if (!term.match_fields.empty())
    m.set("matchFields", write_requirements(term.match_fields));
  return m;
}

yaml_value write_node_affinity(const model::node_affinity& affinity) {
  auto m = yaml_value::map();
  if (affinity.required) {
    auto& selector = m.set("requiredDuringSchedulingIgnoredDuringExecution",
                           yaml_value::map());
    auto& terms = selector.set("nodeSelectorTerms", yaml_value::list());
    for (const auto& term : affinity.required->terms)
      terms.push(write_term(term));
  }
  if (!affinity.preferred.empty()) {
    auto& list = m.set("preferredDuringSchedulingIgnoredDuringExecution",
                       yaml_value::list());
    for (const auto& pref : affinity.preferred) {
      auto& item = list.push(yaml_value::map());
      item.set("weight", yaml_value::integer(pref.weight));
      item.set("preference", write_term(pref.preference));
    }
  }
  return m;
}

yaml_value write_constraint(const model::topology_spread_constraint& c) {
  using tsc = model::topology_spread_constraint;
  auto m = yaml_value::map();
  m.set("maxSkew", yaml_value::integer(c.max_skew));
  m.set("topologyKey", yaml_value::str(c.topology_key.view()));
  m.set("whenUnsatisfiable",
        yaml_value::str(c.action == tsc::when_unsatisfiable::do_not_schedule
                          ? "DoNotSchedule"
                          : "ScheduleAnyway"));
  if (c.min_domains_set)
    m.set("minDomains", yaml_value::integer(c.min_domains));
  auto policy = [](tsc::inclusion_policy p) {
    return yaml_value::str(p == tsc::inclusion_policy::honor ? "Honor"
                                                             : "Ignore");
  };
  m.set("nodeAffinityPolicy", policy(c.node_affinity_policy));
  m.set("nodeTaintsPolicy", policy(c.node_taints_policy));
  if (!c.match_label_keys.empty()) {
    auto& keys = m.set("matchLabelKeys", yaml_value::list());
    for (auto k : c.match_label_keys)
      keys.push(yaml_value::str(k.view()));
  }
  return m;
}

std::string_view strategy_name(scoring_strategy::kind k) {
  switch (k) {
  case scoring_strategy::kind::least_allocated:
    return "LeastAllocated";
  case scoring_strategy::kind::most_allocated:
    return "MostAllocated";
  case scoring_strategy::kind::requested_to_capacity_ratio:
    return "RequestedToCapacityRatio";
  }
  return "LeastAllocated";
}

void write_fields(yaml_value& m, const default_preemption_args& a) {
  m.set("minCandidateNodesPercentage",
        yaml_value::integer(a.min_candidate_nodes_percentage));
  m.set("minCandidateNodesAbsolute",
        yaml_value::integer(a.min_candidate_nodes_absolute));
}

void write_fields(yaml_value& m, const inter_pod_affinity_args& a) {
  m.set("hardPodAffinityWeight",
        yaml_value::integer(a.hard_pod_affinity_weight));
  m.set("ignorePreferredTermsOfExistingPods",
        yaml_value::boolean(a.ignore_preferred_terms_of_existing_pods));
}

void write_fields(yaml_value& m, const node_affinity_args& a) {
  if (a.added_affinity)
    m.set("addedAffinity", write_node_affinity(*a.added_affinity));
}

void write_fields(yaml_value& m,
                  const node_resources_balanced_allocation_args& a) {
  m.set("resources", write_resources(a.resources));
}

void write_fields(yaml_value& m, const node_resources_fit_args& a) {
  if (!a.ignored_resources.empty()) {
    auto& list = m.set("ignoredResources", yaml_value::list());
    for (const auto& r : a.ignored_resources)
      list.push(yaml_value::str(r));
  }
  if (!a.ignored_resource_groups.empty()) {
    auto& list = m.set("ignoredResourceGroups", yaml_value::list());
    for (const auto& g : a.ignored_resource_groups)
      list.push(yaml_value::str(g));
  }
  auto& s = m.set("scoringStrategy", yaml_value::map());
  s.set("type", yaml_value::str(strategy_name(a.strategy.type)));
  s.set("resources", write_resources(a.strategy.resources));
  if (a.strategy.type == scoring_strategy::kind::requested_to_capacity_ratio) {
    auto& ratio = s.set("requestedToCapacityRatio", yaml_value::map());
    ratio.set("shape", write_shape(a.strategy.shape));
  }
}

void write_fields(yaml_value& m, const pod_topology_spread_args& a) {
  if (!a.default_constraints.empty()) {
    auto& list = m.set("defaultConstraints", yaml_value::list());
    for (const auto& c : a.default_constraints)
      list.push(write_constraint(c));
  }
  m.set("defaultingType",
        yaml_value::str(a.defaulting_type
                            == pod_topology_spread_args::defaulting::system
                          ? "System"
                          : "List"));
}

void write_fields(yaml_value& m, const volume_binding_args& a) {
  m.set("bindTimeoutSeconds", yaml_value::integer(a.bind_timeout_seconds));
  if (!a.shape.empty())
    m.set("shape", write_shape(a.shape));
}

void write_fields(yaml_value&, const std::monostate&) {
}

} // namespace

yaml_value write_plugin_args(std::string_view plugin, const plugin_args& args) {
  auto m = yaml_value::map();
  m.set("apiVersion", yaml_value::str(args_api_version));
  m.set("kind", yaml_value::str(std::string{plugin} + "Args"));
  std::visit([&](const auto& a) { write_fields(m, a); }, args);
  return m;
}

} // namespace tessera::config::detail
