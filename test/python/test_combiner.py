"""Reductions and scans with combiner functions, tuples of values and
segment flags: the builder emits IR that verifies, compiles to PTX with one
shuffle per 32-bit piece per step, and, on a GPU, gives the definitions'
results."""
import re
import subprocess

import numpy as np
import pytest

import warp_mlir as wm
from conftest import requires_gpu


def argmax(k, left, right):
    """The larger value, NaN largest, the lower index winning ties."""
    (lv, li), (rv, ri) = left, right
    l_nan, r_nan = lv != lv, rv != rv
    same = (lv == rv) | (l_nan & r_nan)
    take_right = (rv > lv) | (r_nan & (lv == lv)) | (same & (ri < li))
    return k.select(take_right, rv, lv), k.select(take_right, ri, li)


def welford(k, left, right):
    (na, ma, qa), (nb, mb, qb) = left, right
    n = na + nb
    fa, fb, fn = k.cast(na, wm.f32), k.cast(nb, wm.f32), k.cast(n, wm.f32)
    d = mb - ma
    w = fb / fn
    return n, ma + d * w, qa + qb + d * d * (fa * w)


def online_softmax(k, left, right):
    (ml, sl), (mr, sr) = left, right
    m = k.max(ml, mr)
    return m, sl * k.exp(ml - m) + sr * k.exp(mr - m)


