#!/usr/bin/env python3
"""Compile-time scaling of warp-lower-to-ptx along four axes (issue 28,
items 12-14; no GPU needed):

  depth   one warp.reduce under N nested scf.if          N = 1000 .. 8000
  ops     N chained warp.reduce <add> in one kernel       N = 250 .. 2000
  block   N chained warp.block_reduce <add> in one kernel N = 125 .. 1000
  tuple   one warp.reduce with a combine region over a
          tuple of N f32 values                           N = 4 .. 64

Each input is compiled by a whole warp-opt process to PTX text
(`--warp-lower-to-ptx=chip=sm_90 format=isa`). The baseline is the cost of
only reading and writing the same IR: `mlir-opt-22 --allow-unregistered-dialect`
parsing the generic form of the input (written by `warp-opt
--mlir-print-op-generic`, since upstream does not know the warp dialect's
custom syntax) and printing it. It grows linearly with the input, so a
ratio that stays flat along an axis means the compile is linear too. The
growth exponent is the log-log slope of the compile time between the last
two points of an axis (1: linear, 2: quadratic).

    python3 benchmarks/compile_scaling.py [--warp-opt build/bin/warp-opt]
        [--mlir-opt mlir-opt-22] [--runs 3] [--axes depth,ops,block,tuple]
        [--timeout 300] [--out FILE] [--json FILE]

Times are CPU seconds (user + system, all threads) of the whole process,
medians of --runs (one run where the first takes over --long seconds; a run
past --timeout wall seconds ends its axis); the machine and its load are
printed with them.
"""
import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compile_bench import ROOT, Report, k100_warp, kernel_module  # noqa: E402


def depth_input(n):
    """One reduce under n nested scf.if on a kernel-argument-like flag."""
    body = ["    %t = gpu.thread_id x",
            "    %x = memref.load %in[%t] : memref<?xf32>",
            "    %c0 = arith.constant 0 : index",
            "    %n = memref.dim %in, %c0 : memref<?xf32>",
            "    %p = arith.cmpi ult, %t, %n : index"]
    body += ["    scf.if %p {"] * n
    body += ["    %r = warp.reduce <add> %x : f32",
             "    memref.store %r, %out[%t] : memref<?xf32>"]
    body += ["    }"] * n
    return kernel_module("m", "k", body)


def chain_input(n, op):
    return k100_warp(n, op)


def tuple_input(n):
    """A reduce of n f32 values whose combine region adds them pairwise."""
    body = ["    %t = gpu.thread_id x",
            f"    %c{n} = arith.constant {n} : index",
            "    %base = arith.muli %t, " f"%c{n} : index"]
    for i in range(n):
        body.append(f"    %c{i} = arith.constant {i} : index")
        body.append(f"    %i{i} = arith.addi %base, %c{i} : index")
        body.append(f"    %v{i} = memref.load %in[%i{i}] : memref<?xf32>")
    vals = ", ".join(f"%v{i}" for i in range(n))
    types = ", ".join(["f32"] * n)
    args = ", ".join([f"%a{i}: f32" for i in range(n)] + [f"%b{i}: f32" for i in range(n)])
    results = ", ".join(f"%r#{i}" for i in range(n))
    body.append(f"    %r:{n} = warp.reduce {vals} : {types} combine ({args}) {{")
    for i in range(n):
        body.append(f"      %s{i} = arith.addf %a{i}, %b{i} : f32")
    body.append("      warp.yield " + ", ".join(f"%s{i}" for i in range(n)) + f" : {types}")
    body.append("    }")
    for i in range(n):
        body.append(f"    memref.store %r#{i}, %out[%i{i}] : memref<?xf32>")
    del results
    return kernel_module("m", "k", body)


AXES = {
    "depth": ("one reduce under N nested scf.if", (1000, 2000, 4000, 8000), depth_input),
    "ops": ("N warp.reduce per kernel", (250, 500, 1000, 2000),
            lambda n: chain_input(n, "warp.reduce")),
    "block": ("N warp.block_reduce per kernel", (125, 250, 500, 1000),
              lambda n: chain_input(n, "warp.block_reduce")),
    "tuple": ("one reduce over a tuple of N f32", (4, 8, 16, 32, 64), tuple_input),
}


