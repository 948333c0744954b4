// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/storage_view.hpp"

#include <algorithm>

namespace tessera::model {

namespace {

const symbol& hostname_label() {
  static const symbol key{"kubernetes.io/hostname"};
  return key;
}

/// The one hostname a volume's node affinity pins it to (a single term with
/// `kubernetes.io/hostname In [value]` among its requirements), else empty.
std::string pinned_hostname(const persistent_volume& pv) {
  if (!pv.node_affinity || pv.node_affinity->terms.size() != 1)
    return {};
  for (const auto& req : pv.node_affinity->terms[0].match_expressions)
    if (req.key == hostname_label()
        && req.oper == node_selector_requirement::op::in
        && req.values.size() == 1)
      return std::string{req.values[0].view()};
  return {};
}

bool free_to_bind(const persistent_volume& pv) {
  if (pv.phase == volume_phase::released || pv.phase == volume_phase::failed)
    return false;
  return !pv.claim_ref;
}

bool matches_claim(const persistent_volume& pv,
                   const persistent_volume_claim& claim) {
  if (pv.storage_class != claim.class_name())
    return false;
  if ((pv.access_modes & claim.access_modes) != claim.access_modes)
    return false;
  if (pv.mode != claim.mode)
    return false;
  if (pv.capacity_bytes < claim.request_bytes)
    return false;
  if (!claim.attributes_class.empty()
      && pv.attributes_class != claim.attributes_class)
    return false;
  if (claim.selector && !claim.selector->matches(pv.labels))
    return false;
  return true;
}

} // namespace

std::string claim_key(symbol ns, std::string_view name) {
  std::string key{ns.view()};
  key += '/';
  key += name;
  return key;
}

bool volume_reachable(const persistent_volume& pv, const label_set& node_labels,
                      symbol node_name) noexcept {
  return !pv.node_affinity || pv.node_affinity->matches(node_labels, node_name);
}

void storage_view::index() {
  claimed_.clear();
  volumes.for_each([&](const std::string&, const persistent_volume_ptr& pv) {
    if (pv->claim_ref)
      claimed_.set(claim_key(pv->claim_ref->ns, pv->claim_ref->name), pv);
  });
  index_free();
  smallest_limits.clear();
  csi_nodes.for_each([&](symbol, const csi_node_ptr& n) {
    for (const auto& d : n->drivers)
      if (d.allocatable_count) {
        auto [it, fresh]
          = smallest_limits.try_emplace(d.name, *d.allocatable_count);
        if (!fresh)
          it->second = std::min<std::int64_t>(it->second, *d.allocatable_count);
      }
  });
}

void storage_view::index_free() {
  auto index = std::make_shared<free_index>();
  volumes.for_each([&](const std::string&, const persistent_volume_ptr& pv) {
    if (free_to_bind(*pv))
      (*index)[pv->storage_class][pinned_hostname(*pv)].push_back(pv);
  });
  // Smallest first, as the binder prefers; names break ties so the choice
  // does not depend on hash order.
  for (auto& [cls, by_host] : *index)
    for (auto& [host, list] : by_host)
      std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
        return a->capacity_bytes != b->capacity_bytes
                 ? a->capacity_bytes < b->capacity_bytes
                 : a->name < b->name;
      });
  free_ = std::move(index);
  free_stale_ = false;
}

void storage_view::unclaim(const persistent_volume& pv) {
  if (!pv.claim_ref)
    return;
  auto key = claim_key(pv.claim_ref->ns, pv.claim_ref->name);
  if (const auto* held = claimed_.find(key); held && (*held)->name == pv.name)
    claimed_.erase(key);
}

void storage_view::set_volume(persistent_volume_ptr pv) {
  if (const auto* old = volumes.find(pv->name)) {
    free_stale_ = free_stale_ || free_to_bind(**old);
    unclaim(**old);
  }
  free_stale_ = free_stale_ || free_to_bind(*pv);
  if (pv->claim_ref)
    claimed_.set(claim_key(pv->claim_ref->ns, pv->claim_ref->name), pv);
  auto name = pv->name;
  volumes.set(name, std::move(pv));
}

