// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/node_info.hpp"

#include <algorithm>
#include <utility>

namespace tessera::model {

namespace {

// Removes the pod with `p`'s identity by moving the last element into its
// slot, as kube-scheduler's NodeInfo does (so pod order after a removal
// matches upstream's).
bool swap_remove(std::vector<pod_core_ptr>& pods, const pod_core& p) {
  for (std::size_t i = 0; i < pods.size(); ++i) {
    if (!pods[i]->same_identity(p))
      continue;
    if (i + 1 != pods.size())
      pods[i] = std::move(pods.back());
    pods.pop_back();
    return true;
  }
  return false;
}

// Node aggregates never keep zero-valued scalar entries, so that adding and
// then removing the same pods restores a list equal to the empty one.
void drop_zero_scalars(resource_list& r) {
  const auto& scalars = r.scalars();
  bool any_zero = std::any_of(scalars.begin(), scalars.end(),
                              [](const auto& s) { return s.value == 0; });
  if (!any_zero)
    return;
  resource_list kept;
  kept.milli_cpu = r.milli_cpu;
  kept.memory = r.memory;
  kept.ephemeral_storage = r.ephemeral_storage;
  kept.pods = r.pods;
  for (const auto& s : scalars)
    if (s.value != 0)
      kept.set_scalar(s.name, s.value);
  r = std::move(kept);
}

// pod::non_zero_requests rebuilt from the core, which keeps only the two
// resources the scoring defaults change.
resource_list non_zero_requests_of(const pod_core& p) {
  resource_list out = p.requests;
  out.milli_cpu = p.non_zero_milli_cpu;
  out.memory = p.non_zero_memory;
  return out;
}

} // namespace

node_info::node_info(node_ptr n) {
  set_node(std::move(n));
}

void node_info::set_node(node_ptr n) {
  if (!n) {
    clear_node();
    return;
  }
  node_ = std::move(n);
  name_ = node_->name;
  index_images();
}

void node_info::clear_node() {
  node_.reset();
  image_sizes_.clear();
}

void node_info::add_pod(pod_core_ptr p) {
  if (!p)
    return;
  if (name_.empty())
    name_ = p->node_name;
  account(*p, +1);
  if (p->has_pod_affinity_terms)
    pods_with_affinity_.push_back(p);
  if (p->has_required_anti_affinity)
    pods_with_required_anti_affinity_.push_back(p);
  add_digest(*p);
  pods_.push_back(std::move(p));
}

bool node_info::remove_pod(const pod_core& p) {
  auto it
    = std::find_if(pods_.begin(), pods_.end(),
                   [&](const pod_core_ptr& q) { return q->same_identity(p); });
  if (it == pods_.end())
    return false;
  // Subtract what was added: the stored pod, not the caller's version.
  pod_core_ptr stored = *it;
  // The digests follow pods_ through the same swap-remove.
  remove_digest(static_cast<std::size_t>(it - pods_.begin()));
  swap_remove(pods_, *stored);
  swap_remove(pods_with_affinity_, *stored);
  swap_remove(pods_with_required_anti_affinity_, *stored);
  account(*stored, -1);
  return true;
}

bool node_info::update_pod(pod_core_ptr p) {
  // Remove then append, as the scheduler cache does: the updated pod moves
  // to the end of the list.
  if (!p || !remove_pod(*p))
    return false;
  add_pod(std::move(p));
  return true;
}

const resource_list& node_info::allocatable() const noexcept {
  static const resource_list none;
  return node_ ? node_->allocatable : none;
}

bool node_info::port_in_use(const host_port& port) const noexcept {
  return std::any_of(
    used_ports_.begin(), used_ports_.end(),
    [&](const host_port& used) { return conflicts(port, used); });
}

std::int64_t node_info::image_size_of(symbol normalized_name) const noexcept {
  auto it = std::lower_bound(
    image_sizes_.begin(), image_sizes_.end(), normalized_name,
    [](const image_size& i, symbol name) { return i.name < name; });
  if (it == image_sizes_.end() || it->name != normalized_name)
    return 0;
  return it->size_bytes;
}

void node_info::index_images() {
  image_sizes_.clear();
  if (!node_)
    return;
  // Every name of every image maps to that image's size; when two images
  // share a name the later one wins.
  for (const auto& image : node_->images) {
    for (auto raw : image.names) {
      symbol name{normalize_image_name(raw.view())};
      auto it = std::lower_bound(
        image_sizes_.begin(), image_sizes_.end(), name,
        [](const image_size& i, symbol n) { return i.name < n; });
      if (it != image_sizes_.end() && it->name == name)
        it->size_bytes = image.size_bytes;
      else
        image_sizes_.insert(it, image_size{name, image.size_bytes});
    }
  }
}

void node_info::add_digest(const pod_core& p) {
  const label_set& labels = p.labels;
  pod_digests_.push_back({p.ns, p.deleting,
                          static_cast<std::uint32_t>(pod_labels_.size()),
                          static_cast<std::uint32_t>(labels.size())});
  pod_labels_.insert(pod_labels_.end(), labels.begin(), labels.end());
}

void node_info::remove_digest(std::size_t index) {
  const pod_digest gone = pod_digests_[index];
  // Close the gap in the label array and shift the ranges behind it.
  auto first = pod_labels_.begin() + gone.first_label;
  pod_labels_.erase(first, first + gone.label_count);
  for (auto& d : pod_digests_)
    if (d.first_label > gone.first_label)
      d.first_label -= gone.label_count;
  if (index + 1 != pod_digests_.size())
    pod_digests_[index] = pod_digests_.back();
  pod_digests_.pop_back();
}

void node_info::account(const pod_core& p, int sign) {
  const resource_list non_zero = non_zero_requests_of(p);
  if (sign > 0) {
    requested_.add(p.requests);
    non_zero_requested_.add(non_zero);
    used_ports_.insert(used_ports_.end(), p.host_ports.begin(),
                       p.host_ports.end());
    pod_volume_count_ += p.volumes.size();
  } else {
    pod_volume_count_ -= std::min(pod_volume_count_, p.volumes.size());
    requested_.subtract(p.requests);
    non_zero_requested_.subtract(non_zero);
    for (const auto& hp : p.host_ports) {
      auto it = std::find(used_ports_.begin(), used_ports_.end(), hp);
      if (it != used_ports_.end())
        used_ports_.erase(it);
    }
  }
  drop_zero_scalars(requested_);
  drop_zero_scalars(non_zero_requested_);
}

} // namespace tessera::model
