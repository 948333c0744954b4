// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `store`: the embedded API server's object store, usable without HTTP.
///
/// It keeps pods, nodes, namespaces, events, leases, PDBs and priority
/// classes in memory with etcd's versioning rules: one cluster-wide
/// resourceVersion counter that every write advances by exactly one (a write
/// that leaves the object byte-identical is skipped), a bounded global event
/// history for watches that resume from a resourceVersion, and admission
/// (defaulting, validation, priority, binding) as a kube-apiserver applies
/// it. The HTTP handler is a thin layer over this API; the perf harness
/// (`--target inprocess`) and the kwok controller call it directly.
///
/// API summary (every call is thread-safe; one mutex guards the state):
///
///   create / get / list / update / patch / remove / bind
///       JSON text in, `api_result<object_ptr>` out. Errors are Kubernetes
///       Status values with the real code, reason and message.
///   watch(resource, ns, watch_options) -> shared_ptr<watcher>
///       A subscription: `poll()` drains `watch_event`s (type + object_ptr;
///       `object->json()` is the serialized object, built once per write and
///       shared by every watcher), `wait_for()` blocks, `set_notify()`
///       installs a wake-up callback for event loops. A watcher that buffers
///       more than its limit is dropped: its queue is discarded and it ends
///       with one ERROR event, so a slow consumer never stalls writers or
///       other watchers and never grows memory without bound.
///   timing(ns, name) / timings()
///       steady-clock timestamps of each pod's create, bind and Running
///       transition, recorded inside the write (sub-microsecond resolution),
///       for latency measurements that API timestamps (1 s) cannot give.
///   compact(), close_watchers(), fail_binds()
///       Fault hooks for reliability tests: force 410s, drop every watch
///       stream, fail a fraction of bindings with 500.
///
/// Watch semantics (docs/apiserver-protocol.md §3): from resourceVersion N a
/// watcher gets exactly the matching events with RV > N, in order; unset or "0"
/// starts with a synthetic ADDED per matching object; `sendInitialEvents`
/// streams the state then a BOOKMARK annotated `k8s.io/initial-events-end`; N
/// older than the retained history yields one ERROR (410 Expired). Each change
/// is tested against the selectors on the old and the new object: start
/// matching = ADDED, stop matching = DELETED of the old content stamped with
/// the new RV.
#pragma once

#include "io/apiserver/field_validation.hpp"
#include "io/apiserver/patch.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/selector.hpp"
#include "io/apiserver/status.hpp"
#include "io/apiserver/stored_object.hpp"
#include "support/clock.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::apiserver {

struct store_config {
  /// Time source for creationTimestamp and pod timings; must outlive the
  /// store. Null means the system clock.
  const clock* time = nullptr;
  /// Events kept for watches that resume from a resourceVersion; older
  /// resourceVersions get 410 Expired.
  std::size_t history_size = 100000;
  /// Live events a watcher may buffer before it is dropped.
  std::size_t watch_queue_limit = 20000;
  /// First resourceVersion - 1; 0 picks microseconds since the epoch so a
  /// restarted server never reuses an RV.
  std::uint64_t initial_resource_version = 0;
  /// Refuse `sendInitialEvents` with the 422 a server without the WatchList
  /// feature returns (tests client fallback).
  bool refuse_watch_list = false;
  /// Refuse this many watch requests (of any kind, counted from the start)
  /// with 429 TooManyRequests, as an overloaded kube-apiserver does: tests
  /// that clients and the embedded controllers recover from a refused watch.
  std::size_t refuse_watches = 0;
  /// Paginated list snapshots kept for `continue` tokens; older tokens get
  /// 410 Expired.
  std::size_t list_snapshots = 64;
  /// Seed for UIDs and generateName suffixes; 0 = random.
  std::uint64_t seed = 0;
  /// Events kept (the oldest is deleted beyond it), standing in for the
  /// real server's one-hour event TTL; 0 = unlimited.
  std::size_t event_limit = 100000;
  /// Create the default namespaces and system priority classes.
  bool bootstrap = true;
  /// Run the Priority admission plugin on pod creates. Off, a pod keeps
  /// the spec.priority it was given (none = 0), as on an API server
  /// started without the plugin (upstream's scheduler_perf cluster).
  bool priority_admission = true;
  /// Run the DefaultTolerationSeconds admission plugin on pod creates (the
  /// not-ready / unreachable tolerations). Off as on upstream's
  /// scheduler_perf cluster, whose templates then update pods with the
  /// tolerations they were created with.
  bool default_toleration_seconds = true;
};

