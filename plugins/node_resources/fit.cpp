// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_resources/fit.hpp"

#include "model/resource_list.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/slot_rewrite.hpp"

#include <algorithm>
#include <string>
#include <variant>

namespace tessera::plugins {

namespace {

// Whether the pod fits a node that runs nothing, as kube-scheduler's hint
// checks it: a free pod slot and every requested resource within
// allocatable. Ignored resources are not honoured here (upstream passes no
// ignore lists to this check).
bool fits_empty_node(const model::pod& p, const model::node& n) {
  const auto& alloc = n.allocatable;
  if (alloc.pods < 1)
    return false;
  const auto& req = p.requests;
  if (req.milli_cpu > 0 && req.milli_cpu > alloc.milli_cpu)
    return false;
  if (req.memory > 0 && req.memory > alloc.memory)
    return false;
  if (req.ephemeral_storage > 0
      && req.ephemeral_storage > alloc.ephemeral_storage)
    return false;
  for (const auto& s : req.scalars())
    if (s.value != 0 && s.value > alloc.scalar(s.name))
      return false;
  return true;
}

// Whether an allocatable update grew the allowed pod count or a resource
// the pod requests.
bool requested_allocatable_grew(const model::pod& p, const model::node& before,
                                const model::node& after) {
  const auto& old_alloc = before.allocatable;
  const auto& new_alloc = after.allocatable;
  if (new_alloc.pods > old_alloc.pods)
    return true;
  const auto& req = p.requests;
  if (req.milli_cpu > 0 && new_alloc.milli_cpu > old_alloc.milli_cpu)
    return true;
  if (req.memory > 0 && new_alloc.memory > old_alloc.memory)
    return true;
  if (req.ephemeral_storage > 0
      && new_alloc.ephemeral_storage > old_alloc.ephemeral_storage)
    return true;
  for (const auto& s : req.scalars())
    if (s.value != 0 && new_alloc.scalar(s.name) > old_alloc.scalar(s.name))
      return true;
  return false;
}

// Whether a bound pod's update shrank a resource `waiting` requests.
bool shrank_requested_resource(const model::pod& waiting,
                               const model::pod& before,
                               const model::pod& after) {
  const auto& want = waiting.requests;
  const auto& old_req = before.requests;
  const auto& new_req = after.requests;
  if (want.milli_cpu != 0 && old_req.milli_cpu > new_req.milli_cpu)
    return true;
  if (want.memory != 0 && old_req.memory > new_req.memory)
    return true;
  if (want.ephemeral_storage != 0
      && old_req.ephemeral_storage > new_req.ephemeral_storage)
    return true;
  for (const auto& s : want.scalars())
    if (s.value != 0 && old_req.scalar(s.name) > new_req.scalar(s.name))
      return true;
  return false;
}

} // namespace

node_resources_fit::node_resources_fit(
  const config::node_resources_fit_args& args)
  : ignored_resources_(args.ignored_resources.begin(),
                       args.ignored_resources.end()),
    ignored_resource_groups_(args.ignored_resource_groups.begin(),
                             args.ignored_resource_groups.end()),
    resources_(node_resources::resolve_resources(args.strategy.resources)),
    scorer_(args.strategy) {
}

node_resources_fit::scalar_info
node_resources_fit::lookup_scalar(model::symbol name) const {
  std::lock_guard lock{scalar_mutex_};
  auto it = scalar_cache_.find(name);
  if (it != scalar_cache_.end())
    return it->second;
  const std::string_view text = name.view();
  scalar_info info;
  info.reason = model::symbol{"Insufficient " + std::string{text}};
  // Only extended resources can be ignored; they always contain a '/'.
  if (model::is_extended_resource(text)) {
    info.ignored = ignored_resources_.count(std::string{text}) != 0
                   || (!ignored_resource_groups_.empty()
                       && ignored_resource_groups_.count(
                            std::string{text.substr(0, text.find('/'))})
                            != 0);
  }
  scalar_cache_.emplace(name, info);
  return info;
}

pre_filter_result
node_resources_fit::pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const {
  (void)cluster;
  auto data = std::make_shared<cycle_data>();
  data->has_filter = true;
  data->milli_cpu = p.requests.milli_cpu;
  data->memory = p.requests.memory;
  data->ephemeral_storage = p.requests.ephemeral_storage;
  for (const auto& r : p.requests.scalars()) {
    if (r.value == 0)
      continue;
    const scalar_info info = lookup_scalar(r.name);
    if (info.ignored)
      continue;
    data->scalars.push_back({r.name, r.value, info.reason});
  }
  std::sort(data->scalars.begin(), data->scalars.end(),
            [](const auto& a, const auto& b) {
              return model::lexical_less(a.name, b.name);
            });
  state.write(slot(), std::move(data));
  return {};
}

status node_resources_fit::filter(const cycle_state& state, const model::pod& p,
                                  model::node_view node) const {
  (void)p;
  const auto* s = state.read<cycle_data>(slot());
  if (s == nullptr || !s->has_filter) [[unlikely]]
    return status::make_error("error reading \"PreFilterNodeResourcesFit\" "
                              "from cycleState: not found");
  // The common case builds no status: check first, explain on failure.
  const auto& alloc = node_resources::node_allocatable(node);
  const auto& used = node.requested();
  bool fits = static_cast<std::int64_t>(node.pod_count()) < alloc.pods;
  fits = fits
         && (s->milli_cpu <= 0
             || s->milli_cpu <= alloc.milli_cpu - used.milli_cpu);
  fits = fits && (s->memory <= 0 || s->memory <= alloc.memory - used.memory);
  fits = fits
         && (s->ephemeral_storage <= 0
             || s->ephemeral_storage
                  <= alloc.ephemeral_storage - used.ephemeral_storage);
  for (const auto& c : s->scalars)
    fits = fits && c.request <= alloc.scalar(c.name) - used.scalar(c.name);
  if (fits) [[likely]]
    return {};
  return explain_misfit(*s, node);
}

status node_resources_fit::explain_misfit(const cycle_data& s,
                                          model::node_view node) const {
  const auto& alloc = node_resources::node_allocatable(node);
  const auto& used = node.requested();
  status out{code::unschedulable, model::symbol{}};
  bool unresolvable = false;
  auto fail = [&](model::symbol reason, bool beyond_allocatable) {
    out.add_reason(reason);
    unresolvable = unresolvable || beyond_allocatable;
  };
  if (static_cast<std::int64_t>(node.pod_count()) + 1 > alloc.pods)
    fail(reasons_.too_many_pods, false);
  if (s.milli_cpu > 0 && s.milli_cpu > alloc.milli_cpu - used.milli_cpu)
    fail(reasons_.insufficient_cpu, s.milli_cpu > alloc.milli_cpu);
  if (s.memory > 0 && s.memory > alloc.memory - used.memory)
    fail(reasons_.insufficient_memory, s.memory > alloc.memory);
  if (s.ephemeral_storage > 0
      && s.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage)
    fail(reasons_.insufficient_ephemeral_storage,
         s.ephemeral_storage > alloc.ephemeral_storage);
  for (const auto& c : s.scalars) {
    const std::int64_t capacity = alloc.scalar(c.name);
    if (c.request > capacity - used.scalar(c.name))
      fail(c.reason, c.request > capacity);
  }
  if (unresolvable)
    out.set_code(code::unschedulable_and_unresolvable);
  return out;
}

void node_resources_fit::prepare_score(cycle_data& data,
                                       const model::pod& p) const {
  data.has_score = true;
  data.scored_resources.clear();
  for (const auto& r : resources_) {
    cycle_data::scored e;
    e.field = node_resources::field_of(r);
    e.weight = r.weight;
    switch (r.kind) {
    case model::resource_kind::cpu:
    case model::resource_kind::memory:
      // cpu and memory score with the 100m / 200Mi per-container defaults,
      // on the pod and on the node.
      e.pod_request = e.field.read(p.non_zero_requests);
      e.node_non_zero = true;
      break;
    case model::resource_kind::ephemeral_storage:
      e.pod_request = e.field.read(p.requests);
      break;
    case model::resource_kind::scalar:
      e.pod_request = e.field.read(p.requests);
      // A scalar resource the pod does not request is not scored.
      if (e.pod_request == 0)
        continue;
      break;
    case model::resource_kind::pods:
    case model::resource_kind::ignored:
      // Never among the node's scored resources: always skipped.
      continue;
    }
    data.scored_resources.push_back(e);
  }
}

status node_resources_fit::pre_score(cycle_state& state, const model::pod& p,
                                     const cluster_context& cluster) const {
  (void)cluster;
  if (resources_.empty())
    return status::make_error("resources not found");
  // Keep PreFilter's part: copy it into a new state with the score part.
  rewrite_slot<cycle_data>(state, slot(),
                           [&](cycle_data& d) { prepare_score(d, p); });
  return {};
}

std::int64_t node_resources_fit::score(const cycle_state& state,
                                       const model::pod& p,
                                       const model::node_info& node) const {
  const auto* s = state.read<cycle_data>(slot());
  if (s == nullptr || !s->has_score) [[unlikely]]
    return score_unprepared(p, node);
  return score_prepared(*s, node);
}

std::int64_t
node_resources_fit::score_prepared(const cycle_data& data,
                                   const model::node_info& node) const {
  const auto& alloc = node_resources::node_allocatable(node);
  const auto& requested = node.requested();
  const auto& non_zero = node.non_zero_requested();
  return scorer_.score([&](auto&& emit) {
    for (const auto& e : data.scored_resources) {
      const std::int64_t capacity = e.field.read(alloc);
      if (capacity == 0)
        continue;
      const std::int64_t used
        = e.field.read(e.node_non_zero ? non_zero : requested);
      emit(node_resources::add_saturating(used, e.pod_request), capacity,
           e.weight);
    }
  });
}

std::int64_t
node_resources_fit::score_unprepared(const model::pod& p,
                                     const model::node_info& node) const {
  cycle_data local;
  prepare_score(local, p);
  return score_prepared(local, node);
}

std::vector<cluster_event_with_hint>
node_resources_fit::events_to_register() const {
  return {
    {{event_resource::pod, action::remove | action::update_pod_scale_down},
     &node_resources_fit::hint_after_pod_event},
    {{event_resource::node, action::add | action::update_node_allocatable},
     &node_resources_fit::hint_after_node_change},
  };
}

queueing_hint
node_resources_fit::hint_after_pod_event(const model::pod& waiting,
                                         const model::object* old_object,
                                         const model::object* new_object) {
  const model::pod* before = object_as<model::pod_ptr>(old_object);
  const model::pod* after = object_as<model::pod_ptr>(new_object);
  if (after == nullptr) {
    if (before == nullptr)
      return queueing_hint::queue;
    // Deleting a pod frees resources only if it held or was promised some.
    return before->node_name.empty() && before->nominated_node_name.empty()
             ? queueing_hint::skip
             : queueing_hint::queue;
  }
  if (before == nullptr)
    return queueing_hint::queue;
  // A scale-down of the waiting pod itself may make it fit.
  if (after->same_identity(waiting))
    return queueing_hint::queue;
  if (after->node_name.empty())
    return queueing_hint::skip;
  return shrank_requested_resource(waiting, *before, *after)
           ? queueing_hint::queue
           : queueing_hint::skip;
}

queueing_hint
node_resources_fit::hint_after_node_change(const model::pod& waiting,
                                           const model::object* old_object,
                                           const model::object* new_object) {
  const model::node* after = object_as<model::node_ptr>(new_object);
  if (after == nullptr || !fits_empty_node(waiting, *after))
    return queueing_hint::skip;
  const model::node* before = object_as<model::node_ptr>(old_object);
  if (before == nullptr)
    return queueing_hint::queue;
  return requested_allocatable_grew(waiting, *before, *after)
           ? queueing_hint::queue
           : queueing_hint::skip;
}

std::shared_ptr<plugin>
make_node_resources_fit(const config::node_resources_fit_args& args) {
  return std::make_shared<node_resources_fit>(args);
}

} // namespace tessera::plugins
