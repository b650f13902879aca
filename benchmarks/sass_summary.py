#!/usr/bin/env python3
"""SASS side by side for device_bench.py (needs cuobjdump, i.e. the GPU host
or a CUDA install that has it): per kernel of the warp PTX files and of the
baselines library, registers and a histogram of the instructions that
matter for these kernels (global/shared memory, shuffles, reductions,
barriers, atomics, 64-bit address arithmetic).

    python3 sass_summary.py --ptx-dir DIR [--binary libbaselines.so] [--json out.json]
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")
FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
RES_USAGE = re.compile(r"Function ([^:\s]+):\s*\n\s*REG:(\d+)")
# Counted by full opcode (memory) or by mnemonic (the rest).
FULL = ("LDG", "STG", "LDS", "STS", "ATOMG", "RED", "ATOM")
MNEMONICS = ("SHFL", "REDUX", "BAR", "VOTE", "MEMBAR", "FENCE", "FADD", "FFMA", "IADD3", "IMAD", "LEA",
             "ISETP", "BRA", "WARPSYNC", "S2R", "S2UR")
INTERESTING = re.compile(r"^(sum|dot|finish|scan|select|block)_|hand|cub(Block)|Device(Reduce|Scan|Select)")


def demangle(names):
    tool = shutil.which("cu++filt") or shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def summarize_binary(path):
    sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True, timeout=120).stdout
    res = subprocess.run(["cuobjdump", "-res-usage", path], capture_output=True, text=True, timeout=120).stdout
    regs = {m.group(1): int(m.group(2)) for m in RES_USAGE.finditer(res)}
    kernels, current = {}, None
    for line in sass.splitlines():
        f = FUNCTION.match(line)
        if f:
            current = kernels.setdefault(f.group(1), collections.Counter())
            continue
        m = INSTRUCTION.search(line)
        if m and current is not None:
            op = m.group(1)
            current["instructions"] += 1
            base = op.split(".")[0]
            if base in FULL:
                current[op] += 1
            elif base in MNEMONICS:
                current[base] += 1
            if op.startswith("IMAD.WIDE") or op.startswith("IADD3.X") or op.startswith("LEA.HI.X"):
                current["64-bit address ops"] += 1
    names = demangle(list(kernels))
    out = {}
    for name, counts in kernels.items():
        pretty = names[name]
        if not INTERESTING.search(pretty):
            continue
        out[pretty[:160]] = {"regs": regs.get(name), **dict(counts)}
    return out


def summary(ptx_dir, binaries=()):
    """{file: {kernel: {regs, instructions, op counts}}}, or {"error": ...}."""
    if not shutil.which("cuobjdump") or not shutil.which("ptxas"):
        return {"error": "cuobjdump or ptxas not on PATH"}
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("reduce", "reduce_idx32", "scan", "block"):
            ptx = os.path.join(ptx_dir, name + ".ptx")
            if not os.path.exists(ptx):
                continue
            cubin = os.path.join(tmp, name + ".cubin")
            try:
                subprocess.run(["ptxas", "-arch=sm_90", "-O3", ptx, "-o", cubin], check=True,
                               capture_output=True, timeout=120)
                result[name + ".ptx"] = summarize_binary(cubin)
            except Exception as error:  # noqa: BLE001
                result[name + ".ptx"] = {"error": str(error)[:300]}
        for path in binaries:
            try:
                result[os.path.basename(path)] = summarize_binary(path)
            except Exception as error:  # noqa: BLE001
                result[os.path.basename(path)] = {"error": str(error)[:300]}
    return result


def format_summary(result):
    lines = []
    for source, kernels in result.items():
        if source == "error" or "error" in kernels:
            lines.append(f"{source}: {kernels if source != 'error' else result['error']}")
            continue
        lines.append(f"== {source}")
        for kernel, counts in sorted(kernels.items()):
            ops = " ".join(f"{k}={v}" for k, v in sorted(counts.items()) if k not in ("regs", "instructions"))
            lines.append(f"{kernel[:70]:70s} regs={counts.get('regs')} instr={counts.get('instructions', 0)} {ops}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ptx-dir", required=True)
    parser.add_argument("--binary", action="append", default=[])
    parser.add_argument("--json")
    args = parser.parse_args()
    result = summary(args.ptx_dir, args.binary)
    print(format_summary(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
