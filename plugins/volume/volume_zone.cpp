// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/volume_zone.hpp"

#include "plugins/volume/claim_lookup.hpp"
#include "support/text.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace tessera::plugins {

namespace {

constexpr std::string_view beta_zone = "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view beta_region
  = "failure-domain.beta.kubernetes.io/region";
constexpr std::string_view ga_zone = "topology.kubernetes.io/zone";
constexpr std::string_view ga_region = "topology.kubernetes.io/region";

/// The beta zone, beta region, GA zone and GA region keys.
const std::array<model::symbol, 4>& topology_keys() {
  static const std::array<model::symbol, 4> keys
    = {model::symbol{beta_zone}, model::symbol{beta_region},
       model::symbol{ga_zone}, model::symbol{ga_region}};
  return keys;
}

/// The zones of a "__"-separated label value, sorted and unique; nullopt
/// when an entry is empty (the label is then ignored).
std::optional<std::vector<std::string>> zones_of(std::string_view value) {
  constexpr std::string_view delimiter = "__";
  std::vector<std::string> out;
  for (;;) {
    auto at = value.find(delimiter);
    std::string_view zone = trim_blanks(value.substr(0, at));
    if (zone.empty())
      return std::nullopt;
    out.emplace_back(zone);
    if (at == std::string_view::npos)
      break;
    value.remove_prefix(at + delimiter.size());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace

volume_zone::volume_zone()
  : reason_conflict_("node(s) had no available volume zone"),
    reason_no_pv_or_class_(
      "PersistentVolumeClaim had no pv name and storageClass name"),
    reason_no_pv_name_("PersistentVolume had no name") {
}

std::vector<volume_zone::volume_topology>
volume_zone::topologies_of(const model::persistent_volume& pv) {
  std::vector<volume_topology> out;
  for (auto key : topology_keys()) {
    const model::symbol* value = pv.labels.find(key);
    if (value == nullptr)
      continue;
    if (auto zones = zones_of(value->view()))
      out.push_back({key, std::move(*zones)});
  }
  return out;
}

std::vector<cluster_event_with_hint> volume_zone::events_to_register() const {
  auto class_added = [](const model::pod&, const model::object* old_object,
                        const model::object* new_object) {
    const auto* cls = object_as<model::storage_class_ptr>(
      new_object != nullptr ? new_object : old_object);
    if (cls == nullptr)
      return queueing_hint::queue;
    return cls->binding == model::binding_mode::wait_for_first_consumer
             ? queueing_hint::queue
             : queueing_hint::skip;
  };
  auto volume_changed = [](const model::pod&, const model::object* old_object,
                           const model::object* new_object) {
    const auto* before = object_as<model::persistent_volume_ptr>(old_object);
    const auto* after = object_as<model::persistent_volume_ptr>(new_object);
    if (before == nullptr || after == nullptr)
      return queueing_hint::queue;
    return topologies_of(*before) != topologies_of(*after)
             ? queueing_hint::queue
             : queueing_hint::skip;
  };
  return {
    {{event_resource::storage_class, action::add}, class_added},
    {{event_resource::node, action::add | action::update_node_label}, {}},
    {{event_resource::persistent_volume_claim, action::add | action::update},
     volume_lookup::claim_named_by_pod(false)},
    {{event_resource::persistent_volume, action::add | action::update},
     volume_changed},
  };
}

pre_filter_result
volume_zone::pre_filter(cycle_state& cs, const model::pod& p,
                        const cluster_context& cluster) const {
  const auto& storage = volume_lookup::storage_of(cluster);
  auto reject = [](model::symbol reason) {
    return status{code::unschedulable_and_unresolvable, reason};
  };
  auto s = std::make_shared<state>();
  status found = volume_lookup::for_each_claim(
    storage, p, [&](const model::persistent_volume_claim& claim) {
      if (claim.volume_name.empty()) {
        std::string_view class_name = claim.class_name();
        if (class_name.empty())
          return reject(reason_no_pv_or_class_);
        const auto* cls = storage.class_named(class_name);
        if (cls == nullptr)
          return reject(volume_lookup::not_found(volume_lookup::class_resource,
                                                 class_name));
        // An unbound claim waiting for its consumer has no zone yet.
        if (cls->binding == model::binding_mode::wait_for_first_consumer)
          return status{};
        return reject(reason_no_pv_name_);
      }
      const auto* pv = storage.volume(claim.volume_name);
      if (pv == nullptr)
        return reject(volume_lookup::not_found(volume_lookup::volume_resource,
                                               claim.volume_name));
      auto labels = topologies_of(*pv);
      s->topologies.insert(s->topologies.end(),
                           std::make_move_iterator(labels.begin()),
                           std::make_move_iterator(labels.end()));
      return status{};
    });
  if (!found.ok())
    return {found, std::nullopt};
  if (s->topologies.empty())
    return {status::skip(), std::nullopt};
  cs.write(slot(), std::move(s));
  return {};
}

status volume_zone::filter(const cycle_state& cs, const model::pod& p,
                           model::node_view node) const {
  if (p.volumes.empty())
    return {};
  const auto* s = cs.read<state>(slot());
  if (s == nullptr)
    return status::make_error("VolumeZone: PreFilter state missing for Filter");
  const model::node* n = node.get_node();
  if (n == nullptr)
    return status::make_error("VolumeZone: node not found");
  const auto& labels = n->labels;
  const auto& keys = topology_keys();
  if (std::none_of(keys.begin(), keys.end(),
                   [&](model::symbol key) { return labels.contains(key); }))
    return {};
  for (const auto& t : s->topologies) {
    const model::symbol* value = labels.find(t.key);
    if (value == nullptr) {
      // A beta volume label is matched by the node's GA label as well.
      if (t.key == keys[0])
        value = labels.find(keys[2]);
      else if (t.key == keys[1])
        value = labels.find(keys[3]);
    }
    if (value == nullptr
        || !std::binary_search(t.values.begin(), t.values.end(), value->view()))
      return {code::unschedulable_and_unresolvable, reason_conflict_};
  }
  return {};
}

std::shared_ptr<plugin> make_volume_zone() {
  return std::make_shared<volume_zone>();
}

} // namespace tessera::plugins
