#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# clang-format 14 check of every tracked C++ file (style.md rule 13).
#
#   scripts/check-format.sh         fails, listing the files clang-format
#                                   would change (ctest runs it as
#                                   `format_check`)
#   scripts/check-format.sh --fix   formats them in place
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root_dir"

clang_format=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null 2>&1 \
    && "$candidate" --version | grep -q "version 14\."; then
    clang_format="$candidate"
    break
  fi
done
if [ -z "$clang_format" ]; then
  echo "check-format: clang-format 14 not found (scripts/install-deps.sh" \
    "installs it)" >&2
  exit 2
fi

mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
case "${1:-}" in
  "")
    bad=()
    for f in "${files[@]}"; do
      "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
    done
    if [ "${#bad[@]}" -gt 0 ]; then
      for f in "${bad[@]}"; do
        "$clang_format" --dry-run "$f" 2>&1 | head -n 10 >&2 || true
      done
      echo "check-format: ${#bad[@]} of ${#files[@]} files not formatted:" \
        "${bad[*]} (scripts/check-format.sh --fix formats them)" >&2
      exit 1
    fi
    echo "check-format: ${#files[@]} files formatted"
    ;;
  --fix)
    "$clang_format" -i "${files[@]}"
    echo "check-format: ${#files[@]} files formatted in place"
    ;;
  *)
    echo "usage: scripts/check-format.sh [--fix]" >&2
    exit 2
    ;;
esac
