#!/usr/bin/env python3
"""SASS instruction counts of warp's generic collectives next to CUB's, on the
GPU host (needs nvcc, ptxas and cuobjdump):

    python3 compare.py --ptx combiner-counts.ptx --ptx exchange.ptx [--cub cub_kernels.cu]

The warp kernels come from test/PTX/combiner-counts.mlir and
test/PTX/exchange-elect-atomic.mlir lowered for sm_90 (scripts/gpu-bundle.sh
stages their PTX); cub_kernels.cu has CUB's versions of argmax over (f32,
i32), a Welford reduce, a head-segmented sum and an 8-item blocked-to-striped
exchange. Prints per kernel: all SASS instructions (NOP excluded), shuffles,
shared-memory accesses and barriers.
"""
import argparse
import collections
import os
import re
import subprocess
import tempfile

# (label, warp kernel, CUB kernel)
PAIRS = [
    ("argmax (f32, i32), result in lane 0", "argmax_first", "argmax_first"),
    ("Welford (i32, f32, f32), all lanes / lane 0", "welford", "welford"),
    ("segmented sum by heads", "segmented_sum", "segmented_sum"),
    ("exchange 8 x f32 blocked->striped, shuffles", "shfl_b2s_8xf32", None),
    ("exchange 8 x f32 blocked->striped, shared memory", "smem_b2s_8xf32", "smem_b2s_8xf32"),
]
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")
FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")


def counts(cubin):
    sass = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True,
                          check=True).stdout
    result, name = {}, None
    for line in sass.splitlines():
        m = FUNCTION.match(line)
        if m:
            name = m.group(1)
            result[name] = collections.Counter()
            continue
        m = INSTRUCTION.search(line)
        if name and m and not m.group(1).startswith("NOP"):
            result[name][m.group(1).split(".")[0]] += 1
    return result


def row(c):
    if c is None:
        return f"{'-':>6} {'-':>5} {'-':>9} {'-':>5}"
    total = sum(c.values())
    return (f"{total:>6} {c['SHFL']:>5} {c['LDS'] + c['STS']:>9} "
            f"{c['BAR'] + c['WARPSYNC']:>5}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ptx", action="append", required=True)
    parser.add_argument("--cub", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "cub_kernels.cu"))
    args = parser.parse_args()
    warp, cub = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, ptx in enumerate(args.ptx):
            cubin = os.path.join(tmp, f"warp{i}.cubin")
            subprocess.run(["ptxas", "-arch=sm_90", "-O3", ptx, "-o", cubin], check=True)
            warp.update(counts(cubin))
        cubin = os.path.join(tmp, "cub.cubin")
        subprocess.run(["nvcc", "-arch=sm_90", "-O3", "-cubin", args.cub, "-o", cubin], check=True)
        cub.update(counts(cubin))
    header = f"{'all':>6} {'SHFL':>5} {'LDS+STS':>9} {'sync':>5}"
    print(f"{'kernel (sm_90 SASS)':50} | warp: {header} | CUB: {header}")
    for label, w, c in PAIRS:
        print(f"{label:50} | {'':6}{row(warp.get(w))} | {'':5}{row(cub.get(c) if c else None)}")


if __name__ == "__main__":
    main()
