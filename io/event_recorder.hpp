// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `event_recorder`: writes Events (events.k8s.io/v1, or core/v1 when the
/// server lacks it) with client-go's series de-duplication, so a pod that
/// stays unschedulable for hours costs a handful of writes, not one per
/// attempt:
///
///   occurrence 1 of a key ──> POST the Event
///   occurrence 2          ──> PATCH series {count: 2, lastObservedTime}
///   occurrence 3, 4, ...  ──> count in memory only
///   every 30 min          ──> PATCH each open series with its count
///   6 min without a new occurrence ──> final PATCH, forget the key
///                                      (a singleton is just forgotten)
///
/// The key is (type, action, reason, reportingController, reportingInstance,
/// regarding, related) — not the note, as upstream; tessera leaves the
/// regarding object's resourceVersion out of the key, since the scheduler's
/// own status patch changes it between attempts. A PATCH answered 404
/// (the Event expired) creates it again.
///
/// `record()` never blocks: writes go to a bounded queue (1000, as
/// client-go's broadcaster; beyond it events are dropped and counted)
/// drained by writer threads. Writes of one key run one at a time and in
/// order (the create before its first PATCH), and a queued PATCH is
/// replaced by a newer one of the same key instead of queueing both. Failed
/// writes of transport errors are retried (up to 12 tries, 10 s apart,
/// jittered); a Status error drops the write. The config's write gate is
/// asked right before every write, each retry included: an event may wait
/// in the queue or for a retry far longer than the leader lease lasts.
#pragma once

#include "io/api_objects.hpp"
#include "io/fwd.hpp"
#include "support/clock.hpp"
#include "support/error.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::io {

struct event_recorder_config {
  /// events.k8s.io/v1 (else core/v1).
  bool use_events_v1 = true;
  std::size_t max_queued = 1000;
  std::size_t writers = 2;
  duration finish_after = std::chrono::minutes(6);
  duration refresh_every = std::chrono::minutes(30);
  int max_tries = 12;
  std::chrono::milliseconds retry_sleep{std::chrono::seconds(10)};
  /// Null = the system clock.
  const clock* time = nullptr;
  /// Asked right before every write on the writer thread: an error drops
  /// the write (the series is written whole on its next occurrence).
  /// `tessera run` passes "still holds the leader lease". Null = always.
  std::function<error()> write_gate;
};

struct event_recorder_stats {
  std::atomic<std::uint64_t> recorded{0};
  std::atomic<std::uint64_t> created{0};
  std::atomic<std::uint64_t> patched{0};
  std::atomic<std::uint64_t> deduplicated{0};
  std::atomic<std::uint64_t> dropped{0};
  std::atomic<std::uint64_t> failed{0};
  /// Writes the write gate refused.
  std::atomic<std::uint64_t> gated{0};
};

class event_recorder {
public:
  event_recorder(rest_client& client, event_recorder_config config);
  /// Stops (pending writes are abandoned).
  ~event_recorder();
  event_recorder(const event_recorder&) = delete;
  event_recorder& operator=(const event_recorder&) = delete;

  /// Starts the writer threads.
  void start();
  /// Waits up to `drain` for queued writes, then stops the writers.
  void stop(std::chrono::milliseconds drain = std::chrono::milliseconds(0));

  /// Records one occurrence. `e` needs ns, regarding, related, type, reason,
  /// action, note and reporting_*; name and times are set here.
  void record(event_record e);

  /// Runs the periodic work now: finishes series idle for finish_after and
  /// refreshes open series every refresh_every (the writers call it on
  /// their own; tests call it after moving a manual clock).
  void housekeeping();

  /// Writes not yet done.
  std::size_t queued() const;
  const event_recorder_stats& stats() const noexcept {
    return stats_;
  }

private:
  struct cached {
    event_record event;
    time_point first;
    time_point last;
  };
  struct write {
    bool create = true;
    event_record event;
    std::string key;
    int tries = 0;
  };
  void enqueue(write w);
  /// The first queued write whose key has no write running, or end().
  std::deque<write>::iterator next_ready();
  void writer_loop();
  void perform(write w);
  /// True, counted and logged, when the write gate refuses `w`.
  bool gate_refuses(const write& w);

  rest_client& client_;
  event_recorder_config config_;
  const clock& clock_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::unordered_map<std::string, cached> cache_;
  std::deque<write> queue_;
  std::size_t busy_ = 0;
  /// Keys with a write running.
  std::unordered_set<std::string> running_;
  time_point next_refresh_;
  time_point next_finish_;
  std::vector<std::thread> writers_;
  bool stopping_ = false;
  event_recorder_stats stats_;
};

} // namespace tessera::io
