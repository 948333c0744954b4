// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"

#include "plugins/framework/normalize.hpp"
#include "plugins/framework/prefetch.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace {

// kube-scheduler's constants for numFeasibleNodesToFind.
constexpr std::size_t min_feasible_nodes_to_find = 100;
constexpr std::int64_t min_feasible_nodes_percentage_to_find = 5;

std::string bracket_list(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      out += " ";
    out += names[i];
  }
  return out + "]";
}

} // namespace

std::size_t num_feasible_nodes_to_find(std::int32_t percentage,
                                       std::size_t num_all_nodes) noexcept {
  if (num_all_nodes < min_feasible_nodes_to_find)
    return num_all_nodes;
  auto n = static_cast<std::int64_t>(num_all_nodes);
  std::int64_t pct = percentage;
  if (pct <= 0) {
    pct = 50 - n / 125;
    if (pct < min_feasible_nodes_percentage_to_find)
      pct = min_feasible_nodes_percentage_to_find;
  }
  std::int64_t k = n * pct / 100;
  if (k < static_cast<std::int64_t>(min_feasible_nodes_to_find))
    return min_feasible_nodes_to_find;
  return static_cast<std::size_t>(k);
}

cycle_start begin_cycle(const profile& prof, const model::pod& p,
                        const cluster_context& cluster) {
  cycle_start out{prof.new_cycle_state(), {}, std::nullopt, {}, {}, {}};
  out.state.cluster = &cluster;
  for (const auto* pf : prof.pre_filter()) {
    auto r = pf->pre_filter(out.state, p, cluster);
    if (r.result.is_skip()) {
      out.state.skip_filter.set(pf->slot());
      continue;
    }
    if (!r.result.ok()) {
      if (r.result.is_rejected()) {
        r.result.set_plugin(pf->name());
        out.pre_filter_status = std::move(r.result);
      } else {
        out.pre_filter_status = status::make_error(
          "running PreFilter plugin \"" + std::string{pf->name()}
          + "\": " + r.result.message());
        out.pre_filter_status.set_plugin(pf->name());
      }
      return out;
    }
    if (!r.nodes)
      continue;
    out.node_set_plugins.emplace_back(pf->name());
    std::sort(out.node_set_plugins.begin(), out.node_set_plugins.end());
    if (!out.allowed_nodes) {
      out.allowed_nodes = std::move(r.nodes);
    } else {
      std::unordered_set<model::symbol> both;
      for (auto n : *out.allowed_nodes)
        if (r.nodes->count(n) != 0)
          both.insert(n);
      out.allowed_nodes = std::move(both);
    }
    if (out.allowed_nodes->empty()) {
      std::string msg
        = out.node_set_plugins.size() == 1
            ? "node(s) didn't satisfy plugin " + out.node_set_plugins.front()
            : "node(s) didn't satisfy plugin(s) "
                + bracket_list(out.node_set_plugins) + " simultaneously";
      out.pre_filter_status
        = status{code::unschedulable_and_unresolvable, model::symbol{msg}};
      out.pre_filter_status.set_plugin(pf->name());
      return out;
    }
  }
  for (const auto* ps : prof.pre_score()) {
    status s = ps->pre_score(out.state, p, cluster);
    if (s.is_skip()) {
      out.state.skip_score.set(ps->slot());
      continue;
    }
    if (!s.ok() && out.pre_score_status.ok())
      out.pre_score_status
        = status::make_error("running PreScore plugin \""
                             + std::string{ps->name()} + "\": " + s.message());
  }
  for (std::size_t i = 0; i < prof.scanners().size(); ++i)
    if (prof.scanners()[i]->wants_scan(out.state, p))
      out.scans.push_back(i);
  return out;
}

std::vector<scan_partial_ptr>
run_scans(const profile& prof, const cycle_state& state, const model::pod& p,
          std::span<const std::size_t> scans,
          std::span<const model::node_info_ptr> nodes) {
  std::vector<scan_partial_ptr> out;
  out.reserve(scans.size());
  for (auto i : scans)
    out.push_back(prof.scanners()[i]->scan(state, p, nodes));
  return out;
}

