// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The string form of field selectors (`?fieldSelector=`) as the embedded API
// server parses it for a resource: the first line names the resource
// ("pods"; every resource when empty), the rest is the selector.
#include "fuzz/fuzz_input.hpp"
#include "io/apiserver/selector.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto [resource, text] = fuzz::first_line(fuzz::as_text(data, size));
  static constexpr std::string_view paths[]
    = {"metadata.name", "metadata.namespace", "spec.nodeName", "status.phase"};
  const std::string_view values[] = {"n1", "default", "", "Pending"};
  const apiserver::object_attrs attrs{paths, values};
  bool known = false;
  for (const auto& res : apiserver::all_resources()) {
    if (!resource.empty() && res.name != resource)
      continue;
    known = true;
    if (auto s = apiserver::selector::parse_fields(text, res)) {
      bool matched = s->matches(attrs);
      (void)matched;
    }
  }
  return known ? 0 : -1;
}
