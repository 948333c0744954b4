// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_info`: kube-scheduler's NodeInfo. A node together with the pods bound
/// or assumed on it (as `pod_core_ptr`: readers of pods already on a node need
/// no more, and full pods are accepted too) and the aggregates Filter and
/// Score read:
/// - `requested`: sum of the pods' effective requests;
/// - `non_zero_requested`: the same with the scoring defaults;
/// - `used_ports`: host ports in use;
/// - `image_sizes`: normalized image name -> size for images on the node;
/// - `pods_with_affinity` / `pods_with_required_anti_affinity`: the subsets of
///   pods that InterPodAffinity has to look at;
/// - `pod_digests`: each pod's namespace, deletion flag and labels, stored
///   contiguously in the node_info, so that counting the pods a selector
///   matches (InterPodAffinity and PodTopologySpread scans, thousands of
///   nodes per cycle) reads this node's memory instead of every pod object.
///
/// A node_info is built and changed by its single owner (the cache, or a
/// plugin simulating preemption on a private copy) through the mutators below,
/// which update the aggregates incrementally. Once shared it is immutable:
/// actors exchange `node_info_ptr` (`shared_ptr<const node_info>`) and a change
/// makes a new copy. The node may be null when pods reference a node the cache
/// has not seen (or no longer has).
///
/// Like upstream, removing a pod moves the last pod into its slot, and
/// updating a pod removes it and appends the new version. The resource
/// aggregates never keep zero-valued scalar entries, so removing every pod
/// gives back lists equal to the empty ones.
#pragma once

#include "model/node.hpp"
#include "model/pod.hpp"
#include "model/resource_list.hpp"
#include "model/symbol.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace tessera::model {

struct image_size {
  /// Normalized image name.
  symbol name;
  std::int64_t size_bytes = 0;
  friend bool operator==(const image_size&, const image_size&) = default;
};

/// What label-selector scans read of one pod (see node_info::pod_digests).
struct pod_digest {
  symbol ns;
  /// The pod is being deleted (metadata.deletionTimestamp set).
  bool deleting = false;
  /// The pod's labels: node_info::labels_of(*this).
  std::uint32_t first_label = 0;
  std::uint32_t label_count = 0;
};

class node_info {
public:
  node_info() = default;
  explicit node_info(node_ptr n);

  /// The node object; null for a placeholder holding pods of an unknown node.
  const node* get_node() const noexcept {
    return node_.get();
  }
  const node_ptr& node_pointer() const noexcept {
    return node_;
  }
  /// The node's name (also known for placeholders, from their pods).
  symbol name() const noexcept {
    return name_;
  }

  /// Replaces the node object, keeping the pods, and re-indexes the node's
  /// images (a null node behaves as clear_node).
  void set_node(node_ptr n);
  /// Clears the node object (node deleted while pods remain).
  void clear_node();
  /// Adds a pod and updates every aggregate.
  void add_pod(pod_core_ptr p);
  /// Removes the pod with the same identity (see pod_core::same_identity),
  /// subtracting the stored version; returns false when it is not here.
  bool remove_pod(const pod_core& p);
  /// Replaces the pod with the same identity; false when it is not here.
  bool update_pod(pod_core_ptr p);

  const std::vector<pod_core_ptr>& pods() const noexcept {
    return pods_;
  }
  /// One digest per pod, aligned with pods(): pod_digests()[i] describes
  /// pods()[i].
  const std::vector<pod_digest>& pod_digests() const noexcept {
    return pod_digests_;
  }
  /// The labels of a digest of this node_info, sorted by key id.
  label_view labels_of(const pod_digest& d) const noexcept {
    return label_view{std::span<const label>{pod_labels_.data() + d.first_label,
                                             d.label_count}};
  }
  /// Labels stored for the digests: the sum of the pods' label counts.
  std::size_t pod_label_count() const noexcept {
    return pod_labels_.size();
  }
  const std::vector<pod_core_ptr>& pods_with_affinity() const noexcept {
    return pods_with_affinity_;
  }
  const std::vector<pod_core_ptr>&
  pods_with_required_anti_affinity() const noexcept {
    return pods_with_required_anti_affinity_;
  }
  const resource_list& requested() const noexcept {
    return requested_;
  }
  const resource_list& non_zero_requested() const noexcept {
    return non_zero_requested_;
  }
  /// The node's allocatable (all zero for a placeholder).
  const resource_list& allocatable() const noexcept;
  /// The volumes of the node's pods, summed (every kind, each pod's own
  /// count): an upper bound on what the node attaches, so that most nodes
  /// pass the attach limits without a walk over their pods.
  std::size_t pod_volume_count() const noexcept {
    return pod_volume_count_;
  }
  /// Host ports in use, one entry per pod port.
  const std::vector<host_port>& used_ports() const noexcept {
    return used_ports_;
  }
  /// True when `port` conflicts with a port in use.
  bool port_in_use(const host_port& port) const noexcept;
  /// Images on the node by normalized name, sorted by symbol id.
  const auto& image_sizes() const noexcept {
    return image_sizes_;
  }
  /// Size of an image on this node, or 0 when absent.
  std::int64_t image_size_of(symbol normalized_name) const noexcept;

  /// The cache's generation stamp of the last change (0 = never stamped).
  std::uint64_t generation() const noexcept {
    return generation_;
  }
  void set_generation(std::uint64_t g) noexcept {
    generation_ = g;
  }

private:
  void index_images();
  void account(const pod_core& p, int sign);
  void add_digest(const pod_core& p);
  void remove_digest(std::size_t index);

  node_ptr node_;
  symbol name_;
  std::vector<pod_core_ptr> pods_;
  std::vector<pod_digest> pod_digests_;
  /// The pods' labels back to back; a digest's range may sit anywhere.
  std::vector<label> pod_labels_;
  std::vector<pod_core_ptr> pods_with_affinity_;
  std::vector<pod_core_ptr> pods_with_required_anti_affinity_;
  resource_list requested_;
  resource_list non_zero_requested_;
  std::vector<host_port> used_ports_;
  std::size_t pod_volume_count_ = 0;
  boost::container::small_vector<image_size, 4> image_sizes_;
  std::uint64_t generation_ = 0;
};

using node_info_ptr = std::shared_ptr<const node_info>;

} // namespace tessera::model
