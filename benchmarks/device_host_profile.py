"""Where the host time of a warp_mlir.device call goes, on cupy arrays
(GPU host; run with the installed wheel): the wall time per call of a
reduce, a scan and a radix sort of 1024 int32 (device_ops_bench.py's
`host us` column measures the same against CUB's), then a cProfile of
300 reduces and of 300 radix sorts, the 30 entries with the most time of
their own each.

    python3 benchmarks/device_host_profile.py
"""
import cProfile
import pstats
import sys
import time

import cupy as cp
import warp_mlir.device as wd

CALLS = 300


def per_call_us(fn):
    fn()
    cp.cuda.runtime.deviceSynchronize()
    start = time.perf_counter()
    for _ in range(CALLS):
        fn()
    cp.cuda.runtime.deviceSynchronize()
    return (time.perf_counter() - start) / CALLS * 1e6


def main():
    x = cp.arange(1024, dtype=cp.int32)
    total, prefix = cp.empty(1, dtype=cp.int32), cp.empty_like(x)
    print(f"reduce: {per_call_us(lambda: wd.reduce(x, out=total)):.1f} us per call")
    print(f"scan: {per_call_us(lambda: wd.scan(x, out=prefix)):.1f} us per call")
    keys = cp.arange(1024, dtype=cp.int32)[::-1].copy()
    sorted_keys = cp.empty_like(keys)
    print(f"radix_sort: {per_call_us(lambda: wd.radix_sort(keys, out=sorted_keys)):.1f} "
          f"us per call")
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
