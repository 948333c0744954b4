// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/cache_state.hpp"

#include "model/disruption_budget_status.hpp"
#include "model/pod_key.hpp"
#include "support/log.hpp"

#include <algorithm>

namespace tessera::actors {

namespace {

// FNV-1a over the node name: a shard mapping that depends only on the name,
// stable across processes and intern orders.
std::uint32_t shard_hash(std::string_view name, std::size_t shards) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return static_cast<std::uint32_t>(h % (shards == 0 ? 1 : shards));
}

using plugins::action;

action node_changes(const model::node& a, const model::node& b) {
  action out = action::none;
  if (!(a.allocatable == b.allocatable))
    out = out | action::update_node_allocatable;
  if (!(a.labels == b.labels))
    out = out | action::update_node_label;
  if (!(a.taints == b.taints) || a.unschedulable != b.unschedulable)
    out = out | action::update_node_taint;
  if (!(a.conditions == b.conditions))
    out = out | action::update_node_condition;
  return out;
}

action pod_changes(const model::pod& a, const model::pod& b) {
  action out = action::none;
  if (!(a.labels == b.labels))
    out = out | action::update_pod_label;
  if (b.requests.milli_cpu < a.requests.milli_cpu
      || b.requests.memory < a.requests.memory)
    out = out | action::update_pod_scale_down;
  if (!(a.tolerations == b.tolerations))
    out = out | action::update_pod_toleration;
  if (!a.scheduling_gates.empty() && b.scheduling_gates.empty())
    out = out | action::update_pod_scheduling_gates_eliminated;
  if (out == action::none)
    out = action::update_other;
  return out;
}

} // namespace

cache_state::cache_state(cache_config cfg, const clock& c)
  : cfg_(std::move(cfg)), clock_(c) {
  if (cfg_.shards == 0)
    cfg_.shards = 1;
  removed_.resize(cfg_.shards);
}

// ---------------------------------------------------------------- inputs

void cache_state::apply(const object_event& ev) {
  std::visit(
    [&](const auto& obj) {
      using T = std::decay_t<decltype(obj)>;
      if (!obj)
        return;
      if constexpr (std::is_same_v<T, model::pod_ptr>)
        apply_pod(ev.type, obj);
      else if constexpr (std::is_same_v<T, model::node_ptr>)
        apply_node(ev.type, obj);
      else if constexpr (std::is_same_v<T, model::namespace_ptr>)
        apply_namespace(ev.type, obj);
      else if constexpr (std::is_same_v<T, model::disruption_budget_ptr>)
        apply_budget(ev.type, obj);
      // Priority classes are resolved by the API server (or by simulate
      // before objects reach the pipeline); the cache does not need them.
    },
    ev.obj);
}

bool cache_state::responsible_for(const model::pod& p) const {
  auto name = p.scheduler_name.view();
  return std::any_of(cfg_.scheduler_names.begin(), cfg_.scheduler_names.end(),
                     [&](const std::string& s) { return s == name; });
}

