// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Test helpers shared by the plugin tests (header-only, included by tests
/// only): one scheduling cycle of a single plugin — PreFilter, PreScore, its
/// node scan split over a number of shards and merged — and the per-node
/// Filter and Score outcomes, so a test can check that any shard split gives
/// the single-shard result; zoned test nodes for the topology plugins; a
/// plugin's registered events and queueing hints checked against a table; a
/// profile holding one plugin, to run it through the framework; and what
/// tests of whole profiles read: plugin names and a small mixed cluster.
#pragma once

#include "config/plugin_args.hpp"
#include "config/plugin_catalog.hpp"
#include "config/scheduler_config.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/framework/status.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tessera::plugins::plugin_testing {

/// "<Code>: <reason>", as `describe` prints a rejection or an error.
inline std::string rejection(code c, std::string_view reason) {
  return std::string{to_string(c)} + ": " + std::string{reason};
}

/// "Success", or "<Code>: <message>" for a rejection or an error.
inline std::string describe(const status& s) {
  if (s.ok())
    return "Success";
  return rejection(s.get_code(), s.message());
}

/// The outcome of PreFilter and PreScore, and the state after the scan.
struct prepared_cycle {
  cycle_state state{1};
  bool pre_filter_skipped = false;
  bool pre_score_skipped = false;
  bool scanned = false;
};

/// Runs `plugin`'s PreFilter, PreScore and node scan with the nodes dealt to
/// `shards` shards round-robin, then merges the partials.
template <class Plugin>
prepared_cycle prepare_cycle(const Plugin& plugin, const model::pod& p,
                             const std::vector<model::node_info_ptr>& nodes,
                             const cluster_context& ctx, std::size_t shards) {
  prepared_cycle out;
  if (plugin.pre_filter(out.state, p, ctx).result.is_skip()) {
    out.pre_filter_skipped = true;
    out.state.skip_filter.set(plugin.slot());
  }
  if (plugin.pre_score(out.state, p, ctx).is_skip()) {
    out.pre_score_skipped = true;
    out.state.skip_score.set(plugin.slot());
  }
  if (!plugin.wants_scan(out.state, p))
    return out;
  out.scanned = true;
  std::vector<std::vector<model::node_info_ptr>> split(shards);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    split[i % shards].push_back(nodes[i]);
  std::vector<scan_partial_ptr> partials;
  for (const auto& part : split)
    partials.push_back(plugin.scan(out.state, p, part));
  plugin.merge(out.state, p, std::move(partials));
  return out;
}

/// A node_info for each of `nodes`, in order, holding the pods of `pods`
/// whose spec.nodeName names it.
inline std::vector<model::node_info_ptr>
place_pods(const std::vector<model::node_ptr>& nodes,
           const std::vector<model::pod_ptr>& pods) {
  std::vector<model::node_info_ptr> out;
  for (const auto& n : nodes) {
    std::vector<model::pod_ptr> here;
    for (const auto& p : pods)
      if (p->node_name == n->name)
        here.push_back(p);
    out.push_back(test::make_node_info_ptr(n, here));
  }
  return out;
}

/// A node of the topology plugins' tests: its name, its zone ("" = no zone
/// label), extra labels, and whether it carries an untolerated NoSchedule
/// taint.
struct zoned_node {
  std::string name;
  std::string zone;
  test::label_pairs labels = {};
  bool tainted = false;
};

/// Node infos for `specs`, in order, each pod on the node its spec.nodeName
/// names.
inline std::vector<model::node_info_ptr>
zoned_nodes(const std::vector<zoned_node>& specs,
            const std::vector<model::pod_ptr>& pods) {
  std::vector<model::node_ptr> nodes;
  for (const auto& s : specs) {
    auto b = test::make_node(s.name);
    if (!s.zone.empty())
      b.zone(s.zone);
    for (const auto& [k, v] : s.labels)
      b.label(k, v);
    if (s.tainted)
      b.taint("dedicated", "x", "NoSchedule");
    nodes.push_back(b.build());
  }
  return place_pods(nodes, pods);
}

/// Filter outcomes of every node (Success when the Filter is skipped).
template <class Plugin>
std::vector<std::string>
filter_all(const Plugin& plugin, const cycle_state& state, const model::pod& p,
           const std::vector<model::node_info_ptr>& nodes) {
  std::vector<std::string> out;
  for (const auto& ni : nodes)
    out.push_back(state.skip_filter.test(plugin.slot())
                    ? "Success"
                    : describe(plugin.filter(state, p, *ni)));
  return out;
}

/// Filter outcomes of every node on a copy of `state` after the PreFilter
/// extensions add `added` and remove `removed` (each on the node its
/// `node_name` names, else the first node), as preemption's dry run does;
/// `state` itself is left as it was.
template <class Plugin>
std::vector<std::string>
filter_after_extensions(const Plugin& plugin, const cycle_state& state,
                        const model::pod& p,
                        const std::vector<model::node_info_ptr>& nodes,
                        const std::vector<model::pod_ptr>& added,
                        const std::vector<model::pod_ptr>& removed) {
  cycle_state copy = state;
  auto node_of = [&](const model::pod& other) -> const model::node_info& {
    for (const auto& ni : nodes)
      if (ni->name() == other.node_name)
        return *ni;
    return *nodes.front();
  };
  for (const auto& a : added)
    EXPECT_TRUE(plugin.add_pod(copy, p, *a, node_of(*a)).ok());
  for (const auto& r : removed)
    EXPECT_TRUE(plugin.remove_pod(copy, p, *r, node_of(*r)).ok());
  return filter_all(plugin, copy, p, nodes);
}

