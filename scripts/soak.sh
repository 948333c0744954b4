#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Runs the fault soak (test/run/soak_test.cpp) for as long as asked: the
# embedded cluster with every fault flag on, two `tessera run` with leader
# election, rounds of kill -9, SIGSTOP past the lease, SIGTERM, cluster
# restarts and pod and node churn, each round judged from the API. Usage:
#   scripts/soak.sh SECONDS [SEED]
# SECONDS is how long rounds keep starting (the last round and its settle
# phase finish after it); SEED fixes the actions (default random). Builds
# the Release targets first (build/, like scripts/build.sh), prints one line
# per round and the summary, and keeps the whole output (every action) in
# build/soak/soak-SEED.log. Exits 1 when a check failed (the log holds the
# violations, the actions and the processes' stderr), 2 on bad arguments.
# TESSERA_JOBS sets the compile jobs (2).
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="$root_dir/build"
jobs="${TESSERA_JOBS:-2}"

usage() {
  echo "usage: scripts/soak.sh SECONDS [SEED]" >&2
  exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
[[ "$1" =~ ^[1-9][0-9]*$ ]] || {
  echo "soak.sh: SECONDS must be a positive whole number, not '$1'" >&2
  usage
}
seed="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
[[ "$seed" =~ ^[0-9]+$ ]] || {
  echo "soak.sh: SEED must be a whole number, not '$seed'" >&2
  usage
}

cmake -S "$root_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
mkdir -p "$build_dir/soak"
ninja -C "$build_dir" -j "$jobs" tessera soak_tests >"$build_dir/soak/build.log" 2>&1 || {
  tail -n 40 "$build_dir/soak/build.log" >&2
  echo "soak.sh: build failed; the whole log is $build_dir/soak/build.log" >&2
  exit 1
}

log="$build_dir/soak/soak-$seed.log"
echo "soak.sh: $1 s, seed $seed; every action in $log"
set +e
TESSERA_SOAK_SECONDS="$1" TESSERA_SOAK_SEED="$seed" TESSERA_SOAK_VERBOSE=1 \
  "$build_dir/bin/soak_tests" --gtest_filter='Soak.*' 2>&1 | tee "$log" \
  | grep --line-buffered -E '^soak (round|done)'
rc="${PIPESTATUS[0]}"
set -e
if [ "$rc" -ne 0 ]; then
  grep -E '^ *violation: |^soak failed' "$log" >&2 || true
  echo "soak.sh: FAILED (seed $seed); violations, actions and stderr in $log" >&2
  exit 1
fi
