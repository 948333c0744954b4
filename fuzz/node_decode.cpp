// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// A Node as an API server sends it and as a file holds it: decode_node_json
// promises an error, never a crash.
#include "fuzz/fuzz_input.hpp"
#include "model/decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto text = fuzz::as_text(data, size);
  for (bool defaults : {false, true}) {
    auto n = model::decode_node_json(text, {.apply_defaults = defaults});
    (void)n;
  }
  return 0;
}