enum class event_type : std::uint8_t {
  added,
  modified,
  deleted,
  bookmark,
  error
};

/// "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR".
std::string_view to_string(event_type t) noexcept;

/// One event of a watch. `object` is the object as the watcher's resource
/// presents it; for BOOKMARK an object carrying only the resourceVersion
/// (and the initial-events-end annotation), for ERROR a Status.
struct watch_event {
  event_type type = event_type::added;
  object_ptr object;
};

/// Which part of an object a write addresses.
/// What a write may change: the object, its status, or (pods/resize) only
/// the containers' resources.
enum class subresource : std::uint8_t { main, status, resize };

struct write_options {
  /// dryRun=All: run admission and validation, store nothing.
  bool dry_run = false;
  /// A client's write: its body's unknown fields are dropped (and, per
  /// this setting, reported in `warnings` or refused with 400) and an
  /// object the model cannot decode is refused with 422. Unset for the
  /// embedded controllers and in-process callers, whose writes are trusted
  /// and must not pay for the checks.
  std::optional<field_validation> validation;
  /// Receives `unknown field "<path>"` / `duplicate field "<path>"` under
  /// field_validation::warn; may be null.
  std::vector<std::string>* warnings = nullptr;
};

struct list_options {
  std::string label_selector;
  std::string field_selector;
  /// 0 = no limit.
  std::int64_t limit = 0;
  std::string continue_token;
  /// Unset, "0" or a number.
  std::optional<std::string> resource_version;
  /// "", "Exact" or "NotOlderThan".
  std::string resource_version_match;
  /// sendInitialEvents given on a list (always 422).
  std::optional<bool> send_initial_events;
};

struct list_result {
  std::vector<object_ptr> items;
  std::uint64_t resource_version = 0;
  /// Set when `limit` cut the result.
  std::string continue_token;
  std::int64_t remaining_item_count = -1;
};

struct watch_options {
  std::string label_selector;
  std::string field_selector;
  std::optional<std::string> resource_version;
  std::string resource_version_match;
  std::optional<bool> send_initial_events;
  bool allow_bookmarks = false;
  /// Live-event buffer limit; 0 = the store's default.
  std::size_t queue_limit = 0;
};

struct delete_options {
  std::optional<std::int64_t> grace_period_seconds;
  std::optional<std::string> precondition_uid;
  std::optional<std::string> precondition_resource_version;
  bool dry_run = false;
  /// "Orphan", "Background", "Foreground", or "" for the kind's default
  /// (Orphan for jobs, as kube-apiserver's, Background otherwise). Orphan
  /// takes the deleted object's ownerReference out of its dependents in
  /// the same write; otherwise `workload_controller` deletes them, as the
  /// garbage collector does (Foreground is treated as Background).
  std::string propagation_policy;
};

struct delete_result {
  /// The deleted object (final state) or, for a graceful pod deletion, the
  /// object now carrying deletionTimestamp.
  object_ptr object;
  /// True when the object is gone.
  bool removed = true;
};

/// A v1.Binding: bind pod ns/name to `node`.
struct binding {
  std::string ns;
  std::string name;
  std::string node;
  /// Preconditions from the Binding's metadata (empty = none).
  std::string uid;
  std::string resource_version;
  /// metadata.annotations of the Binding, merged into the pod's.
  std::vector<std::pair<std::string, std::string>> annotations;
};

/// Server-side timestamps of one pod's life; unset = not happened (yet).
struct pod_timing {
  std::optional<time_point> created;
  std::optional<time_point> bound;
  std::optional<time_point> running;
};

/// Counters for tests, the harness and /metrics.
struct store_stats {
  std::uint64_t writes = 0;
  std::uint64_t noop_writes = 0;
  std::uint64_t binds = 0;
  std::uint64_t bind_conflicts = 0;
  std::uint64_t events_delivered = 0;
  std::uint64_t watchers_dropped = 0;
  std::uint64_t watchers_open = 0;
};

class store;
struct store_state;

/// A watch subscription; see the file comment. Created by `store::watch`.
class watcher {
public:
  ~watcher();
  watcher(const watcher&) = delete;
  watcher& operator=(const watcher&) = delete;

