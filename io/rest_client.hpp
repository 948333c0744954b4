// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `rest_client`: typed Kubernetes API calls over a small pool of
/// keep-alive `http_client`s, as client-go's REST client behaves:
///   - a token bucket (`rate_limiter`, clientConnection.qps / burst) before
///     every request and every watch open;
///   - credentials from a shared `credential_provider` (token, token file,
///     exec plugin; a 401 refreshes them and retries once);
///   - 429 and 5xx answers carrying `Retry-After` are retried after that
///     delay (at most `max_retry_after`), at most `max_retries` times
///     (client-go: 10);
///   - non-2xx answers become errors carrying the Status message, with the
///     code mapped to `ec` (404 not_found, 409 conflict, 410 exhausted,
///     400/422 invalid_input, 429 exhausted, 5xx unavailable, 504 timeout).
///
/// Calls block the calling thread (io threads: the reflectors, the sink's
/// workers, the leader elector); any number of threads may call at once,
/// each borrowing its own connection. `cancel_scope` aborts one caller's
/// call from another thread; `shutdown()` aborts everything.
#pragma once

#include "io/api_objects.hpp"
#include "io/credentials.hpp"
#include "io/http_client.hpp"
#include "io/kubeconfig.hpp"
#include "io/rate_limiter.hpp"
#include "metrics/fwd.hpp"
#include "model/object.hpp"
#include "support/error.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::io {

struct rest_client_config {
  rest_config target;
  /// Token bucket; qps <= 0 disables client-side limiting.
  double qps = 50;
  std::int32_t burst = 100;
  std::string user_agent = "tessera";
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(5)};
  std::chrono::milliseconds request_timeout{std::chrono::seconds(60)};
  /// Idle keep-alive connections kept for reuse.
  std::size_t max_idle_connections = 64;
  /// Retries of 429 / 5xx answers that carry Retry-After.
  int max_retries = 10;
  /// Longest wait a Retry-After may ask for; a larger one is cut to this,
  /// so a server cannot park a call (or a stopping scheduler) for hours.
  std::chrono::milliseconds max_retry_after{std::chrono::seconds(10)};
  /// Shared credentials; null = one made from `target`.
  std::shared_ptr<credential_provider> credentials;
  /// Where to record client-go's rest_client_* series (not owned; it must
  /// outlive the client); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

/// Lets another thread abort one caller's blocking call (a reflector's list
/// or watch open). Once cancelled, calls made with it fail at once.
class cancel_scope {
public:
  void cancel();
  bool cancelled() const noexcept {
    return cancelled_.load();
  }

private:
  friend class rest_client;
  bool attach(http_client* c);
  void detach();
  std::mutex mutex_;
  http_client* active_ = nullptr;
  std::atomic<bool> cancelled_{false};
};

/// Counters (monotonic).
struct rest_client_stats {
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> retries{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<std::uint64_t> connections{0};
};

class rest_client {
public:
  explicit rest_client(rest_client_config config);
  ~rest_client();
  rest_client(const rest_client&) = delete;
  rest_client& operator=(const rest_client&) = delete;

  /// One request with limiting, credentials and retries (see the file
  /// comment). Transport failures are errors; any HTTP answer is returned
  /// as is (check `status`).
  [[nodiscard]] expected<http_response> request(const http_request& r,
                                                cancel_scope* scope = nullptr);
  /// `request()`, with a non-2xx answer turned into an error.
  [[nodiscard]] expected<http_response> call(const http_request& r,
                                             cancel_scope* scope = nullptr);
  /// Opens a streamed response (a watch) on a connection of its own.
  [[nodiscard]] expected<std::unique_ptr<line_stream>>
  stream(const http_request& r, cancel_scope* scope = nullptr);

  // The scheduler's writes (each one request, see docs/apiserver-protocol.md
  // §5).

  /// POST pods/{name}/binding with the pod's UID as precondition.
  [[nodiscard]] error bind(std::string_view ns, std::string_view name,
                           std::string_view uid, std::string_view node);
  /// PATCH pods/{name}/status (strategic merge) with `body`.
  [[nodiscard]] error patch_pod_status(std::string_view ns,
                                       std::string_view name, std::string body);
  /// DELETE pods/{name} with empty DeleteOptions (the pod's own grace).
  [[nodiscard]] error delete_pod(std::string_view ns, std::string_view name);
  /// POST an Event (events.k8s.io/v1 when `v1`, else core/v1).
  [[nodiscard]] error create_event(const event_record& e, bool v1);
  /// PATCH an Event's series (v1) or count (core).
  [[nodiscard]] error patch_event(const event_record& e, bool v1);
  /// Whether the server serves events.k8s.io/v1 (GET /apis/events.k8s.io/v1).
  [[nodiscard]] bool has_events_v1();
  /// GET one object at `path` (see `object_path`): its JSON.
  [[nodiscard]] expected<std::string> get_object(const std::string& path);
  /// PUT one object at `path`; its metadata.resourceVersion is the
  /// precondition (409 = conflict).
  [[nodiscard]] error update_object(const std::string& path, std::string body);

  // Leases (coordination.k8s.io/v1).

  /// nullopt when the lease does not exist.
  [[nodiscard]] expected<std::optional<lease_record>>
  get_lease(std::string_view ns, std::string_view name);
  /// Creates; returns the stored record (with its resourceVersion).
  [[nodiscard]] expected<lease_record> create_lease(std::string_view ns,
                                                    std::string_view name,
                                                    const lease_record& r);
  /// Updates with `r.resource_version` as precondition (409 = conflict).
  [[nodiscard]] expected<lease_record> update_lease(std::string_view ns,
                                                    std::string_view name,
                                                    const lease_record& r);

  /// Aborts every call in progress and fails later ones at once.
  void shutdown();
  bool is_shut_down() const noexcept {
    return shut_down_.load();
  }

  const rest_client_config& config() const noexcept {
    return config_;
  }
  const rest_client_stats& stats() const noexcept {
    return stats_;
  }

private:
  struct pooled {
    std::unique_ptr<http_client> client;
    std::uint64_t cert_generation = 0;
  };
  client_config make_client_config(const credentials& c) const;
  pooled acquire(const credentials& c);
  void release(pooled p);
  /// Sleeps up to `d`; false when shut down (or the scope cancelled).
  bool pause(std::chrono::milliseconds d, cancel_scope* scope);

  rest_client_config config_;
  std::shared_ptr<credential_provider> credentials_;
  rate_limiter limiter_;
  std::mutex pool_mutex_;
  std::vector<pooled> idle_;
  std::vector<http_client*> busy_;
  std::condition_variable wake_;
  std::atomic<bool> shut_down_{false};
  rest_client_stats stats_;
};

/// The error for a non-2xx answer: the Status message, `ec` by code.
error status_error(const http_response& r);

/// How long to wait before retrying a 429 or 5xx answer: its Retry-After
/// in seconds, at most `cap`; nullopt without a Retry-After of whole
/// seconds (the answer is not retried).
std::optional<std::chrono::milliseconds>
retry_delay(const http_response& r, std::chrono::milliseconds cap);

/// `ec` for an HTTP status code (see the file comment).
ec code_for_status(int http_status) noexcept;

/// Percent-encodes a query value.
std::string url_escape(std::string_view v);

/// The REST path of one object of a kind the scheduler watches
/// (`/api/v1/namespaces/ns/persistentvolumeclaims/c`); `ns` is ignored for
/// cluster-scoped kinds.
std::string object_path(model::object_kind kind, std::string_view ns,
                        std::string_view name);

} // namespace tessera::io
