#!/usr/bin/env bash
# Builds the GPU bundle for a GPU host that has no LLVM/MLIR
# (README.md, "GPU suite (H200)"): the self-contained warp-cuda-runner, FileCheck
# with its libz3, lit, the runner tests, the PTX matrix of the cupy suite,
# the benchmark kernels and the Python package's platform wheel (self-contained
# C API library inside), packed as .gpu-bundle/warp-gpu.tar.xz (~40 MB).
#
# On the GPU host, from the repository root:
#   python3 -c "import tarfile; tarfile.open('.gpu-bundle/warp-gpu.tar.xz').extractall('/tmp')"
#   /tmp/warp-gpu/run.sh [output-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
WARP_SKIP_EXAMPLE=1 scripts/setup.sh
cmake --build "$BUILD_DIR" --target warp-opt warp-cuda-runner-static warp-python-wheel

stage=$(mktemp -d)/warp-gpu
mkdir -p "$stage"/{bin,lib,tests,matrix}
cp "$BUILD_DIR/bin/warp-cuda-runner-static" "$stage/bin/warp-cuda-runner"
cp /usr/lib/llvm-22/bin/FileCheck /usr/lib/llvm-22/bin/not "$stage/bin/"
cp "$(ldconfig -p | awk '/libz3.so.4 / {print $NF; exit}')" "$stage/lib/"
cp -r /usr/lib/llvm-22/utils/lit/lit "$stage/lit"
cp test/Integration/CUDA/runner/*.mlir "$stage/tests/"
cp test/Integration/CUDA/bundle/lit.cfg.py test/probes.py "$stage/tests/"
cp test/Integration/CUDA/{cases,reference,run_on_gpu,ptx_text}.py "$stage/"
python3 test/Integration/CUDA/build_bundle.py --warp-opt "$BUILD_DIR/bin/warp-opt" --out "$stage/matrix"
cp test/Integration/CUDA/bundle/run.sh "$stage/run.sh"
# A sample of the generative tester's programs (chips the H200 runs) and the
# tester itself, in the repository's layout (it reads docs/Preconditions.md).
/usr/bin/python3 test/Generative/generative.py --warp-opt "$BUILD_DIR/bin/warp-opt" --seed "${WARP_GENERATIVE_SEED:-1}" \
  --programs "${WARP_GENERATIVE_PROGRAMS:-600}" --chips sm_70,sm_80,sm_90 --bundle "$stage/generative" | tail -1
mkdir -p "$stage/gen/test/Generative" "$stage/gen/test/Integration/CUDA" "$stage/gen/docs"
cp test/Generative/*.py "$stage/gen/test/Generative/"
cp test/Integration/CUDA/reference.py "$stage/gen/test/Integration/CUDA/"
cp docs/Preconditions.md "$stage/gen/docs/"
"$BUILD_DIR/bin/warp-opt" benchmarks/kernels.mlir -o /dev/null \
  --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=$stage/bench.ptx"
cp benchmarks/warp_bench.py benchmarks/gpu_timing.py benchmarks/mma_bench.py benchmarks/gemm_bench.py "$stage/"
# gpu.all_reduce through upstream's lowering and through warp's, for
# all_reduce_bench.py.
mlir-opt-22 benchmarks/all_reduce.mlir \
  --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa" \
  | "$BUILD_DIR/bin/warp-opt" --warp-print-isa="output=$stage/all_reduce_upstream.ptx" -o /dev/null
"$BUILD_DIR/bin/warp-opt" benchmarks/all_reduce.mlir -o /dev/null \
  --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=$stage/all_reduce_warp.ptx"
cp benchmarks/all_reduce_bench.py "$stage/"
# Generic collectives' SASS next to CUB's (benchmarks/sass/compare.py).
mkdir -p "$stage/sass"
"$BUILD_DIR/bin/warp-opt" test/PTX/combiner-counts.mlir -o /dev/null \
  --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=$stage/sass/combiner-counts.ptx"
"$BUILD_DIR/bin/warp-opt" test/PTX/exchange-elect-atomic.mlir -o /dev/null \
  --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=$stage/sass/exchange.ptx"
cp benchmarks/sass/compare.py benchmarks/sass/cub_kernels.cu "$stage/sass/"
# Device-wide kernels (benchmarks/device_bench.py): their PTX, the CUDA
# baselines it compiles on the GPU host, the chart script and the commit.
mkdir -p "$stage/device"
for m in benchmarks/device/{reduce,scan,block}.mlir; do
  "$BUILD_DIR/bin/warp-opt" "$m" -o /dev/null \
    --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=$stage/device/$(basename "$m" .mlir).ptx"
done
# sum_f32_nonc and sum_f32_argattrs with 32-bit index arithmetic by the
# pipeline option (levers_sum_f32's *@reduce_idx32).
"$BUILD_DIR/bin/warp-opt" benchmarks/device/reduce_idx32.mlir -o /dev/null \
  --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=$stage/device/reduce_idx32.ptx"
# The block micro-kernels so too (the block benchmarks' *@block_idx32).
"$BUILD_DIR/bin/warp-opt" benchmarks/device/block.mlir -o /dev/null \
  --warp-lower-to-ptx="chip=sm_90 format=isa device-index-bitwidth=32 ptx-output=$stage/device/block_idx32.ptx"
cp benchmarks/device/baselines.cu benchmarks/device/scan_probe.cu benchmarks/device/probe_timing.cuh \
  "$stage/device/"
# The block probe (which block algorithm is faster at which size; run by
# hand: python3 /tmp/warp-gpu/block_probe.py --ptx /tmp/warp-gpu/device/block_probe.ptx).
python3 benchmarks/device/block_probe.py --emit "$stage/block_probe.mlir"
"$BUILD_DIR/bin/warp-opt" "$stage/block_probe.mlir" -o /dev/null \
  --warp-lower-to-ptx="chip=sm_90 format=isa ptx-output=$stage/device/block_probe.ptx"
rm "$stage/block_probe.mlir"
cp benchmarks/device/block_probe.py "$stage/"
# CUB's block primitives against the same spelled with warp ops
# (benchmarks/block_bench.py): the warp kernels' PTX, one file per kernel (a
# kernel that does not lower is listed in skipped.json), and the CUB
# baselines it compiles on the GPU host.
python3 benchmarks/block_bench.py --build "$stage/block" --warp-opt "$BUILD_DIR/bin/warp-opt" | tail -2
cp benchmarks/block_baselines.cu "$stage/block/"
cp benchmarks/device_bench.py benchmarks/chart.py benchmarks/sass_summary.py benchmarks/lookback_probe.py \
  benchmarks/block_bench.py benchmarks/device_ops_bench.py benchmarks/device_host_profile.py "$stage/"
git rev-parse HEAD > "$stage/COMMIT" 2>/dev/null || true
# The Python package's wheel (run.sh installs it into a fresh virtual
# environment), its tests and examples.
mkdir -p "$stage/dist"
cp "$BUILD_DIR"/dist/warp_mlir-*.whl "$stage/dist/"
mkdir -p "$stage/test" "$stage/examples"
cp -r test/python "$stage/test/python"
cp test/probes.py "$stage/test/"
mkdir -p "$stage/test/Robustness"
cp -r test/Robustness/Inputs "$stage/test/Robustness/"
cp -r examples/python "$stage/examples/python"
# The concision table and its script (test_concise.py checks the table).
mkdir -p "$stage/scripts" "$stage/docs/results"
cp scripts/concision_table.py "$stage/scripts/"
cp docs/results/concision.md "$stage/docs/results/"
cp examples/*.mlir "$stage/examples/"
mkdir -p .gpu-bundle
tar -C "$(dirname "$stage")" -cf - warp-gpu | xz -6 -T2 > .gpu-bundle/warp-gpu.tar.xz
rm -rf "$(dirname "$stage")"
ls -la .gpu-bundle/warp-gpu.tar.xz
