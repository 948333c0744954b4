// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The target implementations behind `make_target` (internal to the
/// harness): the embedded cluster (inprocess, embedded-http) and a real
/// cluster from a kubeconfig.
#pragma once

#include "io/apiserver/fwd.hpp"
#include "perf/harness/target.hpp"

#include <memory>
#include <string_view>

namespace tessera::perf {

/// The embedded store, its fake kubelet and, for embedded-http, its HTTP
/// server on 127.0.0.1 (a free port).
[[nodiscard]] expected<std::unique_ptr<target>>
make_embedded_target(const target_options& options);

/// A cluster reached through `options.kubeconfig`.
[[nodiscard]] expected<std::unique_ptr<target>>
make_kubeconfig_target(const target_options& options);

/// The served resource of (apiVersion, kind), or nullptr.
const apiserver::resource_info*
find_embedded_resource(std::string_view api_version, std::string_view kind);

/// The served resource of a template's object, or ec::unsupported
/// "cannot <verb> <Kind>".
[[nodiscard]] expected<const apiserver::resource_info*>
resource_of(const object_template& t, std::string_view verb);

} // namespace tessera::perf
