"""The generative contract tester: random well-formed warp programs, drawn
from the dialect's own definitions (the payload types and kinds each op's
verifier accepts, probed with warp-opt; the preconditions of
docs/Preconditions.md), lowered with warp-opt for several chips and option
sets, run on the SIMT simulator (libWarpSim through simcupy) and checked lane
by lane against model.py. A failure shrinks to a small program, saved as a
regression (regressions/*.json, replayed by generative.test).

    generative.py --warp-opt build/bin/warp-opt --seed 1 --programs 2000
    generative.py --warp-opt ... --replay test/Generative/regressions
    generative.py --warp-opt ... --hours 2 --save-failures DIR
    generative.py --warp-opt ... --bundle DIR   # PTX + programs for the GPU
    generative.py --run-bundle DIR              # on the GPU host (cupy)

Ends with `generative: N programs, M lane values, K mismatches`.
"""
import argparse
import concurrent.futures
import functools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import model  # noqa: E402
import ops  # noqa: E402
from model import WARP, parse_type, is_float  # noqa: E402

# The chips whose lowering decisions differ (redux.sync from sm_80,
# clusters and elect.sync from sm_90, f32 redux min/max on sm_100a) come
# first; the batches then cycle through every other chip warp-opt knows
# (known_chips), in a seeded order.
CHIPS = ["sm_70", "sm_80", "sm_90", "sm_100a"]
# The pipeline's levers (besides the chip) each batch draws a value of:
# every enum option of --warp-lower-to-ptx with the values `warp-opt --help`
# lists (pipeline_levers), and these numeric ones, whose values the help
# states in words. The tester fixes the rest (format, ptx-output, ...).
NUMERIC_LEVERS = {"device-index-bitwidth": ["32", "64"], "opt-level": ["0", "1", "2", "3"]}
FIXED_OPTIONS = {"format"}
STORAGE = {"i1": ("i32", np.int32), "i8": ("i8", np.int8), "i16": ("i16", np.int16),
           "i32": ("i32", np.int32), "i64": ("i64", np.int64), "index": ("i64", np.int64),
           "f16": ("f16", np.float16), "bf16": ("bf16", np.uint16), "f32": ("f32", np.float32),
           "f64": ("f64", np.float64)}
CONTROL_FLOW = ["plain", "plain", "loop"]
ARMS = True
SENTINEL = 0x5A
SKIP = "skipped: "
# The most verifier probes in one warp-opt run (probe_types).
PROBE_PART = 500
# The simulator's words for a launch it cannot hold (Interpreter.cpp).
SIM_STATE_LIMIT = "more than the simulator's limit of"
SHARED_LIMIT = "bytes of static shared memory, more than the 49152 a block can have"  # every byte of an output buffer before the launch
CLUSTER_BLOCKS = [1, 2, 3, 4, 8]
WARP_BLOCKS = [(32, 1, 1), (64, 1, 1), (33, 1, 1), (48, 1, 1), (17, 1, 1), (96, 1, 1),
               (100, 1, 1), (1, 1, 1), (16, 4, 1), (33, 3, 1), (8, 4, 2), (5, 5, 5)]
BLOCK_BLOCKS = WARP_BLOCKS + [(128, 1, 1), (159, 1, 1), (256, 1, 1), (1000, 1, 1), (1024, 1, 1),
                              (7, 9, 3), (32, 32, 1)]


# ----------------------------------------------------------------------------
# What the verifier accepts: every op form x candidate payload type.
# ----------------------------------------------------------------------------

