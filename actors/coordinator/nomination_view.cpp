// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/nomination_view.hpp"

#include "model/pod_key.hpp"

#include <memory>
#include <vector>

namespace tessera::actors {

void nomination_view::from_queue(const nominations_ptr& snapshot,
                                 std::uint64_t handled) {
  if (snapshot) {
    queue_ = snapshot;
    dirty_ = true;
  }
  // Every change the queue has handled is in (or already gone from) its
  // snapshot.
  for (auto it = own_.begin(); it != own_.end();) {
    if (it->second.outcome <= handled) {
      it = own_.erase(it);
      dirty_ = true;
    } else {
      ++it;
    }
  }
}

void nomination_view::nominate(const model::pod_ptr& pod, model::symbol node,
                               std::uint64_t outcome) {
  own_[model::pod_key(*pod)] = change{pod, node, outcome};
  dirty_ = true;
}

void nomination_view::drop(const model::pod_ptr& pod, std::uint64_t outcome) {
  // Called for every assumed pod: no key to build when nothing is nominated.
  if (own_.empty() && pod->nominated_node_name.empty())
    return;
  std::string key = model::pod_key(*pod);
  auto it = own_.find(key);
  // The queue's snapshot names a pod's nomination once its status update
  // came back; before that, the nomination is still in own_.
  bool nominated = it != own_.end() ? !it->second.node.empty()
                                    : !pod->nominated_node_name.empty();
  if (!nominated)
    return;
  own_[std::move(key)] = change{pod, {}, outcome};
  dirty_ = true;
}

nominations_ptr nomination_view::current() {
  if (!dirty_)
    return merged_;
  dirty_ = false;
  if (own_.empty()) {
    merged_ = queue_;
    return merged_;
  }
  // own_ is small (changes not yet acknowledged): match the snapshot's pods
  // against it by namespace and name, without building keys.
  std::vector<const model::pod*> overridden;
  overridden.reserve(own_.size());
  for (const auto& [key, c] : own_)
    overridden.push_back(c.pod.get());
  auto is_overridden = [&](const model::pod& p) {
    for (const auto* o : overridden)
      if (o->ns == p.ns && o->name == p.name)
        return true;
    return false;
  };
  auto merged = std::make_shared<nominations>();
  if (queue_)
    for (const auto& [node, pods] : queue_->by_node)
      for (const auto& p : pods)
        if (!is_overridden(*p))
          merged->by_node[node].push_back(p);
  for (const auto& [key, c] : own_)
    if (!c.node.empty())
      merged->by_node[c.node].push_back(c.pod);
  merged_ = std::move(merged);
  return merged_;
}

} // namespace tessera::actors
