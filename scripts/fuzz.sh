#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Builds the libFuzzer targets of fuzz/ (clang 14, ASan + UBSan, into
# build-fuzz/) and runs them. Usage:
#   scripts/fuzz.sh TARGET SECONDS   run one target for SECONDS
#   scripts/fuzz.sh --all SECONDS    run every target for SECONDS each
#   scripts/fuzz.sh --list           name the targets
#   scripts/fuzz.sh --build          only build them
# Each run starts from the seeds in fuzz/corpus/TARGET/ and the inputs
# earlier runs kept in build-fuzz/corpus/TARGET/, and prints one line:
# executions, executions per second, coverage (libFuzzer's cov and ft),
# corpus size and findings. A crash, sanitizer report, timeout or broken
# promise leaves its input in fuzz/findings/ (not tracked) and makes the
# script exit 1 (after the other targets with --all). Bad arguments exit 2.
# TESSERA_JOBS sets the compile jobs (2).
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="$root_dir/build-fuzz"
findings_dir="$root_dir/fuzz/findings"
jobs="${TESSERA_JOBS:-2}"

usage() {
  echo "usage: scripts/fuzz.sh TARGET SECONDS | --all SECONDS | --list | --build" >&2
  exit 2
}

targets() {
  sed -n 's/^tessera_add_fuzzer(\([a-z_]*\) .*/\1/p' "$root_dir/fuzz/CMakeLists.txt"
}

# The dictionary each target uses (fuzz/dict/).
dictionary() {
  case "$1" in
    apiserver_http) echo http ;;
    quantity_parse) echo quantity ;;
    protobuf_body) echo protobuf ;;
    label_selector_parse | field_selector_parse) echo selector ;;
    manifest_decode | yaml_to_json | scheduler_config | kubeconfig_parse) echo yaml ;;
    *) echo json ;;
  esac
}

build() {
  if ! command -v clang++-14 >/dev/null; then
    echo "fuzz.sh: clang++-14 is missing; run scripts/install-deps.sh" >&2
    exit 2
  fi
  if [ ! -f "$build_dir/build.ninja" ]; then
    CC=clang-14 CXX=clang++-14 cmake -S "$root_dir" -B "$build_dir" -G Ninja \
      -DCMAKE_BUILD_TYPE=fuzz -DTESSERA_BUILD_TESTS=OFF \
      -DTESSERA_BUILD_BENCHMARKS=OFF >/dev/null
  fi
  ninja -C "$build_dir" -j "$jobs" "$@" >"$build_dir/fuzz-build.log" 2>&1 || {
    tail -n 40 "$build_dir/fuzz-build.log" >&2
    echo "fuzz.sh: build failed; the whole log is $build_dir/fuzz-build.log" >&2
    exit 1
  }
}

# run TARGET SECONDS: prints the summary line; returns 1 on a finding.
run() {
  local target="$1" seconds="$2"
  local work="$build_dir/corpus/$target" log="$build_dir/logs/$target.log"
  mkdir -p "$work" "$build_dir/logs" "$findings_dir"
  local rc=0
  nice "$build_dir/bin/fuzz_$target" "$work" "$root_dir/fuzz/corpus/$target" \
    -dict="$root_dir/fuzz/dict/$(dictionary "$target").dict" \
    -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$findings_dir/$target-" >"$log" 2>&1 || rc=$?
  local execs rate cov ft corp
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
  # The last status line libFuzzer printed: "#N DONE cov: C ft: F corp: K/B".
  local status
  status="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$status")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")"
  corp="$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$status")"
  local found="none"
  if [ "$rc" -ne 0 ]; then
    found="$(grep -E '^(==[0-9]+==ERROR|SUMMARY|FINDING|.*runtime error)' "$log" | head -n 1 || true)"
    local artifact
    artifact="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)"
    found="${found:-exit code $rc} (input: ${artifact:-none}; log: $log)"
  fi
  printf '%-22s %10s execs %7s/s  cov %5s  ft %6s  corpus %5s  findings: %s\n' \
    "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found"
  [ "$rc" -eq 0 ]
}

seconds_arg() {
  [[ "${1:-}" =~ ^[1-9][0-9]*$ ]] || {
    echo "fuzz.sh: SECONDS must be a positive whole number, not '${1:-}'" >&2
    usage
  }
}

case "${1:-}" in
  --list)
    [ $# -eq 1 ] || usage
    targets
    ;;
  --build)
    [ $# -eq 1 ] || usage
    build fuzz_all
    echo "fuzz.sh: targets in $build_dir/bin"
    ;;
  --all)
    [ $# -eq 2 ] || usage
    seconds_arg "$2"
    build fuzz_all
    failed=0
    for t in $(targets); do
      run "$t" "$2" || failed=1
    done
    exit "$failed"
    ;;
  "" | -*)
    usage
    ;;
  *)
    [ $# -eq 2 ] || usage
    if ! targets | grep -qx "$1"; then
      echo "fuzz.sh: no fuzz target '$1'; targets: $(targets | tr '\n' ' ')" >&2
      exit 2
    fi
    seconds_arg "$2"
    build "fuzz_$1"
    run "$1" "$2"
    ;;
esac