def probe_types(warp_opt, workdir, only=None):
    """{form: [types]} for every op's probe forms (the `only` ops' where
    given: a run of a few ops need not wait for the other ops' thousands of
    probes), decided by warp-opt's verifier (split-input-file runs over
    consecutive parts of the probes; each probe named by its location)."""
    probed = set(only or ops.OPS)
    probed |= {other for name in probed for other in ops.OPS[name].probed_as}
    probes = []
    for op in ops.OPS.values():
        if op.name not in probed:
            continue
        # An op that needs the block size is probed in a block of one warp.
        known = op.needs_known_block or getattr(op, "probe_known", False)
        attrs = " attributes {known_block_size = array<i32: 32, 1, 1>}" if known else ""
        for form, line in op.probe_forms():
            for t in ops.candidates(form):
                probes.append((form, t, line.format(T=t), attrs))
    chunks = []
    for i, (form, t, line, attrs) in enumerate(probes):
        chunks.append("gpu.module @m {\n  gpu.func @k(%%x: %s, %%c1: i32, %%m: memref<?x%s>, %%i: index) "
                      "kernel%s {\n    %s loc(\"P%d\")\n    gpu.return\n  }\n}\n" % (t, t, attrs, line, i))
    # Parts of at most PROBE_PART probes, one warp-opt run each, a run a
    # core at a time: a split-input-file run's time grows faster than its
    # chunk count (2500 chunks take 3.4x as long as 1000).
    parts = []
    for k, start in enumerate(range(0, len(chunks), PROBE_PART)):
        path = os.path.join(workdir, f"probe{k}.mlir")
        with open(path, "w") as f:
            f.write("\n// -----\n".join(chunks[start:start + PROBE_PART]))
        parts.append((k, start, chunks[start:start + PROBE_PART], path))

    def verify(part):
        return subprocess.run([warp_opt, part[3], "--split-input-file", "-o", os.devnull],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        results = list(pool.map(verify, parts))
    rejected = set()
    for (k, start, part, _), proc in zip(parts, results):
        stderr = proc.stderr
        if "Stack dump" in stderr or proc.returncode not in (0, 1):
            sys.exit(f"generative: the verifier probe crashed:\n{stderr[-3000:]}")
        rejected |= set(int(m) for m in re.findall(r"error: loc\(\"P(\d+)\"\)", stderr))
        # A parse error names the file's line instead: find its probe's chunk.
        first_lines, line = [], 1
        for chunk in part:
            first_lines.append(line)
            line += chunk.count("\n") + 2  # the chunk and the separator line
        for m in re.findall(rf"probe{k}\.mlir:(\d+):\d+: error", stderr):
            rejected.add(start + max(i for i, first in enumerate(first_lines) if first <= int(m)))
    accepted = {}
    for i, (form, t, _, _) in enumerate(probes):
        accepted.setdefault(form, [])
        if i not in rejected:
            accepted[form].append(t)
    return accepted


FORM_OPS = {"match": "match_any"}


def check_table(accepted):
    """docs/Preconditions.md lists each op's payload types and the kinds'
    element types; the verifier must accept exactly those: a type it
    accepts beyond them would be one no generated program covers."""
    table = preconditions_table()
    problems = []
    for form, types in sorted(accepted.items()):
        if ops.is_tile_form(form):  # a memref's items, not a payload: no row
            continue
        kind = None if form in FORM_OPS else ops.form_kind(form)
        op = FORM_OPS.get(form, form[:-len(kind) - 1] if kind else form)
        # `<op>_items_<kind>`: the op's row; its vectors only (the items),
        # the kind's rules on their element type.
        items = ops.is_items_form(form)
        if items:
            op = op[:-len("_items")]
        # warp.lane_atomic_rmw's row: "warp.atomic_rmw's kinds, element types".
        row = table.get({"lane_atomic_rmw": "atomic_rmw"}.get(op, op))
        if row is None:
            problems.append(f"{op}: no row in docs/Preconditions.md")
            continue
        want = []
        for t in ops.candidates(form):
            elem, n = parse_type(t)
            if elem not in row["types"] or (n is not None and not row["vectors"]) or \
                    (n is None and (items or not row["scalars"])):
                continue
            if n is not None and row["vector_types"] and t not in row["vector_types"]:
                continue
            if kind and not ops.kind_ok(kind, t, op):
                continue
            want.append(t)
        for t in sorted(set(types) - set(want)):
            problems.append(f"{form}: the verifier accepts {t}; docs/Preconditions.md does not list it")
        for t in sorted(set(want) - set(types)):
            problems.append(f"{form}: docs/Preconditions.md lists {t}; the verifier rejects it")
    return problems


def preconditions_table():
    """Rows of the table in docs/Preconditions.md: op -> payload element
    types and whether 1-D vectors of them are accepted."""
    path = os.path.join(HERE, "..", "..", "docs", "Preconditions.md")
    table = {}
    for line in open(path):
        m = re.match(r"\|(\s*`warp\.\w+`[^|]*)\|\s*([^|]*)\|", line)
        if not m:
            continue
        cell = m.group(2)
        types = set(re.findall(r"\b(i1|i8|i16|i32|i64|index|f16|bf16|f32|f64)\b", cell))
        # A cell naming vector types (`vector<2xf16>`) takes those only.
        vector_types = set(re.findall(r"vector<\d+x\w+>", cell))
        # A row may name several ops (`warp.cluster_reduce`, `warp.cluster_scan`).
        for name in re.findall(r"`warp\.(\w+)`", m.group(1)):
            table[name] = dict(types=types, vectors="vector" in cell,
                               vector_types=vector_types,
                               # "1-D vectors ...", or a labelled "run values: 1-D vectors ...".
                               scalars=not re.match(r"([\w ]+: )?1-D vectors", cell.strip()))
    return table


# ----------------------------------------------------------------------------
# Programs
# ----------------------------------------------------------------------------

class GenContext:
    def __init__(self, accepted, block, sm):
        self._accepted = accepted
        self.block = block
        self.threads = block[0] * block[1] * block[2]
        self.sm = sm
        nwarps = (self.threads + WARP - 1) // WARP
        self.existing = [ops.full_mask(min(WARP, self.threads - WARP * w)) for w in range(nwarps)]

    force = None  # (op, kind or None, type): the coverage sweep's choice
    cluster = 1  # the blocks of the program's thread-block cluster

    def accepted(self, form):
        # Every form an op asks for was probed (probe_types' `only` covers
        # the ops drawn): a form missing would silently mean no type.
        types = self._accepted[form]
        if form == "match" and self.sm < 70:
            return []
        if form.startswith(("atomic_rmw_", "lane_atomic_rmw_")):
            # The packed pairs' memory is not modelled here (one value per
            # element); test/python/test_atomic_16bit.py covers them.
            return [t for t in types if not t.startswith("vector<")]
        return types

    def type_for(self, form, rng):
        """A payload type the verifier accepts for `form` (the forced one in
        the coverage sweep)."""
        if self.force and self.force[2] in self.accepted(form):
            return self.force[2]
        types = self.accepted(form)
        return rng.choice(types) if types else None

    def kind_for(self, rng):
        if self.force and self.force[1]:
            return self.force[1]
        return rng.choice(sorted(set(model.INT_KINDS + model.FLOAT_KINDS)))

    def wants_region(self, rng):
        return not (self.force and self.force[1]) and rng.random() < 0.2

    def wants_items(self, rng):
        """Whether a block reduce/scan takes `items` (about 30%; in the
        coverage sweep, whether its forced form is an items form)."""
        if self.force:
            return self.force[3:] == ("items",)
        return rng.random() < 0.3

    def mask_form(self, rng, exec_, allow_implicit=True):
        if allow_implicit and all(e == 0xFFFFFFFF for e in exec_) and rng.random() < 0.5:
            return "implicit"
        if len(set(exec_)) == 1 and rng.random() < 0.5:
            return "const"
        return "dyn"


def needs_known(p):
    """Whether stage p needs the kernel's known_block_size: its op's
    verifier wants one, or this instance's options do (`known_block`)."""
    return ops.OPS[p["op"]].needs_known_block or bool(p.get("known_block"))


def random_block(rng, most):
    """A block shape beside the listed ones: 1-D of 1..`most` threads, or
    2-D/3-D with random extents (warps that straddle rows and planes)."""
    dims = rng.choice([1, 2, 3])
    while True:
        shape = [rng.randint(1, most if dims == 1 else 40) for _ in range(dims)] + [1] * (3 - dims)
        if shape[0] * shape[1] * shape[2] <= most and shape[2] <= 64:
            return tuple(shape)


def sm_of(chip):
    """The SM version of a chip name: 90 for sm_90, sm_90a or sm_90f."""
    return int(chip[3:].rstrip("af"))


def generate(rng, accepted, chip, only=None, force=None):
    """One random program: a block shape, 1-3 stages (an op each, maybe in a
    loop, in divergent arms, or in a device function), for one chip and
    option set; `force`: [(op, kind, type[, "items"])] for the stages instead."""
    sm = sm_of(chip)
    names = only or sorted(ops.OPS)
    op_names = [f[0] for f in force] if force else \
        [rng.choice(names) for _ in range(rng.choice([1, 1, 2, 3]))]
    block_level = any(ops.OPS[n].block_level for n in op_names)
    block = rng.choice(BLOCK_BLOCKS if block_level else WARP_BLOCKS) if rng.random() < 0.8 \
        else random_block(rng, 512 if block_level else 128)
    ctx = GenContext(accepted, block, sm)
    # A cluster of 1 to 8 blocks (at most 4096 threads: the simulator runs
    # a cluster's blocks together) where a cluster op may be drawn.
    ctx.cluster = rng.choice([c for c in CLUSTER_BLOCKS if c * ctx.threads <= 4096])
    stages = []
    for i, name in enumerate(op_names):
        ctx.force = force[i] if force else None
        for _ in range(20):
            p = ops.OPS[name].gen(rng, ctx)
            if p is not None:
                break
        else:
            continue
        # Device functions ("func") are emitted but the simulator runs no
        # .func calls: they run on the GPU sample only (--cf-func).
        p["cf"] = rng.choice(CONTROL_FLOW)
        stages.append(p)
        # Divergent arms: the same op for the other lanes in the else arm.
        # The other lanes are a union of whole groups only where the groups
        # partition the existing lanes (any-mask ops, segments, full warps);
        # an op of the lanes that execute it together takes any lanes.
        op = ops.OPS[name]
        partition = op.active_lanes or p.get("form") in (None, "any_mask", "segments", "heads") or \
            all(e == 0xFFFFFFFF for e in ctx.existing)
        armed = op.active_lanes or not p["op"].startswith("gpu_")
        if ARMS and not op.block_level and armed and \
                p.get("form") != "valid" and partition and rng.random() < 0.3:
            if op.active_lanes:
                op.active_in_arm(rng, p, ctx.existing)
            other = [e & ~x for e, x in zip(ctx.existing, p["exec"])]
            if any(other):
                q = json.loads(json.dumps(p))
                q["exec"], q["arm_of"] = other, len(stages) - 1
                p["cf"] = q["cf"] = "plain"
                q["mask"] = ctx.mask_form(rng, other, allow_implicit=False)
                if p["mask"] == "implicit":
                    p["mask"] = "dyn"
                stages.append(q)
    if not stages:
        return None
    # Ops that need the block size (their verifier's rule) always get it.
    known = rng.random() < 0.3 or any(needs_known(p) for p in stages)
    # With a cluster op, the kernel's known_cluster_size and a grid of one
    # or two clusters.
    cluster = ctx.cluster if any(ops.OPS[p["op"]].cluster_level for p in stages) else None
    seed = rng.getrandbits(32)
    # One program in four also keeps a dynamic shared buffer beside its ops'
    # static ones (see GUARD_LINES); drawn from the seed, so that every
    # other draw of a run stays as it was.
    return dict(seed=seed, chip=chip, options="",
                block=list(block), grid=(cluster or 1) * rng.choice([1, 1, 2]),
                known=known, cluster=cluster, stages=stages, dynamic=seed % 4 == 0)


# ----------------------------------------------------------------------------
# MLIR
# ----------------------------------------------------------------------------

class Kernel:
    def __init__(self, name, prog):
        self.name, self.prog = name, prog
        self.args, self.buffers, self.lines, self.funcs = [], [], [], []
        self.threads = prog["block"][0] * prog["block"][1] * prog["block"][2]
        self.total = self.threads * prog["grid"]
        self.consts = {}

    def buffer(self, elem_storage, key):
        self.buffers.append(key)
        name = f"%K_b{len(self.args)}"
        self.args.append(f"{name}: memref<?x{elem_storage}>")
        return name

    def const(self, value, type_):
        name = f"%K_c_{type_}_{value}".replace("-", "m")
        self.consts[name] = f"{name} = arith.constant {value} : {type_}"
        return name

    def mask_operand(self, p):
        if p["mask"] == "implicit":
            return ""
        if p["mask"] == "const":
            return " mask " + self.const(ops.model.signed(p["exec"][0], 32), "i32")
        return " mask %mask"


def index_expr(lines, idx, n, j, tag):
    """%tag = idx * n + j."""
    if n is None:
        return idx
    lines += [f"%{tag}_n = arith.constant {n} : index", f"%{tag}_j = arith.constant {j} : index",
              f"%{tag}_a = arith.muli {idx}, %{tag}_n : index",
              f"%{tag} = arith.addi %{tag}_a, %{tag}_j : index"]
    return f"%{tag}"


def load_value(lines, type_, buf, idx, name):
    """Lines defining %name, one lane's value of type_ (vectors element by
    element: a memref of vectors would depend on their layout)."""
    elem, n = parse_type(type_)
    st = STORAGE[elem][0]
    elems = []
    for j in range(n or 1):
        at = index_expr(lines, idx, n, j, f"{name}_i{j}")
        final = f"%{name}" if n is None else f"%{name}_e{j}"
        raw = final if elem not in ("i1", "index") else final + "_s"
        lines.append(f"{raw} = memref.load {buf}[{at}] : memref<?x{st}>")
        if elem == "i1":
            lines.append(f"{final} = arith.trunci {raw} : i32 to i1")
        elif elem == "index":
            lines.append(f"{final} = arith.index_cast {raw} : i64 to index")
        elems.append(final)
    if n is not None:
        lines.append(f"%{name} = vector.from_elements {', '.join(elems)} : {type_}")


def store_value(lines, type_, value, buf, idx, tag):
    elem, n = parse_type(type_)
    st = STORAGE[elem][0]
    for j in range(n or 1):
        at = index_expr(lines, idx, n, j, f"{tag}_o{j}")
        v = value
        if n is not None:
            lines.append(f"%{tag}_x{j} = vector.extract {value}[{j}] : {elem} from {type_}")
            v = f"%{tag}_x{j}"
        if elem == "i1":
            lines.append(f"%{tag}_w{j} = arith.extui {v} : i1 to i32")
            v = f"%{tag}_w{j}"
        elif elem == "index":
            lines.append(f"%{tag}_w{j} = arith.index_cast {v} : index to i64")
            v = f"%{tag}_w{j}"
        lines.append(f"memref.store {v}, {buf}[{at}] : memref<?x{st}>")


PROLOGUE = [
    "%K_tx = gpu.thread_id x", "%K_ty = gpu.thread_id y", "%K_tz = gpu.thread_id z",
    "%K_bx = gpu.block_dim x", "%K_by = gpu.block_dim y", "%K_bz = gpu.block_dim z",
    "%K_bid = gpu.block_id x",
    "%K_yz = arith.muli %K_by, %K_tz : index", "%K_yz1 = arith.addi %K_ty, %K_yz : index",
    "%K_row = arith.muli %K_bx, %K_yz1 : index", "%K_t = arith.addi %K_tx, %K_row : index",
    "%K_nxy = arith.muli %K_bx, %K_by : index", "%K_nb = arith.muli %K_nxy, %K_bz : index",
    "%K_first = arith.muli %K_bid, %K_nb : index", "%K_e = arith.addi %K_first, %K_t : index",
]


def stage_reps(p):
    return 2 if p["cf"] == "loop" else 1


def guarded(p):
    return not ops.OPS[p["op"]].block_level and \
        any(e != x for e, x in zip(p["exec"], p["_existing"]))


def stage_parts(k, s, p, idx):
    """(loads, op and stores) of stage s, both with the stage's names."""
    op = ops.OPS[p["op"]]
    body = []
    for name, t, dom in op.operands(p):
        buf = k.buffer(STORAGE[parse_type(t)[0]][0], ("in", s, name, t, dom))
        load_value(body, t, buf, idx, name)
    for name, t in getattr(op, "memory", lambda p: [])(p):
        p["_" + name] = k.buffer(STORAGE[t][0], ("mem", s, name, t))
    # Uniform run-time operands (per warp, stored per thread).
    uni = []
    if p.get("mask") == "dyn":
        buf = k.buffer("i32", ("uni", s, "mask", "i32"))
        body.append(f"%mask = memref.load {buf}[{idx}] : memref<?xi32>")
        uni.append(("%mask", "i32"))
    for name in getattr(op, "uniforms", lambda p: [])(p):
        # init: the combined type (with items the element type, not the vector).
        t = ops.combined_type(p, int(name[4:])) if name.startswith("init") else "i32"
        buf = k.buffer(STORAGE[parse_type(t)[0]][0], ("uni", s, name, t))
        uni.append((f"%{name}", t))
        load_value(body, t, buf, idx, name)
    inner = []
    results = op.results(p)
    op_lines = op.mlir(p, k)
    if p["cf"] == "func":
        fname = f"{k.name}_s{s}"
        args = [f"%{n}" for n, _, _ in op.operands(p)] + [n for n, _ in uni]
        types = [t for _, t, _ in op.operands(p)] + [t for _, t in uni]
        rtypes = [t for _, t in results]
        fbody = op_lines + [f"return {', '.join('%' + n for n, _ in results)} : {', '.join(rtypes)}"]
        k.funcs.append(prefix_names(
            [f"func.func @{fname}({', '.join(f'{a}: {t}' for a, t in zip(args, types))}) -> ({', '.join(rtypes)}) {{"]
            + ["  " + l for l in fbody] + ["}"], s))
        inner.append(f"{', '.join('%' + n for n, _ in results)} = func.call @{fname}({', '.join(args)}) : "
                     f"({', '.join(types)}) -> ({', '.join(rtypes)})")
    else:
        inner += op_lines
    for name, t in results:
        buf = k.buffer(STORAGE[parse_type(t)[0]][0], ("out", s, name, t))
        store_value(inner, t, f"%{name}", buf, idx, f"st_{name}")
    return prefix_names(body, s), prefix_names(inner, s)


def emit_stage(k, s, p, twin=None):
    """Stage s: its loads, then the op under the guard of its executing
    lanes; `twin` (s2, q), the same op for the other lanes, runs in the
    else arm (divergent arms)."""
    reps = stage_reps(p)
    idx = "%K_e" if reps == 1 else f"%K_idx{s}"
    body, inner = stage_parts(k, s, p, idx)
    if twin is not None:
        body2, inner2 = stage_parts(k, twin[0], twin[1], idx)
        body += body2
    if guarded(p) or twin is not None:
        buf = k.buffer("i32", ("exec", s))
        body += prefix_names([f"%g_raw = memref.load {buf}[{idx}] : memref<?xi32>",
                              "%g_zero = arith.constant 0 : i32",
                              "%g = arith.cmpi ne, %g_raw, %g_zero : i32"], s)
        body.append(f"scf.if %s{s}_g {{")
        body += ["  " + l for l in inner]
        if twin is not None:
            body.append("} else {")
            body += ["  " + l for l in inner2]
        body.append("}")
    else:
        body += inner
    if reps == 1:
        return body
    outer = prefix_names(["%lo = arith.constant 0 : index", f"%hi = arith.constant {reps} : index",
                          "%st = arith.constant 1 : index", f"%tt = arith.constant {k.total} : index"], s)
    outer += [f"scf.for %K_it{s} = %s{s}_lo to %s{s}_hi step %s{s}_st {{",
              f"  %K_off{s} = arith.muli %K_it{s}, %s{s}_tt : index",
              f"  {idx} = arith.addi %K_e, %K_off{s} : index"]
    return outer + ["  " + l for l in body] + ["}"]


def prefix_names(lines, s):
    return [re.sub(r"%(?!K_)(\w+)", lambda m: f"%s{s}_{m.group(1)}", l) for l in lines]


# The dynamic shared memory guard of a program with "dynamic": each thread
# stores a marker of its own into a dynamic shared buffer before the
# program's ops and reads it back after them into the guard output; the ops'
# static shared buffers must leave it alone (upstream's lowering had put the
# dynamic base among the static variables, docs/Robustness.md).
GUARD_MARK = 1000003


def guard_lines(threads, out):
    """The guard's first lines (after the prologue) and last (before the
    return), storing into `out` (the guard buffer's argument)."""
    space = "#gpu.address_space<workgroup>"
    first = [f"%G_base = gpu.dynamic_shared_memory : memref<?xi8, {space}>",
             "%G_c0 = arith.constant 0 : index",
             f"%G_buf = memref.view %G_base[%G_c0][] : memref<?xi8, {space}> to "
             f"memref<{threads}xi32, {space}>",
             "%G_t = arith.index_cast %K_t : index to i32",
             f"%G_k = arith.constant {GUARD_MARK} : i32",
             "%G_m = arith.addi %G_t, %G_k : i32",
             f"memref.store %G_m, %G_buf[%K_t] : memref<{threads}xi32, {space}>"]
    last = [f"%G_v = memref.load %G_buf[%K_t] : memref<{threads}xi32, {space}>",
            f"memref.store %G_v, {out}[%K_e] : memref<?xi32>"]
    return first, last


def guard_bytes(prog):
    """The dynamic shared memory a program's launch needs."""
    return 4 * prog["block"][0] * prog["block"][1] * prog["block"][2] if prog.get("dynamic") else 0


def kernel_text(name, prog):
    k = Kernel(name, prog)
    stage_lines = []
    stages = prog["stages"]
    for s, p in enumerate(stages):
        if "arm_of" in p:
            continue  # emitted in the else arm of its twin
        twin = (s + 1, stages[s + 1]) if s + 1 < len(stages) and stages[s + 1].get("arm_of") == s else None
        stage_lines += emit_stage(k, s, p, twin)
    consts = list(k.consts.values())
    guard_first, guard_last = [], []
    if prog.get("dynamic"):
        guard_first, guard_last = guard_lines(k.threads, k.buffer("i32", ("guard", None)))
    attrs = []
    if prog["known"]:
        attrs.append(f"known_block_size = array<i32: {', '.join(map(str, prog['block']))}>")
    if prog.get("cluster"):
        attrs.append(f"known_cluster_size = array<i32: {prog['cluster']}, 1, 1>")
    attrs = f" attributes {{{', '.join(attrs)}}}" if attrs else ""
    lines = [f"  gpu.func @{name}({', '.join(k.args)}) kernel{attrs} {{"]
    body = PROLOGUE + consts + guard_first + stage_lines + guard_last + ["gpu.return"]
    lines += ["    " + l for l in body] + ["  }"]
    funcs = []
    for f in k.funcs:
        funcs += ["  " + l for l in [f[0]] + ["  " + c for c in consts] + f[1:]]
    return "\n".join(funcs + lines), k.buffers


# ----------------------------------------------------------------------------
# Inputs, launch, checks
# ----------------------------------------------------------------------------

def encode(elem, v):
    """A model value -> its storage bits (Python int)."""
    return model.bits(elem, v)


def decode(elem, bits):
    if is_float(elem):
        if elem == "bf16":
            return np.array(bits << 16, dtype=np.uint32).view(np.float32)[()]
        dt = STORAGE[elem][1]
        ut = {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dt).itemsize]
        return np.array(bits, dtype=ut).view(dt)[()]
    return bits & ((1 << model.INT_BITS[elem]) - 1)


