#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Fails on any #include that goes against the dependency arrows of
# docs/architecture.md ("Components and dependencies") or puts a heavy
# third-party header where style.md rule 4 does not allow it. Reads every
# C++ file that git tracks or would track (or, outside a git checkout, every
# one under the source tree); prints one line per violation. Usage: scripts/check-layout.sh
# [source dir]. ctest runs it as `layout_check`.
set -euo pipefail
root_dir="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
exec python3 - "$root_dir" <<'PYTHON'
import os, re, subprocess, sys

# ---------------------------------------------------------------------------
# The rules, in one place. Paths are relative to the repository root and
# matched as regular expressions against the whole path.
#
# COMPONENTS: for product code in each folder, the folders its quoted
# includes may name (the arrows, spelled out transitively). The first row
# whose pattern matches a file applies. A folder may always include itself.
COMPONENTS = [
    # folder pattern           may include
    (r"support/",              []),
    (r"metrics/",              ["support/"]),
    (r"model/",                ["support/"]),
    (r"config/",               ["model/", "support/"]),
    (r"plugins/",              ["config/", "model/", "metrics/", "support/"]),
    (r"io/",                   ["model/", "metrics/", "support/"]),
    (r"actors/",               ["plugins/", "config/", "io/", "model/",
                                "metrics/", "support/"]),
    (r"adapters/",             ["actors/", "plugins/", "config/", "io/",
                                "model/", "metrics/", "support/"]),
    (r"cmd/",                  None),  # None: anything of ours
    (r"perf/",                 None),
    (r"test/",                 None),
    (r"fuzz/",                 None),
]

# NARROWER: inside a component, product files matching the first pattern
# must not include paths matching the second (the first pattern's groups
# may be used as \1 ... in the second), with the reason shown.
NARROWER = [
    (r"plugins/framework/.*", r"plugins/(?!framework/)",
     "the framework knows no plugin"),
    (r"plugins/(?!framework/)([a-z_]+)/.*", r"plugins/(?!framework/|\1/)",
     "a plugin uses the framework, never another plugin"),
    (r"actors/.*", r"plugins/(?!framework/)",
     "actors run plugins through the framework, never a plugin's header"),
    (r"actors/([a-z_]+)/.*", r"actors/(?!\1/)[a-z_]+/",
     "an actor role reaches other roles through messages.hpp, not their "
     "folders"),
    (r"adapters/.*", r"actors/(?!source\.hpp$|sink\.hpp$)",
     "adapters see only the source and sink interfaces of actors"),
    (r"adapters/api_client/.*", r"adapters/embedded_store/",
     "the adapters are independent"),
    (r"adapters/embedded_store/.*", r"adapters/api_client/",
     "the adapters are independent"),
    (r"io/(?!apiserver/|serving/)[^/]*", r"io/(apiserver|serving)/",
     "io's client never sees the embedded server or the ops server"),
    (r"io/apiserver/.*", r"io/serving/", "io's servers are independent"),
    (r"io/serving/.*", r"io/apiserver/", "io's servers are independent"),
]

# CAF_FILES: the files of actors/ that may see CAF (its headers, or the
# actors headers that include it). Every <role>_state, message and
# interface of a source or sink stays CAF-free and is tested without it.
CAF_FILES = r"actors/(interfaces\.hpp|atoms\.hpp|behaviors\.hpp|pipeline\.(hpp|cpp)|exit_on_exception\.(hpp|cpp)|worker_polling\.cpp|([a-z_]+)/\4\.cpp)"
CAF_HEADERS = r"actors/(interfaces|atoms|behaviors|pipeline|exit_on_exception)\.hpp"

