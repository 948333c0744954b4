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
#include <memory>
#include <mutex>
#include <optional>
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
  std::atomic<bool> synced_{false};
  std::atomic<std::uint64_t> delivered_{0};
};

} // namespace tessera::adapters