status merge_scans(const profile& prof, cycle_state& state, const model::pod& p,
                   std::span<const std::size_t> scans,
                   std::vector<std::vector<scan_partial_ptr>> per_shard) {
  for (std::size_t k = 0; k < scans.size(); ++k) {
    std::vector<scan_partial_ptr> parts;
    parts.reserve(per_shard.size());
    for (auto& shard : per_shard)
      if (k < shard.size())
        parts.push_back(std::move(shard[k]));
    status s = prof.scanners()[scans[k]]->merge(state, p, std::move(parts));
    if (!s.ok() && !s.is_skip())
      return s;
  }
  return {};
}

active_scores score_plan(const profile& prof, const cycle_state& state) {
  active_scores out;
  const auto& scores = prof.score();
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (state.skip_score.test(scores[i].plugin->slot()))
      continue;
    if (scores[i].summarizer != nullptr
        && scores[i].summarizer->wants_summary(state))
      out.deferred.push_back(i);
    else
      out.local.push_back(i);
  }
  return out;
}

shard_result filter_and_score(const profile& prof, const cycle_state& state,
                              const model::pod& p,
                              std::span<const model::node_info_ptr> nodes,
                              std::size_t start,
                              const filter_options& options) {
  shard_result out;
  // The nodes to visit: all, or the PreFilterResult's subset, in node order.
  std::vector<std::size_t> subset;
  if (options.allowed != nullptr && *options.allowed) {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if ((*options.allowed)->count(nodes[i]->name()) != 0)
        subset.push_back(i);
  }
  bool use_subset = options.allowed != nullptr && *options.allowed;
  std::size_t n = use_subset ? subset.size() : nodes.size();
  if (n == 0 || options.quota == 0)
    return out;
  // Visit i is node (start + i) mod n; wrapping by subtraction keeps a
  // division out of the per-node path.
  start %= n;
  auto node_at = [&](std::size_t visit) -> const model::node_info* {
    std::size_t pos = start + visit;
    if (pos >= n)
      pos -= n;
    return nodes[use_subset ? subset[pos] : pos].get();
  };
  // Local scores are pure functions of (state, pod, node), so each feasible
  // node is scored right after its filters pass, while its memory is still
  // in cache. They go straight into plugin-major rows `cap` wide, which
  // close up at the end when fewer than `cap` nodes were feasible.
  const bool scoring = options.score;
  const active_scores plan
    = scoring ? score_plan(prof, state) : active_scores{};
  const std::size_t local_count = plan.local.size();
  std::vector<const score_plugin*> local;
  local.reserve(local_count);
  for (auto i : plan.local)
    local.push_back(prof.score()[i].plugin);
  const bool summarize = scoring && !plan.deferred.empty();
  std::vector<const model::node_info*> feasible_nodes;
  const std::size_t cap = std::min(options.quota, n);
  out.feasible.reserve(cap);
  if (summarize)
    feasible_nodes.reserve(cap);
  if (scoring)
    out.scores.resize(local_count * cap);
  const bool has_filters = !prof.filter().empty();
  const std::vector<const filter_plugin*> active = prof.active_filters(state);
  auto run_filters = [&](const model::node_info& node) -> status {
    if (!has_filters)
      return {};
    if (options.nominated) {
      auto nominated = options.nominated(node.name());
      if (!nominated.empty())
        return prof.run_filters_with_nominated(state, p, node, nominated);
    }
    return prof.run_active_filters(active, state, p, node);
  };
  for (std::size_t i = 0; i < n; ++i) {
    node_prefetcher::ahead_of_filter(i, n, node_at);
    const model::node_info& node = *node_at(i);
    ++out.processed;
    status s = run_filters(node);
    if (s.ok()) {
      const std::size_t f = out.feasible.size();
      out.feasible.push_back(node.name());
      if (summarize)
        feasible_nodes.push_back(&node);
      if (scoring)
        for (std::size_t k = 0; k < local_count; ++k)
          out.scores[k * cap + f] = local[k]->score(state, p, node);
      if (out.feasible.size() >= options.quota)
        break;
    } else if (s.get_code() == code::error) {
      out.error = std::move(s);
      out.scores.clear();
      return out;
    } else {
      out.failures.push_back(node_failure{node.name(), std::move(s)});
    }
  }
  const std::size_t feasible = out.feasible.size();
  if (feasible < cap) {
    // Row k moves from k * cap down to k * feasible; rows never overlap
    // backwards, so copying forward is safe.
    for (std::size_t k = 1; k < local_count; ++k)
      std::copy_n(
        out.scores.begin() + static_cast<std::ptrdiff_t>(k * cap), feasible,
        out.scores.begin() + static_cast<std::ptrdiff_t>(k * feasible));
    out.scores.resize(local_count * feasible);
  }
  if (!scoring || feasible == 0)
    return out;
  for (auto i : plan.deferred)
    out.summaries.push_back(
      prof.score()[i].summarizer->summarize(state, p, feasible_nodes));
  return out;
}

