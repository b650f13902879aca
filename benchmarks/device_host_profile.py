"""Where the host time of a warp_mlir.device call goes (GPU host; run
with the installed wheel): the wall time per call of a reduce, a scan and
a radix sort of 1024 int32 on cupy arrays and on torch tensors
(device_ops_bench.py's `host us` column measures the same against CUB's),
with cupy's and torch's own sum and cumsum beside them, then a cProfile
of 300 reduces and of 300 radix sorts on cupy arrays, the 30 entries with
the most time of their own each.

    python3 benchmarks/device_host_profile.py
"""
import cProfile
import pstats
import statistics
import sys
import time

import cupy as cp
import warp_mlir.device as wd

CALLS = 300
REPEATS = 7


def per_call_us(fn):
    """The median over REPEATS runs of CALLS calls back to back (the host
    is shared: single runs vary by 2x), microseconds per call."""
    fn()
    cp.cuda.runtime.deviceSynchronize()
    runs = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(CALLS):
            fn()
        cp.cuda.runtime.deviceSynchronize()
        runs.append((time.perf_counter() - start) / CALLS * 1e6)
    return statistics.median(runs)


def main():
    x = cp.arange(1024, dtype=cp.int32)
    total, prefix = cp.empty(1, dtype=cp.int32), cp.empty_like(x)
    print(f"reduce: {per_call_us(lambda: wd.reduce(x, out=total)):.1f} us per call")
    print(f"scan: {per_call_us(lambda: wd.scan(x, out=prefix)):.1f} us per call")
    keys = cp.arange(1024, dtype=cp.int32)[::-1].copy()
    sorted_keys = cp.empty_like(keys)
    print(f"radix_sort: {per_call_us(lambda: wd.radix_sort(keys, out=sorted_keys)):.1f} "
          f"us per call")
    print(f"cupy.sum: {per_call_us(lambda: cp.sum(x, out=total[0])):.1f} us per call, "
          f"cupy.cumsum: {per_call_us(lambda: cp.cumsum(x, out=prefix)):.1f}")
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        tx = torch.arange(1024, dtype=torch.int32, device="cuda")
        ttotal, tprefix = torch.empty(1, dtype=torch.int32, device="cuda"), torch.empty_like(tx)
        tkeys, tsorted = tx.flip(0).contiguous(), torch.empty_like(tx)
        print(f"torch reduce: {per_call_us(lambda: wd.reduce(tx, out=ttotal)):.1f} us per call, "
              f"scan: {per_call_us(lambda: wd.scan(tx, out=tprefix)):.1f}, radix_sort: "
              f"{per_call_us(lambda: wd.radix_sort(tkeys, out=tsorted)):.1f}")
        print(f"torch.sum: {per_call_us(lambda: torch.sum(tx, 0, out=ttotal[0])):.1f} us per "
              f"call, torch.cumsum: {per_call_us(lambda: torch.cumsum(tx, 0, out=tprefix)):.1f}")
    for name, call in [("reduce", lambda: wd.reduce(x, out=total)),
                       ("radix_sort", lambda: wd.radix_sort(keys, out=sorted_keys))]:
        print(f"== cProfile of {CALLS} calls of {name}")
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(CALLS):
            call()
        profile.disable()
        cp.cuda.runtime.deviceSynchronize()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
