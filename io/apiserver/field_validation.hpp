// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Field validation of request bodies, as kube-apiserver's strict decoding
/// does it (the `fieldValidation` query parameter): the fields each served
/// kind declares (`known_fields`), the unknown fields of a document, which
/// a typed decode drops (`prune_unknown_fields`), and what a strict decode
/// of a JSON text reports (`field_problems`). Paths read as upstream writes
/// them: `spec.containers[0].imagePullPolcy`.
///
/// The schemas name every field of the object levels a scheduler and its
/// users write (object metadata, the pod spec, containers and their
/// resources, affinity, tolerations, spread constraints, volumes' sources,
/// node taints, PDB, lease, priority class, event, claim and class fields).
/// Deeper parts whose contents tessera never reads (probes, security
/// contexts, volume source bodies, statuses, service and volume specs) are
/// open: anything below them is accepted as is. Internal to io/apiserver.
#pragma once

#include "io/apiserver/resources.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boost::json {
class object;
} // namespace boost::json

namespace tessera::apiserver {

/// What a write does with unknown and duplicate fields.
enum class field_validation : std::uint8_t {
  /// Drop them silently.
  ignore,
  /// Drop them and answer with one `Warning` header each.
  warn,
  /// Refuse the write with 400 BadRequest naming them.
  strict,
};

/// Parses the query parameter value ("Strict", "Warn", "Ignore").
std::optional<field_validation> parse_field_validation(std::string_view text);

/// Removes the fields `resource`'s kind does not declare from `obj` (the
/// object as that resource presents it) and returns their paths, in
/// document order.
std::vector<std::string> prune_unknown_fields(const resource_info& resource,
                                              boost::json::object& obj);

/// What a strict decode of `json` as `resource`'s kind reports, in
/// document order: `duplicate field "<path>"` for each repeated key and
/// `unknown field "<path>"` for each field the kind does not declare (for a
/// null resource, such as a patch body, repeated keys only). Empty for
/// malformed text, which the real parse reports.
std::vector<std::string> field_problems(const resource_info* resource,
                                        std::string_view json);

} // namespace tessera::apiserver
