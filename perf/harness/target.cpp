// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "perf/harness/target.hpp"

#include "perf/harness/embedded_target.hpp"

namespace tessera::perf {

std::string_view to_string(target_kind k) noexcept {
  switch (k) {
  case target_kind::inprocess:
    return "inprocess";
  case target_kind::embedded_http:
    return "embedded-http";
  case target_kind::kubeconfig:
    return "kubeconfig";
  }
  return "unknown";
}

error target::create_pods(
  const object_template& t, const std::string& ns, const std::string& json,
  std::size_t count,
  const std::function<void(const created_object&, time_point)>& created) {
  for (std::size_t i = 0; i < count; ++i) {
    time_point at = std::chrono::steady_clock::now();
    auto made = create(t, ns, json);
    if (!made)
      return made.err();
    created(*made, at);
  }
  return {};
}

error target::update(const object_template& t, const std::string& ns,
                     const std::string& name, const std::string& json,
                     const std::string& subresource) {
  auto res = resource_of(t, "update");
  if (!res)
    return res.err();
  return update_object(**res, t, ns, name, json, subresource);
}

error target::remove(const object_template& t, const std::string& ns,
                     const std::string& name) {
  auto res = resource_of(t, "delete");
  if (!res)
    return res.err();
  return remove_object(**res, t, ns, name);
}

expected<std::unique_ptr<target>> make_target(const target_options& options) {
  if (options.kind == target_kind::kubeconfig)
    return make_kubeconfig_target(options);
  return make_embedded_target(options);
}

} // namespace tessera::perf
