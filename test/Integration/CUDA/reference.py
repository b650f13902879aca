"""Reference model of the warp ops, transcribed from shared/docs/semantics.md
(CUDA's rules), independent of the compiler: the GPU results are checked
against it lane by lane.
"""
import numpy as np

WARP = 32


def shuffle_source(mode, lane, offset, width):
    """The PTX shfl.sync rule with CUDA's c = ((32 - w) << 8) | clamp."""
    c = ((32 - width) << 8) | (0 if mode == "up" else 31)
    b = offset & 31
    seg = (c >> 8) & 31
    max_lane = (lane & seg) | (c & 31 & ~seg)
    min_lane = lane & seg
    if mode == "up":
        j = lane - b
        ok = j >= max_lane
    elif mode == "down":
        j = lane + b
        ok = j <= max_lane
    elif mode == "xor":
        j = lane ^ b
        ok = j <= max_lane
    else:
        j = min_lane | (b & ~seg)
        ok = j <= max_lane
    return (j, True) if ok else (lane, False)


# ----------------------------------------------------------------------------
# Combiners
# ----------------------------------------------------------------------------

def _is_nan(x):
    return bool(np.isnan(x))


def minimum(a, b):
    """IEEE 754-2019 minimum: NaN propagates, -0.0 < +0.0."""
    if _is_nan(a) or _is_nan(b):
        return type(a)(np.nan)
    if a == 0 and b == 0:
        return a if np.signbit(a) else b
    return a if a < b else b


def maximum(a, b):
    if _is_nan(a) or _is_nan(b):
        return type(a)(np.nan)
    if a == 0 and b == 0:
        return b if np.signbit(a) else a
    return a if a > b else b


def combine(kind, a, b, dtype):
    """`a (kind) b` for one element of numpy dtype `dtype`."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return {
            "add": lambda: dt.type(a + b),
            "mul": lambda: dt.type(a * b),
            "minnumf": lambda: dt.type(np.fmin(a, b)),
            "maxnumf": lambda: dt.type(np.fmax(a, b)),
            "minimumf": lambda: minimum(a, b),
            "maximumf": lambda: maximum(a, b),
        }[kind]()
    bits = dt.itemsize * 8
    umask = (1 << bits) - 1
    ua, ub = int(a) & umask, int(b) & umask

    def signed(u):
        return u - (1 << bits) if u >> (bits - 1) else u

    result = {
        "add": lambda: ua + ub,
        "mul": lambda: ua * ub,
        "minsi": lambda: min(signed(ua), signed(ub)),
        "maxsi": lambda: max(signed(ua), signed(ub)),
        "minui": lambda: min(ua, ub),
        "maxui": lambda: max(ua, ub),
        "and": lambda: ua & ub,
        "or": lambda: ua | ub,
        "xor": lambda: ua ^ ub,
    }[kind]()
    return dt.type(signed(result & umask))


def identity(kind, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return dt.type({"add": 0.0, "mul": 1.0, "minnumf": np.inf, "minimumf": np.inf,
                        "maxnumf": -np.inf, "maximumf": -np.inf}[kind])
    bits = dt.itemsize * 8
    value = {"add": 0, "mul": 1, "and": -1, "or": 0, "xor": 0, "maxui": 0, "minui": -1,
             "minsi": (1 << (bits - 1)) - 1, "maxsi": -(1 << (bits - 1))}[kind]
    return dt.type(value)


def combine_lanes(kind, a, b, dtype, elems):
    """Element-wise combine of one lane's payload (a numpy array of `elems`)."""
    return np.array([combine(kind, a[e], b[e], dtype) for e in range(elems)], dtype=dtype)


# ----------------------------------------------------------------------------
# Collectives in the documented combine order
# ----------------------------------------------------------------------------

def clusters(size, stride):
    """Lists of lanes, one per cluster, in cluster order."""
    span = size * stride
    result = []
    for segment in range(0, WARP, span):
        for r in range(stride):
            result.append([segment + r + i * stride for i in range(size)])
    return result


def reduce_cluster(kind, values, dtype, elems):
    """Pairwise tree, farthest pairs first: returns every member's value of
    the butterfly (all equal) -- lane i's value ends as the cluster result."""
    vals = list(values)
    n = len(vals)
    off = n // 2
    while off >= 1:
        vals = [combine_lanes(kind, vals[i], vals[i ^ off], dtype, elems) for i in range(n)]
        off //= 2
    return vals


def reduce_partial(kind, values, n, dtype, elems):
    """Lanes 0..n-1 only, shfl.down tree order; lane 0's value."""
    vals = list(values)
    off = WARP // 2
    while off >= 1:
        vals = [combine_lanes(kind, vals[i], vals[i + off], dtype, elems)
                if i + off < WARP and i + off < n else vals[i] for i in range(WARP)]
        off //= 2
    return vals[0]


def scan(kind, values, width, exclusive, reverse, dtype, elems):
    """Kogge-Stone in the documented order; returns (result, total) per lane."""
    mode = "down" if reverse else "up"
    incl = list(values)
    d = 1
    while d < width:
        new = []
        for lane in range(WARP):
            src, ok = shuffle_source(mode, lane, d, width)
            if ok:
                a, b = (incl[lane], incl[src]) if reverse else (incl[src], incl[lane])
                new.append(combine_lanes(kind, a, b, dtype, elems))
            else:
                new.append(incl[lane])
        incl = new
        d *= 2
    result = incl
    if exclusive:
        ident = np.array([identity(kind, dtype)] * elems, dtype=dtype)
        result = []
        for lane in range(WARP):
            src, ok = (shuffle_source(mode, lane, 1, width) if width > 1 else (lane, False))
            result.append(incl[src] if ok else ident)
    totals = []
    for lane in range(WARP):
        base = lane - lane % width
        totals.append(incl[base] if reverse else incl[base + width - 1])
    return result, totals
