#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Installs what is missing, builds (Release), and runs the whole test suite.
# Extra arguments go to ctest (e.g. -R quantity).
#
# scripts/test.sh --asan [ctest args]: the same suite built with
# AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/, no
# benchmarks); any sanitizer report fails its test. The layout and format
# checks, which read files only, run in the Release pass alone.
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
build_type=Release
if [ "${1:-}" = "--asan" ]; then
  build_type=asan
  shift
fi
"$root_dir/scripts/install-deps.sh"
"$root_dir/scripts/build.sh" "$build_type"
if [ "$build_type" = Release ]; then
  cd "$root_dir/build"
  ctest --output-on-failure -j 2 --timeout 600 "$@"
  echo "test.sh: all tests passed; binary at $root_dir/build/bin/tessera"
  exit 0
fi
cd "$root_dir/build-asan"
# Tests run two to three times slower under the sanitizers.
ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
  ctest --output-on-failure -j 2 --timeout 1200 -E '^(layout_check|format_check)$' "$@"
echo "test.sh: all tests passed under ASan and UBSan"
