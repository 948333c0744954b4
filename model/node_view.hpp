// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_view`: what Filter and AddPod / RemovePod plugins may read of a node.
/// It is a node_info seen either as it is (the implicit conversion, free) or
/// with some extra pods on top, as if they already ran there: the pods
/// nominated to the node in the first of the two Filter passes. The extra
/// pods are not copied into the node_info; the view combines them with it in
/// each accessor:
/// - `requested()`: the node's requests plus theirs (summed once, by
///   `node_overlay`);
/// - `pod_count()`, `pod_volume_count()`: both counted;
/// - `port_in_use()`: a conflict with any of both sets of host ports;
/// - `any_pod()`, `for_each_pod()`: the node's pods, then the extra ones.
///
/// The accessors are the only ones a filter gets, so a plugin that needs
/// something more of the node's pods has to add it here, where the extra pods
/// are accounted for too.
#pragma once

#include "model/node_info.hpp"

#include <span>
#include <vector>

namespace tessera::model {

class node_overlay;

/// Two pointers, passed by value: in registers, so that a filter reads a
/// plain node as fast as through a node_info reference.
class node_view {
public:
  /// The node as it is. Implicit on purpose: every caller without extra pods
  /// passes its node_info unchanged. The view must not outlive `n`.
  node_view(const node_info& n) noexcept // NOLINT(google-explicit-constructor)
    : base_(&n) {
  }
  /// The overlay's node with its pods on top; valid while the overlay is
  /// neither reset nor added to.
  explicit node_view(const node_overlay& o) noexcept;

  /// The node object; null for a placeholder (see node_info::get_node).
  const node* get_node() const noexcept {
    return base_->get_node();
  }
  symbol name() const noexcept {
    return base_->name();
  }
  /// The node's allocatable (all zero for a placeholder).
  const resource_list& allocatable() const noexcept {
    const node* n = base_->get_node();
    return n != nullptr ? n->allocatable : base_->allocatable();
  }
  /// Sum of the effective requests of every pod here, extra ones included.
  inline const resource_list& requested() const noexcept;
  /// Pods here, extra ones included.
  inline std::size_t pod_count() const noexcept;
  /// The volumes of every pod here, summed (see node_info).
  inline std::size_t pod_volume_count() const noexcept;
  /// True when `port` conflicts with a host port of any pod here.
  bool port_in_use(const host_port& port) const noexcept;
  /// The pods on top of the node_info (empty for a plain node).
  inline std::span<const pod_core* const> extra() const noexcept;
  /// True when `pred(const pod_core&)` holds for a pod here: the node's pods in
  /// node_info order, then the extra ones in the order they were added.
  template <class Pred> bool any_pod(Pred&& pred) const {
    for (const auto& q : base_->pods())
      if (pred(*q))
        return true;
    for (const pod_core* q : extra())
      if (pred(*q))
        return true;
    return false;
  }
  /// Calls `f(const pod_core&)` for every pod here, in any_pod's order.
  template <class F> void for_each_pod(F&& f) const {
    any_pod([&](const pod_core& q) {
      f(q);
      return false;
    });
  }

private:
  const node_info* base_;
  /// Null for a plain node.
  const node_overlay* overlay_ = nullptr;
};

/// The storage behind a node_view with extra pods: their list and the summed
/// requests. Reused across nodes (reset, add, view), so that its buffers keep
/// their capacity and nothing of the node is copied.
class node_overlay {
public:
  /// Starts over on `base` with no extra pods.
  void reset(const node_info& base);
  /// Counts `p` as running on the node; `p` must outlive the views.
  void add(const pod_core& p);
  /// True when no pod was added since reset.
  bool empty() const noexcept {
    return extra_.empty();
  }
  /// The base node with the pods added so far.
  node_view view() const noexcept {
    return node_view{*this};
  }

private:
  friend class node_view;
  const node_info* base_ = nullptr;
  std::vector<const pod_core*> extra_;
  resource_list requested_;
  std::size_t extra_volumes_ = 0;
};

inline node_view::node_view(const node_overlay& o) noexcept
  : base_(o.base_), overlay_(&o) {
}

inline const resource_list& node_view::requested() const noexcept {
  return overlay_ != nullptr ? overlay_->requested_ : base_->requested();
}

inline std::size_t node_view::pod_count() const noexcept {
  return base_->pods().size()
         + (overlay_ != nullptr ? overlay_->extra_.size() : 0);
}

inline std::size_t node_view::pod_volume_count() const noexcept {
  return base_->pod_volume_count()
         + (overlay_ != nullptr ? overlay_->extra_volumes_ : 0);
}

inline std::span<const pod_core* const> node_view::extra() const noexcept {
  if (overlay_ == nullptr)
    return {};
  return overlay_->extra_;
}

} // namespace tessera::model
