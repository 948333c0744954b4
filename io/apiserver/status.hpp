// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `api_status`: a Kubernetes `Status` failure (HTTP code, machine reason,
/// human message, details), the error type of every store and handler call.
/// `tessera::error` has too few codes to tell 409 AlreadyExists from 409
/// Conflict or 400 from 422, and the wire must say which, so the API server
/// keeps the full Status and converts to `tessera::error` (`to_error`) only at
/// its edges. `api_result<T>` is `expected<T>` with this error type. The
/// builders below produce upstream's exact messages (docs/apiserver-protocol.md
/// §4.5).
#pragma once

#include "support/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tessera::apiserver {

/// One entry of `details.causes` (422 Invalid).
struct status_cause {
  /// "FieldValueRequired", "FieldValueInvalid", "FieldValueForbidden", ...
  std::string reason;
  std::string message;
  std::string field;
};

/// A failure Status as the API server sends it.
struct api_status {
  /// HTTP status code: 400, 403, 404, 409, 410, 422, 500, ...
  int code = 500;
  /// Machine-readable reason: NotFound, AlreadyExists, Conflict, Invalid, ...
  std::string reason;
  std::string message;
  /// details.name, details.group, details.kind (the resource for most
  /// reasons, the Kind for Invalid); empty fields are omitted.
  std::string name;
  std::string group;
  std::string kind;
  std::vector<status_cause> causes;
  /// details.retryAfterSeconds for 429/504; 0 = absent.
  int retry_after_seconds = 0;
  /// Send `details` even when all its fields are empty (`"details":{}`),
  /// as kube-apiserver does for the reasons whose constructors set it
  /// (NotFound, Conflict, Invalid, Forbidden, MethodNotAllowed,
  /// InternalError, ...); clients such as `kubectl debug` read it
  /// unconditionally. BadRequest, Unauthorized, Expired and the content
  /// negotiation errors carry none upstream.
  bool with_details = false;

  /// The Status object as JSON text (`{"kind":"Status",...}`).
  std::string to_json() const;
};

/// Maps a Status onto the project-wide error codes.
error to_error(const api_status& s);

/// A value or an api_status.
template <class T> using api_result = expected<T, api_status>;

/// Status builders. `resource` is the plural resource qualified by its group
/// when it has one (`pods`, `leases.coordination.k8s.io`).
namespace status {
/// 404 `<resource> "<name>" not found`.
api_status not_found(std::string_view resource, std::string_view name);
/// 404 `the server could not find the requested resource` (a path that
/// names no served resource), with empty details.
api_status path_not_found();
/// 409 AlreadyExists `<resource> "<name>" already exists`.
api_status already_exists(std::string_view resource, std::string_view name);
/// 409 Conflict `Operation cannot be fulfilled on <resource> "<name>": <why>`.
api_status conflict(std::string_view resource, std::string_view name,
                    std::string_view why);
/// The stale-resourceVersion conflict.
api_status modified_conflict(std::string_view resource, std::string_view name);
/// 422 Invalid `<Kind>[.<group>] "<name>" is invalid: <causes>`.
api_status invalid(std::string_view kind, std::string_view group,
                   std::string_view name, std::vector<status_cause> causes);
/// 400 BadRequest with `message`.
api_status bad_request(std::string message);
/// 403 Forbidden `<resource> "<name>" is forbidden: <why>`.
api_status forbidden(std::string_view resource, std::string_view name,
                     std::string_view why);
/// 429 TooManyRequests with `message`, `details.retryAfterSeconds` (and a
/// Retry-After header) when `retry_after_seconds` > 0, and `causes`.
api_status too_many_requests(std::string message, int retry_after_seconds,
                             std::vector<status_cause> causes = {});
/// 410 Expired with `message`.
api_status expired(std::string message);
/// 500 InternalError `Internal error occurred: <message>`.
api_status internal(std::string_view message);
/// 405 MethodNotAllowed.
api_status method_not_allowed(std::string_view method,
                              std::string_view resource);
/// 415 UnsupportedMediaType.
api_status unsupported_media_type(std::string_view type);
/// 406 NotAcceptable.
api_status not_acceptable(std::string_view accept);
/// 504 Timeout `Timeout: Too large resource version: <rv>, current: <cur>`.
api_status too_large_resource_version(std::uint64_t rv, std::uint64_t current);
/// 401 Unauthorized.
api_status unauthorized();
/// 413 RequestEntityTooLarge: "Request entity too large: " and `what`.
api_status too_large(std::string_view what);
/// The same for a body past `limit` bytes.
api_status too_large(std::size_t limit);

/// Field-error cause builders, rendering `<field>: Required value` etc.
status_cause required(std::string field);
status_cause invalid_value(std::string field, std::string_view value,
                           std::string_view detail);
status_cause forbidden_field(std::string field, std::string_view detail);
status_cause unsupported_value(std::string field, std::string_view value,
                               std::string_view supported);
} // namespace status

} // namespace tessera::apiserver
