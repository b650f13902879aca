"""warp.device_segmented_reduce from Python (warp_mlir.device.segmented_reduce):
every kind on every element type of its domain, against a numpy model
written from the definition (out[s] = init (kind) x[b] (kind) ... (kind)
x[e-1] over [b, e) = [begin[s], end[s]), init alone where e <= b), over
segment patterns (empty and reversed segments, length 1, one segment over
everything, many tiny ones, random overlapping ones) and sizes around the
kernel's strides (256 threads, 4 loads each: 1024 elements). Integers and
order-free float kinds compare exactly; a float sum compares within the
bound of the op's stated combine order (each thread folds every 256th
element from the left, then a tree: at most ceil(L / 256) + 11
roundings on any path). On the SIMT simulator everywhere (small sizes), on
a GPU where there is one (also past the grid cap and with torch)."""
import math

import numpy as np
import pytest

import warp_mlir as wm
import warp_mlir.device as wd
from conftest import BACKENDS, requires_gpu
from test_device_ops import UFUNCS, _unsigned, data, identity

INT_KINDS = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
FLOAT_KINDS = ["add", "mul", "minimumf", "maximumf", "minnumf", "maxnumf"]
INT_TYPES = [np.int8, np.int16, np.int32, np.int64]
FLOAT_TYPES = [np.float16, np.float32, np.float64]
CASES = ([(kind, dtype) for dtype in INT_TYPES for kind in INT_KINDS] +
         [(kind, dtype) for dtype in FLOAT_TYPES for kind in FLOAT_KINDS])
IDS = [f"{kind}-{np.dtype(dtype).name}" for kind, dtype in CASES]
THREADS = 256


# -- the model ---------------------------------------------------------------------------------

def fold(kind, values):
    """values[0] (kind) values[1] (kind) ... in their own type."""
    view = values.view(_unsigned(values.dtype)) if kind in ("minui", "maxui") else values
    with np.errstate(all="ignore"):
        return UFUNCS[kind].reduce(view, dtype=view.dtype).view(values.dtype)


def model(kind, x, begin, end, init):
    """out[s] = init (kind) x[begin[s]:end[s]] folded, init for e <= b."""
    out = np.empty(len(begin), x.dtype)
    for s, (b, e) in enumerate(zip(begin.tolist(), end.tolist())):
        segment = x[b:e] if e > b else x[:0]
        out[s] = fold(kind, np.concatenate([np.array([init], x.dtype), segment]))
    return out


