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

bool storage_book::uses_claims(const model::pod_core& p) noexcept {
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
        ev = apply_to(volumes_, type, obj, event_resource::persistent_volume);
        // The API's word replaces what an assume guessed.
        if (assumed_volumes_.erase(obj->name) > 0 || ev)
          show_volume(obj->name);
        attachments_stale_ = attachments_stale_ || !attachments_.empty();
      } else if constexpr (std::is_same_v<T,
                                          model::persistent_volume_claim_ptr>) {
        auto key = key_of(*obj);
        ev = apply_to(claims_, type, obj,
                      event_resource::persistent_volume_claim);
        if (assumed_claims_.erase(key) > 0 || ev)
          show_claim(key);
        sync_users(key);
      } else if constexpr (std::is_same_v<T, model::storage_class_ptr>) {
        ev = apply_to(classes_, type, obj, event_resource::storage_class);
        if (ev)
          working_.classes = classes_;
      } else if constexpr (std::is_same_v<T, model::csi_node_ptr>) {
        ev = apply_to(csi_nodes_, type, obj, event_resource::csi_node);
        if (!ev)
          return;
        if (ev->old_object)
          count_limits(**std::get_if<model::csi_node_ptr>(&*ev->old_object),
                       false);
        if (type == object_event::kind::deleted) {
          working_.csi_nodes.erase(obj->name);
        } else {
          count_limits(*obj, true);
          working_.csi_nodes.set(obj->name, obj);
        }
      } else if constexpr (std::is_same_v<T, model::csi_driver_ptr>) {
        ev = apply_to(drivers_, type, obj, event_resource::csi_driver);
        if (ev)
          working_.drivers = drivers_;
      } else if constexpr (std::is_same_v<T, model::csi_storage_capacity_ptr>) {
        ev = apply_to(capacities_, type, obj,
                      event_resource::csi_storage_capacity);
        if (ev) {
          working_.capacities.clear();
          for (const auto& [key, c] : capacities_)
            working_.capacities.push_back(c);
        }
      } else if constexpr (std::is_same_v<T, model::volume_attachment_ptr>) {
        ev = apply_to(attachments_, type, obj,
                      event_resource::volume_attachment);
        attachments_stale_ = attachments_stale_ || ev.has_value();
      }
    },
    o);
  if (ev)
    dirty_ = true;
  return ev;
}

void storage_book::count_limits(const model::csi_node& n, bool add) {
  for (const auto& d : n.drivers) {
    if (!d.allocatable_count)
      continue;
    auto& limits = limits_[d.name];
    if (add)
      limits.insert(*d.allocatable_count);
    else if (auto it = limits.find(*d.allocatable_count); it != limits.end())
      limits.erase(it);
    if (limits.empty()) {
      limits_.erase(d.name);
      working_.smallest_limits.erase(d.name);
    } else {
      working_.smallest_limits[d.name] = *limits.begin();
    }
  }
}

void storage_book::show_volume(const std::string& name) {
  dirty_ = true;
  if (auto it = assumed_volumes_.find(name); it != assumed_volumes_.end())
    working_.set_volume(it->second);
  else if (auto api = volumes_.find(name); api != volumes_.end())
    working_.set_volume(api->second);
  else
    working_.erase_volume(name);
}

void storage_book::show_claim(const std::string& key) {
  dirty_ = true;
  if (auto it = assumed_claims_.find(key); it != assumed_claims_.end())
    working_.claims.set(key, it->second);
  else if (auto api = claims_.find(key); api != claims_.end())
    working_.claims.set(key, api->second);
  else
    working_.claims.erase(key);
}

// The view counts the users of ReadWriteOncePod claims only.
void storage_book::sync_users(const std::string& claim) {
  auto c = claims_.find(claim);
  auto n = claim_users_.find(claim);
  bool shown = c != claims_.end() && read_write_once_pod(*c->second)
               && n != claim_users_.end() && n->second > 0;
  if (shown) {
    working_.claim_users[claim] = n->second;
    dirty_ = true;
  } else if (working_.claim_users.erase(claim) > 0) {
    dirty_ = true;
  }
}

void storage_book::pod_added(const model::pod_core& p) {
  for (const auto& v : p.volumes) {
    if (v.claim_name.empty())
      continue;
    auto key = model::claim_key(p.ns, v.claim_name);
    ++claim_users_[key];
    sync_users(key);
  }
}

void storage_book::pod_removed(const model::pod_core& p) {
  for (const auto& v : p.volumes) {
    if (v.claim_name.empty())
      continue;
    auto key = model::claim_key(p.ns, v.claim_name);
    auto it = claim_users_.find(key);
    if (it == claim_users_.end())
      continue;
    if (--it->second <= 0)
      claim_users_.erase(it);
    sync_users(key);
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
    show_volume(b.volume->name);
  }
  for (const auto& c : out->provisions) {
    if (c->selected_node == node.name.view())
      continue;
    auto waiting = std::make_shared<model::persistent_volume_claim>(*c);
    waiting->selected_node = std::string{node.name.view()};
    auto key = model::claim_key(c->ns, c->name);
    assumed_claims_[key] = std::move(waiting);
    show_claim(key);
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
    if (assumed_volumes_.erase(name) > 0)
      show_volume(name);
  for (const auto& key : it->second.claims)
    if (assumed_claims_.erase(key) > 0)
      show_claim(key);
  by_pod_.erase(it);
}

model::storage_view_ptr storage_book::view() {
  if (!dirty_)
    return view_;
  dirty_ = false;
  if (working_.volumes.empty() && working_.claims.empty()
      && working_.classes.empty() && working_.csi_nodes.empty()
      && working_.drivers.empty() && working_.capacities.empty()
      && attachments_.empty() && working_.claim_users.empty()) {
    view_ = nullptr;
    return view_;
  }
  if (attachments_stale_) {
    // An attachment names the volume; limits count the volume's handle, so
    // that it and the pod using the volume count once.
    working_.attachments.clear();
    for (const auto& [name, a] : attachments_) {
      auto pv = volumes_.find(a->volume_name);
      working_.attachments[a->node].push_back(
        pv != volumes_.end() && !pv->second->attach.driver.empty()
          ? pv->second->attach
          : model::attachable_volume{a->attacher, a->volume_name});
    }
    attachments_stale_ = false;
  }
  working_.refresh();
  view_ = std::make_shared<const model::storage_view>(working_);
  return view_;
}

} // namespace tessera::actors
