// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The checks the store runs on a client's write (`write_options::
/// validation` set; in-process writers are trusted and skip them), in the
/// order a kube-apiserver meets the same problems: the strict decode of the
/// body (unknown and repeated fields, `fieldValidation`), the decode of its
/// quantities (400), validation (422 with causes), and last the model's
/// decode, so that the server never stores what `tessera run` cannot read.
/// Internal to io/apiserver.
#pragma once

#include "io/apiserver/resources.hpp"
#include "io/apiserver/status.hpp"
#include "io/apiserver/store.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace boost::json {
class object;
class value;
} // namespace boost::json

namespace tessera::apiserver {

/// The 400 of a body a typed decode refuses, worded as kube-apiserver's
/// codec words it: `<Kind> in version "<v>" cannot be handled as a <Kind>:
/// <why>`.
api_status undecodable(const resource_info& res, std::string_view why);

/// Field validation of a client's document as `res` presents it: unknown
/// fields are dropped as a typed decode drops them; under Warn they and the
/// keys repeated in the body become warnings, under Strict a 400. `body` is
/// the document's own text (create, update), whose problems are reported
/// in document order, or a patch (`is_patch`), of which only repeated keys
/// count, followed by the unknown fields of the patched document.
std::optional<api_status> check_fields(const resource_info& res,
                                       std::string_view body, bool is_patch,
                                       boost::json::object& obj,
                                       const write_options& options);

/// The 400 of a quantity that does not parse.
std::optional<api_status> check_quantities_parse(const resource_info& res,
                                                 const boost::json::object& obj,
                                                 const write_options& options);

/// Admission's validation of a write, and for a client's write that of
/// its quantities too.
std::vector<status_cause> validation_causes(const resource_info& res,
                                            const boost::json::object& obj,
                                            const write_options& options);

/// The 422 of an object the model cannot decode (a last line behind the
/// validation of admission.cpp, which names most problems itself).
std::optional<api_status> check_decodable(const resource_info& res,
                                          std::string_view name,
                                          const boost::json::value& doc,
                                          const write_options& options);

} // namespace tessera::apiserver
