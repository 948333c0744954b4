// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `patch_type` and `apply_patch`: the three patch formats a PATCH request may
/// carry (docs/apiserver-protocol.md §4.2): JSON patch (RFC 6902), JSON merge
/// patch (RFC 7386) and strategic merge patch. The strategic form merges lists
/// by the merge keys of the fields schedulers, kwok and kubectl touch — pod
/// containers by `name`, pod and node `status.conditions` by `type`, node
/// `status.addresses` by `type`, `status.podIPs` by `ip`, ownerReferences by
/// `uid` — replaces other lists, and honours the `$patch`, `$retainKeys`,
/// `$deleteFromPrimitiveList/` and `$setElementOrder/` directives (the last
/// only for order, which it ignores). Server-side apply is not supported.
#pragma once

#include "io/apiserver/resources.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace boost::json {
class value;
}

namespace tessera::apiserver {

enum class patch_type : std::uint8_t {
  json_patch,
  merge,
  strategic,
  apply,
};

/// The patch type of a Content-Type header value, ignoring parameters;
/// nullopt for anything else.
std::optional<patch_type> patch_type_from_content_type(std::string_view ct);

/// What the copies of one JSON patch may add to the document, in bytes of
/// JSON: kube-apiserver's default JSONPatchMaxCopyBytes.
inline constexpr std::size_t max_json_patch_copy_bytes = 3 * 1024 * 1024;
/// Operations one JSON patch may hold, as kube-apiserver (413 past it).
inline constexpr std::size_t max_json_patch_operations = 10000;

/// Applies `patch` to `target` (a JSON object) in place. Returns an error
/// message when the patch is malformed or a JSON-patch operation fails
/// (the caller answers 422/400); `apply` is never accepted here.
std::optional<std::string> apply_patch(boost::json::value& target,
                                       const boost::json::value& patch,
                                       patch_type type, storage_kind storage);

} // namespace tessera::apiserver
