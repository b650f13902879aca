"""warp.device_scan_combine from Python (warp_mlir.device.scan with a
combiner function): tuples of arrays scanned by a region that need only
be associative, against a plain Python left fold written from CUB's
contract (inclusive: y_i = x_0 (op) ... (op) x_i, with init in front;
exclusive: y_0 = init, y_i = init (op) x_0 (op) ... (op) x_{i-1}). The
combiners do not commute (2x2 matrix products, affine maps, an argmax
whose ties keep the left pair), so a lowering that changed the input
order would give other results. Sizes: 0, 1, 31, 33, a ragged tile, and
several tiles (each looks back at the tiles before it); on the simulator
the blocks run one after the other, so each finds its predecessor's
prefix at once: the windows of several predecessors with only a total
(the region's operands swapped) run on a GPU, with the large sizes."""
import numpy as np
import pytest

import warp_mlir.device as wd
from conftest import BACKENDS, requires_gpu


@pytest.fixture
def rng():
    return np.random.default_rng(20261205)


def wrap32(value):
    return (value + 2 ** 31) % 2 ** 32 - 2 ** 31


def left_fold(columns, op, init=None, exclusive=False, keys=None, same=None):
    """The scan by definition, one tuple at a time from the left: the list
    of the outputs' tuples; by `keys`, restarted (from init) wherever
    same(keys[i-1], keys[i]) does not hold."""
    out, acc = [], init
    for i, x in enumerate(zip(*(c.tolist() for c in columns))):
        if keys is not None and i > 0 and not same(keys[i - 1], keys[i]):
            acc = init
        if exclusive:
            out.append(acc)
        acc = x if acc is None else op(acc, x)
        if not exclusive:
            out.append(acc)
    return out


def check(got, columns, op, init, exclusive, what):
    want = left_fold(columns, op, init, exclusive)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(columns), what
    for i, (g, c) in enumerate(zip(got, columns)):
        assert g.dtype == c.dtype and g.shape == c.shape, f"{what}: output {i}"
        expected = np.array([t[i] for t in want], c.dtype)
        np.testing.assert_array_equal(g, expected, err_msg=f"{what}: output {i}")


# -- the combiners and their models -----------------------------------------------------------

def matmul(k, left, right):
    """2x2 integer matrices (row-major tuples), left times right."""
    (p, q, r, s), (t, u, v, w) = left, right
    return p * t + q * v, p * u + q * w, r * t + s * v, r * u + s * w


def matmul_model(a, b):
    (p, q, r, s), (t, u, v, w) = a, b
    return tuple(wrap32(e) for e in (p * t + q * v, p * u + q * w, r * t + s * v, r * u + s * w))