def affine(k, left, right):
    """x -> a*x + b: the left map first."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


PROG = wm.Program("combiners")


@PROG.kernel(x=wm.memref(wm.f32), idx=wm.memref(wm.i32), vmax=wm.memref(wm.f32),
             imax=wm.memref(wm.i32))
def warp_argmax(k, x, idx, vmax, imax):
    i = k.global_id()
    m, at = k.reduce(lambda l, r: argmax(k, l, r), (x[i], idx[i]), commutative=True)
    vmax[i], imax[i] = m, at


@PROG.kernel(x=wm.memref(wm.f32), count=wm.memref(wm.i32), mean=wm.memref(wm.f32),
             m2=wm.memref(wm.f32))
def warp_welford(k, x, count, mean, m2):
    i = k.global_id()
    one, zero = k.constant(1, wm.i32), k.constant(0.0, wm.f32)
    count[i], mean[i], m2[i] = k.reduce(lambda l, r: welford(k, l, r), (one, x[i], zero))


@PROG.kernel(x=wm.memref(wm.f32), mx=wm.memref(wm.f32), total=wm.memref(wm.f32), n=wm.i32)
def warp_softmax(k, x, mx, total, n):
    i = k.global_id()
    m, s = k.reduce(lambda l, r: online_softmax(k, l, r), (x[i], k.constant(1.0, wm.f32)),
                    valid_lanes=n, commutative=True)
    mx[i], total[i] = m, s


@PROG.kernel(x=wm.memref(wm.f32), flags=wm.memref(wm.i32), by_heads=wm.memref(wm.f32),
             by_tails=wm.memref(wm.f32))
def segmented_sum(k, x, flags, by_heads, by_tails):
    i = k.global_id()
    flag = flags[i] != 0
    by_heads[i] = k.reduce("add", x[i], heads=flag)
    by_tails[i] = k.reduce(lambda l, r: l + r, x[i], tails=flag, lanes="first")


@PROG.kernel(a=wm.memref(wm.i32), b=wm.memref(wm.i32), ra=wm.memref(wm.i32),
             rb=wm.memref(wm.i32), ea=wm.memref(wm.i32), eb=wm.memref(wm.i32))
def affine_maps(k, a, b, ra, rb, ea, eb):
    i = k.global_id()
    ra[i], rb[i] = k.reduce(lambda l, r: affine(k, l, r), (a[i], b[i]))
    (ea[i], eb[i]), _ = k.scan(lambda l, r: affine(k, l, r), (a[i], b[i]), exclusive=True,
                               init=(1, 0), total=True)


def test_ir_and_ptx(ptxas, tmp_path):
    text = str(PROG)
    assert "warp.reduce %" in text and "commutative : f32, i32 combine (" in text
    assert "warp.yield" in text and "heads" in text and "tails" in text
    assert "exclusive init" in text  # width 32, the default, is not printed
    wm.Module.parse(text).verify()
    compiled = wm.compile(PROG, chip="sm_90")
    ptx = tmp_path / "combiners.ptx"
    ptx.write_text(compiled.ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "c.cubin")], check=True)
    bodies = dict(re.findall(r"\.entry (\w+)\((.*?)\n}\n", compiled.ptx, re.S))
    # One shuffle per 32-bit value per step, all values in one network.
    assert bodies["warp_argmax"].count("shfl.sync.bfly") == 10
    assert bodies["warp_welford"].count("shfl.sync.bfly") == 15
    assert bodies["affine_maps"].count("shfl.sync.bfly") == 10
    assert bodies["affine_maps"].count("shfl.sync.up") == 12


def test_scalar_combiner_and_kinds_keep_their_form():
    prog = wm.Program()

    @prog.kernel(x=wm.memref(wm.f32))
    def one(k, x):
        i = k.global_id()
        x[i] = k.reduce(lambda l, r: l * r, x[i], cluster_size=8)
        x[i] = k.scan(lambda l, r: l - r, x[i], reverse=True, width=16, init=2.0)
        x[i] = k.reduce("add", x[i], tails=x[i] > 0.0, lanes="first")

    text = str(prog)
    assert "warp.reduce <add>" in text and "tails" in text
    assert "combine (" in text and "reverse width 16 init" in text
    wm.Module.parse(text).verify()


def test_bad_combiners_are_python_errors():
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="a combine kind takes exactly one value"):
        @prog.kernel(x=wm.memref(wm.f32))
        def kind_tuple(k, x):
            k.reduce("add", (x[0], x[1]))
    with pytest.raises(ValueError, match="must return 2 values"):
        @prog.kernel(x=wm.memref(wm.f32))
        def arity(k, x):
            k.reduce(lambda l, r: l[0], (x[0], x[1]))
    with pytest.raises(ValueError, match="needs init"):
        @prog.kernel(x=wm.memref(wm.f32))
        def no_init(k, x):
            k.scan(lambda l, r: l + r, x[0], exclusive=True)
    with pytest.raises(ValueError, match="heads or tails, not both"):
        @prog.kernel(x=wm.memref(wm.f32))
        def both(k, x):
            k.reduce("add", x[0], heads=x[0] > 0.0, tails=x[0] > 0.0)
    with pytest.raises(ValueError, match="commutative=True is for combiner functions"):
        @prog.kernel(x=wm.memref(wm.f32))
        def kind_commutative(k, x):
            k.reduce("add", x[0], commutative=True)
    with pytest.raises(TypeError, match="non-empty tuple"):
        @prog.kernel(x=wm.memref(wm.f32))
        def empty(k, x):
            k.reduce(lambda l, r: l, ())


def test_verifier_reports_bad_regions():
    # The op with its region is verified once the region is built, at the call.
    prog = wm.Program()

    with pytest.raises(wm.VerificationError, match="strategy 'redux' needs a combine kind"):
        @prog.kernel(x=wm.memref(wm.i32))
        def redux(k, x):
            x[0] = k.reduce(lambda l, r: l + r, x[0], strategy="redux")
    assert not prog.kernels


# ---------------------------------------------------------------------------
# On the GPU, against the definitions.
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def compiled():
    return wm.compile(PROG, chip="sm_90")


@requires_gpu
def test_argmax_ties_and_nans(compiled):
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 4, 256).astype(np.float32)
    x[[5, 70, 71]] = np.nan
    idx = np.concatenate([rng.permutation(32) for _ in range(8)]).astype(np.int32)
    vmax, imax = np.zeros(256, np.float32), np.zeros(256, np.int32)
    wm.launch(compiled, "warp_argmax", 1, 256, x, idx, vmax, imax)
    for w in range(8):
        xs, ks = x[32 * w:32 * w + 32], idx[32 * w:32 * w + 32]
        nan = np.isnan(xs)
        best = nan if nan.any() else xs == xs.max()
        want = ks[best].min()
        assert (imax[32 * w:32 * w + 32] == want).all()


@requires_gpu
def test_segmented_sum(compiled):
    rng = np.random.default_rng(4)
    x = rng.integers(-8, 9, 64).astype(np.float32)
    flags = (rng.random(64) < 0.25).astype(np.int32)
    by_heads, by_tails = np.zeros(64, np.float32), np.zeros(64, np.float32)
    wm.launch(compiled, "segmented_sum", 1, 64, x, flags, by_heads, by_tails)
    for w in range(2):
        lanes = range(32 * w, 32 * w + 32)
        start = 32 * w
        for lane in lanes:  # heads: every lane gets its segment's sum
            if flags[lane]:
                start = lane
            end = next((l for l in range(lane + 1, 32 * w + 32) if flags[l]), 32 * w + 32)
            assert by_heads[lane] == x[start:end].sum()
        first = 32 * w
        for lane in lanes:  # tails: the segment's first lane gets it
            if flags[lane] or lane == 32 * w + 31:
                assert by_tails[first] == x[first:lane + 1].sum()
                first = lane + 1
