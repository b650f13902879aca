"""The op catalogue of the generative contract tester: for each op, how a
random well-formed instance is drawn (within the op's precondition, as
docs/Preconditions.md states it), how it is written as MLIR, and what every
lane must get (model.py).

An instance is a JSON-able dict `p`:
  op, type(s), attributes, `exec`: the executing lanes of each warp (a 32-bit
  mask per warp of the block; block ops: every thread), and the per-warp
  uniform run-time operands.
Per-thread operands come from buffers filled by `inputs()`; results go to
buffers checked by `expect()`.
"""
import bisect

import model
from model import WARP, parse_type, is_float

SCALARS = ["i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32", "f64"]
CANDIDATE_TYPES = SCALARS + [f"vector<{n}x{e}>" for n in (1, 2, 3, 4) for e in SCALARS]
# Items per thread (`items` on warp.block_reduce/block_scan, CUB's
# ITEMS_PER_THREAD): N from 1 to 8, odd N over 8- and 16-bit elements
# included (items, not a payload the lowering may pad). The probe tries
# every one (and the scalars, which `items` must reject): the generator
# draws only what the verifier accepted.
ITEM_COUNTS = list(range(1, 9))
ITEM_CANDIDATES = SCALARS + [f"vector<{n}x{e}>" for n in ITEM_COUNTS for e in SCALARS]
POW2 = [1, 2, 4, 8, 16, 32]


def full_mask(lanes):
    return (1 << lanes) - 1 if lanes < 32 else 0xFFFFFFFF


# ----------------------------------------------------------------------------
# Execution sets (which lanes of a warp execute): the preconditions' shapes.
# ----------------------------------------------------------------------------

def union_of_groups(rng, groups, existing, allow_empty=False):
    """A random union of whole lane groups (lists of lanes) that exist."""
    usable = [g for g in groups if all((existing >> l) & 1 for l in g)]
    while True:
        mask = 0
        for g in usable:
            if rng.random() < 0.5:
                for l in g:
                    mask |= 1 << l
        if mask or allow_empty or not usable:
            return mask


def cluster_groups(size, stride):
    span = size * stride
    groups = []
    for base in range(0, WARP, span):
        for r in range(stride):
            groups.append([base + r + i * stride for i in range(size)])
    return groups


def any_subset(rng, existing):
    while True:
        m = rng.getrandbits(32) & existing if rng.random() < 0.8 else existing
        if rng.random() < 0.15:
            m = existing & (1 << rng.choice(model.lanes_of(existing)))
        if m:
            return m


def some_lanes(rng, existing):
    """The executing lanes of an op that any lanes may run, per warp: half
    the time all of `existing`'s, else any non-empty subset of them."""
    return [any_subset(rng, e) if rng.random() < 0.5 else e for e in existing]


# ----------------------------------------------------------------------------
# Value domains: exact floats where the combine order is not the point.
# ----------------------------------------------------------------------------

def payload_value(rng, elem, domain):
    """One element: `bits` (any pattern), `add`/`mul` (exact in any order),
    `minmax`/`minmax0` (specials; the latter with signed zeros)."""
    if not is_float(elem):
        bits = model.INT_BITS[elem]
        if domain == "small":
            return rng.randrange(0, 4)
        if domain == "order":  # sort keys: many ties among any patterns
            return rng.randrange(0, 4) if rng.random() < 0.5 else rng.getrandbits(bits)
        return rng.getrandbits(bits)
    if domain == "order":  # sort keys: ties, signed zeros, infinities, no NaN
        return model.fnum(elem, rng.choice([-3, -2, -1, 0, 1, 2, 3, -0.0, float("inf"),
                                            float("-inf")]))
    if domain == "bits":
        return ("bits", rng.getrandbits({"f16": 16, "bf16": 16, "f32": 32, "f64": 64}[elem]))
    if domain == "add":
        return model.fnum(elem, rng.randint(-4, 4))
    if domain == "mul":
        return model.fnum(elem, rng.choice([1.0, -1.0, 1.0, -1.0, 2.0, 0.5])
                          if elem != "f16" else rng.choice([1.0, -1.0]))
    specials = [float("inf"), float("-inf"), float("nan")]
    if domain == "minmax0":
        specials += [0.0, -0.0, 0.0, -0.0]
    if rng.random() < 0.15:
        return model.fnum(elem, rng.choice(specials))
    return model.fnum(elem, rng.randint(-50, 50) or 1)


def domain_for(kind):
    if kind is None:
        return "bits"
    if kind in ("add", "mul"):
        return kind
    if kind in ("minimumf", "maximumf"):
        return "minmax0"
    return "minmax"


# warp.atomic_rmw's kinds on any type (the float min/max are floats' only).
ALL_ATOMIC_KINDS = list(dict.fromkeys(model.ATOMIC_KINDS + model.FLOAT_ATOMIC_KINDS))


def kind_ok(kind, type_, op=None):
    """Whether docs/Preconditions.md gives `kind` the type: the atomic
    kinds for warp.atomic_rmw, else the combine kinds."""
    elem, _ = parse_type(type_)
    if op in ("atomic_rmw", "lane_atomic_rmw"):
        scalar = parse_type(type_)[1] is None
        # The float min/max: float scalars only (a CAS loop).
        if kind in ("minnumf", "maxnumf"):
            return is_float(elem) and scalar
        # 16-bit: add (not on i16) and exch (not on the pairs).
        if elem == "i16":
            return kind == "exch"
        if elem in ("f16", "bf16"):
            return kind == "add" or (kind == "exch" and scalar)
        return kind in (model.FLOAT_ATOMIC_KINDS if is_float(elem) else model.ATOMIC_KINDS)
    return kind in (model.FLOAT_KINDS if is_float(elem) else model.INT_KINDS)


def is_items_form(form):
    """Whether a probe form is `<op>_items_<kind>` (the values hold items)."""
    return "_items_" in form


def candidates(form):
    """The payload types the verifier probe tries for `form`."""
    if is_tile_form(form):
        # An algorithm: every items type (vectors of N = 1..8); its
        # combination with striped, valid or width: one type every
        # algorithm takes (the verifier's option rules are the type's
        # rules' conjunction with those, which the probe of one type shows).
        return [TILE_SAMPLE] if form.count(".") > 1 else ITEM_CANDIDATES[len(SCALARS):]
    return ITEM_CANDIDATES if is_items_form(form) else CANDIDATE_TYPES


def items_of(p):
    """N, the items per thread of a block op with `items`; None without."""
    return parse_type(p["types"][0])[1] if p.get("items") else None


def combined_type(p, i):
    """The type the combiner sees for value i: with `items` the element
    type of the thread's vector (also init's, the totals' and a reduce's
    results), else the value's type."""
    return parse_type(p["types"][i])[0] if p.get("items") else p["types"][i]


def form_kind(form):
    """The kind a probe form `<op>_<kind>` names, or None."""
    return next((k for k in sorted(set(model.INT_KINDS + model.FLOAT_KINDS + ALL_ATOMIC_KINDS),
                                   key=len, reverse=True)
                 if form.endswith("_" + k)), None)


# ----------------------------------------------------------------------------
# The ops. Each: gen(rng, ctx) -> p or None; operands(p) -> the per-thread
# inputs [(name, type, domain)]; results(p) -> [(name, type)]; mlir(p) ->
# lines using %<input> names and defining %<result> names; expect(p, warp
# data) -> {result: [value or None per lane]}.
# ----------------------------------------------------------------------------

class Op:
    name = None
    block_level = False
    # Whether the op spans the blocks of a thread-block cluster (checked
    # per cluster by expect_cluster; also block_level).
    cluster_level = False
    # Whether its results combine values arithmetically, so that a float
    # result matches any NaN where the model's is a NaN (generative.same).
    arithmetic = False
    # Whether the op's lanes are those that execute it together (upstream's
    # subgroup ops, imported with warp.activemask): in divergent arms it
    # then takes any lanes (active_in_arm redraws them), not whole groups.
    active_lanes = False
    # Whether the op needs the kernel's known_block_size (its verifier
    # refuses it without): the probes and the programs then have one.
    needs_known_block = False
    probe = None  # MLIR line for type probing: {T} the payload type
    # The other ops whose probed forms gen reads (an import's warp op): a
    # run of some ops only probes theirs and these.
    probed_as = ()
    # Whether the probes need known_block_size where the op does not: its
    # workgroup buffers, sized for 1024 threads without, may not fit.
    probe_known = False

    def probe_forms(self):
        """(form, line) pairs the verifier decides per payload type."""
        return [(self.name, self.probe)]

    def kind_forms(self):
        """One form per combine kind: `<op>_<kind>`."""
        return [(f"{self.name}_{k}", f"%r = warp.{self.name} <{k}> %x : {{T}}")
                for k in sorted(set(model.INT_KINDS + model.FLOAT_KINDS))]

    def active_in_arm(self, rng, p, existing):
        """With active_lanes: `p` for the lanes of a divergent arm, a
        subset of `existing` per warp (its twin takes the others)."""
        p["exec"] = [any_subset(rng, e) for e in existing]

    def memory_size(self, p, grid, threads):
        """Elements of the memory the op updates (`memory(p)`), per
        repetition over the grid: the warps' own bins."""
        return grid * len(p["exec"]) * p["bins"]

    def memory_value(self, rng, elem):
        """One element of that memory before the launch and whether it is
        raw storage bits (else a model value): small exact values."""
        return payload_value(rng, elem, "small" if not is_float(elem) else "add"), False

    def items_kind_forms(self):
        """The kind forms, then each kind with `items` (`<op>_items_<kind>`:
        the kind's type rules apply to the vector's element type)."""
        return self.kind_forms() + [
            (f"{self.name}_items_{k}", f"%r = warp.{self.name} <{k}> %x items : {{T}}")
            for k in sorted(set(model.INT_KINDS + model.FLOAT_KINDS))]


class Shuffle(Op):
    name = "shuffle"
    probe = "%r, %v = warp.shuffle <xor> %x, %c1 : {T}"

    def gen(self, rng, ctx):
        t = ctx.type_for("shuffle", rng)
        mode = rng.choice(["idx", "xor", "up", "down"])
        p = dict(op=self.name, type=t, mode=mode)
        if rng.random() < 0.15 and mode in ("up", "down"):
            p["bound"] = True  # per-lane clamp lane, whole warp
            p["width"] = 32
        else:
            p["width"] = rng.choice(POW2)
            p["dyn_width"] = rng.random() < 0.4
        p["dyn_offset"] = rng.random() < 0.5
        p["offset"] = rng.choice([0, 1, 2, 3, 5, 8, 16, 31, 33, 40, -1, -7])
        p["exec"] = [any_subset(rng, e) if rng.random() < 0.4 else e for e in ctx.existing]
        p["mask"] = "implicit" if all(x == 0xFFFFFFFF for x in p["exec"]) and rng.random() < 0.5 else ctx.mask_form(rng, p["exec"])
        return p

    def operands(self, p):
        ops = [("x", p["type"], "bits")]
        if p["dyn_offset"]:
            ops.append(("off", "i32", "offset"))
        if p.get("bound"):
            ops.append(("bound", "i32", "lane"))
        return ops

    def uniforms(self, p):
        return ["w"] if p.get("dyn_width") else []

    def uniform_value(self, p, name, rng, warp):
        return p["width"]

    def results(self, p):
        return [("r", p["type"]), ("v", "i1")]

    def mlir(self, p, k):
        off = "%off" if p["dyn_offset"] else k.const(p["offset"], "i32")
        if p.get("bound"):
            tail = "bound %bound"
        elif p.get("dyn_width"):
            tail = "width %w"
        else:
            tail = f"width {p['width']}"
        return [f"%r, %v = warp.shuffle <{p['mode']}> %x, {off} {tail}{k.mask_operand(p)} : {p['type']}"]

    def expect(self, p, d):
        r, v = [None] * WARP, [None] * WARP
        for lane in model.lanes_of(d.exec):
            off = d.ins["off"][lane] if p["dyn_offset"] else p["offset"]
            bound = d.ins["bound"][lane] if p.get("bound") else None
            src, ok = model.shuffle_source(p["mode"], lane, off, p["width"], bound)
            v[lane] = int(ok)
            if not ok:
                r[lane] = d.ins["x"][lane]
            elif (d.exec >> src) & 1:
                r[lane] = d.ins["x"][src]
            # else: a lane outside the mask: undefined (PTX)
        return dict(r=r, v=v)


class GpuShuffle(Op):
    """Upstream gpu.shuffle, imported by convert-gpu-to-warp: `width` lanes
    (any 1..32) take part, the first `width` lanes of the warp."""
    name = "gpu_shuffle"
    probe = None

    def probe_forms(self):
        return []

    def gen(self, rng, ctx):
        t = rng.choice(["i32", "f32", "i64", "f64"])
        width = rng.randint(1, 32)
        ex = [e & full_mask(width) for e in ctx.existing]
        if any(e != full_mask(width) for e in ex):
            return None  # upstream: the first `width` lanes all execute
        return dict(op=self.name, type=t, mode=rng.choice(["idx", "xor", "up", "down"]),
                    width=width, dyn_width=rng.random() < 0.5, dyn_offset=rng.random() < 0.5,
                    offset=rng.randint(0, width), exec=ex)

    def operands(self, p):
        return [("x", p["type"], "bits")] + ([("off", "i32", "offset_small")] if p["dyn_offset"] else [])

    def uniforms(self, p):
        return ["w"] if p["dyn_width"] else []

    def uniform_value(self, p, name, rng, warp):
        return p["width"]

    def results(self, p):
        return [("r", p["type"]), ("v", "i1")]

    def mlir(self, p, k):
        off = "%off" if p["dyn_offset"] else k.const(p["offset"], "i32")
        w = "%w" if p["dyn_width"] else k.const(p["width"], "i32")
        return [f"%r, %v = gpu.shuffle {p['mode']} %x, {off}, {w} : {p['type']}"]

    def expect(self, p, d):
        r, v = [None] * WARP, [None] * WARP
        for lane in model.lanes_of(d.exec):
            off = d.ins["off"][lane] if p["dyn_offset"] else p["offset"]
            src, ok = model.gpu_shuffle_source(p["mode"], lane, off, p["width"])
            v[lane] = int(ok)
            if ok:
                r[lane] = d.ins["x"][src]
        return dict(r=r, v=v)


class Broadcast(Op):
    name = "broadcast"
    probe = "%r = warp.broadcast %x, %c1 : {T}"

    def gen(self, rng, ctx):
        t = ctx.type_for("broadcast", rng)
        ex = [any_subset(rng, e) if rng.random() < 0.4 else e for e in ctx.existing]
        return dict(op=self.name, type=t, exec=ex, dyn_lane=rng.random() < 0.5,
                    lane=rng.choice([0, 1, 5, 31, 32, 37, -1]),
                    mask=ctx.mask_form(rng, ex, allow_implicit=True))

    def operands(self, p):
        return [("x", p["type"], "bits")]

    def uniforms(self, p):
        return ["src"] if p["dyn_lane"] else []

    def uniform_value(self, p, name, rng, warp):
        ex = p["exec"][warp]
        return rng.choice(model.lanes_of(ex)) + rng.choice([0, 32, -32]) if ex else 0

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        src = "%src" if p["dyn_lane"] else k.const(p["lane"], "i32")
        return [f"%r = warp.broadcast %x, {src}{k.mask_operand(p)} : {p['type']}"]

    def expect(self, p, d):
        src = (d.uni["src"] if p["dyn_lane"] else p["lane"]) & 31
        r = [None] * WARP
        if (d.exec >> src) & 1:
            for lane in model.lanes_of(d.exec):
                r[lane] = d.ins["x"][src]
        return dict(r=r)