/// Raw and normalized scores of a list of nodes.
struct plugin_scores {
  std::vector<std::int64_t> raw;
  std::vector<std::int64_t> normalized;
};

/// Scores every node of `nodes` and normalizes them (no skip check).
template <class Plugin, class Nodes>
plugin_scores score_and_normalize(const Plugin& plugin,
                                  const cycle_state& state, const model::pod& p,
                                  const Nodes& nodes) {
  plugin_scores out;
  std::vector<node_score> list;
  for (const auto& ni : nodes) {
    out.raw.push_back(plugin.score(state, p, *ni));
    list.push_back({ni->name(), out.raw.back()});
  }
  plugin.normalize_scores(state, p, list);
  for (const auto& s : list)
    out.normalized.push_back(s.score);
  return out;
}

/// The queueing hint `hint` gives `waiting` when an object changes from
/// `before` to `after`, each passed as the queue passes it (a model::object);
/// a null pointer passes no object, as for an add or a delete.
template <class Before, class After>
queueing_hint hint_for(const hint_function& hint, const model::pod& waiting,
                       const Before& before, const After& after) {
  model::object before_object = before;
  model::object after_object = after;
  return hint(waiting, before ? &before_object : nullptr,
              after ? &after_object : nullptr);
}

/// A registered event as a test compares it: what it covers and whether it
/// carries a hint (no hint: always queue).
struct registered_event {
  event_resource resource = event_resource::wildcard;
  action actions = action::all;
  bool hinted = false;

  bool operator==(const registered_event&) const = default;
};

/// The events `plugin` registers, in its order.
template <class Plugin>
std::vector<registered_event> registered_events(const Plugin& plugin) {
  std::vector<registered_event> out;
  for (const auto& e : plugin.events_to_register())
    out.push_back(
      {e.event.resource, e.event.actions, static_cast<bool>(e.hint)});
  return out;
}

/// One row of a queueing-hint table: the changed object before and after
/// (null for none, as for an add or a delete) and the hint wanted.
template <class Ptr> struct hint_case {
  std::string name;
  Ptr before;
  Ptr after;
  queueing_hint want;
};

/// A queueing-hint table row with a waiting pod of its own.
template <class Ptr> struct waiting_hint_case {
  std::string name;
  model::pod_ptr waiting;
  Ptr before;
  Ptr after;
  queueing_hint want;
};

/// Checks every row of `cases` against `hint`, each for its own waiting pod.
template <class Ptr>
void expect_hints(const hint_function& hint,
                  const std::vector<waiting_hint_case<Ptr>>& cases) {
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(hint_for(hint, *tc.waiting, tc.before, tc.after), tc.want);
  }
}

/// Checks every row of `cases` against `hint` for the pod `waiting`.
template <class Ptr>
void expect_hints(const hint_function& hint, const model::pod& waiting,
                  const std::vector<hint_case<Ptr>>& cases) {
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(hint_for(hint, waiting, tc.before, tc.after), tc.want);
  }
}

/// An extension point of a one-plugin profile with the plugin's weight there
/// (Score's weight; 0 at the other points).
using profile_point = std::pair<config::extension_point, std::int32_t>;

/// The points of a plugin that both filters and scores: PreFilter, Filter,
/// PreScore, and Score with `weight`.
inline std::vector<profile_point> filter_and_score_points(std::int32_t weight) {
  using config::extension_point;
  return {{extension_point::pre_filter, 0},
          {extension_point::filter, 0},
          {extension_point::pre_score, 0},
          {extension_point::score, weight}};
}

/// A profile of the plugin `factory` makes, registered as `name` and enabled
/// at `points`, with `args` (none: the plugin's defaults); null, with a test
/// failure, when the registry or the profile refuses it.
inline profile_ptr one_plugin_profile(const std::string& name,
                                      plugin_factory factory,
                                      const std::vector<profile_point>& points,
                                      config::plugin_args args = {}) {
  registry reg;
  if (auto err = reg.add(name, std::move(factory))) {
    ADD_FAILURE() << err.message;
    return nullptr;
  }
  config::profile_config cfg;
  for (const auto& [point, weight] : points)
    cfg.plugins.at(point).push_back({name, weight});
  if (!std::holds_alternative<std::monostate>(args))
    cfg.plugin_config[name] = std::move(args);
  auto prof = profile::build(cfg, reg, 0);
  EXPECT_TRUE(prof) << (prof ? "" : prof.err().message);
  return prof ? *prof : nullptr;
}

/// The names of the plugins of one of a profile's extension points, in order.
template <class List> std::vector<std::string> names_of(const List& list) {
  std::vector<std::string> out;
  for (const auto* p : list)
    out.emplace_back(p->name());
  return out;
}

/// A node tainted dedicated=gpu:NoSchedule, then untainted nodes of the
/// given (name, cpu), all with 8Gi and 10 pods.
inline std::vector<model::node_info_ptr>
tainted_then_sized(std::vector<std::pair<std::string, std::string>> sized) {
  std::vector<model::node_info_ptr> nodes{
    test::make_node_info_ptr(test::make_node("tainted")
                               .cpu("8")
                               .memory("8Gi")
                               .pods(10)
                               .taint("dedicated", "gpu", "NoSchedule")
                               .build(),
                             {})};
  for (const auto& [name, cpu] : sized)
    nodes.push_back(test::make_node_info_ptr(
      test::make_node(name).cpu(cpu).memory("8Gi").pods(10).build(), {}));
  return nodes;
}

} // namespace tessera::plugins::plugin_testing
