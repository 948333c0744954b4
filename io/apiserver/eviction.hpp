// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The `pods/eviction` subresource (POST of a policy/v1 Eviction), which
/// `kubectl drain` uses, with kube-apiserver's rules:
/// - a missing pod is 404; a pod that is Pending, Succeeded, Failed or being
///   deleted is deleted without consulting any budget;
/// - otherwise the PodDisruptionBudgets of its namespace whose non-empty
///   selector matches it decide: none = delete; more than one = 500
///   ("This pod has more than one PodDisruptionBudget, ..."); one with
///   disruptionsAllowed 0 = 429 TooManyRequests "Cannot evict pod as it
///   would violate the pod's disruption budget." with a `DisruptionBudget`
///   cause; negative = 403; otherwise its status is updated first
///   (disruptionsAllowed - 1, the pod in disruptedPods, the
///   DisruptionAllowed condition) and the pod is deleted with the
///   Eviction's DeleteOptions (grace period, preconditions, dryRun);
/// - a pod that is not Ready is deleted without taking from the budget when
///   the budget's unhealthyPodEvictionPolicy is AlwaysAllow or it has its
///   desired healthy pods;
/// - success is 201 with a Status Success.
///
/// Simplified: the embedded cluster runs no disruption controller, so a
/// budget whose status is not current (status.observedGeneration below
/// metadata.generation, as for every budget nothing has written a status
/// for) gets the status that controller would write, computed from the pods
/// and their controllers' replicas at the time of the eviction
/// (model::pdb_status, `controllers_scale`), where kube-apiserver
/// answers 429 until its controller caught up. A status written with a
/// current observedGeneration is taken as it is, as upstream.
#pragma once

#include "io/apiserver/store.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace tessera::apiserver {

/// 422 Invalid unless `policy` is Orphan, Background or Foreground.
std::optional<api_status> check_propagation_policy(std::string_view policy);

/// Reads a DeleteOptions JSON object (`text`) into `options`:
/// gracePeriodSeconds, preconditions, dryRun, propagationPolicy (checked)
/// or orphanDependents. Returns the 400/422 failure.
std::optional<api_status> read_delete_options(std::string_view text,
                                              delete_options& options);

/// A decoded Eviction for pod `ns`/`name`.
struct eviction_request {
  std::string ns;
  std::string name;
  delete_options options;
};

/// Decodes an Eviction's JSON body for the pod named in the URL; `dry_run`
/// is the request's `dryRun=All`.
api_result<eviction_request> parse_eviction(std::string_view body,
                                            std::string_view ns,
                                            std::string_view url_name,
                                            bool dry_run);

/// Evicts as described above. Returns the body of the 201 reply.
api_result<std::string> evict(store& st, const eviction_request& request);

} // namespace tessera::apiserver
