#!/usr/bin/env python3
"""Compile time and scale of warp-lower-to-ptx (no GPU needed; issue 12):

 1. the 100-op kernel (100 chained f32 `warp.reduce <add>`) to PTX as a
    whole warp-opt process, against `mlir-opt-22 --gpu-lower-to-nvvm-pipeline`
    on the equivalent upstream IR (each reduction written out as 5
    `gpu.shuffle xor` + `arith.addf`, what the same kernel needs without
    warp), both to PTX text for sm_90;
 2. the same kernel in process through the Python package (ctypes, C API):
    the first compile in a fresh process and the warm median of 20, with
    the on-disk cache off;
 3. a module of 1,000 small kernels (one gpu.module, and 8 gpu.modules of
    125) with MLIR's multithreading on and off (--mlir-disable-threading).

    python3 benchmarks/compile_bench.py [--warp-opt build/bin/warp-opt]
        [--library build/lib/libWarpCAPI.so] [--runs 10] [--out FILE]

With WARP_SELF_CONTAINED (scripts/setup.sh) warp-opt has LLVM and MLIR
linked in, which saves the dynamic linker's symbol lookups in
libMLIR.so/libLLVM.so; where the build has them (`ninja warp-opt-dylib
lib-self-contained/libWarpCAPI.so`), 1. is also measured with warp-opt-dylib,
the same driver against libMLIR.so, and 2. with the self-contained C API
library (--warp-opt-dylib, --static-library; "" skips).

Times are wall-clock medians; the machine and its load are printed with them.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def k100_warp(ops=100, op="warp.reduce"):
    """A chain of `ops` collectives (`op` <add> on f32), each on the last."""
    body = ["    %t = gpu.thread_id x", "    %x0 = memref.load %in[%t] : memref<?xf32>",
            "    %c = arith.constant 0.5 : f32"]
    for i in range(ops):
        body.append(f"    %m{i} = arith.mulf %x{i}, %c : f32")
        body.append(f"    %x{i + 1} = {op} <add> %m{i} : f32")
    body.append(f"    memref.store %x{ops}, %out[%t] : memref<?xf32>")
    return kernel_module("k100", "k", body)


def k100_upstream(ops=100):
    body = ["    %t = gpu.thread_id x", "    %x0 = memref.load %in[%t] : memref<?xf32>",
            "    %c = arith.constant 0.5 : f32", "    %w = arith.constant 32 : i32"]
    for d in (1, 2, 4, 8, 16):
        body.append(f"    %o{d} = arith.constant {d} : i32")
    for i in range(ops):
        body.append(f"    %m{i} = arith.mulf %x{i}, %c : f32")
        v = f"%m{i}"
        for d in (16, 8, 4, 2, 1):
            r = f"%x{i + 1}" if d == 1 else f"%a{i}_{d}"
            body.append(f"    %s{i}_{d}, %p{i}_{d} = gpu.shuffle xor {v}, %o{d}, %w : f32")
            body.append(f"    {r} = arith.addf {v}, %s{i}_{d} : f32")
            v = r
    body.append(f"    memref.store %x{ops}, %out[%t] : memref<?xf32>")
    return kernel_module("k100", "k", body)


def kernel_module(module, name, body):
    return ("module attributes {gpu.container_module} {\n"
            f"gpu.module @{module} {{\n"
            f"  gpu.func @{name}(%in: memref<?xf32>, %out: memref<?xf32>) kernel {{\n"
            + "\n".join(body) + "\n    gpu.return\n  }\n}\n}\n")


def many_kernels(total=1000, modules=1):
    per = total // modules
    out = ["module attributes {gpu.container_module} {"]
    for m in range(modules):
        out.append(f"gpu.module @m{m} {{")
        for k in range(per):
            kind = ("add", "maxnumf", "mul", "minnumf")[k % 4]
            out.append(f"  gpu.func @k{m}_{k}(%in: memref<?xf32>, %out: memref<?xf32>) kernel {{\n"
                       "    %t = gpu.thread_id x\n"
                       "    %x = memref.load %in[%t] : memref<?xf32>\n"
                       f"    %r = warp.reduce <{kind}> %x : f32\n"
                       f"    %s = warp.scan <add> %r : f32\n"
                       "    memref.store %s, %out[%t] : memref<?xf32>\n"
                       "    gpu.return\n  }")
        out.append("}")
    out.append("}")
    return "\n".join(out) + "\n"


def run_time(cmd):
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr[-800:]}")
    return dt


def median_runs(cmds, runs):
    """Runs the commands in turn `runs` times; median seconds of each."""
    times = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            times[i].append(run_time(cmd))
    return [statistics.median(t) for t in times], times


IN_PROCESS = r"""
import json, statistics, sys, time
t0 = time.perf_counter()
import warp_mlir
t1 = time.perf_counter()
src = open(sys.argv[1]).read()
warp_mlir.compile(src)
t2 = time.perf_counter()
warm = []
for _ in range(int(sys.argv[2])):
    a = time.perf_counter()
    warp_mlir.compile(src)
    warm.append(time.perf_counter() - a)
