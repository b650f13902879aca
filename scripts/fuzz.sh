#!/usr/bin/env bash
# Fuzzes parse -> verify -> warp-lower-to-ptx{format=isa} with libFuzzer
# (tools/warp-fuzz; docs/Robustness.md).
#
#   scripts/fuzz.sh [SECONDS]        default 120
#
# Builds warp-fuzz in the sanitized build directory it shares with
# scripts/sanitize.sh (scripts/sanitized-build.sh: ASan+UBSan+libFuzzer
# coverage, assertions on), regenerates the seed corpus into build-asan/corpus
# from the lit tests and examples (test/fuzz/make_corpus.py) and fuzzes for
# SECONDS with test/fuzz/warp.dict. Prints the executions and the crash files;
# exits 1 when libFuzzer found a crash (crash-*/oom-*/timeout-* under
# build-asan/findings).
#
# Environment:
#   SAN_BUILD_DIR   build directory (default build-asan), SAN_JOBS compile jobs
#   FUZZ_FORK=N     run libFuzzer with -fork=N -ignore_crashes=1: keeps fuzzing
#                   after a crash and collects every one (default: stop at the
#                   first, as plain libFuzzer does)
#   FUZZ_JOBS=N     N fuzzing processes side by side, each for SECONDS, job j
#                   with -seed=j (after FUZZ_ARGS) on every N-th seed (its
#                   own corpus directory, build-asan/corpus.j, where its new
#                   units go too): replaying the seeds, the largest of which
#                   take seconds each under ASan, is split over the jobs
#                   rather than repeated by each. The executions are summed.
#                   Default 1.
#   FUZZ_ARGS       extra libFuzzer flags
#   WARP_FUZZ_VERIFY_EACH=0  do not treat "a pass left invalid IR" as a crash
#   WARP_FUZZ_MUTATOR=0      libFuzzer's byte mutations only (no structural
#                            edits of the MLIR text)
#   WARP_FUZZ_CLASSES=0      do not print how many inputs reached the shapes
#                            of earlier crash classes (printed by default)
#
# Minimize a finding:  build-asan/bin/warp-fuzz -minimize_crash=1 -runs=10000 \
#                        -exact_artifact_path=min.bin build-asan/findings/crash-XXX
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-120}
BUILD_DIR=${SAN_BUILD_DIR:-build-asan}
scripts/sanitized-build.sh warp-fuzz

CORPUS="$BUILD_DIR/corpus"
FINDINGS="$BUILD_DIR/findings"
mkdir -p "$CORPUS" "$FINDINGS"
python3 test/fuzz/make_corpus.py "$CORPUS"

fork_args=()
if [ -n "${FUZZ_FORK:-}" ]; then
  fork_args=(-fork="$FUZZ_FORK" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
fi
jobs=${FUZZ_JOBS:-1}
log="$BUILD_DIR/fuzz.log"
before=$(ls "$FINDINGS" | grep -cE '^(crash|oom|timeout|leak)-' || true)
echo "== fuzzing for ${SECONDS_TO_RUN}s, $jobs job(s) (log: $log)"
# fuzz_job LOG [FLAG...]: one libFuzzer process for SECONDS_TO_RUN.
fuzz_job() {
  local job_log=$1
  shift
  WARP_FUZZ_CLASSES=${WARP_FUZZ_CLASSES:-1} \
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    nice -n 10 "$BUILD_DIR/bin/warp-fuzz" \
      -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=30 \
      -rss_limit_mb=4096 -print_final_stats=1 \
      -dict=test/fuzz/warp.dict -artifact_prefix="$FINDINGS/" \
      "${fork_args[@]}" ${FUZZ_ARGS:-} "$@" >"$job_log" 2>&1
}
status=0
if [ "$jobs" -le 1 ]; then
  fuzz_job "$log" "$CORPUS" || status=$?
else
  rm -f "$log".*
  i=0
  for seed in "$CORPUS"/*; do
    part="$CORPUS.$(( i % jobs + 1 ))"
    mkdir -p "$part"
    cp "$seed" "$part/"
    i=$((i + 1))
  done
  pids=()
  for job in $(seq 1 "$jobs"); do
    fuzz_job "$log.$job" -seed="$job" "$CORPUS.$job" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
  cat "$log".* >"$log"
fi
tail -n 25 "$log" | { grep -v '^warp-fuzz: class' || true; }
# What the structure-aware mutations reached (tools/warp-fuzz/warp-fuzz.cpp).
grep '^warp-fuzz: class' "$log" || true

# Summed over the jobs; fork mode reports "#N ... exec/s" lines only.
execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' |
  awk '{ s += $1 } END { if (NR) print s }' || true)
if [ -z "$execs" ]; then
  execs=$(grep -oE '^#[0-9]+' "$log" | tr -d '#' | tail -1 || true)
fi
after=$(ls "$FINDINGS" | grep -cE '^(crash|oom|timeout|leak)-' || true)
echo "fuzz: ${execs:-0} executions in ${SECONDS_TO_RUN}s x $jobs job(s), exit status $status"
if [ "$after" -gt "$before" ] || [ "$status" -ne 0 ]; then
  echo "fuzz: FINDINGS ($((after - before)) new file(s)) in $FINDINGS:"
  ls -1 "$FINDINGS" | grep -E '^(crash|oom|timeout|leak)-' | sed 's/^/  /'
  exit 1
fi
echo "fuzz: no crashes"