def affine(k, left, right):
    """x -> a x + b, the left map applied first."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


def affine_model(f, g):
    return wrap32(g[0] * f[0]), wrap32(g[0] * f[1] + g[1])


def first_argmax(k, left, right):
    """(value, index): the right pair only where strictly larger, so a tie
    keeps the left (earlier) one."""
    (lv, li), (rv, ri) = left, right
    take = rv > lv
    return k.select(take, rv, lv), k.select(take, ri, li)


def first_argmax_model(a, b):
    return b if b[0] > a[0] else a


# -- the tests --------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_matrix_products_keep_the_order(backend, rng):
    """(i32 x 4): 16-byte tuples, tiles of 1024; 3 tiles and a ragged one."""
    for n in [0, 1, 31, 33, 3 * 1024 + 5]:
        m = tuple(rng.integers(-1, 3, n).astype(np.int32) for _ in range(4))
        check(wd.scan(m, matmul, backend=backend), m, matmul_model, None, False,
              f"inclusive n={n}")
        init = (1, 2, 0, 1)
        check(wd.scan(m, matmul, init=init, exclusive=True, backend=backend), m, matmul_model,
              init, True, f"exclusive n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_affine_maps_with_init_and_in_place(backend, rng):
    """(i32, i32), tiles of 2048: init in front of an inclusive scan (CUB's
    InclusiveScanInit), and an exclusive scan written over its input."""
    for n in [1, 33, 2 * 2048 + 100]:
        a = rng.choice(np.array([1, -1, 3, -3, 5], np.int32), n)
        b = rng.integers(-1000, 1000, n).astype(np.int32)
        check(wd.scan((a, b), affine, init=(3, -2), backend=backend), (a, b), affine_model,
              (3, -2), False, f"inclusive init n={n}")
        x = (a.copy(), b.copy())
        got = wd.scan(x, affine, init=(-1, 7), exclusive=True, out=x, backend=backend)
        assert got[0] is x[0] and got[1] is x[1]
        check(got, (a, b), affine_model, (-1, 7), True, f"exclusive in place n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_running_argmax(backend, rng):
    """(f32, i32) with many ties: the first maximum so far; exclusive with
    an init above some of the data."""
    for n in [0, 31, 2 * 2048 + 7]:
        x = rng.integers(-20, 20, n).astype(np.float32)
        idx = np.arange(n, dtype=np.int32)
        check(wd.scan((x, idx), first_argmax, backend=backend), (x, idx), first_argmax_model,
              None, False, f"inclusive n={n}")
        init = (np.float32(10.5), np.int32(-1))
        check(wd.scan((x, idx), first_argmax, init=init, exclusive=True, backend=backend),
              (x, idx), first_argmax_model, init, True, f"exclusive n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_single_arrays_and_narrow_types(backend, rng):
    """One array (the combiner gets single Values): a fill-forward of the
    last non-zero i32 (its tiles publish value and flag in one word) and
    an i64 product; an (i8, f16, f64) tuple whose init values travel as
    their bits (the floats sum small integers: exact in any grouping)."""
    n = 2 * 4096 + 3
    x = rng.integers(-3, 4, n).astype(np.int32)
    x[rng.random(n) < 0.995] = 0  # runs longer than a thread's items
    check(wd.scan(x, lambda k, l, r: k.select(r != 0, r, l), backend=backend), (x,),
          lambda u, v: (v[0] if v[0] != 0 else u[0],), None, False, "i32")
    y = rng.choice(np.array([1, -1, 3], np.int64), 700)
    check(wd.scan(y, lambda k, l, r: l * r, init=5, exclusive=True, backend=backend), (y,),
          lambda u, v: ((u[0] * v[0] + 2 ** 63) % 2 ** 64 - 2 ** 63,), (5,), True, "i64")

    def mixed(k, left, right):
        (c1, s1, q1), (c2, s2, q2) = left, right
        return c1 + c2, s1 + s2, q1 + q2

    m = 1000
    counts = np.ones(m, np.int8)
    halves = rng.integers(-2, 3, m).astype(np.float16)
    squares = rng.integers(0, 50, m).astype(np.float64)
    init = (3, 1.0, 0.5)
    got = wd.scan((counts, halves, squares), mixed, init=init, backend=backend)
    want = left_fold((counts.astype(np.int64), halves.astype(np.float64), squares),
                     lambda u, v: (u[0] + v[0], u[1] + v[1], u[2] + v[2]), init)
    np.testing.assert_array_equal(got[0], np.array([wrap32(t[0]) for t in want]).astype(np.int8))
    np.testing.assert_array_equal(got[1].astype(np.float64), [t[1] for t in want])
    np.testing.assert_array_equal(got[2], [t[2] for t in want])


def check_matmul_exclusive(m, init, got):
    """The exclusive scan of 2x2 matrices `m` from `init`, row by row."""
    want = np.empty((len(m[0]), 4), np.int64)
    acc = init
    for i, row in enumerate(np.stack(m, axis=1).tolist()):
        want[i] = acc
        acc = matmul_model(acc, row)
    for i in range(4):
        np.testing.assert_array_equal(got[i], want[:, i].astype(np.int32), err_msg=f"output {i}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_more_than_a_window_of_tiles(backend, rng):
    """41 tiles: on a GPU, where blocks run at once, a look-back past its
    first window of 32 predecessors."""
    n = 41 * 1024 + 9
    m = tuple(rng.integers(-1, 3, n).astype(np.int32) for _ in range(4))
    init = (1, 2, 0, 1)
    check_matmul_exclusive(m, init, wd.scan(m, matmul, init=init, exclusive=True,
                                            backend=backend))


@requires_gpu
def test_many_tiles_look_back_windows(rng):
    """A thousand tiles at once on a GPU: tiles find predecessors that have
    published only their totals, windows of 32 of them combined with the
    region's operands swapped, in order."""
    n = 1000 * 1024 + 17
    m = tuple(rng.integers(-1, 3, n).astype(np.int32) for _ in range(4))
    init = (1, 2, 0, 1)
    check_matmul_exclusive(m, init, wd.scan(m, matmul, init=init, exclusive=True))


