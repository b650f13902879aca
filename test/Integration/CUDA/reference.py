"""Reference model of the warp ops, transcribed from CUDA's rules (the PTX ISA
and CUDA programming guide; summarized in docs/Overview.md, "Semantics"),
independent of the compiler: the GPU results are checked
against it lane by lane.
"""
import numpy as np

WARP = 32


def shuffle_source(mode, lane, offset, width, bound=None):
    """The PTX shfl.sync rule with CUDA's c = ((32 - w) << 8) | clamp, or
    c = bound (warp.shuffle's `bound`: the whole warp, clamp lane `bound`)."""
    c = bound if bound is not None else ((32 - width) << 8) | (0 if mode == "up" else 31)
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


def gpu_shuffle_source(mode, lane, offset, width):
    """Upstream MLIR's gpu.shuffle (GPUOps.td), a contract of its own, not
    CUDA's: `width` (any 1..32) is the number of lanes that take part, lanes
    0..width-1, with no segments; lane `lane` (< width: only those lanes
    execute it) reads lane lane ^ o (xor), lane + o (down), lane - o (up) or
    o (idx), and that read is valid iff the lane it names is one of the
    0..width-1. Upstream leaves the value of an invalid read unspecified; the
    import gives the lane's own value there, as PTX (and upstream's
    lowering) does. `o` is the offset's low 5 bits, what upstream's lowering
    hands to shfl.sync. Returns (source lane, valid)."""
    assert 1 <= width <= WARP and 0 <= lane < width
    o = offset & 31
    source = {"xor": lane ^ o, "down": lane + o, "up": lane - o, "idx": o}[mode]
    if 0 <= source < width:
        return source, True
    return lane, False


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


def _float_zero_sign(kind, result, a, b):
    """minimumf/maximumf where both operands are zeros: -0.0 < +0.0
    (numpy's minimum and maximum return either zero)."""
    zeros = (a == 0) & (b == 0)
    if kind == "minimumf":
        negative = np.signbit(a) | np.signbit(b)
    else:
        negative = np.signbit(a) & np.signbit(b)
    return np.where(zeros, np.where(negative, -0.0, 0.0).astype(result.dtype), result)


# The numpy ufunc of each kind: fixed-width integer arithmetic wraps as
# combine's masking does; minui/maxui compare the unsigned view.
_UFUNCS = {"add": np.add, "mul": np.multiply, "and": np.bitwise_and,
           "or": np.bitwise_or, "xor": np.bitwise_xor, "minsi": np.minimum,
           "maxsi": np.maximum, "minui": np.minimum, "maxui": np.maximum,
           "minnumf": np.fmin, "maxnumf": np.fmax, "minimumf": np.minimum,
           "maximumf": np.maximum}


def _unsigned(values, dtype):
    return values.view(np.dtype(f"uint{np.dtype(dtype).itemsize * 8}"))


def combine_arrays(kind, a, b, dtype):
    """combine() element by element over arrays (or an array and a scalar),
    in numpy: the same results, bit for bit."""
    dt = np.dtype(dtype)
    a = np.asarray(a, dtype=dt)
    b = np.asarray(b, dtype=dt)
    a, b = np.broadcast_arrays(a, b)
    if kind in ("minui", "maxui"):
        return _UFUNCS[kind](_unsigned(a, dt), _unsigned(b, dt)).view(dt)
    with np.errstate(all="ignore"):
        result = _UFUNCS[kind](a, b).astype(dt, copy=False)
    if kind in ("minimumf", "maximumf"):
        result = _float_zero_sign(kind, result, a, b)
    return result


def inclusive_scan(kind, values, dtype):
    """The inclusive scan of a 1-D array folded in order, as combine()
    applied thread after thread: numpy's accumulate combines in order."""
    dt = np.dtype(dtype)
    values = np.asarray(values, dtype=dt)
    if kind in ("minui", "maxui"):
        return _UFUNCS[kind].accumulate(_unsigned(values, dt)).view(dt)
    with np.errstate(all="ignore"):
        result = _UFUNCS[kind].accumulate(values, dtype=dt)
    if kind in ("minimumf", "maximumf"):
        # The fold's result is a zero only where every earlier value is on
        # one side of zero; its sign is -0.0 (minimum) where any zero so far
        # was -0.0, +0.0 (maximum) where any was +0.0.
        zero = values == 0
        if kind == "minimumf":
            seen = np.logical_or.accumulate(zero & np.signbit(values))
        else:
            seen = np.logical_or.accumulate(zero & ~np.signbit(values))
        negative = seen if kind == "minimumf" else ~seen
        signed_zero = np.where(negative, -0.0, 0.0).astype(dt)
        result = np.where(result == 0, signed_zero, result)
    return result


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


def match_any_low_bits(values, lane, bits, mask=0xFFFFFFFF):
    """warp.match_any %x mask %m bits N: the lanes of `mask` whose low N
    bits equal `lane`'s (CUB's MatchAny<N>)."""
    low = (1 << bits) - 1
    return sum(1 << l for l in range(len(values))
               if (mask >> l) & 1 and int(values[l]) & low == int(values[lane]) & low)


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


