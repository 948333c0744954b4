#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# clang-format 14 check (style.md rule 13) that never asks anyone to
# reformat code they did not touch:
#
#   scripts/check-format.sh              every file in scripts/format-checked.txt
#                                        must be formatted as a whole (the
#                                        files already clean; the list only grows)
#   scripts/check-format.sh --changed [BASE]
#                                        the lines changed since BASE (default:
#                                        the merge base with main) must be
#                                        formatted (git clang-format --diff)
#   scripts/check-format.sh --count      how many tracked C++ files are not
#                                        formatted (a report; never fails)
#   scripts/check-format.sh --update     rewrites the list: every tracked file
#                                        that is formatted now
#
# ctest runs the first form as `format_check`; .ci/run also runs --changed.
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
list="$root_dir/scripts/format-checked.txt"
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

tracked_sources() {
  git ls-files '*.cpp' '*.hpp' '*.h'
}

is_formatted() {
  "$clang_format" --dry-run -Werror "$1" >/dev/null 2>&1
}

mode="${1:-list}"
case "$mode" in
  list)
    bad=0
    checked=0
    while IFS= read -r f; do
      case "$f" in '' | '#'*) continue ;; esac
      if [ ! -f "$f" ]; then
        echo "check-format: $f is listed in scripts/format-checked.txt" \
          "but does not exist (remove or rename it there)" >&2
        bad=$((bad + 1))
        continue
      fi
      checked=$((checked + 1))
      if ! is_formatted "$f"; then
        "$clang_format" --dry-run "$f" 2>&1 | head -n 20 >&2 || true
        bad=$((bad + 1))
      fi
    done <"$list"
    if [ "$bad" -gt 0 ]; then
      echo "check-format: $bad listed file(s) not formatted; run" \
        "$clang_format -i on them" >&2
      exit 1
    fi
    echo "check-format: $checked listed files formatted"
    ;;
  --changed)
    base="${2:-}"
    if [ -z "$base" ]; then
      base="$(git merge-base HEAD main 2>/dev/null || true)"
    fi
    if [ -z "$base" ]; then
      echo "check-format: no base commit (give one: --changed BASE);" \
        "skipped"
      exit 0
    fi
    git_cf="$(command -v git-clang-format-14 || command -v git-clang-format \
      || true)"
    if [ -z "$git_cf" ]; then
      echo "check-format: git-clang-format not found" >&2
      exit 2
    fi
    out="$("$git_cf" --binary "$(command -v "$clang_format")" --diff \
      --extensions cpp,hpp,h "$base" -- 2>&1 || true)"
    case "$out" in
      '' | *"no modified files to format"* | *"did not modify any files"*)
        echo "check-format: lines changed since ${base:0:12} are formatted"
        ;;
      *)
        printf '%s\n' "$out" >&2
        echo "check-format: lines changed since ${base:0:12} are not" \
          "formatted (git clang-format $base fixes them)" >&2
        exit 1
        ;;
    esac
    ;;
  --count)
    total=0
    bad=0
    while IFS= read -r f; do
      total=$((total + 1))
      is_formatted "$f" || bad=$((bad + 1))
    done < <(tracked_sources)
    echo "check-format: $bad of $total tracked C++ files are not formatted"
    ;;
  --update)
    {
      grep '^#' "$list" 2>/dev/null || true
      while IFS= read -r f; do
        if is_formatted "$f"; then
          printf '%s\n' "$f"
        fi
      done < <(tracked_sources)
    } >"$list.tmp"
    mv "$list.tmp" "$list"
    echo "check-format: $(grep -vc '^#' "$list") files listed"
    ;;
  *)
    echo "usage: scripts/check-format.sh [--changed [BASE] | --count |" \
      "--update]" >&2
    exit 2
    ;;
esac
