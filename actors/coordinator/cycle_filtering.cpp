// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The filtering steps of a cycle: node scans, the nominated-node probe, the
// filter+score scatter, deferred scores and the seeded pick.
#include "actors/coordinator/coordinator_state.hpp"
#include "plugins/framework/scatter.hpp"

#include <algorithm>
#include <numeric>

namespace tessera::actors {

namespace {

// The reason for nodes outside the PreFilterResult node set.
model::symbol outside_node_set(const std::vector<std::string>& plugins) {
  std::string names;
  for (const auto& n : plugins) {
    if (!names.empty())
      names += " ";
    names += n;
  }
  return model::symbol{"node(s) didn't satisfy plugin(s) [" + names + "]"};
}

} // namespace

void coordinator_state::scan(cycle& c) {
  auto state = std::make_shared<const plugins::cycle_state>(c.start.state);
  c.step = cycle_step::scanning;
  c.scans.assign(cfg_.shards, nullptr);
  c.pending = cfg_.shards;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    auto req = c.request<scan_request>();
    req->state = state;
    req->scans = c.start.scans;
    req->min_generation = required_generation_[s];
    ports_.scan(s, std::move(req), reply_to<scan_reply>(c, s));
  }
}

void coordinator_state::after_scans(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the node scan");
    return;
  }
  if (!c.scans.empty()) {
    std::vector<std::vector<plugins::scan_partial_ptr>> per_shard;
    for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
      per_shard.push_back(c.scans[s]->partials);
      c.generations[s] = c.scans[s]->generation;
      note_generation(s, c.generations[s]);
    }
    c.scanned = true;
    plugins::status merged = plugins::merge_scans(
      *c.prof, c.start.state, *c.item.pod, c.start.scans, std::move(per_shard));
    if (!merged.ok()) {
      fail_with_error(c, merged.message());
      return;
    }
    c.scans.clear();
  }
  c.state
    = std::make_shared<const plugins::cycle_state>(std::move(c.start.state));
  model::symbol nominated = c.item.pod->nominated_node_name;
  // After max_conflicts retries in a row the pod filters every shard instead: a
  // probe's assume can keep failing on generations it never refreshed.
  bool probe_first = !nominated.empty() && c.view->node_shard
                     && c.view->node_shard->count(nominated) != 0
                     && (!c.allowed || c.allowed->count(nominated) != 0)
                     && c.retries < cfg_.max_conflicts;
  if (probe_first)
    probe(c, nominated);
  else if (batcher_.enabled())
    batch_or_filter(c);
  else
    filter_all(c);
}

void coordinator_state::probe(cycle& c, model::symbol node) {
  c.probe_node = node;
  std::uint32_t s = shard_of(node);
  auto req = c.request<filter_request>();
  req->quota = 1;
  req->allowed = std::make_shared<const std::unordered_set<model::symbol>>(
    std::unordered_set<model::symbol>{node});
  req->nominated = c.nominated;
  req->min_generation = required_generation_[s];
  req->rotate = false;
  req->score = false;
  c.step = cycle_step::probing;
  c.filters.assign(cfg_.shards, nullptr);
  c.pending = 1;
  ports_.filter(s, std::move(req), reply_to<filter_reply>(c, s));
}

void coordinator_state::after_probe(cycle& c) {
  std::uint32_t s = shard_of(c.probe_node);
  const filter_reply_ptr& r = c.filters[s];
  // A failed or empty probe is not an error: the pod filters every shard.
  c.request_failed = false;
  if (!r || !r->result.error.ok() || r->result.feasible.empty()) {
    filter_all(c);
    return;
  }
  note_generation(s, r->generation);
  if (!c.scanned) {
    // Only shard s was asked. For the others, the newest generation they
    // reported stands for what a filter there would have seen; 0 would make
    // the assume replay (or refuse, once the change log has moved past it)
    // everything since the start.
    for (std::uint32_t t = 0; t < cfg_.shards; ++t)
      c.generations[t] = reported_generation_[t];
    c.generations[s] = r->generation;
  }
  c.evaluated = 1;
  c.table.nodes = r->result.feasible;
  model::symbol node = r->result.feasible.front();
  c.filters.clear();
  assume(c, node);
}

