#!/usr/bin/env bash
# Runs every test: builds what changed (via scripts/setup.sh, which installs
# missing packages), then the lit suite and the Python package's pytest
# suite, then the platform wheel (self-contained library inside) installed
# into a fresh virtual environment with the pytest suite run against it,
# then a bounded libFuzzer run under ASan+UBSan (scripts/fuzz.sh,
# WARP_FUZZ_SECONDS of one core, default 60, spread over up to 4 cores as
# one job a core with seeds 1..N; docs/Robustness.md). GPU tests
# report UNSUPPORTED/skipped on machines without a GPU.
# Ends with "tests: N passed, N failed, N skipped" over lit and pytest.
# WARP_SKIP_FUZZ=1 skips the fuzzing stage (a quicker local loop).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
# Seconds per stage, printed at the end (docs/results/test-loop.md).
stage_names=(); stage_secs=(); stage_start=$SECONDS; stage_name=""
stage() { # stage NAME: ends the running stage, starts NAME
  if [ -n "$stage_name" ]; then
    stage_names+=("$stage_name"); stage_secs+=($((SECONDS - stage_start)))
  fi
  stage_name=$1; stage_start=$SECONDS
}

stage setup
# The sanitized build of the fuzz harness runs in the background from here
# on, at the lowest CPU priority: it gets the CPU that the stages below leave
# idle (configuring, the precompiled header, links, lit's last tests,
# pytest's start-up), and the fuzz-build stage waits for what is left of it.
# Its packages are installed first, in the foreground (apt has one lock).
fuzz_build_pid=""
if [ "${WARP_SKIP_FUZZ:-0}" != 1 ]; then
  scripts/install-packages.sh --build libclang-rt-22-dev
  mkdir -p "$BUILD_DIR"
  fuzz_build_log="$BUILD_DIR/fuzz-build.log"
  # Its own process group (job control on for the launch), so that an early
  # exit stops all of it. Not setsid: a new session is a new scheduler
  # autogroup, which gets an equal share of the CPU whatever its nice value.
  set -m
  nice -n 19 scripts/sanitized-build.sh warp-fuzz > "$fuzz_build_log" 2>&1 &
  fuzz_build_pid=$!
  set +m
fi
stop_fuzz_build() { [ -z "$fuzz_build_pid" ] || kill -- "-$fuzz_build_pid" 2>/dev/null || true; }
trap stop_fuzz_build EXIT
# setup.sh configures the one build directory everything below uses.
WARP_SKIP_EXAMPLE=1 scripts/setup.sh
stage build
cmake --build "$BUILD_DIR" --target warp-opt warp-cuda-runner WarpCAPI warp-sim WarpSim \
  warp-docs warp-python-wheel

log=$(mktemp)
trap 'rm -f "$log"; stop_fuzz_build' EXIT
count() { # count PATTERN: the number before/after a label in the log
  local n
  n=$(grep -oE "$1" "$log" | grep -oE "[0-9]+" | head -1)
  echo "${n:-0}"
}

stage lit
# A stage that failed without counting a test (say a conftest that does not
# import) counts as one failure.
failures() { # failures STATUS COUNTED
  if [ "$1" -ne 0 ] && [ "$2" -eq 0 ]; then echo 1; else echo "$2"; fi
}
# pytest on both cores (pytest-xdist) where it is installed.
PYTEST_JOBS=""
/usr/bin/python3 -c "import xdist" 2>/dev/null && PYTEST_JOBS="-n $(nproc)"

set +e
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" "$@" 2>&1 | tee "$log"
lit_status=${PIPESTATUS[0]}
set -e
lit_passed=$(( $(count "^ *Passed *: *[0-9]+") + $(count "^ *Expectedly Failed *: *[0-9]+") ))
lit_failed=$(failures "$lit_status" $(( $(count "^ *Failed *: *[0-9]+") + $(count "^ *Unexpectedly Passed *: *[0-9]+") + $(count "^ *Unresolved *: *[0-9]+") + $(count "^ *Timed Out *: *[0-9]+") )))
lit_skipped=$(( $(count "^ *Unsupported *: *[0-9]+") + $(count "^ *Skipped *: *[0-9]+") ))
echo "lit: ${lit_passed} passed, ${lit_failed} failed, ${lit_skipped} skipped"

