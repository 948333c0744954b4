// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/volume_restrictions.hpp"

#include "model/storage.hpp"
#include "plugins/framework/slot_rewrite.hpp"
#include "plugins/volume/claim_lookup.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace {

enum class disk_kind : std::uint8_t { none, gce_pd, aws_ebs, iscsi, rbd };

disk_kind kind_of(const model::volume& v) noexcept {
  if (v.type == "gcePersistentDisk")
    return disk_kind::gce_pd;
  if (v.type == "awsElasticBlockStore")
    return disk_kind::aws_ebs;
  if (v.type == "iscsi")
    return disk_kind::iscsi;
  if (v.type == "rbd")
    return disk_kind::rbd;
  return disk_kind::none;
}

bool share_a_monitor(const std::vector<std::string>& a,
                     const std::vector<std::string>& b) noexcept {
  return std::any_of(a.begin(), a.end(), [&](const std::string& m) {
    return std::find(b.begin(), b.end(), m) != b.end();
  });
}

/// The disk rule for two volumes of the same kind and identity.
bool same_disk_conflicts(disk_kind kind, const model::volume& a,
                         const model::volume& b) noexcept {
  const bool both_read_only = a.read_only && b.read_only;
  switch (kind) {
  case disk_kind::aws_ebs:
    // An EBS volume attaches to one instance for one pod, read-only or not.
    return true;
  case disk_kind::rbd:
    return share_a_monitor(a.rbd_monitors, b.rbd_monitors) && !both_read_only;
  case disk_kind::gce_pd:
  case disk_kind::iscsi:
    return !both_read_only;
  case disk_kind::none:
    break;
  }
  return false;
}

bool volume_conflicts(const model::volume& wanted,
                      const model::pod_core& existing) noexcept {
  disk_kind kind = kind_of(wanted);
  if (kind == disk_kind::none)
    return false;
  for (const auto& other : existing.volumes)
    if (kind_of(other) == kind && other.disk_id == wanted.disk_id
        && same_disk_conflicts(kind, wanted, other))
      return true;
  return false;
}

bool has_inline_disk(const model::pod& p) noexcept {
  return std::any_of(
    p.volumes.begin(), p.volumes.end(),
    [](const model::volume& v) { return kind_of(v) != disk_kind::none; });
}

/// How many of `claims` (names in `to_schedule`'s namespace) `other` uses.
std::int32_t uses_of(const volume_restrictions::state& s,
                     const model::pod& to_schedule,
                     const model::pod_core& other) {
  // Upstream compares claim names only; a claim is namespaced, so a pod of
  // another namespace never uses the same one.
  if (other.ns != to_schedule.ns)
    return 0;
  std::int32_t n = 0;
  for (const auto& v : other.volumes)
    if (volume_lookup::is_claim_volume(v)
        && std::find(s.read_write_once_pod_claims.begin(),
                     s.read_write_once_pod_claims.end(), v.claim_name)
             != s.read_write_once_pod_claims.end())
      ++n;
  return n;
}

status shift_count(cycle_state& cs, std::size_t slot,
                   const model::pod& to_schedule, const model::pod_core& other,
                   std::int32_t sign) {
  const auto* current = cs.read<volume_restrictions::state>(slot);
  if (current == nullptr)
    return status::make_error(
      "VolumeRestrictions: PreFilter state missing for AddPod/RemovePod");
  std::int32_t delta = sign * uses_of(*current, to_schedule, other);
  if (delta == 0)
    return {};
  rewrite_slot<volume_restrictions::state>(
    cs, slot, [&](volume_restrictions::state& s) { s.conflicting += delta; });
  return {};
}

} // namespace

volume_restrictions::volume_restrictions()
  : reason_disk_conflict_("node(s) had no available disk"),
    reason_read_write_once_pod_(
      "node has pod using PersistentVolumeClaim with the same name and "
      "ReadWriteOncePod access mode") {
}

bool volume_restrictions::disks_conflict(
  const model::pod& wanted, const model::pod_core& existing) noexcept {
  return std::any_of(
    wanted.volumes.begin(), wanted.volumes.end(),
    [&](const model::volume& v) { return volume_conflicts(v, existing); });
}

std::vector<cluster_event_with_hint>
volume_restrictions::events_to_register() const {
  // Volumes are immutable, so only a deletion frees a disk or a claim.
  auto pod_deleted
    = [](const model::pod& waiting, const model::object* old_object,
         const model::object* new_object) {
        const model::pod* gone = object_as<model::pod_ptr>(
          old_object != nullptr ? old_object : new_object);
        if (gone == nullptr)
          return queueing_hint::queue;
        if (gone->ns != waiting.ns)
          return queueing_hint::skip;
        if (disks_conflict(waiting, *gone))
          return queueing_hint::queue;
        for (const auto& v : gone->volumes)
          if (volume_lookup::is_claim_volume(v)
              && volume_lookup::names_claim(waiting, v.claim_name))
            return queueing_hint::queue;
        return queueing_hint::skip;
      };
  return {
    {{event_resource::pod, action::remove}, pod_deleted},
    {{event_resource::node, action::add}, {}},
    {{event_resource::persistent_volume_claim, action::add},
     volume_lookup::claim_named_by_pod(false)},
  };
}

pre_filter_result
volume_restrictions::pre_filter(cycle_state& cs, const model::pod& p,
                                const cluster_context& cluster) const {
  const auto& storage = volume_lookup::storage_of(cluster);
  auto s = std::make_shared<state>();
  status found = volume_lookup::for_each_claim(
    storage, p, [&](const model::persistent_volume_claim& claim) {
      auto& claims = s->read_write_once_pod_claims;
      if ((claim.access_modes & model::read_write_once_pod) == 0
          || std::find(claims.begin(), claims.end(), claim.name)
               != claims.end())
        return status{};
      claims.push_back(claim.name);
      // The pod being scheduled is neither bound nor assumed, so every user
      // the view counts is another pod.
      if (storage.users_of(p.ns, claim.name) > 0)
        ++s->conflicting;
      return status{};
    });
  if (!found.ok())
    return {found, std::nullopt};
  if (!has_inline_disk(p) && s->read_write_once_pod_claims.empty())
    return {status::skip(), std::nullopt};
  cs.write(slot(), std::move(s));
  return {};
}

status volume_restrictions::update_with_pod(cycle_state& cs,
                                            const model::pod& to_schedule,
                                            const model::pod_core& changed,
                                            model::node_view,
                                            std::int64_t delta) const {
  return shift_count(cs, slot(), to_schedule, changed,
                     static_cast<std::int32_t>(delta));
}

status volume_restrictions::filter(const cycle_state& cs, const model::pod& p,
                                   model::node_view node) const {
  if (has_inline_disk(p) && node.any_pod([&](const model::pod_core& existing) {
        return disks_conflict(p, existing);
      }))
    return {code::unschedulable, reason_disk_conflict_};
  const auto* s = cs.read<state>(slot());
  if (s == nullptr)
    return status::make_error(
      "VolumeRestrictions: PreFilter state missing for Filter");
  if (s->conflicting > 0)
    return {code::unschedulable, reason_read_write_once_pod_};
  return {};
}

std::shared_ptr<plugin> make_volume_restrictions() {
  return std::make_shared<volume_restrictions>();
}

} // namespace tessera::plugins
