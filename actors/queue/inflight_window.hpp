// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `inflight_window`: what happened while pods were in flight, kept until no
/// in-flight pod can still need it. A pod's cycle decided on a view that
/// predates these records; when its outcome arrives, the queue reads the
/// records made since its pop (the live queue: events that may help it; the
/// settling queue: victims already deleted).
#pragma once

#include <cstdint>
#include <deque>
#include <set>
#include <utility>

namespace tessera::actors {

template <class Record> class inflight_window {
public:
  /// A pod was popped: returns its mark.
  std::uint64_t open() {
    marks_.insert(sequence_);
    return sequence_;
  }

  /// The pod with `mark` is no longer in flight.
  void close(std::uint64_t mark) {
    if (auto it = marks_.find(mark); it != marks_.end())
      marks_.erase(it);
  }

  /// Keeps `r` if any pod is in flight (nobody else could need it);
  /// returns whether it did.
  bool record(Record r) {
    if (marks_.empty())
      return false;
    records_.push_back({++sequence_, std::move(r)});
    return true;
  }

  /// Calls `f` on each record made since `mark` was opened, oldest first,
  /// until `f` returns true; returns whether one did.
  template <class F> bool any_since(std::uint64_t mark, F&& f) const {
    for (const auto& [sequence, r] : records_)
      if (sequence > mark && f(r))
        return true;
    return false;
  }

  /// Calls `f` on each record made since `mark` was opened, oldest first.
  template <class F> void for_each_since(std::uint64_t mark, F&& f) const {
    any_since(mark, [&](const Record& r) {
      f(r);
      return false;
    });
  }

  /// Drops the records that every in-flight pod's view already saw,
  /// calling `dropped` on each.
  template <class F> void prune(F&& dropped) {
    while (!records_.empty()
           && (marks_.empty() || records_.front().first <= *marks_.begin())) {
      dropped(records_.front().second);
      records_.pop_front();
    }
  }
  void prune() {
    prune([](const Record&) {});
  }

private:
  std::deque<std::pair<std::uint64_t, Record>> records_;
  std::multiset<std::uint64_t> marks_;
  std::uint64_t sequence_ = 0;
};

} // namespace tessera::actors
