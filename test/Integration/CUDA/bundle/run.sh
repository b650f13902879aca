#!/usr/bin/env bash
# Runs the whole GPU suite from an unpacked bundle: the runner tests under lit,
# the PTX matrix and a generative sample under cupy, the Python package's tests (from its wheel), the
# compute-sanitizer runs (WARP_SANITIZE=1), then the benchmarks. Logs go to $1
# (default: ./gpu-results); the exit status covers the tests.
# WARP_STAGES=lit,matrix,generative,pytest,sanitize,bench runs only the stages named
# (default: all; sanitize also needs WARP_SANITIZE=1 unless named). WARP_PYTEST_ARGS adds
# pytest arguments (e.g. -k), WARP_PYTEST_JOBS sets its workers.
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-gpu-results}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
status=0
want() { [ -z "${WARP_STAGES:-}" ] || [[ ",$WARP_STAGES," == *",$1,"* ]]; }
if want lit; then
  PYTHONPATH="$here" python3 -c "from lit.main import main; main()" -v -j 8 "$here/tests" 2>&1 | tee "$out/lit.log" | tail -25
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
if want matrix; then
  python3 "$here/run_on_gpu.py" --bundle "$here/matrix" --log "$out/matrix.log" 2>&1 | tail -15
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
# A sample of the generative contract tester's programs (built with the
# bundle, test/Generative/README.md), checked lane by lane with cupy.
if want generative; then
  python3 "$here/gen/test/Generative/generative.py" --run-bundle "$here/generative" --backend cupy \
    2>&1 | tee "$out/generative.log" | tail -15
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
# The Python package as a user installs it: the bundle's wheel, `pip install`ed
# into a fresh virtual environment (the system's numpy, cupy, torch and pytest
# visible; pip from the system, so no ensurepip is needed), then its tests
# (CPU and GPU) against the installed package.
venv=$(mktemp -d)/venv
python3 -m venv --without-pip --system-site-packages "$venv"
# Packages the host keeps outside the system site (a user site, which a venv
# hides) stay visible too, after the venv's own site-packages.
python3 -c "import sys; print('\n'.join(p for p in sys.path if p.endswith(('site-packages', 'dist-packages'))))" \
  > "$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/_host_packages.pth"