def test_errors():
    x = np.zeros(4, np.int32)
    with pytest.raises(ValueError, match="exclusive scan with a combiner function needs init"):
        wd.scan(x, affine, exclusive=True)
    with pytest.raises(ValueError, match="one init value and one out per array"):
        wd.scan((x, x), affine, init=(1,))
    with pytest.raises(ValueError, match="array 1 has 2 elements"):
        wd.scan((x, x[:2]), affine)
    with pytest.raises(ValueError, match="the outs must be distinct"):
        wd.scan((x, x.copy()), affine, out=(x, x))
    with pytest.raises(ValueError, match="init goes with a combiner function"):
        wd.scan(x, "add", init=0)
    with pytest.raises(ValueError, match="cluster_blocks does not combine"):
        wd.scan(x, lambda k, l, r: l + r, cluster_blocks=2)
    with pytest.raises(ValueError, match="equal goes with keys"):
        wd.scan(x, lambda k, l, r: l + r, equal=lambda k, a, b: a == b)
    with pytest.raises(ValueError, match="equal goes with a combiner function"):
        wd.scan(x, "add", keys=x, equal=lambda k, a, b: a == b)
    with pytest.raises(ValueError, match="out must not be keys"):
        wd.scan(x, lambda k, l, r: l + r, keys=x, out=x, backend="sim")
    with pytest.raises(ValueError, match="keys has 2 elements, x 4"):
        wd.scan(x, lambda k, l, r: l + r, keys=x[:2], backend="sim")


# -- by key (CUB's ScanByKey with a custom op, init and equality_op) ---------------------------

def check_by_key(got, columns, keys, op, same, init, exclusive, what):
    want = left_fold(columns, op, init, exclusive, keys.tolist(), same)
    got = got if isinstance(got, tuple) else (got,)
    for i, (g, c) in enumerate(zip(got, columns)):
        expected = np.array([t[i] for t in want], c.dtype)
        np.testing.assert_array_equal(g, expected, err_msg=f"{what}: output {i}")


def runs_of(n, rng, longest=40):
    """Keys in runs of 1 to `longest` equal values, rising by 1 to 7 (so
    that neighbouring runs may share a tens digit)."""
    lengths = rng.integers(1, longest + 1, n)
    return np.repeat(np.cumsum(rng.integers(1, 8, n)), lengths)[:n].astype(np.int32)


