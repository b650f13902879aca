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
extern "C" __global__ void warp_sum_f32_rows(const float* in, float* out) {
  // 8 rows per warp: lanes 4r .. 4r + 3 hold row r, 8 floats each.
  using WR = cub::WarpReduce<float, 4>;
  __shared__ typename WR::TempStorage tmp[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = reinterpret_cast<const float4*>(in)[2 * i], b = reinterpret_cast<const float4*>(in)[2 * i + 1];
  float s = ((a.x + b.x) + (a.y + b.y)) + ((a.z + b.z) + (a.w + b.w));
  s = WR(tmp[threadIdx.x / 4]).Sum(s);
  if ((threadIdx.x & 3) == 0) out[i / 4] = s;
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
    names = ("warp", "cub", "warp_rows", "cub_rows", "triton")
    outs = {name: cp.zeros(n // 32, dtype=np.float32) for name in names}
    launches = {}
    for name in names[:4]:
        module, function = (ours, "warp_sum_f32") if name.startswith("warp") else (cub, "warp_sum_f32")
        function += "_rows" if name.endswith("_rows") else ""
        k = module.get_function(function)
        grid = n // block // (8 if name.endswith("_rows") else 1)
        kernel_args = memref(x) + memref(outs[name]) if module is ours else (x, outs[name])
        launches[name] = lambda k=k, grid=grid, a=kernel_args: k((grid,), (block,), a)
    entry, rows_entry = {"kernel": "warp_sum_f32 (2^26 floats)"}, {"kernel": "warp_sum_f32_rows (8 per warp)"}
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
        rows_entry["triton_error"] = str(error)[:200]
    times = time_together(launches)
    for name in launches:
        assert np.allclose(cp.asnumpy(outs[name]), want, rtol=1e-4, atol=1e-3), name
    # Each row of 32 floats in one warp (CUB's WarpReduce shape), and 8 rows
    # per warp (Triton's shape, which Triton is compared with).
    entry.update(warp_ms=times["warp"], cub_ms=times["cub"])
    rows_entry.update(warp_ms=times["warp_rows"], cub_ms=times["cub_rows"])
    if "triton" in times:
        rows_entry["triton_ms"] = times["triton"]
    for e in (entry, rows_entry):
        e["gbps_warp"] = n * 4 * 1.03125 / e["warp_ms"] / 1e6
        results.append(e)

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
