// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Verbs whose implementation has not landed yet. Each says so and which issue
// brings it; none pretends to work. This file shrinks as verbs land.
#include <cstdio>

#include "cmd/verbs.hpp"

namespace tessera::cmd {

namespace {
int not_yet(const char* verb, int issue) {
  std::fprintf(stderr, "tessera %s: not implemented yet (issue #%d)\n", verb,
               issue);
  return exit_failure;
}
} // namespace

int run_main(const args&) {
  return not_yet("run", 6);
}
int perf_main(const args&) {
  return not_yet("perf", 8);
}

} // namespace tessera::cmd