class BroadcastFirst(Op):
    name = "broadcast_first"
    probe = "%r = warp.broadcast_first %x : {T}"

    def gen(self, rng, ctx):
        ex = some_lanes(rng, ctx.existing)
        return dict(op=self.name, type=ctx.type_for(self.name, rng), exec=ex,
                    mask=ctx.mask_form(rng, ex, allow_implicit=True))

    def operands(self, p):
        return [("x", p["type"], "bits")]

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        return [f"%r = warp.broadcast_first %x{k.mask_operand(p)} : {p['type']}"]

    def expect(self, p, d):
        first = model.lanes_of(d.exec)[0]
        return dict(r=[d.ins["x"][first] if (d.exec >> l) & 1 else None for l in range(WARP)])


class Votes(Op):
    """ballot, vote <any/all/uni>, compact and elect (also with the elected
    lane's number): predicates over the lanes of the mask (any mask); a
    ballot or vote also of the lane's tile (`width` < 32: cooperative
    groups' tiled_partition)."""
    name = "votes"
    TILED = ("ballot", "any", "all", "uni")

    def probe_forms(self):
        return []

    def gen(self, rng, ctx):
        ex = some_lanes(rng, ctx.existing)
        what = rng.choice(["ballot", "any", "all", "uni", "compact", "elect", "elect_leader"])
        width = rng.choice([32, 32, 16, 8, 4, 2, 1]) if what in self.TILED else 32
        return dict(op=self.name, exec=ex, what=what, width=width,
                    mask=ctx.mask_form(rng, ex, allow_implicit=True))

    def operands(self, p):
        return [("p", "i1", "pred")]

    def results(self, p):
        return {"ballot": [("r", "i32")], "compact": [("o", "i32"), ("c", "i32")],
                "elect_leader": [("r", "i1"), ("l", "i32")]}.get(p["what"], [("r", "i1")])

    def mlir(self, p, k):
        m = k.mask_operand(p)
        w = p["what"]
        width = p.get("width", 32)
        if width != 32:
            m += f" width {width}"
        if w == "ballot":
            return [f"%r = warp.ballot %p{m} : i32"]
        if w == "compact":
            return [f"%o, %c = warp.compact %p{m} : i32"]
        if w == "elect":
            return [f"%r = warp.elect{m} : i1"]
        if w == "elect_leader":
            return [f"%r, %l = warp.elect{m} : i1, i32"]
        return [f"%r = warp.vote <{w}> %p{m} : i1"]

    def expect(self, p, d):
        lanes = model.lanes_of(d.exec)
        ballot = sum(1 << l for l in lanes if d.ins["p"][l])
        w = p["what"]
        width = p.get("width", 32)
        out = [None] * WARP
        for l in lanes:
            # The lane's tile (the whole warp at width 32): its first lane,
            # the tile's lanes as a mask, its members' true and all bits.
            first = l - l % width
            tile = ((1 << width) - 1) << first
            true, members = ballot & tile, d.exec & tile
            if w == "ballot":
                out[l] = (ballot >> first) & ((1 << width) - 1)
            elif w == "any":
                out[l] = int(true != 0)
            elif w == "all":
                out[l] = int(true == members)
            elif w == "uni":
                out[l] = int(true in (0, members))
            elif w in ("elect", "elect_leader"):
                out[l] = int(l == lanes[0])
        if w == "elect_leader":
            return dict(r=out, l=[lanes[0] if (d.exec >> l) & 1 else None for l in range(WARP)])
        if w == "compact":
            return dict(o=[bin(ballot & ((1 << l) - 1)).count("1") if (d.exec >> l) & 1 else None
                           for l in range(WARP)],
                        c=[bin(ballot).count("1") if (d.exec >> l) & 1 else None for l in range(WARP)])
        return dict(r=out)


class Match(Op):
    name = "match"
    probe = "%r = warp.match_any %x : {T}"

    def gen(self, rng, ctx):
        ex = some_lanes(rng, ctx.existing)
        p = dict(op=self.name, type=ctx.type_for(self.name, rng), exec=ex,
                 all=rng.random() < 0.5, mask=ctx.mask_form(rng, ex, allow_implicit=True))
        # match_any of an integer's low `bits` (any count up to its width),
        # by either strategy where it can be used, or the compiler's.
        if not p["all"] and p["type"] in model.INT_BITS and rng.random() < 0.6:
            width = model.INT_BITS[p["type"]]
            p["bits"] = rng.choice([rng.randint(1, 8), rng.randint(1, width)])
            p["strategy"] = rng.choice([None, "match"] + (["ballots"] if p["bits"] <= 32 else []))
        return p

    def operands(self, p):
        return [("x", p["type"], "own_low" if "bits" in p else "few")]

    def value(self, rng, elem, dom, p, warp, threads, thread):
        """Few distinct low bits under random high ones: lanes that agree
        on the compared bits and differ above them."""
        width = model.INT_BITS[elem]
        low = rng.choice([0, 1, 5, (1 << p["bits"]) - 1]) & ((1 << p["bits"]) - 1)
        return (rng.getrandbits(width) & ~((1 << p["bits"]) - 1)) | low, True

    def results(self, p):
        return [("r", "i32"), ("q", "i1")] if p["all"] else [("r", "i32")]

    def mlir(self, p, k):
        if p["all"]:
            return [f"%r, %q = warp.match_all %x{k.mask_operand(p)} : {p['type']}"]
        opts = (f" bits {p['bits']}" if "bits" in p else "") + \
            (f" strategy = <{p['strategy']}>" if p.get("strategy") else "")
        return [f"%r = warp.match_any %x{k.mask_operand(p)}{opts} : {p['type']}"]

    def expect(self, p, d):
        lanes = model.lanes_of(d.exec)
        elem = parse_type(p["type"])[0]
        low = (1 << p["bits"]) - 1 if "bits" in p else -1
        key = lambda l: model.bits(elem, d.ins["x"][l]) & low  # bit for bit
        r = [None] * WARP
        q = [None] * WARP
        same = all(key(l) == key(lanes[0]) for l in lanes)
        for l in lanes:
            if p["all"]:
                r[l], q[l] = (d.exec, 1) if same else (0, 0)
            else:
                r[l] = sum(1 << m for m in lanes if key(m) == key(l))
        return dict(r=r, q=q) if p["all"] else dict(r=r)


class WarpCombineOp(Op):
    """warp.reduce and warp.scan: a kind or a combine region over the
    lanes' values."""
    arithmetic = True

    probe_forms = Op.kind_forms

    def gen(self, rng, ctx):
        """The op and a combiner, then draw(p, rng, ctx)'s own parameters;
        None where no combiner fits."""
        p = dict(op=self.name)
        if not choose_combiner(p, self.name, rng, ctx):
            return None
        return self.draw(p, rng, ctx)


class Reduce(WarpCombineOp):
    name = "reduce"

    def draw(self, p, rng, ctx):
        form = rng.choice(["plain", "plain", "clusters", "any_mask", "valid", "segments"])
        size, stride = 32, 1
        if form in ("clusters", "any_mask", "segments"):
            size = rng.choice(POW2)
            stride = 1 if form == "segments" else rng.choice([s for s in POW2 if s * size <= 32])
        p.update(form=form, cluster=[size, stride], lanes=rng.choice(["all", "first"]))
        if form == "plain" or form == "clusters":
            p["exec"] = [union_of_groups(rng, cluster_groups(size, stride), e)
                         if rng.random() < 0.4 or e != 0xFFFFFFFF else e for e in ctx.existing]
            strategies = [None, "butterfly", "tree"]
            if "kind" in p and size == 32 and stride == 1 and ctx.sm >= 80:
                elem, n = parse_type(p["types"][0])
                if n is None and elem in ("i8", "i16", "i32") and p["kind"] != "mul":
                    strategies.append("redux")
            p["strategy"] = rng.choice(strategies)
        elif form == "any_mask":
            p["exec"] = [any_subset(rng, e) for e in ctx.existing]
        elif form == "valid":
            p["n"] = [rng.randint(1, bin(e).count("1")) if e else 1 for e in ctx.existing]
            ragged = rng.random() < 0.5 or any(e != 0xFFFFFFFF for e in ctx.existing)
            p["exec"] = [full_mask(n) & e if ragged else e for n, e in zip(p["n"], ctx.existing)]
        else:  # segments: flags drawn here, the mask a union of whole segments
            p["tails"] = rng.random() < 0.5
            p["flags"] = [[int(rng.random() < 0.25) for _ in range(WARP)] for _ in ctx.existing]
            p["exec"] = []
            for e, f in zip(ctx.existing, p["flags"]):
                segs = model.flag_segments(e, None if p["tails"] else f, f if p["tails"] else None, size)
                r = rng.random()
                p["exec"].append(union_of_groups(rng, segs, e) if r < 0.5 else
                                 any_subset(rng, e) if r < 0.75 else e)
        p["mask"] = ctx.mask_form(rng, p["exec"], allow_implicit=form != "any_mask")
        return p

    def operands(self, p):
        dom = domain_for(p.get("kind"))
        if "region" in p:
            dom = "region_" + p["region"]
        ops = [(f"x{i}", t, dom) for i, t in enumerate(p["types"])]
        if p["form"] == "segments":
            ops.append(("f", "i1", "flags"))
        return ops

    def uniforms(self, p):
        return ["n"] if p["form"] == "valid" else []

    def uniform_value(self, p, name, rng, warp):
        return p["n"][warp]

    def results(self, p):
        return [(f"y{i}", t) for i, t in enumerate(p["types"])]

    def mlir(self, p, k):
        xs = ", ".join(f"%x{i}" for i in range(len(p["types"])))
        ys = ", ".join(f"%y{i}" for i in range(len(p["types"])))
        opts = []
        if p["form"] == "segments":
            opts.append(("tails" if p["tails"] else "heads") + " %f")
        if p["form"] == "valid":
            opts.append("valid_lanes %n")
        m = k.mask_operand(p)
        if m:
            opts.append(m.strip())
        size, stride = p["cluster"]
        if size != 32:
            opts.append(f"cluster_size = {size}")
        if stride != 1:
            opts.append(f"cluster_stride = {stride}")
        opts.append(f"lanes = <{p['lanes']}>")
        if p.get("strategy"):
            opts.append(f"strategy = <{p['strategy']}>")
        return region_op(f"{ys} = warp.reduce", p, xs, opts)

    def expect(self, p, d):
        fn = combiner(p)
        size, stride = p["cluster"]
        vals = lambda l: tuple(d.ins[f"x{i}"][l] for i in range(len(p["types"])))
        outs = {f"y{i}": [None] * WARP for i in range(len(p["types"]))}
        groups = []
        if p["form"] == "segments":
            f = d.ins["f"]
            groups = model.flag_segments(d.exec, None if p["tails"] else f, f if p["tails"] else None, size)
        elif p["form"] == "valid":
            live = d.exec & full_mask(d.uni["n"])
            groups = [model.lanes_of(live)]
            holders = model.lanes_of(d.exec)
        else:
            groups = [[l for l in g if (d.exec >> l) & 1] for g in cluster_groups(size, stride)]
        for g in groups:
            if not g:
                continue
            total = model.fold(fn, [vals(l) for l in g])
            targets = g
            if p["form"] == "valid":
                targets = holders
            if p["lanes"] == "first":
                targets = [targets[0]]
            for l in targets:
                for i in range(len(p["types"])):
                    outs[f"y{i}"][l] = total[i]
        return outs


def choose_combiner(p, op, rng, ctx, items=False):
    """A combine region over a tuple, or a kind and a payload type the
    verifier accepts for it (`op`_`kind`, `op`_items_`kind` with `items`:
    a vector of N items); False when there is none."""
    if ctx.wants_region(rng):
        p["region"] = rng.choice(sorted(model.REGIONS))
        p["types"] = model.REGIONS[p["region"]]["types"]
        if items:  # the region's arguments stay the element types
            n = rng.choice(ITEM_COUNTS)
            p["types"] = [f"vector<{n}x{t}>" for t in p["types"]]
        return True
    kind = ctx.kind_for(rng)
    t = ctx.type_for(f"{op}_items_{kind}" if items else f"{op}_{kind}", rng)
    if t is None:
        return False
    p["kind"], p["types"] = kind, [t]
    return True


def combiner(p):
    """The combine function on tuples (with `items`, tuples of one item of
    each value)."""
    if "region" in p:
        return model.REGIONS[p["region"]]["fn"]
    kind, t = p["kind"], combined_type(p, 0)
    return lambda a, b: (model.combine_value(kind, a[0], b[0], t),)


def thread_items(p, d, t):
    """Thread t's items in order, each a tuple over the values: its N items
    with `items`, else its one value."""
    n = len(p["types"])
    k = items_of(p)
    if k is None:
        return [tuple(d.ins[f"x{i}"][t] for i in range(n))]
    return [tuple(d.ins[f"x{i}"][t][j] for i in range(n)) for j in range(k)]


def values_mlir(p):
    """The value operands; ` items` right after them (the op's syntax)."""
    return ", ".join(f"%x{i}" for i in range(len(p["types"]))) + (" items" if p.get("items") else "")


def region_op(head, p, xs, opts, init=""):
    types = ", ".join(p["types"])
    line = f"{head} " + (f"<{p['kind']}> " if "kind" in p else "") + xs
    if "region" in p and model.REGIONS[p["region"]]["commutative"]:
        if p["op"] == "block_reduce":  # after valid_threads, before algorithm
            at = int(bool(opts) and opts[0].startswith("valid_threads"))
            opts = opts[:at] + ["commutative"] + opts[at:]
        elif p["op"] == "reduce":
            opts = opts + ["commutative"]
    line += (" " + " ".join(opts) if opts else "") + init
    if "kind" in p:
        return [f"{line} : {p.get('result_types', types)}"]
    reg = model.REGIONS[p["region"]]
    args = [f"%l{i}: {t}" for i, t in enumerate(reg["types"])] + \
           [f"%r{i}: {t}" for i, t in enumerate(reg["types"])]
    lines = [f"{line} : {p.get('result_types', types)} combine ({', '.join(args)}) {{"]
    lines += ["  " + l for l in reg["body"]]
    lines.append("}")
    return lines


