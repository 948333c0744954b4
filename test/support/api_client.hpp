// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Helpers for tests that talk to an API server through tessera's client:
/// the embedded server on a free loopback port, the client configuration for
/// a test server's URL, a plain HTTP client of it, the check that a leader
/// identity has the shape kube-scheduler gives it, and a JSON field reader
/// for response bodies.
#pragma once

#include "io/apiserver/server.hpp"
#include "io/http_client.hpp"
#include "io/rest_client.hpp"

#include <boost/json/fwd.hpp>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

namespace tessera::test {

/// The embedded API server over `st` with `cfg`, on a free port (cfg.port is
/// set to 0); aborts the test program when it cannot start.
std::unique_ptr<apiserver::api_server>
start_test_server(apiserver::store& st, apiserver::server_config cfg = {});

/// A client of the server at `url` (as `api_server::url()` prints it), with
/// client-side rate limiting off so that tests never wait on the bucket.
io::rest_client_config client_config_for(const std::string& url);

/// The configuration of a bare HTTP client (no TLS, no credentials) of
/// the plain server at `url`.
io::client_config http_config_for(const std::string& url);

/// A bare HTTP client (no TLS, no credentials) of the plain server at
/// `url`, for requests the typed client does not make.
io::http_client http_client_for(const std::string& url);

/// Whether `id` is `<hostname>_<UUID v4>` (lowercase hex), the leader
/// identity kube-scheduler writes into its Lease.
bool is_host_uuid(const std::string& id);

/// The string at `path` in `v` (object keys), or the JSON text of any other
/// value there; "" when the path is absent.
std::string json_text_at(const boost::json::value& v,
                         std::initializer_list<std::string_view> path);

} // namespace tessera::test
