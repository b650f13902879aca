"""Times warp's kernels against CUB (nvcc) and Triton in one run on the GPU
and prints each ratio (baseline time / warp time: > 1 means warp is faster).

    python3 warp_bench.py --ptx kernels.ptx [--json results.json]

Each kernel is checked against the same computation in numpy/CUB first; a
timing is the median of 50 launches after 5 warm-ups (CUDA events), the
implementations compared timed together (gpu_timing.py).
"""
import argparse
import json
import os
import subprocess
import tempfile

import cupy as cp
import numpy as np

import gpu_timing  # same directory, here and in the bundle

CUB_SOURCE = r"""
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
extern "C" __global__ void warp_sum_f32(const float* in, float* out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = WR(tmp[threadIdx.x / 32]).Sum(in[i]);
  if ((threadIdx.x & 31) == 0) out[i / 32] = s;
}
extern "C" __global__ void repeated_sum_i32(const int* in, int* out) {
  using WR = cub::WarpReduce<int>;
  __shared__ typename WR::TempStorage tmp[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i], a = 0;
  for (int r = 0; r < 2048; ++r) {
    int s = WR(tmp[threadIdx.x / 32]).Sum((x ^ r) + a);
    a = __shfl_sync(0xffffffffu, s, 0);  // CUB's result is valid in lane 0
  }
  out[i] = a;
}
extern "C" __global__ void repeated_sum_f32(const float* in, float* out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], a = x;
  for (int r = 0; r < 2048; ++r) {
    float s = WR(tmp[threadIdx.x / 32]).Sum(a * 0.5f + x);
    a = __shfl_sync(0xffffffffu, s, 0);
  }
  out[i] = a;
}
extern "C" __global__ void repeated_scan_f32(const float* in, float* out) {
  using WS = cub::WarpScan<float>;
  __shared__ typename WS::TempStorage tmp[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i];
  for (int r = 0; r < 1024; ++r) {
    float s;
    WS(tmp[threadIdx.x / 32]).InclusiveSum(a * 0.03125f, s);
    a = s;
  }
  out[i] = a;
}
"""


def _module_from_image(image):
    """A cupy module from a cubin image held in memory."""
    path = os.path.join(tempfile.gettempdir(), f"warp-bench-cub-{os.getpid()}.cubin")
    with open(path, "wb") as f:
        f.write(image)
    return cp.RawModule(path=path)


def memref(array):
    return [array, array, np.int64(0), np.int64(array.size), np.int64(1)]


_timer = None


def timer():
    global _timer
    if _timer is None:
        _timer = gpu_timing.Timer(cp, np)
    return _timer


def time_together(launches, iters=50):
    """{name: median ms} of launches ({name: launch}) timed together
    (gpu_timing.time_together: rotating rounds, the stream held while a
    launch is enqueued)."""
    return gpu_timing.time_together(timer(), launches, iters, rounds=5)


def triton_warp_sum():
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(x_ptr, out_ptr, ROWS: tl.constexpr):
        pid = tl.program_id(0)
        rows = pid * ROWS + tl.arange(0, ROWS)
        cols = tl.arange(0, 32)
        x = tl.load(x_ptr + rows[:, None] * 32 + cols[None, :])
        tl.store(out_ptr + rows, tl.sum(x, axis=1))

    return kernel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ptx", required=True)
    parser.add_argument("--json")
    args = parser.parse_args()
    ours = cp.RawModule(path=args.ptx)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "cub.cu")
        with open(src, "w") as f:
            f.write(CUB_SOURCE)
        cubin = os.path.join(tmp, "cub.cubin")
        subprocess.run(["nvcc", "-cubin", "-O3", "-arch=sm_90", "-o", cubin, src], check=True)
        with open(cubin, "rb") as f:
            cub_image = f.read()
    # cupy loads modules lazily: keep the cubin where the first launch finds it.
    cub = _module_from_image(cub_image)

    rng = np.random.default_rng(7)
    results = []
    block = 256

    # Memory-bound warp sums over 2^26 floats (256 MiB).
    n = 1 << 26
    x = cp.asarray(rng.standard_normal(n).astype(np.float32))
    want = cp.asnumpy(x).reshape(-1, 32).astype(np.float64).sum(axis=1)
    outs = {name: cp.zeros(n // 32, dtype=np.float32) for name in ("warp", "cub", "triton")}
    k_ours, k_cub = ours.get_function("warp_sum_f32"), cub.get_function("warp_sum_f32")
    run_ours = lambda: k_ours((n // block,), (block,), memref(x) + memref(outs["warp"]))
    run_cub = lambda: k_cub((n // block,), (block,), (x, outs["cub"]))
    entry = {"kernel": "warp_sum_f32 (2^26 floats)"}
    launches = {"warp": run_ours, "cub": run_cub}
    try:
        import torch
        tk = triton_warp_sum()
        rows = 8
        # Triton takes torch tensors: share the cupy buffers through DLPack.
        tx, tout = torch.from_dlpack(x), torch.from_dlpack(outs["triton"])
        launches["triton"] = lambda: tk[(n // 32 // rows,)](tx, tout, ROWS=rows, num_warps=1)
        launches["triton"]()  # compiles it: a failure here is reported, not fatal
    except Exception as error:  # Triton missing or failing is reported, not fatal
        launches.pop("triton", None)
        entry["triton_error"] = str(error)[:200]
    entry.update({f"{name}_ms": ms for name, ms in time_together(launches).items()})
    for name, out in outs.items():
        if name == "triton" and "triton_ms" not in entry:
            continue
        assert np.allclose(cp.asnumpy(out), want, rtol=1e-4, atol=1e-3), name
    entry["gbps_warp"] = n * 4 * 1.03125 / entry["warp_ms"] / 1e6
    results.append(entry)

    # Collective-bound kernels: 2^20 threads.
    m = 1 << 20
    for name, dtype in (("repeated_sum_i32", np.int32), ("repeated_sum_f32", np.float32),
                        ("repeated_scan_f32", np.float32)):
        data = rng.integers(-100, 100, m).astype(dtype) if dtype == np.int32 else \
            rng.standard_normal(m).astype(dtype)
        d = cp.asarray(data)
        o1, o2 = cp.zeros_like(d), cp.zeros_like(d)
        k1, k2 = ours.get_function(name), cub.get_function(name)
        r1 = lambda: k1((m // block,), (block,), memref(d) + memref(o1))
        r2 = lambda: k2((m // block,), (block,), (d, o2))
        entry = {"kernel": name, **{f"{k}_ms": ms for k, ms in time_together({"warp": r1, "cub": r2}).items()}}
        a, b = cp.asnumpy(o1), cp.asnumpy(o2)
        entry["matches_cub"] = bool(np.array_equal(a, b) if dtype == np.int32 else
                                    np.allclose(a, b, rtol=1e-3, atol=1e-3))
        results.append(entry)

    for entry in results:
        line = f"{entry['kernel']:28s} warp {entry['warp_ms']:.4f} ms  cub {entry['cub_ms']:.4f} ms  cub/warp {entry['cub_ms'] / entry['warp_ms']:.3f}"
        if "triton_ms" in entry:
            line += f"  triton {entry['triton_ms']:.4f} ms  triton/warp {entry['triton_ms'] / entry['warp_ms']:.3f}"
        if "matches_cub" in entry:
            line += f"  same result as CUB: {entry['matches_cub']}"
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
