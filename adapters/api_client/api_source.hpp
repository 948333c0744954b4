// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `api_source`: the pipeline's `cluster_source` over a live API server —
/// one `io::reflector` per kind the scheduler reads:
///
///   pods             /api/v1/pods (all namespaces,
///                    fieldSelector
///                    status.phase!=Succeeded,status.phase!=Failed)
///   nodes            /api/v1/nodes
///   namespaces       /api/v1/namespaces
///   PDBs             /apis/policy/v1/poddisruptionbudgets
///   priority classes /apis/scheduling.k8s.io/v1/priorityclasses
///
/// Terminal pods never arrive (the selector; one turning terminal arrives
/// as DELETED); the cache sends pending pods of this instance's
/// schedulerNames to the queue and keeps bound ones, as with memory_cluster.
///
/// Re-sync: when a reflector loses sync (it must list again: a 410, the API
/// server unreachable), every kind's events are held from then on, until
/// every reflector that lost sync listed again; then they go out in the
/// initial order (nodes before pods), so the cache never meets pods of a
/// new state with the nodes of an old one. Meanwhile `in_sync()` is false
/// and `check_bind_target` refuses bindings; it also refuses a node the
/// cache was never given or was told is gone.
///
/// Cache sync before the first cycle: nothing is delivered until every
/// reflector finished its first list; then the whole initial state goes out
/// as one batch (namespaces, priority classes, PDBs, nodes, pods), then
/// `synced`, then whatever the watches brought meanwhile. Later batches are
/// the reflectors' own (one per socket read), decoded on the reflector
/// threads, serialized by one mutex so the receiver is never called
/// concurrently.
#pragma once

#include "actors/source.hpp"
#include "io/reflector.hpp"
#include "io/rest_client.hpp"
#include "metrics/fwd.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_set>
#include <vector>

namespace tessera::adapters {

struct api_source_config {
  /// List page size.
  std::int64_t page_size = 500;
  /// Watch timeoutSeconds range (tests shorten it).
  int min_watch_timeout_s = 300;
  int max_watch_timeout_s = 599;
  /// Reflector backoff after failures.
  std::chrono::milliseconds backoff_initial{800};
  std::chrono::milliseconds backoff_max{std::chrono::seconds(30)};
  /// Where to record watch events and relists (not owned); null = off.
  metrics::scheduler_metrics* metrics = nullptr;
  /// Told of every pod that does not decode (what can be read of it, and
  /// why), on a reflector thread; the pod never reaches the cache, so this
  /// is the only way its owner can learn why it is not scheduled.
  std::function<void(const model::object_peek&, const std::string&)>
    undecodable_pod;
};

class api_source final : public actors::cluster_source {
public:
  api_source(io::rest_client& client, api_source_config config = {});
  /// Stops.
  ~api_source() override;

  void start(receiver r) override;
  void stop() override;

  /// True once the initial state was delivered.
  bool synced() const noexcept {
    return synced_.load();
  }
  /// True when the initial state was delivered and no reflector is
  /// re-listing since.
  bool in_sync() const noexcept {
    return synced_.load() && resyncing_count_.load() == 0;
  }
  /// Whether a binding to `node` may be sent now: ec::unavailable while
  /// not in_sync() (the cache may hold nodes that are gone) or when the
  /// node is not among the nodes delivered to the cache. Cheap; thread-safe.
  [[nodiscard]] error check_bind_target(model::symbol node) const;
  /// The reflectors (stats, last resourceVersions), in kind order: pods,
  /// nodes, namespaces, PDBs, priority classes, the four workload kinds,
  /// the seven storage kinds.
  std::vector<const io::reflector*> reflectors() const;
  /// Objects delivered so far.
  std::uint64_t delivered() const noexcept {
    return delivered_.load();
  }

private:
  void on_events(std::size_t index, std::vector<io::reflected_event> events);
  void on_synced(std::size_t index);
  void on_lost_sync(std::size_t index);
  /// Empties `initial_` into one batch, kinds in the initial order. Under
  /// mutex_.
  actors::object_events take_in_order();
  /// Hands `events` to the receiver, keeping the node names current.
  /// Under mutex_.
  void deliver_locked(actors::object_events events);

  io::rest_client& client_;
  api_source_config config_;
  std::vector<std::unique_ptr<io::reflector>> reflectors_;
  std::mutex mutex_;
  std::optional<receiver> receiver_;
  /// Per reflector: its initial list, until every reflector synced.
  std::vector<actors::object_events> initial_;
  std::vector<bool> reflector_synced_;
  std::size_t synced_count_ = 0;
  /// Events that arrived after a reflector's list but before all synced.
  actors::object_events backlog_;
  /// Per reflector: re-listing since it lost sync; while any is, every
  /// reflector's events wait in `initial_` and go out, in the initial
  /// order, once all re-synced.
  std::vector<bool> resyncing_;
  std::atomic<std::size_t> resyncing_count_{0};
  /// Names of the nodes delivered (the cache's node set).
  mutable std::mutex nodes_mutex_;
  std::unordered_set<model::symbol> nodes_;
  std::atomic<bool> synced_{false};
  std::atomic<std::uint64_t> delivered_{0};
};

} // namespace tessera::adapters
