#!/usr/bin/env python3
"""Finds where the single-pass look-back kernels of benchmarks/device
(scan_*, select_*) stop finishing on the GPU host: runs one kernel at growing
tile counts, each launch in its own process with a deadline, and checks the
result against numpy. A diagnostic for issue 12 (device_bench.py reports
"hang: not finished"), not a benchmark.

    python3 lookback_probe.py --ptx /tmp/warp-gpu/device/scan.ptx [--kernel scan_incl_i32]
"""
import argparse
import json
import subprocess
import sys
import time

CHILD = r"""
import json, sys, time
import cupy as cp, numpy as np
ptx, kernel, tiles, items, zero_by = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
n = tiles * 256 * items
f = cp.RawModule(path=ptx).get_function(kernel)
rng = np.random.default_rng(1)
xi = rng.integers(-4, 5, n).astype(np.int32)
x = cp.asarray(xi)
out = cp.zeros(n, dtype=cp.int32)
status = cp.zeros(1 + tiles, dtype=cp.int64) if zero_by == "alloc" else cp.full(1 + tiles, -1, dtype=cp.int64)
if zero_by == "memset":
    cp.cuda.runtime.memsetAsync(status.data.ptr, 0, status.nbytes, 0)
cp.cuda.Device().synchronize()
mem = lambda a: [a, a, np.int64(0), np.int64(a.size), np.int64(1)]
f((tiles,), (256,), mem(x) + mem(out) + mem(status) + [np.int64(n)])
ev = cp.cuda.Event(); ev.record()
deadline = time.monotonic() + float(sys.argv[6])
while not ev.done:
    if time.monotonic() > deadline:
        try:
            status = cp.cuda.runtime.getLastError()
            error = cp.cuda.runtime.getErrorName(status) if status else None
        except cp.cuda.runtime.CUDARuntimeError as e:
            error = str(e)
        print(json.dumps(dict(tiles=tiles, result=error or "hang")), flush=True)
        sys.exit(3)
    time.sleep(0.001)
ref = np.cumsum(xi, dtype=np.int64)
if "excl" in kernel:
    ref -= xi
got = out.get().astype(np.int64)
bad = np.nonzero(got != ref)[0]
st = status.get()
flags = np.bincount((st[1:] >> 32).astype(np.int64), minlength=3)[:4].tolist()
print(json.dumps(dict(tiles=tiles, result="ok" if bad.size == 0 else "wrong", bad=int(bad.size),
                      first_bad=int(bad[0]) if bad.size else None, counter=int(st[0]), flags=flags)), flush=True)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ptx", required=True)
    parser.add_argument("--kernel", default="scan_incl_i32")
    parser.add_argument("--items", type=int, default=8)
    parser.add_argument("--deadline", type=float, default=5.0)
    parser.add_argument("--tiles", default="1,2,3,4,8,32,132,264,1056,2112,8192,131072")
    parser.add_argument("--zero-by", default="alloc,memset", help="how the status words are zeroed")
    args = parser.parse_args()
    for zero_by in args.zero_by.split(","):
        for tiles in [int(t) for t in args.tiles.split(",")]:
            start = time.monotonic()
            try:
                proc = subprocess.run([sys.executable, "-c", CHILD, args.ptx, args.kernel, str(tiles),
                                       str(args.items), zero_by, str(args.deadline)],
                                      capture_output=True, text=True, timeout=args.deadline + 60)
                line = (proc.stdout.strip().splitlines() or [proc.stderr.strip()[-300:]])[-1]
            except subprocess.TimeoutExpired:
                line = json.dumps(dict(tiles=tiles, result="killed"))
            print(f"{args.kernel} zero_by={zero_by} {line} ({time.monotonic() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
