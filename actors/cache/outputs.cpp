// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Publishing what changed: per-shard deltas in node-tree order, the
// cluster view for the coordinator, and the queue and nominator inputs.
#include "actors/cache/cache_state.hpp"
#include "model/disruption_budget_status.hpp"

#include <algorithm>

namespace tessera::actors {

cache_outputs cache_state::take_outputs() {
  cache_outputs out;
  out.deltas.resize(cfg_.shards);
  std::vector<std::shared_ptr<shard_delta>> deltas(cfg_.shards);
  auto delta_of = [&](std::uint32_t shard) -> shard_delta& {
    if (!deltas[shard])
      deltas[shard] = std::make_shared<shard_delta>();
    return *deltas[shard];
  };
  for (auto name : dirty_nodes_) {
    auto it = nodes_.find(name);
    if (it == nodes_.end() || !it->second.draft)
      continue;
    it->second.published = std::move(it->second.draft);
    it->second.draft.reset();
    // Placeholders (no node object) are not schedulable: shards skip them.
    if (it->second.published->get_node() != nullptr)
      delta_of(it->second.shard).upserted.push_back(it->second.published);
  }
  // clear() zeroes every bucket, and the initial sync leaves one per node:
  // at 100,000 nodes that was the largest cost of publishing one assume.
  if (dirty_nodes_.bucket_count() > 64)
    std::unordered_set<model::symbol>{}.swap(dirty_nodes_);
  else
    dirty_nodes_.clear();
  for (std::uint32_t s = 0; s < cfg_.shards; ++s) {
    if (removed_[s].empty())
      continue;
    auto& d = delta_of(s);
    d.removed = std::move(removed_[s]);
    removed_[s].clear();
  }
  if (order_dirty_) {
    routes_dirty_ = true;
    view_dirty_ = true;
    std::vector<std::vector<model::symbol>> orders(cfg_.shards);
    for (auto name : tree_.list())
      orders[nodes_.at(name).shard].push_back(name);
    for (std::uint32_t s = 0; s < cfg_.shards; ++s)
      delta_of(s).order = std::make_shared<const std::vector<model::symbol>>(
        std::move(orders[s]));
    order_dirty_ = false;
  }
  for (std::uint32_t s = 0; s < cfg_.shards; ++s)
    if (deltas[s]) {
      deltas[s]->generation = generation_;
      out.deltas[s] = std::move(deltas[s]);
    }
  if (view_dirty_) {
    auto ctx = std::make_shared<plugins::cluster_context>();
    ctx->generation = generation_;
    ctx->node_count = static_cast<std::int64_t>(tree_.size());
    ctx->image_node_counts = image_counts_;
    ctx->namespaces = namespaces_;
    std::vector<model::pod_core_ptr> all_pods;
    for (const auto& [key, b] : budgets_) {
      if (b->disruptions_allowed) {
        ctx->disruption_budgets.push_back(b);
        continue;
      }
      // A budget read without status (from a file): compute what the
      // disruption controller would write.
      if (all_pods.empty())
        for (const auto& [pk, entry] : pods_)
          all_pods.push_back(entry.pod);
      auto computed = std::make_shared<model::disruption_budget>(*b);
      computed->disruptions_allowed
        = model::pdb_disruptions_allowed(*b, all_pods);
      ctx->disruption_budgets.push_back(std::move(computed));
    }
    if (workloads_dirty_) {
      auto index = std::make_shared<plugins::workload_index>();
      for (const auto& [key, w] : workloads_)
        index->add(w);
      workload_index_ = workloads_.empty() ? nullptr : std::move(index);
      workloads_dirty_ = false;
    }
    ctx->workloads = workload_index_;
    ctx->storage = storage_.view();
    ctx->pods_with_affinity = pods_with_affinity_;
    ctx->pods_with_required_anti_affinity = pods_with_required_anti_affinity_;
    auto view = std::make_shared<cluster_view>();
    view->generation = generation_;
    view->context = std::move(ctx);
    if (routes_dirty_ || !routes_) {
      // Node membership changed: recount (O(nodes), rare).
      shard_nodes_.assign(cfg_.shards, 0);
      auto routes
        = std::make_shared<std::unordered_map<model::symbol, std::uint32_t>>();
      for (const auto& [name, entry] : nodes_) {
        if (entry.published && entry.published->get_node() != nullptr) {
          ++shard_nodes_[entry.shard];
          routes->emplace(name, entry.shard);
        }
      }
      routes_ = std::move(routes);
      routes_dirty_ = false;
    }
    view->shard_nodes = shard_nodes_;
    view->node_shard = routes_;
    out.view = std::move(view);
    view_dirty_ = false;
    context_generation_ = generation_;
  }
  out.queue = std::move(queue_out_);
  queue_out_.clear();
  out.nominees = std::move(nominees_out_);
  nominees_out_.clear();
  return out;
}

} // namespace tessera::actors