def sum_bound(x, begin, end, init, u):
    """Per segment: the exact sum (fsum) and the bound on the error of the
    op's order, k u (|init| + sum |x|) with k = ceil(L / 256) + 11 roundings
    and u the unit roundoff of the type the sums round to (a little slack
    for k u's second order)."""
    exact, bound = [], []
    for b, e in zip(begin.tolist(), end.tolist()):
        segment = x[b:e].astype(np.float64) if e > b else np.zeros(0)
        exact.append(math.fsum([float(init), *segment.tolist()]))
        k = -(-len(segment) // THREADS) + 11
        bound.append(1.01 * k * u * (abs(float(init)) + float(np.abs(segment).sum())))
    return np.array(exact), np.array(bound)


def float_data(kind, dtype, n, rng):
    """Floats for `kind`: any values for a sum (checked within the bound);
    powers of two and -1 for a product (exact in any order); for min and
    max, values with infinities and NaNs but no zeros (which of -0.0 and
    0.0 numpy's minimum keeps is not the op's concern here)."""
    if kind == "add":
        return (rng.standard_normal(n) * 10).astype(dtype)
    if kind == "mul":
        x = np.ones(n, dtype)
        spots = rng.integers(0, max(n, 1), min(n, 24))
        x[spots] = rng.choice(np.array([2.0, 0.5, -1.0, 4.0], dtype), len(spots))
        return x
    x = (rng.uniform(1, 1000, n) * rng.choice([-1, 1], n)).astype(dtype)
    if n > 8:
        x[rng.integers(0, n, 2)] = np.inf
        x[rng.integers(0, n, 2)] = -np.inf
        x[rng.integers(0, n, 2)] = np.nan
    return x


def values(kind, dtype, n, rng):
    if np.dtype(dtype).kind == "f":
        return float_data(kind, dtype, n, rng)
    return data(kind, dtype, n, rng)


def check(kind, x, begin, end, got, init=None, what="", u=None):
    """`got` against the model; a float sum within sum_bound, of `x`'s unit
    roundoff unless `u` is given (a type numpy lacks: bfloat16)."""
    want_init = identity(kind, x.dtype) if init is None else x.dtype.type(init)
    assert got.dtype == x.dtype, what
    if kind == "add" and x.dtype.kind == "f":
        u = float(np.finfo(x.dtype).eps) / 2 if u is None else u
        exact, bound = sum_bound(x, begin, end, want_init, u)
        error = np.abs(got.astype(np.float64) - exact)
        assert np.all(error <= bound), (
            f"{what}: segments {np.flatnonzero(error > bound)[:8]} off by "
            f"{error[error > bound][:8]}, bound {bound[error > bound][:8]}")
    else:
        np.testing.assert_array_equal(got, model(kind, x, begin, end, want_init), err_msg=what)


# -- segment patterns --------------------------------------------------------------------------

def patterns(n, rng, count=40):
    """(name, begin, end) of int32 offsets into n elements."""
    starts = rng.integers(0, n + 1, count)
    tiny = np.minimum(np.cumsum(np.concatenate([[0], rng.integers(0, 4, count)])), n)
    ones = np.arange(min(n, count))
    return [
        # Empty: begin == end, reversed (end < begin, one end below 0).
        ("empty", np.concatenate([starts, [n, 3]]),
         np.concatenate([starts - rng.integers(0, 3, count), [n, -1]])),
        ("length 1", ones, ones + 1),
        ("one segment", np.array([0]), np.array([n])),
        ("many tiny", tiny[:-1], tiny[1:]),
        ("random", starts, rng.integers(0, n + 1, count)),
    ]


def all_patterns(n, rng, count=5):
    """Every pattern of `patterns` as one (begin, end) pair (the simulator
    takes about as long per segment as per element: few of each)."""
    both = patterns(n, rng, count)
    return (np.concatenate([b for _, b, _ in both]).astype(np.int32),
            np.concatenate([e for _, _, e in both]).astype(np.int32))


@pytest.fixture
def rng():
    return np.random.default_rng(20261204)


# -- every kind and type -----------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,dtype", CASES, ids=IDS)
def test_every_kind_and_type(backend, kind, dtype, rng):
    """Every pattern at once over 2 whole strides of 4 loads and a part
    (2085 elements); every other case with an init (each is a kernel of
    its own: compiled once per case on the simulator), the others with the
    identity; on a GPU both, and more segments."""
    n = 2 * 4 * THREADS + 37
    x = values(kind, dtype, n, rng)
    begin, end = all_patterns(n, rng, 40 if backend == "cuda" else 5)
    case = CASES.index((kind, dtype))
    if backend == "cuda" or case % 2 == 0:
        got = wd.segmented_reduce(x, (begin, end), kind, backend=backend)
        check(kind, x, begin, end, got, what="no init")
    if backend == "cuda" or case % 2 == 1:
        init = values(kind, dtype, 1, rng)[0].item()
        got = wd.segmented_reduce(x, (begin, end), kind, init=init, backend=backend)
        check(kind, x, begin, end, got, init, what=f"init {init}")


# -- sizes and patterns ------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind,dtype", [("add", np.float32), ("maxsi", np.int16),
                                        ("minnumf", np.float64)],
                         ids=["add-float32", "maxsi-int16", "minnumf-float64"])
