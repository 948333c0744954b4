// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/shard/shard_state.hpp"

namespace tessera::actors {

void shard_state::apply(const shard_delta& d) {
  for (auto name : d.removed)
    by_name_.erase(name);
  for (const auto& info : d.upserted) {
    slot& at = by_name_[info->name()];
    at.info = info;
    // Same membership: replace the entry in the current order in place.
    if (!order_stale_ && at.position < ordered_.size()
        && ordered_[at.position]->name() == info->name())
      ordered_[at.position] = info;
  }
  if (d.order)
    order_ = d.order;
  if (d.order || !d.removed.empty())
    order_stale_ = true;
  generation_ = d.generation;
}

void shard_state::settle_order() {
  if (!order_stale_)
    return;
  ordered_.clear();
  static const std::vector<model::symbol> none;
  const auto& order = order_ ? *order_ : none;
  ordered_.reserve(order.size());
  for (auto name : order) {
    auto it = by_name_.find(name);
    if (it == by_name_.end())
      continue;
    it->second.position = ordered_.size();
    ordered_.push_back(it->second.info);
  }
  if (!ordered_.empty())
    start_ %= ordered_.size();
  else
    start_ = 0;
  order_stale_ = false;
}

const model::node_info* shard_state::find(model::symbol name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second.info.get();
}

scan_reply shard_state::scan(const scan_request& req) {
  settle_order();
  scan_reply out;
  out.shard = index_;
  out.generation = generation_;
  out.partials = plugins::run_scans(*req.profile, *req.state, *req.pod,
                                    req.scans, ordered_);
  return out;
}

filter_reply shard_state::filter(const filter_request& req) {
  settle_order();
  filter_reply out;
  out.shard = index_;
  out.generation = generation_;
  plugins::filter_options opts;
  opts.quota = req.quota;
  plugins::node_name_set allowed;
  if (req.allowed)
    allowed = *req.allowed;
  opts.allowed = &allowed;
  opts.score = req.score;
  nominations_ptr nominated = req.nominated;
  if (nominated && !nominated->empty()) {
    opts.nominated
      = [nominated](model::symbol node) -> std::span<const model::pod_ptr> {
      return nominated->on(node);
    };
  }
  out.result = plugins::filter_and_score(*req.profile, *req.state, *req.pod,
                                         ordered_, start_, opts);
  evaluations_.count_filter_pass(*req.profile, *req.state, out.result,
                                 req.score);
  if (req.rotate && !ordered_.empty())
    start_ = (start_ + out.result.processed) % ordered_.size();
  return out;
}

score_reply shard_state::score(const score_request& req) {
  score_reply out;
  out.shard = index_;
  std::vector<const model::node_info*> infos;
  infos.reserve(req.nodes.size());
  for (auto name : req.nodes) {
    const model::node_info* info = find(name);
    // A node removed since filtering scores as an empty node; the cache's
    // assume validation rejects it anyway.
    static const model::node_info empty_node;
    infos.push_back(info != nullptr ? info : &empty_node);
  }
  out.scores = plugins::score_nodes(*req.profile, *req.state, *req.pod,
                                    req.plugins, infos);
  evaluations_.count_scores(*req.profile, req.plugins, infos.size());
  return out;
}

preempt_reply shard_state::preempt(const preempt_request& req) {
  settle_order();
  preempt_reply out;
  out.shard = index_;
  if (req.profile->post_filter().empty())
    return out;
  const auto* pf = req.profile->post_filter().front();
  if (!req.nominated_node.empty()) {
    if (const model::node_info* nominated = find(req.nominated_node)) {
      out.eligibility
        = pf->check_nominated_node(*req.pod, *nominated, req.nominated_status);
      if (!out.eligibility.ok())
        return out;
    }
  }
  // Potential nodes in node order, rotated to start at the offset.
  std::vector<const model::node_info*> potential;
  for (const auto& info : ordered_)
    if (!req.unresolvable || req.unresolvable->count(info->name()) == 0)
      potential.push_back(info.get());
  std::vector<plugins::dry_run_node> nodes;
  nodes.reserve(potential.size());
  for (std::size_t i = 0; i < potential.size(); ++i) {
    const model::node_info* info
      = potential[(req.offset + i) % potential.size()];
    plugins::dry_run_node n;
    n.node = info;
    if (req.nominated)
      n.nominated = req.nominated->on(info->name());
    nodes.push_back(n);
  }
  out.result = pf->dry_run(*req.profile, *req.state, *req.pod, nodes,
                           req.wanted, *req.cluster);
  return out;
}

} // namespace tessera::actors
