// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The selector of a pod's default spreading constraints, as kube-scheduler
/// builds it: the labels of every Service in the pod's namespace whose
/// selector matches the pod, merged; then, when the pod's controller
/// reference names a v1 ReplicationController, its selector map merged in
/// too, or for an apps/v1 ReplicaSet or StatefulSet, that object's selector
/// requirements added. An empty result means no default constraints apply.
#pragma once

#include "model/labels.hpp"
#include "model/pod.hpp"
#include "plugins/framework/cluster_context.hpp"

namespace tessera::plugins {

model::label_selector default_selector(const model::pod& p,
                                       const workload_index& workloads);

} // namespace tessera::plugins
