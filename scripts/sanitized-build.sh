#!/usr/bin/env bash
# Configures (once) and builds the sanitized build directory that
# scripts/sanitize.sh and scripts/fuzz.sh share (docs/Robustness.md):
#
#   scripts/sanitized-build.sh TARGET...
#
# clang-22 with AddressSanitizer + UndefinedBehaviorSanitizer on all warp code
# (through LLVM_USE_SANITIZER, so shared libraries may leave the ASan runtime
# to the process), libFuzzer's coverage instrumentation (the default hooks are
# in the ASan runtime, libFuzzer's in the harness), the warp-fuzz harness
# (-DWARP_BUILD_FUZZER=ON), and -O1 without -DNDEBUG: the warp code keeps its
# assertions and the cast<> checks of the LLVM/MLIR headers (-O1, as ASan's
# documentation suggests: a build from scratch takes less CPU than at -O2,
# docs/results/test-loop.md). A unity build
# (CMake's, batches of 16 sources): this directory is built from scratch in
# CI, where compiling the MLIR templates each source instantiates once a
# batch rather than once a source saves CPU (the front end
# is most of this build's cost); an edit rebuilds its batch.
#
# Environment: SAN_BUILD_DIR (default build-asan), SAN_JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SAN_BUILD_DIR:-build-asan}

# The sanitizer and libFuzzer runtimes (compiler-rt) are a separate package.
scripts/install-packages.sh libclang-rt-22-dev

# libFuzzer's coverage (what -fsanitize=fuzzer-no-link adds) minus its
# stack-depth tracing, whose __sancov_lowest_stack only libFuzzer defines: the
# tools and libraries then load with the ASan runtime alone.
COVERAGE="-fsanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "== configuring $BUILD_DIR"
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O1" -DCMAKE_CXX_FLAGS_RELEASE="-O1" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    "-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache" \
    -DLLVM_USE_SANITIZER="Address;Undefined" \
    -DLLVM_UBSAN_FLAGS="-fsanitize=undefined -fno-sanitize-recover=all" \
    -DCMAKE_C_FLAGS="$COVERAGE" -DCMAKE_CXX_FLAGS="$COVERAGE" \
    -DWARP_BUILD_FUZZER=ON -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16
fi
echo "== building $* in $BUILD_DIR (ASan+UBSan)"
nice -n 10 cmake --build "$BUILD_DIR" --target "$@" -j "${SAN_JOBS:-2}"
