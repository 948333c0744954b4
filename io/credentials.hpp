// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `credential_provider`: the bearer token and client certificate a client
/// presents right now, kept fresh as client-go does — a static token; a token
/// file re-read about once a minute (projected service-account tokens rotate);
/// an `exec` credential plugin (docs/apiserver-protocol.md §7.1) run on first
/// use and again when its credential expires or a request got 401.
///
/// Thread-safe; shared by every rest_client of a process. A refresh that
/// fails keeps the last good credential (logged), so a flaky plugin does not
/// take the scheduler down; only when there never was one is it an error.
#pragma once

#include "io/api_objects.hpp"
#include "io/kubeconfig.hpp"
#include "support/clock.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tessera::io {

/// What to present on a request.
struct credentials {
  std::string token;
  std::string client_cert_pem;
  std::string client_key_pem;
  /// Bumped whenever the client certificate changes: connections made with
  /// an older one must be replaced.
  std::uint64_t cert_generation = 0;
};

struct credential_options {
  /// How often a token file is re-read.
  duration token_file_refresh = std::chrono::minutes(1);
  /// An exec plugin taking longer is killed.
  std::chrono::milliseconds exec_timeout{std::chrono::seconds(60)};
  /// Must outlive the provider; null = the system clock.
  const clock* time = nullptr;
};

class credential_provider {
public:
  credential_provider(const rest_config& cfg, credential_options options = {});

  /// The credentials to use now (refreshing when due).
  [[nodiscard]] expected<credentials> get();
  /// A request was answered 401: refresh before the next use.
  void invalidate();

private:
  error refresh_file(time_point now);
  error refresh_exec(time_point now);

  rest_config cfg_;
  credential_options options_;
  const clock& clock_;
  std::mutex mutex_;
  credentials current_;
  bool have_ = false;
  std::optional<time_point> next_file_read_;
  std::optional<wall_time> exec_expiry_;
  bool stale_ = false;
  std::optional<time_point> retry_at_;
  error last_failure_;
};

/// A bearer token file's content without surrounding whitespace;
/// ec::unavailable when it cannot be read or holds nothing.
[[nodiscard]] expected<std::string> read_token_file(const std::string& path);

/// Runs an exec credential plugin once and parses its answer (exposed for
/// tests). `cluster` is passed when the plugin asked for cluster info.
[[nodiscard]] expected<exec_credential>
run_exec_plugin(const exec_config& exec, const exec_cluster_info* cluster,
                std::chrono::milliseconds timeout);

} // namespace tessera::io
