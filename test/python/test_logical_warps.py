"""Logical warps whose size is not a power of two (CUB's
LOGICAL_WARP_THREADS): warp.reduce with `cluster_size = N` and warp.scan
with `width N` work on the groups of N consecutive lanes [0, N), [N, 2N),
..., the last one shorter. Results on the simulator (and a GPU) against a
numpy model of the documented semantics and combine order."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS

SIZES = [3, 5, 6, 7, 12, 24, 31, 8]
THREADS = 64  # two warps: the groups restart in each


def affine(left, right):
    """x -> a*x + b, the left map first: associative, not commutative."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


@functools.lru_cache(maxsize=None)
def program(n):
    prog = wm.Program(f"logical_warps_{n}")

    @prog.kernel(xf=wm.memref(wm.f32), xi=wm.memref(wm.i32), a=wm.memref(wm.i32),
                 b=wm.memref(wm.i32), flags=wm.memref(wm.i32),
                 sum_all=wm.memref(wm.f32), max_first=wm.memref(wm.i32),
                 ca=wm.memref(wm.i32), cb=wm.memref(wm.i32), seg=wm.memref(wm.f32),
                 masked_all=wm.memref(wm.f32), masked_first=wm.memref(wm.f32),
                 inc=wm.memref(wm.f32), exc=wm.memref(wm.i32), tot=wm.memref(wm.i32),
                 mask=wm.i32)
    def logical(k, xf, xi, a, b, flags, sum_all, max_first, ca, cb, seg,
                masked_all, masked_first, inc, exc, tot, mask):
        i = k.global_id()
        x = xf[i]
        sum_all[i] = k.reduce("add", x, cluster_size=n)
        max_first[i] = k.reduce("maxsi", xi[i], cluster_size=n, lanes="first")
        ca[i], cb[i] = k.reduce(affine, (a[i], b[i]), cluster_size=n)
        seg[i] = k.reduce("add", x, cluster_size=n, heads=flags[i] != 0)
        inc[i] = k.scan("add", x, width=n)
        exc[i], tot[i] = k.scan("add", xi[i], width=n, exclusive=True, total=True)
        with k.if_(((mask >> k.lane_id()) & 1) != 0):
            masked_all[i] = k.reduce("add", x, cluster_size=n, mask=mask)
            masked_first[i] = k.reduce("add", x, cluster_size=n, mask=mask, lanes="first")
    return prog


def segments(n, members=(1 << 32) - 1, heads=()):
    """The (first, last) lanes of each segment of one warp: the groups of n
    lanes, cut at the edges of the member mask and at head lanes."""
    out, start = [], None
    for lane in range(33):
        inside = lane < 32 and (members >> lane) & 1
        if start is not None and (not inside or lane % n == 0 or lane in heads):
            out.append((start, lane - 1))
            start = None
        if inside and start is None:
            start = lane
    return out


def reverse_kogge_stone(values, first, last):
    """The reduction of values[first..last] in the documented order: a
    suffix scan with distances 1, 2, 4, ..., lower lane on the left; the
    first lane's value."""
    cur = list(values[first:last + 1])
    d = 1
    while d < len(cur):
        cur = [cur[p] + cur[p + d] if p + d < len(cur) else cur[p] for p in range(len(cur))]
        d *= 2
    return cur[0]


def farthest_first(values, first, last):
    """The reduction of values[first..last] in the documented order of an
    unsegmented power-of-two cluster: rank r combines with rank r + d for
    d = 16, 8, 4, 2, 1."""
    cur = list(values[first:last + 1])
    for d in (16, 8, 4, 2, 1):
        for r in range(min(d, len(cur) - d)):
            cur[r] = cur[r] + cur[r + d]
    return cur[0]


def kogge_stone(values):
    """The inclusive scan of `values` in the documented order (distances 1,
    2, 4, ..., lower lane on the left)."""
    cur = list(values)
    d = 1
    while d < len(cur):
        cur = [cur[p - d] + cur[p] if p >= d else cur[p] for p in range(len(cur))]
        d *= 2
    return cur


def wrap(v):
    return np.int32(((v + 2 ** 31) % 2 ** 32) - 2 ** 31)


