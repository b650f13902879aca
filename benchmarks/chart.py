#!/usr/bin/env python3
"""Draws the ratios of device_bench.py (and warp_bench.py) results as an SVG
bar chart, written by hand (no plotting library):

    python3 chart.py device_bench.json [bench.json] -o ratios.svg

One row per kernel, one bar per baseline: baseline time / warp time, so a
bar right of the 1.0 line means warp is faster. A row may carry a target
(the least CUB / warp asked of it), drawn as a red mark across its bars.
"""
import argparse
import json
import sys

SERIES = [("ratio_cub", "CUB", "#4e79a7"), ("ratio_hand", "hand-written CUDA", "#f28e2b"),
          ("ratio_triton_torch", "faster of Triton / torch", "#59a14f")]


def rows_from(path):
    with open(path) as f:
        data = json.load(f)
    rows = []
    if isinstance(data, dict):  # device_bench.py
        for e in data.get("results", []):
            if "warp_ms" in e:
                rows.append((e["kernel"], {k: e[k] for k, _, _ in SERIES if k in e}))
        # A benchmark of levers only (variants against its own default) has
        # no baseline ratio: it has no bars.
        rows = [(kernel, r) for kernel, r in rows if r]
    else:  # warp_bench.py: a list of entries with warp_ms / cub_ms / triton_ms
        for e in data:
            if "warp_ms" not in e:
                continue
            r = {}
            if "cub_ms" in e:
                r["ratio_cub"] = e["cub_ms"] / e["warp_ms"]
            if "triton_ms" in e:
                r["ratio_triton_torch"] = e["triton_ms"] / e["warp_ms"]
            rows.append(("warp micro: " + e["kernel"], r))
    return rows


def svg(rows, title):
    width, bar, gap, top = 520, 9, 8, 50
    # Room for the longest label at 11 px (about 6.5 px a character).
    left = max(160, int(6.5 * max([len(row[0]) for row in rows] + [0])) + 16)
    vmax = max([1.25] + [v for row in rows for v in row[1].values()])
    vmax = min(vmax, 4.0)
    x = lambda v: left + min(v, vmax) / vmax * width
    height = top + len(rows) * (len(SERIES) * bar + gap) + 50
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 140}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="18" font-size="13" font-weight="bold">{title}</text>']
    present = [s for s in SERIES if any(s[0] in row[1] for row in rows)]
    for i, (_, name, color) in enumerate(present):
        out.append(f'<rect x="{left + i * 170}" y="28" width="10" height="10" fill="{color}"/>'
                   f'<text x="{left + i * 170 + 14}" y="37">{name}</text>')
    if any(len(row) > 2 for row in rows):
        at = left + len(present) * 170
        out.append(f'<line x1="{at + 5}" y1="27" x2="{at + 5}" y2="39" stroke="#d62728" stroke-width="2"/>'
                   f'<text x="{at + 14}" y="37">target</text>')
    bars_at = len(out)  # the grid goes under the bars: inserted here below
    y = top
    for kernel, r, *target in rows:
        if target:
            out.append(f'<line x1="{x(target[0]):.1f}" y1="{y - 2}" x2="{x(target[0]):.1f}" '
                       f'y2="{y + len(SERIES) * bar + 1}" stroke="#d62728" stroke-width="2"/>')
        out.append(f'<text x="{left - 6}" y="{y + len(SERIES) * bar / 2 + 4}" text-anchor="end">{kernel}</text>')
        for key, _, color in SERIES:
            if key in r:
                v = r[key]
                # A bar past the axis ends in an arrowhead; its label keeps the value.
                clipped = v > vmax
                out.append(f'<rect x="{left}" y="{y}" width="{x(v) - left:.1f}" height="{bar - 1}" fill="{color}"/>'
                           + (f'<polygon points="{x(v):.1f},{y - 1} {x(v) + 6:.1f},{y + (bar - 1) / 2:.1f} '
                              f'{x(v):.1f},{y + bar - 1}" fill="{color}"/>' if clipped else "")
                           + f'<text x="{x(v) + (9 if clipped else 3):.1f}" y="{y + bar - 1}" font-size="9">{v:.2f}</text>')
            y += bar
        y += gap
    grid = []
    for t in [0.5 * k for k in range(int(vmax / 0.5) + 1)]:
        grid.append(f'<line x1="{x(t):.1f}" y1="{top - 4}" x2="{x(t):.1f}" y2="{y}" '
                   f'stroke="{"black" if t == 1 else "#ccc"}" stroke-width="{1.5 if t == 1 else 0.5}"/>'
                   f'<text x="{x(t):.1f}" y="{y + 14}" text-anchor="middle">{t:.1f}</text>')
    out[bars_at:bars_at] = grid
    out.append(f'<text x="{left + width / 2}" y="{y + 32}" text-anchor="middle">'
               f'baseline time / warp time (&gt; 1: warp is faster)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--title", default="warp kernels vs baselines (H200)")
    args = parser.parse_args(argv)
    rows = []
    for path in args.json:
        try:
            rows += rows_from(path)
        except (OSError, ValueError) as error:
            print(f"chart: skipping {path}: {error}", file=sys.stderr)
    with open(args.output, "w") as f:
        f.write(svg(rows, args.title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
