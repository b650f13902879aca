"""Reference model of the warp ops, transcribed from CUDA's rules (the PTX ISA
and CUDA programming guide; summarized in docs/Overview.md, "Semantics"),
independent of the compiler: the GPU results are checked
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


# ----------------------------------------------------------------------------
# Any member mask, ragged scans, broadcasts, match (semantics.md, "Accept every
# program CUDA defines")
# ----------------------------------------------------------------------------

def mask_members(mask, size):
    """Per cluster of `size` consecutive lanes, the lanes of `mask` in it,
    lowest first (their rank order); empty clusters are left out."""
    result = []
    for members in clusters(size, 1):
        live = [l for l in members if (mask >> l) & 1]
        if live:
            result.append(live)
    return result


def reduce_ranks(kind, values, dtype, elems):
    """The documented order of a reduction over k member lanes in rank order
    (any mask): a pairwise tree, farthest pairs first -- for d = 16, 8, 4, 2,
    1 every rank r < d with r + d < k computes v[r] = v[r] (op) v[r + d];
    the result is v[0], which every member gets."""
    vals = list(values)
    k = len(vals)
    d = WARP // 2
    while d >= 1:
        for r in range(min(d, k)):
            if r + d < k:
                vals[r] = combine_lanes(kind, vals[r], vals[r + d], dtype, elems)
        d //= 2
    return vals[0]


def scan_valid(kind, values, width, exclusive, reverse, n, dtype):
    """Scan of a ragged warp by its definition: lanes 0..n-1 are live; in each
    segment of `width` lanes, the live lane at position p combines the live
    positions 0..p (0..p-1 exclusive), or reversed p..end (p+1..end), end the
    segment's last live position; an empty span gives the identity. The total
    is the combination of the segment's live positions. Folded in lane order
    (exact for integers, and for floats holding small integers). Returns
    (result, total) per lane, None for lanes >= n."""
    result, totals = [None] * WARP, [None] * WARP
    for lane in range(n):
        base = lane - lane % width
        end = min(base + width, n)  # one past the segment's last live lane
        if reverse:
            span = range(lane + (1 if exclusive else 0), end)
        else:
            span = range(base, lane + (0 if exclusive else 1))
        acc = identity(kind, dtype)
        for q in span:
            acc = combine(kind, acc, values[q], dtype)
        whole = identity(kind, dtype)
        for q in range(base, end):
            whole = combine(kind, whole, values[q], dtype)
        result[lane], totals[lane] = acc, whole
    return result, totals


def scan_valid_ordered(kind, values, width, exclusive, reverse, n, dtype):
    """The same scan in the documented Kogge-Stone order, where lanes >= n
    never reach the combiner. A live lane only reads dead lanes when reversed,
    and those then hold only identities, so the results are bitwise those of
    scan() over the values with the dead lanes set to the identity (x (op)
    identity == x exactly for the kinds used here on values that are not
    -0.0). The total is the inclusive value of the segment's last live
    position (its first when reversed), as the op's description says.
    Returns (result, total) per lane, None for lanes >= n."""
    padded = [np.array([values[l] if l < n else identity(kind, dtype)], dtype=dtype)
              for l in range(WARP)]
    result, _ = scan(kind, padded, width, exclusive, reverse, dtype, 1)
    incl, _ = scan(kind, padded, width, False, reverse, dtype, 1)
    totals = [None] * WARP
    for lane in range(n):
        base = lane - lane % width
        totals[lane] = incl[base][0] if reverse else incl[min(base + width, n) - 1][0]
    return [result[l][0] if l < n else None for l in range(WARP)], totals


def broadcast_source(src):
    """__shfl_sync(full, x, src) with width 32 reads lane src mod 32 (PTX
    uses the low 5 bits of the source lane; negative values as unsigned)."""
    return (src & 0xFFFFFFFF) & 31


def match_any(bits, lane):
    """__match_any_sync over one warp's 32 bit patterns (floats compared bit
    for bit): the mask of lanes holding the same bits as `lane`."""
    return sum(1 << l for l in range(len(bits)) if int(bits[l]) == int(bits[lane]))


def match_all(bits):
    """__match_all_sync over one warp's 32 bit patterns: (mask, pred)."""
    same = all(int(b) == int(bits[0]) for b in bits)
    return (0xFFFFFFFF, True) if same else (0, False)


