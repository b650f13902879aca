"""Condenses an Nsight Compute text report (`ncu` without --csv, as
`scripts/device-targets.sh profile` writes it) to one entry per kernel and
launch shape: the median of each metric over the kernel's launches, and
the stall reasons ncu's rules name with their cycles per issued
instruction.

    python3 benchmarks/ncu_summary.py ncu-rle_i32-16.txt [--kernels REGEX]

A kernel's name is its function's name without the template arguments,
namespaces or parameters (`DeviceScanKernel`, `scan`), followed by its
grid x block size.
"""
import argparse
import collections
import re
import statistics
import sys

# The metrics of the sections device-targets.sh asks for, in this order.
METRICS = ["Duration", "Elapsed Cycles", "DRAM Throughput", "Memory Throughput",
           "L2 Cache Throughput", "Compute (SM) Throughput", "Registers Per Thread",
           "Static Shared Memory Per Block", "Theoretical Occupancy", "Achieved Occupancy",
           "Waves Per SM", "Warp Cycles Per Issued Instruction", "dram__bytes_read.sum",
           "dram__bytes_write.sum"]

LAUNCH = re.compile(r"^  (.*) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\), Context")
STALL = re.compile(r"spends ([\d.]+) cycles being stalled (.*)")


def kernel_name(signature):
    """`void ns::Kernel<...>(args)` -> `Kernel`."""
    base = signature
    depth, cut = 0, len(base)
    for i, ch in enumerate(base):  # the first '<' or '(' outside brackets
        if ch in "<(" and depth == 0:
            cut = i
            break
    base = base[:cut].split()[-1] if base[:cut].split() else base
    return base.split("::")[-1]


def parse(lines):
    """{kernel: {metric: [values], "stalls": {reason: [cycles]}, "unit": {metric: unit}}}."""
    kernels = collections.OrderedDict()
    current = None
    pending = None  # a stall sentence that wraps onto the next line
    for line in lines:
        m = LAUNCH.match(line)
        if m:
            name = f"{kernel_name(m.group(1))} {m.group(2)}x{m.group(5)}"
            current = kernels.setdefault(name, {"stalls": collections.defaultdict(list), "unit": {}})
            current.setdefault("launches", 0)
            current["launches"] += 1
            continue
        if current is None:
            continue
        text = line.strip()
        if pending is not None:
            cycles, start = pending
            reason = (start + " " + text).split(". ")[0].rstrip(".")
            current["stalls"][reason[:70]].append(cycles)
            pending = None
            continue
        m = STALL.search(text)
        if m:
            pending = (float(m.group(1)), m.group(2).strip())
            continue
        for metric in METRICS:
            if text.startswith(metric + " "):
                fields = text[len(metric):].split()
                try:
                    value = float(fields[-1].replace(",", ""))
                except ValueError:
                    break
                current.setdefault(metric, []).append(value)
                if len(fields) > 1:
                    current["unit"][metric] = fields[0]
                break
    return kernels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report")
    parser.add_argument("--kernels", default=".", help="only kernels whose name matches this regex")
    args = parser.parse_args()
    with open(args.report, errors="replace") as f:
        kernels = parse(f)
    for name, data in kernels.items():
        if not re.search(args.kernels, name):
            continue
        print(f"{name}  ({data['launches']} launches, medians)")
        for metric in METRICS:
            if metric in data:
                unit = data["unit"].get(metric, "")
                print(f"    {metric:36s} {statistics.median(data[metric]):>12g} {unit}")
        for reason, cycles in sorted(data["stalls"].items(), key=lambda kv: -statistics.median(kv[1])):
            print(f"    stall {statistics.median(cycles):5.1f} cycles: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