void cache_state::apply_pod(object_event::kind type, const model::pod_ptr& p) {
  std::string key = model::pod_key(*p);
  bool gone = type == object_event::kind::deleted || p->is_terminal();
  if (gone) {
    if (auto it = pods_.find(key); it != pods_.end()) {
      model::pod_ptr old = it->second.pod;
      remove_pod_from_node(*old);
      pods_.erase(it);
      emit_event(plugins::event_resource::pod, action::remove, old, {}, true,
                 false);
    }
    if (auto it = pending_.find(key); it != pending_.end()) {
      left_pending(it->second);
      pending_.erase(it);
    }
    return;
  }
  if (p->is_bound()) {
    auto it = pods_.find(key);
    // The pod left the queue's world: it is bound now. When this scheduler
    // bound it, the binder reports the end of the binding to the queue and
    // the coordinator dropped any nomination at assume: neither needs the
    // echo.
    if (auto pit = pending_.find(key); pit != pending_.end()) {
      bool ours
        = it != pods_.end() && it->second.phase == pod_phase_in_cache::assumed;
      if (!ours)
        left_pending(pit->second);
      pending_.erase(pit);
    }
    if (it == pods_.end()) {
      add_pod_to_node(p);
      if (p->has_required_anti_affinity)
        last_new_anti_affinity_generation_ = generation_;
      pods_.emplace(key, pod_entry{p, pod_phase_in_cache::bound, false, {}});
      emit_event(plugins::event_resource::pod, action::add, {}, p, false, true);
      return;
    }
    pod_entry& entry = it->second;
    model::pod_ptr old = entry.pod;
    bool was_assumed = entry.phase == pod_phase_in_cache::assumed;
    if (model::equal_ignoring_binding_status(*old, *p)) {
      // Usually the API server echoing our binding of an assumed pod. The
      // NodeInfo keeps the pod object it has: no plugin reads the fields
      // that differ, and a new NodeInfo would mean a copy, a shard delta and
      // a change that every in-flight assume on the node has to re-check.
    } else if (old->node_name == p->node_name) {
      draft(p->node_name).update_pod(p);
      count_affinity(*old, -1);
      count_affinity(*p, +1);
      log_change(change::kind::pod_removed, old, old->node_name);
      log_change(change::kind::pod_added, p, p->node_name);
    } else {
      remove_pod_from_node(*old);
      add_pod_to_node(p);
    }
    entry.pod = p;
    if (was_assumed) {
      entry.phase = pod_phase_in_cache::bound;
      entry.deadline.reset();
      --assumed_count_;
      emit_event(plugins::event_resource::pod, action::add, {}, p, false, true);
    } else {
      emit_event(plugins::event_resource::pod, pod_changes(*old, *p), old, p,
                 true, true);
    }
    return;
  }
  if (!responsible_for(*p))
    return;
  auto [it, fresh] = pending_.try_emplace(key, p);
  if (fresh) {
    queue_out_.push_back(
      {queue_input::kind::pod_added, nullptr, p, {}, {}, {}});
    if (!p->nominated_node_name.empty())
      nominees_out_.push_back(queue_out_.back());
  } else {
    queue_out_.push_back(
      {queue_input::kind::pod_updated, it->second, p, {}, {}, {}});
    if (p->nominated_node_name != it->second->nominated_node_name)
      nominees_out_.push_back(queue_out_.back());
    it->second = p;
  }
}

void cache_state::left_pending(const model::pod_ptr& last) {
  queue_input in{queue_input::kind::pod_deleted, last, nullptr, {}, {}, {}};
  queue_out_.push_back(in);
  nominees_out_.push_back(std::move(in));
}

void cache_state::apply_node(object_event::kind type,
                             const model::node_ptr& n) {
  model::symbol name = n->name;
  auto it = nodes_.find(name);
  if (type == object_event::kind::deleted) {
    if (it == nodes_.end() || current(name)->get_node() == nullptr)
      return;
    model::node_ptr old = current(name)->node_pointer();
    count_images(old.get(), -1);
    tree_.remove(name);
    order_dirty_ = true;
    view_dirty_ = true;
    if (current(name)->pods().empty()) {
      removed_[it->second.shard].push_back(name);
      dirty_nodes_.erase(name);
      nodes_.erase(it);
      ++generation_;
    } else {
      // Pods remain (their deletions will follow): keep a placeholder. It
      // stays dirty so that it is published (shards skip placeholders, and
      // the view stops counting and routing the node).
      draft(name).clear_node();
      removed_[it->second.shard].push_back(name);
    }
    log_change(change::kind::node_changed, nullptr, name);
    emit_event(plugins::event_resource::node, action::remove, old, {}, true,
               false);
    return;
  }
  bool known = it != nodes_.end() && current(name)->get_node() != nullptr;
  model::node_ptr old = known ? current(name)->node_pointer() : nullptr;
  if (it == nodes_.end()) {
    node_entry entry;
    entry.shard = shard_hash(name.view(), cfg_.shards);
    entry.published = std::make_shared<const model::node_info>();
    nodes_.emplace(name, std::move(entry));
  }
  draft(name).set_node(n);
  tree_.update(name, zone_key(n->labels));
  if (!known) {
    order_dirty_ = true;
    view_dirty_ = true;
    count_images(n.get(), +1);
    log_change(change::kind::node_changed, nullptr, name);
    emit_event(plugins::event_resource::node, action::add, {}, n, false, true);
    return;
  }
  action what = node_changes(*old, *n);
  if (!(old->images == n->images)) {
    count_images(old.get(), -1);
    count_images(n.get(), +1);
    view_dirty_ = true;
  }
  if (plugins::intersects(what, action::update_node_label)) {
    order_dirty_ = true; // the zone may have changed
    log_change(change::kind::node_changed, nullptr, name);
  }
  if (what != action::none)
    emit_event(plugins::event_resource::node, what, old, n, true, true);
}