  /// Moves up to `max` pending events into `out` (appending); returns how
  /// many. Never blocks.
  std::size_t poll(std::vector<watch_event>& out,
                   std::size_t max = static_cast<std::size_t>(-1));
  /// Like poll(), but the notify callback is re-armed only when nothing
  /// was pending: for a consumer that, having received events, promises to
  /// poll again without waiting to be told (the HTTP server while a stream
  /// is busy). Writers then skip the wake-up per batch.
  std::size_t poll_busy(std::vector<watch_event>& out, std::size_t max);
  /// Blocks until an event is pending or the watch ended, at most `d`.
  /// Returns true when an event is pending.
  bool wait_for(duration d);
  /// Installs a callback run when events become pending after `poll()`
  /// drained the queue, and when the watch ends. It runs on the writing
  /// thread with store locks held: it must be quick and must not call the
  /// store. Replaces any previous callback.
  void set_notify(std::function<void()> notify);
  /// True once the watch ended (stopped, dropped, closed, or a 410 at
  /// start); pending events (an ERROR among them) can still be polled.
  bool ended() const;
  /// A BOOKMARK at the store's current resourceVersion when everything up
  /// to it has been polled; nullopt while events are pending.
  std::optional<watch_event> bookmark();
  /// Unsubscribes; no events are added after it returns.
  void stop();
  /// The resource this watch is on.
  const resource_info& resource() const noexcept {
    return *resource_;
  }
  /// Whether the client asked for bookmarks.
  bool bookmarks_allowed() const noexcept {
    return allow_bookmarks_;
  }

private:
  friend class store;
  friend struct store_state;
  watcher() = default;
  /// Moves up to `max` events from the queue into `out`. Requires `mu_`.
  std::size_t take(std::vector<watch_event>& out, std::size_t max);

  // Filter (immutable after creation).
  const resource_info* resource_ = nullptr;
  std::string ns_;
  selector labels_;
  selector fields_;
  bool allow_bookmarks_ = false;
  std::size_t limit_ = 0;

  std::weak_ptr<store_state> store_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<watch_event> queue_;
  /// Events before registration (initial state, history replay): not
  /// counted against the limit.
  std::size_t backlog_ = 0;
  bool ended_ = false;
  bool waiting_ = false;
  bool signalled_ = false;
  std::function<void()> notify_;
};

class store {
public:
  explicit store(store_config config = {});
  ~store();
  store(const store&) = delete;
  store& operator=(const store&) = delete;

  /// POST: creates an object from JSON text. `ns` is the namespace from the
  /// URL ("" for cluster-scoped resources).
  api_result<object_ptr> create(const resource_info& resource,
                                std::string_view ns, std::string_view body,
                                const write_options& options = {});
  api_result<object_ptr> get(const resource_info& resource, std::string_view ns,
                             std::string_view name) const;
  /// `ns` "" lists all namespaces.
  api_result<list_result> list(const resource_info& resource,
                               std::string_view ns,
                               const list_options& options = {}) const;
  /// PUT of the object or its status.
  api_result<object_ptr> update(const resource_info& resource,
                                std::string_view ns, std::string_view name,
                                std::string_view body, subresource sub,
                                const write_options& options = {});
  /// PATCH of the object or its status.
  api_result<object_ptr> patch(const resource_info& resource,
                               std::string_view ns, std::string_view name,
                               patch_type type, std::string_view body,
                               subresource sub,
                               const write_options& options = {});
  /// DELETE (graceful for bound pods).
  api_result<delete_result> remove(const resource_info& resource,
                                   std::string_view ns, std::string_view name,
                                   const delete_options& options = {});
  /// POST pods/{name}/binding. Returns the bound pod.
  api_result<object_ptr> bind(const binding& b);
  /// Opens a watch. Parameter errors are returned; a too-old
  /// resourceVersion gives a watcher whose only event is ERROR 410.
  api_result<std::shared_ptr<watcher>> watch(const resource_info& resource,
                                             std::string_view ns,
                                             const watch_options& options);

  /// The counter's current value (the RV of the last write).
  std::uint64_t resource_version() const;
  /// RVs greater than this are in the history; a watch may resume from any
  /// RV >= this.
  std::uint64_t compacted_resource_version() const;

  /// Timing of one pod (kept after deletion until clear_timings()).
  std::optional<pod_timing> timing(std::string_view ns,
                                   std::string_view name) const;
  /// Every recorded timing, keyed "ns/name".
  std::vector<std::pair<std::string, pod_timing>> timings() const;
  void clear_timings();

  store_stats stats() const;

  /// Drops history so that only the newest `keep` events remain.
  void compact(std::size_t keep = 0);
  /// Ends every open watch (streams close cleanly; clients re-watch).
  void close_watchers();
  /// Makes a fraction (0..1) of future bindings fail with 500.
  void fail_binds(double fraction);

  /// The clock the store stamps with.
  const clock& time() const noexcept;

private:
  std::shared_ptr<store_state> state_;
};

} // namespace tessera::apiserver