stage pytest
set +e
WARP_MLIR_LIBRARY="$PWD/$BUILD_DIR/lib/libWarpCAPI.so" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider $PYTEST_JOBS test/python 2>&1 | tee "$log"
py_status=${PIPESTATUS[0]}
set -e
py_passed=$(count "[0-9]+ passed")
py_failed=$(failures "$py_status" $(( $(count "[0-9]+ failed") + $(count "[0-9]+ error") )))
py_skipped=$(count "[0-9]+ skipped")
echo "pytest: ${py_passed} passed, ${py_failed} failed, ${py_skipped} skipped"

# The wheel as a user installs it: a fresh virtual environment (the system's
# numpy, pytest and pip visible), `pip install` of the wheel, the suite against the
# installed package (test_package.py checks that it is the installed one).
# One in WARP_TEST_SAMPLE (default 8; 1 runs all) of every file's cases, and
# all of test_package.py: the tree's pass above ran every case against the
# same sources (conftest.py).
stage wheel-pytest
venv="$BUILD_DIR/wheel-venv"
rm -rf "$venv"
/usr/bin/python3 -m venv --without-pip --system-site-packages "$venv"
"$venv/bin/python" -m pip install -q --no-index --no-deps "$BUILD_DIR"/dist/warp_mlir-*.whl
set +e
(unset WARP_MLIR_LIBRARY; WARP_TEST_INSTALLED=1 WARP_TEST_SAMPLE=${WARP_TEST_SAMPLE:-8} \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider $PYTEST_JOBS test/python 2>&1) | tee "$log"
wheel_status=${PIPESTATUS[0]}
set -e
wheel_passed=$(count "[0-9]+ passed")
wheel_failed=$(failures "$wheel_status" $(( $(count "[0-9]+ failed") + $(count "[0-9]+ error") )))
wheel_skipped=$(count "[0-9]+ skipped")
echo "wheel pytest: ${wheel_passed} passed, ${wheel_failed} failed, ${wheel_skipped} skipped ($(basename "$BUILD_DIR"/dist/warp_mlir-*.whl))"

fuzz_status=0
if [ "${WARP_SKIP_FUZZ:-0}" != 1 ]; then
  stage fuzz-build
  fuzz_build_status=0
  wait "$fuzz_build_pid" || fuzz_build_status=$?
  fuzz_build_pid=""
  if [ "$fuzz_build_status" -eq 0 ]; then
    stage fuzz
    # WARP_FUZZ_SECONDS of fuzzing on one core, spread over the cores: one
    # job a core (seeds 1..N), each for its share of the time. At most 4:
    # each job replays the seed corpus first (about 10 s), so shorter jobs
    # would do little else.
    fuzz_jobs=$(nproc)
    [ "$fuzz_jobs" -le 4 ] || fuzz_jobs=4
    FUZZ_JOBS=$fuzz_jobs FUZZ_ARGS=${FUZZ_ARGS:--seed=1} \
      scripts/fuzz.sh $(( (${WARP_FUZZ_SECONDS:-60} + fuzz_jobs - 1) / fuzz_jobs )) || fuzz_status=1
  else
    tail -n 40 "$fuzz_build_log"
    echo "the sanitized build of warp-fuzz FAILED (log: $fuzz_build_log)"
    fuzz_status=1
  fi
fi

stage end
summary="stage seconds:"
for i in "${!stage_names[@]}"; do summary+=" ${stage_names[$i]} ${stage_secs[$i]},"; done
echo "${summary%,}; total ${SECONDS}"
echo "tests: $((lit_passed + py_passed + wheel_passed)) passed, $((lit_failed + py_failed + wheel_failed)) failed, $((lit_skipped + py_skipped + wheel_skipped)) skipped"
[ "$fuzz_status" -eq 0 ] || echo "fuzzing FAILED (findings above)"
[ "$lit_status" -eq 0 ] && [ "$py_status" -eq 0 ] && [ "$wheel_status" -eq 0 ] && [ "$fuzz_status" -eq 0 ]
