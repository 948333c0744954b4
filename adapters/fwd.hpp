// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Forward declarations of the adapters' main types, for headers that only
/// pass them around by pointer or reference (the verbs' run contexts).
#pragma once

namespace tessera::adapters {

class api_source;
class api_sink;
struct api_sink_config;
class work_pool;
class store_bridge;
struct store_bridge_config;

} // namespace tessera::adapters