class Scan(WarpCombineOp):
    name = "scan"

    def draw(self, p, rng, ctx):
        p["width"] = rng.choice(POW2)
        p["reverse"] = rng.random() < 0.5
        form = rng.choice(["plain", "valid", "heads", "masked"])
        p["form"] = form
        p["init"] = form != "heads" and (rng.random() < 0.4 or ("region" in p and rng.random() < 0.5))
        p["exclusive"] = rng.random() < 0.5 and ("kind" in p or p["init"])
        p["total"] = rng.random() < 0.3 and form != "heads"
        if form == "valid":
            p["n"] = [rng.randint(1, bin(e).count("1")) if e else 1 for e in ctx.existing]
            ragged = rng.random() < 0.5 or any(e != 0xFFFFFFFF for e in ctx.existing)
            p["exec"] = [full_mask(n) & e if ragged else e for n, e in zip(p["n"], ctx.existing)]
        elif form == "heads":
            p["flags"] = [[int(rng.random() < 0.25) for _ in range(WARP)] for _ in ctx.existing]
            p["exec"] = []
            for e, f in zip(ctx.existing, p["flags"]):
                segs = model.flag_segments(e, f, None, p["width"])
                r = rng.random()
                p["exec"].append(union_of_groups(rng, segs, e) if r < 0.4 else
                                 any_subset(rng, e) if r < 0.7 else e)
        else:
            groups = cluster_groups(p["width"], 1)
            p["exec"] = [union_of_groups(rng, groups, e) if form == "masked" or e != 0xFFFFFFFF else e
                         for e in ctx.existing]
        p["mask"] = ctx.mask_form(rng, p["exec"], allow_implicit=True)
        return p

    def operands(self, p):
        dom = "region_" + p["region"] if "region" in p else domain_for(p.get("kind"))
        ops = [(f"x{i}", t, dom) for i, t in enumerate(p["types"])]
        if p["form"] == "heads":
            ops.append(("f", "i1", "flags"))
        return ops

    def uniforms(self, p):
        u = ["n"] if p["form"] == "valid" else []
        if p["init"]:
            u += [f"init{i}" for i in range(len(p["types"]))]
        return u

    def uniform_value(self, p, name, rng, warp):
        if name == "n":
            return p["n"][warp]
        return ("payload", int(name[4:]))

    def results(self, p):
        r = [(f"y{i}", t) for i, t in enumerate(p["types"])]
        if p["total"]:
            r += [(f"z{i}", t) for i, t in enumerate(p["types"])]
        return r

    def mlir(self, p, k):
        n = len(p["types"])
        xs = ", ".join(f"%x{i}" for i in range(n))
        ys = ", ".join([f"%y{i}" for i in range(n)] + ([f"%z{i}" for i in range(n)] if p["total"] else []))
        opts = []
        if p["exclusive"]:
            opts.append("exclusive")
        if p["reverse"]:
            opts.append("reverse")
        opts.append(f"width {p['width']}")
        if p["init"]:
            opts.append("init " + ", ".join(f"%init{i}" for i in range(n)))
        if p["form"] == "valid":
            opts.append("valid_lanes %n")
        m = k.mask_operand(p)
        if m:
            opts.append(m.strip())
        if p["form"] == "heads":
            opts.append("heads %f")
        types = p["types"] * (2 if p["total"] else 1)
        return region_op(f"{ys} = warp.scan", dict(p, result_types=", ".join(types)), xs, opts)

    def expect(self, p, d):
        fn = combiner(p)
        n = len(p["types"])
        vals = lambda l: tuple(d.ins[f"x{i}"][l] for i in range(n))
        outs = {f"y{i}": [None] * WARP for i in range(n)}
        if p["total"]:
            outs.update({f"z{i}": [None] * WARP for i in range(n)})
        if p["form"] == "heads":
            segs = model.flag_segments(d.exec, d.ins["f"], None, p["width"])
        elif p["form"] == "valid":
            live = d.exec & full_mask(d.uni["n"])
            segs = [[l for l in g if (live >> l) & 1] for g in cluster_groups(p["width"], 1)]
        else:
            segs = [[l for l in g if (d.exec >> l) & 1] for g in cluster_groups(p["width"], 1)]
        init = tuple(d.uni[f"init{i}"] for i in range(n)) if p["init"] else None
        ident = None if "region" in p else (model.identity_value(p["kind"], p["types"][0]),)
        for g in segs:
            if not g:
                continue
            xs = [vals(l) for l in g]
            total = model.fold(fn, xs)
            for pos, l in enumerate(g):
                part = xs[pos + (1 if p["exclusive"] else 0):] if p["reverse"] else \
                    xs[:pos + (0 if p["exclusive"] else 1)]
                if init is not None:
                    part = part + [init] if p["reverse"] else [init] + part
                val = model.fold(fn, part) if part else ident
                for i in range(n):
                    outs[f"y{i}"][l] = val[i]
                    if p["total"]:
                        outs[f"z{i}"][l] = total[i]
        return outs


