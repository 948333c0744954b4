// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The embedded API server's JSON merge patch (RFC 7386), which must
// be idempotent.
#include "fuzz/patch_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  return tessera::fuzz::run_patch(data, size,
                                  tessera::apiserver::patch_type::merge, true);
}