void storage_view::erase_volume(const std::string& name) {
  const auto* old = volumes.find(name);
  if (old == nullptr)
    return;
  free_stale_ = free_stale_ || free_to_bind(**old);
  unclaim(**old);
  volumes.erase(name);
}

void storage_view::refresh() {
  if (free_stale_ || !free_)
    index_free();
}

const persistent_volume_claim*
storage_view::claim(symbol ns, std::string_view name) const noexcept {
  const auto* c = claims.find(claim_key(ns, name));
  return c == nullptr ? nullptr : c->get();
}

const persistent_volume*
storage_view::volume(std::string_view name) const noexcept {
  const auto* pv = volumes.find(std::string{name});
  return pv == nullptr ? nullptr : pv->get();
}

const storage_class*
storage_view::class_named(std::string_view name) const noexcept {
  auto it = classes.find(std::string{name});
  return it == classes.end() ? nullptr : it->second.get();
}

const csi_node* storage_view::csi_node_of(symbol node) const noexcept {
  const auto* cn = csi_nodes.find(node);
  return cn == nullptr ? nullptr : cn->get();
}

const csi_driver* storage_view::driver(std::string_view name) const noexcept {
  auto it = drivers.find(std::string{name});
  return it == drivers.end() ? nullptr : it->second.get();
}

std::int32_t storage_view::users_of(symbol ns,
                                    std::string_view claim) const noexcept {
  auto it = claim_users.find(claim_key(ns, claim));
  return it == claim_users.end() ? 0 : it->second;
}

bool storage_view::delays_binding(const persistent_volume_claim& claim,
                                  bool& class_missing) const noexcept {
  class_missing = false;
  auto name = claim.class_name();
  if (name.empty())
    return false;
  const storage_class* cls = class_named(name);
  if (cls == nullptr) {
    class_missing = true;
    return false;
  }
  return cls->binding == binding_mode::wait_for_first_consumer;
}

persistent_volume_ptr storage_view::find_matching_volume(
  const persistent_volume_claim& claim, const label_set& node_labels,
  symbol node_name, const std::unordered_set<std::string>& chosen) const {
  auto usable = [&](const persistent_volume_ptr& pv) {
    return chosen.count(pv->name) == 0 && matches_claim(*pv, claim)
           && volume_reachable(*pv, node_labels, node_name);
  };
  // A claim that names its volume takes that one or none.
  if (!claim.volume_name.empty()) {
    const auto* named = volumes.find(claim.volume_name);
    if (named == nullptr)
      return nullptr;
    const auto& pv = *named;
    bool ours
      = !pv->claim_ref
        || (pv->claim_ref->ns == claim.ns && pv->claim_ref->name == claim.name);
    return ours && usable(pv) ? pv : nullptr;
  }
  if (const auto* held = claimed_.find(claim_key(claim.ns, claim.name)))
    return usable(*held) ? *held : nullptr;
  if (!free_)
    return nullptr;
  auto cls = free_->find(std::string{claim.class_name()});
  if (cls == free_->end())
    return nullptr;
  persistent_volume_ptr best;
  auto consider = [&](const std::vector<persistent_volume_ptr>& list) {
    for (const auto& pv : list) {
      if (best && pv->capacity_bytes >= best->capacity_bytes)
        break; // sorted: nothing smaller follows
      if (usable(pv)) {
        best = pv;
        break;
      }
    }
  };
  if (auto host = node_labels.find(hostname_label()))
    if (auto it = cls->second.find(std::string{host->view()});
        it != cls->second.end())
      consider(it->second);
  if (auto it = cls->second.find(std::string{}); it != cls->second.end())
    consider(it->second);
  return best;
}

bool storage_view::has_reserved_volume(
  const persistent_volume_claim& claim) const {
  if (!claim.volume_name.empty())
    return true;
  return claimed_.contains(claim_key(claim.ns, claim.name));
}

bool storage_view::has_capacity(const storage_class& cls,
                                const persistent_volume_claim& claim,
                                const label_set& node_labels) const noexcept {
  for (const auto& c : capacities) {
    if (c->storage_class != cls.name)
      continue;
    auto limit = c->maximum_volume_size ? c->maximum_volume_size : c->capacity;
    if (!limit || *limit < claim.request_bytes)
      continue;
    if (c->node_topology.matches(node_labels))
      return true;
  }
  return false;
}

