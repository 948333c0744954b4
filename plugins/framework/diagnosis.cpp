// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/diagnosis.hpp"

#include <algorithm>
#include <unordered_map>

namespace tessera::plugins {

void diagnosis::add(model::symbol node, status s) {
  add_plugin_of(s);
  node_statuses.push_back({node, std::move(s)});
}

void diagnosis::add_plugin_of(const status& s) {
  if (s.plugin().empty())
    return;
  auto note = [&](std::set<std::string, std::less<>>& plugins) {
    if (plugins.find(s.plugin()) == plugins.end())
      plugins.emplace(s.plugin());
  };
  if (s.get_code() == code::pending)
    note(pending_plugins);
  else if (s.is_rejected())
    note(unschedulable_plugins);
}

std::string reason_histogram(std::size_t num_all_nodes, const diagnosis& d) {
  // Count per reason; a node with several reasons counts in each.
  std::unordered_map<model::symbol, std::size_t> counts;
  std::vector<model::symbol> order;
  auto bump = [&](model::symbol reason, std::size_t by) {
    auto [it, fresh] = counts.emplace(reason, 0);
    if (fresh)
      order.push_back(reason);
    it->second += by;
  };
  for (const auto& f : d.node_statuses)
    for (auto r : f.result.reasons())
      bump(r, 1);
  if (d.absent_nodes_status && num_all_nodes > d.node_statuses.size()) {
    std::size_t absent = num_all_nodes - d.node_statuses.size();
    for (auto r : d.absent_nodes_status->reasons())
      bump(r, absent);
  }
  std::vector<std::string> entries;
  entries.reserve(order.size());
  for (auto r : order)
    entries.push_back(std::to_string(counts[r]) + " " + std::string{r.view()});
  // Upstream sorts the formatted strings, so "10 X" sorts before "2 Y".
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const auto& e : entries) {
    if (!out.empty())
      out += ", ";
    out += e;
  }
  return out;
}

std::string fit_error_message(std::size_t num_all_nodes, const diagnosis& d) {
  std::string out
    = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!d.pre_filter_message.empty()) {
    out += " " + d.pre_filter_message + ".";
  } else {
    std::string histogram = reason_histogram(num_all_nodes, d);
    if (!histogram.empty())
      out += " " + histogram + ".";
  }
  if (!d.post_filter_message.empty())
    out += " " + d.post_filter_message;
  return out;
}

} // namespace tessera::plugins
