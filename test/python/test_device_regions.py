"""warp.device_reduce_combine from Python (warp_mlir.device.reduce with a
combiner function): tuples of arrays folded by a region that need only be
associative, `init` in front, against numpy models written from the
definition (init (op) x_0 (op) ... (op) x_{n-1}, init for n = 0). The
combiners are chosen so that a lowering that changed the input order
would give other results: an argmax whose ties go to the left operand,
the composition of affine maps and 2x2 integer matrix products. Sizes
around a tile (256 threads x 64 bytes of the widest element) and a
reduce_tiles chunk (4 tiles), with ragged last tiles; more than 256
chunks (reduce_finish's loop) only on a GPU."""
import numpy as np
import pytest

import warp_mlir.device as wd
from conftest import BACKENDS, SIM, requires_gpu


def sizes(widest):
    """0, 1, a warp and a bit, and around the tiles and chunks of
    `widest`-byte elements, each with a ragged last tile."""
    tile = 256 * 64 // widest
    chunk = 4 * tile
    return [0, 1, 31, 33, tile + 17, chunk - 1, chunk, chunk + 1, 3 * chunk + 5]


@pytest.fixture
def rng():
    return np.random.default_rng(20261204)


# -- the combiners and their models ----------------------------------------------------------

def first_argmax(k, left, right):
    """(value, index): the right one only where strictly larger, so a tie
    keeps the left (earlier) pair: not commutative."""
    (lv, li), (rv, ri) = left, right
    take = rv > lv
    return k.select(take, rv, lv), k.select(take, ri, li)


def first_argmax_model(x, idx, init):
    """The fold with init first: the first maximum, or init where no
    element exceeds its value."""
    if len(x) == 0 or not x.max() > init[0]:
        return init
    at = int(np.argmax(x))  # numpy's argmax gives the first maximum
    return x[at], idx[at]


def affine(k, left, right):
    """x -> a x + b, the left map applied first."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


def affine_model(a, b, init):
    """The composition init, then x_0, ..., x_{n-1}, wrapping as int32:
    A = a_{n-1} ... a_0 a0, B = sum_i b_i prod_{j>i} a_j + A' b0."""
    a0, b0 = np.int32(init[0]), np.int32(init[1])
    with np.errstate(all="ignore"):
        if len(a) == 0:
            return a0, b0
        later = np.concatenate([np.cumprod(a[::-1], dtype=np.int32)[::-1][1:],
                                np.ones(1, np.int32)])  # prod_{j>i} a_j
        total = np.cumprod(a, dtype=np.int32)[-1]
        return total * a0, total * b0 + np.sum(b * later, dtype=np.int32)


def matmul(k, left, right):
    """2x2 integer matrices (row-major tuples), left times right."""
    (p, q, r, s), (t, u, v, w) = left, right
    return p * t + q * v, p * u + q * w, r * t + s * v, r * u + s * w


def matmul_model(m, init):
    """init @ m_0 @ ... @ m_{n-1} with Python integers, wrapped to int32."""
    p, q, r, s = (int(v) for v in init)
    for t, u, v, w in zip(*(c.tolist() for c in m)):
        p, q, r, s = [(e + 2 ** 31) % 2 ** 32 - 2 ** 31
                      for e in (p * t + q * v, p * u + q * w, r * t + s * v, r * u + s * w)]
    return p, q, r, s


def sum_and_squares(k, left, right):
    """(count as i8 wrapping, sum as i32, sum of squares as f64): mixed
    types, each its own add."""
    (c1, s1, q1), (c2, s2, q2) = left, right
    return c1 + c2, s1 + s2, q1 + q2


def check(got, want, what):
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == (1,), what
        assert g.dtype == np.asarray(w).dtype, f"{what}: element {i}'s type"
        np.testing.assert_array_equal(g, np.array([w], g.dtype), err_msg=f"{what}: element {i}")


