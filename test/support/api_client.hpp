// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Helpers for tests that talk to an API server through tessera's client:
/// the client configuration for a test server's URL, and the check that a
/// leader identity has the shape kube-scheduler gives it.
#pragma once

#include "io/rest_client.hpp"

#include <string>

namespace tessera::test {

/// A client of the server at `url` (as `api_server::url()` prints it), with
/// client-side rate limiting off so that tests never wait on the bucket.
io::rest_client_config client_config_for(const std::string& url);

/// Whether `id` is `<hostname>_<UUID v4>` (lowercase hex), the leader
/// identity kube-scheduler writes into its Lease.
bool is_host_uuid(const std::string& id);

} // namespace tessera::test
