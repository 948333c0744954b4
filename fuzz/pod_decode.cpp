// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// A Pod as an API server sends it (no defaulting) and as a file holds it
// (defaulting on): decode_pod_json promises an error, never a crash.
#include "fuzz/fuzz_input.hpp"
#include "model/decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto text = fuzz::as_text(data, size);
  for (bool defaults : {false, true}) {
    auto p = model::decode_pod_json(text, {.apply_defaults = defaults});
    (void)p;
  }
  return 0;
}
