// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// A list response as the reflector decodes it. The first line names the
// item kind ("Pod"; empty: derived from the list's kind), the rest is the
// body. A decoded list accounts for every item: decoded or skipped.
#include "fuzz/fuzz_input.hpp"
#include "model/decode.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto [kind_line, body] = fuzz::first_line(fuzz::as_text(data, size));
  std::optional<model::object_kind> kind;
  if (!kind_line.empty()) {
    kind = model::parse_object_kind(kind_line);
    if (!kind)
      return -1; // not an input this target takes
  }
  auto list = model::decode_list_json(body, kind, {.apply_defaults = false});
  if (list && list->skipped.size() != list->skipped_objects.size())
    fuzz::finding("decode_list_json: skipped and skipped_objects differ",
                  std::to_string(list->skipped.size()) + " vs "
                    + std::to_string(list->skipped_objects.size()));
  return 0;
}
