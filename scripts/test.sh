#!/usr/bin/env bash
# Runs every test: builds what changed (via scripts/setup.sh, which installs
# missing packages), then the lit suite. GPU integration tests report
# UNSUPPORTED on machines without a GPU. Ends with "lit: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
WARP_SKIP_EXAMPLE=1 scripts/setup.sh
cmake --build "$BUILD_DIR" --target warp-opt

LIT=$(command -v lit || echo /usr/lib/llvm-22/bin/lit)
[ -x "$LIT" ] || LIT=/usr/lib/llvm-22/bin/lit
log=$(mktemp)
set +e
"$LIT" -sv "$BUILD_DIR/test" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
count() { grep -E "^ *$1: *[0-9]+" "$log" | head -1 | sed -E 's/.*: *([0-9]+).*/\1/'; }
passed=$(( $(count Passed || echo 0) + $(count "Expectedly Failed" || echo 0) ))
failed=$(( $(count Failed || echo 0) + $(count "Unexpectedly Passed" || echo 0) + $(count Unresolved || echo 0) + $(count "Timed Out" || echo 0) ))
skipped=$(( $(count Unsupported || echo 0) + $(count Skipped || echo 0) ))
rm -f "$log"
echo "lit: ${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$status"