def raise_stack_limit():
    # mlir-opt-22 parses nested regions recursively and overflows the usual
    # 8 MiB stack at a few thousand levels (warp-opt parses on a thread of its
    # own with a large stack).
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))


def timed(cmd, timeout):
    """CPU seconds (user + system) of the command, or None past the timeout;
    raises on failure. CPU time, not wall time: on a shared machine it
    depends far less on what else runs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=raise_stack_limit)
    except subprocess.TimeoutExpired:
        return None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr[-800:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_time(cmd, runs, timeout, long):
    times = []
    for _ in range(runs):
        t = timed(cmd, timeout)
        if t is None:
            return None
        times.append(t)
        if t > long:
            break
    return statistics.median(times)


def slope(points):
    """log-log slope between the last two (n, seconds) points."""
    (n1, t1), (n2, t2) = points[-2], points[-1]
    if not t1 or not t2:
        return None
    return math.log(t2 / t1) / math.log(n2 / n1)


def fmt(t):
    return "timeout" if t is None else f"{t:8.3f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warp-opt", default=os.path.join(ROOT, "build/bin/warp-opt"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--long", type=float, default=10.0,
                        help="one run only for inputs whose first run takes longer")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--axes", default=",".join(AXES))
    Report.add_arguments(parser)
    args = parser.parse_args()
    data = {}
    report = Report("compile_scaling.py")
    say = report.say
    say(f"compile: {args.warp_opt} IN -o /dev/null "
        "--warp-lower-to-ptx=chip=sm_90 format=isa ptx-output=OUT.ptx")
    say(f"baseline: {args.mlir_opt} --allow-unregistered-dialect IN.generic -o /dev/null "
        "(parse, verify and print the same IR; stack limit raised to the hard limit)")
    say(f"CPU seconds (user + system), median of {args.runs} runs (1 run past {args.long:g} s)")
    with tempfile.TemporaryDirectory() as tmp:
        for axis in args.axes.split(","):
            title, sizes, make = AXES[axis]
            say()
            say(f"{axis}: {title}")
            say(f"  {'N':>6} {'compile s':>10} {'baseline s':>10} {'ratio':>8} {'PTX lines':>10}")
            points, rows = [], []
            for n in sizes:
                src = os.path.join(tmp, f"{axis}-{n}.mlir")
                generic = os.path.join(tmp, f"{axis}-{n}.generic.mlir")
                ptx = os.path.join(tmp, f"{axis}-{n}.ptx")
                with open(src, "w") as f:
                    f.write(make(n))
                subprocess.run([args.warp_opt, src, "--mlir-print-op-generic", "-o", generic],
                               check=True, capture_output=True)
                compile_cmd = [args.warp_opt, src, "-o", "/dev/null",
                               f"--warp-lower-to-ptx=chip=sm_90 format=isa ptx-output={ptx}"]
                base_cmd = [args.mlir_opt, "--allow-unregistered-dialect", generic, "-o", "/dev/null"]
                t = median_time(compile_cmd, args.runs, args.timeout, args.long)
                tb = median_time(base_cmd, args.runs, args.timeout, args.long)
                ptx_lines = sum(1 for _ in open(ptx)) if t is not None and os.path.exists(ptx) else None
                ratio = t / tb if t is not None and tb else None
                say(f"  {n:>6} {fmt(t):>10} {fmt(tb):>10} "
                    f"{'-' if ratio is None else f'{ratio:8.1f}':>8} {ptx_lines or '-':>10}")
                points.append((n, t))
                rows.append({"n": n, "compile_s": t, "baseline_s": tb, "ratio": ratio,
                             "ptx_lines": ptx_lines})
                if t is None:
                    break
            k = slope(points) if len(points) >= 2 else None
            kb = slope([(r["n"], r["baseline_s"]) for r in rows]) if len(rows) >= 2 else None
            say(f"  growth exponent (last two points): compile "
                f"{'-' if k is None else f'{k:.2f}'}, baseline {'-' if kb is None else f'{kb:.2f}'}")
            data[axis] = {"title": title, "points": rows, "exponent": k, "baseline_exponent": kb}
    say()
    report.finish(args.out, args.json, data)


if __name__ == "__main__":
    main()
