// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/claim_lookup.hpp"

#include "support/text.hpp"

#include <algorithm>
#include <string>

namespace tessera::plugins::volume_lookup {

const model::storage_view& empty_storage() noexcept {
  static const model::storage_view empty;
  return empty;
}

const model::storage_view& storage_of(const cluster_context& cluster) noexcept {
  return cluster.storage ? *cluster.storage : empty_storage();
}

model::symbol not_found(std::string_view resource, std::string_view name) {
  std::string text{resource};
  text += ' ';
  text += go_quote(name);
  text += " not found";
  return model::symbol{text};
}

status claim_not_found(std::string_view claim) {
  return {code::unschedulable_and_unresolvable,
          not_found(claim_resource, claim)};
}

bool names_claim(const model::pod& p, std::string_view claim,
                 bool ephemeral_too) noexcept {
  return std::any_of(
    p.volumes.begin(), p.volumes.end(), [&](const model::volume& v) {
      return (ephemeral_too ? !v.claim_name.empty() : is_claim_volume(v))
             && v.claim_name == claim;
    });
}

hint_function claim_named_by_pod(bool ephemeral_too) {
  return
    [ephemeral_too](const model::pod& waiting, const model::object* old_object,
                    const model::object* new_object) {
      const auto* claim = object_as<model::persistent_volume_claim_ptr>(
        new_object != nullptr ? new_object : old_object);
      if (claim == nullptr)
        return queueing_hint::queue;
      return claim->ns == waiting.ns
                 && names_claim(waiting, claim->name, ephemeral_too)
               ? queueing_hint::queue
               : queueing_hint::skip;
    };
}

} // namespace tessera::plugins::volume_lookup
