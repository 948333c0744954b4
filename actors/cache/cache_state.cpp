// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/cache_state.hpp"

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
  if (!(a.declared_features == b.declared_features))
    out = out | action::update_node_declared_feature;
  return out;
}

// What changed between a bound pod's stored core `a` and its new version
// `b`. A bound pod has no scheduling gates, so none can be eliminated.
action pod_changes(const model::pod_core& a, const model::pod& b) {
  action out = action::none;
  if (!(a.labels == b.labels))
    out = out | action::update_pod_label;
  if (b.requests.milli_cpu < a.requests.milli_cpu
      || b.requests.memory < a.requests.memory)
    out = out | action::update_pod_scale_down;
  if (a.tolerations_fingerprint != b.tolerations_fingerprint)
    out = out | action::update_pod_toleration;
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
      else if constexpr (std::is_same_v<T, model::workload_ptr>)
        apply_workload(ev.type, obj);
      else if constexpr (!std::is_same_v<T, model::priority_class_ptr>)
        apply_storage(ev.type, ev.obj);
      // Priority classes are resolved by the API server (or by simulate
      // before objects reach the pipeline); the cache does not need them.
    },
    ev.obj);
}

std::optional<std::uint32_t>
cache_state::profile_of(const model::pod& p) const {
  auto name = p.scheduler_name.view();
  for (std::size_t i = 0; i < cfg_.scheduler_names.size(); ++i)
    if (cfg_.scheduler_names[i] == name)
      return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

void cache_state::apply_pod(object_event::kind type, const model::pod_ptr& p) {
  std::string key = model::pod_key(*p);
  bool gone = type == object_event::kind::deleted || p->is_terminal();
  if (gone) {
    if (auto it = pods_.find(key); it != pods_.end()) {
      model::pod_core_ptr old = it->second.pod;
      remove_pod_from_node(old);
      if (it->second.phase == pod_phase_in_cache::assumed)
        --assumed_count_;
      pods_.erase(it);
      emit_event(plugins::event_resource::pod, action::remove,
                 model::make_pod_stub(*old), {}, true, false);
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
      // The cache keeps the core only; the informer's object goes.
      auto core = std::make_shared<const model::pod_core>(*p);
      add_pod_to_node(core);
      if (p->has_required_anti_affinity)
        last_new_anti_affinity_generation_ = generation_;
      pods_.emplace(
        key, pod_entry{std::move(core), pod_phase_in_cache::bound, false, {}});
      emit_event(plugins::event_resource::pod, action::add, {}, p, false, true);
      return;
    }
    pod_entry& entry = it->second;
    model::pod_core_ptr old = entry.pod;
    bool was_assumed = entry.phase == pod_phase_in_cache::assumed;
    // The core holds every field a plugin reads of a pod on a node (a
    // fingerprint stands for the tolerations).
    const bool same_for_scheduling = *old == *p;
    model::pod_core_ptr core;
    if (!same_for_scheduling)
      core = std::make_shared<const model::pod_core>(*p);
    if (same_for_scheduling) {
      // Usually the API server echoing our binding of an assumed pod. The
      // NodeInfo keeps the core it has: a new NodeInfo would mean a shard
      // delta and a change that every in-flight assume on the node has to
      // re-check.
    } else if (old->node_name == p->node_name) {
      draft(p->node_name).update_pod(core);
      count_affinity(*old, -1);
      count_affinity(*core, +1);
      log_change(change::kind::pod_removed, old, old->node_name);
      log_change(change::kind::pod_added, core, p->node_name);
    } else {
      remove_pod_from_node(old);
      add_pod_to_node(core);
    }
    if (!same_for_scheduling)
      entry.pod = std::move(core);
    if (was_assumed) {
      entry.phase = pod_phase_in_cache::bound;
      entry.deadline.reset();
      --assumed_count_;
      emit_event(plugins::event_resource::pod, action::add, {}, p, false, true);
    } else {
      emit_event(plugins::event_resource::pod, pod_changes(*old, *p),
                 model::make_pod_stub(*old), p, true, true);
    }
    return;
  }
  if (pods_.count(key) != 0) {
    // Not bound in the API, but assumed here: an echo older than the assume,
    // such as the nomination patch of the pod's previous cycle landing
    // before its binding. Upstream skips updates of assumed pods; queueing
    // it would start a second cycle after its binding ended (one that may
    // preempt and nominate a pod that already runs).
    if (auto pit = pending_.find(key); pit != pending_.end())
      pit->second = p;
    return;
  }
  std::optional<std::uint32_t> profile = profile_of(*p);
  if (!profile)
    return;
  auto [it, fresh] = pending_.try_emplace(key, p);
  if (fresh) {
    queue_out_.push_back(
      {queue_input::kind::pod_added, nullptr, p, {}, {}, {}, *profile});
    if (!p->nominated_node_name.empty())
      nominees_out_.push_back(queue_out_.back());
  } else {
    queue_out_.push_back(
      {queue_input::kind::pod_updated, it->second, p, {}, {}, {}, *profile});
    if (p->nominated_node_name != it->second->nominated_node_name)
      nominees_out_.push_back(queue_out_.back());
    it->second = p;
  }
}

void cache_state::left_pending(const model::pod_ptr& last) {
  // Only pods with a profile are pending here.
  queue_input in{queue_input::kind::pod_deleted, last, nullptr, {}, {}, {},
                 profile_of(*last).value_or(0)};
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

// Only the selectors matter (default spreading): status updates, the most
// frequent change of a ReplicaSet or StatefulSet, publish nothing.
void cache_state::apply_workload(object_event::kind type,
                                 const model::workload_ptr& w) {
  std::string key
    = plugins::workload_index::controller_key(w->kind, w->ns, w->name);
  auto it = workloads_.find(key);
  if (type == object_event::kind::deleted) {
    if (it == workloads_.end())
      return;
    workloads_.erase(it);
  } else if (it != workloads_.end()) {
    bool same = it->second->same_selection(*w);
    it->second = w;
    if (same)
      return;
  } else {
    workloads_.emplace(std::move(key), w);
  }
  workloads_dirty_ = true;
  view_dirty_ = true;
  ++generation_;
}

void cache_state::apply_storage(object_event::kind type,
                                const model::object& o) {
  auto ev = storage_.apply(type, o);
  if (!ev)
    return;
  view_dirty_ = true;
  ++generation_;
  emit_event(ev->resource, ev->actions,
             ev->old_object.value_or(model::object{}),
             ev->new_object.value_or(model::object{}),
             ev->old_object.has_value(), ev->new_object.has_value());
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

void cache_state::add_pod_to_node(const model::pod_core_ptr& p) {
  draft(p->node_name).add_pod(p);
  if (statusless_budgets_ > 0)
    view_dirty_ = true;
  if (storage_book::uses_claims(*p)) {
    storage_.pod_added(*p);
    view_dirty_ = view_dirty_ || storage_.dirty();
  }
  count_affinity(*p, +1);
  log_change(change::kind::pod_added, p, p->node_name);
}

void cache_state::remove_pod_from_node(const model::pod_core_ptr& stored) {
  const model::pod_core& p = *stored;
  auto it = nodes_.find(p.node_name);
  if (it == nodes_.end())
    return;
  model::node_info& info = draft(p.node_name);
  info.remove_pod(p);
  if (statusless_budgets_ > 0)
    view_dirty_ = true;
  if (storage_book::uses_claims(p)) {
    storage_.pod_removed(p);
    view_dirty_ = view_dirty_ || storage_.dirty();
  }
  count_affinity(p, -1);
  log_change(change::kind::pod_removed, stored, p.node_name);
  if (info.get_node() == nullptr && info.pods().empty()) {
    // The last pod of a deleted node: the placeholder goes too.
    dirty_nodes_.erase(p.node_name);
    nodes_.erase(it);
  }
}

void cache_state::count_affinity(const model::pod_core& p, int sign) {
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

void cache_state::log_change(change::kind type, const model::pod_core_ptr& p,
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
