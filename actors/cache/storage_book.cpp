// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/storage_book.hpp"

#include "model/node.hpp"

#include <type_traits>

namespace tessera::actors {

namespace {

using plugins::action;
using plugins::event_resource;

template <class T> std::string key_of(const T& o) {
  if constexpr (requires { o.ns; })
    return model::claim_key(o.ns, o.name);
  else if constexpr (std::is_same_v<decltype(o.name), model::symbol>)
    return std::string{o.name.view()};
  else
    return o.name;
}

template <class Map, class Ptr>
std::optional<storage_book::event> apply_to(Map& map, object_event::kind type,
                                            const Ptr& obj,
                                            event_resource resource) {
  auto key = key_of(*obj);
  auto it = map.find(key);
  storage_book::event ev;
  ev.resource = resource;
  if (type == object_event::kind::deleted) {
    if (it == map.end())
      return std::nullopt;
    ev.actions = action::remove;
    ev.old_object = model::object{it->second};
    map.erase(it);
    return ev;
  }
  if (it == map.end()) {
    map.emplace(std::move(key), obj);
    ev.actions = action::add;
    ev.new_object = model::object{obj};
    return ev;
  }
  if (*it->second == *obj)
    return std::nullopt;
  ev.actions = action::update_other;
  ev.old_object = model::object{it->second};
  ev.new_object = model::object{obj};
  it->second = obj;
  return ev;
}

bool read_write_once_pod(const model::persistent_volume_claim& c) {
  return (c.access_modes & model::read_write_once_pod) != 0;
}

} // namespace

bool storage_book::uses_claims(const model::pod& p) noexcept {
  for (const auto& v : p.volumes)
    if (!v.claim_name.empty())
      return true;
  return false;
}

std::optional<storage_book::event> storage_book::apply(object_event::kind type,
                                                       const model::object& o) {
  std::optional<event> ev;
  std::visit(
    [&](const auto& obj) {
      using T = std::decay_t<decltype(obj)>;
      if (!obj)
        return;
      if constexpr (std::is_same_v<T, model::persistent_volume_ptr>) {
        // The API's word replaces what an assume guessed.
        assumed_volumes_.erase(obj->name);
        ev = apply_to(volumes_, type, obj, event_resource::persistent_volume);
      } else if constexpr (std::is_same_v<T,
                                          model::persistent_volume_claim_ptr>) {
        assumed_claims_.erase(key_of(*obj));
        ev = apply_to(claims_, type, obj,
                      event_resource::persistent_volume_claim);
      } else if constexpr (std::is_same_v<T, model::storage_class_ptr>) {
        ev = apply_to(classes_, type, obj, event_resource::storage_class);
      } else if constexpr (std::is_same_v<T, model::csi_node_ptr>) {
        ev = apply_to(csi_nodes_, type, obj, event_resource::csi_node);
      } else if constexpr (std::is_same_v<T, model::csi_driver_ptr>) {
        ev = apply_to(drivers_, type, obj, event_resource::csi_driver);
      } else if constexpr (std::is_same_v<T, model::csi_storage_capacity_ptr>) {
        ev = apply_to(capacities_, type, obj,
                      event_resource::csi_storage_capacity);
      } else if constexpr (std::is_same_v<T, model::volume_attachment_ptr>) {
        ev = apply_to(attachments_, type, obj,
                      event_resource::volume_attachment);
      }
    },
    o);
  if (ev)
    dirty_ = true;
  return ev;
}

void storage_book::pod_added(const model::pod& p) {
  for (const auto& v : p.volumes) {
    if (v.claim_name.empty())
      continue;
    auto key = model::claim_key(p.ns, v.claim_name);
    auto it = claims_.find(key);
    // Users are counted for ReadWriteOncePod claims only; a claim that is
    // not known yet is counted too, in case it turns out to be one.
    if (it != claims_.end() && !read_write_once_pod(*it->second))
      continue;
    ++claim_users_[key];
    dirty_ = true;
  }
}

void storage_book::pod_removed(const model::pod& p) {
  for (const auto& v : p.volumes) {
    if (v.claim_name.empty())
      continue;
    auto it = claim_users_.find(model::claim_key(p.ns, v.claim_name));
    if (it == claim_users_.end())
      continue;
    if (--it->second <= 0)
      claim_users_.erase(it);
    dirty_ = true;
  }
}

std::string storage_book::assume(const std::string& pod_key,
                                 const model::pod& p, const model::node& node,
                                 model::volume_binding_plan_ptr& plan) {
  plan.reset();
  if (!uses_claims(p))
    return {};
  model::storage_view_ptr current = view();
  if (!current)
    return "the pod's claims are not known yet";
  const model::storage_view& sv = *current;
  model::pod_claims claims;
  if (auto problem = model::sort_claims(sv, p, claims))
    return problem->message;
  if (!claims.immediate.empty())
    return "pod has unbound immediate PersistentVolumeClaims";
  for (const auto& c : claims.bound)
    if (read_write_once_pod(*c) && sv.users_of(c->ns, c->name) > 0)
      return "node has pod using PersistentVolumeClaim with the same name "
             "and ReadWriteOncePod access mode";
  for (const auto& c : claims.delayed)
    if (read_write_once_pod(*c) && sv.users_of(c->ns, c->name) > 0)
      return "node has pod using PersistentVolumeClaim with the same name "
             "and ReadWriteOncePod access mode";
  model::claim_fit fit = model::fit_claims(sv, claims, node.labels, node.name);
  if (!fit.ok())
    return std::string{fit.reasons().front()};
  auto out = std::make_shared<model::volume_binding_plan>(std::move(fit.plan));
  // Record: the chosen volumes are taken, the provisioned claims wait on
  // this node.
  assumption& a = by_pod_[pod_key];
  for (const auto& b : out->bindings) {
    auto taken = std::make_shared<model::persistent_volume>(*b.volume);
    taken->claim_ref
      = model::claim_reference{b.claim->ns, b.claim->name, b.claim->uid};
    assumed_volumes_[taken->name] = std::move(taken);
    a.volumes.push_back(b.volume->name);
  }
  for (const auto& c : out->provisions) {
    if (c->selected_node == node.name.view())
      continue;
    auto waiting = std::make_shared<model::persistent_volume_claim>(*c);
    waiting->selected_node = std::string{node.name.view()};
    auto key = model::claim_key(c->ns, c->name);
    assumed_claims_[key] = std::move(waiting);
    a.claims.push_back(std::move(key));
  }
  if (!out->empty())
    dirty_ = true;
  plan = out->empty() ? nullptr : std::move(out);
  return {};
}

void storage_book::forget(const std::string& pod_key) {
  auto it = by_pod_.find(pod_key);
  if (it == by_pod_.end())
    return;
  for (const auto& name : it->second.volumes)
    assumed_volumes_.erase(name);
  for (const auto& key : it->second.claims)
    assumed_claims_.erase(key);
  by_pod_.erase(it);
  dirty_ = true;
}

model::storage_view_ptr storage_book::view() {
  if (!dirty_)
    return view_;
  dirty_ = false;
  if (volumes_.empty() && claims_.empty() && classes_.empty()
      && csi_nodes_.empty() && drivers_.empty() && capacities_.empty()
      && attachments_.empty() && claim_users_.empty()) {
    view_ = nullptr;
    return view_;
  }
  auto v = std::make_shared<model::storage_view>();
  v->volumes = volumes_;
  for (const auto& [name, pv] : assumed_volumes_)
    v->volumes[name] = pv;
  v->claims = claims_;
  for (const auto& [key, c] : assumed_claims_)
    v->claims[key] = c;
  v->classes = classes_;
  for (const auto& [name, cn] : csi_nodes_)
    v->csi_nodes.emplace(cn->name, cn);
  v->drivers = drivers_;
  for (const auto& [key, c] : capacities_)
    v->capacities.push_back(c);
  // An attachment names the volume; limits count the volume's handle, so
  // that it and the pod using the volume count once.
  for (const auto& [name, a] : attachments_) {
    auto pv = volumes_.find(a->volume_name);
    v->attachments[a->node].push_back(
      pv != volumes_.end() && !pv->second->attach.driver.empty()
        ? pv->second->attach
        : model::attachable_volume{a->attacher, a->volume_name});
  }
  for (const auto& [key, n] : claim_users_) {
    auto it = claims_.find(key);
    if (it != claims_.end() && read_write_once_pod(*it->second))
      v->claim_users.emplace(key, n);
  }
  v->index();
  view_ = std::move(v);
  return view_;
}

} // namespace tessera::actors
