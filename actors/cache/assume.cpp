// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The assume lifecycle: validating an assume against the authoritative
// state, then finishing, forgetting or expiring the assumed pod.
#include "actors/cache/cache_state.hpp"
#include "model/pod_key.hpp"
#include "plugins/framework/cycle.hpp"
#include "support/log.hpp"

#include <algorithm>

namespace tessera::actors {

using plugins::action;

std::string cache_state::conflict_check(const assume_request& req,
                                        const model::node_info& target) const {
  const auto& prof = *req.profile;
  const auto& state = *req.state;
  // 1. Node-local filters on the authoritative node.
  plugins::status local = prof.run_filters(state, *req.pod, target, true);
  if (!local.ok())
    return "node " + std::string{req.node.view()} + ": " + local.message();
  // 2. Cross-node filters: only when the profile has any.
  const auto cross = prof.cross_node_filters(state);
  const bool cross_active = cross.active;
  const bool skip_may_change = cross.skip_may_change;
  if (!cross_active && !skip_may_change)
    return {};
  auto unseen = [&](const change& c) {
    std::uint64_t seen = c.shard < req.shard_generations.size()
                           ? req.shard_generations[c.shard]
                           : 0;
    return c.generation > seen;
  };
  // Only the shard views are replayed from the log. The cluster context may
  // be much older (it changes only with affinity counts, budgets, nodes):
  // its one staleness question is answered by the anti-affinity generation
  // below, not by the log.
  // Per shard: a shard whose nodes did not change keeps an old generation
  // while other shards' changes push the log on; it has missed nothing.
  for (std::size_t s = 0; s < req.shard_generations.size(); ++s)
    if (s < log_floor_.size() && req.shard_generations[s] < log_floor_[s])
      return "the cycle's view of shard " + std::to_string(s)
             + " is older than the change log";
  if (skip_may_change
      && last_new_anti_affinity_generation_ > req.context_generation)
    // A filter skipped because no other pod could matter: a new pod with
    // required anti-affinity since the cycle's cluster context may.
    return "a pod with required anti-affinity appeared since the cycle "
           "started";
  if (!cross_active)
    return {};
  plugins::cycle_state replay = state;
  bool replayed = false;
  // The log is ordered by generation: start at the first entry any shard
  // view may have missed.
  std::uint64_t first_unseen = req.shard_generations.empty() ? 0 : ~0ull;
  for (auto g : req.shard_generations)
    first_unseen = std::min(first_unseen, g);
  auto from
    = std::partition_point(log_.begin(), log_.end(), [&](const change& c) {
        return c.generation <= first_unseen;
      });
  for (auto it = from; it != log_.end(); ++it) {
    const change& c = *it;
    if (!unseen(c))
      continue;
    if (c.type == change::kind::node_changed)
      return "node " + std::string{c.node.view()} + " changed since the cycle";
    const model::node_info* at = current(c.node);
    if (at == nullptr || c.pod == nullptr)
      continue;
    plugins::status s = c.type == change::kind::pod_added
                          ? prof.run_add_pod(replay, *req.pod, *c.pod, *at)
                          : prof.run_remove_pod(replay, *req.pod, *c.pod, *at);
    if (!s.ok())
      return s.message();
    replayed = true;
  }
  if (!replayed)
    return {};
  plugins::status all = prof.run_filters(replay, *req.pod, target);
  if (!all.ok())
    return "node " + std::string{req.node.view()} + ": " + all.message();
  return {};
}

assume_reply cache_state::assume(const assume_request& req) {
  assume_reply reply;
  std::string key = model::pod_key(*req.pod);
  if (pods_.count(key) != 0) {
    reply.duplicate = true;
    reply.reason = "pod is already assumed or bound";
    return reply;
  }
  const model::node_info* target = current(req.node);
  if (target == nullptr || target->get_node() == nullptr) {
    conflicts_ += req.hinted ? 0 : 1;
    reply.reason = "node " + std::string{req.node.view()} + " is gone";
    return reply;
  }
  if (std::string why = conflict_check(req, *target); !why.empty()) {
    conflicts_ += req.hinted ? 0 : 1;
    reply.reason = std::move(why);
    return reply;
  }
  // Volumes are bound only by profiles whose PreBind writes them
  // (VolumeBinding).
  bool binds_volumes = false;
  for (const auto* pb : req.profile->pre_bind())
    binds_volumes = binds_volumes || pb->api_wait_timeout().has_value();
  if (std::string why = binds_volumes ? storage_.assume(
                          key, *req.pod, *target->get_node(), reply.volumes)
                                      : std::string{};
      !why.empty()) {
    conflicts_ += req.hinted ? 0 : 1;
    reply.reason = "node " + std::string{req.node.view()} + ": " + why;
    return reply;
  }
  if (storage_.dirty())
    view_dirty_ = true;
  // The cache keeps the core; the binder gets a full pod, which goes when
  // the binding ends.
  auto core = std::make_shared<model::pod_core>(*req.pod);
  core->node_name = req.node;
  model::pod_core_ptr stored = std::move(core);
  add_pod_to_node(stored);
  if (stored->has_required_anti_affinity)
    last_new_anti_affinity_generation_ = generation_;
  pods_.emplace(key, pod_entry{stored, pod_phase_in_cache::assumed, false, {}});
  ++assumed_count_;
  auto assumed = std::make_shared<model::pod>(*req.pod);
  assumed->node_name = req.node;
  reply.ok = true;
  reply.assumed = std::move(assumed);
  reply.generation = generation_;
  if (req.rescore)
    rescore(req, reply);
  return reply;
}

void cache_state::rescore(const assume_request& req,
                          assume_reply& reply) const {
  // The same pod, tried again on the node that now holds it: a pod with its
  // signature gets the same results.
  const model::node_info* node = current(req.node);
  if (node == nullptr)
    return;
  const auto began = std::chrono::steady_clock::now();
  const auto& prof = *req.profile;
  const auto& state = *req.state;
  bool fits = prof.run_filters(state, *req.pod, *node, true).ok();
  if (fits)
    for (std::size_t i : plugins::score_plan(prof, state).local)
      reply.scores.push_back(
        prof.score()[i].plugin->score(state, *req.pod, *node));
  reply.fits_again = fits;
  reply.rescore_time = std::chrono::steady_clock::now() - began;
}

void cache_state::finish_binding(const model::pod& p) {
  auto it = pods_.find(model::pod_key(p));
  if (it == pods_.end() || it->second.phase != pod_phase_in_cache::assumed)
    return;
  it->second.binding_finished = true;
  if (cfg_.assumed_ttl > duration::zero())
    it->second.deadline = clock_.now() + cfg_.assumed_ttl;
}

void cache_state::forget(const model::pod_core& p) {
  auto it = pods_.find(model::pod_key(p));
  if (it == pods_.end() || it->second.phase != pod_phase_in_cache::assumed)
    return;
  model::pod_core_ptr old = it->second.pod;
  remove_pod_from_node(old);
  storage_.forget(it->first);
  view_dirty_ = view_dirty_ || storage_.dirty();
  pods_.erase(it);
  --assumed_count_;
  // Upstream treats a forgotten pod as an assigned pod being deleted.
  emit_event(plugins::event_resource::pod, action::remove,
             model::make_pod_stub(*old), {}, true, false);
}

void cache_state::expire(time_point now) {
  std::vector<model::pod_core_ptr> expired;
  for (const auto& [key, entry] : pods_)
    if (entry.phase == pod_phase_in_cache::assumed && entry.binding_finished
        && entry.deadline && *entry.deadline <= now)
      expired.push_back(entry.pod);
  for (const auto& p : expired) {
    TLOG_WARN("assumed pod expired", "pod", p->key(), "node",
              p->node_name.view());
    forget(*p);
  }
}

} // namespace tessera::actors