def scatter(items, ranks, striped):
    """warp.scatter (CUB WarpExchange::ScatterToStriped / ScatterToBlocked),
    from the definition: item `items[l][j]` goes to warp position
    `ranks[l][j]` (0 .. 32N-1; another rank drops the item). Returns, for
    each output [lane][slot], the items that name its position (striped:
    position 32 slot + lane; blocked: N lane + slot): one for a permutation;
    the result may be any of several, and is unspecified where none."""
    n = len(items[0])
    named = [[] for _ in range(WARP * n)]
    for lane, (lane_items, lane_ranks) in enumerate(zip(items, ranks)):
        for item, rank in zip(lane_items, lane_ranks):
            if 0 <= rank < WARP * n:
                named[rank].append(item)
    return [[named[WARP * j + lane] if striped else named[n * lane + j] for j in range(n)]
            for lane in range(WARP)]


def block_exchange(items, direction):
    """CUB BlockExchange, from the definition: `items[t][j]` is position j of
    thread t of a block of B = len(items) threads. Blocked: thread t holds
    items t*N..t*N+N-1; striped: thread t holds items t, t+B, ..., t+B*(N-1);
    warp-striped: lane l of warp w (L threads) holds 32wN + l + L j.
    Returns the items in the other arrangement, as items[t][j]."""
    b, n = len(items), len(items[0])
    if "warp_striped" in direction:
        # Warp-striped (t, j), t = 32 w + l in a warp of L threads: item
        # 32 w N + l + L j, held blocked by thread g // N.
        def warp_striped(t, j):
            first = t - t % WARP
            return first * n + t % WARP + min(b - first, WARP) * j
        where = {(warp_striped(t, j)): (t, j) for t in range(b) for j in range(n)}
        if direction == "blocked_to_warp_striped":
            return [[items[warp_striped(t, j) // n][warp_striped(t, j) % n]
                     for j in range(n)] for t in range(b)]
        # Blocked (t, j) is item N t + j, held warp-striped by where[g].
        return [[items[where[n * t + j][0]][where[n * t + j][1]] for j in range(n)]
                for t in range(b)]
    if direction == "blocked_to_striped":
        # Striped (t, j) is item t + B j, held blocked by thread g // N.
        return [[items[(t + b * j) // n][(t + b * j) % n] for j in range(n)]
                for t in range(b)]
    # Blocked (t, j) is item N t + j, held striped by thread g % B.
    return [[items[(n * t + j) % b][(n * t + j) // b] for j in range(n)]
            for t in range(b)]


def elected_lane(executing):
    """warp.elect: the lowest lane of the lanes that execute it (the mask)."""
    return min(executing) if executing else None


def kogge_stone_inclusive(values, dtype):
    """Inclusive prefix sums of `values` (a group's values in rank order) by
    Kogge-Stone with distances 1, 2, 4, 8, 16, `earlier + later`, rounded
    to `dtype` at every step: the order warp.atomic_rmw documents."""
    x = [dtype(v) for v in values]
    d = 1
    while d < WARP:
        x = [x[r] if r < d else dtype(x[r - d] + x[r]) for r in range(len(x))]
        d *= 2
    return x


def block_scan_order(algorithm, values, dtype, init=None, exclusive=False):
    """A float `add` block scan in the combine order warp.block_scan documents
    for `algorithm`, rounded to `dtype` at every step, and the block total.
    warp_scans: each warp's Kogge-Stone scan S over its live lanes, the
    warps' totals' Kogge-Stone scan K; thread t of warp w gets K[w-1] + S[t]
    (init + K[w-1] with init; warp 0 without init: S[t] alone). raking:
    segments of S = ceil(B / 32) threads folded from the left, their totals'
    Kogge-Stone scan K, and each segment rescanned from the left starting
    from its prefix (init + K[l-1], or K[l-1]; segment 0 without init starts
    from its first value). Exclusive: the value before a thread's own (the
    identity for thread 0 without init). Total: the last of K, without init."""
    t = dtype.type
    n = len(values)
    add = lambda a, b: t(a + b)  # noqa: E731
    zero = identity("add", dtype)
    result = [None] * n
    if algorithm == "warp_scans":
        warps = [list(values[w:w + WARP]) for w in range(0, n, WARP)]
        scans = [kogge_stone_inclusive(v, t) for v in warps]
        k = kogge_stone_inclusive([s[-1] for s in scans], t)
        for w, s in enumerate(scans):
            prefix = k[w - 1] if w else None
            if init is not None:
                prefix = init if prefix is None else add(init, prefix)
            for l in range(len(s)):
                own = s[l - 1] if exclusive else s[l]
                if exclusive and l == 0:
                    result[w * WARP] = zero if prefix is None else prefix
                else:
                    result[w * WARP + l] = own if prefix is None else add(prefix, own)
        return result, k[-1]
    size = (n + WARP - 1) // WARP
    segments = [list(values[a:a + size]) for a in range(0, n, size)]
    totals = []
    for seg in segments:
        acc = t(seg[0])
        for v in seg[1:]:
            acc = add(acc, v)
        totals.append(acc)
    k = kogge_stone_inclusive(totals, t)
    for l, seg in enumerate(segments):
        prefix = k[l - 1] if l else None
        if init is not None:
            prefix = init if prefix is None else add(init, prefix)
        acc = prefix
        for i, v in enumerate(seg):
            before = acc
            acc = t(v) if acc is None else add(acc, v)
            result[l * size + i] = (zero if before is None else before) if exclusive else acc
    return result, k[-1]


def _number_pick(a, b, largest):
    """CUDA's fminf/fmin (fmaxf/fmax with `largest`) on the GPU, PTX
    min/max.f32/.f64: a NaN operand loses to a number, NaN only when both
    are; -0.0 orders below +0.0."""
    if _is_nan(a):
        return b
    if _is_nan(b):
        return a
    if a == 0 and b == 0:
        return a if bool(np.signbit(a)) != largest else b
    return a if (a > b if largest else a < b) else b


def number_min(a, b):
    return _number_pick(a, b, largest=False)


def number_max(a, b):
    return _number_pick(a, b, largest=True)


def block_tiles(values, tile, per_tile):
    """A block op with `tile N` (warp.block_reduce/scan/broadcast): the
    block's values (in thread order x + X * (y + Y * z)) split into tiles of
    N consecutive threads, each run through `per_tile` (the op's reference
    over a block of N threads, returning a value per thread) on its own;
    thread t gets result t % N of tile t // N."""
    assert len(values) % tile == 0, "the block is a whole number of tiles"
    out = []
    for start in range(0, len(values), tile):
        out.extend(per_tile(list(values[start:start + tile])))
    return out


def block_shuffle_source(mode, t, distance, threads):
    """(source, valid) of warp.block_shuffle in thread (or tile rank) t of
    a block (or tile) of `threads`: "offset" reads t + d, "rotate" (t + d)
    mod B, "xor" t ^ d (d as its unsigned 32-bit pattern, so a negative d
    names no thread); outside the block the thread keeps its own value
    (source t) and valid is False."""
    if mode == "rotate":
        return (t + distance) % threads, True
    source = t ^ (distance & 0xFFFFFFFF) if mode == "xor" else t + distance
    return (source, True) if 0 <= source < threads else (t, False)


def block_ballot(predicates, words):
    """warp.block_ballot over a block (or tile) of len(predicates) threads:
    `words` 32-bit words (ints), bit i of word w the predicate of rank
    32 w + i; ranks past the block give 0."""
    out = [0] * words
    for rank, p in enumerate(predicates):
        if p:
            out[rank // 32] |= 1 << (rank % 32)
    return out


def atomic_apply(kind, old, value, dtype):
    """What one atomic of warp.atomic_rmw `kind` with `value` leaves in an
    element that held `old` (PTX atom's operations): `exch` stores the
    value, the float min/max are CUDA's fminf/fmaxf (number_min,
    number_max: signed zeros ordered), the other kinds combine as `combine`
    does (integers wrap, the `ui` kinds compare the bits unsigned, float add
    rounds once)."""
    dt = np.dtype(dtype)
    if kind == "exch":
        return dt.type(value)
    if kind in ("minnumf", "maxnumf"):
        pick = number_min if kind == "minnumf" else number_max
        return dt.type(pick(dt.type(old), dt.type(value)))
    return combine(kind, old, value, dtype)


def tile_ballot(predicates, members, width=WARP):
    """warp.ballot (width 32) and cooperative groups' tile.ballot (width w
    < 32): per lane of `members` (a 32-bit mask), the ballot of its tile of
    `width` lanes starting at lane - lane % width, bit i for lane first + i
    (a member whose predicate holds); None for the other lanes."""
    result = [None] * WARP
    for lane in range(WARP):
        if not (members >> lane) & 1:
            continue
        first = lane - lane % width
        result[lane] = sum(1 << i for i in range(width)
                           if (members >> (first + i)) & 1 and predicates[first + i])
    return result


def tile_vote(kind, predicates, members, width=WARP):
    """warp.vote <any|all|uni> over each member's tile of `width` lanes:
    the tile's members' predicates (any: one true; all: none false; uni:
    all alike); None for the lanes outside `members`."""
    result = [None] * WARP
    for lane in range(WARP):
        if not (members >> lane) & 1:
            continue
        first = lane - lane % width
        votes = [bool(predicates[l]) for l in range(first, first + width) if (members >> l) & 1]
        result[lane] = {"any": any(votes), "all": all(votes),
                        "uni": all(votes) or not any(votes)}[kind]
    return result


def aggregated_atomic_group(old, values, dtype):
    """What warp.atomic_rmw returns to a group (values in ascending lane
    order) whose atomic found `old`, and the value it leaves in memory:
    old + exclusive prefix (old itself in the lowest lane) and old + total,
    each rounded once."""
    inclusive = kogge_stone_inclusive(values, dtype)
    returned = [dtype(old)] + [dtype(dtype(old) + inclusive[r - 1]) for r in range(1, len(values))]
    return returned, dtype(dtype(old) + inclusive[-1])


# ----------------------------------------------------------------------------
# Combiner regions and tuples (cases.COMBINERS): each function combines the
# lower lane's tuple `l` with the higher lane's `r`, in the exact arithmetic
# of the region (float32 rounding after every operation).
# ----------------------------------------------------------------------------

def comb_argmax(l, r):
    """The larger value, NaN largest of all; on a tie (equal values, +0.0 ==
    -0.0, or both NaN) the lower index."""
    lv, li = l
    rv, ri = r
    l_nan, r_nan = bool(np.isnan(lv)), bool(np.isnan(rv))
    same = (lv == rv) or (l_nan and r_nan)
    take_right = (rv > lv) or (r_nan and not l_nan) or (same and ri < li)
    return (rv, ri) if take_right else (lv, li)


def comb_welford(l, r):
    f32 = np.float32
    na, ma, qa = l
    nb, mb, qb = r
    n = np.int32(na + nb)
    fa, fb, fn = f32(na), f32(nb), f32(n)
    d = f32(mb - ma)
    w = f32(fb / fn)
    mean = f32(ma + f32(d * w))
    c = f32(f32(d * d) * f32(fa * w))
    q = f32(f32(qa + qb) + c)
    return (n, mean, q)


def comb_affine(l, r):
    """x -> a*x + b: first l's map, then r's (32-bit wrap-around)."""
    a1, b1 = int(l[0]), int(l[1])
    a2, b2 = int(r[0]), int(r[1])
    wrap = lambda v: np.int32(((v + 2 ** 31) % 2 ** 32) - 2 ** 31)  # noqa: E731
    return (wrap(a2 * a1), wrap(a2 * b1 + b2))


def comb_softmax(l, r):
    """(max, sum of exp(x - max)) in float64: the GPU's exp is checked to a
    tolerance, its max bit for bit."""
    m = max(l[0], r[0])
    return (m, l[1] * np.exp(np.float64(l[0]) - m) + r[1] * np.exp(np.float64(r[0]) - m))


def comb_add(dtype):
    return lambda l, r: (dtype(l[0] + r[0]),)


def comb_maxsi(l, r):
    return (np.int32(max(int(l[0]), int(r[0]))),)


COMBINE_FUNCTIONS = {
    "argmax": comb_argmax, "argmax_nc": comb_argmax, "argmax_f16": comb_argmax,
    "welford": comb_welford,
    "affine": comb_affine, "softmax": comb_softmax,
    "add_i32": comb_add(np.int32), "add_f32": comb_add(np.float32),
    "maxsi_i32": comb_maxsi,
}


def fold(fn, tuples):
    """x_0 (op) x_1 (op) ... in lane order: the result of any order that keeps
    lane order, for an associative combiner with exact arithmetic."""
    acc = tuples[0]
    for t in tuples[1:]:
        acc = fn(acc, t)
    return acc


def tree(fn, tuples, commutative):
    """The documented reduction tree over k ranks: commutative combiners
    pair the farthest ranks first (r < d with r + d, d = 16, ..., 1, as
    reduce_ranks), the others the nearest first (r with r + d for r a
    multiple of 2d, d = 1, 2, ..., 16), the lower rank on the left; rank 0
    ends with the result."""
    vals = list(tuples)
    k = len(vals)
    distances = [16, 8, 4, 2, 1] if commutative else [1, 2, 4, 8, 16]
    for d in distances:
        for r in range(k):
            if r + d < k and (r < d if commutative else r % (2 * d) == 0):
                vals[r] = fn(vals[r], vals[r + d])
    return vals[0]


def segments(lanes, head_flags, tail_flags=None):
    """Splits `lanes` (ascending: the executing lanes of a cluster or width
    segment) into runs: a new run starts at a lane whose head flag is set,
    after a lane whose tail flag is, and at a gap. The gaps are the member
    mask's edges: a maximal run of consecutive lanes of the mask starts a
    segment at its first lane and ends one at its last lane, whatever the
    flags of the lanes outside it (semantics.md: a segment whose neighbour
    lies outside the mask is complete in itself)."""
    runs = []
    for pos, lane in enumerate(lanes):
        starts = pos == 0 or lanes[pos - 1] != lane - 1 or \
            (head_flags is not None and head_flags[lane]) or \
            (tail_flags is not None and tail_flags[lanes[pos - 1]])
        if starts:
            runs.append([])
        runs[-1].append(lane)
    return runs


def combiner_inputs(comb, trial, rng):
    """One tuple per lane (a list of numpy arrays, one per value). Trials
    vary the data: argmax gets ties (few distinct values), then NaNs and
    signed zeros; affine maps cover the whole i32 range."""
    if comb == "argmax_f16":
        values, index = combiner_inputs("argmax", trial, rng)
        return [values.astype(np.float16), index.astype(np.int16)]
    if comb in ("argmax", "argmax_nc"):
        values = rng.integers(-3, 4, WARP).astype(np.float32)
        if trial == 1:
            values[rng.integers(0, WARP, 3)] = np.nan
            values[rng.integers(0, WARP, 4)] = -0.0
        if trial == 2:
            values = rng.standard_normal(WARP).astype(np.float32)
            values[[3, 17]] = np.float32(9.0)  # a tie of the maximum
        return [values, rng.permutation(WARP).astype(np.int32)]
    if comb == "welford":
        x = (rng.standard_normal(WARP) * (1.0, 100.0, 1e-3)[trial % 3] + trial).astype(np.float32)
        return [np.ones(WARP, np.int32), x, np.zeros(WARP, np.float32)]
    if comb == "affine":
        return [rng.integers(-2 ** 31, 2 ** 31, WARP, dtype=np.int64).astype(np.int32)
                for _ in range(2)]
    if comb == "softmax":
        return [(rng.standard_normal(WARP) * 4).astype(np.float32), np.ones(WARP, np.float32)]
    if comb == "add_i32":
        return [rng.integers(-1000, 1000, WARP).astype(np.int32)]
    if comb == "maxsi_i32":  # mostly negative: a 0 read from elsewhere shows
        return [rng.integers(-2 ** 31, 2 ** 27, WARP, dtype=np.int64).astype(np.int32)]
    return [rng.integers(-8, 9, WARP).astype(np.float32)]  # add_f32: exact sums


def flag_pattern(pattern, rng):
    if pattern == "random":
        return (rng.random(WARP) < 0.3).astype(np.int32)
    if pattern == "sparse":
        return (rng.random(WARP) < 0.06).astype(np.int32)
    return np.full(WARP, 1 if pattern == "all" else 0, np.int32)


def segment_spans(case, flags):
    """The segments a segmented case of cases.combiner_cases() cuts when the
    whole warp executes: its clusters (reduce, stride 1) or width segments
    (scan: op "scan" or none, as the segmented_scan family's), cut by its
    head or tail flags."""
    if case.get("op") == "reduce":
        groups = clusters(*case["cluster"])
        heads = flags if case["segments"] == "heads" else None
        tails = flags if case["segments"] == "tails" else None
    else:
        groups = [list(range(b, b + case["width"])) for b in range(0, WARP, case["width"])]
        heads, tails = flags, None
    return [run for group in groups for run in segments(group, heads, tails)]


def union_of_segments(spans, rng):
    """A member mask made of some of the segments `spans`, each taken with
    probability 1/2: at least one, and not all of them where there are
    several, so that some chosen segment has a neighbour outside the mask."""
    while True:
        chosen = [span for span in spans if rng.random() < 0.5]
        if chosen and (len(chosen) < len(spans) or len(spans) == 1):
            return sum(1 << lane for span in chosen for lane in span)


def cut_at_mask_edges(flags, mask, kind):
    """`flags` (kind "heads" or "tails") with the flags added that make
    `mask` a union of whole segments: a head at the first lane of each run
    of consecutive lanes of the mask and at the lane after its last lane; a
    tail at its last lane and at the lane before its first lane (the lanes
    outside the mask keep flags the op never sees)."""
    flags = flags.copy()
    member = [(mask >> lane) & 1 for lane in range(WARP)] + [0]
    for lane in range(WARP):
        before = member[lane - 1] if lane else 0
        edge = (member[lane] != before) if kind == "heads" else (member[lane] != member[lane + 1])
        if edge:
            flags[lane] = 1
    return flags


def segment_mask(spec, case, flags, rng):
    """(mask, flags) of one run of a segmented case under a member mask
    (spec from cases.SEGMENT_MASKS): "union" draws a union of random whole
    segments of `flags`; a mask M gets the flags that cut segments at its
    edges (cut_at_mask_edges); "edges:M" keeps the flags, so that M's edges
    alone bound some segments (the rule, not the flags, makes it a union of
    whole segments)."""
    if spec == "union":
        return union_of_segments(segment_spans(case, flags), rng), flags
    if isinstance(spec, str) and spec.startswith("edges:"):
        return int(spec[len("edges:"):], 16), flags
    return spec, cut_at_mask_edges(flags, spec, case.get("segments") or "heads")


def same_tuple(got, want, comb):
    """Integers exactly, floats bit for bit (any NaN matches a NaN); the
    softmax sum, computed with the GPU's exp, to a relative 2e-5."""
    for k, (g, w) in enumerate(zip(got, want)):
        if comb == "softmax" and k == 1:
            if not abs(float(g) - float(w)) <= 2e-5 * abs(float(w)):
                return False
            continue
        g = np.asarray(g)
        w = np.asarray(w, dtype=g.dtype)
        if g.dtype.kind == "f":
            if np.isnan(g) and np.isnan(w):
                continue
            if g.tobytes() != w.tobytes():
                return False
        elif g != w:
            return False
    return True


def combiner_expectations(case, commutative, tuples, flags, n, mask):
    """{lane: expected tuple} of a case of cases.combiner_cases() for the
    lanes whose result the op defines: the lanes of `mask` below `n`
    execute; `tuples` holds each lane's values, `flags` its segment flag."""
    comb = case["combiner"]
    fn = COMBINE_FUNCTIONS[comb]
    exact = comb not in ("welford", "softmax")
    want = {}
    live = [l for l in range(WARP) if (mask >> l) & 1 and l < n]
    if case["op"] == "reduce":
        for cluster in clusters(*case["cluster"]):
            members = [l for l in cluster if l in live]
            if not members:
                continue
            if case["segments"]:
                heads = flags if case["segments"] == "heads" else None
                tails = flags if case["segments"] == "tails" else None
                for run in segments(members, heads, tails):
                    value = fold(fn, [tuples[l] for l in run])
                    for lane in (run if case["lanes"] == "all" else run[:1]):
                        want[lane] = value
                continue
            mine = [tuples[l] for l in members]
            value = fold(fn, mine) if exact else tree(fn, mine, commutative)
            for lane in (members if case["lanes"] == "all" else members[:1]):
                want[lane] = value
        return want
    width = case["width"]
    init = case.get("init_value")
    for base in range(0, WARP, width):
        members = [l for l in range(base, base + width) if l in live]
        if not members:
            continue
        for run in segments(members, flags if case["heads"] else None):
            for p, lane in enumerate(run):
                if case["reverse"]:
                    span = run[p + 1:] if case["exclusive"] else run[p:]
                    seq = [tuples[l] for l in span] + ([init] if init is not None else [])
                else:
                    span = run[:p] if case["exclusive"] else run[:p + 1]
                    seq = ([init] if init is not None else []) + [tuples[l] for l in span]
                want[lane] = fold(fn, seq)
    return want


def combiner_trials(case, commutative, dtypes, runs, patterns, rng, trials=3):
    """The data of every run of a combiner case: yields (n, mask, flags,
    inputs, inits, want, label) with `want` the expectations of
    combiner_expectations; `dtypes` are the values' numpy types."""
    for n, mask in runs:
        for pattern in patterns:
            for trial in range(trials):
                inputs = combiner_inputs(case["combiner"], trial, rng)
                flags = flag_pattern(pattern, rng)
                members = mask
                if case["execution"] == "segment_masks":
                    members, flags = segment_mask(mask, case, flags, rng)
                inits = [dt(0) for dt in dtypes]
                if case.get("init"):  # affine maps: a random map
                    inits = [np.int32(rng.integers(-2 ** 31, 2 ** 31)) for _ in dtypes]
                    case["init_value"] = tuple(inits)
                tuples = [tuple(dt(a[lane]) for a, dt in zip(inputs, dtypes))
                          for lane in range(WARP)]
                want = combiner_expectations(case, commutative, tuples, flags, n, members)
                yield (n, members, flags, inputs, inits, want,
                       f"n={n} mask={members:#x} flags={pattern} trial={trial}")


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
    # Scatter, N = 2, ranks reversing the 64 positions: lane 0's items 0, 1
    # go to positions 63, 62 (striped: lane 31 slot 1, lane 30 slot 1).
    ranks = [[63 - (2 * l + j) for j in range(2)] for l in range(WARP)]
    placed = scatter(items, ranks, striped=True)
    assert placed[31][1] == [0] and placed[30][1] == [1] and placed[0][0] == [63]
    assert scatter(items, ranks, striped=False)[0] == [[63], [62]]
    # A rank outside 0..63 drops its item (positions 63, 62 stay unnamed);
    # lane 1's items both name position 5, as item 58 still does.
    ranks[0] = [-1, 64]
    ranks[1] = [5, 5]
    placed = scatter(items, ranks, striped=False)
    assert placed[31] == [[], []] and placed[2][1] == [2, 3, 58]
    # Block exchange, B = 3 threads, N = 2 (items 0..5 blocked: thread t
    # holds 2t, 2t+1): striped thread t holds items t and t + 3.
    items = [[0, 1], [2, 3], [4, 5]]
    striped = block_exchange(items, "blocked_to_striped")
    assert striped == [[0, 3], [1, 4], [2, 5]]
    assert block_exchange(striped, "striped_to_blocked") == items
    # Striped input t, t+5 (B = 5, N = 2) back to blocked: thread 1 holds 2, 3.
    assert block_exchange([[t, t + 5] for t in range(5)], "striped_to_blocked")[1] == [2, 3]
    # Block scan orders, B = 66 (3 warps, raking segments of 3): exact on
    # ones; with 2^24 (ulp 2) in thread 0 the order shows at thread 2:
    # raking (2^24 + 1) + 1 rounds twice to 2^24, Kogge-Stone 2^24 + (1 + 1)
    # is exact.
    ones = [f32(1)] * 66
    for algorithm in ("warp_scans", "raking"):
        incl, total = block_scan_order(algorithm, ones, np.dtype(f32))
        assert incl == [f32(i + 1) for i in range(66)] and total == 66
        excl, _ = block_scan_order(algorithm, ones, np.dtype(f32), init=f32(5), exclusive=True)
        assert excl == [f32(5 + i) for i in range(66)]
    big = [f32(2 ** 24)] + [f32(1)] * 65
    assert block_scan_order("raking", big, np.dtype(f32))[0][2] == f32(2 ** 24)
    assert block_scan_order("warp_scans", big, np.dtype(f32))[0][2] == f32(2 ** 24 + 2)
    # Tiles of 64 in a block of 128: the float scan restarts at thread 64
    # (its own warp scans, K of tile 1 alone), the total is each tile's.
    tiled = block_tiles(ones + ones[:62], 64,
                        lambda v: block_scan_order("warp_scans", v, np.dtype(f32))[0])
    assert tiled[63] == f32(64) and tiled[64] == f32(1) and tiled[127] == f32(64)
    assert block_tiles(list(range(128)), 64, lambda v: [v[3]] * len(v))[70] == 67
    assert elected_lane([5, 3, 30]) == 3
    # Block shuffles by hand: xor reads an earlier rank or a later one
    # inside the block, none past it; a negative distance names none.
    assert block_shuffle_source("xor", 5, 3, 64) == (6, True)
    assert block_shuffle_source("xor", 70, 64, 128) == (6, True)
    assert block_shuffle_source("xor", 5, 64, 64) == (5, False)
    assert block_shuffle_source("xor", 90, 32, 100) == (90, False)  # 122 >= 100
    assert block_shuffle_source("xor", 3, -1, 64) == (3, False)
    assert block_shuffle_source("offset", 2, -3, 64) == (2, False)
    assert block_shuffle_source("rotate", 2, -3, 64) == (63, True)
    # Ballot words: rank 33 is bit 1 of word 1; a ragged block's last word
    # has no bits past its ranks, and a word past the block is 0.
    assert block_ballot([False] * 33 + [True], 3) == [0, 2, 0]
    assert block_ballot([True] * 40, 2) == [0xFFFFFFFF, 0xFF]
    # One atomic of each kind, worked by hand.
    assert atomic_apply("add", i32(2 ** 31 - 1), i32(1), i32) == i32(-2 ** 31)
    assert atomic_apply("minsi", i32(-1), i32(5), i32) == i32(-1)
    assert atomic_apply("minui", i32(-1), i32(5), i32) == i32(5)
    assert atomic_apply("maxui", i32(-1), i32(5), i32) == i32(-1)
    assert atomic_apply("maxsi", np.int64(-3), np.int64(-7), np.int64) == -3
    assert atomic_apply("and", i32(12), i32(10), i32) == i32(8)
    assert atomic_apply("or", i32(12), i32(10), i32) == i32(14)
    assert atomic_apply("xor", i32(12), i32(10), i32) == i32(6)
    assert atomic_apply("exch", f32(1.5), f32(-2.0), f32) == f32(-2.0)
    # fminf/fmaxf: a NaN loses, -0.0 below +0.0 (by the sign bit).
    assert atomic_apply("minnumf", f32(np.nan), f32(3), f32) == 3
    assert atomic_apply("maxnumf", np.float64(-1), np.float64(np.nan), np.float64) == -1
    assert np.isnan(atomic_apply("minnumf", f32(np.nan), f32(np.nan), f32))
    assert np.signbit(atomic_apply("minnumf", f32(0.0), f32(-0.0), f32))
    assert np.signbit(atomic_apply("minnumf", f32(-0.0), f32(0.0), f32))
    assert not np.signbit(atomic_apply("maxnumf", f32(-0.0), f32(0.0), f32))
    assert not np.signbit(atomic_apply("maxnumf", np.float64(0.0), np.float64(-0.0), np.float64))
    # Tiles: lanes 0..3 hold 1, 0, 1, 1, the rest 0; members all but lane 2.
    p = [1, 0, 1, 1] + [0] * 28
    m = 0xFFFFFFFF & ~4
    assert tile_ballot(p, m, 4)[1] == 0b1001 and tile_ballot(p, m, 4)[4] == 0
    assert tile_ballot(p, m, 2)[3] == 0b10 and tile_ballot(p, m)[0] == 0b1001
    assert tile_ballot(p, m)[2] is None
    assert tile_vote("any", p, m, 2)[0] and not tile_vote("all", p, m, 2)[1]
    assert tile_vote("all", p, m, 2)[3] and tile_vote("uni", p, m, 8)[9]
    assert not tile_vote("uni", p, m, 4)[0] and tile_vote("uni", p, m, 1)[1]
    # Aggregated atomics: 3 lanes add 1, 2, 4 to a cell holding 10.
    got, final = aggregated_atomic_group(10, [1, 2, 4], np.int64)
    assert got == [10, 11, 13] and final == 17
    # f32: rank 2's prefix is 1e8 + 1 = 1e8 (rounded), so it returns 1e8 + old.
    got, final = aggregated_atomic_group(f32(0.5), [f32(1e8), f32(1), f32(-1e8)], f32)
    assert got[1] == f32(f32(0.5) + f32(1e8)) and got[2] == f32(f32(0.5) + f32(1e8))
    assert final == f32(0.5)  # (1e8 + 1) rounds to 1e8 in f32; + -1e8 = 0


    # Combiners: affine maps compose in lane order; the trees keep it.
    maps = [(np.int32(2), np.int32(1)), (np.int32(3), np.int32(0)), (np.int32(1), np.int32(5))]
    # x -> 2x + 1, then 3x, then x + 5: x -> 6x + 8.
    assert fold(comb_affine, maps) == (6, 8)
    assert tree(comb_affine, maps, False) == (6, 8)
    assert fold(comb_affine, maps[::-1]) != (6, 8)
    big = [(np.int32(v), np.int32(v * 7 + 3)) for v in rng.integers(-2 ** 31, 2 ** 31, 32)]
    assert tree(comb_affine, big, False) == fold(comb_affine, big)
    assert comb_affine((np.int32(65536), np.int32(0)), (np.int32(65536), np.int32(1))) == (0, 1)
    # argmax: NaN wins, ties go to the lower index whichever side it is on.
    nan = np.float32(np.nan)
    assert comb_argmax((f32(1), 7), (f32(1), 3)) == (1, 3)
    assert comb_argmax((f32(1), 3), (f32(1), 7)) == (1, 3)
    assert comb_argmax((f32(-0.0), 9), (f32(0.0), 4))[1] == 4
    assert comb_argmax((f32(5), 0), (nan, 8))[1] == 8 and comb_argmax((nan, 8), (f32(5), 0))[1] == 8
    # Welford of 1..4 (one value per lane): mean 2.5, m2 5.
    w = tree(comb_welford, [(np.int32(1), f32(v), f32(0)) for v in (1, 2, 3, 4)], False)
    assert w == (4, 2.5, 5.0)
    # Segments: heads at 2 and 5 of lanes 0..7; tails at 1 and 4 give the same.
    flags = [0] * 32
    flags[2] = flags[5] = 1
    assert segments(list(range(8)), flags) == [[0, 1], [2, 3, 4], [5, 6, 7]]
    tails = [0] * 32
    tails[1] = tails[4] = 1
    assert segments(list(range(8)), None, tails) == [[0, 1], [2, 3, 4], [5, 6, 7]]
    # The mask's edges bound segments: lanes 16..31 execute (0xFFFF0000),
    # tails at 15, 23 and 31 (lane 15 outside): two runs of 8; with heads at
    # 24 only (none at 16), the same. A hole (0x00FF0F00) splits a run without
    # flags.
    tails = [0] * 32
    tails[15] = tails[23] = tails[31] = 1
    assert segments(list(range(16, 32)), None, tails) == [list(range(16, 24)), list(range(24, 32))]
    heads = [0] * 32
    heads[24] = 1
    assert segments(list(range(16, 32)), heads) == [list(range(16, 24)), list(range(24, 32))]
    hole = [l for l in range(32) if (0x00FF0F00 >> l) & 1]
    assert segments(hole, [0] * 32) == [[8, 9, 10, 11], list(range(16, 24))]
    assert segments(hole, None, [0] * 32) == [[8, 9, 10, 11], list(range(16, 24))]
    # Flags that make 0x00FF0F00 a union of whole segments: heads at 8, 12,
    # 16 and 24; tails at 7, 11, 15 and 23.
    zeros = np.zeros(32, np.int32)
    assert list(np.flatnonzero(cut_at_mask_edges(zeros, 0x00FF0F00, "heads"))) == [8, 12, 16, 24]
    assert list(np.flatnonzero(cut_at_mask_edges(zeros, 0x00FF0F00, "tails"))) == [7, 11, 15, 23]
    # Clusters of 8 with tails at 2 and 20: segments 0..2, 3..7, 8..15,
    # 16..20, 21..23, 24..31.
    tails = np.zeros(32, np.int32)
    tails[[2, 20]] = 1
    spans = segment_spans(dict(op="reduce", cluster=[8, 1], segments="tails"), tails)
    assert [(s[0], s[-1]) for s in spans] == [(0, 2), (3, 7), (8, 15), (16, 20), (21, 23), (24, 31)]
    assert segment_mask("edges:0x00FFFF00", {}, tails, None) == (0x00FFFF00, tails)
    print("reference self-check: ok")


if __name__ == "__main__":
    self_check()
