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
# Nsight Compute on one group's processes (warp's kernels and the
# baselines' side by side, two timed calls each, with every helper kernel
# unless NCU ARGS filter them, e.g. -k regex:NAME --launch-count K; sections:
# speed of light, warp stall reasons, occupancy, launch), to
# OUTDIR/ncu-GROUP-LOG2N.txt:
#   scripts/device-targets.sh profile OUTDIR GROUP LOG2N [NCU ARGS...]
# The CUB baselines are built here (nvcc from /usr/local/cuda) into the
# bundle, so that the GPU host does not spend its minutes on them.
set -euo pipefail
cd "$(dirname "$0")/.."
here=.gpu-bundle/device-targets
BUILD_DIR=${BUILD_DIR:-build}
install_wheel() { # the bundle's wheel into a fresh directory: $site
  site=$(mktemp -d)
  python3 -m pip install -q --no-index --no-deps --target "$site" "$here"/warp_mlir-*.whl
}
case "${1:-}" in
build)
  cmake --build "$BUILD_DIR" --target warp-python-wheel
  rm -rf "$here"
  mkdir -p "$here"
  cp "$BUILD_DIR"/dist/warp_mlir-*.whl "$here/"
  git rev-parse --short HEAD > "$here/COMMIT"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -O3 -arch=sm_90 -shared -Xcompiler -fPIC -o "$here/libbaselines.so" \
    benchmarks/device/baselines.cu
  ls "$here"
  ;;
run)
  out=${2:-${OUT:?an output directory, or \$OUT}}
  log2n=${3:-12,16,20,24,28}
  shift $(( $# < 3 ? $# : 3 ))
  mkdir -p "$out"
  install_wheel
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
  echo "wheel of $(cat "$here/COMMIT" 2>/dev/null || echo '?')"
  baselines=()
  [ ! -f "$here/libbaselines.so" ] || baselines=(--baselines-so "$PWD/$here/libbaselines.so")
  PYTHONPATH=$site WARP_TEST_INSTALLED=1 python3 benchmarks/device_ops_bench.py \
    --json "$out/targets.json" --log2n "$log2n" "${baselines[@]}" "$@" > "$out/targets.txt" 2>&1 || status=$?
  grep -v "^compile" "$out/targets.txt" | tail -40
  exit "${status:-0}"
  ;;
profile)
  out=${2:?an output directory}; group=${3:?a group of benchmarks/device_ops_bench.py}
  log2n=${4:?log2 of the size}
  shift 4
  sections=(--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats)
  mkdir -p "$out"
  install_wheel
  # The child process that times one group (device_ops_bench.py's own
  # --child), without the parent that would compile and time the rest.
  PYTHONPATH=$site WARP_TEST_INSTALLED=1 WARP_MLIR_CACHE_DIR=$(mktemp -d) \
    ncu --target-processes all --print-summary none "${sections[@]}" "$@" \
    python3 benchmarks/device_ops_bench.py --child "$group" --only "$group" --log2n "$log2n" \
    --iters 2 --warmup 1 --baselines-so "$PWD/$here/libbaselines.so" \
    > "$out/ncu-$group-$log2n.txt" 2>&1 || status=$?
  grep -E "^  [A-Za-z_].*\(|Duration|DRAM Throughput|^RESULT" "$out/ncu-$group-$log2n.txt" | head -60
  exit "${status:-0}"
  ;;
*)
  echo "usage: $0 build | run [OUTDIR] [LOG2N] [BENCH ARGS...] | profile OUTDIR GROUP LOG2N [NCU ARGS...]" >&2
  exit 2
  ;;
esac
