#!/usr/bin/env bash
# A/B of two commits' device ops on a GPU host: both wheels timed by
# device_ops_bench.py in alternating runs (old, new, old, new) in one call,
# CUB in every run; benchmarks/device_ab.py tabulates them.
#
# Here: the wheels, the new one from the build and the old one from OLD (a
# wheel file, or a commit built in a worktree of its own):
#   scripts/wheel-ab.sh build OLD
# On the GPU host (device tool, carry [".gpu-bundle/wheel-ab"]), from the
# repository root; GROUPS and LOG2N as device_ops_bench.py's --only and
# --log2n; writes $OUT/ab.tgz (every run's JSON and log):
#   scripts/wheel-ab.sh run GROUPS LOG2N [ROUNDS]
# Then here:
#   tar xzf ab.tgz && python3 benchmarks/device_ab.py --old old*.json --new new*.json
set -euo pipefail
cd "$(dirname "$0")/.."
here=.gpu-bundle/wheel-ab
case "${1:-}" in
build)
  old=${2:?an old wheel or commit}
  BUILD_DIR=${BUILD_DIR:-build}
  rm -rf "$here" && mkdir -p "$here/old" "$here/new"
  cmake --build "$BUILD_DIR" --target warp-python-wheel
  cp "$BUILD_DIR"/dist/warp_mlir-*.whl "$here/new/"
  if [ -f "$old" ]; then
    cp "$old" "$here/old/"
  else
    tree=$(mktemp -d)
    git worktree add -q --detach "$tree" "$old"
    (cd "$tree" && WARP_SKIP_EXAMPLE=1 scripts/setup.sh >/dev/null &&
       cmake --build build --target warp-python-wheel)
    cp "$tree"/build/dist/warp_mlir-*.whl "$here/old/"
    git worktree remove --force "$tree"
  fi
  git rev-parse --short "$old" 2>/dev/null > "$here/old/COMMIT" || echo "$old" > "$here/old/COMMIT"
  git rev-parse --short HEAD > "$here/new/COMMIT"
  ;;
run)
  groups=${2:?groups}; log2n=${3:?sizes}; rounds=${4:-2}
  out=${OUT:?the device tool OUT folder}
  res=$(mktemp -d)
  for side in old new; do
    python3 -m pip install -q --no-index --no-deps --target "/tmp/wheel-ab-$side" "$here/$side"/*.whl
  done
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$res/gpu.txt"
  nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC benchmarks/device/baselines.cu -o /tmp/wheel-ab-base.so
  start=$(date +%s)
  for round in $(seq "$rounds"); do
    for side in old new; do
      PYTHONPATH=/tmp/wheel-ab-$side WARP_TEST_INSTALLED=1 python3 benchmarks/device_ops_bench.py \
        --baselines-so /tmp/wheel-ab-base.so --json "$res/$side$round.json" --log2n "$log2n" \
        --only "$groups" > "$res/$side$round.txt" 2>&1 || echo "$side$round failed: $?"
      echo "$side$round $(( $(date +%s) - start )) s"
      tar czf "$out/ab.tgz" -C "$res" .
    done
  done
  ;;
*)
  echo "usage: $0 build OLD | run GROUPS LOG2N [ROUNDS]" >&2
  exit 2
  ;;
esac