def group_mask(n, rng):
    """A mask of one run of consecutive lanes (maybe none) per group."""
    mask = 0
    for base in range(0, 32, n):
        size = min(n, 32 - base)
        lo, hi = sorted(rng.integers(0, size + 1, 2))
        for lane in range(base + lo, base + hi):
            mask |= 1 << lane
    return mask


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", SIZES)
def test_logical_warps(backend, n):
    compiled = wm.compile(program(n), chip="sm_90")
    rng = np.random.default_rng(n)
    # Magnitudes far apart, so that the float results depend on the order.
    xf = (rng.standard_normal(THREADS) * 10.0 ** rng.integers(-3, 6, THREADS)).astype(np.float32)
    xi = rng.integers(-1000, 1000, THREADS).astype(np.int32)
    a = rng.integers(-5, 6, THREADS).astype(np.int32)
    b = rng.integers(-100, 100, THREADS).astype(np.int32)
    flags = (rng.random(THREADS) < 0.2).astype(np.int32)
    mask = group_mask(n, rng)
    # The power-of-two control keeps its butterfly (tree) order; logical
    # warps take the segmented reduction's.
    unsegmented = farthest_first if n & (n - 1) == 0 else reverse_kogge_stone
    outs = {name: np.zeros(THREADS, dtype) for name, dtype in
            [("sum_all", np.float32), ("max_first", np.int32), ("ca", np.int32),
             ("cb", np.int32), ("seg", np.float32), ("masked_all", np.float32),
             ("masked_first", np.float32), ("inc", np.float32), ("exc", np.int32),
             ("tot", np.int32)]}
    wm.launch(compiled, "logical", 1, THREADS, xf, xi, a, b, flags, *outs.values(),
              wrap(mask), backend=backend)

    for warp in range(THREADS // 32):
        w = slice(32 * warp, 32 * warp + 32)
        f, i, aw, bw = xf[w], xi[w], a[w], b[w]
        heads = {lane for lane in range(32) if flags[w][lane]}
        got = {name: out[w] for name, out in outs.items()}
        for first, last in segments(n):
            lanes = slice(first, last + 1)
            assert (got["sum_all"][lanes] == unsegmented(f, first, last)).all()
            assert got["max_first"][first] == i[lanes].max()
            ma, mb = 1, 0
            for lane in range(first, last + 1):  # a left fold: any grouping
                ma, mb = affine((ma, mb), (int(aw[lane]), int(bw[lane])))
            assert (got["ca"][lanes] == wrap(ma)).all() and (got["cb"][lanes] == wrap(mb)).all()
            np.testing.assert_array_equal(got["inc"][lanes], kogge_stone(f[lanes]))
            np.testing.assert_array_equal(got["exc"][lanes],
                                          np.cumsum(i[lanes]) - i[lanes])
            assert (got["tot"][lanes] == i[lanes].sum()).all()
        for first, last in segments(n, heads=heads):
            lanes = slice(first, last + 1)
            assert (got["seg"][lanes] == reverse_kogge_stone(f, first, last)).all()
        for first, last in segments(n, members=mask):
            lanes = slice(first, last + 1)
            want = unsegmented(f, first, last)
            assert (got["masked_all"][lanes] == want).all()
            assert got["masked_first"][first] == want
        outside = [lane for lane in range(32) if not (mask >> lane) & 1]
        assert (got["masked_all"][outside] == 0).all()


def test_logical_warp_ir():
    text = str(program(12))
    assert text.count("cluster_size = 12") == 6 and text.count("width 12") == 2
    wm.Module.parse(text).verify()


@pytest.mark.parametrize("build, match", [
    (lambda k, x: k.reduce("add", x, cluster_size=3, cluster_stride=2),
     "logical warps need cluster_stride = 1"),
    (lambda k, x: k.reduce("add", x, cluster_size=5, strategy="butterfly"),
     "has no strategy"),
    (lambda k, x: k.reduce("add", x, cluster_size=6, mask=0b101),
     "not consecutive"),
    (lambda k, x: k.reduce("add", x, cluster_size=33), "cluster_size"),
])
def test_logical_warp_errors(build, match):
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match=match):
        @prog.kernel(x=wm.memref(wm.f32))
        def bad(k, x):
            build(k, x[0])
