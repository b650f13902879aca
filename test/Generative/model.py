"""Lane-level model of the warp ops for the generative contract tester,
written from the contract (docs/Preconditions.md, the op descriptions in
include/WarpDialect/IR/*.td, ../Integration/CUDA/reference.py for the PTX
shuffle rule and the kinds), never from the compiler's output.

Values: integers are Python ints holding the bit pattern (unsigned, `bits`
wide); floats are numpy scalars of the element type (bf16 as np.float32
holding a bf16-representable value, rounded after every operation).
"""
import functools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Integration", "CUDA"))
import reference  # noqa: E402

WARP = 32
INT_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}
FLOATS = {"f16": np.float16, "bf16": np.float32, "f32": np.float32, "f64": np.float64}


def _kinds(label):
    """The kinds docs/Preconditions.md lists on its `<label> kinds:` line."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                        "Preconditions.md")
    for line in open(path):
        if line.startswith(label + " kinds:"):
            return [k.strip(" .\n") for k in line.split(":", 1)[1].split(",")]
    raise RuntimeError(f"docs/Preconditions.md has no '{label} kinds:' line")


INT_KINDS = _kinds("Integer")
FLOAT_KINDS = _kinds("Float")
ATOMIC_KINDS = _kinds("Atomic")
FLOAT_ATOMIC_KINDS = _kinds("Float atomic")


@functools.lru_cache(maxsize=None)
def parse_type(t):
    """'vector<4xi8>' -> ('i8', 4); 'f32' -> ('f32', None)."""
    if t.startswith("vector<"):
        n, elem = t[len("vector<"):-1].split("x", 1)
        return elem, int(n)
    return t, None


def is_float(elem):
    return elem in FLOATS


def round_bf16(x):
    """Round an f32 to the nearest bf16 (ties to even), kept as f32."""
    x = np.float32(x)
    if np.isnan(x):
        return np.float32(np.nan)
    bits = int(np.array(x, dtype=np.float32).view(np.uint32))
    bits += 0x7FFF + ((bits >> 16) & 1)
    return np.array((bits >> 16) << 16, dtype=np.uint32).view(np.float32)[()]


def fnum(elem, x):
    v = FLOATS[elem](x)
    return round_bf16(v) if elem == "bf16" else v


def bits(elem, v):
    """The bit pattern of one element (how match and data movement compare)."""
    if not is_float(elem):
        return int(v) & ((1 << INT_BITS[elem]) - 1)
    if elem == "bf16":
        return int(np.float32(v).view(np.uint32)) >> 16
    dt = FLOATS[elem]
    return int(dt(v).view(_UNSIGNED[np.dtype(dt).itemsize]))


_UNSIGNED = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def signed(u, bits):
    return u - (1 << bits) if u >> (bits - 1) else u


_FLOAT_COMBINE = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b,
                  "minnumf": np.fmin, "maxnumf": np.fmax,
                  "minimumf": reference.minimum, "maximumf": reference.maximum}


def combine(kind, a, b, elem):
    """a (kind) b for one element: the kinds of warp.reduce/warp.scan.
    Floats overflow to inf and give NaN as IEEE says; numpy's warnings for
    that are off for the whole run (generative.py's main), not per call."""
    if elem in FLOATS:
        return fnum(elem, _FLOAT_COMBINE[kind](a, b))
    bits = INT_BITS[elem]
    if kind == "add":
        r = a + b
    elif kind == "mul":
        r = a * b
    elif kind == "and":
        r = a & b
    elif kind == "or":
        r = a | b
    elif kind == "xor":
        r = a ^ b
    elif kind == "minsi":
        r = min(signed(a, bits), signed(b, bits))
    elif kind == "maxsi":
        r = max(signed(a, bits), signed(b, bits))
    elif kind == "minui":
        r = min(a, b)
    elif kind == "maxui":
        r = max(a, b)
    else:
        raise KeyError(kind)
    return r & ((1 << bits) - 1)


def identity(kind, elem):
    if is_float(elem):
        return fnum(elem, {"add": 0.0, "mul": 1.0, "minnumf": np.inf, "minimumf": np.inf,
                           "maxnumf": -np.inf, "maximumf": -np.inf}[kind])
    bits = INT_BITS[elem]
    m = (1 << bits) - 1
    return {"add": 0, "mul": 1, "and": m, "or": 0, "xor": 0, "minui": m, "maxui": 0,
            "minsi": m >> 1, "maxsi": 1 << (bits - 1)}[kind]


def atomic_combine(kind, old, value, elem):
    """What one lane's atomic of warp.atomic_rmw `kind` leaves in memory
    that held `old`: `exch` stores the value, the float min/max are CUDA's
    fminf/fmaxf (reference.number_min/_max: -0.0 below +0.0, which the
    op documents for f32 and f64), the others combine."""
    if kind == "exch":
        return value
    if kind in ("minnumf", "maxnumf") and elem in ("f32", "f64"):
        pick = reference.number_min if kind == "minnumf" else reference.number_max
        return fnum(elem, pick(FLOATS[elem](old), FLOATS[elem](value)))
    return combine(kind, old, value, elem)


def combine_value(kind, a, b, type_):
    """Element-wise for vectors (tuples), else one element."""
    elem, n = parse_type(type_)
    if n is None:
        return combine(kind, a, b, elem)
    return tuple(combine(kind, x, y, elem) for x, y in zip(a, b))


def identity_value(kind, type_):
    elem, n = parse_type(type_)
    return identity(kind, elem) if n is None else tuple([identity(kind, elem)] * n)


# Combiner regions: (name) -> (types, commutative, python function on tuples).
def _affine(l, r):
    (a1, b1), (a2, b2) = l, r
    m = 0xFFFFFFFF
    return ((a2 * a1) & m, (a2 * b1 + b2) & m)


def _argmax(l, r):
    (v1, i1), (v2, i2) = l, r
    if v2 > v1 or (v2 == v1 and signed(i2, 32) < signed(i1, 32)):
        return (v2, i2)
    return (v1, i1)


REGIONS = {
    # x -> a x + b composed in lane order, wrap-around: not commutative.
    "affine": dict(types=["i32", "i32"], commutative=False, fn=_affine, body=[
        "%a3 = arith.muli %r0, %l0 : i32", "%t3 = arith.muli %r0, %l1 : i32",
        "%b3 = arith.addi %t3, %r1 : i32", "warp.yield %a3, %b3 : i32, i32"]),
    # (value, index): the largest value, the lowest index on ties (no NaNs).
    "argmax": dict(types=["f32", "i32"], commutative=True, fn=_argmax, body=[
        "%gt = arith.cmpf ogt, %r0, %l0 : f32", "%eq = arith.cmpf oeq, %r0, %l0 : f32",
        "%lt = arith.cmpi slt, %r1, %l1 : i32", "%tie = arith.andi %eq, %lt : i1",
        "%tk = arith.ori %gt, %tie : i1", "%v = arith.select %tk, %r0, %l0 : f32",
        "%ix = arith.select %tk, %r1, %l1 : i32", "warp.yield %v, %ix : f32, i32"]),
}


def fold(fn, items):
    acc = items[0]
    for x in items[1:]:
        acc = fn(acc, x)
    return acc


def lanes_of(mask):
    return [l for l in range(WARP) if (mask >> l) & 1]


def runs_of(mask):
    """Maximal runs of consecutive lanes of `mask`: [(first, last)]."""
    runs, l = [], 0
    while l < WARP:
        if (mask >> l) & 1:
            s = l
            while l + 1 < WARP and (mask >> (l + 1)) & 1:
                l += 1
            runs.append((s, l))
        l += 1
    return runs


def flag_segments(mask, heads=None, tails=None, bound=WARP):
    """Segments of the lanes of `mask`: a head flag starts one, a tail flag
    ends one, every `bound` lanes (cluster or width) start one, and the edges
    of the mask bound them (semantics: a segment whose neighbour lies outside
    the mask is complete in itself)."""
    segs = []
    for first, last in runs_of(mask):
        cur = []
        for l in range(first, last + 1):
            if cur and ((heads is not None and heads[l]) or l % bound == 0):
                segs.append(cur)
                cur = []
            cur.append(l)
            if tails is not None and tails[l]:
                segs.append(cur)
                cur = []
        if cur:
            segs.append(cur)
    return segs


def shuffle_source(mode, lane, offset, width, bound=None):
    return reference.shuffle_source(mode, lane, offset, width, bound)


def gpu_shuffle_source(mode, lane, offset, width):
    """Upstream gpu.shuffle: `width` lanes take part, no segments; the
    source lane must be below width (else valid = false)."""
    o = offset & 31  # the low 5 bits, as PTX reads the lane operand
    src = {"xor": lane ^ o, "up": lane - o, "down": lane + o, "idx": o}[mode]
    return (src, True) if 0 <= src < width else (lane, False)
