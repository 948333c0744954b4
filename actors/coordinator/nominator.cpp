// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/nominator.hpp"

#include "model/pod_key.hpp"

#include <memory>

namespace tessera::actors {

void nominator::apply(const queue_input& in) {
  using kind = queue_input::kind;
  // The API's view of a pod this coordinator placed, or one already bound,
  // names no room to hold (see the file comment).
  auto placed_or_bound = [this](const model::pod& p) {
    if (!p.node_name.empty()) {
      if (!placed_.empty())
        placed_.erase(model::pod_key(p));
      return true;
    }
    return !placed_.empty() && placed_.count(model::pod_key(p)) != 0;
  };
  switch (in.type) {
  case kind::pod_added:
    if (placed_or_bound(*in.new_pod))
      drop(*in.new_pod);
    else if (!in.new_pod->nominated_node_name.empty())
      nominate_from_api(in.new_pod);
    return;
  case kind::pod_updated:
    if (placed_or_bound(*in.new_pod)) {
      drop(*in.new_pod);
      return;
    }
    if (in.new_pod->nominated_node_name == in.old_pod->nominated_node_name)
      return;
    if (in.new_pod->nominated_node_name.empty())
      drop(*in.new_pod);
    else
      nominate_from_api(in.new_pod);
    return;
  case kind::pod_deleted:
    if (!placed_.empty())
      placed_.erase(model::pod_key(*in.old_pod));
    drop(*in.old_pod);
    return;
  case kind::cluster_event:
    return;
  }
}

void nominator::nominate(const model::pod_ptr& pod, model::symbol node) {
  if (!placed_.empty())
    placed_.erase(model::pod_key(*pod));
  record(pod, node);
}

void nominator::nominate_from_api(const model::pod_ptr& pod) {
  record(pod, pod->nominated_node_name);
}

void nominator::placed(const model::pod& pod) {
  placed_.insert(model::pod_key(pod));
  drop(pod);
}

void nominator::record(const model::pod_ptr& pod, model::symbol node) {
  auto& slot = by_pod_[model::pod_key(*pod)];
  if (slot.first == node && slot.second == pod)
    return;
  if (slot.second)
    next_.remove(slot.first, slot.second);
  slot = {node, pod};
  next_.add(node, pod);
  dirty_ = true;
}

void nominator::drop(const model::pod& pod) {
  // Called for every assumed pod: no key to build when nothing is nominated.
  if (by_pod_.empty())
    return;
  auto it = by_pod_.find(model::pod_key(pod));
  if (it == by_pod_.end())
    return;
  next_.remove(it->second.first, it->second.second);
  by_pod_.erase(it);
  dirty_ = true;
}

nominations_ptr nominator::current() {
  if (!dirty_)
    return snapshot_;
  dirty_ = false;
  snapshot_ = std::make_shared<const nominations>(next_);
  return snapshot_;
}

} // namespace tessera::actors
