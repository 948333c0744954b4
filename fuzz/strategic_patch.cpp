// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// The embedded API server's strategic merge patch: merge keys
// and the $patch, $retainKeys, $deleteFromPrimitiveList and
// $setElementOrder directives.
#include "fuzz/patch_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  return tessera::fuzz::run_patch(
    data, size, tessera::apiserver::patch_type::strategic, false);
}