"$venv/bin/python" -m pip install -q --no-index --no-deps "$here"/dist/warp_mlir-*.whl 2>&1 | tee "$out/wheel-install.log"
if want pytest; then
  # The generative device tests draw more programs on the GPU than in CI.
  export WARP_SORT_PROGRAMS=${WARP_SORT_PROGRAMS:-300} WARP_SCAN_PROGRAMS=${WARP_SCAN_PROGRAMS:-300} \
    WARP_SELECT_PROGRAMS=${WARP_SELECT_PROGRAMS:-300} WARP_HISTOGRAM_PROGRAMS=${WARP_HISTOGRAM_PROGRAMS:-300} \
    WARP_SEGMENTED_PROGRAMS=${WARP_SEGMENTED_PROGRAMS:-300}
  # In parallel where pytest-xdist is installed (the GPU is shared by the workers).
  jobs=()
  "$venv/bin/python" -c "import xdist" 2>/dev/null && jobs=(-n "${WARP_PYTEST_JOBS:-12}" --dist loadgroup)
  # -v: the log names each test as it ends, so that a run cut short by a
  # time limit still says which failed (grep FAILED pytest.log); the
  # terminal gets the failures and the summary only (not the lines of
  # tests passing, skipped or, with xdist, starting).
  (cd "$here" && unset WARP_MLIR_LIBRARY && WARP_TEST_INSTALLED=1 \
    "$venv/bin/python" -m pytest -v -rs -p no:cacheprovider "${jobs[@]}" test/python ${WARP_PYTEST_ARGS:-} 2>&1) \
    | tee "$out/pytest.log" | grep -v -E " (PASSED|SKIPPED|XFAIL)( |$)|^test/python/" | tail -15
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
# compute-sanitizer (WARP_SANITIZE=1): memcheck, racecheck and synccheck over
# the runner tests and the matrix steps that use shared memory, barriers or
# divergent collectives (the whole matrix under the sanitizer takes too long).
if { [ "${WARP_SANITIZE:-0}" = 1 ] && want sanitize; } || [[ ",${WARP_STAGES:-}," == *",sanitize,"* ]]; then
  logs=$(mktemp -d)  # full logs; $out/sanitize.txt gets the summary and every report line
  for tool in memcheck racecheck synccheck; do
    for t in "$here"/tests/*.mlir; do
      # assert.mlir traps on purpose; bare-pointers.mlir needs its RUN line's options.
      case "$t" in *no-gpu.mlir|*assert.mlir|*bare-pointers.mlir) continue ;; esac
      compute-sanitizer --tool "$tool" --error-exitcode 86 \
        "$here/bin/warp-cuda-runner" "$t" --entry-point-result=void > "$logs/$tool-$(basename "$t").log" 2>&1
      rc=$?
      echo "compute-sanitizer $tool $(basename "$t"): exit $rc" | tee -a "$out/sanitize.txt"
      grep '^========= ' "$logs/$tool-$(basename "$t").log" >> "$out/sanitize.txt"
      [ $rc -eq 0 ] || status=1
    done
    WARP_GPU_SHAPES=few compute-sanitizer --tool "$tool" --error-exitcode 86 python3 "$here/run_on_gpu.py" \
      --bundle "$here/matrix" --only blocks,arms,votes,warp_id_2d,any_mask_reduces,valid_scans,block_ops,block_exchanges,block_scan_orders,block_combiners,block_items,atomics,histogram \
      > "$logs/$tool-matrix.log" 2>&1
    rc=$?
    echo "compute-sanitizer $tool matrix: exit $rc, $(grep '^gpu:' "$logs/$tool-matrix.log")" | tee -a "$out/sanitize.txt"
    grep '^========= ' "$logs/$tool-matrix.log" >> "$out/sanitize.txt"
    [ $rc -eq 0 ] || status=1
  done
fi
want bench || exit $status
# WARP_BENCHES=warp,mma,all_reduce,sass,device,block,device_ops,scan_probe runs only the
# benchmarks named (default: all); WARP_BLOCK_BENCH_ARGS and
# WARP_DEVICE_OPS_BENCH_ARGS add arguments to those two (e.g. --only
# radix_rank), so that one call of a few minutes times what changed.
bench() { [ -z "${WARP_BENCHES:-}" ] || [[ ",$WARP_BENCHES," == *",$1,"* ]]; }
# Benchmarks: timings against CUB, Triton and torch in the same run (not pass/fail).
if bench warp; then
  python3 "$here/warp_bench.py" --ptx "$here/bench.ptx" --json "$out/bench.json" 2>&1 | tee "$out/bench.txt" | tail -8
fi
# Tensor cores: examples/mma_matmul_any.mlir (f16) and mma_matmul_bf16.mlir (bf16)
# against torch.matmul at 4096^3, one line each.
if bench mma; then
  "$venv/bin/python" "$here/mma_bench.py" --json "$out/mma_bench.json" 2>&1 | tee "$out/mma_bench.txt" | tail -3
fi
if bench all_reduce; then
  python3 "$here/all_reduce_bench.py" --upstream "$here/all_reduce_upstream.ptx" \
    --warp "$here/all_reduce_warp.ptx" 2>&1 | tee "$out/all_reduce_bench.txt" | tail -10
fi
if bench sass; then
  python3 "$here/sass/compare.py" --ptx "$here/sass/combiner-counts.ptx" --ptx "$here/sass/exchange.ptx" \
    2>&1 | tee "$out/sass_compare.txt"
fi
# Device-wide kernels against CUB, hand-written CUDA, Triton and torch; each
# benchmark runs in its own process, so a failure costs only its own line.
if bench device; then
  python3 "$here/device_bench.py" --ptx-dir "$here/device" --json "$out/device_bench.json" --hang "${WARP_HANG_S:-10}" 2>&1 \
    | tee "$out/device_bench.txt" | grep -E '^[a-z0-9_]+ +[0-9]|FAILED|^total|^baselines'  # the SASS summary: in the file
  python3 "$here/chart.py" "$out/device_bench.json" "$out/bench.json" -o "$out/device_bench.svg" || true
fi
# CUB's block primitives against warp's (block_bench.py): the rows in the file, the per-group summary here.
if bench block; then
  # shellcheck disable=SC2086
  python3 "$here/block_bench.py" --ptx-dir "$here/block" --json "$out/block_bench.json" --hang "${WARP_HANG_S:-10}" \
    ${WARP_BLOCK_BENCH_ARGS:-} 2>&1 | tee "$out/block_bench.txt" | grep -E '^summary|FAILED|^total|did not build'
fi
# warp_mlir.device's ops, every group in its docstring (the wheel's, so the venv's python), against CUB and torch
# (device_ops_bench.py, a few minutes): the sweep in the file, the 2^27/2^28 rows and any problem here.
if bench device_ops; then
  # shellcheck disable=SC2086
  "$venv/bin/python" "$here/device_ops_bench.py" --json "$out/device_ops_bench.json" --hang "${WARP_HANG_S:-10}" \
    ${WARP_DEVICE_OPS_BENCH_ARGS:-} 2>&1 \
    | tee "$out/device_ops_bench.txt" | grep -E '^op |2\^2[78] |^compile|MISMATCH|FAILED|^note|^total|did not build'
fi
# The scan levers in CUDA (benchmarks/device/scan_probe.cu: CUB's single-pass
# scan against variants of it, persistent grids with a prefetched next tile
# among them, each checked and timed per 2^28 int32 beside a device copy).
if bench scan_probe; then
  nvcc -O3 -arch=sm_90 -std=c++17 "$here/device/scan_probe.cu" -o "$out/scan_probe" \
    && "$out/scan_probe" 2>&1 | tee "$out/scan_probe.txt" | tail -14 || status=1
  rm -f "$out/scan_probe"
fi
exit $status
