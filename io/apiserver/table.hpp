// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Server-side printing (`meta.k8s.io/v1` Table), the form kubectl asks for
/// with `Accept: application/json;as=Table;...`, with kubectl's usual
/// columns: `kubectl get pods` shows READY, STATUS, RESTARTS, AGE (and IP,
/// NODE with `-o wide`), `get events` LAST SEEN, TYPE, REASON, OBJECT,
/// MESSAGE, and so on for every served kind.
#pragma once

#include "io/apiserver/resources.hpp"
#include "io/apiserver/store.hpp"

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::apiserver {

/// True when `resource` has its own columns.
bool has_table(const resource_info& resource) noexcept;

/// A Table for a list response.
std::string render_table(const resource_info& resource,
                         const std::vector<object_ptr>& items,
                         std::uint64_t resource_version,
                         std::string_view continue_token,
                         std::int64_t remaining_item_count,
                         std::chrono::system_clock::time_point now);

/// One watch line (`{"type":..,"object":<one-row Table>}\n`); only the first
/// event of a stream carries the column definitions. BOOKMARK and ERROR
/// events keep their plain object.
std::string render_table_event(const resource_info& resource,
                               const watch_event& event, bool with_columns,
                               std::chrono::system_clock::time_point now);

} // namespace tessera::apiserver