def host_bits(arr, i, elem):
    """Element i of a host array as storage bits."""
    return int(arr.view(unsigned(arr.dtype))[i])


def value_gen(rng, elem, dom, p, warp, lane, block_threads, thread):
    """One element of an operand; `thread`: the thread's number in its
    block, or with `items` the item's (t*N+j), for the rare float values."""
    if dom == "bits" or dom.startswith("region_affine"):
        return rng.getrandbits(16 if elem in ("f16", "bf16") else
                               64 if elem in ("f64",) else model.INT_BITS.get(elem, 32)), True
    if dom == "few":
        return [0x3F800000, 7, 0xFFFFFFFF][rng.randrange(3) if p["_few"] else 0], True
    if dom == "addr":  # this warp's own bins (warps' atomics never meet)
        r, blk = p["_where"]
        nwarps = len(p["exec"])
        return ((r * p["_grid"] + blk) * nwarps + warp) * p["bins"] + \
            (rng.randrange(p["bins"]) if p["keys"] == "few" else 0), True
    if dom.startswith("own_"):  # an op's own domain (ops.py: Op.value)
        return ops.OPS[p["op"]].value(rng, elem, dom[len("own_"):], p, warp, block_threads,
                                      thread)
    if dom == "pred":
        return rng.getrandbits(1), True
    if dom in ("pred_rare", "pred_most"):  # a block ballot's sparse or dense masks
        return int((rng.random() < 0.1) == (dom == "pred_rare")), True
    if dom.startswith("tile_"):  # a tile load's or store's, one per tile
        return ops.tile_operand(rng, p, dom[len("tile_"):], warp, lane, block_threads), True
    if dom == "flags":
        return p["flags"][warp][lane], True
    if dom == "offset":
        return rng.choice([0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 40, -1, -2, -33]) & 0xFFFFFFFF, True
    if dom == "offset_small":
        return rng.randint(0, p["width"]), True
    if dom == "lane":
        return rng.randrange(32), True
    if dom == "heads":  # a segmented block scan's: about one in five
        return int(rng.random() < 0.2), True
    if dom == "item_flags":  # a flagged scatter's: most items kept
        return int(rng.random() < 0.75), True
    if dom == "ranks":  # a scatter's: its warp's (or block's) ranks, in order
        units = block_threads if ops.OPS[p["op"]].block_level else WARP
        key = (p["_where"], 0 if ops.OPS[p["op"]].block_level else warp)
        if key not in p["_ranks"]:
            p["_ranks"][key] = iter(ops.scatter_ranks(
                rng, p, units * parse_type(p["type"])[1]))
        return next(p["_ranks"][key]) & 0xFFFFFFFF, True
    if dom == "block_distance":  # a block shuffle's: mostly within the block
        b = block_threads
        return rng.choice([-1, 1, rng.randint(-b - 2, b + 2), rng.randint(-40, 40),
                           -2 ** 31]) & 0xFFFFFFFF, True
    if dom == "region_argmax":
        return (model.fnum("f32", rng.randint(-3, 3)) if elem == "f32" else rng.randrange(1 << 32)), False
    d = dom[len("block_"):] if dom.startswith("block_") else dom
    if is_float(elem) and dom.startswith("block_") and d in ("add", "mul"):
        # Exact in every combine order over up to 1024 threads.
        rare = thread in p["_rare"]
        if d == "add":
            if elem in ("f16", "bf16"):
                return model.fnum(elem, rng.choice([-1, 1]) if rare else 0), False
            return model.fnum(elem, rng.randint(-8, 8)), False
        return model.fnum(elem, rng.choice([2.0, 0.5]) if rare else rng.choice([1.0, -1.0])), False
    return ops.payload_value(rng, elem, d), False


