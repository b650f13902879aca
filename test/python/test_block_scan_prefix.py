"""warp.block_scan with a prefix region (CUB's BlockPrefixCallbackOp): a
running prefix over consecutive tiles, kept in workgroup memory and updated
by the region, against numpy on the simulator (and the GPU when present)."""
import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import affine, wrap

TILES = 3
# The running value before the first tile: a prefix that changes every
# result (not the kind's identity).
START = {"add": 7, "maxnumf": 50.0}
TYPES = {"add": (wm.i32, np.int32), "maxnumf": (wm.f32, np.float32)}


def running(k, buffer, combine, total):
    """The region: every lane of warp 0 reads the running value (lane 0's
    is the prefix), then (after a __syncwarp: the other lanes' reads must
    not meet the store) lane 0 stores it combined with the tile's total."""
    old = buffer[0]
    k.syncwarp()
    with k.if_(k.lane_id() == 0):
        buffer[0] = combine(k, old, total)
    return old


def combine_of(kind):
    return (lambda k, a, b: a + b) if kind == "add" else (lambda k, a, b: k.max(a, b))


def tiles_program(kind, exclusive, algorithm, items):
    prog = wm.Program("scan_prefix")
    element = TYPES[kind][0]

    @prog.kernel(x=wm.memref(element), out=wm.memref(element), tot=wm.memref(element))
    def tiles(k, x, out, tot):
        run = k.shared(element, 1)
        tid = k.thread_id()
        with k.if_(tid == 0):
            run[0] = START[kind]
        k.barrier()
        per = max(items, 1)
        with k.loop(0, TILES) as t:
            first = (t * k.block_dim() + tid) * per
            value = k.load_vector(x, first, items) if items else x[first]
            s, total = k.block_scan(kind, value, exclusive=exclusive, total=True,
                                    algorithm=algorithm, items=bool(items),
                                    prefix=lambda k, total: running(k, run, combine_of(kind),
                                                                    total))
            if items:
                k.store_vector(out, first, s)
            else:
                out[first] = s
            tot[t * k.block_dim() + tid] = total
    return prog


def model(kind, x, threads, exclusive):
    """Each tile's scan with the running value of the tiles before it in
    front (the exact sums wrap as i32 does), and each tile's total."""
    op = np.add if kind == "add" else np.maximum
    size = len(x) // TILES
    want, totals = [], []
    prefix = START[kind]
    for t in range(TILES):
        tile = x[t * size:(t + 1) * size].astype(np.int64 if kind == "add" else np.float64)
        inclusive = op.accumulate(np.concatenate([[prefix], tile]))
        want.append(inclusive[:-1] if exclusive else inclusive[1:])
        total = op.reduce(tile)
        totals.append(np.full(threads, total))
        prefix = op(prefix, total)
    dtype = TYPES[kind][1]
    fix = (lambda a: np.vectorize(wrap)(a)) if kind == "add" else (lambda a: a)
    return (fix(np.concatenate(want)).astype(dtype),
            fix(np.concatenate(totals)).astype(dtype))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,exclusive,algorithm,threads,items", [
    ("add", True, "warp_scans", 64, 0),
    ("add", False, "raking", 100, 0),
    ("maxnumf", False, "warp_scans", 100, 0),
    ("maxnumf", True, "raking", 64, 0),
    ("add", True, "warp_scans", 96, 4),
])
def test_running_prefix_over_tiles(backend, kind, exclusive, algorithm, threads, items):
    compiled = wm.compile(tiles_program(kind, exclusive, algorithm, items), chip="sm_90")
    rng = np.random.default_rng([threads, items, len(kind)])
    dtype = TYPES[kind][1]
    n = TILES * threads * max(items, 1)
    if kind == "add":
        x = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)
    else:
        x = rng.integers(-100, 100, n).astype(np.float32)
    out = np.zeros(n, dtype)
    tot = np.zeros(TILES * threads, dtype)
    wm.launch(compiled, "tiles", 1, threads, x, out, tot, backend=backend)
    want, want_tot = model(kind, x, threads, exclusive)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(tot, want_tot)


def affine_prefix_program(algorithm):
    """Affine maps composed over the block with a prefix region that
    composes a fixed map (3, 1) in front of the block's total map and
    stores the total each lane of warp 0 sees: every result is (3, 1) then
    the maps before it."""
    prog = wm.Program("affine_prefix")

    @prog.kernel(a=wm.memref(wm.i32), b=wm.memref(wm.i32), sa=wm.memref(wm.i32),
                 sb=wm.memref(wm.i32), seen=wm.memref(wm.i32))
    def scan(k, a, b, sa, sb, seen):
        i = k.thread_id()

        def prefix(k, total):
            lane = k.cast(k.lane_id(), wm.index)
            seen[lane + lane] = total[0]
            seen[lane + lane + 1] = total[1]
            return k.constant(3, wm.i32), k.constant(1, wm.i32)
        pa, pb = k.block_scan(affine, (a[i], b[i]), exclusive=True, prefix=prefix,
                              algorithm=algorithm)
        sa[i] = pa
        sb[i] = pb
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("algorithm,threads", [("raking", 100), ("warp_scans", 64)])
def test_prefix_region_over_a_tuple(backend, algorithm, threads):
    compiled = wm.compile(affine_prefix_program(algorithm), chip="sm_90")
    rng = np.random.default_rng(5)
    a = rng.integers(-3, 4, threads).astype(np.int32)
    b = rng.integers(-9, 10, threads).astype(np.int32)
    sa, sb, seen = (np.zeros(n, np.int32) for n in (threads, threads, 64))
    wm.launch(compiled, "scan", 1, threads, a, b, sa, sb, seen, backend=backend)
    # Exclusive: thread t gets (3, 1) composed with the maps 0 .. t-1.
    # Python integers, wrapped to i32 after each step (numpy's would overflow).
    ai, bi = a.tolist(), b.tolist()
    want = []
    acc = (3, 1)
    for t in range(threads):
        want.append(acc)
        acc = (wrap(ai[t] * acc[0]), wrap(ai[t] * acc[1] + bi[t]))
    total = (1, 0)
    for t in range(threads):
        total = (wrap(ai[t] * total[0]), wrap(ai[t] * total[1] + bi[t]))
    np.testing.assert_array_equal(sa, [w[0] for w in want])
    np.testing.assert_array_equal(sb, [w[1] for w in want])
    # Every lane of warp 0 runs the region on the block's total.
    np.testing.assert_array_equal(seen, np.tile(total, 32))


def test_prefix_checked_at_the_call():
    prog = wm.Program()
    with pytest.raises(ValueError, match="init or prefix, not both"):
        @prog.kernel(x=wm.memref(wm.i32))
        def both(k, x):
            k.block_scan("add", x[k.thread_id()], init=1, prefix=lambda k, t: t)
    with pytest.raises(wm.VerificationError, match="does not take 'reverse'"):
        @prog.kernel(x=wm.memref(wm.i32))
        def reverse(k, x):
            k.block_scan("add", x[k.thread_id()], reverse=True, prefix=lambda k, t: t)
