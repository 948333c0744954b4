// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/dynamic_resources/dynamic_resources.hpp"

#include <string>

namespace tessera::plugins {

pre_filter_result dynamic_resources::pre_filter(cycle_state&,
                                                const model::pod& p,
                                                const cluster_context&) const {
  if (p.resource_claims.empty())
    return {status::skip(), std::nullopt};
  // Rare (only pods with claims reach here), so the message is built and
  // interned per pod.
  std::string text;
  for (const auto& c : p.resource_claims) {
    text += text.empty() ? "pod has resource claim \"" : ", \"";
    text += c.name + '"';
    if (!c.claim_name.empty())
      text += " (ResourceClaim \"" + c.claim_name + "\")";
    else if (!c.template_name.empty())
      text += " (ResourceClaimTemplate \"" + c.template_name + "\")";
  }
  text += ": tessera does not allocate dynamic resources yet";
  return {{code::unschedulable_and_unresolvable, model::symbol{text}},
          std::nullopt};
}

std::shared_ptr<plugin> make_dynamic_resources() {
  return std::make_shared<dynamic_resources>();
}

} // namespace tessera::plugins