# -- the tests -------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_argmax_keeps_the_first_maximum(backend, rng):
    for n in sizes(4):
        x = rng.integers(-20, 20, n).astype(np.float32)  # many ties
        idx = np.arange(n, dtype=np.int32)
        for init in [(np.float32(-1e30), np.int32(-1)), (np.float32(19.5), np.int32(-7))]:
            got = wd.reduce((x, idx), first_argmax, init=init, backend=backend)
            check(got, first_argmax_model(x, idx, init), f"argmax n={n} init={init}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_affine_maps_keep_the_order(backend, rng):
    for n in sizes(4):
        a = rng.choice(np.array([1, -1, 3, -3, 5], np.int32), n)  # odd: never 0 mod 2^32
        b = rng.integers(-1000, 1000, n).astype(np.int32)
        got = wd.reduce((a, b), affine, init=(3, -2), backend=backend)
        check(got, affine_model(a, b, (3, -2)), f"affine n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_matrix_products_keep_the_order(backend, rng):
    for n in [0, 1, 33, 256 * 16 + 17, 4 * 256 * 16 + 1]:
        # Entries in {-1, 0, 1, 2} with unit determinant's variety: products
        # of such matrices are not commutative.
        m = [rng.integers(-1, 3, n).astype(np.int32) for _ in range(4)]
        init = (1, 2, 0, 1)
        got = wd.reduce(tuple(m), matmul, init=init, backend=backend)
        check(got, [np.int32(v) for v in matmul_model(m, init)], f"matmul n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_mixed_types(backend, rng):
    """An i8, an i32 and an f64 in one tuple (tiles of the widest, 8-byte
    elements); the float sums are of integers, exact in any grouping."""
    for n in sizes(8):
        x = rng.integers(-50, 50, n)
        ones = np.ones(n, np.int8)
        values = x.astype(np.int32)
        squares = (x * x).astype(np.float64)
        init = (5, 7, 0.5)
        got = wd.reduce((ones, values, squares), sum_and_squares, init=init, backend=backend)
        with np.errstate(all="ignore"):
            want = (np.int8(5) + np.sum(ones, dtype=np.int8), np.int32(7) + values.sum(dtype=np.int32),
                    0.5 + squares.sum())
        check(got, want, f"sum and squares n={n}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_array_and_out(backend, rng):
    """A single array: the combiner gets and returns single Values; the
    result goes to `out`."""
    x = rng.integers(-5, 5, 1000).astype(np.int64)
    out = np.zeros(3, np.int64)
    got = wd.reduce(x, lambda k, l, r: l + r, init=2, out=out, backend=backend)
    assert got is out
    assert out[0] == 2 + sum(x.tolist()) and out[1] == 0 and out[2] == 0


@pytest.mark.parametrize("backend", SIM)
def test_one_chunk_skips_reduce_finish(backend, rng, device_launches):
    """Where reduce_tiles runs one block (n within a chunk of 4 tiles), that
    block writes `init (op) partial` (init for n = 0) and reduce_finish is
    not launched (warp.device_skip_if_single); from two chunks on both
    run. With init the identity map and another one (init goes first: the
    maps do not commute), and with argmax's init below and above the data."""
    launched = device_launches
    tile = 256 * 16
    chunk = 4 * tile
    for n in [0, 1, 31, tile, tile + 1, chunk, chunk + 1, 3 * chunk + 5]:
        blocks = max(1, -(-n // chunk))
        want = [("reduce_tiles", blocks)] + ([("reduce_finish", 1)] if blocks > 1 else [])
        a = rng.choice(np.array([1, -1, 3, -3, 5], np.int32), n)
        b = rng.integers(-1000, 1000, n).astype(np.int32)
        for init in [(1, 0), (3, -2)]:
            launched.clear()
            got = wd.reduce((a, b), affine, init=init, backend=backend)
            check(got, affine_model(a, b, init), f"affine n={n} init={init}")
            assert launched == want, f"affine n={n}"
        if n in (0, 31, chunk, chunk + 1):
            x = rng.integers(-20, 20, n).astype(np.float32)
            idx = np.arange(n, dtype=np.int32)
            for init in [(np.float32(-1e30), np.int32(-1)), (np.float32(19.5), np.int32(-7))]:
                launched.clear()
                got = wd.reduce((x, idx), first_argmax, init=init, backend=backend)
                check(got, first_argmax_model(x, idx, init), f"argmax n={n} init={init}")
                assert launched == want, f"argmax n={n}"


@requires_gpu
def test_more_than_a_block_of_chunks(rng):
    """More than 256 chunks: reduce_finish folds its partials in several
    rounds, in order."""
    n = 300 * 4 * 256 * 16 + 3
    a = rng.choice(np.array([1, -1, 3, -3, 5], np.int32), n)
    b = rng.integers(-1000, 1000, n).astype(np.int32)
    check(wd.reduce((a, b), affine, init=(1, 0)), affine_model(a, b, (1, 0)), "affine")
    x = rng.integers(-1000, 1000, n).astype(np.float32)
    idx = np.arange(n, dtype=np.int32)
    init = (np.float32(-1e30), np.int32(-1))
    check(wd.reduce((x, idx), first_argmax, init=init), first_argmax_model(x, idx, init),
          "argmax")


def test_errors():
    x = np.zeros(4, np.int32)
    with pytest.raises(ValueError, match="needs init"):
        wd.reduce(x, affine)
    with pytest.raises(ValueError, match="one init value and one out per array"):
        wd.reduce((x, x), affine, init=(1,))
    with pytest.raises(ValueError, match="array 1 has 2 elements"):
        wd.reduce((x, x[:2]), affine, init=(1, 0))
    with pytest.raises(TypeError, match="float32 and float64"):
        wd.reduce(np.zeros(4, np.float16), lambda k, l, r: l + r, init=0.0)
    with pytest.raises(ValueError, match="init goes with a combiner function"):
        wd.reduce(x, "add", init=0)
    with pytest.raises(ValueError, match="cluster_blocks"):
        wd.reduce(x, lambda k, l, r: l + r, init=0, cluster_blocks=2)
