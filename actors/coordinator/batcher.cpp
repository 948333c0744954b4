// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/batcher.hpp"

#include <cassert>
#include <utility>

namespace tessera::actors {

std::string_view batcher::to_string(flush_reason r) noexcept {
  switch (r) {
  case flush_reason::pod_failed:
    return "pod_failed";
  case flush_reason::pod_nominated:
    return "pod_nominated";
  case flush_reason::empty_list:
    return "empty_list";
  case flush_reason::expired:
    return "expired";
  case flush_reason::pod_incompatible:
    return "pod_incompatible";
  case flush_reason::pod_not_batchable:
    return "pod_not_batchable";
  case flush_reason::rescore_error:
    return "rescore_error";
  case flush_reason::normalize_error:
    return "normalize_error";
  }
  return "unknown";
}

std::string_view batcher::to_string(attempt a) noexcept {
  switch (a) {
  case attempt::no_hint:
    return "no_hint";
  case attempt::hint_used:
    return "hint_used";
  case attempt::hint_not_used:
    return "hint_not_used";
  }
  return "unknown";
}

batcher::batcher(bool enabled, std::chrono::nanoseconds max_age,
                 std::function<void(std::size_t, flush_reason)> on_flush)
  : enabled_(enabled), max_age_(max_age), on_flush_(std::move(on_flush)) {
}

void batcher::flush(flush_reason why) {
  if (!batch_)
    return;
  std::size_t profile = batch_->profile_index;
  batch_.reset();
  if (on_flush_)
    on_flush_(profile, why);
}

bool batcher::same_as(const candidate& c, std::size_t profile_index,
                      const model::pod& other) const {
  return c.signable && c.profile_index == profile_index
         && c.prof->same_signature(other, *c.pod);
}

batcher::plan batcher::on_filter(const candidate& c) {
  if (!enabled_)
    return plan::full;
  if (failing_) {
    if (c.now >= failing_->until)
      failing_.reset();
    else if (same_as(c, failing_->profile_index, *failing_->pod))
      return plan::full;
  }
  if (head_ != 0) {
    if (same_as(c, head_profile_, *head_pod_)) {
      parked_.push_back(c.cycle);
      return plan::park;
    }
    // Not consecutive: the head's batch ends when the head does.
    if (!interrupted_)
      interrupted_ = c.nominated ? flush_reason::pod_nominated
                                 : flush_reason::pod_incompatible;
    return plan::full;
  }
  if (batch_) {
    if (!c.signable)
      flush(c.nominated ? flush_reason::pod_nominated
                        : flush_reason::pod_incompatible);
    else if (!same_as(c, batch_->profile_index, *batch_->canonical)
             || batch_->list.plugins() != c.score_plugins)
      flush(flush_reason::pod_incompatible);
    else if (c.now - batch_->created > max_age_)
      flush(flush_reason::expired);
  }
  if (!c.signable)
    return plan::full;
  head_ = c.cycle;
  head_profile_ = c.profile_index;
  head_prof_ = c.prof;
  head_pod_ = c.pod;
  return batch_ ? plan::use : plan::full;
}

std::optional<model::symbol> batcher::take_hint() {
  if (!batch_)
    return std::nullopt;
  if (batch_->list.empty()) {
    flush(flush_reason::empty_list);
    return std::nullopt;
  }
  return batch_->list.pop();
}

batcher::attempt batcher::on_end(ending e) {
  assert(head_ != 0);
  rescored_ = false;
  attempt result = e.hinted.empty()                    ? attempt::no_hint
                   : e.assumed && e.chosen == e.hinted ? attempt::hint_used
                                                       : attempt::hint_not_used;
  if (!e.assumed) {
    flush(flush_reason::pod_failed);
    failing_ = failing{head_profile_, head_pod_, e.now + max_age_};
  } else if (result == attempt::hint_used) {
    ++batched_;
  } else if (e.fresh && !e.fresh->empty()) {
    batch_.reset(); // replaced, not flushed: upstream stores over it
    batch_.emplace(
      batch{head_profile_, head_prof_, head_pod_, std::move(*e.fresh), e.now});
  } else {
    // Nothing to leave behind: any batch ends here, and upstream counts the
    // flush even when there was none.
    batch_.reset();
    if (on_flush_)
      on_flush_(head_profile_, e.fresh ? flush_reason::empty_list
                                       : flush_reason::pod_not_batchable);
  }
  if (batch_ && e.assumed && e.fits_again) {
    rescored_ = true;
    plugins::batch_list& list = batch_->list;
    if (!list.add(*head_prof_, e.chosen, e.scores).ok())
      flush(flush_reason::rescore_error);
    else if (!list.renormalize(*head_prof_, *e.state, *e.pod).ok())
      flush(flush_reason::normalize_error);
  }
  if (interrupted_) {
    flush(*interrupted_);
    interrupted_.reset();
  }
  head_ = 0;
  head_pod_.reset();
  head_prof_ = nullptr;
  return result;
}

std::deque<std::uint64_t> batcher::take_parked() {
  return std::exchange(parked_, {});
}

} // namespace tessera::actors