void cache_state::apply_namespace(object_event::kind type,
                                  const model::namespace_ptr& ns) {
  auto it = namespaces_.find(ns->name);
  model::namespace_ptr old = it == namespaces_.end() ? nullptr : it->second;
  if (type == object_event::kind::deleted) {
    if (it != namespaces_.end())
      namespaces_.erase(it);
  } else {
    namespaces_[ns->name] = ns;
  }
  view_dirty_ = true;
  ++generation_;
  if (type == object_event::kind::deleted)
    return;
  if (old == nullptr)
    emit_event(plugins::event_resource::namespace_, action::add, {}, ns, false,
               true);
  else if (!(old->labels == ns->labels))
    emit_event(plugins::event_resource::namespace_, action::update_other, old,
               ns, true, true);
}

void cache_state::apply_budget(object_event::kind type,
                               const model::disruption_budget_ptr& b) {
  std::string key{b->ns.view()};
  key += '/';
  key += b->name;
  if (type == object_event::kind::deleted)
    budgets_.erase(key);
  else
    budgets_[key] = b;
  statusless_budgets_ = 0;
  for (const auto& [k, budget] : budgets_)
    if (!budget->disruptions_allowed)
      ++statusless_budgets_;
  view_dirty_ = true;
  ++generation_;
}

// ------------------------------------------------------------ node edits

const model::node_info* cache_state::current(model::symbol node) const {
  auto it = nodes_.find(node);
  if (it == nodes_.end())
    return nullptr;
  if (it->second.draft)
    return it->second.draft.get();
  return it->second.published.get();
}

model::node_info& cache_state::draft(model::symbol node) {
  auto it = nodes_.find(node);
  if (it == nodes_.end()) {
    // A pod on a node the cache has not seen: a placeholder holds it.
    node_entry entry;
    entry.shard = shard_hash(node.view(), cfg_.shards);
    entry.published = std::make_shared<const model::node_info>();
    it = nodes_.emplace(node, std::move(entry)).first;
  }
  auto& entry = it->second;
  if (!entry.draft)
    entry.draft = std::make_shared<model::node_info>(*entry.published);
  entry.draft->set_generation(++generation_);
  dirty_nodes_.insert(node);
  return *entry.draft;
}

void cache_state::add_pod_to_node(const model::pod_ptr& p) {
  draft(p->node_name).add_pod(p);
  if (statusless_budgets_ > 0)
    view_dirty_ = true;
  count_affinity(*p, +1);
  log_change(change::kind::pod_added, p, p->node_name);
}

void cache_state::remove_pod_from_node(const model::pod& p) {
  auto it = nodes_.find(p.node_name);
  if (it == nodes_.end())
    return;
  model::node_info& info = draft(p.node_name);
  info.remove_pod(p);
  if (statusless_budgets_ > 0)
    view_dirty_ = true;
  count_affinity(p, -1);
  log_change(change::kind::pod_removed, std::make_shared<const model::pod>(p),
             p.node_name);
  if (info.get_node() == nullptr && info.pods().empty()) {
    // The last pod of a deleted node: the placeholder goes too.
    dirty_nodes_.erase(p.node_name);
    nodes_.erase(it);
  }
}

void cache_state::count_affinity(const model::pod& p, int sign) {
  if (p.has_pod_affinity_terms) {
    pods_with_affinity_ += sign;
    view_dirty_ = true;
  }
  if (p.has_required_anti_affinity) {
    pods_with_required_anti_affinity_ += sign;
    view_dirty_ = true;
  }
}

void cache_state::count_images(const model::node* n, int sign) {
  if (n == nullptr)
    return;
  std::unordered_set<model::symbol> seen;
  for (const auto& image : n->images)
    for (auto name : image.names)
      if (seen.insert(name).second) {
        auto& count = image_counts_[name];
        count += sign;
        if (count <= 0)
          image_counts_.erase(name);
      }
}