@pytest.mark.parametrize("backend", BACKENDS)
def test_by_key_affine_maps(backend, rng):
    """Affine maps (not commutative) by int32 keys, (i32, i32) tuples with
    i32 keys (12 bytes, tiles of 2048): inclusive, inclusive with init in
    front of each segment, exclusive with init (each segment's first output
    is init); sizes 1, 33 and several tiles with runs across tile edges."""
    for n in [1, 33, 3 * 2048 + 50]:
        keys = runs_of(n, rng)
        a = rng.choice(np.array([1, -1, 3, -3, 5], np.int32), n)
        b = rng.integers(-1000, 1000, n).astype(np.int32)
        same = lambda p, q: p == q  # noqa: E731
        check_by_key(wd.scan((a, b), affine, keys=keys, backend=backend), (a, b), keys,
                     affine_model, same, None, False, f"inclusive n={n}")
        check_by_key(wd.scan((a, b), affine, keys=keys, init=(3, -2), backend=backend),
                     (a, b), keys, affine_model, same, (3, -2), False, f"init n={n}")
        check_by_key(wd.scan((a, b), affine, keys=keys, init=(-1, 7), exclusive=True,
                             backend=backend),
                     (a, b), keys, affine_model, same, (-1, 7), True, f"exclusive n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_by_key_custom_equality(backend, rng):
    """equal(k, a, b) = a // 10 == b // 10 (CUB's equality_op): keys of one
    tens digit are one segment although they differ; a running first
    argmax (f32, i32) per segment, exclusive with an init, so every
    segment starts from init; a segment spanning several tiles (one tens
    digit for 5000 keys)."""
    n = 2 * 2048 + 1000
    keys = runs_of(n, rng, longest=12)
    keys[1000:6000] = 55
    x = rng.integers(-20, 20, n).astype(np.float32)
    idx = np.arange(n, dtype=np.int32)
    tens = lambda p, q: p // 10 == q // 10  # noqa: E731
    got = wd.scan((x, idx), first_argmax, keys=keys, equal=lambda k, p, q: p // 10 == q // 10,
                  backend=backend)
    check_by_key(got, (x, idx), keys, first_argmax_model, tens, None, False, "inclusive")
    assert not np.array_equal(got[1], wd.scan((x, idx), first_argmax, keys=keys,
                                              backend=backend)[1])
    init = (np.float32(10.5), np.int32(-1))
    got = wd.scan((x, idx), first_argmax, keys=keys, init=init, exclusive=True,
                  equal=lambda k, p, q: p // 10 == q // 10, backend=backend)
    check_by_key(got, (x, idx), keys, first_argmax_model, tens, init, True, "exclusive")


@pytest.mark.parametrize("backend", BACKENDS)
def test_by_key_shift_equality(backend, rng):
    """equal(k, a, b) = a >> 4 == b >> 4, arithmetic shifts as C++20's
    (benchmarks/device_ops_bench.py's same_run and baselines.cu's
    SameRun): each run's keys 16 r + a random low digit, so == would cut
    nearly every key apart; negative keys too (-16 and -1 are one segment,
    -17 another). The affine maps of (i32, i32) over two tiles and a half."""
    n = 2 * 2048 + 900
    runs = np.cumsum(rng.random(n) < 1 / 32) - 40  # from -40: negative keys first
    keys = (runs * 16 + rng.integers(0, 16, n)).astype(np.int32)
    keys[:4] = [-17, -16, -1, -1]
    a = rng.choice(np.array([1, -1, 3], np.int32), n)
    b = rng.integers(-1000, 1000, n).astype(np.int32)
    same = lambda p, q: p >> 4 == q >> 4  # noqa: E731
    got = wd.scan((a, b), affine, keys=keys, equal=lambda k, p, q: (p >> 4) == (q >> 4),
                  backend=backend)
    check_by_key(got, (a, b), keys, affine_model, same, None, False, "shift equality")
    assert got[0][1] == a[1], "-17 and -16 are apart"


@pytest.mark.parametrize("backend", BACKENDS)
def test_by_key_float_keys(backend, rng):
    """float32 keys by ==: -0.0 equals 0.0, a NaN equals nothing (it and
    the key after it start segments); an int64 running product."""
    keys = np.array([0.0, -0.0, np.nan, np.nan, 1.5, 1.5, np.nan, 2.0, 2.0, 2.0], np.float32)
    x = rng.choice(np.array([1, -1, 2], np.int64), len(keys))
    got = wd.scan(x, lambda k, l, r: l * r, keys=keys, init=3, backend=backend)
    check_by_key(got, (x,), keys, lambda u, v: (u[0] * v[0],), lambda p, q: p == q, (3,),
                 False, "float keys")


@requires_gpu
def test_by_key_many_tiles(rng):
    """Hundreds of tiles at once: look-backs over tiles without a head
    (a segment of 300000) and stopping at a tile with one."""
    n = 500 * 2048 + 11
    keys = runs_of(n, rng, longest=3000)
    keys[100000:400000] = -5
    a = rng.choice(np.array([1, -1, 3], np.int32), n)
    b = rng.integers(-1000, 1000, n).astype(np.int32)
    check_by_key(wd.scan((a, b), affine, keys=keys, init=(1, 0), exclusive=True), (a, b), keys,
                 affine_model, lambda p, q: p == q, (1, 0), True, "exclusive")
    check_by_key(wd.scan((a, b), affine, keys=keys, equal=lambda k, p, q: p // 10 == q // 10),
                 (a, b), keys, affine_model, lambda p, q: p // 10 == q // 10, None, False,
                 "equal")


def test_a_combiner_is_traced_once_per_element_types():
    """The region of a combiner function is kept: a second call with the same
    function and element types does not trace it again (the host time of a
    call), other element types do, and each call's result is still right."""
    calls = []

    def add(k, left, right):
        calls.append(1)
        return left + right

    for dtype in (np.int32, np.int32, np.int64):
        x = np.arange(1, 41, dtype=dtype)
        np.testing.assert_array_equal(wd.scan(x, add, backend="sim"), np.cumsum(x))
    assert len(calls) == 2
    # A key equality too: traced once for both calls.
    compared = []

    def tens(k, a, b):
        compared.append(1)
        return a // 10 == b // 10

    keys = np.arange(40, dtype=np.int32)
    x = np.ones(40, np.int32)
    for _ in range(2):
        np.testing.assert_array_equal(wd.scan(x, add, keys=keys, equal=tens, backend="sim"),
                                      keys % 10 + 1)
    assert len(compared) == 1
