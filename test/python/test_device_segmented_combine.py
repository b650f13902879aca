"""warp.device_segmented_reduce_combine from Python (warp_mlir.device.
segmented_reduce with a combiner function, segmented_argmin and
segmented_argmax), against models written from the definitions: out[s] =
init (op) x[b] (op) ... (op) x[e-1] folded from the left in Python, init
alone where e <= b; CUB's ArgMin/ArgMax as numpy's argmin/argmax (the first
extreme) of each segment, made an offset within it, and (1, the type's
max / lowest) for an empty segment. The combiners are not commutative
(affine maps, and argmin's ties going left), so a lowering that changed
the input order gives other results. Segments: empty, reversed, of one
element, overlapping, one over a tile boundary (256 threads x 64 bytes of
the widest element: 2048 int64 tuples), on the simulator at sizes it
runs quickly; larger ones only on a GPU."""
import numpy as np
import pytest

import warp_mlir.device as wd
from conftest import BACKENDS, requires_gpu


@pytest.fixture
def rng():
    return np.random.default_rng(20261205)


def affine(k, left, right):
    """x -> a x + b, the left map applied first (int64 wrapping)."""
    (a1, b1), (a2, b2) = left, right
    return a2 * a1, a2 * b1 + b2


def affine_model(a, b, begin, end, init):
    """Per segment, the composition init, then x_b, ..., x_{e-1}, with
    Python integers wrapped to int64."""
    def wrap(v):
        return (v + 2 ** 63) % 2 ** 64 - 2 ** 63
    outs = []
    for s, e in zip(begin.tolist(), end.tolist()):
        pa, pb = init
        for i in range(s, e):
            pa, pb = wrap(int(a[i]) * pa), wrap(int(a[i]) * pb + int(b[i]))
        outs.append((pa, pb))
    return (np.array([o[0] for o in outs], np.int64), np.array([o[1] for o in outs], np.int64))


def segments(n, rng):
    """(begin, end) int32 offsets into n elements: empty and reversed
    segments, ones of one element, random overlapping ones and, where n
    allows, one that crosses a tile of 2048 int64 tuples raggedly."""
    begin = [0, 5, n, 7, 3] + rng.integers(0, n + 1, 6).tolist()
    end = [0, 2, n, 8, 4] + rng.integers(0, n + 1, 6).tolist()
    if n > 2100:
        begin.append(17)
        end.append(n - 3)
    return np.array(begin, np.int32), np.array(end, np.int32)


def arg_model(x, begin, end, least):
    """CUB's ArgMin (`least`) or ArgMax of each segment: (offset of the
    first extreme within the segment, its value); (1, max or lowest) where
    e <= b."""
    info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
    keys, values = [], []
    for s, e in zip(begin.tolist(), end.tolist()):
        if e <= s:
            keys.append(1)
            values.append(info.max if least else info.min)
        else:
            at = int(np.argmin(x[s:e]) if least else np.argmax(x[s:e]))
            keys.append(at)
            values.append(x[s + at])
    return np.array(keys, np.int32), np.array(values, x.dtype)


@pytest.mark.parametrize("backend", BACKENDS)
def test_affine_maps_keep_the_order(backend, rng):
    for n in [0, 40, 2300]:
        a = rng.choice(np.array([1, -1, 3, -3, 5], np.int64), n)  # odd: never 0 mod 2^64
        b = rng.integers(-1000, 1000, n).astype(np.int64)
        begin, end = segments(n, rng) if n else (np.array([0, 0], np.int32),) * 2
        got = wd.segmented_reduce((a, b), (begin, end), affine, init=(3, -2), backend=backend)
        want = affine_model(a, b, begin, end, (3, -2))
        for i in range(2):
            assert got[i].dtype == np.int64
            np.testing.assert_array_equal(got[i], want[i], err_msg=f"n={n} element {i}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.int64, np.float64])
def test_argmin_argmax(backend, dtype, rng):
    n = 300
    x = rng.integers(-5, 5, n).astype(dtype)  # many ties: the first one wins
    begin, end = segments(n, rng)
    offsets = np.concatenate([begin, end]).astype(np.int64)  # i64 offsets too
    for least, function in [(True, wd.segmented_argmin), (False, wd.segmented_argmax)]:
        keys, values = function(x, (offsets[:len(begin)], offsets[len(begin):]),
                                backend=backend)
        want_keys, want_values = arg_model(x, begin, end, least)
        assert keys.dtype == np.int32 and values.dtype == x.dtype
        np.testing.assert_array_equal(keys, want_keys, err_msg=f"least={least}")
        np.testing.assert_array_equal(values, want_values, err_msg=f"least={least}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_argmin_infinities_and_extremes(backend):
    """An element equal to the empty segment's value, or beyond it (an
    infinity), is still found: init never wins over an element."""
    x = np.array([np.inf, np.inf, np.finfo(np.float32).max, -np.inf], np.float32)
    offsets = np.array([0, 2, 3, 3, 4], np.int32)
    keys, values = wd.segmented_argmin(x, offsets, backend=backend)
    np.testing.assert_array_equal(keys, np.array([0, 0, 1, 0], np.int32))
    np.testing.assert_array_equal(values, np.array([np.inf, np.finfo(np.float32).max,
                                                    np.finfo(np.float32).max, -np.inf],
                                                   np.float32))
    i = np.array([127, -128, -128], np.int8)
    keys, values = wd.segmented_argmax(i, np.array([0, 1, 3, 3], np.int32), backend=backend)
    np.testing.assert_array_equal(keys, np.array([0, 0, 1], np.int32))
    np.testing.assert_array_equal(values, np.array([127, -128, -128], np.int8))


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_array_and_out(backend, rng):
    """One array (the combiner on single values) into a longer `out`,
    whose tail is kept."""
    x = rng.integers(-9, 9, 50).astype(np.int32)
    out = np.full(6, 77, np.int32)

    def minus(k, left, right):  # not associative: checks only the one-element folds
        return left - right
    got = wd.segmented_reduce(x, np.array([0, 1, 1, 2], np.int32), minus, init=5,
                              out=out, backend=backend)
    assert got is out
    np.testing.assert_array_equal(out, np.array([5 - x[0], 5, 5 - x[1], 77, 77, 77], np.int32))


def test_errors():
    x = np.zeros(4, np.float32)
    offsets = np.array([0, 4], np.int32)
    with pytest.raises(ValueError, match="needs init"):
        wd.segmented_reduce(x, offsets, lambda k, a, b: a + b, backend="sim")
    with pytest.raises(TypeError, match="float32 and float64"):
        wd.segmented_reduce(np.zeros(4, np.float16), offsets, lambda k, a, b: a + b, init=0,
                            backend="sim")
    with pytest.raises(ValueError, match="distinct"):
        wd.segmented_reduce(x, offsets, lambda k, a, b: a + b, init=0, out=x, backend="sim")
    with pytest.raises(TypeError, match="int32 or int64"):
        wd.segmented_argmin(x, np.array([0, 4], np.int16), backend="sim")
    with pytest.raises(TypeError, match="float32 and float64"):
        wd.segmented_argmax(np.zeros(4, np.float16), offsets, backend="sim")


@requires_gpu
def test_large_argmax(rng):
    n = 1 << 20
    x = rng.standard_normal(n).astype(np.float32)
    offsets = np.sort(rng.integers(0, n + 1, 301)).astype(np.int64)
    keys, values = wd.segmented_argmax(x, offsets)
    want_keys, want_values = arg_model(x, offsets[:-1], offsets[1:], False)
    np.testing.assert_array_equal(keys, want_keys)
    np.testing.assert_array_equal(values, want_values)
