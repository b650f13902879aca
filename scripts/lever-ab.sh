#!/usr/bin/env bash
# A/B measurement of one compiler lever on the H200: the same benchmark
# kernels compiled with two sets of --warp-lower-to-ptx options, timed in
# alternating rounds in one run (docs/results/scan-steps-h200.txt is one).
#
# Here (needs the build and the GPU bundle, scripts/gpu-bundle.sh):
#   scripts/lever-ab.sh build "scan-steps=predicated" "scan-steps=lane-test"
# writes .gpu-bundle/lever-ab/{a,b}/{scan,block,bench}.ptx and the options.
# On the GPU host (device tool, carry [".gpu-bundle"]), from the repository
# root, after extracting the bundle to /tmp/warp-gpu:
#   scripts/lever-ab.sh run [ROUNDS] [BENCHMARKS]
# prints device_bench.py and warp_bench.py lines per option and round.
set -euo pipefail
cd "$(dirname "$0")/.."
here=.gpu-bundle/lever-ab
case "${1:-}" in
build)
  BUILD_DIR=${BUILD_DIR:-build}
  rm -rf "$here"
  for side in a b; do
    opts=$([ $side = a ] && echo "$2" || echo "$3")
    mkdir -p "$here/$side"
    echo "$opts" > "$here/$side/OPTIONS"
    for m in scan block; do
      "$BUILD_DIR/bin/warp-opt" "benchmarks/device/$m.mlir" -o /dev/null \
        --warp-lower-to-ptx="chip=sm_90 format=isa $opts ptx-output=$here/$side/$m.ptx"
    done
    "$BUILD_DIR/bin/warp-opt" benchmarks/kernels.mlir -o /dev/null \
      --warp-lower-to-ptx="chip=sm_90 format=isa $opts ptx-output=$here/$side/bench.ptx"
  done
  ;;
run)
  rounds=${2:-2}
  only=${3:-block_scan_i32_32,block_scan_i32_48,block_scan_i32_64,block_scan_i32_128,block_scan_i32_256,block_scan_i32_1024,scan_incl_i32,scan_excl_i32,scan_incl_f32,scan_excl_f32}
  gpu=/tmp/warp-gpu
  for side in a b; do
    rm -rf "/tmp/lever-ab-$side" && mkdir -p "/tmp/lever-ab-$side"
    cp "$gpu"/device/* "/tmp/lever-ab-$side/"
    cp "$here/$side"/*.ptx "/tmp/lever-ab-$side/"
  done
  for round in $(seq "$rounds"); do
    for side in a b; do
      echo "## $(cat "$here/$side/OPTIONS"), round $round"
      (cd "$gpu" && python3 device_bench.py --ptx-dir "/tmp/lever-ab-$side" --no-sass --only "$only") \
        | grep -E '^[a-z0-9_]+ +[0-9]|FAILED'
      (cd "$gpu" && python3 warp_bench.py --ptx "/tmp/lever-ab-$side/bench.ptx")
    done
  done
  ;;
*)
  echo "usage: $0 build OPTIONS_A OPTIONS_B | run [ROUNDS] [BENCHMARKS]" >&2
  exit 2
  ;;
esac