status
merge_summaries(const profile& prof, cycle_state& state, const model::pod& p,
                const active_scores& plan,
                std::vector<std::vector<feasible_summary_ptr>> per_shard) {
  for (std::size_t k = 0; k < plan.deferred.size(); ++k) {
    std::vector<feasible_summary_ptr> parts;
    for (auto& shard : per_shard)
      if (k < shard.size() && shard[k])
        parts.push_back(std::move(shard[k]));
    const auto* summarizer = prof.score()[plan.deferred[k]].summarizer;
    status s = summarizer->merge_summaries(state, p, std::move(parts));
    if (!s.ok())
      return s;
  }
  return {};
}

std::vector<std::int64_t>
score_nodes(const profile& prof, const cycle_state& state, const model::pod& p,
            std::span<const std::size_t> plugins,
            std::span<const model::node_info* const> nodes) {
  std::vector<std::int64_t> out;
  out.reserve(plugins.size() * nodes.size());
  for (auto i : plugins) {
    const score_plugin* sp = prof.score()[i].plugin;
    for (const auto* node : nodes)
      out.push_back(sp->score(state, p, *node));
  }
  return out;
}

expected<std::size_t> select_host(const profile& prof, const cycle_state& state,
                                  const model::pod& p, score_table& table,
                                  std::mt19937_64& rng) {
  const std::size_t n = table.nodes.size();
  if (n == 0)
    return make_error(ec::internal, "select_host: no feasible nodes");
  table.totals.assign(n, 0);
  if (table.plugins.empty()) {
    // No scoring at all: every node scores 1 and the pick is uniform.
    std::fill(table.totals.begin(), table.totals.end(), 1);
  }
  // Filled only for the plugins that normalize.
  std::vector<node_score> buffer;
  for (std::size_t k = 0; k < table.plugins.size(); ++k) {
    const auto& entry = prof.score()[table.plugins[k]];
    std::int64_t* row = table.scores.data() + k * n;
    if (entry.plugin->has_normalize()) {
      buffer.resize(n);
      for (std::size_t i = 0; i < n; ++i)
        buffer[i] = {table.nodes[i], row[i]};
      status s = entry.plugin->normalize_scores(state, p, buffer);
      if (!s.ok())
        return make_error(ec::internal, "running Normalize on Score plugin \""
                                          + std::string{entry.plugin->name()}
                                          + "\": " + s.message());
      for (std::size_t i = 0; i < n; ++i)
        row[i] = buffer[i].score;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (row[i] > score_range::max || row[i] < score_range::min)
        return make_error(ec::internal,
                          "plugin \"" + std::string{entry.plugin->name()}
                            + "\" returns an invalid score "
                            + std::to_string(row[i])
                            + ", it should in the range of [0, 100] after "
                              "normalizing");
      table.totals[i] += row[i] * entry.weight;
    }
  }
  return pick_best(table.totals, rng);
}

std::size_t pick_best(std::span<const std::int64_t> totals,
                      std::mt19937_64& rng) {
  // Uniform choice among the best totals with one draw: count the ties, then
  // take the draw-th. (Reservoir sampling draws once per tie, and on a young
  // cluster every node ties.)
  std::int64_t best = totals[0];
  std::uint64_t ties = 0;
  for (std::int64_t t : totals) {
    if (t > best) {
      best = t;
      ties = 1;
    } else if (t == best) {
      ++ties;
    }
  }
  std::uint64_t skip = ties > 1 ? rng() % ties : 0;
  for (std::size_t i = 0;; ++i)
    if (totals[i] == best && skip-- == 0)
      return i;
}

} // namespace tessera::plugins