def make_inputs(prog, buffers, rng):
    """Host arrays for the kernel's buffers and the per-stage data the model
    reads: ins[s][name][rep][thread] (model values; vectors as tuples)."""
    threads = prog["block"][0] * prog["block"][1] * prog["block"][2]
    total = threads * prog["grid"]
    arrays, data = [], []
    for s, p in enumerate(prog["stages"]):
        p["_few"] = rng.random() < 0.7
        p["_ranks"] = {}  # a scatter's ranks per warp (or block), drawn as read
        p["_tiles"] = {}  # a tile op's offset, valid and default per tile
        p["_runs"] = {}  # a run-length decode's runs per block, drawn as read
        # The few threads (with items: items, numbered t*N+j, since all of
        # them are combined together) whose float add/mul operand is not
        # 0 / +-1: sums and products stay exact in f16 and bf16 in any
        # combine order (a product of at most 2^12 or 2^-12).
        per = ops.items_of(p) or 1
        p["_rare"] = set(rng.sample(range(threads * per), min(threads * per, 12)))
        data.append(dict(ins={}, uni={}))
    for key in buffers:
        if key[0] == "guard":
            arr = np.zeros(total, dtype=np.int32)
            arr.view(np.uint8)[:] = SENTINEL
            arrays.append(arr)
            continue
        kind, s = key[0], key[1]
        p = prog["stages"][s]
        reps = stage_reps(p)
        if kind == "out":
            t = key[3]
            elem, n = parse_type(t)
            arr = np.zeros(reps * total * (n or 1), dtype=STORAGE[elem][1])
            arr.view(np.uint8)[:] = SENTINEL
            arrays.append(arr)
            continue
        if kind == "mem":  # memory an op reads or updates: the op's values
            elem = key[3]
            op = ops.OPS[p["op"]]
            size = reps * op.memory_size(p, prog["grid"], threads)
            stored = []
            for _ in range(size):
                v, raw = op.memory_value(rng, elem)
                stored.append(v if raw else encode(elem, v))
            arr = np.array(stored, dtype=unsigned(STORAGE[elem][1]))
            arrays.append(arr.view(STORAGE[elem][1]))
            data[s]["mem"] = [decode(elem, b) for b in stored]
            continue
        if kind == "exec":
            arr = np.zeros(reps * total, dtype=np.int32)
            for r in range(reps):
                for g in range(total):
                    t_ = g % threads
                    arr[r * total + g] = (p["exec"][t_ // WARP] >> (t_ % WARP)) & 1
            arrays.append(arr)
            continue
        name, t = key[2], key[3]
        elem, n = parse_type(t)
        dtype = STORAGE[elem][1]
        arr = np.zeros(reps * total * (n or 1), dtype=dtype)
        # The storage bits of every element, written into arr at the end.
        arr_bits = arr.view(unsigned(dtype)).tolist()
        vals = []
        op = ops.OPS[p["op"]]
        per = ops.items_of(p)  # N with items: value_gen numbers items, not threads
        for r in range(reps):
            per_warp = {}
            for g in range(total):
                t_ = g % threads
                blk, w, lane = g // threads, t_ // WARP, t_ % WARP
                if kind == "uni":
                    if name == "mask":
                        v, raw = p["exec"][w], True
                    else:
                        key_w = (blk, w) if not op.block_level else (blk,)
                        if key_w not in per_warp:
                            u = op.uniform_value(p, name, rng, w)
                            if isinstance(u, tuple):  # an init value of the payload type
                                u = tuple(value_gen(rng, e_, ops.domain_for(p.get("kind")) if "region" not in p else
                                                    "region_" + p["region"], p, w, lane, threads, t_)
                                          for e_ in [elem] * (n or 1))
                            per_warp[key_w] = u
                        v = per_warp[key_w]
                        if isinstance(v, tuple):
                            elems = [encode(elem, x) if not b else x for x, b in v]
                            for j, e_bits in enumerate(elems):
                                arr_bits[(r * total + g) * (n or 1) + j] = e_bits
                            vals.append(tuple(decode(elem, b) for b in elems) if n else decode(elem, elems[0]))
                            continue
                        raw = True
                    bits = v & 0xFFFFFFFF
                    if arr.dtype.itemsize != 4:
                        raise TypeError(f"a 32-bit uniform value in a {arr.dtype} buffer")
                    arr_bits[r * total + g] = bits
                    vals.append(bits)
                    continue
                dom = key[4]
                p["_where"], p["_grid"] = (r, blk), prog["grid"]
                elems = []
                for j in range(n or 1):
                    item = t_ if per is None else t_ * per + j
                    v, raw = value_gen(rng, elem, dom, p, w, lane, threads, item)
                    b = v if raw else encode(elem, v)
                    if elem == "i1":
                        b &= 1
                    elems.append(b)
                    arr_bits[(r * total + g) * (n or 1) + j] = b
                vals.append(tuple(decode(elem, b) for b in elems) if n else decode(elem, elems[0]))
        arr.view(unsigned(dtype))[:] = arr_bits
        arrays.append(arr)
        data[s]["uni" if kind == "uni" else "ins"][name] = vals
    return arrays, data


@functools.lru_cache(maxsize=None)
def unsigned(dtype):
    return {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dtype).itemsize]


class WarpData:
    pass


def same(elem, got_bits, want, arithmetic):
    if elem == "index" and model.INT_BITS["index"] == 32:
        low = got_bits & 0xFFFFFFFF
        if got_bits != (low | (0xFFFFFFFF00000000 if low >> 31 else 0)):
            return False
        got_bits = low
    want_bits = encode(elem, want)
    if got_bits == want_bits:
        return True
    if arithmetic and is_float(elem):
        g = decode(elem, got_bits)
        return bool(np.isnan(g)) and bool(np.isnan(np.float64(want)))
    return False


def check(prog, buffers, arrays, data, show=4):
    """(lane values compared, [mismatch texts])."""
    threads = prog["block"][0] * prog["block"][1] * prog["block"][2]
    total = threads * prog["grid"]
    compared, bad = 0, []
    for s, p in enumerate(prog["stages"]):
        op = ops.OPS[p["op"]]
        reps = stage_reps(p)
        arithmetic = op.arithmetic
        # A cluster op's unit is its cluster: `step` consecutive blocks.
        step = (prog.get("cluster") or 1) if op.cluster_level else 1
        outs = [(key, arr) for key, arr in zip(buffers, arrays) if key[0] == "out" and key[1] == s]
        # Each output's elements as storage bits (Python ints, host_bits's).
        out_bits = {id(arr): arr.view(unsigned(arr.dtype)).tolist() for _, arr in outs}
        for r in range(reps):
            for blk in range(0, prog["grid"], step):
                units = [None] if op.block_level else range(len(p["exec"]))
                for w in units:
                    d = WarpData()
                    base = r * total + blk * threads
                    if op.block_level:
                        lanes = list(range(threads * step))
                        d.threads, d.blocks = threads, step
                    else:
                        lanes = [w * WARP + l for l in range(WARP) if w * WARP + l < threads]
                        d.exec = p["exec"][w]
                    d.ins = {k: [None] * (len(lanes) if op.block_level else WARP) for k in data[s]["ins"]}
                    d.uni = {}
                    d.mem = data[s].get("mem")
                    for k, vals in data[s]["ins"].items():
                        for t_ in lanes:
                            d.ins[k][t_ if op.block_level else t_ % WARP] = vals[base + t_]
                    for k, vals in data[s]["uni"].items():
                        d.uni[k] = vals[base + lanes[0]]
                    if op.cluster_level:
                        want = op.expect_cluster(p, d)
                    elif op.block_level:
                        want = op.expect_block(p, d)
                    elif d.exec:
                        want = op.expect(p, d)
                        if hasattr(op, "serialize"):
                            # Results an op defines only up to an order the
                            # schedule picks: the model follows the one the
                            # run took, where it is a legal one.
                            want = op.serialize(p, d, lambda name, lane, v: same(
                                parse_type(p["type"])[0],
                                host_bits(next(a for k, a in outs if k[2] == name),
                                          base + w * WARP + lane, parse_type(p["type"])[0]),
                                v, False))
                    else:  # no lane of this warp executes: nothing written
                        want = {key[2]: [None] * WARP for key, _ in outs}
                    for key, arr in outs:
                        name, t = key[2], key[3]
                        elem, n = parse_type(t)
                        bits = out_bits[id(arr)]
                        # An element no thread wrote: SENTINEL in every byte.
                        unwritten = int.from_bytes(bytes([SENTINEL]) * arr.dtype.itemsize, "little")
                        for t_ in lanes:
                            lane = t_ if op.block_level else t_ % WARP
                            executes = op.block_level or (d.exec >> lane) & 1
                            w_val = want[name][lane]
                            for j in range(n or 1):
                                got = bits[(base + t_) * (n or 1) + j]
                                if not executes:
                                    ok = got == unwritten
                                    wv = "unwritten"
                                elif w_val is None:
                                    continue
                                else:
                                    wv = w_val[j] if n else w_val
                                    if wv is None:
                                        continue
                                    ok = same(elem, got, wv, arithmetic)
                                compared += 1
                                if not ok and len(bad) < show:
                                    bad.append(f"stage {s} ({p['op']}) rep {r} block {blk} thread {t_}"
                                               f"{'' if n is None else f' elem {j}'} {name}: got {decode(elem, got) if executes else hex(got)}, want {wv}")
                                elif not ok:
                                    bad.append(None)
    for s, p in enumerate(prog["stages"]):
        op = ops.OPS[p["op"]]
        if "mem" not in data[s]:
            continue
        final = op.expect_memory(p, data[s], total, threads)
        key, arr = next((key, a) for key, a in zip(buffers, arrays) if key[0] == "mem" and key[1] == s)
        elem = key[3]
        bits = arr.view(unsigned(arr.dtype)).tolist()
        for i, want in enumerate(final):
            if want is None:  # a position the contract leaves undefined
                continue
            compared += 1
            if not same(elem, bits[i], want, p["op"] == "atomic_rmw"):
                bad.append(f"stage {s} ({p['op']}) memory[{i}]: got "
                           f"{decode(elem, bits[i])}, want {want}")
    for key, arr in zip(buffers, arrays):
        if key[0] != "guard":
            continue
        for g, got in enumerate(arr.tolist()):
            want = g % threads + GUARD_MARK
            compared += 1
            if got != want:
                bad.append(f"dynamic shared guard: block {g // threads} thread {g % threads} "
                           f"read {got} back, stored {want}" if len(bad) < show else None)
    return compared, bad


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------

def pipeline_levers(warp_opt):
    """{option: [values]} of the levers a batch varies: NUMERIC_LEVERS and
    each enum option of the --warp-lower-to-ptx pipeline that `warp-opt
    --help` lists (its values on the lines under it), less FIXED_OPTIONS."""
    text = subprocess.run([warp_opt, "--help"], capture_output=True, text=True).stdout
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if re.match(r"\s+--warp-lower-to-ptx\s+- ", l))
    indent = len(lines[start]) - len(lines[start].lstrip())
    levers = {k: list(v) for k, v in NUMERIC_LEVERS.items()}
    current = None
    for line in lines[start + 1:]:
        option = re.match(r"(\s+)--([\w-]+)", line)
        if option and len(option.group(1)) <= indent:
            break  # the next pass or pipeline
        if option:
            enum = "=<value>" in line and option.group(2) not in FIXED_OPTIONS
            current = option.group(2) if enum else None
            if current:
                levers[current] = []
            continue
        value = re.match(r"\s+=([\w-]+)\s", line)
        if value and current:
            levers[current].append(value.group(1))
    return levers


