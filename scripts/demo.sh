#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Installs what is missing, builds Release, and runs tessera's main job on
# the embedded default.
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
"$root_dir/scripts/install-deps.sh"
"$root_dir/scripts/build.sh" Release tessera
tessera="$root_dir/build/bin/tessera"
"$tessera" version
echo
echo "demo: scheduling examples/demo-cluster.yaml with 'tessera simulate -o text'"
"$tessera" simulate -f "$root_dir/examples/demo-cluster.yaml" -o text
echo
# The main job: tessera scheduling an upstream-style perf workload (5,000
# nodes, 1,000 + 10,000 pods) on the embedded cluster, over HTTP as against
# a real API server. Progress goes to stderr: a bar on a terminal, a line
# per step otherwise; the results table goes to stdout.
echo "demo: 'tessera perf' SchedulingBasic/5000Nodes on the embedded cluster"
"$tessera" perf --workload-file "$root_dir/perf/workloads/performance-config.yaml" \
  --test-case SchedulingBasic --workload 5000Nodes --target embedded-http \
  --output-dir "$root_dir/build/perf-demo"
echo
echo "demo: binary at $tessera"
