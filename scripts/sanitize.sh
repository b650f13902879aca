#!/usr/bin/env bash
# Builds warp-opt, warp-cuda-runner and libWarpCAPI.so with AddressSanitizer
# and UndefinedBehaviorSanitizer into build-asan and runs the lit suite and the
# Python tests against them (docs/Robustness.md).
#
#   scripts/sanitize.sh [LIT ARGS...]
#
# Ends with "sanitize: N passed, N failed, N skipped" over both suites and
# the number of sanitizer reports found in the logs (build-asan/lit.log,
# build-asan/pytest.log); exits non-zero when a test failed or a report was
# printed.
#
# Environment: SAN_BUILD_DIR (default build-asan), SAN_JOBS (default 2);
# the build is scripts/sanitized-build.sh's, shared with scripts/fuzz.sh.
#
# Notes
# * Only the warp code is instrumented: Debian's libMLIR.so/libLLVM.so are
#   not. Inline LLVM code compiled into the warp libraries (BumpPtrAllocator,
#   used by the attribute/type uniquer that libMLIR.so shares) poisons slabs
#   that libMLIR.so then fills without unpoisoning, which ASan reports as a
#   use-after-poison in memmove. allow_user_poisoning=0 turns that manual
#   poisoning off; heap, stack and global checks are unaffected.
# * The sanitizers go in through LLVM's own LLVM_USE_SANITIZER so that
#   HandleLLVMOptions drops -Wl,-z,defs for shared libraries: libWarpCAPI.so
#   leaves the ASan runtime symbols to the process (python3 gets it through
#   LD_PRELOAD).
# * UBSan does not recover (-fno-sanitize-recover=all): a report aborts the
#   process, so the test that triggered it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${SAN_BUILD_DIR:-build-asan}
scripts/sanitized-build.sh warp-opt warp-cuda-runner WarpCAPI warp-sim WarpSim warp-docs

ASAN_RT=$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)
# abort_on_error: a report kills the process with SIGABRT instead of exit(1),
# so a RUN line `not warp-opt ...` (which expects a plain failure) fails too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:abort_on_error=1}

count() { # count PATTERN LOG: the first number matched
  local n
  n=$(grep -oE "$1" "$2" | grep -oE "[0-9]+" | head -1 || true)
  echo "${n:-0}"
}
reports() { # sanitizer reports in a log
  grep -cE '^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$1" || true
}

lit_log="$BUILD_DIR/lit.log"
echo "== lit (log: $lit_log)"
marker="$BUILD_DIR/.lit-start"
touch "$marker"
set +e
nice -n 10 /usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" "$@" >"$lit_log" 2>&1
lit_status=$?
set -e
grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$lit_log" || true
tail -n 12 "$lit_log"
lit_passed=$(( $(count "^ *Passed *: *[0-9]+" "$lit_log") + $(count "^ *Expectedly Failed *: *[0-9]+" "$lit_log") ))
lit_failed=$(( $(count "^ *Failed *: *[0-9]+" "$lit_log") + $(count "^ *Unexpectedly Passed *: *[0-9]+" "$lit_log") + $(count "^ *Unresolved *: *[0-9]+" "$lit_log") + $(count "^ *Timed Out *: *[0-9]+" "$lit_log") ))
lit_skipped=$(( $(count "^ *Unsupported *: *[0-9]+" "$lit_log") + $(count "^ *Skipped *: *[0-9]+" "$lit_log") ))
lit_reports=$(reports "$lit_log")
# Reports a RUN line redirected into a file (2> %t/err) are not in the log.
redirected=$(find "$BUILD_DIR/test" -type f -newer "$marker" -size -8M \
  -exec grep -lE '^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' {} + 2>/dev/null || true)
if [ -n "$redirected" ]; then
  echo "sanitizer reports in test outputs:"
  echo "$redirected" | sed 's/^/  /'
  lit_reports=$((lit_reports + $(echo "$redirected" | wc -l)))
fi
echo "lit: ${lit_passed} passed, ${lit_failed} failed, ${lit_skipped} skipped, ${lit_reports} sanitizer reports"

py_log="$BUILD_DIR/pytest.log"
echo "== pytest (log: $py_log)"
set +e
# python3 itself is not instrumented: preload the ASan runtime for
# libWarpCAPI.so; CPython's own allocations would be reported as leaks.
WARP_MLIR_LIBRARY="$PWD/$BUILD_DIR/lib/libWarpCAPI.so" LD_PRELOAD="$ASAN_RT" \
ASAN_OPTIONS="detect_leaks=0:$ASAN_OPTIONS" \
  nice -n 10 /usr/bin/python3 -m pytest -q -p no:cacheprovider test/python >"$py_log" 2>&1
py_status=$?
set -e
tail -n 15 "$py_log"
py_passed=$(count "[0-9]+ passed" "$py_log")
py_failed=$(( $(count "[0-9]+ failed" "$py_log") + $(count "[0-9]+ error" "$py_log") ))
py_skipped=$(count "[0-9]+ skipped" "$py_log")
py_reports=$(reports "$py_log")
echo "pytest: ${py_passed} passed, ${py_failed} failed, ${py_skipped} skipped, ${py_reports} sanitizer reports"

echo "sanitize: $((lit_passed + py_passed)) passed, $((lit_failed + py_failed)) failed, $((lit_skipped + py_skipped)) skipped"
echo "sanitizer reports: $((lit_reports + py_reports))"
[ "$lit_status" -eq 0 ] && [ "$py_status" -eq 0 ] && [ "$((lit_reports + py_reports))" -eq 0 ]
