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
# The main job: tessera scheduling an upstream-style perf workload on the
# embedded cluster, over HTTP as against a real API server.
echo "demo: 'tessera perf' SchedulingBasic/500Nodes on the embedded cluster"
"$tessera" perf --workload-file "$root_dir/perf/workloads/performance-config.yaml" \
  --test-case SchedulingBasic --workload 500Nodes \
  --output-dir "$root_dir/build/perf-demo"
echo
echo "demo: binary at $tessera"
