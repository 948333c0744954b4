// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// A kubeconfig file's text, resolved for its current context as
// --kubeconfig is. Relative paths in it resolve against a directory that
// does not exist, so the fuzzer reads no file by accident.
#include "fuzz/fuzz_input.hpp"
#include "io/kubeconfig.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using namespace tessera;
  auto cfg = io::parse_kubeconfig(fuzz::as_text(data, size),
                                  "/nonexistent-fuzz-dir/kubeconfig");
  (void)cfg;
  return 0;
}
