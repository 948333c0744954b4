// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `nomination_view`: the nominations a new cycle must see.
///
/// The queue owns nominations, but it learns of the coordinator's own
/// (a preemption's nominated node, a nominated pod that got assumed) only
/// from the cycle's outcome, and its next snapshot reaches the coordinator
/// later. A serial scheduler records a nomination before its next cycle
/// starts; without this view, cycles begun in between would not see it and
/// could take the node the preemptor just cleared (PreemptionBasic: a pod
/// preempting again and again with a growing backoff).
///
/// So the coordinator patches the queue's last snapshot with its own
/// changes, numbered by the outcome that carries them, until a snapshot
/// from a queue that has handled that outcome arrives.
#pragma once

#include "actors/messages.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace tessera::actors {

class nomination_view {
public:
  /// A batch from the queue: its nominations when they changed (else null),
  /// and how many outcomes it had handled when it sent the batch.
  void from_queue(const nominations_ptr& snapshot, std::uint64_t handled);

  /// Outcome number `outcome` nominates `pod` to `node`.
  void nominate(const model::pod_ptr& pod, model::symbol node,
                std::uint64_t outcome);
  /// Outcome number `outcome` ends `pod`'s nomination, if it has one.
  void drop(const model::pod_ptr& pod, std::uint64_t outcome);

  /// The queue's snapshot with the changes it has not seen yet.
  nominations_ptr current();

private:
  struct change {
    model::pod_ptr pod;
    model::symbol node; // empty: the nomination ended
    std::uint64_t outcome = 0;
  };

  nominations_ptr queue_;
  std::unordered_map<std::string, change> own_;
  nominations_ptr merged_;
  bool dirty_ = false;
};

} // namespace tessera::actors