def known_chips(warp_opt):
    """Every chip warp-opt lowers for, as its diagnostic for an unknown
    chip lists them (Chip::listKnownChips: LLVM's NVPTX processors from
    sm_70)."""
    res = subprocess.run([warp_opt, "--warp-lower-to-ptx=chip=none", "-o", os.devnull],
                         input="", capture_output=True, text=True)
    m = re.search(r"sm_70 or newer \(([^)]*)\)", res.stderr)
    if not m:
        sys.exit(f"generative: no chip list in warp-opt's diagnostic:\n{res.stderr[-2000:]}")
    return [c.strip() for c in m.group(1).split(",")]


def draw_options(rng, levers):
    """A batch's --warp-lower-to-ptx options: each lever left at its
    default half the time, else set to one of its values."""
    return " ".join(f"{name}={rng.choice(values)}" for name, values in sorted(levers.items())
                    if rng.random() < 0.5)


def compile_module(warp_opt, kernels, chip, options, path):
    text = "module attributes {gpu.container_module} {\ngpu.module @kernels {\n" + \
        "\n".join(kernels) + "\n}\n}\n"
    with open(path + ".mlir", "w") as f:
        f.write(text)
    opts = f"chip={chip} format=isa ptx-output={path}.ptx" + (f" {options}" if options else "")
    res = subprocess.run([warp_opt, path + ".mlir", f"--warp-lower-to-ptx={opts}", "-o", os.devnull],
                         capture_output=True, text=True)
    return res


