// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `api_handler`: the REST layer of the embedded API server, independent of any
/// HTTP library. It turns one request (method, target, headers, body) into one
/// reply: discovery documents, health checks, OpenAPI stub, and the verbs on
/// every served resource (docs/apiserver-protocol.md §1.1) mapped onto the
/// `store`, with content negotiation (JSON; Table, see table.hpp) and every
/// failure rendered as a Status with the real code and reason. A watch reply
/// carries a `watch_stream` that the server then writes as chunked JSON lines;
/// the handler never blocks.
#pragma once

#include "io/apiserver/store.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::apiserver {

/// The parts of an HTTP request the handler reads.
struct http_request_view {
  std::string_view method;
  /// Origin-form target: path and query.
  std::string_view target;
  std::string_view content_type;
  std::string_view accept;
  std::string_view authorization;
  std::string_view body;
};

/// What the server streams for a watch.
struct watch_stream {
  std::shared_ptr<watcher> events;
  /// End the stream cleanly after this long (timeoutSeconds).
  std::chrono::milliseconds timeout{0};
  /// Send a BOOKMARK this often when the client allowed bookmarks (and one
  /// just before the timeout).
  std::chrono::milliseconds bookmark_interval{0};
  /// Non-null for Table watches: renders one line per event (the flag says
  /// whether it is the first). Null = the shared bytes of each object.
  std::function<std::string(const watch_event&, bool first)> render;
  /// The stream's Content-Type (protobuf streams are length-framed).
  std::string content_type = "application/json";
};

struct http_reply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  /// Set for a successful watch; `body` is unused then.
  std::shared_ptr<watch_stream> watch;
};

struct handler_config {
  /// Bearer token every request must carry ("" = no authentication).
  /// Health endpoints are always open.
  std::string token;
  /// Interval of periodic bookmarks.
  std::chrono::milliseconds bookmark_interval{std::chrono::seconds(60)};
  /// Watches without timeoutSeconds end after a random time in
  /// [min, 2*min), as kube-apiserver's --min-request-timeout.
  std::chrono::milliseconds min_request_timeout{std::chrono::minutes(30)};
  /// "host:port" announced by /api.
  std::string server_address = "127.0.0.1:6443";
  /// gitVersion of /version (must be valid semver for clients): the
  /// Kubernetes release whose API and scheduler tessera follows, so that
  /// `kubectl version` sees no skew against a current client.
  std::string git_version = "v1.37.0";
};

/// Per-request counters for /metrics.
struct handler_stats {
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> errors{0};
  std::atomic<std::uint64_t> watches{0};
};

class api_handler {
public:
  api_handler(store& s, handler_config config);

  /// Serves one request. Never throws.
  http_reply handle(const http_request_view& request);

  const handler_config& config() const noexcept {
    return config_;
  }
  const handler_stats& stats() const noexcept {
    return stats_;
  }

private:
  http_reply dispatch(const http_request_view& request);

  store& store_;
  handler_config config_;
  handler_stats stats_;
};

/// Renders a Status failure as a reply.
http_reply status_reply(const api_status& s);

} // namespace tessera::apiserver
