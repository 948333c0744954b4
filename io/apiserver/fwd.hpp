// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Forward declarations of the embedded API server's main types, for headers
/// that only pass them around by pointer or reference.
#pragma once

#include <memory>

namespace tessera::apiserver {

class store;
class watcher;
class stored_object;
class api_handler;
class api_server;
class kwok_controller;
struct store_config;
struct server_config;
struct kwok_config;
struct watch_event;
struct api_status;
struct resource_info;

using object_ptr = std::shared_ptr<const stored_object>;

} // namespace tessera::apiserver