def prepare(progs):
    """The kernels' MLIR and buffer lists of a batch (pure Python: the GPU
    host recomputes them from the programs)."""
    texts, metas = [], []
    for i, prog in enumerate(progs):
        for p in prog["stages"]:
            p["_existing"] = GenContext({}, prog["block"], 90).existing
        text, buffers = kernel_text(f"g{i}", prog)
        texts.append(text)
        metas.append(buffers)
    return texts, metas


def backend(name="sim"):
    if name == "sim":
        import simcupy as cp
    else:
        import cupy as cp
    return cp


def run_programs(args, progs, workdir, tag):
    """Lowers and runs `progs` (one chip and option set) on the simulator;
    returns a list of (prog, compared, failure text or None)."""
    cp = backend()
    chip, options = progs[0]["chip"], progs[0]["options"]
    texts, metas = prepare(progs)
    path = os.path.join(workdir, tag)
    res = compile_module(args.warp_opt, texts, chip, options, path)
    if res.returncode != 0:
        if len(progs) == 1:
            if SHARED_LIMIT in res.stderr and "error" in res.stderr:
                # The documented diagnostic of a program over the 48 KiB of
                # static shared memory (several block ops' buffers): a
                # resource limit the generator does not budget, not a bug.
                return [(progs[0], 0, SKIP + "over the static shared memory (diagnosed)")]
            return [(progs[0], 0, "warp-opt failed: " + summarize(res.stderr))]
        over = over_shared_memory(res.stderr, len(progs))
        if over and len(over) < len(progs):
            return run_apart(args, progs, over, workdir, tag)
        return run_halves(args, progs, workdir, tag)  # find the programs that fail alone
    try:
        module = cp.RawModule(path=path + ".ptx")
    except cp.SimError as err:
        if len(progs) > 1:
            # A kernel the error names (say one that declares more
            # registers than a block has) goes apart at once: halving
            # would compile it again at every level.
            named = named_programs(r"'g(\d+)'", str(err), len(progs))
            if named and len(named) < len(progs):
                return run_apart(args, progs, named, workdir, tag)
            return run_halves(args, progs, workdir, tag)
        # PTX the simulator does not model: counted, reported, not a mismatch.
        return [(progs[0], 0, SKIP + re.sub(r"^.*?PTX: line \d+: ", "", str(err)))]
    return execute(cp, module, progs, metas)


