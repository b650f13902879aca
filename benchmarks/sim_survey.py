#!/usr/bin/env python3
"""The block benchmark's kernels, warp's and CUB's, side by side on the
SIMT simulator (no GPU): for one block of each, the PTX instructions its
warps issue and the shared-memory bank wavefronts they take
(`warp-sim --stats`), and whether both wrote the same output.

    python3 block_bench.py --build DIR --warp-opt build/bin/warp-opt --only GROUPS
    python3 sim_survey.py --ptx-dir DIR [--warp-sim build/bin/warp-sim] [--nvcc nvcc]

CUB's side is `nvcc -O3 -arch=sm_90 -ptx block_baselines.cu`, each entry
cut into a file of its own (the simulator parses a whole file, and some
entries hold instructions it does not run). Groups whose arguments this
script knows: load_store, block_reduce, block_scan, sort, merge_sort,
block_merge_sort, radix_rank.
PTX is not SASS (ptxas schedules, fuses and drops instructions), so the
ratios point at where to look, they are not times.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test",
                                "Integration", "CUDA"))
import ptx_text  # noqa: E402  (the GPU suite's PTX module reader)

STATS = re.compile(r"(\d+) warp instructions, (\d+) lane instructions, "
                   r"(\d+) shared requests, (\d+) shared wavefronts")


def split_entries(text, out_dir):
    """One file per `.entry` of nvcc's PTX (the text before the first one
    kept in each), by ptx_text.split_entries; the entries' names."""
    head, parts = ptx_text.split_entries(text)
    for name, part in parts:
        with open(os.path.join(out_dir, name + ".ptx"), "w") as f:
            f.write(head + part)
    return [name for name, _ in parts]


def arguments(name, rng):
    """(type, count, init) per buffer of kernel `name`, the outputs last."""
    m = re.search(r"_(\d+)x(\d+)", name)
    threads, items = int(m.group(1)), int(m.group(2))
    tile = threads * items
    if "_f32_" in name:
        keys = ("f32", ",".join(str(rng.randrange(-50, 50)) for _ in range(tile)))
    else:
        keys = ("i32", ",".join(str(rng.randrange(1 << 31)) for _ in range(tile)))
    if name.startswith("block_reduce"):
        return threads, [(keys[0], tile, keys[1]), (keys[0], 1, None)], 1
    if "sort_pairs" in name:  # radix and merge sorts of key-value pairs
        return threads, [("i32", tile, keys[1]), ("i32", tile, "iota"),
                         ("i32", tile, None), ("i32", tile, None)], 2
    return threads, [(keys[0], tile, keys[1]), (keys[0], tile, None)], 1


def simulate(warp_sim, ptx, kernel, threads, buffers, kind):
    args = [f"{kind}:{t}:{n}" + (f"={v}" if v else "") for t, n, v in buffers]
    out = subprocess.run([warp_sim, ptx, "--kernel", kernel, "--block", str(threads), "--stats"]
                         + args, capture_output=True, text=True)
    m = STATS.search(out.stdout)
    if out.returncode or not m:
        return None, out.stderr.strip().splitlines()[:1]
    return tuple(map(int, m.groups())), [l.split(":", 1)[1] for l in out.stdout.splitlines()
                                         if l.startswith("buf")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ptx-dir", required=True, help="block_bench.py --build's DIR")
    parser.add_argument("--warp-sim", default="build/bin/warp-sim")
    parser.add_argument("--nvcc", default="nvcc")
    parser.add_argument("--baselines", default=os.path.join(os.path.dirname(__file__),
                                                            "block_baselines.cu"))
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        cub_ptx = os.path.join(tmp, "cub.ptx")
        subprocess.run([args.nvcc, "-O3", "-arch=sm_90", "-ptx", "-o", cub_ptx, args.baselines],
                       check=True)
        cubs = set(split_entries(open(cub_ptx).read(), tmp))
        print(f"{'kernel':40} {'PTX warp/CUB':>13} {'wavefronts warp/CUB':>20}  same output")
        for f in sorted(os.listdir(args.ptx_dir)):
            name = f[len("warp_"):-len(".ptx")] if f.startswith("warp_") and f.endswith(".ptx") else None
            if not name or "cub_" + name not in cubs or not re.search(r"_\d+x\d+", name):
                continue
            threads, buffers, outputs = arguments(name, rng)
            warp, wout = simulate(args.warp_sim, os.path.join(args.ptx_dir, f), "warp_" + name,
                                  threads, buffers, "memref")
            cub, cout = simulate(args.warp_sim, os.path.join(tmp, f"cub_{name}.ptx"),
                                 "cub_" + name, threads, buffers, "buf")
            if warp is None or cub is None:
                print(f"{name:40} not run: {(wout if warp is None else cout)}")
                continue
            waves = f"{warp[3] / cub[3]:.3f}" if cub[3] else "-"
            print(f"{name:40} {warp[0] / cub[0]:13.3f} {waves:>20}  "
                  f"{'yes' if wout[-outputs:] == cout[-outputs:] else 'NO'}"
                  f"  ({warp[0]} / {cub[0]} instructions, {warp[3]} / {cub[3]} wavefronts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
