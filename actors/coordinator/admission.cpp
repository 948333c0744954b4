// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/admission.hpp"

#include "model/pod_key.hpp"

namespace tessera::actors {

bool admission::must_run_alone(const queued_pod_info& item) const {
  return item.conflicts >= max_conflicts_
         || (!redo_alone_.empty()
             && redo_alone_.count(model::pod_key(*item.pod)) != 0);
}

admission::start admission::begin(queued_pod_info item, bool alone) {
  exclusive_ = alone;
  if (alone)
    redo_alone_.erase(model::pod_key(*item.pod));
  return start{std::move(item), alone};
}

std::optional<admission::start> admission::offer(queued_pod_info item,
                                                 std::size_t inflight) {
  bool alone = must_run_alone(item);
  if (exclusive_ || (alone && inflight > 0) || !held_.empty()) {
    if (alone)
      held_.push_front(std::move(item));
    else
      held_.push_back(std::move(item));
    return std::nullopt;
  }
  return begin(std::move(item), alone);
}

std::optional<admission::start> admission::next(std::size_t inflight) {
  if (held_.empty() || exclusive_)
    return std::nullopt;
  bool alone = must_run_alone(held_.front());
  if (alone && inflight > 0)
    return std::nullopt;
  queued_pod_info item = std::move(held_.front());
  held_.pop_front();
  return begin(std::move(item), alone);
}

void admission::ended(bool was_alone) {
  if (was_alone)
    exclusive_ = false;
}

void admission::redo_alone(const model::pod& p) {
  redo_alone_.insert(model::pod_key(p));
}

} // namespace tessera::actors