result = {"import_s": t1 - t0, "first_s": t2 - t1}
if warm:
    result.update(warm_median_s=statistics.median(warm), warm_min_s=min(warm))
print(json.dumps(result))
"""


class Report:
    """The lines a benchmark prints, kept for --out: opens with the machine
    and its load, ends with the load again (the figures are whole-process
    times, which other work on the machine skews)."""

    def __init__(self, name):
        self.lines = []
        uname = platform.uname()
        load = os.getloadavg()
        self.say(f"{name}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                 f"{uname.node} {uname.machine}, {os.cpu_count()} cores, "
                 f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at start")

    @staticmethod
    def add_arguments(parser):
        parser.add_argument("--out", help="also write the report here")
        parser.add_argument("--json", help="also write the figures here")

    def say(self, text=""):
        print(text, flush=True)
        self.lines.append(text)

    def finish(self, out, json_path, data):
        load = os.getloadavg()
        self.say(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the end")
        if out:
            with open(out, "w") as f:
                f.write("\n".join(self.lines) + "\n")
        if json_path:
            with open(json_path, "w") as f:
                json.dump(data, f, indent=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warp-opt", default=os.path.join(ROOT, "build/bin/warp-opt"))
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    parser.add_argument("--library", default=os.path.join(ROOT, "build/lib/libWarpCAPI.so"))
    parser.add_argument("--warp-opt-dylib", default=os.path.join(ROOT, "build/bin/warp-opt-dylib"))
    parser.add_argument("--static-library",
                        default=os.path.join(ROOT, "build/lib-self-contained/libWarpCAPI.so"))
    parser.add_argument("--python", default="/usr/bin/python3" if os.path.exists("/usr/bin/python3")
                        else sys.executable)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--scale-runs", type=int, default=3)
    Report.add_arguments(parser)
    args = parser.parse_args()
    data = {}
    report = Report("compile_bench.py")
    say = report.say
    with tempfile.TemporaryDirectory() as tmp:
        warp_src = os.path.join(tmp, "k100.mlir")
        up_src = os.path.join(tmp, "k100-upstream.mlir")
        open(warp_src, "w").write(k100_warp())
        open(up_src, "w").write(k100_upstream())
        warp_ptx, up_ptx = os.path.join(tmp, "warp.ptx"), os.path.join(tmp, "up.mlir")
        warp_cmd = [args.warp_opt, warp_src, "-o", "/dev/null",
                    f"--warp-lower-to-ptx=chip=sm_90 format=isa ptx-output={warp_ptx}"]
        up_cmd = [args.mlir_opt, up_src, "-o", up_ptx,
                  "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa"]
        cmds = [warp_cmd, up_cmd]
        dylib = args.warp_opt_dylib and os.path.exists(args.warp_opt_dylib)
        if dylib:
            cmds.append([args.warp_opt_dylib] + warp_cmd[1:])
        medians, _ = median_runs(cmds, args.runs)
        tw, tu = medians[:2]
        shfl_w = open(warp_ptx).read().count("shfl.sync.")
        shfl_u = open(up_ptx).read().count("shfl.sync.")
        say()
        say(f"1. 100-op kernel to PTX, whole process, median of {args.runs}:")
        say(f"   warp-opt --warp-lower-to-ptx           {tw * 1e3:8.1f} ms  ({shfl_w} shfl in PTX)")
        say(f"   mlir-opt-22 --gpu-lower-to-nvvm-pipeline {tu * 1e3:6.1f} ms  ({shfl_u} shfl in PTX, upstream IR)")
        say(f"   warp / mlir-opt-22 = {tw / tu:.3f}  (target <= 0.8)")
        data["k100_process"] = {"warp_s": tw, "mlir_opt_s": tu, "ratio": tw / tu}
        if dylib:
            td = medians[2]
            say(f"   warp-opt-dylib (libMLIR.so, libLLVM.so) {td * 1e3:5.1f} ms  (/ mlir-opt-22 = {td / tu:.3f})")
            data["k100_process"].update(warp_dylib_s=td, dylib_ratio=td / tu)

        libraries = [("", args.library)]
        if args.static_library and os.path.exists(args.static_library):
            libraries.append((" self-contained", args.static_library))
        for label, library in libraries:
            # WARP_MLIR_CACHE=0: every compile compiles (the on-disk cache
            # would hand back the first one's PTX).
            env = dict(os.environ, WARP_MLIR_LIBRARY=library, WARP_MLIR_CACHE="0",
                       PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep
                       + os.environ.get("PYTHONPATH", ""))
            firsts, warm = [], None
            for i in range(5):
                proc = subprocess.run([args.python, "-c", IN_PROCESS, warp_src, "20" if i == 0 else "0"],
                                      capture_output=True, text=True, env=env)
                if proc.returncode != 0:
                    say(f"2. in process{label}: failed: {proc.stderr[-600:]}")
                    break
                got = json.loads(proc.stdout.strip().splitlines()[-1])
                firsts.append(got["first_s"])
                if i == 0:
                    warm = got
            if warm:
                say()
                say(f"2. 100-op kernel in process (warp_mlir.compile, C API{label}: "
                    f"{os.path.relpath(library, ROOT)}):")
                say(f"   first compile in a process {statistics.median(firsts) * 1e3:7.1f} ms "
                    f"(median of {len(firsts)} processes; import {warm['import_s'] * 1e3:.0f} ms not counted)"
                    "  (target <= 60 ms)")
                say(f"   warm, median of 20         {warm['warm_median_s'] * 1e3:7.1f} ms "
                    f"(min {warm['warm_min_s'] * 1e3:.1f} ms)  (target <= 20 ms)")
                key = "k100_in_process" + label.replace(" ", "_").replace("-", "_")
                data[key] = {"first_s": statistics.median(firsts), **warm}

        say()
        say(f"3. 1,000 kernels to PTX (warp-opt, whole process), median of {args.scale_runs}:")
        data["scale"] = {}
        for modules in (1, 8):
            src = os.path.join(tmp, f"k1000-{modules}.mlir")
            open(src, "w").write(many_kernels(1000, modules))
            base = [args.warp_opt, src, "-o", "/dev/null",
                    f"--warp-lower-to-ptx=chip=sm_90 format=isa ptx-output={tmp}/"]
            (t_on, t_off), _ = median_runs([base, base + ["--mlir-disable-threading"]], args.scale_runs)
            say(f"   {modules} gpu.module(s) of {1000 // modules:4d} kernels: threads on {t_on:6.2f} s, "
                f"off {t_off:6.2f} s, speed-up {t_off / t_on:.2f}x on {os.cpu_count()} cores")
            data["scale"][f"{modules}_modules"] = {"threads_on_s": t_on, "threads_off_s": t_off}
    report.finish(args.out, args.json, data)


if __name__ == "__main__":
    main()