def named_programs(pattern, text, count):
    """The programs (indices below `count`) whose kernels `g<i>` a
    diagnostic names: `pattern`'s group 1 in `text`."""
    return sorted(set(int(m) for m in re.findall(pattern, text) if int(m) < count))


def over_shared_memory(stderr, count):
    """The programs (indices) whose kernels warp-check-shared-memory named
    over the static shared memory in a batch's module."""
    return named_programs(r"kernel 'g(\d+)' uses \d+ bytes of static shared memory", stderr, count)


def run_apart(args, progs, over, workdir, tag):
    """run_programs on the batch without the programs `over` (named by a
    diagnostic), then on each of those alone: one more warp-opt run for
    the rest, where halving the batch would take one per level down to
    each of them."""
    rest = [p for i, p in enumerate(progs) if i not in over]
    results = run_programs(args, rest, workdir, tag + "r")
    for i in over:
        results += run_programs(args, [progs[i]], workdir, f"{tag}o{i}")
    return results


def run_halves(args, progs, workdir, tag):
    """run_programs on each half of a batch whose module failed: halves,
    not single programs, since one or two programs usually cause it (a
    module whose block ops' buffers add up past the static shared memory
    the simulator allows) and every module costs a warp-opt run."""
    half = len(progs) // 2
    return run_programs(args, progs[:half], workdir, tag + "a") + \
        run_programs(args, progs[half:], workdir, tag + "b")


def execute(cp, module, progs, metas):
    """Launches each program's kernel g<i> of `module` with fresh inputs and
    checks every lane."""
    results = []
    reports = getattr(cp, "reports", [])
    for i, (prog, buffers) in enumerate(zip(progs, metas)):
        rng = random.Random(prog["seed"])
        set_index_bits(prog)
        arrays, data = make_inputs(prog, buffers, rng)
        fn = module.get_function(f"g{i}")
        device = [cp.asarray(a) for a in arrays]
        args_ = []
        for d in device:
            args_ += [d, d, np.int64(0), np.int64(d.size), np.int64(1)]
        before = len(reports)
        # Lanes the contract leaves unspecified (a read outside the mask, a
        # lane past valid_lanes) may store undefined values; the model skips them.
        if hasattr(cp, "undefined_values_allowed") and \
                any(may_be_undefined(p) for p in prog["stages"]):
            with cp.undefined_values_allowed():
                fn((prog["grid"], 1, 1), tuple(prog["block"]), args_, shared_mem=guard_bytes(prog))
        else:
            fn((prog["grid"], 1, 1), tuple(prog["block"]), args_, shared_mem=guard_bytes(prog))
        for a, d in zip(arrays, device):
            a[...] = cp.asnumpy(d)
        compared, bad = check(prog, buffers, arrays, data)
        failure = None
        if len(reports) > before:
            failure = "undefined behaviour: " + reports[-1]
            if SIM_STATE_LIMIT in reports[-1]:
                # The simulator's diagnostic of a launch whose state (every
                # lane's registers, a cluster's blocks) passes its memory
                # cap: a limit of the simulator, not of the program.
                failure = SKIP + "over the simulator's state limit (diagnosed)"
        elif bad:
            failure = f"{len(bad)} mismatches: " + "; ".join(b for b in bad if b)
        results.append((prog, compared, failure))
    return results


def set_index_bits(prog):
    """index is 32 bits on the device with device-index-bitwidth=32: the
    kernel truncates the stored i64 and sign-extends its results."""
    model.INT_BITS["index"] = 32 if "device-index-bitwidth=32" in prog["options"] else 64


def may_be_undefined(p):
    return p["op"] in ("shuffle", "broadcast", "gpu_shuffle") or p.get("form") == "valid" or \
        (p["op"] in ("exchange", "scatter") and any(e != 0xFFFFFFFF for e in p["exec"])) or \
        (p["op"] in ("scatter", "block_scatter") and (p["drops"] or p.get("flagged"))) or \
        p.get("lanes") == "first" or \
        (p["op"] in ("block_load", "load") and p["valid"] and not p["fill"]) or \
        (p["op"] in ("load", "store") and p["algorithm"] == "transpose" and
         any(e != 0xFFFFFFFF for e in p["exec"]))


def summarize(stderr):
    lines = [l for l in stderr.splitlines() if "error" in l or "Assertion" in l or "Stack dump" in l
             or "LLVM ERROR" in l or "Segmentation" in l]
    return " | ".join(lines[:3]) or stderr[-400:]


def public(prog):
    return dict(prog, stages=[{k: v for k, v in p.items() if not k.startswith("_")} for p in prog["stages"]])


def shrink(args, prog, workdir):
    """Smaller programs that still fail: one stage, no loop or function, one
    block, then the failing warp alone in a block of its own lanes."""
    def fails(cand):
        try:
            return run_programs(args, [cand], workdir, "shrink")[0][2] is not None
        except Exception:  # noqa: BLE001  a candidate the harness cannot run
            return False
    cur = public(prog)
    stages = cur["stages"]
    for s, p in enumerate(stages):
        if "arm_of" in p:
            continue
        group = [p] + [dict(q, arm_of=0) for q in stages[s + 1:s + 2] if q.get("arm_of") == s]
        cand = dict(cur, stages=group)
        if len(group) < len(stages) and fails(cand):
            cur = cand
            break
    for change in ({"cf": "plain"},):
        cand = dict(cur, stages=[dict(p, **change) for p in cur["stages"]])
        if fails(cand):
            cur = cand
    known = any(needs_known(p) for p in cur["stages"])
    for change in ({"grid": cur.get("cluster") or 1}, {"known": False}, {"options": ""},
                   {"dynamic": False}):
        if known and change.get("known") is False:
            continue
        cand = dict(cur, **change)
        if cand != cur and fails(cand):
            cur = cand
    return public(cur)


def failure_name(prog):
    ops_ = "_".join(p["op"] for p in prog["stages"])
    return f"{ops_}_{prog['chip']}_{prog['seed']:08x}"


def coverage_plan(accepted, chip, only=None):
    """Every op (of `only`, where given) x kind x payload type the
    verifier accepts, once: [(op, kind, type)], shuffled into programs of
    up to three stages. Items forms:
    every kind x element type once, N cycling through the accepted counts
    ((op, kind, vector type, "items"))."""
    plan = []
    ctx = GenContext(accepted, (32, 1, 1), sm_of(chip))
    for name, op in sorted(ops.OPS.items()):
        if only and name not in only:
            continue
        if hasattr(op, "cover"):  # the op's own plan (tile loads and stores)
            plan += op.cover(ctx)
            continue
        if not op.probe_forms():  # no payload type to vary (votes, gpu.shuffle)
            plan += [(name, None, None)] * 8
        for form, _ in op.probe_forms():
            kind = None if form in FORM_OPS else ops.form_kind(form)
            if ops.is_items_form(form):
                by_elem = {}
                for t in ctx.accepted(form):
                    by_elem.setdefault(parse_type(t)[0], []).append(t)
                for types in by_elem.values():
                    plan.append((name, kind, types[len(plan) % len(types)], "items"))
                continue
            for t in ctx.accepted(form):
                plan.append((name, kind, t))
    return plan


