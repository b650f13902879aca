#!/usr/bin/env python3
"""The device ops' DRAM traffic on the SIMT simulator (no GPU): for each
op, the 32-byte sectors its kernels' global loads and stores touch
(`warp_mlir.sim.launch(..., count_global_sectors=True)`), against the
sectors that the bytes it must read and write fill (its input once, its
outputs once). A ratio near 1 is an op that moves nothing twice. Outputs
start on a 256-byte boundary as cudaMalloc's do (`sim.line_aligned`): the
selections align their stores to the output's 128-byte lines by address.

    WARP_MLIR_LIBRARY=build/lib/libWarpCAPI.so WARP_SIM_LIBRARY=build/lib/libWarpSim.so \\
        PYTHONPATH=python /usr/bin/python3 benchmarks/device_sectors.py [--tiles 6] [--only OPS]

Sectors are not time (the L2 merges partial sectors of neighbouring
requests before DRAM sees them), but a ratio well above the others points
at traffic a GPU run would pay for.
"""
import argparse
import sys

import numpy as np

import warp_mlir.device as wd
import warp_mlir.sim as sim

TILE = 4096  # 4-byte elements: 256 threads x 16


def affine_then(k, left, right):
    """x -> a x + b maps composed, the left one first (the benchmark's)."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


def cases(n, rng):
    """Each op: (name, call, bytes it must read, bytes it must write)."""
    x = rng.random(n).astype(np.float32)
    flags = (rng.random(n) < 0.5).astype(np.int8)
    kept = int(flags.sum())
    # Runs of 1 to 3 equal elements (2 on average, as the GPU benchmark's).
    keys = np.repeat(np.arange(n), rng.integers(1, 4, n))[:n].astype(np.int32)
    lengths = np.diff(np.flatnonzero(np.diff(np.concatenate(([-1], keys, [-1])))))
    heads = len(lengths)
    long_runs = int(np.count_nonzero(lengths >= 2))
    samples = rng.integers(0, 256, 4 * n).astype(np.uint8)
    sortable = rng.integers(-2**31, 2**31, n).astype(np.int32)
    passes = 4  # 8 bits a pass over i32
    affine = (rng.integers(-3, 4, n).astype(np.int32), rng.integers(-9, 10, n).astype(np.int32))
    def out(dtype, count=n):
        return sim.line_aligned(count, dtype)
    return [
        ("reduce_f32", lambda: wd.reduce(x, backend="sim"), 4 * n, 4),
        ("scan_f32", lambda: wd.scan(x, out=out(np.float32), backend="sim"), 4 * n, 4 * n),
        ("select_f32", lambda: wd.select(x, flags, out(np.float32), backend="sim"),
         5 * n, 4 * kept),
        ("partition_f32", lambda: wd.partition(x, flags, out(np.float32), backend="sim"),
         5 * n, 4 * n),
        ("unique_i32", lambda: wd.unique(keys, out(np.int32), backend="sim"), 4 * n, 4 * heads),
        ("rle_i32", lambda: wd.run_length_encode(keys, out(np.int32), out(np.int32),
                                                 backend="sim"), 4 * n, 8 * heads),
        ("non_trivial_runs_i32",
         lambda: wd.non_trivial_runs(keys, out(np.int32, n // 2), out(np.int32, n // 2),
                                     backend="sim"), 4 * n, 8 * long_runs),
        # A scan of (a, b) pairs with a combine region: two arrays in, two
        # out (device_ops_bench.py's scan_combine_affine_i32), and by key.
        ("scan_combine_affine_i32",
         lambda: wd.scan((affine[0], affine[1]), affine_then,
                         out=(out(np.int32), out(np.int32)), backend="sim"), 8 * n, 8 * n),
        ("scan_combine_by_key_i32",
         lambda: wd.scan((affine[0], affine[1]), affine_then,
                         out=(out(np.int32), out(np.int32)), keys=keys, backend="sim"),
         12 * n, 8 * n),
        ("histogram_u8", lambda: wd.histogram(samples, 256, backend="sim"), 4 * n, 4 * 256),
        ("radix_sort_i32", lambda: wd.radix_sort(sortable, backend="sim"),
         4 * n * (passes + 1), 4 * n * passes),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", type=int, default=6, help="input size in 4096-element tiles")
    parser.add_argument("--only", help="comma-separated op names")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.tiles * TILE
    launches = []
    counted = sim.launch

    def counting(*positional, **named):
        stats = counted(*positional, count_global_sectors=True, **named)
        launches.append((positional[1], stats))
        return stats

    sim.launch = counting
    only = set(args.only.split(",")) if args.only else None
    print(f"n = {n} ({args.tiles} tiles of {TILE}), seed {args.seed}; sectors touched / "
          "sectors the bytes fill")
    print(f"{'op':22s} {'loads':>7s} {'ratio':>6s} {'stores':>7s} {'ratio':>6s}  kernels "
          "(load/store sectors)")
    for name, call, read, written in cases(n, np.random.default_rng(args.seed)):
        if only and name not in only:
            continue
        launches.clear()
        call()
        loads = sum(stats.global_load_sectors for _, stats in launches)
        stores = sum(stats.global_store_sectors for _, stats in launches)
        kernels = ", ".join(f"{kernel} {stats.global_load_sectors}/{stats.global_store_sectors}"
                            for kernel, stats in launches)
        print(f"{name:22s} {loads:7d} {loads / -(-read // 32):6.3f} {stores:7d} "
              f"{stores / -(-written // 32):6.3f}  {kernels}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
