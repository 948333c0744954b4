#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Configures and builds tessera. Usage: scripts/build.sh
# [Release|Debug|asan|unity] [ninja targets...]. Release builds into build/,
# others into build-<type>/. unity is a Release build with CMake's unity
# build on (many sources compiled as one), which style rule 3 keeps working.
# The binary ends up at <build dir>/bin/tessera.
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
build_type="${1:-Release}"
shift || true
case "$build_type" in
  Release) build_dir="$root_dir/build" ;;
  Debug|asan|unity) build_dir="$root_dir/build-$build_type" ;;
  *) echo "build.sh: unknown build type '$build_type' (Release, Debug, asan, unity)" >&2
     exit 2 ;;
esac

# Two compile jobs: the machines have 2 cores and the heavy TUs need ~1 GB.
jobs="${TESSERA_JOBS:-2}"
# Benchmarks measure nothing under the sanitizers: the asan build skips them.
benchmarks=ON
[ "$build_type" = asan ] && benchmarks=OFF
cmake_type="$build_type"
unity=OFF
if [ "$build_type" = unity ]; then
  cmake_type=Release
  unity=ON
fi
cmake -S "$root_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$cmake_type" \
  -DCMAKE_UNITY_BUILD="$unity" -DTESSERA_BUILD_BENCHMARKS="$benchmarks" \
  >/dev/null
ninja -C "$build_dir" -j "$jobs" "$@"
echo "build.sh: binary at $build_dir/bin/tessera"
