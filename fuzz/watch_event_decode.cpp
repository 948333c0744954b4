// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// One line of a watch stream as the reflector decodes it. The first line
// names the watched kind ("Pod"), the rest is the event.
#include "fuzz/fuzz_input.hpp"
#include "model/decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto [kind_line, line] = fuzz::first_line(fuzz::as_text(data, size));
  auto kind = model::parse_object_kind(kind_line);
  if (!kind)
    return -1;
  auto ev
    = model::decode_watch_event_json(line, *kind, {.apply_defaults = false});
  if (ev && ev->obj
      && (ev->type == model::watch_event_type::bookmark
          || ev->type == model::watch_event_type::error))
    fuzz::finding("decode_watch_event_json: an object on a bookmark or error");
  return 0;
}
