// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The fixed documents of the embedded API server, rendered from the resource
/// table: discovery (`/api`, `/apis`, `/apis/<group>`, `/api/v1`,
/// `/apis/<group>/<version>`, docs/apiserver-protocol.md §6.2), `/version` and
/// the text exposition of `/metrics`. Internal to io/apiserver.
#pragma once

#include "io/apiserver/store.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::apiserver {

/// `/version`; `git_version` must be valid semver (`v1.37.0`).
std::string version_document(std::string_view git_version);
/// `/api`: APIVersions announcing `server_address`.
std::string api_versions_document(std::string_view server_address);
/// `/apis`: APIGroupList of every named group.
std::string api_group_list_document();
/// `/apis/<group>`: APIGroup, or nullopt for an unknown group.
std::optional<std::string> api_group_document(std::string_view group);
/// `/api/v1` or `/apis/<group>/<version>`: APIResourceList with
/// subresources.
std::string api_resource_list_document(std::string_view group,
                                       std::string_view version);

/// HTTP-side counters for /metrics.
struct request_counters {
  std::uint64_t requests = 0;
  std::uint64_t errors = 0;
  std::uint64_t watches = 0;
};

/// `/metrics` in Prometheus' text format.
std::string metrics_text(const store_stats& store, std::uint64_t rv,
                         const request_counters& requests);

} // namespace tessera::apiserver
