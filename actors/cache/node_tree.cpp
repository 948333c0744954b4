// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/cache/node_tree.hpp"

#include "model/node.hpp"

#include <algorithm>

namespace tessera::actors {

model::symbol zone_key(const model::label_set& labels) {
  static const model::symbol region_key{model::node_labels::region};
  static const model::symbol zone_label{model::node_labels::zone};
  const model::symbol* region = labels.find(region_key);
  const model::symbol* zone = labels.find(zone_label);
  if (region == nullptr && zone == nullptr)
    return {};
  std::string key;
  if (region != nullptr)
    key += region->view();
  key += ":";
  key.push_back('\0');
  key += ":";
  if (zone != nullptr)
    key += zone->view();
  return model::symbol{key};
}

void node_tree::add(model::symbol node, model::symbol zone) {
  if (zone_of_.count(node) != 0)
    return;
  auto [it, fresh] = tree_.try_emplace(zone);
  if (fresh)
    zones_.push_back(zone);
  it->second.push_back(node);
  zone_of_.emplace(node, zone);
}

void node_tree::remove(model::symbol node) {
  auto found = zone_of_.find(node);
  if (found == zone_of_.end())
    return;
  model::symbol zone = found->second;
  zone_of_.erase(found);
  auto& members = tree_[zone];
  members.erase(std::find(members.begin(), members.end(), node));
  if (members.empty()) {
    tree_.erase(zone);
    zones_.erase(std::find(zones_.begin(), zones_.end(), zone));
  }
}

void node_tree::update(model::symbol node, model::symbol zone) {
  auto found = zone_of_.find(node);
  if (found != zone_of_.end() && found->second == zone)
    return;
  remove(node);
  add(node, zone);
}

std::vector<model::symbol> node_tree::list() const {
  std::vector<model::symbol> out;
  out.reserve(zone_of_.size());
  for (std::size_t index = 0; out.size() < zone_of_.size(); ++index) {
    bool any = false;
    for (auto zone : zones_) {
      const auto& members = tree_.at(zone);
      if (index < members.size()) {
        out.push_back(members[index]);
        any = true;
      }
    }
    if (!any)
      break;
  }
  return out;
}

} // namespace tessera::actors
