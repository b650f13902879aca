#!/usr/bin/env bash
# Runs every test: builds what changed (via scripts/setup.sh, which installs
# missing packages), then the lit suite. GPU integration tests report
# UNSUPPORTED on machines without a GPU. Ends with "lit: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
WARP_SKIP_EXAMPLE=1 scripts/setup.sh
cmake --build "$BUILD_DIR" --target warp-opt warp-cuda-runner

LIT=$(command -v lit || echo /usr/lib/llvm-22/bin/lit)
[ -x "$LIT" ] || LIT=/usr/lib/llvm-22/bin/lit
log=$(mktemp)
set +e
"$LIT" -sv "$BUILD_DIR/test" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
count() {
  local n
  n=$(grep -E "^ *$1 *: *[0-9]+" "$log" | head -1 | sed -E "s/.*: *([0-9]+).*/\\1/")
  echo "${n:-0}"
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(( $(count Unsupported) + $(count Skipped) ))
rm -f "$log"
echo "lit: ${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$status"
