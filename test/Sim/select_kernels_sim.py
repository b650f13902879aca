"""Runs the stream compaction kernels of benchmarks/device/gen_kernels.py
(select_gt_f32, select_gt_f32_direct and the previous configuration,
select_gt_f32_transpose16) on the SIMT interpreter (warp-sim) and checks
them against a Python reference: the count, every kept value in order, and
nothing written past the count; every tile's status word ends as an
inclusive prefix. Cases: partial and whole last tiles, one tile and many
(41: look-back windows of more than 32 tiles), 0 %, some, about half and
100 % kept (the compaction kernels take any n, the previous configuration
whole tiles of 4096). warp-sim has no nanosleep: the kernels are generated
without look-back pacing, otherwise as benchmarked.

    select_kernels_sim.py --warp-opt PATH --warp-sim PATH --out DIR [--highest-pc-first]

Prints one line per case and `select sim: P passed, F failed`.
"""
import argparse
import os
import random
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "device"))
import gen_kernels as g  # noqa: E402

SELECT_TILE = g.SCAN_THREADS * g.SELECT_ITEMS
OLD_TILE = g.SCAN_THREADS * g.SCAN_ITEMS


def kernels():
    """(name, tile, takes any n) and the module text."""
    unpaced = dict(poll_ns=0, settle_ns=0)
    funcs = [g.select_kernel("select_gt_f32", **unpaced),
             g.select_kernel("select_gt_f32_direct", adaptive=False, **unpaced),
             g.scan_like_kernel("select_gt_f32_transpose16", "f32", "select",
                                min_blocks=g.SELECT_MIN_BLOCKS, **unpaced)]
    names = [("select_gt_f32", SELECT_TILE, True), ("select_gt_f32_direct", SELECT_TILE, True),
             ("select_gt_f32_transpose16", OLD_TILE, False)]
    text = ("module attributes {gpu.container_module} {\ngpu.module @scan {\n" + "\n".join(funcs) + "}\n}\n")
    return names, text


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def run_case(args, ptx, kernel, tile, n, thr, init):
    """None if the kernel selects like the reference, else why not. init:
    a seed (values 1 .. 1000 as f32) or 'iota' (0, 1, ..., exact in f32)."""
    if init == "iota":
        xs = [float(i) for i in range(n)]
        spec = "iota"
    else:
        rnd = random.Random(init)
        xs = [float(rnd.randrange(1000) + 1) for _ in range(n)]  # never 0: out starts at 0
        spec = ",".join(str(int(x)) for x in xs)
    tiles = -(-n // tile)
    schedule = ["--highest-pc-first"] if args.highest_pc_first else []
    cmd = [args.warp_sim, ptx, *schedule, "--kernel", kernel, "--grid", str(tiles), "--block", str(g.SCAN_THREADS),
           f"memref:f32:{n}={spec}", f"memref:f32:{n}", "memref:i32:1=-1", f"memref:i64:{1 + tiles}",
           f"i64:{n}", f"f32:{thr!r}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return f"warp-sim exit {r.returncode}: {r.stderr.strip()[:300]}"
    bufs = {}
    for line in r.stdout.splitlines():
        name, _, values = line.partition(": ")
        bufs[name] = values.split()
    want = [x for x in xs if x > f32(thr)]
    got = int(bufs["buf2"][0])
    out = [float(v) for v in bufs["buf1"]]
    if got != len(want):
        return f"selected {got}, want {len(want)}"
    if out[:got] != want:
        first = next(i for i in range(got) if out[i] != want[i])
        return f"kept item {first} is {out[first]}, want {want[first]}"
    if any(out[got:]):
        return "written past the count"
    flags = {int(w) >> 32 for w in bufs["buf3"][1:]}
    if flags != {g.FLAG_PREFIX}:
        return f"status flags {sorted(flags)}, want all {g.FLAG_PREFIX}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warp-opt", required=True)
    parser.add_argument("--warp-sim", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--highest-pc-first", action="store_true",
                        help="warp-sim's other legal schedule (diverged lanes stay apart)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    names, text = kernels()
    mlir, ptx = os.path.join(args.out, "select.mlir"), os.path.join(args.out, "select.ptx")
    with open(mlir, "w") as f:
        f.write(text)
    subprocess.run([args.warp_opt, mlir, "-o", os.devnull,
                    f"--warp-lower-to-ptx=chip=sm_90 format=isa ptx-output={ptx}"], check=True)
    passed = failed = 0
    seed = 0
    for kernel, tile, any_n in names:
        sizes = [3 * tile + 1000, 1000, 1] if any_n else [4 * tile, tile]
        cases = [(n, thr, seed + i) for i, n in enumerate(sizes) for thr in (2000.0, 980.5, 500.5, -1.0)]
        seed += len(cases)
        many = 40 * tile + (777 if any_n else 0)  # 41 tiles, the last one partial (40 whole)
        cases += [(many, thr, "iota") for thr in (-1.0, many / 2 + 0.25, many - 300.5)]
        for n, thr, init in cases:
            why = run_case(args, ptx, kernel, tile, n, thr, init)
            print(f"{kernel} n={n} tiles={-(-n // tile)} thr={thr} input={'iota' if init == 'iota' else 'random'}: "
                  f"{why or 'ok'}", flush=True)
            passed += why is None
            failed += why is not None
    print(f"select sim: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