# THIRD_PARTY: where a heavy third-party header may appear. Tests follow
# the same table (a test may include what its folder's code may, and
# test/ anything).
THIRD_PARTY = [
    # what           include pattern           allowed in
    ("CAF",          r"caf/",                  CAF_FILES + r"|cmd/.*|perf/.*|test/.*"
                                               r"|(actors|adapters)/.*_test\.cpp"),
    ("Boost.Beast",  r"boost/beast",           r"io/.*\.cpp|fuzz/.*\.cpp"),
    ("Boost.Asio",   r"boost/asio",            r"io/.*\.cpp|fuzz/.*\.cpp"),
    ("Boost.JSON",   r"boost/json",            r"(model|io|cmd|perf)/(.*/)?[a-z_]+_json\.cpp"
                                               r"|model/json_(reader|access)\.hpp"
                                               r"|io/apiserver/.*\.cpp"
                                               r"|perf/bench/.*\.cpp|test/.*|fuzz/.*"
                                               r"|(model|io|adapters)/.*_test\.cpp"
                                               r"|io/apiserver/test_[a-z_]*\.hpp"),
    ("OpenSSL",      r"openssl/",              r"io/.*\.cpp"),
    ("prometheus-cpp", r"prometheus/",         r"metrics/.*"),
    ("protobuf",     r"google/protobuf/",      r"io/apiserver/.*\.cpp|fuzz/.*"
                                               r"|io/apiserver/test_[a-z_]*\.hpp"),
]

# Tests: *_test.cpp, *_bench.cpp and test helper headers (test_*.hpp,
# *_test_cycle.hpp) in a component folder may include anything of their
# own top-level folder and test/support/, besides what the folder's code
# may include; the NARROWER rules do not apply to them.
TEST_FILE = r".*(_test\.cpp|_bench\.cpp|/test_[a-z_]*\.hpp|_test_cycle\.hpp)"

# Generated at configure time (build/generated/); protoc's headers (X.pb.h
# beside X.proto) are generated at build time.
GENERATED = {"support/version.hpp"}


def generated(target):
    return target in GENERATED or (
        target.endswith(".pb.h")
        and os.path.exists(target[: -len(".pb.h")] + ".proto"))
# ---------------------------------------------------------------------------

root = sys.argv[1]
os.chdir(root)
try:
    files = subprocess.run(["git", "ls-files", "--cached", "--others",
                            "--exclude-standard", "*.cpp", "*.hpp", "*.h"],
                           check=True, capture_output=True,
                           text=True).stdout.split()
except (OSError, subprocess.CalledProcessError):
    files = []
    for d, subdirs, names in os.walk("."):
        subdirs[:] = [s for s in subdirs
                      if not s.startswith(".") and not s.startswith("build")]
        files += [os.path.relpath(os.path.join(d, n))
                  for n in names if n.endswith((".cpp", ".hpp", ".h"))]
files = [f for f in files if os.path.exists(f)]

include_re = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
problems = []

def component(path):
    for pattern, deps in COMPONENTS:
        if re.match(pattern, path):
            return pattern, deps
    return None, None

for path in sorted(files):
    own, deps = component(path)
    if own is None:
        continue  # outside the components (examples, deploy)
    is_test = re.fullmatch(TEST_FILE, path) is not None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    for number, line in enumerate(lines, 1):
        m = include_re.match(line)
        if not m:
            continue
        kind, target = m.groups()
        closing = ">" if kind == "<" else '"'
        where = f"{path}:{number}: #include {kind}{target}{closing}"
        if kind == "<":
            for what, pattern, allowed in THIRD_PARTY:
                if re.match(pattern, target):
                    if not re.fullmatch(allowed, path):
                        problems.append(f"{where}: {what} is not allowed here")
            continue
        if not os.path.exists(target) and not generated(target):
            problems.append(f"{where}: no such file (include by full path "
                            "from the repository root)")
            continue
        if deps is not None and not target.startswith(own):
            allowed = list(deps) + (["test/support/"] if is_test else [])
            if not any(target.startswith(d) for d in allowed):
                problems.append(f"{where}: {own.rstrip('/')} may not depend "
                                f"on {target.split('/')[0]}")
                continue
        if is_test:
            continue
        for mine, banned, reason in NARROWER:
            fm = re.fullmatch(mine, path)
            if fm and re.match(fm.expand(banned), target):
                problems.append(f"{where}: {reason}")
        if target.startswith("actors/") and re.match(CAF_HEADERS, target) \
                and path.startswith("actors/") and not re.fullmatch(CAF_FILES, path):
            problems.append(f"{where}: only behaviours, interfaces.hpp, "
                            "atoms.hpp and the pipeline see CAF")

for p in problems:
    print(p)
if problems:
    print(f"check-layout: {len(problems)} include(s) against the layout "
          "rules (docs/architecture.md, style.md rule 4)")
    sys.exit(1)
print(f"check-layout: {len(files)} files follow the layout rules")
PYTHON
