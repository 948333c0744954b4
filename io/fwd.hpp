// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Forward declarations of io's main types, for headers that only pass
/// them around by pointer or reference.
#pragma once

namespace tessera::io {

class http_client;
class line_stream;
class rest_client;
class reflector;
class event_recorder;
struct client_config;
struct tls_options;
struct http_request;
struct http_response;
struct server_url;

} // namespace tessera::io
