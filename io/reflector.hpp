// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `reflector`: keeps a consumer in step with one kind of object on an API
/// server, as client-go's reflector does (docs/apiserver-protocol.md §3.7), on
/// a thread of its own:
///
///   LIST (paged, limit/continue) ──> replace ──> WATCH from the list's RV
///     ^                                  (bookmarks, timeoutSeconds 300-599)
///     │ 410 Gone / list failed               │ an end (closed or broken)
///     │ (backoff 0.8 s doubling to 30 s,     │ after a second or an event:
///     │  jittered)                           │ re-watch from the last RV at
///     │                                      │ once; 5xx, 429, undecodable
///     │                                      v line: after backoff
///     └───── cannot open, 4xx, an end within a second with nothing ┘
///            received (the server may be gone or new): after backoff
///
/// The backoff starts again from its initial value after a watch that
/// lasted a second or brought an event: the server is healthy then, and an
/// informer that kept its grown backoff would be blind longest after the
/// next outage.
///
/// The reflector remembers every object it delivered (key → last object),
/// which makes its output exact: a relist is reconciled against what was
/// delivered — vanished objects become DELETED (with their last state), new
/// ones ADDED, changed ones (another resourceVersion, or another UID under
/// the same name: DELETED then ADDED) MODIFIED, unchanged ones nothing — and
/// watch events are checked against it (a repeated ADDED or MODIFIED at the
/// same resourceVersion is dropped, a DELETED of an unknown object too). So
/// the consumer never misses and never sees twice a change, across
/// disconnections and 410s.
///
/// A kind the server answers with 404 lists as empty (and counts as
/// synced), as client-go does, so a missing kind does not block start-up.
///
/// After the first list, a watch that ends in a relist (410), fails (the
/// API server unreachable) or is cut short reports `lost_sync` at once,
/// before any backoff, and the list that follows reports `synced` again, so
/// a consumer can hold back until every kind it depends on is current
/// again. A short watch counts because a server that dies right after
/// accepting a watch looks exactly like that: re-watching after the
/// backoff would reach a restarted server (410, a relist) only seconds
/// later, and the consumer would act on its old state meanwhile.
///
/// Decoding happens here, on the reflector thread (model::decode_*), and
/// events reach the consumer in batches: everything one socket read brought
/// (up to `max_batch`) in one `deliver` call.
#pragma once

#include "io/rest_client.hpp"
#include "model/decode.hpp"
#include "model/object.hpp"
#include "support/clock.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace tessera::io {

/// One change delivered to the consumer.
struct reflected_event {
  enum class kind : std::uint8_t { added, modified, deleted };
  kind type = kind::added;
  model::object obj;
};

struct reflector_config {
  /// For logs: "pods", "nodes", ...
  std::string name;
  /// Collection path, e.g. "/api/v1/pods".
  std::string path;
  model::object_kind kind = model::object_kind::pod;
  std::string field_selector;
  std::string label_selector;
  /// Page size of lists (client-go's pager: 500).
  std::int64_t page_size = 500;
  /// Watches ask for a random timeoutSeconds in [min, max].
  int min_watch_timeout_s = 300;
  int max_watch_timeout_s = 599;
  /// Backoff after failures: initial, doubling, capped; each wait is
  /// jittered up to +100%.
  std::chrono::milliseconds backoff_initial{800};
  std::chrono::milliseconds backoff_max{std::chrono::seconds(30)};
  /// Events per `deliver` call at most.
  std::size_t max_batch = 2048;
  /// Granularity at which a blocked read notices stop().
  std::chrono::milliseconds poll{200};
};

/// Counters (monotonic) for tests and metrics.
struct reflector_stats {
  std::atomic<std::uint64_t> lists{0};
  std::atomic<std::uint64_t> pages{0};
  std::atomic<std::uint64_t> watches{0};
  std::atomic<std::uint64_t> gone{0};
  std::atomic<std::uint64_t> errors{0};
  std::atomic<std::uint64_t> events{0};
  std::atomic<std::uint64_t> synthesized_deletes{0};
  std::atomic<std::uint64_t> dropped_duplicates{0};
  std::atomic<std::uint64_t> undecodable{0};
};

class reflector {
public:
  struct handler {
    /// A batch of changes, in order. Called only from the reflector's
    /// thread, so never concurrently with itself.
    std::function<void(std::vector<reflected_event>)> deliver;
    /// After every list's events were delivered (the first one and every
    /// relist).
    std::function<void()> synced;
    /// When a synced reflector stops trusting its state and will list
    /// again (a 410, a watch that cannot be opened or failed): what it
    /// holds may be stale until the next `synced`. Never for a kind the
    /// server does not serve (its list was a 404).
    std::function<void()> lost_sync;
    /// An object that does not decode (listed, or added or modified by
    /// the watch): what can be read of it and why it does not decode. The
    /// object stays invisible to the consumer.
    std::function<void(const model::object_peek&, const std::string&)>
      undecodable;
  };

  reflector(rest_client& client, reflector_config config, handler h);
  /// Stops.
  ~reflector();
  reflector(const reflector&) = delete;
  reflector& operator=(const reflector&) = delete;

  /// Starts the thread; returns at once.
  void start();
  /// Asks the thread to stop and returns at once (stop() joins it); lets a
  /// caller stop many reflectors in the time of one.
  void request_stop();
  /// Stops the thread; no callback runs after this returns.
  void stop();

  bool has_synced() const noexcept {
    return synced_.load();
  }
  /// The resourceVersion the next watch would start from.
  std::string last_resource_version() const;
  const reflector_stats& stats() const noexcept {
    return stats_;
  }
  const reflector_config& config() const noexcept {
    return config_;
  }

private:
  struct known_object {
    model::object obj;
    std::string uid;
    std::string resource_version;
  };
  /// How a watch ended: `clean` watch again at once; `relist` list at
  /// once (410); `rewatch` watch again after backoff (5xx, 429, silence);
  /// `failed` (it could not be opened or was refused) and `cut_short` (it
  /// ended within a second with nothing received) list again after backoff.
  enum class watch_end : std::uint8_t {
    clean,
    relist,
    rewatch,
    failed,
    cut_short
  };

  void run();
  /// run(), restarted after an exception.
  void run_guarded();
  /// Lists every page and reconciles; false on failure (`gone` set on 410).
  bool list(const std::string& resource_version, bool& gone);
  watch_end watch();
  void apply_watch_event(reflected_event::kind type, model::object obj,
                         std::vector<reflected_event>& out);
  void flush(std::vector<reflected_event>& out);
  /// Sleeps the backoff; false when stopping.
  bool back_off();
  bool sleep_for(std::chrono::milliseconds d);
  void set_rv(std::string rv);

  rest_client& client_;
  reflector_config config_;
  handler handler_;
  /// False while the last list found the kind not served (404).
  bool served_ = true;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> synced_{false};
  cancel_scope scope_;
  std::mutex wait_mutex_;
  std::condition_variable wait_cv_;
  mutable std::mutex rv_mutex_;
  std::string rv_;
  bool rv_unavailable_ = false;
  std::chrono::milliseconds backoff_{0};
  std::unordered_map<std::string, known_object> known_;
  reflector_stats stats_;
};

/// The cache key of an object: "ns/name" or "name".
std::string object_key(const model::object& o);
/// metadata.uid and metadata.resourceVersion of an object.
std::string object_uid(const model::object& o);
std::string object_resource_version(const model::object& o);

} // namespace tessera::io
