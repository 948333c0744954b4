// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `nominator`: which pending pod is nominated to which node — the one
/// owner of nominations (upstream's PodNominator). Cycles read it when they
/// begin, and the shards filter with the pods it names (a node's nominated
/// pods of equal or higher priority count as already placed).
///
/// Two sources change it, both in the coordinator's own order:
///   - the coordinator's decisions: a preemption nominates its node; an
///     assume, a dropped pod or a failure without a nomination ends it;
///   - the API, through the cache: a pending pod whose status names a node
///     (added, or a change of `nominatedNodeName`), and pods that leave
///     (deleted, or bound by anyone else).
/// A pod update that names no node before and after keeps the nomination,
/// as upstream: it is usually an echo older than the coordinator's own
/// decision, whose status patch is still on its way. A pod that is bound,
/// or that this coordinator placed, is never nominated from the API: the
/// patch of an earlier nomination can land after the assume (or even after
/// the binding), and upstream, which drops a nomination at assume and
/// ignores updates of assumed pods, never brings it back. Such a phantom
/// would hold room on a node for a pod running elsewhere.
#pragma once

#include "actors/messages.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tessera::actors {

class nominator {
public:
  /// Pending-pod changes from the cache (pod_added, pod_updated,
  /// pod_deleted; other inputs are ignored).
  void apply(const queue_input& in);

  /// The coordinator nominated `pod` to `node`.
  void nominate(const model::pod_ptr& pod, model::symbol node);
  /// `pod` is no longer nominated (assumed, dropped, or no room found).
  void drop(const model::pod& pod);
  /// The coordinator assumed `pod`: its nomination ends, and the API's
  /// nominations of it are ignored until it is nominated here again or
  /// deleted.
  void placed(const model::pod& pod);

  /// The nominations now; the same pointer until they change.
  nominations_ptr current();
  std::size_t size() const noexcept {
    return by_pod_.size();
  }

private:
  void nominate_from_api(const model::pod_ptr& pod);
  void record(const model::pod_ptr& pod, model::symbol node);

  std::unordered_map<std::string, std::pair<model::symbol, model::pod_ptr>>
    by_pod_;
  /// The nominations as changed so far; `current()` publishes a copy
  /// (which shares its buckets) when it differs from `snapshot_`.
  nominations next_;
  nominations_ptr snapshot_ = std::make_shared<const nominations>();
  bool dirty_ = false;
  /// Keys of the pods placed() and not since nominated here or gone.
  std::unordered_set<std::string> placed_;
};

} // namespace tessera::actors
