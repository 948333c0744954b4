// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/node_volume_limits.hpp"

#include "model/storage.hpp"
#include "plugins/volume/claim_lookup.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>

namespace tessera::plugins {

namespace {

/// The in-tree provisioners kube-scheduler counts under their CSI drivers
/// (their migration is complete); claims of the other migratable ones
/// (vSphere, Azure File) are not counted, as upstream.
constexpr std::array<std::string_view, 5> migration_on = {
  "kubernetes.io/gce-pd",          "kubernetes.io/aws-ebs",
  "kubernetes.io/azure-disk",      "kubernetes.io/cinder",
  "kubernetes.io/portworx-volume",
};

/// Starts the handle of a claim that has no volume yet. Upstream uses a
/// random prefix; any text a real handle cannot start with does, as long
/// as it is the same for every pod that uses the claim.
constexpr std::string_view unbound_handle_prefix = "\x1f"
                                                   "unbound-claim/";

/// A claim without a volume, counted under its class's provisioner.
model::attachable_volume
from_class(const model::storage_view& storage,
           const model::persistent_volume_claim& claim) {
  std::string_view class_name = claim.class_name();
  if (class_name.empty())
    return {};
  const model::storage_class* cls = storage.class_named(class_name);
  if (cls == nullptr)
    return {};
  std::string driver = model::csi_driver_of_provisioner(cls->provisioner);
  if (driver != cls->provisioner
      && std::find(migration_on.begin(), migration_on.end(), cls->provisioner)
           == migration_on.end())
    return {};
  std::string handle{unbound_handle_prefix};
  handle += model::claim_key(claim.ns, claim.name);
  return {std::move(driver), std::move(handle)};
}

model::attachable_volume of_claim(const model::storage_view& storage,
                                  const model::persistent_volume_claim& claim) {
  if (!claim.volume_name.empty())
    if (const auto* pv = storage.volume(claim.volume_name))
      return pv->attach;
  return from_class(storage, claim);
}

void insert(node_volume_limits::volume_set& out,
            const model::attachable_volume& v) {
  if (v.driver.empty() || v.handle.empty())
    return;
  out.emplace(v.driver + "/" + v.handle, v.driver);
}

/// The smallest limit any node gives one of the drivers of `volumes`
/// (the largest number when no node limits them).
std::int64_t smallest_limit(const model::storage_view& storage,
                            const node_volume_limits::volume_set& volumes) {
  std::int64_t out = std::numeric_limits<std::int64_t>::max();
  for (const auto& [key, driver] : volumes)
    if (auto it = storage.smallest_limits.find(driver);
        it != storage.smallest_limits.end())
      out = std::min(out, it->second);
  return out;
}

bool may_attach(const model::volume& v) noexcept {
  return !v.claim_name.empty() || !v.attach.driver.empty();
}

bool any_attachable(const model::pod& p) noexcept {
  return std::any_of(p.volumes.begin(), p.volumes.end(), may_attach);
}

} // namespace

node_volume_limits::node_volume_limits()
  : reason_max_volume_count_("node(s) exceed max volume count") {
}

std::vector<cluster_event_with_hint>
node_volume_limits::events_to_register() const {
  auto csi_node_updated = [](const model::pod&, const model::object* old_object,
                             const model::object* new_object) {
    const auto* before = object_as<model::csi_node_ptr>(old_object);
    const auto* after = object_as<model::csi_node_ptr>(new_object);
    if (before == nullptr || after == nullptr)
      return queueing_hint::queue;
    for (const auto& d : before->drivers) {
      if (!d.allocatable_count)
        continue;
      const model::csi_node_driver* now = after->driver(d.name);
      if (now == nullptr || !now->allocatable_count
          || *now->allocatable_count > *d.allocatable_count)
        return queueing_hint::queue;
    }
    return queueing_hint::skip;
  };
  auto pod_deleted = [](const model::pod&, const model::object* old_object,
                        const model::object* new_object) {
    const model::pod* gone = object_as<model::pod_ptr>(
      old_object != nullptr ? old_object : new_object);
    if (gone == nullptr)
      return queueing_hint::queue;
    if (gone->node_name.empty() && gone->nominated_node_name.empty())
      return queueing_hint::skip;
    return any_attachable(*gone) ? queueing_hint::queue : queueing_hint::skip;
  };
  auto attachment_deleted
    = [](const model::pod& waiting, const model::object* old_object,
         const model::object* new_object) {
        const auto* va = object_as<model::volume_attachment_ptr>(
          old_object != nullptr ? old_object : new_object);
        if (va == nullptr)
          return queueing_hint::queue;
        for (const auto& v : waiting.volumes)
          if (!v.claim_name.empty() || v.attach.driver == va->attacher)
            return queueing_hint::queue;
        return queueing_hint::skip;
      };
  return {
    {{event_resource::csi_node, action::add}, {}},
    {{event_resource::csi_node, action::update}, csi_node_updated},
    {{event_resource::pod, action::remove}, pod_deleted},
    {{event_resource::persistent_volume_claim, action::add},
     volume_lookup::claim_named_by_pod(true)},
    {{event_resource::volume_attachment, action::remove}, attachment_deleted},
  };
}

pre_filter_result
node_volume_limits::pre_filter(cycle_state& cs, const model::pod& p,
                               const cluster_context& cluster) const {
  if (!any_attachable(p))
    return {status::skip(), std::nullopt};
  auto s = std::make_shared<state>();
  s->storage = cluster.storage;
  // The pod's own volumes are the same on every node: resolve them once.
  const model::storage_view& storage
    = s->storage ? *s->storage : volume_lookup::empty_storage();
  s->wanted_status = attachable_volumes(p, storage, true, s->wanted);
  s->smallest_limit = smallest_limit(storage, s->wanted);
  cs.write(slot(), std::move(s));
  return {};
}

status
node_volume_limits::attachable_volumes(const model::pod_core& p,
                                       const model::storage_view& storage,
                                       bool new_pod, volume_set& out) {
  for (const auto& v : p.volumes) {
    if (v.claim_name.empty()) {
      insert(out, v.attach);
      continue;
    }
    const auto* claim = storage.claim(p.ns, v.claim_name);
    if (claim == nullptr) {
      if (!new_pod)
        continue;
      std::string text = "looking up PVC ";
      text += model::claim_key(p.ns, v.claim_name);
      text += ": ";
      text
        += volume_lookup::not_found(volume_lookup::claim_resource, v.claim_name)
             .view();
      return {code::unschedulable_and_unresolvable, model::symbol{text}};
    }
    if (v.ephemeral && claim->controller_uid != p.uid)
      return status::make_error(
        "PVC " + model::claim_key(claim->ns, claim->name)
        + " was not created for pod " + model::claim_key(p.ns, p.name)
        + " (pod is not owner)");
    insert(out, of_claim(storage, *claim));
  }
  return {};
}

status node_volume_limits::filter(const cycle_state& cs, const model::pod& p,
                                  model::node_view node) const {
  if (p.volumes.empty())
    return {};
  const auto* s = cs.read<state>(slot());
  const model::storage_view& storage
    = s != nullptr && s->storage ? *s->storage
      : cs.cluster != nullptr    ? volume_lookup::storage_of(*cs.cluster)
                                 : volume_lookup::empty_storage();
  volume_set computed;
  if (s != nullptr && !s->wanted_status.ok())
    return s->wanted_status;
  if (s == nullptr)
    if (status st = attachable_volumes(p, storage, true, computed); !st.ok())
      return st;
  const volume_set& own = s != nullptr ? s->wanted : computed;
  if (own.empty())
    return {};
  // Every volume on the node counts at most once against one driver: when
  // even all of them together with the pod's stay within each limit the pod
  // must fit, and no claim needs resolving (most nodes, most of the time).
  // Checked first against the smallest limit in the cluster, which needs
  // nothing but the node itself.
  std::size_t at_most = own.size() + node.pod_volume_count();
  if (!storage.attachments.empty())
    if (auto it = storage.attachments.find(node.name());
        it != storage.attachments.end())
      at_most += it->second.size();
  const std::int64_t smallest
    = s != nullptr ? s->smallest_limit : smallest_limit(storage, own);
  if (static_cast<std::int64_t>(at_most) <= smallest)
    return {};
  const model::csi_node* csi = storage.csi_node_of(node.name());
  if (csi == nullptr)
    return {};
  auto limit_of = [&](std::string_view driver) -> std::optional<std::int64_t> {
    if (const auto* d = csi->driver(driver); d && d->allocatable_count)
      return *d->allocatable_count;
    return std::nullopt;
  };
  bool room_for_all = true;
  for (const auto& [key, driver] : own)
    if (auto limit = limit_of(driver);
        limit && static_cast<std::int64_t>(at_most) > *limit)
      room_for_all = false;
  if (room_for_all)
    return {};
  volume_set wanted = own;
  volume_set in_use;
  status in_use_status;
  node.any_pod([&](const model::pod_core& other) {
    in_use_status = attachable_volumes(other, storage, false, in_use);
    return !in_use_status.ok();
  });
  if (!in_use_status.ok())
    return in_use_status;
  std::unordered_map<std::string, std::int64_t> counted;
  for (const auto& [key, driver] : in_use) {
    // A volume already on the node takes no second attach slot.
    wanted.erase(key);
    ++counted[driver];
  }
  if (auto it = storage.attachments.find(node.name());
      it != storage.attachments.end())
    for (const auto& a : it->second) {
      if (a.driver.empty() || a.handle.empty())
        continue;
      if (in_use.emplace(a.driver + "/" + a.handle, a.driver).second)
        ++counted[a.driver];
    }
  std::unordered_map<std::string, std::int64_t> adding;
  for (const auto& [key, driver] : wanted)
    ++adding[driver];
  for (const auto& [driver, n] : adding) {
    auto limit = limit_of(driver);
    if (limit && counted[driver] + n > *limit)
      return {code::unschedulable, reason_max_volume_count_};
  }
  return {};
}

std::shared_ptr<plugin> make_node_volume_limits() {
  return std::make_shared<node_volume_limits>();
}

} // namespace tessera::plugins
