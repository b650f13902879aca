#!/usr/bin/env python3
"""Issue 32's targets against a device_ops_bench.py run: a markdown table
of every group at its largest n (cub/warp, share of the device copy's
bandwidth, the target, met or missed), the small-size crossovers against
CUB, torch and Triton, and an SVG chart of the ratios with each row's
target marked:

    python3 device_targets.py run.json [more.json ...] -o targets.md --svg targets.svg

Several runs merge (a later file's entry for a group and n replaces an
earlier one's), so that a run split over two processes reads as one.
The targets are the issue's (item 3); groups the issue names no target
for (segmented ops) are held to CUB's level.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chart  # noqa: E402  (beside this file)

# (what the issue calls the op, the least cub/warp, the least share of
# copy bandwidth or None) per op of device_ops_bench.py's GROUPS.
SCAN_TARGET = ("scan", 1.15, 0.85)
COMPACTION_TARGET = ("compaction", 1.15, 0.85)
SORT_TARGET = ("radix sort", 1.0, None)
HISTOGRAM_TARGET = ("histogram", 1.0, None)
TARGETS = {
    "reduce": ("sum", 1.02, None),
    "scan": SCAN_TARGET, "scan_by_key": SCAN_TARGET, "scan_combine": SCAN_TARGET,
    "scan_combine_by_key": SCAN_TARGET,
    "select": COMPACTION_TARGET, "select_if": COMPACTION_TARGET, "partition": COMPACTION_TARGET,
    "unique": COMPACTION_TARGET, "rle": COMPACTION_TARGET, "non_trivial_runs": COMPACTION_TARGET,
    "histogram": HISTOGRAM_TARGET, "histogram_rgba": HISTOGRAM_TARGET,
    "histogram_range": HISTOGRAM_TARGET, "histogram_even": HISTOGRAM_TARGET,
    "radix_sort": SORT_TARGET, "radix_sort_pairs": SORT_TARGET, "radix_sort_db": SORT_TARGET,
    "segmented_radix_sort": ("segmented sort (no target: CUB's level)", 1.0, None),
    "segmented_radix_sort_db": ("segmented sort (no target: CUB's level)", 1.0, None),
    "segmented_reduce": ("segmented sum (no target: CUB's level)", 1.0, None),
}
BASELINES = ("cub", "torch", "triton")


def load(paths):
    """The runs' entries per group, in TARGETS' order of their ops, each a
    {log2n: entry} of its sizes; a later file's entry wins."""
    merged = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for entry in data.get("results", []):
            merged.setdefault(entry["group"], {})[entry["log2n"]] = entry
    order = list(TARGETS)
    return dict(sorted(merged.items(), key=lambda item: (order.index(op_of(item[0])), item[0])))


def op_of(group):
    """device_ops_bench.py's op of `group` (its GROUPS table)."""
    import device_ops_bench
    return device_ops_bench.GROUPS[group][0]


def verdict(entry, target):
    """'met', 'missed' or '-' (no warp time) for `entry` against `target`."""
    _, ratio, share = target
    if "warp_ms" not in entry or "ratio_cub" not in entry:
        return "-"
    ok = entry["ratio_cub"] >= ratio
    if share is not None and "pct_copy" in entry:
        ok = ok and entry["pct_copy"] >= 100 * share
    return "met" if ok else "missed"


def cell(entry, key, spec):
    return format(entry[key], spec) if key in entry else "-"


def target_text(target):
    _, ratio, share = target
    return f">= {ratio:.2f}" + (f", >= {100 * share:.0f} % of copy" if share is not None else "")


def largest_table(groups):
    """One row per group at its largest n."""
    lines = ["| group | n | warp us | % of copy | cub/warp | torch/warp | triton/warp | target (issue's name) | |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    counts = {"met": 0, "missed": 0, "-": 0}
    for group, by in groups.items():
        log2 = max(by)
        e = by[log2]
        target = TARGETS[op_of(group)]
        v = verdict(e, target)
        counts[v] += 1
        warp_us = format(e["warp_ms"] * 1e3, ".1f") if "warp_ms" in e else "failed"
        lines.append(f"| {group} | 2^{log2} | {warp_us} | {cell(e, 'pct_copy', '.1f')} | "
                     f"{cell(e, 'ratio_cub', '.3f')} | {cell(e, 'ratio_torch', '.3f')} | "
                     f"{cell(e, 'ratio_triton', '.3f')} | {target_text(target)} ({target[0]}) | "
                     f"{'**' + v + '**' if v == 'missed' else v} |")
    return lines, counts


def crossover(sizes, ratios):
    """The smallest n from which warp is at least as fast as the baseline
    at every larger measured n ('2^k'), 'none' where it trails at the
    largest, '-' without figures."""
    points = [(log2, r) for log2, r in zip(sizes, ratios) if r is not None]
    if not points:
        return "-"
    start = None
    for log2, r in reversed(points):
        if r < 1.0:
            break
        start = log2
    return "none" if start is None else f"2^{start}" + (" (all)" if start == points[0][0] else "")


def crossover_table(groups):
    """Per group measured at two or more sizes: cub/warp at each, and the
    crossovers against each baseline."""
    all_sizes = sorted({l for by in groups.values() for l in by})
    head = " | ".join(f"2^{l}" for l in all_sizes)
    lines = [f"| group | cub/warp at {head} | warp >= CUB from | >= torch from | >= Triton from |",
             "| --- | " + " | ".join("---" for _ in all_sizes) + " | --- | --- | --- |"]
    for group, by in groups.items():
        sizes = sorted(by)
        if len(sizes) < 2:
            continue
        ratios = " | ".join(cell(by[l], "ratio_cub", ".2f") if l in by else "" for l in all_sizes)
        froms = [crossover(sizes, [by[l].get(f"ratio_{b}") for l in sizes]) for b in BASELINES]
        lines.append(f"| {group} | {ratios} | " + " | ".join(froms) + " |")
    return lines


def chart_rows(groups):
    """chart.py's rows (with a target each) at each group's largest n."""
    rows = []
    for group, by in groups.items():
        log2 = max(by)
        e = by[log2]
        r = {}
        if "ratio_cub" in e:
            r["ratio_cub"] = e["ratio_cub"]
        others = [e[f"{b}_ms"] for b in ("torch", "triton") if f"{b}_ms" in e]
        if others and "warp_ms" in e:
            r["ratio_triton_torch"] = min(others) / e["warp_ms"]
        rows.append((f"{group} 2^{log2}", r, TARGETS[op_of(group)][1]))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", nargs="+")
    parser.add_argument("-o", "--output", help="the markdown tables (default: standard output)")
    parser.add_argument("--svg", help="the chart")
    parser.add_argument("--title", default="warp device ops: CUB / warp and issue 32's targets")
    args = parser.parse_args(argv)
    groups = load(args.json)
    if not groups:
        print("device_targets: no results in " + ", ".join(args.json), file=sys.stderr)
        return 1
    largest, counts = largest_table(groups)
    text = "\n".join(largest + ["", f"met {counts['met']}, missed {counts['missed']}, "
                                    f"no warp time {counts['-']}", ""] + crossover_table(groups)) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.svg:
        with open(args.svg, "w") as f:
            f.write(chart.svg(chart_rows(groups), args.title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
