#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Installs what is missing, builds (Release), and runs the whole test suite.
# Extra arguments go to ctest (e.g. -R quantity).
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
"$root_dir/scripts/install-deps.sh"
"$root_dir/scripts/build.sh" Release
cd "$root_dir/build"
ctest --output-on-failure -j 2 --timeout 600 "$@"
echo "test.sh: all tests passed; binary at $root_dir/build/bin/tessera"
