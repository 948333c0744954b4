// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Table-driven checks the plugin tests share: `filter_case` (one pod
/// against one node through Filter, with the code and message wanted),
/// `expect_filter` running a table of them, `extension_case` (AddPod and
/// RemovePod on a copy of a cycle's state), and `score_nodes` (Score on
/// each node, then NormalizeScore, which must succeed).
#pragma once

#include "model/node.hpp"
#include "model/pod.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/status.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::test {

/// One pod against one node through Filter.
struct filter_case {
  std::string name;
  model::pod_ptr pod;
  model::node_ptr node;
  plugins::code want_code;
  std::string want_message;
};

/// Checks `s` has the code and message wanted.
inline void expect_status(const plugins::status& s, plugins::code want_code,
                          const std::string& want_message) {
  EXPECT_EQ(s.get_code(), want_code);
  EXPECT_EQ(s.message(), want_message);
}

/// Runs Filter with `state` for each case's pod on its node.
template <class Plugin>
void expect_filter(const Plugin& plugin, const plugins::cycle_state& state,
                   const std::vector<filter_case>& cases) {
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto info = make_node_info(tc.node);
    expect_status(plugin.filter(state, *tc.pod, info), tc.want_code,
                  tc.want_message);
  }
}

/// Filter on a node info without a node object fails: "node not found".
template <class Plugin>
void expect_missing_node_error(const Plugin& plugin,
                               const plugins::cycle_state& state,
                               const model::pod& pod) {
  auto placeholder = make_node_info(nullptr);
  expect_status(plugin.filter(state, pod, placeholder), plugins::code::error,
                "node not found");
}

/// A cycle's pod with `existing` pods placed, then `added` and `removed`
/// through AddPod / RemovePod on a copy of its state: Filter's outcome on
/// each node before and after.
struct extension_case {
  std::string name;
  model::pod_ptr pod;
  std::vector<model::pod_ptr> existing;
  std::vector<model::pod_ptr> added;
  std::vector<model::pod_ptr> removed;
  std::vector<std::string> before;
  std::vector<std::string> after;
};

/// Checks `tc` on `nodes` with the state PreFilter left: the copy changes
/// as wanted and the original stays as it was.
template <class Plugin>
void expect_extensions(const Plugin& plugin, const plugins::cycle_state& state,
                       const extension_case& tc,
                       const std::vector<model::node_info_ptr>& nodes) {
  using plugins::plugin_testing::filter_after_extensions;
  using plugins::plugin_testing::filter_all;
  EXPECT_EQ(filter_all(plugin, state, *tc.pod, nodes), tc.before);
  EXPECT_EQ(filter_after_extensions(plugin, state, *tc.pod, nodes, tc.added,
                                    tc.removed),
            tc.after);
  EXPECT_EQ(filter_all(plugin, state, *tc.pod, nodes), tc.before);
}

/// Scores `pod` on each node (PreScore has run on `state`) and normalizes
/// the scores, checking NormalizeScore succeeds.
template <class Plugin>
plugins::plugin_testing::plugin_scores
score_nodes(const Plugin& plugin, const plugins::cycle_state& state,
            const model::pod& pod, const std::vector<model::node_ptr>& nodes) {
  plugins::plugin_testing::plugin_scores out;
  std::vector<plugins::node_score> scores;
  for (const auto& n : nodes) {
    auto info = make_node_info(n);
    out.raw.push_back(plugin.score(state, pod, info));
    scores.push_back({n->name, out.raw.back()});
  }
  EXPECT_TRUE(plugin.normalize_scores(state, pod, scores).ok());
  for (const auto& s : scores)
    out.normalized.push_back(s.score);
  return out;
}

} // namespace tessera::test