void cache_state::log_change(change::kind type, const model::pod_ptr& p,
                             model::symbol node) {
  auto it = nodes_.find(node);
  std::uint32_t shard = it == nodes_.end()
                          ? shard_hash(node.view(), cfg_.shards)
                          : it->second.shard;
  log_.push_back({++generation_, type, p, node, shard});
  while (log_.size() > cfg_.change_log_capacity) {
    const change& dropped = log_.front();
    if (dropped.shard >= log_floor_.size())
      log_floor_.resize(dropped.shard + 1, 0);
    log_floor_[dropped.shard] = dropped.generation;
    log_.pop_front();
  }
}

void cache_state::emit_event(plugins::event_resource r, action a,
                             model::object old_obj, model::object new_obj,
                             bool has_old, bool has_new) {
  queue_input in;
  in.type = queue_input::kind::cluster_event;
  in.event = plugins::cluster_event{r, a};
  if (has_old)
    in.old_object = std::make_shared<const model::object>(std::move(old_obj));
  if (has_new)
    in.new_object = std::make_shared<const model::object>(std::move(new_obj));
  queue_out_.push_back(std::move(in));
}

// ------------------------------------------------------------- pipeline

std::string cache_state::conflict_check(const assume_request& req,
                                        const model::node_info& target) const {
  const auto& prof = *req.profile;
  const auto& state = *req.state;
  // 1. Node-local filters on the authoritative node.
  plugins::status local = prof.run_filters(state, *req.pod, target, true);
  if (!local.ok())
    return "node " + std::string{req.node.view()} + ": " + local.message();
  // 2. Cross-node filters: only when the profile has any.
  bool cross_active = false;
  bool skip_may_change = false;
  for (const auto* f : prof.filter()) {
    if (f->node_local())
      continue;
    if (state.skip_filter.test(f->slot()))
      skip_may_change = skip_may_change || f->skip_depends_on_other_pods();
    else
      cross_active = true;
  }
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
    ++conflicts_;
    reply.reason = "node " + std::string{req.node.view()} + " is gone";
    return reply;
  }
  if (std::string why = conflict_check(req, *target); !why.empty()) {
    ++conflicts_;
    reply.reason = std::move(why);
    return reply;
  }
  auto assumed = std::make_shared<model::pod>(*req.pod);
  assumed->node_name = req.node;
  model::pod_ptr shared = std::move(assumed);
  add_pod_to_node(shared);
  if (shared->has_required_anti_affinity)
    last_new_anti_affinity_generation_ = generation_;
  pods_.emplace(key, pod_entry{shared, pod_phase_in_cache::assumed, false, {}});
  ++assumed_count_;
  reply.ok = true;
  reply.assumed = shared;
  reply.generation = generation_;
  return reply;
}

void cache_state::finish_binding(const model::pod& p) {
  auto it = pods_.find(model::pod_key(p));
  if (it == pods_.end() || it->second.phase != pod_phase_in_cache::assumed)
    return;
  it->second.binding_finished = true;
  if (cfg_.assumed_ttl > duration::zero())
    it->second.deadline = clock_.now() + cfg_.assumed_ttl;
}

void cache_state::forget(const model::pod& p) {
  auto it = pods_.find(model::pod_key(p));
  if (it == pods_.end() || it->second.phase != pod_phase_in_cache::assumed)
    return;
  model::pod_ptr old = it->second.pod;
  remove_pod_from_node(*old);
  pods_.erase(it);
  --assumed_count_;
  // Upstream treats a forgotten pod as an assigned pod being deleted.
  emit_event(plugins::event_resource::pod, action::remove, old, {}, true,
             false);
}

void cache_state::expire(time_point now) {
  std::vector<model::pod_ptr> expired;
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

// --------------------------------------------------------------- output

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
    std::vector<model::pod_ptr> all_pods;
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

cache_stats cache_state::stats() const {
  cache_stats s;
  s.nodes = tree_.size();
  s.pods = pods_.size();
  s.assumed_pods = assumed_count_;
  s.generation = generation_;
  s.conflicts = conflicts_;
  return s;
}

model::node_info_ptr cache_state::node(model::symbol name) const {
  auto it = nodes_.find(name);
  if (it == nodes_.end())
    return nullptr;
  if (it->second.draft)
    return std::make_shared<const model::node_info>(*it->second.draft);
  return it->second.published;
}

std::uint32_t cache_state::shard_of(model::symbol node) const {
  return shard_hash(node.view(), cfg_.shards);
}

} // namespace tessera::actors
