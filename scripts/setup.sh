#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to PTX:
#   installs what is missing (Debian's LLVM/MLIR 22, clang, lld, cmake, ninja),
#   configures and builds warp-opt, then lowers examples/warp_reduce.mlir to PTX.
# Environment: BUILD_DIR (default: build), MLIR_DIR (another MLIR 22 install),
#              WARP_SKIP_EXAMPLE=1 to stop after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}

scripts/install-packages.sh --build

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== configuring $BUILD_DIR"
  # A unity build in batches of 4 sources: the LLVM/MLIR templates a source
  # instantiates are compiled once a batch, not once a source, which takes
  # about a quarter off a build from scratch (the test command's, in CI);
  # an edit rebuilds its batch. -DCMAKE_UNITY_BUILD=OFF turns it off.
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=4 \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    "-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache" \
    -DWARP_SELF_CONTAINED=ON \
    ${MLIR_DIR:+-DMLIR_DIR="$MLIR_DIR"}
elif ! grep -q "^WARP_SELF_CONTAINED:BOOL=ON" "$BUILD_DIR/CMakeCache.txt"; then
  # A build directory configured before the self-contained targets were
  # part of the one configuration (test.sh builds the wheel).
  cmake -S . -B "$BUILD_DIR" -DWARP_SELF_CONTAINED=ON >/dev/null
fi
echo "== building warp-opt"
cmake --build "$BUILD_DIR" --target warp-opt warp-cuda-runner

if [ "${WARP_SKIP_EXAMPLE:-0}" != 1 ]; then
  echo "== examples/warp_reduce.mlir lowered to PTX for sm_90"
  "$BUILD_DIR/bin/warp-opt" examples/warp_reduce.mlir \
    --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=-" -o /dev/null
fi
