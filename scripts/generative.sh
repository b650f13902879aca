#!/usr/bin/env bash
# Long runs of the generative contract tester (test/Generative/README.md):
#   scripts/generative.sh HOURS [SEED]
# builds what changed, then generates, lowers (sm_70 to sm_100a, every
# option set) and checks programs on the simulator for HOURS hours; each
# failure is shrunk and saved under test/Generative/found/ (copy it to
# test/Generative/regressions/ once fixed). Ends with
# "generative: N programs, M lane values, K mismatches".
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
[ $# -ge 1 ] || { echo "usage: scripts/generative.sh HOURS [SEED]" >&2; exit 2; }
WARP_SKIP_EXAMPLE=1 scripts/setup.sh
cmake --build "$BUILD_DIR" --target warp-opt WarpSim
seed=${2:-$(date +%s)}
echo "== generative: seed $seed, $1 hours"
exec /usr/bin/python3 test/Generative/generative.py --warp-opt "$BUILD_DIR/bin/warp-opt" \
  --hours "$1" --seed "$seed" --batch 60 --save-failures test/Generative/found