def test_sizes_and_patterns(backend, kind, dtype, rng):
    """Each pattern at sizes around a warp and the strides: one array of
    offsets (CUB's usual d_offsets, d_offsets + 1) for the contiguous
    patterns, a (begin, end) pair of i32 and i64 offsets for the others."""
    sizes = [1, 31, 33, 4 * THREADS + 1]
    if backend == "cuda":
        sizes += [THREADS - 1, THREADS + 1, 4 * THREADS, 40 * THREADS + 7]
    for n in sizes:
        x = values(kind, dtype, n, rng)
        for name, begin, end in patterns(n, rng, 40 if backend == "cuda" else 4):
            what = f"{name}, n = {n}"
            if name in ("many tiny", "one segment"):
                offsets = np.concatenate([begin, end[-1:]]).astype(np.int64)
                got = wd.segmented_reduce(x, offsets, kind, backend=backend)
            else:
                begin, end = begin.astype(np.int32), end.astype(np.int64)
                got = wd.segmented_reduce(x, (begin, end), kind, backend=backend)
            check(kind, x, begin, end, got, what=what)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_segments_and_empty_input(backend):
    x = np.arange(5, dtype=np.int32)
    got = wd.segmented_reduce(x, np.array([2], np.int32), backend=backend)
    assert got.shape == (0,) and got.dtype == np.int32
    got = wd.segmented_reduce(np.zeros(0, np.float32), np.zeros(4, np.int64), "maxnumf",
                              init=-2.5, backend=backend)
    np.testing.assert_array_equal(got, np.full(3, -2.5, np.float32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_and_init(backend, rng):
    """`out` longer than the segments keeps its tail; init rounds to the
    element type (f16 here) and takes the unsigned range of an integer."""
    x = rng.integers(-50, 50, 300).astype(np.int8)
    offsets = np.array([0, 100, 100, 300], np.int32)
    out = np.full(5, 77, np.int8)
    assert wd.segmented_reduce(x, offsets, "maxui", init=0xF0, out=out, backend=backend) is out
    want = model("maxui", x, offsets[:-1], offsets[1:], np.int8(-16))
    np.testing.assert_array_equal(out, np.concatenate([want, [77, 77]]))
    h = np.ones(10, np.float16)
    got = wd.segmented_reduce(h, np.array([0, 0, 10], np.int32), init=1 / 3, backend=backend)
    third = np.float16(1 / 3)
    np.testing.assert_array_equal(got, np.array([third, third + np.float16(10)], np.float16))


@pytest.mark.parametrize("backend", BACKENDS)
def test_more_segments_than_blocks(backend, rng, monkeypatch):
    """Blocks take segments blockIdx.x + k gridDim.x: the launch capped at 3
    blocks (the plan's cap lowered) still reduces all 50 segments."""
    x = rng.integers(-1000, 1000, 400).astype(np.int32)
    begin, end = all_patterns(400, rng, 10)
    wd.segmented_reduce(x, (begin, end), "add", backend=backend)
    key = next(k for k in wd._plans if k[0] == "segmented_reduce" and k[1] == "add" and
               k[2] == "i32" and k[-1] == "sm_90")
    plan = wd._plans[key]
    capped = wd._Plan(plan.compiled, [k._replace(most=3) for k in plan.kernels], plan.scratch)
    monkeypatch.setitem(wd._plans, key, capped)
    assert len(begin) > 3 * 10
    check("add", x, begin, end, wd.segmented_reduce(x, (begin, end), "add", backend=backend))


# -- errors ------------------------------------------------------------------------------------

def test_errors():
    x = np.arange(10, dtype=np.int32)
    offsets = np.array([0, 5, 10], np.int32)
    with pytest.raises(ValueError, match="1-D"):
        wd.segmented_reduce(np.zeros((4, 4), np.float32), offsets, backend="sim")
    with pytest.raises(TypeError, match="float32 or float64 arrays, not uint32"):
        wd.segmented_reduce(np.zeros(10, np.uint32), offsets, backend="sim")
    with pytest.raises(TypeError, match="begin offsets must be an int32 or int64 array, not float32"):
        wd.segmented_reduce(x, offsets.astype(np.float32), backend="sim")
    with pytest.raises(TypeError, match="end offsets must be an int32 or int64 array, not int16"):
        wd.segmented_reduce(x, (offsets, offsets.astype(np.int16)), backend="sim")
    with pytest.raises(ValueError, match="1-D"):
        wd.segmented_reduce(x, np.zeros((2, 2), np.int32), backend="sim")
    with pytest.raises(ValueError, match="at least one element"):
        wd.segmented_reduce(x, np.zeros(0, np.int32), backend="sim")
    with pytest.raises(ValueError, match="a .begin, end. pair, not a tuple of 3"):
        wd.segmented_reduce(x, (offsets, offsets, offsets), backend="sim")
    with pytest.raises(ValueError, match="end has 2 offsets, begin 3"):
        wd.segmented_reduce(x, (offsets, offsets[:2]), backend="sim")
    with pytest.raises(ValueError, match="kind must be a combine kind"):
        wd.segmented_reduce(x, offsets, "sum", backend="sim")
    with pytest.raises(wm.MLIRError, match="kind 'xor' needs an integer value, got 'f64'"):
        wd.segmented_reduce(np.zeros(4, np.float64), offsets, "xor", backend="sim")
    with pytest.raises(ValueError, match="out has 1 elements, needs 2"):
        wd.segmented_reduce(x, offsets, out=np.zeros(1, np.int32), backend="sim")
    with pytest.raises(TypeError, match="out has i64 elements, x i32"):
        wd.segmented_reduce(x, offsets, out=np.zeros(2, np.int64), backend="sim")
    with pytest.raises(ValueError, match="out must not be x"):
        wd.segmented_reduce(x, offsets, out=x, backend="sim")
    with pytest.raises(ValueError, match=r"init of i8 elements must be in -128..255, got 256"):
        wd.segmented_reduce(x.astype(np.int8), offsets, init=256, backend="sim")
    with pytest.raises(TypeError, match="init of i32 elements must be an int, not float"):
        wd.segmented_reduce(x, offsets, init=1.5, backend="sim")
    with pytest.raises(TypeError, match="init of f32 elements must be a number, not 'a'"):
        wd.segmented_reduce(x.astype(np.float32), offsets, init="a", backend="sim")
    with pytest.raises(ValueError, match="out of range for f16"):
        wd.segmented_reduce(x.astype(np.float16), offsets, init=1e6, backend="sim")


# -- GPU only: large sizes, device arrays ----------------------------------------------------

@requires_gpu
@pytest.mark.parametrize("kind,dtype", [("add", np.float32), ("add", np.int32),
                                        ("maxnumf", np.float64), ("minui", np.int64)],
                         ids=["add-float32", "add-int32", "maxnumf-float64", "minui-int64"])
def test_large(kind, dtype, rng):
    """One segment of 2^22 + 3 elements; 70000 segments (past the grid cap
    of 65536 blocks) of random lengths, some empty."""
    n = (1 << 22) + 3
    x = values(kind, dtype, n, rng)
    check(kind, x, np.array([0]), np.array([n]),
          wd.segmented_reduce(x, np.array([0, n], np.int64), kind), what="one segment")
    lengths = rng.integers(0, 120, 70000)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    x = values(kind, dtype, int(offsets[-1]), rng)
    got = wd.segmented_reduce(x, offsets, kind, init=5)
    check(kind, x, offsets[:-1], offsets[1:], got, init=5, what="70000 segments")


@requires_gpu
@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "int8"])
def test_torch(dtype, rng):
    """torch arrays in place, offsets as views of one tensor (the second
    not 8-byte aligned), bfloat16 checked against its float32 model."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    n = 5 * 1024 + 7
    x = rng.integers(-4, 5, n).astype(np.float32 if dtype == "bfloat16" else dtype)
    t = torch.from_numpy(x).cuda().to(getattr(torch, dtype))
    begin, end = all_patterns(n, rng)
    got = wd.segmented_reduce(t, (torch.from_numpy(begin).cuda(), torch.from_numpy(end).cuda()),
                              "add")
    offsets = torch.from_numpy(np.array([0, 7, 7, n], np.int32)).cuda()
    whole = wd.segmented_reduce(t, offsets, "maximumf" if dtype != "int8" else "maxsi")
    torch.cuda.synchronize()
    assert got.is_cuda and got.dtype == t.dtype
    # Small integers, exact in float32; bfloat16 (8 significant bits)
    # rounds sums past 256: within the bound of its unit roundoff.
    check("add", x, begin, end, got.float().cpu().numpy().astype(x.dtype),
          u=2.0 ** -8 if dtype == "bfloat16" else None)
    np.testing.assert_array_equal(whole.float().cpu().numpy(),
                                  [x[:7].max(), -np.inf if dtype != "int8" else -128,
                                   x[7:].max()])