void coordinator_state::filter_all(cycle& c) {
  std::vector<std::size_t> per_shard(cfg_.shards, 0);
  if (c.allowed) {
    for (auto name : *c.allowed)
      if (c.view->node_shard->count(name) != 0)
        ++per_shard[shard_of(name)];
  } else {
    for (std::uint32_t s = 0; s < cfg_.shards && s < c.view->shard_nodes.size();
         ++s)
      per_shard[s] = c.view->shard_nodes[s];
  }
  std::size_t candidates
    = std::accumulate(per_shard.begin(), per_shard.end(), std::size_t{0});
  std::size_t wanted = plugins::num_feasible_nodes_to_find(
    c.prof->percentage_of_nodes_to_score(), candidates);
  if (c.prof->score().empty())
    wanted = std::min<std::size_t>(wanted, 1); // no scoring: any node will do
  std::vector<std::size_t> quotas = plugins::split_quota(wanted, per_shard);
  c.filter_began = std::chrono::steady_clock::now();
  c.step = cycle_step::filtering;
  c.filters.assign(cfg_.shards, nullptr);
  c.pending = static_cast<std::size_t>(
    std::count_if(quotas.begin(), quotas.end(), [](auto q) { return q > 0; }));
  if (c.pending == 0) {
    after_filter(c);
    return;
  }
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (quotas[s] == 0)
      continue;
    auto req = c.request<filter_request>();
    req->quota = quotas[s];
    req->allowed = c.allowed;
    req->nominated = c.nominated;
    req->min_generation = required_generation_[s];
    ports_.filter(s, std::move(req), reply_to<filter_reply>(c, s));
  }
}

void coordinator_state::after_filter(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the filter request");
    return;
  }
  c.plan = plugins::score_plan(*c.prof, *c.state);
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    const auto& r = c.filters[s];
    if (!r)
      continue;
    if (!r->result.error.ok()) {
      fail_with_error(c, r->result.error.message());
      return;
    }
    note_generation(s, r->generation);
    if (!c.scanned)
      c.generations[s] = r->generation;
    c.evaluated += r->result.processed;
    for (const auto& f : r->result.failures)
      c.diag.add(f.node, f.result);
    c.table.nodes.insert(c.table.nodes.end(), r->result.feasible.begin(),
                         r->result.feasible.end());
  }
  metrics_.extension_point("Filter",
                           c.table.nodes.empty() ? plugins::code::unschedulable
                                                 : plugins::code::success,
                           *c.prof, c.filter_began);
  if (c.allowed)
    c.diag.absent_nodes_status
      = plugins::status{plugins::code::unschedulable_and_unresolvable,
                        outside_node_set(c.start.node_set_plugins)};
  if (c.table.nodes.empty()) {
    post_filter(c);
    return;
  }
  if (c.table.nodes.size() == 1) {
    if (batcher_.head() == c.id)
      c.fresh.emplace(); // nothing left to batch
    assume(c, c.table.nodes.front());
    return;
  }
  if (!c.start.pre_score_status.ok()) {
    fail_with_error(c, c.start.pre_score_status.message());
    return;
  }
  std::vector<plugins::shard_rows> rows;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (const auto& r = c.filters[s])
      rows.push_back({r->result.feasible.size(), r->result.scores});
  plugins::stitch_scores(c.table, c.plan.local, rows);
  if (c.plan.deferred.empty()) {
    select(c);
    return;
  }
  // Deferred scores: merge the shards' feasible summaries, then score.
  std::vector<std::vector<plugins::feasible_summary_ptr>> summaries;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    summaries.push_back(c.filters[s]
                          ? c.filters[s]->result.summaries
                          : std::vector<plugins::feasible_summary_ptr>{});
  plugins::cycle_state next = *c.state;
  plugins::status merged = plugins::merge_summaries(
    *c.prof, next, *c.item.pod, c.plan, std::move(summaries));
  if (!merged.ok()) {
    fail_with_error(c, merged.message());
    return;
  }
  c.state = std::make_shared<const plugins::cycle_state>(std::move(next));
  c.step = cycle_step::scoring;
  c.scores.assign(cfg_.shards, nullptr);
  c.pending = 0;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (!c.feasible_on(s).empty())
      ++c.pending;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (c.feasible_on(s).empty())
      continue;
    auto req = c.request<score_request>();
    req->plugins = c.plan.deferred;
    req->nodes = c.feasible_on(s);
    ports_.score(s, std::move(req), reply_to<score_reply>(c, s));
  }
}

void coordinator_state::after_scores(cycle& c) {
  if (c.request_failed) {
    fail_with_error(c, "a shard did not answer the score request");
    return;
  }
  std::vector<plugins::shard_rows> rows;
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (std::size_t m = c.feasible_on(s).size(); m != 0)
      rows.push_back({m, c.scores[s]->scores});
  plugins::stitch_scores(c.table, c.plan.deferred, rows);
  select(c);
}

void coordinator_state::select(cycle& c) {
  // The batch's head keeps the raw scores: select_host normalizes in place,
  // and a node rescored later is normalized again among the others.
  std::vector<std::int64_t> raw;
  if (batcher_.head() == c.id)
    raw = c.table.scores;
  auto chosen
    = plugins::select_host(*c.prof, *c.state, *c.item.pod, c.table, rng_);
  if (!chosen) {
    fail_with_error(c, chosen.err().message);
    return;
  }
  if (batcher_.head() == c.id)
    c.fresh = plugins::batch_list::from_cycle(c.table, raw, *chosen);
  assume(c, c.table.nodes[*chosen]);
}

} // namespace tessera::actors
