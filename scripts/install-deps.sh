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
# there (cmake finds it; see test/CMakeLists.txt).
set -euo pipefail

root_dir="$(cd "$(dirname "$0")/.." && pwd)"
packages=(
  libcaf-dev libboost1.81-dev libboost-json1.81-dev libboost-system1.81-dev
  prometheus-cpp-dev libyaml-cpp-dev libssl-dev libgtest-dev libgmock-dev
  libbenchmark-dev cmake ninja-build g++ pkg-config ccache openssl curl
  python3 # the deploy test's stand-in API discovery for kubectl --dry-run
          # and scripts/check-layout.sh
  clang-format git # scripts/check-format.sh (clang-format 14 on Debian 12)
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
echo "install-deps: ok"
