"""gpu.all_reduce compiled by upstream's gpu-lower-to-nvvm-pipeline against the
same IR through warp-lower-to-ptx (warp.block_reduce), in one run on the GPU:

    python3 all_reduce_bench.py --upstream upstream.ptx --warp warp.ptx

Each kernel reduces blockDim consecutive elements per block (2^26 elements);
results are checked first (f32 sums against float64 numpy within 1e-3
relative, i32 max exactly); the two are timed together
(warp_bench.time_together): a time is the median of 30 launches (CUDA
events). ratio = upstream time / warp time: > 1 means warp is faster.
"""
import argparse

import cupy as cp
import numpy as np

from warp_bench import memref, time_together  # same directory, here and in the bundle

N = 1 << 26
BLOCKS = [128, 256, 1000, 1024]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--warp", required=True)
    args = parser.parse_args()
    modules = {"upstream": cp.RawModule(path=args.upstream), "warp": cp.RawModule(path=args.warp)}
    rng = np.random.default_rng(7)
    data = {"all_reduce_add_f32": rng.standard_normal(N).astype(np.float32),
            "all_reduce_max_i32": rng.integers(-2**31, 2**31 - 1, N, dtype=np.int32)}
    failed = False
    print(f"{'kernel':24} {'block':>6} {'upstream ms':>12} {'warp ms':>9} {'ratio':>6}")
    for name, host in data.items():
        d_in = cp.asarray(host)
        for block in BLOCKS:
            grid = N // block
            used = host[:grid * block].reshape(grid, block)
            want = (used.astype(np.float64).sum(axis=1) if host.dtype == np.float32
                    else used.max(axis=1))
            launches = {}
            for which, module in modules.items():
                fn = module.get_function(name)
                d_out = cp.zeros(grid, dtype=host.dtype)
                launches[which] = launch = lambda fn=fn, d_out=d_out, grid=grid, block=block: fn(
                    (grid,), (block,), memref(d_in) + memref(d_out))
                launch()
                got = cp.asnumpy(d_out)
                ok = (np.allclose(got, want, rtol=1e-3, atol=1e-3) if host.dtype == np.float32
                      else np.array_equal(got, want))
                if not ok:
                    failed = True
                    print(f"MISMATCH {which} {name} block={block}")
            times = time_together(launches, iters=30)
            print(f"{name:24} {block:>6} {times['upstream']:>12.4f} {times['warp']:>9.4f} "
                  f"{times['upstream'] / times['warp']:>6.3f}")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