def write_bundle(args, batch, batch_no):
    """Batch b<N>: its PTX and its programs, for run_bundle on a GPU host.
    Where the batch's module does not compile (its kernels' buffers add up
    past the shared-memory limit: a gpu.module sizes its warp exchange and
    merge sort buffers for their largest user), each program gets a module
    of its own; a program over the limit alone is left out (the pass diagnoses it); any other failure
    is a bug to see here, not on the GPU host. Returns the programs kept."""
    os.makedirs(args.bundle, exist_ok=True)

    def emit(progs, name):
        path = os.path.join(args.bundle, name)
        res = compile_module(args.warp_opt, prepare(progs)[0], progs[0]["chip"],
                             progs[0]["options"], path)
        os.remove(path + ".mlir")
        if res.returncode != 0:
            if os.path.exists(path + ".ptx"):
                os.remove(path + ".ptx")
            return res
        with open(path + ".json", "w") as f:
            json.dump([public(p) for p in progs], f)
        return None

    failed = emit(batch, f"b{batch_no}")
    if failed is None:
        return batch
    kept = []
    for i, prog in enumerate(batch):
        alone = emit([prog], f"b{batch_no}_{i}")
        if alone is None:
            kept.append(prog)
        elif SHARED_LIMIT not in alone.stderr:
            sys.exit(f"generative: warp-opt failed on a bundle program: {summarize(alone.stderr)}"
                     f"\n  program: {json.dumps(public(prog))}")
    return kept


def run_bundle(args):
    """Runs every batch of a bundle (on the GPU with --backend cupy)."""
    cp = backend(args.backend)
    programs = lanes = 0
    failures = 0
    for name in sorted(f for f in os.listdir(args.run_bundle) if f.endswith(".json")):
        progs = json.load(open(os.path.join(args.run_bundle, name)))
        _, metas = prepare(progs)
        module = cp.RawModule(path=os.path.join(args.run_bundle, name[:-5] + ".ptx"))
        for prog, compared, failure in execute(cp, module, progs, metas):
            programs += 1
            lanes += compared
            if failure:
                failures += 1
                print(f"FAIL {failure_name(prog)}: {failure}\n  program: {json.dumps(public(prog))}",
                      flush=True)
    print(f"generative ({args.backend}): {programs} programs, {lanes} lane values, "
          f"{failures} mismatches")
    sys.exit(1 if failures else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warp-opt")
    ap.add_argument("--bundle", default="",
                    help="write the generated programs and their PTX here instead of running them")
    ap.add_argument("--run-bundle", default="",
                    help="run a --bundle directory (no warp-opt needed) on --backend")
    ap.add_argument("--backend", default="sim", choices=["sim", "cupy"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=200)
    ap.add_argument("--hours", type=float, default=0.0, help="run until this much time has passed")
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--chips", default="",
                    help="comma-separated chips (default: CHIPS, then every chip warp-opt knows)")
    ap.add_argument("--ops", default="", help="comma-separated op families (default: all)")
    ap.add_argument("--cover", action="store_true",
                    help="first every op x kind x accepted payload type once (each chip in turn)")
    ap.add_argument("--replay", default="", help="a directory of saved programs to run")
    ap.add_argument("--save-failures", default="", help="save shrunk failures here")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("-x", "--exitfirst", action="store_true",
                    help="stop after the batch of the first mismatch (a planted bug's test)")
    ap.add_argument("--check-table", action="store_true",
                    help="also fail when the verifier accepts a type docs/Preconditions.md omits")
    args = ap.parse_args()
    if args.run_bundle:
        return run_bundle(args)
    if not args.warp_opt:
        ap.error("--warp-opt is needed unless --run-bundle")
    workdir = tempfile.mkdtemp(prefix="generative-")
    only = [o for o in args.ops.split(",") if o] or None
    # The table's check needs every op's forms; a replay (which draws no
    # program) none.
    accepted = {} if args.replay and not args.check_table else \
        probe_types(args.warp_opt, workdir, None if args.check_table else only)
    if args.check_table:
        problems = check_table(accepted)
        for pr in problems:
            print("table: " + pr)
        if problems:
            sys.exit(1)
    rng = random.Random(args.seed)
    levers = pipeline_levers(args.warp_opt)
    if args.chips:
        chips = args.chips.split(",")
    else:
        others = [c for c in known_chips(args.warp_opt) if c not in CHIPS]
        chips = CHIPS + random.Random(args.seed).sample(others, len(others))
    programs = lanes = 0
    failures = []
    covered = set()
    skipped = {}
    deadline = time.time() + args.hours * 3600 if args.hours else None
    batches = []
    if args.replay:
        saved = [json.load(open(os.path.join(args.replay, f))) for f in sorted(os.listdir(args.replay))
                 if f.endswith(".json")]
        for prog in saved:
            batches.append([prog])
    if args.cover:
        plan = coverage_plan(accepted, "sm_90", only)
        random.Random(args.seed).shuffle(plan)
        # The cluster ops' entries go to chips with clusters (sm_90+).
        clustered = [c for c in chips if sm_of(c) >= 90]
        parts = [([x for x in plan if not ops.OPS[x[0]].cluster_level], chips),
                 ([x for x in plan if ops.OPS[x[0]].cluster_level], clustered)]
        for part, part_chips in parts:
            for start in range(0, len(part) if part_chips else 0, 3 * args.batch):
                chunk = part[start:start + 3 * args.batch]
                number = start // (3 * args.batch)
                chip = part_chips[number % len(part_chips)]
                option = draw_options(rng, levers)
                batch = []
                for i in range(0, len(chunk), 3):
                    prog = generate(rng, accepted, chip, force=chunk[i:i + 3])
                    if prog is not None:
                        prog["options"] = option  # one warp-opt run per batch
                        batch.append(prog)
                batches.append(batch)
    batch_no = 0
    while True:
        if batches:
            batch = batches.pop(0)
        elif args.replay:
            break
        else:
            if deadline is None and programs >= args.programs:
                break
            if deadline is not None and time.time() > deadline:
                break
            chip = chips[batch_no % len(chips)]
            option = draw_options(rng, levers)
            batch = []
            n = args.batch if deadline else min(args.batch, args.programs - programs)
            while len(batch) < n:
                prog = generate(rng, accepted, chip, only)
                if prog is not None:
                    prog["options"] = option
                    batch.append(prog)
        batch_no += 1
        if args.bundle:
            programs += len(write_bundle(args, batch, batch_no))
            continue
        for prog, compared, failure in run_programs(args, batch, workdir, f"b{batch_no}"):
            if failure and failure.startswith(SKIP):
                skipped[failure] = skipped.get(failure, 0) + 1
                continue
            programs += 1
            lanes += compared
            for p in prog["stages"]:
                covered.add((p["op"], ",".join(p.get("types", [p.get("type", "")]))))
            if failure:
                small = prog if args.no_shrink else shrink(args, prog, workdir)
                failures.append((small, failure))
                print(f"FAIL {failure_name(small)}: {failure}", flush=True)
                print("  program: " + json.dumps(public(small)), flush=True)
                if args.save_failures:
                    os.makedirs(args.save_failures, exist_ok=True)
                    with open(os.path.join(args.save_failures, failure_name(small) + ".json"), "w") as f:
                        json.dump(public(small), f, indent=1)
        if args.exitfirst and failures:
            break
        if deadline is not None and batch:  # a long run shows how far it got
            print(f"progress: batch {batch_no} ({batch[0]['chip']}, "
                  f"{batch[0]['options'] or 'default options'}): {programs} programs, "
                  f"{lanes} lane values, {len(failures)} mismatches", flush=True)
    if args.bundle:
        print(f"generative bundle: {programs} programs in {batch_no} batches under {args.bundle}")
        return
    for why, count in sorted(skipped.items()):
        print(f"{why} ({count} programs)")
    ops_seen = sorted(set(o for o, _ in covered))
    print(f"coverage: {len(ops_seen)} op families ({', '.join(ops_seen)}), "
          f"{len(covered)} op x payload pairs")
    print(f"generative: {programs} programs, {lanes} lane values, {len(failures)} mismatches")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(HERE, "..", "Integration", "CUDA"))
    # Float overflow and invalid operations are IEEE results in the model
    # (model.combine), not errors to warn about.
    with np.errstate(all="ignore"):
        main()
