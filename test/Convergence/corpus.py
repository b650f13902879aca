#!/usr/bin/env python3
"""warp-check-convergence measured against the SIMT simulator (issue 29).

Generates divergent kernels (valid and invalid), runs each on warp-sim (the
oracle: it reports a collective that can never complete and a lane outside
its own member mask) and compares with what warp-check-convergence says of
the same kernel.

Each kernel: a block of B threads (32, 48, 64 or 16; `known_block_size`
stated or not), zero to two nested branches on lane or thread conditions
(`lane < c`, `lane % k == r`, `tid < c`, or a flag loaded from memory, all
ones at run time), and one collective (ballot, vote, reduce, syncwarp) with
no mask, a constant mask (the lanes that reach it in warp 0, a superset, a
subset, the low half), `warp.activemask` taken at the collective or at the
top of the kernel, or the ballot, taken at the top, of the innermost
condition or of all of them. The branches are nested `scf.if`s, `cf`
branches to an early return, or `cf` diamonds that join again before the
collective.

    python3 test/Convergence/corpus.py --warp-opt build/bin/warp-opt \
        --warp-sim build/bin/warp-sim [--seed 1] [--programs 400]

`--classic` generates the corpus of the first measurement (scf only, the
activemask at the collective only), kernel for kernel as then.

Prints the counts; exits 1 on a false alarm (a kernel the simulator runs
without a report that the checker flags) or a missed kernel whose lane sets
and mask are known at compile time (`known_block_size` stated, no loaded
condition or trip count, a constant mask or none).
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

BLOCKS = [32, 48, 64, 16]


def condition(rng, block):
    kind = rng.choice(["lane_lt", "lane_mod", "tid_lt", "flag"])
    if kind == "lane_lt":
        c = rng.randint(1, 31)
        return (f"arith.cmpi ult, %l, %c{c} : i32", lambda t: t % 32 < c, [c], True)
    if kind == "lane_mod":
        k = rng.choice([2, 4, 8])
        r = rng.randrange(k)
        return (f"arith.cmpi eq, %m{k}, %c{r} : i32", lambda t: (t % 32) % k == r, [k, r], True)
    if kind == "tid_lt":
        c = rng.randint(1, block)
        return (f"arith.cmpi ult, %t, %c{c} : i32", lambda t: t < c, [c], True)
    return ("arith.cmpi ne, %flag, %c0 : i32", lambda t: True, [0], False)


def trip_count(rng, block):
    """An scf.for trip count: its lines (defining %n, an index) from %l, %t
    and %flag, the count for thread t, the i32 constants it uses and
    whether it is known per lane at compile time."""
    kind = rng.choice(["uniform", "lane_div", "lane_lt", "tid_lt", "flag"])
    if kind == "uniform":
        return (["    %n = arith.constant 2 : index"], lambda t: 2, [], True)
    if kind == "lane_div":
        return (["    %li = arith.index_cast %l : i32 to index",
                 "    %ci8 = arith.constant 8 : index",
                 "    %lq = arith.divui %li, %ci8 : index",
                 "    %n = arith.addi %lq, %ci1 : index"], lambda t: (t % 32) // 8 + 1, [], True)
    if kind in ("lane_lt", "tid_lt"):
        c = rng.randint(1, 31) if kind == "lane_lt" else rng.randint(1, block)
        var = "%l" if kind == "lane_lt" else "%t"
        return ([f"    %nc = arith.cmpi ult, {var}, %c{c} : i32",
                 "    %n = arith.select %nc, %ci2, %ci1 : index"],
                (lambda t: 2 if t % 32 < c else 1) if kind == "lane_lt"
                else (lambda t: 2 if t < c else 1), [c], True)
    return (["    %fi = arith.index_cast %flag : i32 to index",
             "    %n = arith.addi %fi, %ci1 : index"], lambda t: 2, [], False)


def kernel(rng, name, classic=False):
    """The kernel's text, its block size and whether its lane sets and
    mask are known at compile time (`static`)."""
    block = rng.choice(BLOCKS)
    known_size = rng.random() < 0.5
    conds = [condition(rng, block) for _ in range(rng.choice([0, 1, 1, 2]))]
    static = all(c[3] for c in conds)
    shape = "scf" if classic else rng.choice(["scf", "cf", "cf_join", "loop"])
    # The loop shape: the scf.ifs inside an scf.for whose trip count may
    # differ between lanes (the first run holds every lane that gets there).
    trips = trip_count(rng, block) if shape == "loop" else None
    # As an scf.for or as an scf.while counting up to the same count.
    loop_op = rng.choice(["for", "while"]) if trips else None
    if trips:
        static &= trips[3]
    # Past the joins of cf_join, every thread of warp 0 reaches the op.
    reach0 = [t for t in range(min(block, 32))
              if shape == "cf_join" or all(c[1](t) for c in conds)]
    exact = sum(1 << t for t in reach0)
    masks = ["none", "exact", "superset", "subset", "half", "active"]
    if not classic:
        masks += ["active_top", "ballot_last", "ballot_all"]
    choice = rng.choice(masks)
    superset = exact | (1 << rng.randrange(32))
    subset = exact & ~(1 << rng.randrange(32))
    mask = {"none": None, "exact": exact, "superset": superset, "subset": subset,
            "half": 0xFFFF}.get(choice, choice)
    if mask == 0:
        mask = None
    # Statically known: the block size stated, no loaded flag, no run-time
    # mask (without the block size, lanes above those that reach may not
    # exist, and thread ids are unknown). The classic corpus counted every
    # activemask as run-time; the checker now knows the lanes an activemask
    # or ballot sees where the block size is stated, except an activemask
    # past a join (the lanes may arrive apart).
    if classic:
        static &= mask != "active" and known_size
    else:
        static &= known_size and not (mask == "active" and shape == "cf_join" and conds)
        # An activemask in a loop whose counts differ changes between runs.
        static &= not (mask == "active" and shape == "loop")
    consts = {0, 1, 16} | {v for c in conds for v in c[2]} | set(trips[2] if trips else [])
    lines = [f"  gpu.func @{name}(%out: memref<?xi32>, %flags: memref<?xi32>) kernel" +
             (f" attributes {{known_block_size = array<i32: {block}, 1, 1>}}" if known_size else "") + " {",
             "    %tx = gpu.thread_id x",
             "    %t = arith.index_cast %tx : index to i32",
             "    %l = warp.lane_id : i32",
             "    %flag = memref.load %flags[%tx] : memref<?xi32>"]
    lines += [f"    %c{v} = arith.constant {v} : i32" for v in sorted(consts | {2, 4, 8})]
    lines += [f"    %m{k} = arith.remui %l, %c{k} : i32" for k in (2, 4, 8)]
    # The ballot and vote predicate: every lane's flag.
    lines.append("    %pt = arith.cmpi ne, %flag, %c0 : i32")
    if not classic:
        lines.append("    %true = arith.constant true")
        lines += [f"    %p{i} = {c[0]}" for i, c in enumerate(conds)]
        if mask == "active_top":
            lines.append("    %mask = warp.activemask : i32")
        elif mask == "ballot_last":
            lines.append(f"    %mask = warp.ballot %p{len(conds) - 1} : i32" if conds
                         else "    %mask = warp.ballot %true : i32")
        elif mask == "ballot_all":
            last = "%true"
            for i in range(len(conds)):
                lines.append(f"    %all{i} = arith.andi {last}, %p{i} : i1")
                last = f"%all{i}"
            lines.append(f"    %mask = warp.ballot {last} : i32")
    if trips:
        lines += ["    %ci0 = arith.constant 0 : index", "    %ci1 = arith.constant 1 : index",
                  "    %ci2 = arith.constant 2 : index"] + trips[0]
        if loop_op == "for":
            lines.append("    scf.for %it = %ci0 to %n step %ci1 {")
        else:
            lines += ["    %ni = arith.index_cast %n : index to i32",
                      "    %w = scf.while (%it = %c0) : (i32) -> i32 {",
                      "      %go = arith.cmpi slt, %it, %ni : i32",
                      "      scf.condition(%go) %it : i32",
                      "    } do {",
                      "    ^bb0(%jt: i32):"]
    for i, c in enumerate(conds):
        if shape in ("scf", "loop"):
            if classic:
                lines.append(f"    %p{i} = {c[0]}")
            lines.append(f"    scf.if %p{i} {{")
        elif shape == "cf":
            lines += [f"    cf.cond_br %p{i}, ^b{i}, ^exit", f"  ^b{i}:"]
        else:
            lines += [f"    cf.cond_br %p{i}, ^a{i}, ^j{i}", f"  ^a{i}:", f"    cf.br ^j{i}", f"  ^j{i}:"]
    mask_text = ""
    if mask == "active":
        lines.append("    %mask = warp.activemask : i32")
        mask_text = " mask %mask"
    elif isinstance(mask, str):
        mask_text = " mask %mask"
    elif mask is not None:
        lines.append(f"    %mask = arith.constant {mask - (1 << 32) if mask >= 1 << 31 else mask} : i32")
        mask_text = " mask %mask"
    op = rng.choice(["ballot", "vote", "reduce", "syncwarp"])
    if op == "ballot":
        lines.append(f"    %r = warp.ballot %pt{mask_text} : i32")
    elif op == "vote":
        lines.append(f"    %rb = warp.vote <any> %pt{mask_text} : i1")
        lines.append("    %r = arith.extui %rb : i1 to i32")
    elif op == "reduce":
        lines.append(f"    %r = warp.reduce <add> %t{mask_text} : i32")
    else:
        lines.append(f"    warp.syncwarp{mask_text}")
        lines.append("    %r = arith.constant 1 : i32")
    lines.append("    memref.store %r, %out[%tx] : memref<?xi32>")
    if shape in ("scf", "loop"):
        lines += ["    }"] * len(conds)
    if loop_op == "for":
        lines.append("    }")
    elif loop_op == "while":
        lines += ["    %nx = arith.addi %jt, %c1 : i32", "    scf.yield %nx : i32", "    }"]
    elif shape == "cf":
        lines += ["    cf.br ^exit", "  ^exit:"]
    lines += ["    gpu.return", "  }"]
    # Why a kernel is not statically known, for the counts of the missed.
    why = [w for w, holds in [("loaded condition", not all(c[3] for c in conds)),
                              ("no block size", not known_size),
                              ("activemask past a join", not classic and mask == "active"
                               and shape == "cf_join" and conds),
                              ("loaded trip count", trips and not trips[3]),
                              ("activemask in a loop", mask == "active" and shape == "loop")]
           if holds]
    if classic and mask == "active":
        why.append("activemask")
    # The class, for the counts by class: the branches and the mask's kind.
    kind = choice if choice.startswith(("active", "ballot")) else "constant or none"
    return ("\n".join(lines), block, static, ", ".join(why),
            (f"{loop_op} loop" if loop_op else shape, kind))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warp-opt", required=True)
    ap.add_argument("--warp-sim", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=400)
    ap.add_argument("--classic", action="store_true",
                    help="the corpus of the first measurement (scf, activemask at the op)")
    ap.add_argument("--by-class", action="store_true",
                    help="print the counts by class (branches, mask kind)")
    ap.add_argument("--show", action="store_true",
                    help="print each missed or falsely flagged kernel")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    kernels = [kernel(rng, f"k{i}", args.classic) for i in range(args.programs)]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "corpus.mlir")
        with open(src, "w") as f:
            f.write("module attributes {gpu.container_module} {\ngpu.module @m {\n" +
                    "\n".join(k[0] for k in kernels) + "\n}\n}\n")
        # Which kernels the checker flags: each diagnostic's line falls in one.
        check = subprocess.run([args.warp_opt, src, "--warp-check-convergence=as-warnings",
                                "-o", os.devnull], capture_output=True, text=True)
        starts = [i + 1 for i, line in enumerate(open(src).read().split("\n"))
                  if line.startswith("  gpu.func @k")]
        flagged = set()
        for m in re.finditer(r"corpus\.mlir:(\d+):\d+: warning: (member mask|lanes)", check.stderr):
            line = int(m.group(1))
            flagged.add(max(i for i, s in enumerate(starts) if s <= line))
        ptx = os.path.join(tmp, "corpus.ptx")
        lowered = subprocess.run([args.warp_opt, src, "-o", os.devnull,
                                  f"--warp-lower-to-ptx=chip=sm_90 format=isa ptx-output={ptx}"],
                                 capture_output=True, text=True)
        if lowered.returncode:
            sys.exit(lowered.stderr[-3000:])
        counts = {"valid": 0, "invalid": 0, "flagged invalid": 0, "false alarms": 0,
                  "missed (statically known)": 0, "missed (run-time lanes or mask)": 0}
        why_missed = {}
        by_class = {}
        for i, (_, block, static, why, cls) in enumerate(kernels):
            sim = subprocess.run([args.warp_sim, ptx, "--kernel", f"k{i}", "--block", str(block),
                                  f"memref:i32:{block}", f"memref:i32:{block}=1"],
                                 capture_output=True, text=True)
            invalid = sim.returncode != 0
            if invalid and "undefined behaviour" not in sim.stderr and "never complete" not in sim.stderr:
                sys.exit(f"k{i}: warp-sim failed: {sim.stderr}")
            counts["invalid" if invalid else "valid"] += 1
            row = by_class.setdefault(cls, [0, 0, 0])
            row[0 if not invalid else 1] += 1
            row[2] += invalid and i in flagged
            if invalid and i in flagged:
                counts["flagged invalid"] += 1
            elif invalid:
                counts["missed (statically known)" if static else "missed (run-time lanes or mask)"] += 1
                if not static:
                    why_missed[why] = why_missed.get(why, 0) + 1
                if args.show and static:
                    print(f"missed: {sim.stderr.strip()}\n{kernels[i][0]}")
            elif i in flagged:
                counts["false alarms"] += 1
                if args.show:
                    print(f"false alarm:\n{kernels[i][0]}")
    print(f"{args.programs} programs, seed {args.seed}" + (", classic" if args.classic else ""))
    for key, value in counts.items():
        print(f"{key}: {value}")
    for why, value in sorted(why_missed.items(), key=lambda kv: -kv[1]):
        print(f"  missed, {why}: {value}")
    if args.by_class:
        print("class (branches, mask): valid, invalid, flagged invalid")
        for (shape, kind), (valid, invalid, hit) in sorted(by_class.items()):
            print(f"  {shape}, {kind}: {valid}, {invalid}, {hit}")
    return 1 if counts["false alarms"] or counts["missed (statically known)"] else 0


if __name__ == "__main__":
    sys.exit(main())
