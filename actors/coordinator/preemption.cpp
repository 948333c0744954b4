// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/preemption.hpp"

#include "plugins/framework/scatter.hpp"

#include <numeric>
#include <unordered_map>

namespace tessera::actors {

namespace {

const model::symbol& preemption_not_helpful() {
  static const model::symbol s{"Preemption is not helpful for scheduling"};
  return s;
}

const plugins::post_filter_plugin& post_filter_of(const scheduling_cycle& c) {
  return *c.prof->post_filter().front();
}

} // namespace

potential_nodes find_potential_nodes(const scheduling_cycle& c,
                                     std::size_t shards) {
  std::unordered_map<model::symbol, const plugins::status*> explicit_status;
  for (const auto& f : c.diag.node_statuses)
    explicit_status.emplace(f.node, &f.result);
  potential_nodes out;
  auto unresolvable = std::make_shared<std::unordered_set<model::symbol>>();
  out.per_shard.assign(shards, 0);
  for (const auto& [name, shard] : *c.view->node_shard) {
    const plugins::status* st = nullptr;
    if (auto it = explicit_status.find(name); it != explicit_status.end())
      st = it->second;
    else if (c.diag.absent_nodes_status)
      st = &*c.diag.absent_nodes_status;
    if (st != nullptr
        && st->get_code() == plugins::code::unschedulable_and_unresolvable)
      unresolvable->insert(name);
    else
      ++out.per_shard[shard];
  }
  model::symbol nominated = c.item.pod->nominated_node_name;
  if (!nominated.empty() && c.view->node_shard->count(nominated) != 0
      && unresolvable->count(nominated) == 0) {
    out.nominated = nominated;
    if (auto it = explicit_status.find(nominated); it != explicit_status.end())
      out.nominated_status = *it->second;
  }
  out.unresolvable = std::move(unresolvable);
  return out;
}

std::vector<preempt_request_ptr> dry_run_requests(const scheduling_cycle& c,
                                                  std::mt19937_64& rng,
                                                  bool only_whether) {
  std::vector<preempt_request_ptr> out(c.potential_per_shard.size());
  std::size_t potential = std::accumulate(
    c.potential_per_shard.begin(), c.potential_per_shard.end(), std::size_t{0});
  if (potential == 0)
    return out;
  std::size_t wanted = post_filter_of(c).candidates_wanted(potential);
  std::vector<std::size_t> per_shard
    = plugins::split_quota(wanted, c.potential_per_shard);
  for (std::size_t s = 0; s < out.size(); ++s) {
    if (c.potential_per_shard[s] == 0)
      continue;
    auto req = c.request<preempt_request>();
    req->cluster = c.view->context;
    req->unresolvable = c.unresolvable;
    req->offset = static_cast<std::size_t>(rng() % c.potential_per_shard[s]);
    req->wanted = only_whether ? 1 : std::max<std::size_t>(per_shard[s], 1);
    req->nominated = c.nominated;
    out[s] = std::move(req);
  }
  return out;
}

preemption_verdict judge_dry_runs(const scheduling_cycle& c,
                                  std::size_t total_nodes, bool overlapped) {
  using kind = preemption_verdict::kind;
  const auto& pf = post_filter_of(c);
  preemption_verdict v;
  std::vector<plugins::preemption_candidate> candidates;
  for (const auto& r : c.preempts)
    if (r)
      for (const auto& cand : r->result.non_violating)
        candidates.push_back(cand);
  for (const auto& r : c.preempts)
    if (r)
      for (const auto& cand : r->result.violating)
        candidates.push_back(cand);
  if (candidates.empty()) {
    // Upstream reports dry-run errors (not rejections) as an Error.
    std::vector<std::string> errors;
    std::size_t fits_without_victims = 0;
    for (const auto& r : c.preempts) {
      if (!r)
        continue;
      fits_without_victims += r->result.fits_without_victims;
      for (const auto& [node, st] : r->result.failures)
        if (st.get_code() == plugins::code::error)
          errors.push_back(st.message());
    }
    // A node where the pod now fits with nothing removed means the shard's
    // view moved on since this cycle's Filter (another cycle's victim went,
    // or an assume was forgotten). Upstream's single snapshot never sees
    // that; here the cycle is stale, not in error.
    if (!errors.empty() && fits_without_victims == errors.size()) {
      v.type = kind::stale;
      return v;
    }
    if (!errors.empty()) {
      std::string joined = errors.size() == 1 ? errors.front() : "[";
      if (errors.size() > 1) {
        for (std::size_t i = 0; i < errors.size(); ++i)
          joined += (i ? ", " : "") + errors[i];
        joined += "]";
      }
      v.type = kind::error;
      v.message = pf.wrap_message(joined);
      return v;
    }
    // Why preemption cannot help, as a FitError over all nodes.
    plugins::diagnosis why;
    for (auto name : *c.unresolvable)
      why.node_statuses.push_back(
        {name, plugins::status{plugins::code::unschedulable_and_unresolvable,
                               preemption_not_helpful()}});
    for (const auto& r : c.preempts)
      if (r)
        for (const auto& [node, st] : r->result.failures)
          why.node_statuses.push_back({node, st});
    v.type = kind::unschedulable;
    v.message = pf.wrap_message(plugins::fit_error_message(total_nodes, why));
    return v;
  }
  v.chosen = pf.select(*c.item.pod, std::move(candidates));
  if (!v.chosen.result.ok() || v.chosen.nominated_node.empty()) {
    v.type = kind::unschedulable;
    v.message = pf.wrap_message(v.chosen.result.message());
    return v;
  }
  // When other cycles overlapped this one, an assume, nomination or
  // preemption of theirs may be missing from its view; acting on it
  // double-books nodes and deletes victims for nothing. A serial scheduler
  // would have seen them, so the pod is redone alone on a settled view.
  // Pods that find no victim never get here and stay concurrent.
  v.type = overlapped ? kind::redo_alone : kind::nominate;
  return v;
}

} // namespace tessera::actors