def exchange(items, direction):
    """CUB WarpExchange, from the definition: `items[l][j]` is position j of
    lane l (32 lanes, N positions). Blocked: lane l holds items l*N..l*N+N-1;
    striped: lane l holds items l, l+32, ..., l+32*(N-1)."""
    n = len(items[0])
    if direction == "blocked_to_striped":
        # Striped (lane, j) is item 32 j + lane, held blocked by lane g // N.
        return [[items[(WARP * j + lane) // n][(WARP * j + lane) % n] for j in range(n)]
                for lane in range(WARP)]
    # Blocked (lane, j) is item N lane + j, held striped by lane g % 32.
    return [[items[(n * lane + j) % WARP][(n * lane + j) // WARP] for j in range(n)]
            for lane in range(WARP)]


def elected_lane(executing):
    """warp.elect: the lowest lane of the lanes that execute it (the mask)."""
    return min(executing) if executing else None


def kogge_stone_inclusive(values, dtype):
    """Inclusive prefix sums of `values` (a group's values in rank order) by
    Kogge-Stone with distances 1, 2, 4, 8, 16, `earlier + later`, rounded
    to `dtype` at every step: the order warp.atomic_add documents."""
    x = [dtype(v) for v in values]
    d = 1
    while d < WARP:
        x = [x[r] if r < d else dtype(x[r - d] + x[r]) for r in range(len(x))]
        d *= 2
    return x


def aggregated_atomic_group(old, values, dtype):
    """What warp.atomic_add returns to a group (values in ascending lane
    order) whose atomic found `old`, and the value it leaves in memory:
    old + exclusive prefix (old itself in the lowest lane) and old + total,
    each rounded once."""
    inclusive = kogge_stone_inclusive(values, dtype)
    returned = [dtype(old)] + [dtype(dtype(old) + inclusive[r - 1]) for r in range(1, len(values))]
    return returned, dtype(dtype(old) + inclusive[-1])


def self_check():
    """Hand-computed examples of the rules above (run: python3 reference.py)."""
    f32, i32 = np.float32, np.int32
    lanes = [np.array([v], dtype=i32) for v in range(100, 132)]
    # Shuffles: low 5 bits of any offset; segment rules.
    assert shuffle_source("up", 3, 9, 8) == (3, False)
    assert shuffle_source("up", 12, 1, 8) == (11, True)
    assert shuffle_source("up", 8, -1 & 0xFFFFFFFF, 32) == (8, False)  # offset 31
    assert shuffle_source("up", 31, -1, 32) == (0, True)
    assert shuffle_source("down", 5, 8, 8) == (5, False)
    assert shuffle_source("down", 5, 40, 32) == (13, True)  # 40 & 31 == 8
    assert shuffle_source("idx", 13, 33, 8) == (9, True)     # 33 mod 8 == 1, segment base 8
    assert shuffle_source("idx", 13, -3, 32) == (29, True)   # -3 & 31 == 29
    assert shuffle_source("idx", 13, -3, 8) == (13, True)    # 29 mod 8 == 5: lane 8 + 5
    assert shuffle_source("xor", 6, 32, 8) == (6, True)      # 32 & 31 == 0
    assert shuffle_source("xor", 6, 35, 8) == (5, True)      # 35 & 31 == 3
    assert shuffle_source("xor", 6, 35, 2) == (5, True)      # an earlier segment is readable
    assert shuffle_source("xor", 5, 3, 2) == (5, False)      # a later one is not
    assert broadcast_source(37) == 5 and broadcast_source(-1) == 31 and broadcast_source(-31) == 1
    assert broadcast_source(100) == 4 and broadcast_source(32) == 0
    # Any-mask reduction: 0x80000001 is v[0] (op) v[31].
    assert mask_members(0x80000001, 32) == [[0, 31]]
    got = reduce_ranks("add", [lanes[l] for l in mask_members(0x80000001, 32)[0]], i32, 1)
    assert got[0] == 100 + 131
    assert reduce_ranks("maxsi", [lanes[0]], i32, 1)[0] == 100  # mask 0x1: own value
    assert mask_members(0x0F0F0F0F, 8) == [[0, 1, 2, 3], [8, 9, 10, 11], [16, 17, 18, 19],
                                           [24, 25, 26, 27]]
    assert mask_members(0x13571357, 8)[:2] == [[0, 1, 2, 4, 6], [8, 9, 12]]  # 0x57, 0x13
    # Order with k = 3 members a, b, c: (a + c) + b; k = 5: ((a + e) + c) + (b + d).
    a, b, c, d, e = (np.array([v], dtype=f32) for v in (1e8, 1.0, -1e8, 3.0, 0.5))
    assert reduce_ranks("add", [a, b, c], f32, 1)[0] == f32(f32(1e8 + -1e8) + 1.0) == 1.0
    want5 = f32(f32(f32(f32(1e8) + f32(0.5)) + f32(-1e8)) + f32(f32(1.0) + f32(3.0)))
    assert reduce_ranks("add", [a, b, c, d, e], f32, 1)[0] == want5
    # A full mask gives the whole-warp butterfly's value, bit for bit.
    rng = np.random.default_rng(5)
    xs = [np.array([v], dtype=f32) for v in rng.standard_normal(WARP)]
    assert reduce_ranks("add", xs, f32, 1).view(np.uint32)[0] == \
        reduce_cluster("add", xs, f32, 1)[0].view(np.uint32)[0]
    # Ragged scans, n = 5, width 4: segments [0..3] and [4].
    vals = np.array(list(range(1, 33)), dtype=i32)
    res, tot = scan_valid("add", vals, 4, False, False, 5, i32)
    assert res[:5] == [1, 3, 6, 10, 5] and tot[:5] == [10, 10, 10, 10, 5] and res[5] is None
    res, tot = scan_valid("add", vals, 4, True, True, 5, i32)
    assert res[:5] == [9, 7, 4, 0, 0] and tot[4] == 5
    res, tot = scan_valid("add", vals, 32, True, True, 5, i32)
    assert res[:5] == [14, 12, 9, 5, 0] and tot[0] == 15
    res, tot = scan_valid("maxsi", np.array([3, -9, 7, 1] + [99] * 28, dtype=i32), 32, True,
                          False, 3, i32)
    assert res[:3] == [-2 ** 31, 3, 3] and tot[0] == 7
    fl = np.array(rng.integers(-4, 5, WARP), dtype=f32)
    for args in ((8, False, True, 17), (32, True, True, 31), (32, True, False, 2)):
        r1, t1 = scan_valid("add", fl, args[0], args[1], args[2], args[3], f32)
        r2, t2 = scan_valid_ordered("add", fl, args[0], args[1], args[2], args[3], f32)
        assert r1 == r2 and t1 == t2
    # Kogge-Stone order, n = 5 of width 8: lane 4 (and the total) is
    # x0 + ((x1 + x2) + (x3 + x4)) = 1e8 + (-1e8 + 2) = 0 in f32, where the
    # lane-order fold gives 2 and padding the dead lanes with 0 gives
    # ((x0 + x1) + (x2 + x3)) + x4 = 1 for the padded last position.
    xk = np.array([1e8, 1, -1e8, 1, 1] + [7] * 27, dtype=f32)
    r_ord, t_ord = scan_valid_ordered("add", xk, 8, False, False, 5, f32)
    assert r_ord[4] == 0.0 and t_ord[0] == 0.0 and t_ord[4] == 0.0
    assert scan_valid("add", xk, 8, False, False, 5, f32)[1][0] == 2.0
    assert scan("add", [np.array([v if l < 5 else 0], dtype=f32) for l, v in enumerate(xk)], 8,
                False, False, f32, 1)[1][0][0] == 1.0
    # Match on bits: +0.0 and -0.0 differ; the same NaN bits match.
    bits = np.array([0x00000000] * 31 + [0x80000000], dtype=np.uint32)
    assert match_any(bits, 0) == 0x7FFFFFFF and match_any(bits, 31) == 0x80000000
    assert match_all(bits) == (0, False)
    assert match_all(np.array([0x7FC00000] * 32, dtype=np.uint32)) == (0xFFFFFFFF, True)
    # Exchange, N = 2: striped lane 0 holds items 0 and 32, i.e. blocked
    # lane 0 position 0 and blocked lane 16 position 0; the inverse undoes it.
    items = [[2 * l, 2 * l + 1] for l in range(WARP)]
    striped = exchange(items, "blocked_to_striped")
    assert striped[0] == [0, 32] and striped[31] == [31, 63]
    assert exchange(striped, "striped_to_blocked") == items
    assert exchange([[l] for l in range(WARP)], "blocked_to_striped") == [[l] for l in range(WARP)]
    assert elected_lane([5, 3, 30]) == 3
    # Aggregated atomics: 3 lanes add 1, 2, 4 to a cell holding 10.
    got, final = aggregated_atomic_group(10, [1, 2, 4], np.int64)
    assert got == [10, 11, 13] and final == 17
    # f32: rank 2's prefix is 1e8 + 1 = 1e8 (rounded), so it returns 1e8 + old.
    got, final = aggregated_atomic_group(f32(0.5), [f32(1e8), f32(1), f32(-1e8)], f32)
    assert got[1] == f32(f32(0.5) + f32(1e8)) and got[2] == f32(f32(0.5) + f32(1e8))
    assert final == f32(0.5)  # (1e8 + 1) rounds to 1e8 in f32; + -1e8 = 0
    print("reference self-check: ok")


if __name__ == "__main__":
    self_check()
