// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `store_state`: the shared state behind `store` and its watchers (internal
/// to io/apiserver). The current objects live in one `object_index` per
/// storage kind (keys `ns/name` sort like etcd keys, so lists come out in
/// upstream's order); every write appends a `history_record` to one global ring
/// and is fanned out to the registered watchers under the same lock, which is
/// what makes "all events with RV > N, in order" hold. Watchers keep their own
/// queue and lock, so consumers drain without taking the store lock.
#pragma once

#include "io/apiserver/admission.hpp"
#include "io/apiserver/object_index.hpp"
#include "io/apiserver/store.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessera::apiserver {

/// One write, as kept in the history and fanned out.
struct history_record {
  std::uint64_t rv = 0;
  storage_kind storage = storage_kind::pod;
  event_type type = event_type::added;
  /// The new object; for deletions the final state stamped with `rv`.
  object_ptr obj;
  /// The object before the write (modified and deleted), else null.
  object_ptr prev;
};

/// The current version of an object. Writers start from a fresh parse of
/// its bytes into a recycled arena: no version keeps a DOM.
struct current_object {
  object_ptr obj;
};

/// What priority admission needs of a PriorityClass, kept up to date by
/// commit() so that pod creation never parses the classes.
struct priority_class_info {
  admission::priority_info info;
  bool global_default = false;
};

/// A paginated list's snapshot, referenced by continue tokens.
struct list_snapshot {
  std::uint64_t id = 0;
  std::uint64_t rv = 0;
  std::vector<object_ptr> items;
};

struct store_state : std::enable_shared_from_this<store_state> {
  explicit store_state(store_config c);

  store_config cfg;
  const clock* clk = nullptr;
  /// Watch requests still to refuse (`store_config::refuse_watches`).
  std::atomic<std::size_t> watches_to_refuse{0};

  mutable std::mutex mu;
  std::uint64_t rv = 0;
  std::uint64_t compacted = 0;
  std::array<object_index<current_object>, storage_kind_count> objects;
  std::array<std::vector<watcher*>, storage_kind_count> watchers;
  std::deque<history_record> history;
  mutable std::deque<list_snapshot> snapshots;
  mutable std::uint64_t next_snapshot_id = 1;
  std::mt19937_64 rng;
  std::unordered_map<std::string, pod_timing> timings;
  std::map<std::string, priority_class_info, std::less<>> priority_classes;
  /// Event keys in creation order, for the event limit.
  std::deque<std::string> event_order;
  double bind_fail_fraction = 0;
  store_stats stats;

  /// Assigns the next RV to `doc`, stores the object (or erases it for a
  /// deletion), records history and timings, and fans the change out.
  /// Requires `mu`. Returns the stored object.
  object_ptr commit(storage_kind storage, event_type type, json_doc doc,
                    object_ptr prev);
  /// Delivers one record to every watcher of its storage. Requires `mu`.
  void fan_out(const history_record& rec);
  /// Pushes an event into a watcher's queue, dropping the watcher when it
  /// is over its limit. Requires `mu`. Returns false when it was dropped.
  bool push(watcher& w, watch_event ev, bool backlog);
  /// The event (if any) a record produces for a watcher, honouring the
  /// selector transitions and the watcher's view. Requires `mu`.
  std::optional<watch_event> event_for(const watcher& w,
                                       const history_record& rec,
                                       object_ptr& stamped_cache,
                                       object_ptr& view_cache,
                                       object_ptr& stamped_view_cache);
  /// True when an object passes a watcher's namespace and selectors.
  static bool matches(const watcher& w, const stored_object& obj);
  /// Removes a watcher from the registry. Requires `mu`.
  void unregister(watcher* w);
  /// A random RFC 4122 version 4 UUID.
  std::string new_uid();
};

/// The object as `resource` presents it (events.k8s.io converts events).
object_ptr present(const resource_info& resource, const object_ptr& obj);

/// A synthetic object: bookmark for `resource` at `rv`, optionally marked
/// as the end of the initial events.
object_ptr make_bookmark(const resource_info& resource, std::uint64_t rv,
                         bool initial_events_end);
/// A Status object for an ERROR event.
object_ptr make_status_object(const api_status& s);
/// A resourceVersion (or a part of a continue token) as a number: decimal
/// digits only; nullopt otherwise.
std::optional<std::uint64_t> parse_resource_version(std::string_view text);

/// What a list or a watch selects: its label and field selectors and the
/// resourceVersion it names (nullopt when it names none).
struct selection {
  selector labels;
  selector fields;
  std::optional<std::uint64_t> rv;
};

/// Parses a list's or a watch's selectors and resourceVersion, in that
/// order; the first malformed one is the error (400 for a resourceVersion
/// that is not a number).
api_result<selection>
parse_selection(const resource_info& res, std::string_view label_selector,
                std::string_view field_selector,
                const std::optional<std::string>& resource_version);

} // namespace tessera::apiserver
