// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Pod signatures for opportunistic batching (upstream's SignPod): what each
/// plugin reads of a pod, as equality tests over the pod's fields. Two pods
/// have the same signature when every signing plugin of the profile finds
/// its fields equal; comparing fields directly keeps the signature exact
/// and costs no encoding per pod.
#pragma once

#include "model/pod.hpp"
#include "plugins/framework/plugin.hpp"

namespace tessera::plugins {

/// Effective requests (NodeResourcesFit, NodeResourcesBalancedAllocation).
bool same_requests(const model::pod& a, const model::pod& b) noexcept;
/// Tolerations (TaintToleration, NodeUnschedulable).
bool same_tolerations(const model::pod& a, const model::pod& b) noexcept;
/// nodeSelector and node affinity (NodeAffinity).
bool same_node_constraints(const model::pod& a, const model::pod& b) noexcept;
/// spec.nodeName (NodeName).
bool same_node_name(const model::pod& a, const model::pod& b) noexcept;
/// Host ports (NodePorts).
bool same_host_ports(const model::pod& a, const model::pod& b) noexcept;
/// Normalized container images (ImageLocality).
bool same_images(const model::pod& a, const model::pod& b) noexcept;
/// Volumes other than ConfigMap and Secret ones, in order (the volume
/// plugins).
bool same_volumes(const model::pod& a, const model::pod& b) noexcept;
/// Namespace and labels: what existing pods' affinity terms match
/// (InterPodAffinity for pods without terms of their own).
bool same_namespace_and_labels(const model::pod& a,
                               const model::pod& b) noexcept;
/// Any two pods (the plugin reads nothing of a signable pod).
bool always_same(const model::pod& a, const model::pod& b) noexcept;

/// Mixin for a plugin whose Filter and Score read of a pod only what
/// `Same` compares. Every pod is signable unless the plugin overrides
/// `signable`.
template <bool (*Same)(const model::pod&, const model::pod&) noexcept>
class signs_by : public virtual plugin {
public:
  bool signs_pods() const noexcept final {
    return true;
  }
  bool signable(const model::pod& p,
                const cluster_context& cluster) const override {
    (void)p, (void)cluster;
    return true;
  }
  bool same_signature(const model::pod& a, const model::pod& b) const final {
    return Same(a, b);
  }
};

} // namespace tessera::plugins
