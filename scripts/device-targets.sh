#!/usr/bin/env bash
# Issue 32's table of the device ops against their targets
# (docs/results/device-targets-*.md): every device_ops_bench.py group, warp
# against CUB, torch and Triton in one process, on a GPU host.
#
# Here: the Python wheel to time, in .gpu-bundle/device-targets/:
#   scripts/device-targets.sh build
# On the GPU host (device tool, carry [".gpu-bundle/device-targets"]), from
# the repository root; writes OUTDIR/targets.json and targets.txt (about six
# minutes on an H100 at the default sizes; extra arguments go to the bench):
#   scripts/device-targets.sh run [OUTDIR] [LOG2N] [BENCH ARGS...]
# Then here:
#   python3 benchmarks/device_targets.py OUTDIR/targets.json \
#       -o docs/results/device-targets-<chip>-<commit>.md --svg ....svg
set -euo pipefail
cd "$(dirname "$0")/.."
here=.gpu-bundle/device-targets
BUILD_DIR=${BUILD_DIR:-build}
case "${1:-}" in
build)
  cmake --build "$BUILD_DIR" --target warp-python-wheel
  rm -rf "$here"
  mkdir -p "$here"
  cp "$BUILD_DIR"/dist/warp_mlir-*.whl "$here/"
  git rev-parse --short HEAD > "$here/COMMIT"
  ls "$here"
  ;;
run)
  out=${2:-${OUT:?an output directory, or \$OUT}}
  log2n=${3:-12,16,20,24,28}
  shift $(( $# < 3 ? $# : 3 ))
  mkdir -p "$out"
  site=$(mktemp -d)
  python3 -m pip install -q --no-index --no-deps --target "$site" "$here"/warp_mlir-*.whl
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
  echo "wheel of $(cat "$here/COMMIT" 2>/dev/null || echo '?')"
  PYTHONPATH=$site WARP_TEST_INSTALLED=1 python3 benchmarks/device_ops_bench.py \
    --json "$out/targets.json" --log2n "$log2n" "$@" > "$out/targets.txt" 2>&1 || status=$?
  grep -v "^compile" "$out/targets.txt" | tail -40
  exit "${status:-0}"
  ;;
*)
  echo "usage: $0 build | run [OUTDIR] [LOG2N] [BENCH ARGS...]" >&2
  exit 2
  ;;
esac