class BlockCombineOp(Op):
    """warp.block_reduce and warp.block_scan: a kind or a combine region
    over the block's values (or `items`, vectors of a thread's N items),
    optionally in tiles; their operands are the combined values."""
    arithmetic = True
    block_level = True

    probe_forms = Op.items_kind_forms

    def gen(self, rng, ctx):
        """The op, its executing lanes, `items` (about 30%) and a combiner,
        then draw(p, rng, ctx)'s own parameters; None where no combiner
        fits."""
        p = dict(op=self.name, exec=list(ctx.existing))
        if ctx.wants_items(rng):
            p["items"] = True
        if not choose_combiner(p, self.name, rng, ctx, p.get("items", False)):
            return None
        return self.draw(p, rng, ctx)

    @staticmethod
    def tiles(ctx):
        """The tile sizes N (cooperative groups' tiled_partition<N>,
        64..512) that divide the block into at most 15 tiles."""
        return [n for n in (64, 128, 256, 512)
                if ctx.threads % n == 0 and ctx.threads // n <= 15]

    def operands(self, p):
        dom = "region_" + p["region"] if "region" in p else "block_" + domain_for(p.get("kind"))
        return [(f"x{i}", t, dom) for i, t in enumerate(p["types"])]


class BlockReduce(BlockCombineOp):
    name = "block_reduce"

    def draw(self, p, rng, ctx):
        items = p.get("items", False)
        # valid_threads %n (CUB's num_valid): none, or a count anywhere from
        # below 1 (counts as 1) through the block size to past it, constant
        # (at least 1: a smaller constant is a verifier error) or run-time.
        # Not with items (the verifier's rule: no partial tiles of items).
        p["valid"] = None
        if not items and rng.random() < 0.35:
            p["valid_dyn"] = rng.random() < 0.5
            low = -3 if p["valid_dyn"] else 1
            p["valid"] = rng.choice([rng.randint(low, ctx.threads + 40),
                                     rng.randint(1, min(ctx.threads, 64)),
                                     ctx.threads, 1])
        # tile N: each tile of N threads reduces on its own (its threads'
        # items too), about 25%.
        tiles = self.tiles(ctx)
        p["tile"] = rng.choice(tiles) if tiles and rng.random() < 0.25 else None
        # raking: not with valid_threads (the verifier's rule); with or
        # without tile and items; raking_commutative_only also only for a
        # kind or a commutative region (it reorders the combines).
        commutative = "kind" in p or ("region" in p and model.REGIONS[p["region"]]["commutative"])
        algorithms = [None, "warp_reductions"] + (
            ["raking"] + (["raking_commutative_only"] if commutative else [])
            if p["valid"] is None else [])
        p["algorithm"] = rng.choice(algorithms)
        p["threads"] = rng.choice(["all", "all", "first"])
        return p

    def uniforms(self, p):
        return ["n"] if p.get("valid") is not None and p["valid_dyn"] else []

    def uniform_value(self, p, name, rng, warp):
        return p["valid"]

    def results(self, p):
        # With items: one element of the combined type, not the vector.
        return [(f"y{i}", combined_type(p, i)) for i in range(len(p["types"]))]

    def mlir(self, p, k):
        n = len(p["types"])
        opts = []
        if p.get("valid") is not None:
            opts.append("valid_threads " + ("%n" if p["valid_dyn"] else k.const(p["valid"], "i32")))
        if p.get("threads", "all") != "all":
            opts.append(f"threads = <{p['threads']}>")
        if p["algorithm"]:
            opts.append(f"algorithm = <{p['algorithm']}>")
        if p.get("tile"):
            opts.append(f"tile {p['tile']}")
        return region_op(", ".join(f"%y{i}" for i in range(n)) + " = warp.block_reduce", p,
                         values_mlir(p), opts)

    def expect_block(self, p, d):
        fn = combiner(p)
        n = len(p["types"])
        # With tile N each tile of N threads is a block of its own.
        size = p.get("tile") or d.threads
        out = {f"y{i}": [] for i in range(n)}
        for start in range(0, d.threads, size):
            # Ranks 0 .. count-1 contribute: the count taken into [1, size].
            count = size if p.get("valid") is None else min(max(p["valid"], 1), size)
            # Each thread folds its items serially from the left (one value:
            # itself), then the threads' folds are combined in thread order.
            total = model.fold(fn, [model.fold(fn, thread_items(p, d, start + t))
                                    for t in range(count)])
            # threads = <first>: rank 0's result only (the others unspecified).
            holders = 1 if p.get("threads") == "first" else size
            for i in range(n):
                out[f"y{i}"] += [total[i]] * holders + [None] * (size - holders)
        return out


class BlockScan(BlockCombineOp):
    name = "block_scan"

    def draw(self, p, rng, ctx):
        # reverse (about 30%; not raking), tile N (about 20%), heads (a
        # segmented scan, about 30%: no init, prefix or totals).
        p["reverse"] = rng.random() < 0.3
        tiles = self.tiles(ctx)
        p["tile"] = rng.choice(tiles) if tiles and rng.random() < 0.2 else None
        p["heads"] = rng.random() < 0.3
        p["algorithm"] = rng.choice([None, "warp_scans"] + ([] if p["reverse"] else ["raking"]))
        p["init"] = not p["heads"] and rng.random() < 0.4
        # A prefix region instead of init (about 20%): it yields the block's
        # total, so every thread's prefix is the total of all the threads.
        p["prefix"] = not (p["init"] or p["heads"] or p["reverse"] or p["tile"]) and \
            rng.random() < 0.3
        p["exclusive"] = rng.random() < 0.5 and ("kind" in p or p["init"] or p["prefix"])
        p["total"] = not p["heads"] and rng.random() < 0.4
        return p

    def operands(self, p):
        ops_ = super().operands(p)
        if p.get("heads"):
            k = items_of(p)
            ops_.append(("f", f"vector<{k}xi1>" if k else "i1", "heads"))
        return ops_

    def uniforms(self, p):
        return [f"init{i}" for i in range(len(p["types"]))] if p["init"] else []

    def uniform_value(self, p, name, rng, warp):
        return ("payload_block", int(name[4:]))

    def results(self, p):
        # The scans have the values' types; the totals (and init) the
        # combined types (the element types with items).
        n = len(p["types"])
        r = [(f"y{i}", t) for i, t in enumerate(p["types"])]
        return r + ([(f"z{i}", combined_type(p, i)) for i in range(n)] if p["total"] else [])

    def mlir(self, p, k):
        n = len(p["types"])
        ys = [f"%y{i}" for i in range(n)] + ([f"%z{i}" for i in range(n)] if p["total"] else [])
        opts = (["exclusive"] if p["exclusive"] else []) + \
            (["reverse"] if p.get("reverse") else []) + \
            (["heads %f"] if p.get("heads") else []) + \
            (["init " + ", ".join(f"%init{i}" for i in range(n))] if p["init"] else []) + \
            ([f"algorithm = <{p['algorithm']}>"] if p["algorithm"] else []) + \
            ([f"tile {p['tile']}"] if p.get("tile") else [])
        rt = ", ".join(t for _, t in self.results(p))
        lines = region_op(", ".join(ys) + " = warp.block_scan", dict(p, result_types=rt),
                          values_mlir(p), opts)
        if p.get("prefix"):
            ts = [combined_type(p, i) for i in range(n)]
            lines[-1] += " prefix(" + ", ".join(f"%pt{i}: {t}" for i, t in enumerate(ts)) + ") {"
            lines += ["  warp.yield " + ", ".join(f"%pt{i}" for i in range(n)) + " : "
                      + ", ".join(ts), "}"]
        return lines

    def expect_block(self, p, d):
        """The definition's combine order: each thread folds its items
        serially from the left, the block scans the folds exclusively in
        thread order (init in front), and item j of thread t gets
        ((P_t op i_0) op i_1) ... op i_j (exclusive: up to i_(j-1); P_t
        itself for item 0; thread 0 without init starts from i_0 and its
        exclusive item 0 is the kind's identity). One value per thread is
        the case of one item."""
        if p.get("reverse") or p.get("tile") or p.get("heads"):
            return self.expect_positions(p, d)
        fn = combiner(p)
        n = len(p["types"])
        k = items_of(p)
        init = tuple(d.uni[f"init{i}"] for i in range(n)) if p["init"] else None
        if p.get("prefix"):  # the region yields the total of every item
            init = model.fold(fn, [model.fold(fn, thread_items(p, d, t))
                                   for t in range(d.threads)])
        ident = None if "region" in p else (model.identity_value(p["kind"], combined_type(p, 0)),)
        outs = {f"y{i}": [] for i in range(n)}
        folds = []
        prefix = init  # P_t: the exclusive block scan of the folds
        for t in range(d.threads):
            its = thread_items(p, d, t)
            run, vals = prefix, []
            for item in its:
                incl = item if run is None else fn(run, item)
                vals.append((run if run is not None else ident) if p["exclusive"] else incl)
                run = incl
            fold = model.fold(fn, its)
            folds.append(fold)
            prefix = fold if prefix is None else fn(prefix, fold)
            for i in range(n):
                outs[f"y{i}"].append(vals[0][i] if k is None else tuple(v[i] for v in vals))
        if p["total"]:  # every item's, without init
            total = model.fold(fn, folds)
            outs.update({f"z{i}": [total[i]] * d.threads for i in range(n)})
        return outs

    def expect_positions(self, p, d):
        """Reversed, tiled or segmented scans from the definition, position
        by position (a thread's items in order, then the next thread's):
        each tile of N threads (the block without `tile`) scans on its own,
        `init` in front (reversed: behind); a segment starts at the tile's
        first position and at each head, and position q of the segment
        [s, e) combines x_s .. x_q (exclusive: x_s .. x_{q-1}; reversed x_q
        .. x_{e-1} or x_{q+1} .. x_{e-1}), the kind's identity where nothing
        is left. The operands are exact in any combine order."""
        fn = combiner(p)
        n = len(p["types"])
        k = items_of(p)
        init = tuple(d.uni[f"init{i}"] for i in range(n)) if p["init"] else None
        ident = None if "region" in p else (model.identity_value(p["kind"], combined_type(p, 0)),)
        excl, rev = int(p["exclusive"]), p.get("reverse")
        outs = {f"y{i}": [] for i in range(n)}
        if p["total"]:
            outs.update({f"z{i}": [] for i in range(n)})
        size = p.get("tile") or d.threads
        for start in range(0, d.threads, size):
            threads = range(start, min(start + size, d.threads))
            pos = [item for t in threads for item in thread_items(p, d, t)]
            heads = [h for t in threads for h in self.thread_heads(p, d, t)]
            before = init
            if p.get("prefix"):  # the region yields the total of every item
                before = model.fold(fn, pos)
            starts = [q for q in range(len(pos)) if q == 0 or heads[q]]
            vals = [None] * len(pos)
            for s, e in zip(starts, starts[1:] + [len(pos)]):
                # One pass a segment, its running value the fold up to q
                # (reversed: from q, so the segment's end first).
                run = before
                for q in (range(e - 1, s - 1, -1) if rev else range(s, e)):
                    if excl:
                        vals[q] = ident if run is None else run
                    if run is None:
                        run = pos[q]
                    else:
                        run = fn(pos[q], run) if rev else fn(run, pos[q])
                    if not excl:
                        vals[q] = run
            per = k or 1
            for j, t in enumerate(threads):
                mine = vals[j * per:(j + 1) * per]
                for i in range(n):
                    outs[f"y{i}"].append(mine[0][i] if k is None else tuple(v[i] for v in mine))
            if p["total"]:  # the tile's, without init
                total = model.fold(fn, pos)
                for i in range(n):
                    outs[f"z{i}"] += [total[i]] * len(threads)
        return outs

    @staticmethod
    def thread_heads(p, d, t):
        """Thread t's head flags, one per item (all 0 without heads)."""
        k = items_of(p)
        if not p.get("heads"):
            return [0] * (k or 1)
        return list(d.ins["f"][t]) if k else [d.ins["f"][t]]


class BlockBroadcast(Op):
    name = "block_broadcast"
    block_level = True
    probe = "%r = warp.block_broadcast %x, %c1 : {T}"

    def gen(self, rng, ctx):
        return dict(op=self.name, exec=list(ctx.existing), type=ctx.type_for(self.name, rng),
                    dyn=rng.random() < 0.5, thread=rng.randrange(ctx.threads))

    def operands(self, p):
        return [("x", p["type"], "bits")]

    def uniforms(self, p):
        return ["src"] if p["dyn"] else []

    def uniform_value(self, p, name, rng, warp):
        return p["thread"]

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        src = "%src" if p["dyn"] else k.const(p["thread"], "i32")
        return [f"%r = warp.block_broadcast %x, {src} : {p['type']}"]

    def expect_block(self, p, d):
        return dict(r=[d.ins["x"][p["thread"]]] * d.threads)


class BlockShuffle(Op):
    """CUB's BlockShuffle: offset (own value and valid = 0 outside the
    block), rotate (mod B) and xor (t ^ d, own value and valid = 0 from B
    on), by a constant distance or one per thread."""
    name = "block_shuffle"
    block_level = True
    probe = "%r, %v = warp.block_shuffle <offset> %x, %c1 : {T}"

    def gen(self, rng, ctx):
        b = ctx.threads
        return dict(op=self.name, exec=list(ctx.existing), type=ctx.type_for(self.name, rng),
                    mode=rng.choice(["offset", "rotate", "xor"]), per_thread=rng.random() < 0.4,
                    distance=rng.choice([-1, 1, rng.randint(-b - 3, b + 3), rng.randint(-70, 70),
                                         rng.choice([2 ** 31 - 1, -2 ** 31])]))

    def operands(self, p):
        ops = [("x", p["type"], "bits")]
        if p["per_thread"]:
            ops.append(("d", "i32", "block_distance"))
        return ops

    def results(self, p):
        return [("r", p["type"]), ("v", "i1")]

    def mlir(self, p, k):
        d = "%d" if p["per_thread"] else k.const(p["distance"], "i32")
        return [f"%r, %v = warp.block_shuffle <{p['mode']}> %x, {d} : {p['type']}"]

    def expect_block(self, p, d):
        b, x = d.threads, d.ins["x"]
        r, v = [], []
        for t in range(b):
            dist = model.signed(d.ins["d"][t] & 0xFFFFFFFF, 32) if p["per_thread"] else p["distance"]
            if p["mode"] == "xor":  # the unsigned pattern: a negative d names no thread
                src = t ^ (dist & 0xFFFFFFFF)
            else:
                src = (t + dist) % b if p["mode"] == "rotate" else t + dist
            ok = 0 <= src < b
            r.append(x[src] if ok else x[t])
            v.append(int(ok))
        return dict(r=r, v=v)


def exchange_source(direction, g_out, n, units):
    """(unit, position) holding item g of the input arrangement, for the
    output position g_out = (unit, position) (units: 32 lanes or B threads)."""
    unit, pos = g_out
    if direction == "blocked_to_striped":
        g = unit + units * pos          # striped output
        return g // n, g % n            # blocked input
    g = unit * n + pos                  # blocked output
    return g % units, g // units        # striped input


EXCHANGE_ELEMS = ["i8", "i16", "f16", "bf16", "i32", "i64", "f32", "f64"]


class Exchange(Op):
    """warp.exchange: N items per lane, every lane of the warp executes."""
    name = "exchange"
    probe = "%r = warp.exchange <blocked_to_striped> %x : {T}"

    def gen(self, rng, ctx):
        elem = rng.choice(EXCHANGE_ELEMS)
        # Small buffers: the shared strategy sizes for 1024 threads.
        n = rng.choice([1, 2] if elem in ("i64", "f64") else [1, 2, 3, 4])
        t = f"vector<{n}x{elem}>"
        if t not in ctx.accepted(self.name):
            return None
        strategies = [None, "shared"] + (["shuffle"] if n & (n - 1) == 0 else [])
        return dict(op=self.name, type=t, exec=list(ctx.existing),
                    direction=rng.choice(["blocked_to_striped", "striped_to_blocked"]),
                    strategy=rng.choice(strategies))

    def operands(self, p):
        return [("x", p["type"], "bits")]

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        st = f" strategy = <{p['strategy']}>" if p["strategy"] else ""
        return [f"%r = warp.exchange <{p['direction']}> %x{st} : {p['type']}"]

    def expect(self, p, d):
        n = parse_type(p["type"])[1]
        r = [None] * WARP
        for lane in model.lanes_of(d.exec):
            items = []
            for q in range(n):
                src, pos = exchange_source(p["direction"], (lane, q), n, WARP)
                # Items of lanes a ragged warp lacks are undefined.
                items.append(d.ins["x"][src][pos] if (d.exec >> src) & 1 else None)
            r[lane] = items
        return dict(r=r)


class ScatterProbe(str):
    """warp.scatter's probe line: its ranks are a vector of as many i32 as
    the payload has items (a scalar payload gets one rank, which the
    verifier must reject)."""

    def format(self, T):
        n = parse_type(T)[1] or 1
        return (f"%k = arith.constant dense<0> : vector<{n}xi32>\n    "
                f"%r = warp.{self} %x, %k : {T}, vector<{n}xi32>")


def scatter_ranks(rng, p, positions):
    """A scatter's ranks for one warp (or block): a permutation of its
    positions, with `drops` a few of them replaced by ranks outside (whose
    items are dropped, and whose positions nobody names)."""
    ranks = list(range(positions))
    rng.shuffle(ranks)
    if p["drops"]:
        for i in rng.sample(range(positions), min(positions, rng.randint(1, 4))):
            ranks[i] = rng.choice([-1, positions, positions + 7, -2 ** 31, 2 ** 31 - 1])
    return ranks


def scattered(p, units, lanes, x, k, flags=None):
    """The result of a scatter of `units` lanes or threads (those in
    `lanes` hold items `x`, ranks `k` and, where given, `flags`): per unit
    its N positions' items, None where no item was placed."""
    n = parse_type(p["type"])[1]
    placed = {}
    for u in lanes:
        for j in range(n):
            g = model.signed(k[u][j] & 0xFFFFFFFF, 32)
            if 0 <= g < units * n and (flags is None or flags[u][j]):
                placed[g] = x[u][j]
    return [[placed.get(u + units * q if p["striped"] else u * n + q) for q in range(n)]
            for u in range(units)]


class Scatter(Op):
    """warp.scatter (CUB's WarpExchange::ScatterToBlocked/Striped): each
    lane's N items to the warp positions their ranks name; ranks a
    permutation of the positions, or with a few outside (dropped items,
    unnamed positions undefined); a ragged warp's missing lanes name
    nothing."""
    name = "scatter"
    probe = ScatterProbe("scatter")

    def gen(self, rng, ctx):
        elem = rng.choice(EXCHANGE_ELEMS)
        n = rng.choice([1, 2, 3, 4])
        t = f"vector<{n}x{elem}>"
        if t not in ctx.accepted(self.name):
            return None
        return dict(op=self.name, type=t, exec=list(ctx.existing), striped=rng.random() < 0.5,
                    drops=rng.random() < 0.3)

    def operands(self, p):
        n = parse_type(p["type"])[1]
        return [("x", p["type"], "bits"), ("k", f"vector<{n}xi32>", "ranks")]

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        n = parse_type(p["type"])[1]
        striped = " striped" if p["striped"] else ""
        return [f"%r = warp.scatter %x, %k{striped} : {p['type']}, vector<{n}xi32>"]

    def expect(self, p, d):
        lanes = model.lanes_of(d.exec)
        r = scattered(p, WARP, lanes, d.ins["x"], d.ins["k"])
        return dict(r=[r[lane] if lane in lanes else None for lane in range(WARP)])


class BlockExchange(Op):
    name = "block_exchange"
    block_level = True
    probe = "%r = warp.block_exchange <blocked_to_striped> %x : {T}"

    operands = Exchange.operands
    results = Exchange.results

    def gen(self, rng, ctx):
        p = Exchange.gen(self, rng, ctx)
        if p:
            p.pop("strategy")
        return p

    def mlir(self, p, k):
        return [f"%r = warp.block_exchange <{p['direction']}> %x : {p['type']}"]

    def expect_block(self, p, d):
        n = parse_type(p["type"])[1]
        r = []
        for t in range(d.threads):
            r.append([d.ins["x"][src][pos] for src, pos in
                      (exchange_source(p["direction"], (t, q), n, d.threads) for q in range(n))])
        return dict(r=r)


class BlockScatter(Op):
    """warp.block_scatter (CUB's BlockExchange::ScatterToBlocked/Striped,
    and with `flags` ScatterToStripedFlagged) over the block's B*N
    positions, ranks as for warp.scatter; flagged items (about 3 in 4)
    only, where the op has flags."""
    name = "block_scatter"
    block_level = True
    probe = ScatterProbe("block_scatter")

    results = Scatter.results

    def gen(self, rng, ctx):
        p = Scatter.gen(self, rng, ctx)
        if p:
            p["op"], p["flagged"] = self.name, rng.random() < 0.4
        return p

    def operands(self, p):
        n = parse_type(p["type"])[1]
        return Scatter.operands(self, p) + ([("f", f"vector<{n}xi1>", "item_flags")]
                                            if p["flagged"] else [])

    def mlir(self, p, k):
        n = parse_type(p["type"])[1]
        striped = " striped" if p["striped"] else ""
        if not p["flagged"]:
            return [f"%r = warp.block_scatter %x, %k{striped} : {p['type']}, vector<{n}xi32>"]
        return [f"%r = warp.block_scatter %x, %k flags %f{striped} : {p['type']}, "
                f"vector<{n}xi32>, vector<{n}xi1>"]

    def expect_block(self, p, d):
        return dict(r=scattered(p, d.threads, range(d.threads), d.ins["x"], d.ins["k"],
                                d.ins["f"] if p["flagged"] else None))


class BlockShift(Op):
    """warp.block_shift (CUB's BlockShuffle::Up/Down of N items a thread):
    the block's items in blocked order shifted by one position; the edge
    thread keeps its own item there; the block's last (up) or first (down)
    item to every thread."""
    name = "block_shift"
    block_level = True
    probe = "%r, %e = warp.block_shift <up> %x : {T}"

    def gen(self, rng, ctx):
        t = ctx.type_for(self.name, rng)
        if t is None:
            return None
        return dict(op=self.name, exec=list(ctx.existing), type=t,
                    direction=rng.choice(["up", "down"]))

    def operands(self, p):
        return [("x", p["type"], "bits")]

    def results(self, p):
        return [("r", p["type"]), ("e", parse_type(p["type"])[0])]

    def mlir(self, p, k):
        return [f"%r, %e = warp.block_shift <{p['direction']}> %x : {p['type']}"]

    def expect_block(self, p, d):
        x, b = d.ins["x"], d.threads
        flat = [item for t in range(b) for item in x[t]]
        n = len(x[0])
        if p["direction"] == "up":
            shifted = [flat[0]] + flat[:-1]
            edge = flat[-1]
        else:
            shifted = flat[1:] + [flat[-1]]
            edge = flat[0]
        return dict(r=[shifted[t * n:(t + 1) * n] for t in range(b)], e=[edge] * b)


ELEM_BYTES = {"i8": 1, "i16": 2, "f16": 2, "bf16": 2, "i32": 4, "f32": 4, "i64": 8, "f64": 8}
# warp.merge_sort's compare regions: (predicate, cmpi or cmpf, descending,
# signed) per element kind.
SORT_ORDERS = {"int": [("slt", False, True), ("ult", False, False),
                       ("sgt", True, True), ("ugt", True, False)],
               "float": [("olt", False, None), ("ogt", True, None)]}


class SortProbe(str):
    """A merge sort's probe line (the string: the op's name): its compare
    region needs the element type of the payload type the probe tries."""

    def format(self, T):
        elem = parse_type(T)[0]
        cmp = "arith.cmpf olt" if is_float(elem) else "arith.cmpi slt"
        return (f"%r = warp.{self} %x : {T} compare(%a: {elem}, %b: {elem}) "
                f"{{ %lt = {cmp}, %a, %b : {elem} warp.yield %lt : i1 }}")


def sort_order(rng, elem):
    """(predicate, descending, signed) of a random compare region."""
    return rng.choice(SORT_ORDERS["float" if is_float(elem) else "int"])


def sort_lines(p, op):
    """A merge sort of p's keys (and values) by p's predicate: %r (and %s)."""
    elem = parse_type(p["type"])[0]
    pairs = bool(p["values"])
    head = f"%r, %s = warp.{op} %x, %v" if pairs else f"%r = warp.{op} %x"
    width = f" width {p['width']}" if p.get("width", 32) != 32 else ""
    types = p["type"] + (f", {p['values']}" if pairs else "")
    cmp = "arith.cmpf" if is_float(elem) else "arith.cmpi"
    return [f"{head}{width} : {types} compare(%ka: {elem}, %kb: {elem}) {{",
            f"  %klt = {cmp} {p['pred']}, %ka, %kb : {elem}",
            "  warp.yield %klt : i1",
            "}"]


def stable_sorted(p, items):
    """(key, value) items sorted stably by p's order (also when
    descending: equal keys keep their order)."""
    elem = parse_type(p["type"])[0]
    if is_float(elem):
        key = float
    elif p["signed"]:
        key = lambda v: model.signed(int(v), model.INT_BITS[elem])  # noqa: E731
    else:
        key = int
    return sorted(items, key=lambda kv: key(kv[0]), reverse=p["descending"])


class SortOp(Op):
    """A merge sort's keys (and values) in, sorted out, by a compare region."""

    def operands(self, p):
        return [("x", p["type"], "order")] + ([("v", p["values"], "bits")] if p["values"] else [])

    def results(self, p):
        return [("r", p["type"])] + ([("s", p["values"])] if p["values"] else [])

    def mlir(self, p, k):
        return sort_lines(p, self.name)


class MergeSort(SortOp):
    """warp.merge_sort: N keys per lane (and as many values), sorted stably
    across each logical warp of `width` lanes, blocked in and out."""
    name = "merge_sort"
    probe = SortProbe("merge_sort")

    def gen(self, rng, ctx):
        # Every lane of the warp; a ragged warp's results are undefined.
        if any(e != 0xFFFFFFFF for e in ctx.existing):
            return None
        t = ctx.type_for(self.name, rng)
        if t is None:
            return None
        elem = parse_type(t)[0]
        pred, descending, signed = sort_order(rng, elem)
        # Values whose buffer, with the keys', fits the static shared memory
        # for 1024 threads (the expansion sizes it so without
        # known_block_size): 32 warps of 32 x N keys and values.
        n = parse_type(t)[1]
        fits = [v for v in EXCHANGE_ELEMS if n * (ELEM_BYTES[elem] + ELEM_BYTES[v]) <= 40]
        values = None
        if fits and rng.random() < 0.5:
            values = f"vector<{n}x{rng.choice(fits)}>"
        return dict(op=self.name, type=t, values=values, exec=list(ctx.existing),
                    width=rng.choice(POW2), pred=pred, descending=descending, signed=signed)

    def expect(self, p, d):
        n = parse_type(p["type"])[1]
        w = p["width"]
        out = {"r": [None] * WARP}
        if p["values"]:
            out["s"] = [None] * WARP
        for first in range(0, WARP, w):
            lanes = range(first, first + w)
            items = stable_sorted(p, [(d.ins["x"][l][j], d.ins["v"][l][j] if p["values"] else None)
                                      for l in lanes for j in range(n)])
            for i, l in enumerate(lanes):
                mine = items[i * n:(i + 1) * n]
                out["r"][l] = [kv[0] for kv in mine]
                if p["values"]:
                    out["s"][l] = [kv[1] for kv in mine]
        return out


def merge_sort_part_bytes(elem, items):
    """A merge sort buffer's part of `items` elem items (WarpDialect.h:
    16 bytes before, one item after, rounded up to 16)."""
    size = ELEM_BYTES[elem]
    return -(-((max(1, 16 // size) + items + 1) * size) // 16) * 16


class BlockMergeSort(SortOp):
    """warp.block_merge_sort: N keys per thread (and as many values), sorted
    stably across the block (any thread count), blocked in and out."""
    name = "block_merge_sort"
    block_level = True
    needs_known_block = True
    probe = SortProbe("block_merge_sort")

    def gen(self, rng, ctx):
        t = ctx.type_for(self.name, rng)
        if t is None:
            return None
        elem, n = parse_type(t)
        items = ctx.threads * n
        # The verifier's limit: keys (and values) within 48 KiB.
        room = 48 * 1024 - merge_sort_part_bytes(elem, items)
        if room < 0:
            return None
        fits = [v for v in EXCHANGE_ELEMS if merge_sort_part_bytes(v, items) <= room]
        values = None
        if fits and rng.random() < 0.5:
            values = f"vector<{n}x{rng.choice(fits)}>"
        pred, descending, signed = sort_order(rng, elem)
        return dict(op=self.name, type=t, values=values, exec=list(ctx.existing),
                    pred=pred, descending=descending, signed=signed)

    def expect_block(self, p, d):
        n = parse_type(p["type"])[1]
        items = stable_sorted(p, [(d.ins["x"][t][j], d.ins["v"][t][j] if p["values"] else None)
                                  for t in range(d.threads) for j in range(n)])
        out = {"r": [[kv[0] for kv in items[t * n:(t + 1) * n]] for t in range(d.threads)]}
        if p["values"]:
            out["s"] = [[kv[1] for kv in items[t * n:(t + 1) * n]] for t in range(d.threads)]
        return out


# warp.block_radix_sort / block_radix_rank: the unsigned image of a key
# (integers as they are, `signed` with the sign bit flipped; floats with
# every bit flipped when negative, else the sign bit), its digit or sort
# key bits [b0, b1), and which rankings fit the 48 KiB of static shared
# memory (WarpDialect.cpp's getRadixLayout, written again from its rule,
# with a margin for the alignment of the module's other buffers).
RANKINGS = ["grid", "match", "registers", "match_early"]
SHARED_BYTES = 48 * 1024 - 256


def radix_image(elem, v, signed):
    width = model.INT_BITS[elem] if not is_float(elem) else ELEM_BYTES[elem] * 8
    b, top = model.bits(elem, v), 1 << (width - 1)
    if is_float(elem):
        return (~b & ((1 << width) - 1)) if b & top else b | top
    return b ^ top if signed else b


def radix_layout_bytes(threads, n, key_bytes, value_bytes, radix_bits, early=False):
    """{ranking: its workgroup bytes (None: it cannot run)} of one sort or
    ranking (key_bytes 0: a ranking, no buffers) in a known block; `early`:
    a ranking of warp-striped keys, which match_early can take."""
    items = threads * n

    def buffer(size):
        return (items + (items - 1) // (128 // size)) * size if size else 0

    def up(x):
        return -(-x // 16) * 16

    keys, values = buffer(key_bytes), buffer(value_bytes)
    lanes = max(1, (1 << radix_bits) // 2)
    scratch = [2 * 66 * w * 4 for w in range(9)]
    grid = (lanes + 1) * threads * 4
    separate = up(keys) + up(values) + up(grid) + up(scratch[1])
    union = up(max(keys, values, grid)) + up(scratch[1])
    match = None
    if threads % WARP == 0 and n & (n - 1) == 0 and n <= 32:
        match = up(keys) + up(values) + up((lanes + 1) * (threads // WARP) * 4) + up(scratch[1])
    # match_early: a row of the digits a warp and one of their starts.
    early_bytes = None
    if early and threads % WARP == 0:
        early_bytes = up((threads // WARP + 1) * (1 << radix_bits) * 4) + up(scratch[1])
    return {"grid": separate if separate <= SHARED_BYTES else union, "match": match,
            "registers": keys + values + scratch[min(lanes, 8)], "match_early": early_bytes}


def radix_ranking(rng, threads, n, key_bytes, value_bytes, radix_bits, early=False):
    """A `ranking` for the op (None: the compiler's), or False where no
    ranking fits."""
    fits = [r for r, size in radix_layout_bytes(threads, n, key_bytes, value_bytes,
                                                 radix_bits, early).items()
            if size is not None and size <= SHARED_BYTES]
    if not fits:
        return False
    return None if rng.random() < 0.4 else rng.choice(fits)


def radix_attrs(p):
    """The attributes' text, in the ops' order."""
    out = ""
    if p["descending"]:
        out += " descending"
    if p["signed"]:
        out += " signed"
    if p.get("bits"):
        out += f" bits {p['bits'][0]} to {p['bits'][1]}"
    if p.get("striped"):
        out += " striped"
    if p.get("radix_bits"):
        out += f" radix_bits = {p['radix_bits']}"
    if p.get("warp_striped"):
        out += " warp_striped"
    if p["ranking"]:
        out += f" ranking = <{p['ranking']}>"
    return out


def radix_key_bits(p, elem, v, bits):
    width = model.INT_BITS[elem] if not is_float(elem) else ELEM_BYTES[elem] * 8
    b0, b1 = bits or (0, width)
    return (radix_image(elem, v, p["signed"]) >> b0) & ((1 << (b1 - b0)) - 1)


def radix_order(p, elem, keys, bits):
    """The stable order (indices) of `keys` by their bits [b0, b1),
    descending when p says."""
    k = [radix_key_bits(p, elem, v, bits) for v in keys]
    return sorted(range(len(k)), key=lambda i: -k[i] if p["descending"] else k[i])


def warp_striped_position(threads, n, t, j):
    """The block position of thread t's item j in the warp-striped
    arrangement (CUB's LoadDirectWarpStriped): lane l of warp w, a warp of
    L threads (fewer in a ragged last warp), holds 32 w N + l + L j."""
    w, lane = divmod(t, WARP)
    return WARP * w * n + lane + min(WARP, threads - WARP * w) * j


class RadixOp(Op):
    """A block radix sort or ranking: a known block (the rankings that fit
    depend on it), at most 65535 keys."""
    block_level = True
    needs_known_block = True

    def gen(self, rng, ctx):
        """draw(rng, ctx, type, element, N, bits of the element) for keys
        the verifier accepts, or None."""
        t = ctx.type_for(self.name, rng)
        if t is None:
            return None
        elem, n = parse_type(t)
        # Blocks of up to 256 threads (96 and more already take every
        # ranking), so that the simulator's time stays in the CI budget.
        if n is None or ctx.threads > 256:
            return None
        return self.draw(rng, ctx, t, elem, n, ELEM_BYTES[elem] * 8)

    def mlir(self, p, k):
        """`%r[, %<second>] = warp.<op> %x[, %v] <attributes> : <types>`:
        the second result and its type from second(p)."""
        second = self.second(p)
        results = "%r, %" + second[0] if second else "%r"
        operands = "%x, %v" if p.get("values") else "%x"
        types = p["type"] + (f", {second[1]}" if second else "")
        return [f"{results} = warp.{self.name} {operands}{radix_attrs(p)} : {types}"]

    def block_keys(self, p, d):
        """(element, N, the block's keys in blocked order)."""
        elem, n = parse_type(p["type"])
        return elem, n, [d.ins["x"][t][j] for t in range(d.threads) for j in range(n)]


class BlockRadixSort(RadixOp):
    """warp.block_radix_sort: N keys per thread (and as many values),
    sorted stably by their images' bits across the block, blocked in and
    blocked or striped out, every ranking the compiler has."""
    name = "block_radix_sort"
    probe = "%r = warp.block_radix_sort %x : {T}"

    def draw(self, rng, ctx, t, elem, n, width):
        bits = None
        if rng.random() < 0.3:
            b0 = rng.randrange(width)
            bits = (b0, rng.randint(b0 + 1, width))
        span = (bits[1] - bits[0]) if bits else width
        # At most 8 passes (the simulator's time).
        radix_bits = rng.choice([None, None] * (span <= 32) +
                                [r for r in (1, 3, 4, 5, 8) if -(-span // r) <= 8])
        digit_bits = radix_bits or min(4, span)
        values = rng.choice([None] + EXCHANGE_ELEMS)
        ranking = radix_ranking(rng, ctx.threads, n, ELEM_BYTES[elem],
                                ELEM_BYTES[values] if values else 0, digit_bits)
        if ranking is False:
            values = None
            ranking = radix_ranking(rng, ctx.threads, n, ELEM_BYTES[elem], 0, digit_bits)
            if ranking is False:
                return None
        return dict(op=self.name, type=t, exec=list(ctx.existing), bits=bits,
                    radix_bits=radix_bits, ranking=ranking,
                    values=f"vector<{n}x{values}>" if values else None,
                    descending=rng.random() < 0.5,
                    signed=not is_float(elem) and rng.random() < 0.5,
                    striped=rng.random() < 0.3, keys=rng.choice(["order", "bits"]))

    def operands(self, p):
        return [("x", p["type"], p["keys"])] + ([("v", p["values"], "bits")] if p["values"] else [])

    def results(self, p):
        return [("r", p["type"])] + ([self.second(p)] if p["values"] else [])

    def second(self, p):
        return ("s", p["values"]) if p["values"] else None

    def expect_block(self, p, d):
        elem, n, keys = self.block_keys(p, d)
        b = d.threads
        order = radix_order(p, elem, keys, p["bits"])
        # Rank i goes to thread i // N, item i % N (blocked) or thread
        # i % B, item i // B (striped).
        where = (lambda i: (i % b, i // b)) if p["striped"] else (lambda i: (i // n, i % n))
        out = {"r": [[None] * n for _ in range(b)]}
        if p["values"]:
            values = [d.ins["v"][t][j] for t in range(b) for j in range(n)]
            out["s"] = [[None] * n for _ in range(b)]
        for rank, i in enumerate(order):
            t, j = where(rank)
            out["r"][t][j] = keys[i]
            if p["values"]:
                out["s"][t][j] = values[i]
        return out




class BlockRadixRank(RadixOp):
    """warp.block_radix_rank: each key's rank in the block's stable order
    by the digit bits [b0, b0 + R) of its image (keys blocked, or with
    `warp_striped` warp-striped: stable in that arrangement's position
    order), and the exclusive digit prefix, every ranking the compiler
    has; match_early's counts region (CUB's counts callback) stores the
    thread's bins' counts in a private slot, loaded after the op as a
    third result."""
    name = "block_radix_rank"
    probe = "%r = warp.block_radix_rank %x bits 0 to 1 : {T}"

    def draw(self, rng, ctx, t, elem, n, width):
        r = rng.randint(1, min(8, width))
        b0 = rng.randrange(width - r + 1)
        warp_striped = rng.random() < 0.4
        ranking = radix_ranking(rng, ctx.threads, n, 0, 0, r, early=warp_striped)
        if ranking is False:
            return None
        bins = max(1, -(-(1 << r) // ctx.threads))
        prefix = bins if rng.random() < 0.5 else None
        counts = bins if ranking == "match_early" and rng.random() < 0.75 else None
        return dict(op=self.name, type=t, exec=list(ctx.existing), bits=(b0, b0 + r),
                    ranking=ranking, prefix=prefix, counts=counts, descending=rng.random() < 0.5,
                    signed=not is_float(elem) and rng.random() < 0.5,
                    keys=rng.choice(["order", "bits"]), warp_striped=warp_striped)

    def operands(self, p):
        return [("x", p["type"], p["keys"])]

    def results(self, p):
        n = parse_type(p["type"])[1]
        counts = [("c", f"vector<{p['counts']}xi32>")] if p.get("counts") else []
        return [("r", f"vector<{n}xi32>")] + ([self.second(p)] if p["prefix"] else []) + counts

    def second(self, p):
        return ("q", f"vector<{p['prefix']}xi32>") if p["prefix"] else None

    def mlir(self, p, k):
        lines = super().mlir(p, k)
        if not p.get("counts"):
            return lines
        t = f"vector<{p['counts']}xi32>"
        slot = f"memref<{p['counts']}xi32>"
        return ["%c_zero = arith.constant 0 : index", f"%c_slot = memref.alloca() : {slot}",
                lines[0] + f" counts(%c_bins: {t}) {{",
                f"  vector.store %c_bins, %c_slot[%c_zero] : {slot}, {t}",
                "  warp.yield", "}", f"%c = vector.load %c_slot[%c_zero] : {slot}, {t}"]

    def expect_block(self, p, d):
        elem, n, keys = self.block_keys(p, d)
        b = d.threads
        # The block position of thread t's item j: blocked t N + j, or
        # warp-striped; the ranks are stable in position order.
        if p.get("warp_striped"):
            where = [warp_striped_position(b, n, t, j) for t in range(b) for j in range(n)]
        else:
            where = list(range(b * n))
        by_position = [None] * len(keys)
        for i, g in enumerate(where):
            by_position[g] = keys[i]
        ranks = [0] * len(keys)
        for rank, g in enumerate(radix_order(p, elem, by_position, p["bits"])):
            ranks[g] = rank
        out = {"r": [[ranks[where[t * n + j]] for j in range(n)] for t in range(b)]}
        digits = [radix_key_bits(p, elem, v, p["bits"]) for v in keys]
        radix = 1 << (p["bits"][1] - p["bits"][0])
        if p["prefix"]:
            m = p["prefix"]
            bins = [sum(1 for g in digits if (g > c if p["descending"] else g < c))
                    if c < radix else 0 for c in range(b * m)]
            out["q"] = [bins[t * m:(t + 1) * m] for t in range(b)]
        if p.get("counts"):
            m = p["counts"]
            # Bin c counts the c-th digit in rank order.
            counts = [digits.count(radix - 1 - c if p["descending"] else c)
                      if c < radix else 0 for c in range(b * m)]
            out["c"] = [counts[t * m:(t + 1) * m] for t in range(b)]
        return out


class AtomicRMW(Op):
    """warp.atomic_rmw of every atomic kind into bins of the warp's own (one
    or a few bins per warp, so the old values are defined: the warp's lanes
    in lane order)."""
    name = "atomic_rmw"
    probe = None

    def probe_forms(self):
        """One form per atomic kind (the lane atomic's too)."""
        return [(f"{self.name}_{k}",
                 f"%r = warp.{self.name} <{k}> %x, %m[%i] : {{T}}, memref<?x{{T}}>")
                for k in ALL_ATOMIC_KINDS]

    def draw_kind(self, rng, ctx):
        """The kind (forced, or one the verifier accepts), its type and the
        executing lanes (the lane atomic's too)."""
        if ctx.force and ctx.force[1]:
            kind = ctx.force[1]
        else:
            kind = rng.choice([k for k in ALL_ATOMIC_KINDS if ctx.accepted(f"{self.name}_{k}")])
        t = ctx.type_for(f"{self.name}_{kind}", rng)
        ex = some_lanes(rng, ctx.existing)
        return kind, t, ex

    def gen(self, rng, ctx):
        kind, t, ex = self.draw_kind(rng, ctx)
        # Without a mask the member set is the executing lanes (activemask).
        mask = "implicit" if rng.random() < 0.5 else ctx.mask_form(rng, ex, allow_implicit=False)
        return dict(op=self.name, kind=kind, type=t, exec=ex, keys=rng.choice(["few", "same"]),
                    bins=rng.choice([1, 2, 4]), mask=mask)

    def operands(self, p):
        return [("x", p["type"], "add" if is_float(p["type"]) else "bits"), ("a", "i32", "addr")]

    def memory(self, p):
        return [("mem", p["type"])]

    def memory_size(self, p, grid, threads):
        return grid * len(p["exec"]) * p["bins"]  # the bins of each warp

    def memory_value(self, rng, elem):
        return payload_value(rng, elem, "small" if not is_float(elem) else "add"), False

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        m = k.mask_operand(p)
        t = p["type"]
        return ["%ai = arith.index_cast %a : i32 to index",
                f"%r = warp.atomic_rmw <{p['kind']}> %x, {p['_mem']}[%ai]{m} : {t}, memref<?x{t}>"]

    def uniforms(self, p):
        return []

    def expect(self, p, d):
        # d.ins: this warp's lanes; the model's memory runs from the start.
        mem = list(d.mem)
        r = [None] * WARP
        for lane in model.lanes_of(d.exec):
            a = d.ins["a"][lane]
            r[lane] = mem[a]
            mem[a] = model.atomic_combine(p["kind"], mem[a], d.ins["x"][lane], p["type"])
        return dict(r=r)

    def serialize(self, p, d, got_is):
        """Without a mask the members are the lanes that run together
        (activemask), which the schedule may split into several groups, each
        with its atomic, in either order: every lane's old value is then
        that of one serialization in which each group's lanes come in lane
        order. Follows the chain of old values the run shows (the next lane
        is the one whose result is the running value) and expects the
        lane-order result where it breaks."""
        if p["mask"] != "implicit":
            return self.expect(p, d)
        mem = list(d.mem)
        r = [None] * WARP
        lanes = model.lanes_of(d.exec)
        for a in sorted({d.ins["a"][lane] for lane in lanes}):
            left = [lane for lane in lanes if d.ins["a"][lane] == a]
            while left:
                lane = next((l for l in left if got_is("r", l, mem[a])), left[0])
                left.remove(lane)
                r[lane] = mem[a]
                mem[a] = model.atomic_combine(p["kind"], mem[a], d.ins["x"][lane], p["type"])
        return dict(r=r)

    def expect_memory(self, p, data, total, threads):
        mem = list(data["mem"])
        reps = len(data["ins"]["a"]) // total
        for r in range(reps):
            for g in range(total):
                t = g % threads
                if (p["exec"][t // WARP] >> (t % WARP)) & 1:
                    a = data["ins"]["a"][r * total + g]
                    mem[a] = model.atomic_combine(p["kind"], mem[a],
                                                  data["ins"]["x"][r * total + g], p["type"])
        return mem



class BlockBallot(Op):
    """warp.block_ballot (cooperative groups' tile.ballot of more than 32
    threads): the block's (or with `tile N` the thread's tile's) predicates
    as W 32-bit words, bit i of word w the rank 32 w + i, 0 past the block;
    every thread gets the whole mask. W is ceil(B / 32) of the known block
    (the verifier wants known_block_size without a tile), N / 32 with one."""
    name = "block_ballot"
    block_level = True

    def probe_forms(self):
        return []

    def gen(self, rng, ctx):
        # tile N as block_reduce's: N dividing the block into at most 15 tiles.
        tiles = [n for n in (64, 128, 256, 512)
                 if ctx.threads % n == 0 and ctx.threads // n <= 15]
        tile = rng.choice(tiles) if tiles and rng.random() < 0.5 else None
        return dict(op=self.name, exec=list(ctx.existing), tile=tile,
                    words=tile // WARP if tile else -(-ctx.threads // WARP),
                    known_block=tile is None, preds=rng.choice(["pred", "pred_rare", "pred_most"]))

    def operands(self, p):
        return [("p", "i1", p.get("preds", "pred"))]

    def results(self, p):
        return [("r", f"vector<{p['words']}xi32>")]

    def mlir(self, p, k):
        tile = f" tile {p['tile']}" if p["tile"] else ""
        return [f"%r = warp.block_ballot %p{tile} : vector<{p['words']}xi32>"]

    def expect_block(self, p, d):
        size = p["tile"] or d.threads
        out = []
        for t in range(d.threads):
            first = t - t % size  # the thread's tile (the block without one)
            out.append([sum(d.ins["p"][first + 32 * w + i] << i for i in range(WARP)
                            if 32 * w + i < size and first + 32 * w + i < d.threads)
                        for w in range(p["words"])])
        return dict(r=out)


# ----------------------------------------------------------------------------
# Tile loads and stores: warp.block_load/block_store (CUB's BlockLoad and
# BlockStore) and warp.load/store (WarpLoad/WarpStore, logical warps of
# `width` lanes). Each tile (the block's, or a logical warp's) lies at its
# own run-time offset in a region of its own of a global memref, with
# untouched room around it; memory is checked after the launch.
# ----------------------------------------------------------------------------

TILE_ALGORITHMS = [None, "direct", "vectorize", "transpose", "warp_transpose"]
TILE_SAMPLE = "vector<2xi32>"


def tile_form(op, algorithm, striped, valid, narrow=False):
    """The probe form `<op>.<algorithm or auto>[.striped][.valid][.w8]`:
    the verifier decides which items types take the algorithm, and which
    option combinations it takes (over TILE_SAMPLE)."""
    return ".".join([op, algorithm or "auto"] + ["striped"] * striped + ["valid"] * valid +
                    ["w8"] * narrow)


def is_tile_form(form):
    """A tile load's or store's form: its items (vectors of a type a memref
    holds) have no row in docs/Preconditions.md's payload table."""
    return "." in form


class TileProbe(str):
    """A tile op's probe line ({T}: the items type, {E} its element type):
    a memref of the element type of its own, `default` an element of %x."""

    def format(self, T):
        elem = parse_type(T)[0]
        return (f"%mm = memref.alloc(%i) : memref<?x{elem}>\n    "
                f"%d = vector.extract %x[0] : {elem} from {T}\n    " +
                str.format(self, T=T, E=elem))


def tile_shape(p, threads):
    """(unit, region, groups): the tile's threads or lanes (B, or the
    logical warp's w), the elements of memory each tile has to itself
    (the tile and room around it, a multiple of 32), and the tiles per
    block."""
    n = parse_type(p["type"])[1]
    unit = p["width"] if p["warp"] else threads
    region = -(-(unit * n + 2 * n + 9) // 32) * 32
    groups = len(p["exec"]) * (WARP // p["width"]) if p["warp"] else 1
    return unit, region, groups


def tile_operand(rng, p, what, warp, lane, threads):
    """A tile's offset, valid count or default (the same in every thread
    of the tile, drawn once per tile; `valid` anywhere from -1 past the
    tile's items): raw bits."""
    unit, region, groups = tile_shape(p, threads)
    g = warp * (WARP // p["width"]) + lane // p["width"] if p["warp"] else 0
    r, blk = p["_where"]
    key = (r, blk, g)
    if key not in p["_tiles"]:
        elem, n = parse_type(p["type"])
        items = unit * n
        base = ((r * p["_grid"] + blk) * groups + g) * region
        shift = rng.choice([0, n, 2 * n, rng.randint(0, region - items)])
        valid = rng.choice([rng.randint(0, items), rng.randint(0, items), items, items - 1,
                            1, 0, -1, items + rng.randint(1, 40)])
        p["_tiles"][key] = dict(offset=base + shift, valid=valid & 0xFFFFFFFF,
                                fill=rng.getrandbits(ELEM_BYTES[elem] * 8))
    return p["_tiles"][key][what]


class TileOp(Op):
    """A tile load or store: N items a thread (vector<N x T>, T of a
    memref), blocked or `striped` (block ops also `warp_striped`),
    `valid %n` (loads: `default %d`), every `algorithm` the verifier
    accepts for the combination (probed), the compiler's choice among
    them when absent."""
    store = False
    warp = False

    def probe_forms(self):
        forms = []
        for alg in TILE_ALGORITHMS:
            for striped in (False, True):
                for valid in (False, True):
                    for narrow in ((False, True) if self.warp else (False,)):
                        forms.append((tile_form(self.name, alg, striped, valid, narrow),
                                      TileProbe(self.probe_line(alg, striped, valid, narrow))))
        return forms

    def probe_line(self, alg, striped, valid, narrow):
        opts = (" width 8" if narrow else "") + (" valid %c1" if valid else "") + \
            (" default %d" if valid and not self.store else "") + \
            (" striped" if striped else "") + (f" algorithm = <{alg}>" if alg else "")
        if self.store:
            return f"warp.{self.name} %x, %mm[%i]{opts} : {{T}}, memref<?x{{E}}>"
        return f"%r = warp.{self.name} %mm[%i]{opts} : memref<?x{{E}}>, {{T}}"

    # The probes (and only they) have a known block of one warp: what
    # warp_transpose needs; the generator adds that rule's block itself.
    probe_known = True

    def cover(self, ctx):
        """The coverage sweep's stages: each element type x algorithm
        (None: the compiler's) once, N cycling through the accepted ones."""
        plan = []
        for alg in TILE_ALGORITHMS:
            by_elem = {}
            for t in ctx.accepted(tile_form(self.name, alg, False, False)):
                by_elem.setdefault(parse_type(t)[0], []).append(t)
            for types in by_elem.values():
                plan.append((self.name, alg, types[len(plan) % len(types)]))
        return plan

    def gen(self, rng, ctx):
        forced = ctx.force is not None
        t = ctx.force[2] if forced else ctx.type_for(tile_form(self.name, None, False, False), rng)
        if t is None:
            return None
        elem, n = parse_type(t)
        width = rng.choice(POW2 + [32, 32]) if self.warp else 32
        # The algorithm first (the narrower ones twice as often), then the
        # options: a combination the verifier rejects is drawn again.
        alg = ctx.force[1] if forced else rng.choice(TILE_ALGORITHMS + TILE_ALGORITHMS[2:])
        striped, valid = rng.random() < 0.3, rng.random() < 0.4
        if t not in ctx.accepted(tile_form(self.name, alg, False, False)) or TILE_SAMPLE not in \
                ctx.accepted(tile_form(self.name, alg, striped, valid, width != 32)):
            return None
        # warp_transpose: a known block of whole warps (the op's rule).
        if alg == "warp_transpose" and ctx.threads % WARP:
            return None
        # The exchanges' shared memory within 32 KiB: N items of the block's
        # threads, sized for 1024 threads without a known block (then one
        # where that is too much).
        exchanged = alg in (None, "transpose", "warp_transpose")
        big = exchanged and n * ELEM_BYTES[elem] * 1024 > 32 * 1024
        if big and n * ELEM_BYTES[elem] * ctx.threads > 32 * 1024:
            return None
        # A block op's warp_striped (CUB's LoadDirectWarpStriped): not with
        # striped, only `direct` or the compiler's; the verifier takes it
        # where it takes striped (the striped form's probe).
        warp_striped = not self.warp and not striped and alg in (None, "direct") and \
            rng.random() < 0.25 and \
            TILE_SAMPLE in ctx.accepted(tile_form(self.name, alg, True, valid))
        return dict(op=self.name, type=t, exec=list(ctx.existing), striped=striped, valid=valid,
                    algorithm=alg, warp=self.warp, width=width,
                    fill=valid and not self.store and rng.random() < 0.7,
                    known_block=alg == "warp_transpose" or big, warp_striped=warp_striped)

    def operands(self, p):
        ops = [("x", p["type"], "bits")] if self.store else []
        ops.append(("off", "i32", "tile_offset"))
        if p["valid"]:
            ops.append(("n", "i32", "tile_valid"))
        if p.get("fill"):
            ops.append(("d", parse_type(p["type"])[0], "tile_fill"))
        return ops

    def memory(self, p):
        return [("mem", parse_type(p["type"])[0])]

    def memory_size(self, p, grid, threads):
        _, region, groups = tile_shape(p, threads)
        return grid * groups * region

    def memory_value(self, rng, elem):
        return rng.getrandbits(ELEM_BYTES[elem] * 8), True

    def results(self, p):
        return [] if self.store else [("r", p["type"])]

    def mlir(self, p, k):
        elem = parse_type(p["type"])[0]
        opts = (f" width {p['width']}" if p["width"] != 32 else "") + \
            (" valid %n" if p["valid"] else "") + (" default %d" if p.get("fill") else "") + \
            (" striped" if p["striped"] else "") + \
            (" warp_striped" if p.get("warp_striped") else "") + \
            (f" algorithm = <{p['algorithm']}>" if p["algorithm"] else "")
        line = ["%oi = arith.index_cast %off : i32 to index"]
        if self.store:
            return line + [f"warp.{self.name} %x, {p['_mem']}[%oi]{opts} : {p['type']}, memref<?x{elem}>"]
        return line + [f"%r = warp.{self.name} {p['_mem']}[%oi]{opts} : memref<?x{elem}>, {p['type']}"]

    def tiles(self, p, ins, units, present):
        """Each tile of one block (or warp: `units` the lanes, `present`
        those that exist): (offset, valid count or None, default or None,
        [(thread or lane, item j, position g in the tile, defined)]).
        Blocked: g = r N + j, striped: g = j w + r (r the rank in the
        tile, w its threads), warp-striped (block ops): g = 32 v N + l +
        L j (lane l of warp v, a warp of L threads); with `transpose` in
        a ragged warp the items that go through a missing lane (item g is
        lane g % 32's in the striped arrangement) are not defined."""
        n = parse_type(p["type"])[1]
        size = p["width"] if p["warp"] else units
        out = []
        for first in range(0, units, size):
            ranks = [u for u in range(first, first + size) if u in present]
            if not ranks:
                continue
            u0 = ranks[0]
            valid = model.signed(ins["n"][u0], 32) if p["valid"] else None
            fill = ins["d"][u0] if p.get("fill") else None
            moves = []
            for u in ranks:
                for j in range(n):
                    r = u - first
                    if p["striped"]:
                        g = j * size + r
                    elif p.get("warp_striped"):
                        g = warp_striped_position(size, n, r, j)
                    else:
                        g = r * n + j
                    ok = True
                    if p["warp"] and p["algorithm"] == "transpose":
                        ok = g % WARP in present and g // n in present
                    moves.append((u, j, g, ok))
            out.append((ins["off"][u0], valid, fill, moves))
        return out

    def expect_items(self, p, d, units, present):
        out = [None] * units
        if self.store:
            return {}
        for off, valid, fill, moves in self.tiles(p, d.ins, units, present):
            for u, j, g, ok in moves:
                if out[u] is None:
                    out[u] = [None] * parse_type(p["type"])[1]
                if not ok:  # through a missing lane: undefined, defaults too
                    continue
                if valid is not None and g >= valid:
                    out[u][j] = fill  # None without a default: unspecified
                else:
                    out[u][j] = d.mem[off + g]
        return dict(r=out)

    def expect_memory(self, p, data, total, threads):
        """A load leaves memory as it was; a store writes its tiles' first
        `valid` positions (all without), nothing else."""
        mem = list(data["mem"])
        if not self.store:
            return mem
        ins = data["ins"]
        for base in range(0, len(ins["off"]), threads):
            if self.warp:
                groups = [(base + w * WARP, [l for l in range(WARP) if w * WARP + l < threads])
                          for w in range(len(p["exec"]))]
                units = WARP
            else:
                groups, units = [(base, list(range(threads)))], threads
            for start, present in groups:
                view = {k: v[start:start + units] for k, v in ins.items()}
                for off, valid, _, moves in self.tiles(p, view, units, set(present)):
                    for u, j, g, ok in moves:
                        if valid is None or g < valid:
                            mem[off + g] = view["x"][u][j] if ok else None
                    if p["warp"] and p["algorithm"] == "transpose":
                        # The positions of missing lanes' items: undefined.
                        n = parse_type(p["type"])[1]
                        for g in range(units * n):
                            if (g // n not in present or g % WARP not in present) and \
                                    (valid is None or g < valid):
                                mem[off + g] = None
        return mem


class BlockTileOp(TileOp):
    block_level = True

    def expect_block(self, p, d):
        return self.expect_items(p, d, d.threads, set(range(d.threads)))


class WarpTileOp(TileOp):
    warp = True

    def expect(self, p, d):
        return self.expect_items(p, d, WARP, set(model.lanes_of(d.exec)))


class BlockLoad(BlockTileOp):
    """warp.block_load: thread t's items from the tile at `offset`."""
    name = "block_load"


class BlockStore(BlockTileOp):
    """warp.block_store: thread t's items to the tile at `offset`."""
    name = "block_store"
    store = True


class Load(WarpTileOp):
    """warp.load: each logical warp of `width` lanes its own tile."""
    name = "load"


class Store(WarpTileOp):
    """warp.store: each logical warp of `width` lanes its own tile."""
    name = "store"
    store = True


class BlockHistogram(Op):
    """warp.block_histogram (CUB's BlockHistogram::Histogram, and with
    `accumulate` Composite): the block's N samples a thread, unsigned bin
    numbers (some of K or more: not counted), into K i32 or i64 counters of
    the block's own in global memory (a subview, static or dynamic size),
    every algorithm; the counters checked after the launch and, read back
    by every thread after the op (bins[t mod K]), in its results."""
    name = "block_histogram"
    block_level = True
    probe = ("%b = memref.alloc() : memref<8xi32>\n    "
             "warp.block_histogram %x into %b : {T}, memref<8xi32>")

    def gen(self, rng, ctx):
        t = ctx.type_for(self.name, rng)
        if t is None:
            return None
        # sort: a block radix sort, in blocks of up to 256 threads (the
        # simulator's time, as RadixOp's), known ones (its buffers are sized
        # for the block: for 1024 threads they rarely fit the static shared
        # memory).
        algorithm = rng.choice([None, "atomic", "warp_aggregated"] +
                               (["sort"] if ctx.threads <= 256 else []))
        return dict(op=self.name, exec=list(ctx.existing), type=t,
                    known_block=algorithm == "sort", algorithm=algorithm,
                    counter=rng.choice(["i32", "i64"]),
                    bins=rng.choice([1, 2, 5, 16, 33, 64, 256, 300]),
                    static=rng.random() < 0.5, accumulate=rng.random() < 0.5,
                    skew=rng.choice([0.0, 0.0, 0.6, 0.95]))

    def operands(self, p):
        return [("x", p["type"], "own_samples"), ("o", "i32", "own_base")]

    def value(self, rng, elem, dom, p, warp, threads, thread):
        if dom == "base":  # the block's (and repetition's) own K counters
            r, blk = p["_where"]
            return (r * p["_grid"] + blk) * p["bins"], True
        bits, k = model.INT_BITS[elem], p["bins"]
        u = rng.random()
        if u < p["skew"]:  # skewed data: one bin takes most samples
            return 0, True
        if u < 0.8:
            return rng.randrange(min(k, 1 << bits)), True
        if u < 0.9:  # just past the bins (not counted), or any bits
            return (k + rng.randrange(3)) & ((1 << bits) - 1), True
        return rng.getrandbits(bits), True

    def memory(self, p):
        return [("mem", p["counter"])]

    def memory_size(self, p, grid, threads):
        return grid * p["bins"]

    def memory_value(self, rng, elem):
        # Counters near the top too: accumulate wraps modulo 2^n.
        if rng.random() < 0.1:
            return (1 << model.INT_BITS[elem]) - 1 - rng.randrange(4), False
        return rng.randrange(0, 50), False

    def results(self, p):
        return [("c", p["counter"])]

    def memref_type(self, p):
        size = p["bins"] if p["static"] else "?"
        return f"memref<{size}x{p['counter']}, strided<[1], offset: ?>>"

    def mlir(self, p, k):
        mt, c = self.memref_type(p), p["counter"]
        size = p["bins"] if p["static"] else k.const(p["bins"], "index")
        opts = (" accumulate" if p["accumulate"] else "") + \
            (f" algorithm = <{p['algorithm']}>" if p["algorithm"] else "")
        return ["%oi = arith.index_cast %o : i32 to index",
                f"%sub = memref.subview {p['_mem']}[%oi][{size}][1] : memref<?x{c}> to {mt}",
                f"warp.block_histogram %x into %sub{opts} : {p['type']}, {mt}",
                f"%ci = arith.remui %K_t, {k.const(p['bins'], 'index')} : index",
                f"%c = memref.load %sub[%ci] : {mt}"]

    def counts(self, p, mem, base, samples):
        """The block's K counters after the op: memory from `base`."""
        width = model.INT_BITS[p["counter"]]
        out = [mem[base + j] if p["accumulate"] else 0 for j in range(p["bins"])]
        for x in samples:
            for v in x:
                if v < p["bins"]:
                    out[v] = (out[v] + 1) & ((1 << width) - 1)
        return out

    def expect_block(self, p, d):
        bins = self.counts(p, d.mem, d.ins["o"][0], d.ins["x"])
        return dict(c=[bins[t % p["bins"]] for t in range(d.threads)])

    def expect_memory(self, p, data, total, threads):
        mem = list(data["mem"])
        x, o = data["ins"]["x"], data["ins"]["o"]
        for start in range(0, len(o), threads):
            base = o[start]
            mem[base:base + p["bins"]] = self.counts(p, data["mem"], base,
                                                     x[start:start + threads])
        return mem


class RunLengthProbe(str):
    """A run-length decode's probe line: i32 lengths of the values' R."""

    def format(self, T):
        elem, n = parse_type(T)
        return (f"%l = arith.constant dense<1> : vector<{n or 1}xi32>\n    "
                "%f = arith.constant 0 : i32\n    "
                f"%r, %n = warp.block_run_length_decode %x, %l from %f : {T}, "
                f"vector<{n or 1}xi32>, i32 -> vector<2x{elem}>")


RUN_LENGTH_TYPES = ["i8", "i16", "i32", "i64"]


class BlockRunLengthDecode(Op):
    """warp.block_run_length_decode (CUB's BlockRunLengthDecode): R runs a
    thread (values of any accepted type, lengths or with `offsets` the
    runs' starts of any width L <= the offset type O), D decoded items a
    thread from a block-uniform `from` (windows at the start, inside, at
    and past the end), the total, and the relative offsets or not;
    `default` past the end. Lengths mostly short with zeros anywhere, a
    few long ones (wide offsets); starts not decreasing, the first 0 (or,
    rarely, past 0: the first run's, as the op defines)."""
    name = "block_run_length_decode"
    block_level = True
    probe = RunLengthProbe("block_run_length_decode")
    probe_known = True

    def gen(self, rng, ctx):
        t = ctx.type_for(self.name, rng)
        if t is None:
            return None
        elem, r = parse_type(t)
        lt = rng.choice(RUN_LENGTH_TYPES)
        ot = rng.choice([o for o in ("i32", "i64") if model.INT_BITS[o] >= model.INT_BITS[lt]])
        offsets = rng.random() < 0.35

        # Its two workgroup buffers (the runs' values and starts, B_max * R
        # each: B_max 1024 without known_block_size) and the scan's, within
        # the static shared memory (the pass's diagnostic otherwise); a
        # known block where they would take more than a third of it for
        # 1024 threads, so that a program's three stages mostly fit.
        def fits(b, budget):
            return b * r * (ELEM_BYTES[elem] + ELEM_BYTES[ot]) + 2048 <= budget
        if not fits(ctx.threads, SHARED_BYTES):
            return None
        return dict(op=self.name, exec=list(ctx.existing), type=t,
                    known_block=not fits(1024, SHARED_BYTES // 3),
                    lengths=f"vector<{parse_type(t)[1]}x{lt}>", offset=ot,
                    decoded=rng.randint(1, 6), offsets=offsets, relative=rng.random() < 0.6,
                    fill=not offsets and rng.random() < 0.3,
                    runs=rng.choice(["short", "short", "long", "zeros"]),
                    late_start=offsets and rng.random() < 0.15)

    def operands(self, p):
        return [("x", p["type"], "bits"), ("l", p["lengths"], "own_lengths"),
                ("f", p["offset"], "own_from")] + \
            ([("d", parse_type(p["type"])[0], "own_fill")] if p["fill"] else [])

    def value(self, rng, elem, dom, p, warp, threads, thread):
        """Per block (and repetition) `_runs[where]`: the lengths (or
        starts) drawn so far, in blocked order; `from` and the default
        from them, one per block."""
        where = p["_where"]
        runs = p.setdefault("_runs", {}).setdefault(where, [])
        o_bits = model.INT_BITS[p["offset"]]
        if dom == "lengths":
            r = parse_type(p["lengths"])[1]
            # Lengths that keep the block's total (starts: the last start)
            # within O's signed range and each within L.
            cap = min((1 << model.INT_BITS[elem]) - 1, ((1 << (o_bits - 1)) - 1) // (threads * r))
            u = rng.random()
            if p["runs"] == "zeros" and u < 0.7:
                n = 0
            elif u < 0.03 and cap > 1000:
                n = rng.randrange(cap // 2, cap + 1)
            elif p["runs"] == "long":
                n = rng.randrange(0, 40)
            else:
                n = rng.choice([0, 1, 1, 2, 3])
            if p["offsets"]:  # the run's start: the previous start plus n
                if not runs:
                    n = rng.randrange(1, 5) if p["late_start"] else 0
                else:
                    n = runs[-1] + n if runs[-1] + n <= (1 << model.INT_BITS[elem]) - 1 and \
                        runs[-1] + n < 1 << (o_bits - 1) else runs[-1]
            runs.append(n)
            return n, True
        if dom == "fill":
            key = ("fill",) + where
            if key not in p["_runs"]:
                p["_runs"][key] = rng.getrandbits(16 if elem in ("f16", "bf16") else
                                                  64 if elem == "f64" else
                                                  model.INT_BITS.get(elem, 32))
            return p["_runs"][key], True
        key = ("from",) + where
        if key not in p["_runs"]:
            total = runs[-1] if p["offsets"] else sum(runs)
            span = threads * p["decoded"]
            starts = self.starts(p, runs)
            choices = [0, rng.randint(0, total), max(0, total - span // 2),
                       total + rng.randrange(3), max(0, rng.choice(starts) - rng.randrange(3))]
            p["_runs"][key] = min(rng.choice(choices), (1 << (o_bits - 1)) - span - 1)
        return p["_runs"][key], True

    def starts(self, p, runs):
        """o_r of each run: the exclusive sums of the lengths, or the starts."""
        if p["offsets"]:
            return list(runs)
        out, at = [], 0
        for n in runs:
            out.append(at)
            at += n
        return out

    def results(self, p):
        elem = parse_type(p["type"])[0]
        d = p["decoded"]
        return [("r", f"vector<{d}x{elem}>"), ("n", p["offset"])] + \
            ([("q", f"vector<{d}x{p['offset']}>")] if p["relative"] else [])

    def mlir(self, p, k):
        res = ", ".join("%" + n for n, _ in self.results(p))
        rtypes = [t for n, t in self.results(p) if n != "n"]
        offsets = "offsets " if p["offsets"] else ""
        fill = " default %d" if p["fill"] else ""
        return [f"{res} = warp.block_run_length_decode %x, {offsets}%l from %f{fill} : "
                f"{p['type']}, {p['lengths']}, {p['offset']} -> {', '.join(rtypes)}"]

    def expect_block(self, p, d):
        o_mask = (1 << model.INT_BITS[p["offset"]]) - 1
        values = [v for t in range(d.threads) for v in d.ins["x"][t]]
        runs = [n for t in range(d.threads) for n in d.ins["l"][t]]
        starts = self.starts(p, runs)
        total = (starts[-1] if p["offsets"] else sum(runs)) & o_mask
        at, n = d.ins["f"][0], p["decoded"]
        out = dict(r=[], n=[total] * d.threads, q=[])
        for t in range(d.threads):
            items, rel = [], []
            for j in range(n):
                pos = (at + t * n + j) & o_mask
                # The last run with o_r <= pos; before the first start the first.
                r = max(bisect.bisect_right(starts, pos) - 1, 0)
                past = not p["offsets"] and pos >= total
                items.append(d.ins["d"][0] if p["fill"] and past else values[r])
                rel.append((pos - starts[r]) & o_mask)
            out["r"].append(items)
            out["q"].append(rel)
        return out


class LaneAtomicRMW(Op):
    """warp.lane_atomic_rmw (one thread's atomic, nothing aggregated) of
    every kind and scalar type it accepts, with scopes and orderings, by
    any lanes. Addresses in the block's own elements: each thread its own
    (`distinct`: every old value and the memory exact), a few per warp
    (`warp`) or per block (`block`: many lanes of several warps on one
    element). Where several threads meet, the order is the schedule's:
    memory is checked (the kinds that then run are commutative: exch only
    alone, float adds exact in any order), and an old value only where
    its thread is the only one of the block on its element."""
    name = "lane_atomic_rmw"
    probe = None

    probe_forms = AtomicRMW.probe_forms
    draw_kind = AtomicRMW.draw_kind

    def gen(self, rng, ctx):
        kind, t, ex = self.draw_kind(rng, ctx)
        # `cluster` scope needs sm_90.
        scopes = [None, "cta", "gpu", "sys"] + (["cluster"] if ctx.sm >= 90 else [])
        return dict(op=self.name, kind=kind, type=t, exec=ex, mask="none",
                    spread="distinct" if kind == "exch" else
                    rng.choice(["distinct", "warp", "block", "block"]),
                    bins=rng.choice([1, 2, 4]), scope=rng.choice(scopes),
                    ordering=rng.choice([None, "relaxed", "acquire", "release", "acq_rel"]))

    def operands(self, p):
        return [("x", p["type"], "own_value"), ("a", "i32", "own_addr")]

    def value(self, rng, elem, dom, p, warp, threads, thread):
        if dom == "addr":  # the block's (and repetition's) own 32 per warp
            r, blk = p["_where"]
            base = (r * p["_grid"] + blk) * len(p["exec"]) * WARP
            at = {"distinct": thread, "warp": warp * WARP + rng.randrange(p["bins"]),
                  "block": rng.randrange(p["bins"])}[p["spread"]]
            return base + at, True
        kind = p["kind"]
        if kind == "add" and is_float(elem):
            # Every partial sum of a block's values exact: at most 1024 of
            # +-1 (f16: below 2048), 200 of them (bf16: below 256).
            if elem == "bf16":
                return model.fnum(elem, rng.randint(-1, 1) if thread < 200 else 0), False
            return model.fnum(elem, rng.randint(-1, 1) if elem == "f16" else
                              rng.randint(-8, 8)), False
        if kind in ("minnumf", "maxnumf"):
            # Which zero f16/bf16 give is unspecified: no -0.0 there.
            return payload_value(rng, elem, "minmax0" if elem in ("f32", "f64") else "minmax"), False
        return rng.getrandbits(16 if elem in ("f16", "bf16") else
                               64 if elem == "f64" else model.INT_BITS.get(elem, 32)), True

    def memory(self, p):
        return [("mem", p["type"])]

    def memory_size(self, p, grid, threads):
        return grid * len(p["exec"]) * WARP

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        t = p["type"]
        opts = (f" scope <{p['scope']}>" if p["scope"] else "") + \
            (f" ordering <{p['ordering']}>" if p["ordering"] else "")
        return ["%ai = arith.index_cast %a : i32 to index",
                f"%r = warp.lane_atomic_rmw <{p['kind']}> %x, {p['_mem']}[%ai]{opts} : "
                f"{t}, memref<?x{t}>"]

    def uniforms(self, p):
        return []

    def expect(self, p, d):
        # d.ins: this warp's lanes; memory from the start. `block`: other
        # warps may meet on any element (no old value known).
        lanes = model.lanes_of(d.exec)
        r = [None] * WARP
        if p["spread"] == "block":
            return dict(r=r)
        for lane in lanes:
            a = d.ins["a"][lane]
            if sum(1 for l in lanes if d.ins["a"][l] == a) == 1:
                r[lane] = d.mem[a]
        return dict(r=r)

    expect_memory = AtomicRMW.expect_memory



# ----------------------------------------------------------------------------
# Upstream's collectives as frontends write them, imported by
# convert-gpu-to-warp (besides gpu.shuffle above): in uniform code, every
# existing lane (thread) executing, no mask.
# ----------------------------------------------------------------------------

def import_type(ctx, form, rng, scalars=False):
    """A type the warp op of `form` accepts that upstream's op takes too
    (no index; scalars only where it says so)."""
    types = [t for t in ctx.accepted(form) if parse_type(t)[0] != "index" and
             (not scalars or parse_type(t)[1] is None)]
    return rng.choice(types) if types else None


class ActiveLanesImport:
    """An upstream gpu op over the lanes that execute it, drawn also in
    divergent arms (their lanes any): in an arm `arm_params` replaces the
    parameters that would need a whole subgroup. Probed through the warp
    op it imports as, not on its own."""
    active_lanes = True
    arm_params = {}

    def active_in_arm(self, rng, p, existing):
        super().active_in_arm(rng, p, existing)
        p.update(self.arm_params)

    def probe_forms(self):
        return []


class GpuSubgroupReduce(ActiveLanesImport, Reduce):
    """gpu.subgroup_reduce (also `uniform`, `cluster(size, stride)`): a
    warp.reduce over each cluster of the lanes that execute it together
    (in a divergent arm its lanes; `uniform`, which promises all of a
    subgroup or none, only outside arms)."""
    name = "gpu_subgroup_reduce"
    probed_as = ("reduce",)
    arm_params = {"uniform": False}

    def gen(self, rng, ctx):
        kind = ctx.kind_for(rng)
        t = import_type(ctx, f"reduce_{kind}", rng)
        if t is None:
            return None
        size = rng.choice(POW2)
        stride = rng.choice([s for s in POW2 if s * size <= 32])
        return dict(op=self.name, kind=kind, types=[t], form="clusters", cluster=[size, stride],
                    lanes="all", exec=list(ctx.existing), mask="implicit",
                    uniform=rng.random() < 0.5, spell_cluster=size != 32 or rng.random() < 0.3)

    def mlir(self, p, k):
        size, stride = p["cluster"]
        cluster = ""
        if p["spell_cluster"]:
            cluster = f" cluster(size = {size}" + (f", stride = {stride}" if stride != 1 else "") + ")"
        t = p["types"][0]
        return [f"%y0 = gpu.subgroup_reduce {p['kind']} %x0{' uniform' if p['uniform'] else ''}"
                f"{cluster} : ({t}) -> {t}"]


# The arith op of each kind, for gpu.all_reduce regions of one op.
ARITH_OPS = {"add": ("addi", "addf"), "mul": ("muli", "mulf"), "and": ("andi", None),
             "or": ("ori", None), "xor": ("xori", None), "minsi": ("minsi", None),
             "maxsi": ("maxsi", None), "minui": ("minui", None), "maxui": ("maxui", None),
             "minnumf": (None, "minnumf"), "maxnumf": (None, "maxnumf"),
             "minimumf": (None, "minimumf"), "maximumf": (None, "maximumf")}


class GpuAllReduce(BlockReduce):
    """gpu.all_reduce ... uniform over the block: a named operation, a
    region of one arith op of the two arguments (either order; the import
    reads it as that kind), or another region, which the import keeps as
    warp.block_reduce's combiner in the thread order it documents:
    `first` (yields its first argument) and `last` (its second), neither
    commutative, whose results are thread 0's and the last thread's."""
    name = "gpu_all_reduce"
    probed_as = ("block_reduce", "block_broadcast")

    def probe_forms(self):
        return []

    def gen(self, rng, ctx):
        form = rng.choice(["named", "named", "one_op", "one_op", "first", "last"])
        p = dict(op=self.name, exec=list(ctx.existing), form=form, valid=None, tile=None,
                 threads="all", algorithm=None, swapped=rng.random() < 0.5)
        if form in ("first", "last"):
            t = import_type(ctx, "block_broadcast", rng, scalars=True)
            p["types"] = [t]
            return p if t is not None else None
        kind = ctx.kind_for(rng)
        t = import_type(ctx, f"block_reduce_{kind}", rng, scalars=True)
        if t is None:
            return None
        p.update(kind=kind, types=[t])
        return p

    def operands(self, p):
        if "kind" not in p:
            return [("x0", p["types"][0], "bits")]
        return BlockReduce.operands(self, p)

    def mlir(self, p, k):
        t = p["types"][0]
        if p["form"] == "named":
            return [f"%y0 = gpu.all_reduce {p['kind']} %x0 uniform {{}} : ({t}) -> {t}"]
        if p["form"] == "one_op":
            name = ARITH_OPS[p["kind"]][1 if is_float(parse_type(t)[0]) else 0]
            args = "%rb, %ra" if p["swapped"] else "%ra, %rb"
            body = [f"  %rr = arith.{name} {args} : {t}", f"  gpu.yield %rr : {t}"]
        else:
            body = [f"  gpu.yield {'%ra' if p['form'] == 'first' else '%rb'} : {t}"]
        return ["%y0 = gpu.all_reduce %x0 uniform {", f"^bb0(%ra: {t}, %rb: {t}):"] + body + \
            [f"}} : ({t}) -> ({t})"]

    def expect_block(self, p, d):
        if "kind" in p:
            return BlockReduce.expect_block(self, p, d)
        src = 0 if p["form"] == "first" else d.threads - 1
        return dict(y0=[d.ins["x0"][src]] * d.threads)


class GpuSubgroupBroadcast(ActiveLanesImport, Op):
    """gpu.subgroup_broadcast: `first_active_lane` (the lowest lane that
    executes it) or `specific_lane` %l, a lane that executes it, the same in
    the warp (a constant, or per warp at run time; in a divergent arm at
    run time, from the arm's lanes)."""
    name = "gpu_subgroup_broadcast"
    probed_as = ("broadcast",)
    arm_params = {"dyn_lane": True}

    def gen(self, rng, ctx):
        t = import_type(ctx, "broadcast", rng)
        if t is None:
            return None
        fewest = min(bin(e).count("1") for e in ctx.existing)
        return dict(op=self.name, type=t, exec=list(ctx.existing), mask="implicit",
                    first=rng.random() < 0.3, dyn_lane=rng.random() < 0.5,
                    lane=rng.randrange(fewest))

    def operands(self, p):
        return [("x", p["type"], "bits")]

    def uniforms(self, p):
        return ["src"] if p["dyn_lane"] and not p["first"] else []

    def uniform_value(self, p, name, rng, warp):
        # A warp none of whose lanes executes the op reads no source.
        return rng.choice(model.lanes_of(p["exec"][warp]) or [0])

    def results(self, p):
        return [("r", p["type"])]

    def mlir(self, p, k):
        if p["first"]:
            return [f"%r = gpu.subgroup_broadcast %x, first_active_lane : {p['type']}"]
        src = "%src" if p["dyn_lane"] else k.const(p["lane"], "i32")
        return [f"%r = gpu.subgroup_broadcast %x, specific_lane {src} : {p['type']}"]

    def expect(self, p, d):
        lowest = (d.exec & -d.exec).bit_length() - 1
        src = lowest if p["first"] else d.uni["src"] if p["dyn_lane"] else p["lane"]
        return dict(r=[d.ins["x"][src] if (d.exec >> l) & 1 else None for l in range(WARP)])


# ----------------------------------------------------------------------------
# Thread-block cluster collectives (sm_90+): every thread of every block of
# the program's cluster (`cluster` blocks, generative.py's known_cluster_size)
# takes part; expect_cluster sees the cluster's threads in rank-major order.
# ----------------------------------------------------------------------------

class ClusterOp(Op):
    block_level = True
    cluster_level = True

    def gen_common(self, rng, ctx):
        if ctx.sm < 90:
            return None
        return dict(op=self.name, exec=list(ctx.existing), cluster=ctx.cluster)

    def operands(self, p):
        return [("x", p["types"][0], "own_" + domain_for(p["kind"]) if "kind" in p else "bits")]

    def value(self, rng, elem, dom, p, warp, block_threads, thread):
        """Float sums and products exact in every combine order over the
        whole cluster: the rare values (block_reduce's, not 0 or +-1) only
        in the cluster's rank 0."""
        if is_float(elem) and dom in ("add", "mul"):
            rare = p["_where"][1] % p["cluster"] == 0 and thread in p["_rare"]
            if dom == "add":
                if elem in ("f16", "bf16"):
                    return model.fnum(elem, rng.choice([-1, 1]) if rare else 0), False
                return model.fnum(elem, rng.randint(-8, 8)), False
            return model.fnum(elem, rng.choice([2.0, 0.5]) if rare else rng.choice([1.0, -1.0])), False
        return payload_value(rng, elem, dom), False

    def values(self, p, d):
        return [(d.ins["x"][t],) for t in range(d.threads * d.blocks)]


class ClusterReduce(ClusterOp):
    name = "cluster_reduce"
    arithmetic = True

    def probe_forms(self):
        return self.kind_forms()

    def gen(self, rng, ctx):
        p = self.gen_common(rng, ctx)
        if p is None or not choose_combiner(p, self.name, rng, ctx) or "region" in p:
            return None
        return p

    def results(self, p):
        return [("r", p["types"][0])]

    def mlir(self, p, k):
        return [f"%r = warp.cluster_reduce <{p['kind']}> %x : {p['types'][0]}"]

    def expect_cluster(self, p, d):
        total = model.fold(combiner(p), self.values(p, d))
        return dict(r=[total[0]] * (d.threads * d.blocks))


class ClusterScan(ClusterOp):
    name = "cluster_scan"
    arithmetic = True

    def probe_forms(self):
        return [(f"{self.name}_{k}", f"%r, %z = warp.cluster_scan <{k}> %x : {{T}}")
                for k in sorted(set(model.INT_KINDS + model.FLOAT_KINDS))]

    def gen(self, rng, ctx):
        p = self.gen_common(rng, ctx)
        if p is None or not choose_combiner(p, self.name, rng, ctx) or "region" in p:
            return None
        p["exclusive"] = rng.random() < 0.5
        return p

    def results(self, p):
        return [("r", p["types"][0]), ("z", p["types"][0])]

    def mlir(self, p, k):
        excl = " exclusive" if p["exclusive"] else ""
        return [f"%r, %z = warp.cluster_scan <{p['kind']}> %x{excl} : {p['types'][0]}"]

    def expect_cluster(self, p, d):
        """In the cluster's thread order; exclusive: the fold of the values
        before (rank 0's thread 0: the kind's identity)."""
        fn = combiner(p)
        values = self.values(p, d)
        scanned, run = [], None
        for v in values:
            incl = v if run is None else fn(run, v)
            if p["exclusive"]:
                scanned.append(run[0] if run is not None else
                               model.identity_value(p["kind"], p["types"][0]))
            else:
                scanned.append(incl[0])
            run = incl
        return dict(r=scanned, z=[run[0]] * len(values))


class ClusterBroadcast(ClusterOp):
    name = "cluster_broadcast"
    probe = "%r = warp.cluster_broadcast %x, %c1, %c1 : {T}"

    def gen(self, rng, ctx):
        p = self.gen_common(rng, ctx)
        if p is None:
            return None
        p["types"] = [ctx.type_for(self.name, rng)]
        if p["types"][0] is None:
            return None
        p["dyn"] = rng.random() < 0.5
        p["block"], p["thread"] = rng.randrange(ctx.cluster), rng.randrange(ctx.threads)
        return p

    def uniforms(self, p):
        return ["src_block", "src_thread"] if p["dyn"] else []

    def uniform_value(self, p, name, rng, warp):
        return p["block" if name == "src_block" else "thread"]

    def results(self, p):
        return [("r", p["types"][0])]

    def mlir(self, p, k):
        b = "%src_block" if p["dyn"] else k.const(p["block"], "i32")
        t = "%src_thread" if p["dyn"] else k.const(p["thread"], "i32")
        return [f"%r = warp.cluster_broadcast %x, {b}, {t} : {p['types'][0]}"]

    def expect_cluster(self, p, d):
        return dict(r=[d.ins["x"][p["block"] * d.threads + p["thread"]]] * (d.threads * d.blocks))


OPS = {op.name: op for op in [Shuffle(), GpuShuffle(), Broadcast(), BroadcastFirst(), Votes(),
                              Match(), Reduce(), Scan(), BlockReduce(), BlockScan(),
                              BlockBroadcast(), BlockShuffle(), Exchange(), BlockExchange(),
                              Scatter(), BlockScatter(), BlockShift(),
                              MergeSort(), BlockMergeSort(), BlockRadixSort(), BlockRadixRank(),
                              AtomicRMW(), BlockBallot(), BlockLoad(), BlockStore(), Load(),
                              Store(), BlockHistogram(), BlockRunLengthDecode(),
                              LaneAtomicRMW(), ClusterReduce(), ClusterScan(),
                              ClusterBroadcast(), GpuSubgroupReduce(), GpuAllReduce(),
                              GpuSubgroupBroadcast()]}
