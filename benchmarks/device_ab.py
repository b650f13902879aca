#!/usr/bin/env python3
"""Two wheels' device_ops_bench.py runs side by side: warp's time of each
(group, size) under the old and the new wheel (the mean over the runs of
each), their ratio, and CUB / warp under each (CUB from the same runs, so
a change of the GPU's state shows in both columns).

    python3 benchmarks/device_ab.py --old A1.json A2.json --new B1.json B2.json

Runs taken in alternating order on one machine (scripts/wheel-ab.sh) are
what this compares; a (group, size) timed by one side only is listed as
missing.
"""
import argparse
import collections
import json


def results(path):
    """The timed rows of one device_ops_bench.py --json file (none where a
    run was cut off before writing it)."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return []
    return [row for row in data.get("results", []) if row.get("warp_ms") and row.get("cub_ms")]


def table(old, new):
    """Markdown lines: one row per (group, log2 n) of either side."""
    times = collections.defaultdict(lambda: {"old": [], "new": []})
    for side, paths in (("old", old), ("new", new)):
        for path in paths:
            for row in results(path):
                times[(row["group"], row["log2n"])][side].append(
                    (row["warp_ms"] * 1000, row["cub_ms"] * 1000))
    lines = ["| group | n | old warp us | new warp us | new / old | cub/warp old | cub/warp new | runs |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for (group, log2n), sides in sorted(times.items()):
        o, n = sides["old"], sides["new"]
        if not o or not n:
            lines.append(f"| {group} | 2^{log2n} | missing ({len(o)} old, {len(n)} new runs) |"
                         " | | | | |")
            continue
        mean = lambda pairs, f: sum(map(f, pairs)) / len(pairs)
        ow, nw = mean(o, lambda p: p[0]), mean(n, lambda p: p[0])
        ro, rn = mean(o, lambda p: p[1] / p[0]), mean(n, lambda p: p[1] / p[0])
        lines.append(f"| {group} | 2^{log2n} | {ow:.1f} | {nw:.1f} | {nw / ow:.3f} | {ro:.3f} |"
                     f" {rn:.3f} | {len(o)}, {len(n)} |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", nargs="+", required=True, help="the old wheel's JSON files")
    parser.add_argument("--new", nargs="+", required=True, help="the new wheel's JSON files")
    args = parser.parse_args(argv)
    print("\n".join(table(args.old, args.new)))


if __name__ == "__main__":
    main()
