#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are missing
# (apt-get update first; sudo when not root). `--build` stands for what the
# build and the tests need (setup.sh). Shared by setup.sh, test.sh and
# sanitized-build.sh.
set -euo pipefail
build_packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
                cmake ninja-build ccache zlib1g-dev libzstd-dev python3 python3-pytest
                python3-pytest-xdist python3-numpy python3-pip python3-setuptools
                python3-wheel python3-venv)
wanted=()
for p in "$@"; do
  if [ "$p" = --build ]; then wanted+=("${build_packages[@]}"); else wanted+=("$p"); fi
done
missing=()
for p in "${wanted[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0
echo "== installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
