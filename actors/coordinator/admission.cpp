// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/admission.hpp"

#include "model/pod_key.hpp"

namespace tessera::actors {

admission::history* admission::history_of(const queued_pod_info& item) {
  if (retrying_.empty())
    return nullptr; // the common case: no key to build
  auto it = retrying_.find(model::pod_key(*item.pod));
  return it == retrying_.end() ? nullptr : &it->second;
}

bool admission::must_run_alone(const history* h) const {
  return h != nullptr && (h->retries >= max_retries_ || h->redo_alone);
}

admission::start admission::begin(queued_pod_info item, history* h) {
  bool alone = must_run_alone(h);
  exclusive_ = alone;
  std::int32_t retries = 0;
  if (h != nullptr) {
    retries = h->retries;
    if (alone)
      h->redo_alone = false;
  }
  return start{std::move(item), alone, retries};
}

std::optional<admission::start> admission::offer(queued_pod_info item,
                                                 std::size_t inflight) {
  history* h = history_of(item);
  bool alone = must_run_alone(h);
  if (exclusive_ || (alone && inflight > 0) || !held_.empty()) {
    if (alone)
      held_.push_front(std::move(item));
    else
      held_.push_back(std::move(item));
    return std::nullopt;
  }
  return begin(std::move(item), h);
}

std::optional<admission::start> admission::next(std::size_t inflight) {
  if (held_.empty() || exclusive_)
    return std::nullopt;
  history* h = history_of(held_.front());
  if (must_run_alone(h) && inflight > 0)
    return std::nullopt;
  queued_pod_info item = std::move(held_.front());
  held_.pop_front();
  return begin(std::move(item), h);
}

void admission::ended(const model::pod& pod, cycle_outcome::kind type,
                      retry_reason retry, bool was_alone) {
  if (was_alone)
    exclusive_ = false;
  using kind = cycle_outcome::kind;
  if (type == kind::retry) {
    history& h = retrying_[model::pod_key(pod)];
    ++h.retries;
    if (retry == retry_reason::overlapped_preemption)
      h.redo_alone = true;
  } else if (type != kind::error && !retrying_.empty()) {
    retrying_.erase(model::pod_key(pod));
  }
}

void admission::forget(const model::pod& pod) {
  if (!retrying_.empty())
    retrying_.erase(model::pod_key(pod));
}

} // namespace tessera::actors
