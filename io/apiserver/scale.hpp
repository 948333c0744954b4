// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The `scale` subresource of deployments, replica sets and stateful sets:
/// an autoscaling/v1 Scale view of `spec.replicas` (what `kubectl scale`
/// patches) with the current `status.replicas` and the selector as text.
/// A GET answers the Scale; a PUT or PATCH edits the Scale and writes its
/// `spec.replicas` into the object, with the object's resourceVersion as
/// the precondition when the Scale carried one.
#pragma once

#include "io/apiserver/patch.hpp"
#include "io/apiserver/resources.hpp"
#include "io/apiserver/status.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace tessera::apiserver {

class store;
struct write_options;

/// True for the resources that serve `scale`.
bool has_scale(const resource_info& resource) noexcept;

/// The Scale of ns/name as JSON.
api_result<std::string> read_scale(const store& s,
                                   const resource_info& resource,
                                   std::string_view ns, std::string_view name);

/// Applies a PUT (`patch` unset: `body` is the whole Scale) or a PATCH of
/// the Scale and answers the Scale after the write.
api_result<std::string> write_scale(store& s, const resource_info& resource,
                                    std::string_view ns, std::string_view name,
                                    std::optional<patch_type> patch,
                                    std::string_view body,
                                    const write_options& options);

} // namespace tessera::apiserver