std::optional<claims_problem> sort_claims(const storage_view& view,
                                          const pod& p, pod_claims& out) {
  out = {};
  std::unordered_set<std::string_view> seen;
  for (const auto& v : p.volumes) {
    if (v.claim_name.empty() || !seen.insert(v.claim_name).second)
      continue;
    const auto* found = view.claims.find(claim_key(p.ns, v.claim_name));
    if (found == nullptr)
      return claims_problem{"persistentvolumeclaim \"" + v.claim_name
                            + "\" not found"};
    const persistent_volume_claim& c = **found;
    if (c.deleting)
      return claims_problem{"persistentvolumeclaim \"" + v.claim_name
                            + "\" is being deleted"};
    if (c.phase == claim_phase::lost)
      return claims_problem{"persistentvolumeclaim \"" + v.claim_name
                            + "\" bound to non-existent persistentvolume \""
                            + c.volume_name + "\""};
    if (v.ephemeral && c.controller_uid != p.uid)
      return claims_problem{"PVC " + std::string{p.ns.view()} + "/"
                            + v.claim_name + " was not created for pod "
                            + std::string{p.ns.view()} + "/" + p.name
                            + " (pod is not owner)"};
    if (c.fully_bound()) {
      out.bound.push_back(*found);
      const auto* pv = view.volumes.find(c.volume_name);
      out.bound_volumes.push_back(pv != nullptr ? *pv : nullptr);
      continue;
    }
    bool class_missing = false;
    bool delayed = view.delays_binding(c, class_missing);
    if (class_missing)
      return claims_problem{"storageclass.storage.k8s.io \""
                              + std::string{c.class_name()} + "\" not found",
                            false};
    (delayed ? out.delayed : out.immediate).push_back(*found);
  }
  std::stable_sort(out.delayed.begin(), out.delayed.end(),
                   [](const auto& a, const auto& b) {
                     return a->request_bytes < b->request_bytes;
                   });
  return std::nullopt;
}

std::vector<std::string_view> claim_fit::reasons() const {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < reason_texts.size(); ++i)
    if (failed(i))
      out.push_back(reason_texts[i]);
  return out;
}

claim_fit fit_claims(const storage_view& view, const pod_claims& claims,
                     const label_set& node_labels, symbol node_name) {
  claim_fit fit;
  for (std::size_t i = 0; i < claims.bound.size(); ++i) {
    const persistent_volume* pv = i < claims.bound_volumes.size()
                                    ? claims.bound_volumes[i].get()
                                    : view.volume(claims.bound[i]->volume_name);
    if (pv == nullptr) {
      fit.volumes_found = false;
      break;
    }
    if (!volume_reachable(*pv, node_labels, node_name)) {
      fit.bound_reachable = false;
      break;
    }
  }
  if (claims.delayed.empty())
    return fit;
  std::vector<persistent_volume_claim_ptr> to_provision;
  std::unordered_set<std::string> chosen;
  for (const auto& c : claims.delayed) {
    if (!c->selected_node.empty()) {
      if (c->selected_node != node_name.view()) {
        fit.unbound_satisfied = false;
        return fit;
      }
      to_provision.push_back(c);
      continue;
    }
    if (auto pv
        = view.find_matching_volume(*c, node_labels, node_name, chosen)) {
      chosen.insert(pv->name);
      fit.plan.bindings.push_back({c, pv});
    } else if (view.has_reserved_volume(*c)) {
      fit.unbound_satisfied = false;
      return fit;
    } else {
      to_provision.push_back(c);
    }
  }
  for (const auto& c : to_provision) {
    const storage_class* cls = view.class_named(c->class_name());
    if (cls == nullptr || cls->provisioner == no_provisioner
        || !cls->allows(node_labels)) {
      fit.unbound_satisfied = false;
      return fit;
    }
    const csi_driver* driver
      = view.driver(csi_driver_of_provisioner(cls->provisioner));
    if (driver != nullptr && driver->storage_capacity && c->request_bytes > 0
        && !view.has_capacity(*cls, *c, node_labels)) {
      fit.enough_storage = false;
      return fit;
    }
    fit.plan.provisions.push_back(c);
  }
  return fit;
}

} // namespace tessera::model
