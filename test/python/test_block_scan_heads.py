"""warp.block_scan with `heads` (a segmented scan over the block: a true
flag starts a segment that combines nothing before it), forward and
reversed, inclusive and exclusive, over one value or a thread's items, in
tiles and with each algorithm: IR from the builder and results on the
simulator (and a GPU) against segment folds computed in Python from the
definition."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import affine, kind_inputs as inputs, linear_thread, wrap

INT32_MIN = -2 ** 31

# One partial warp, whole warps, ragged multi-warp, 2-D and 3-D, the largest.
BLOCKS = [17, 32, 100, (64, 3), (8, 4, 5), 1024]

# kind -> (kind, element type, numpy dtype, identity).
KINDS = {"add_i32": ("add", wm.i32, np.int32, 0),
         "maxsi_i32": ("maxsi", wm.i32, np.int32, INT32_MIN),
         "add_f32": ("add", wm.f32, np.float32, 0.0)}


def segmented_program(name, n, reverse, algorithm=None, tile=None):
    """An inclusive and an exclusive segmented scan of one value per thread
    (n = 0) or of n items, the flags read from an i32 array (non-zero: a
    head)."""
    kind, element, _, _ = KINDS[name]
    return _segmented_program(kind, element, n, reverse, algorithm, tile)


@functools.lru_cache(maxsize=None)
def _segmented_program(kind, element, n, reverse, algorithm, tile):
    prog = wm.Program(f"segmented_{kind}_{n}_{int(reverse)}_{algorithm}_{tile}")

    @prog.kernel(x=wm.memref(element), f=wm.memref(wm.i32), inc=wm.memref(element),
                 exc=wm.memref(element))
    def segmented_kernel(k, x, f, inc, exc):
        t = linear_thread(k)
        if n:
            base = t * n
            v = k.load_vector(x, base, n)
            heads = [f[base + j] != 0 for j in range(n)]

            def store(buffer, value):
                k.store_vector(buffer, base, value)
        else:
            v, heads = x[t], f[t] != 0

            def store(buffer, value):
                buffer[t] = value
        options = dict(reverse=reverse, items=n > 0, heads=heads, algorithm=algorithm,
                       tile=tile)
        store(inc, k.block_scan(kind, v, **options))
        store(exc, k.block_scan(kind, v, exclusive=True, **options))
    return prog


def segments(flags, tile_items):
    """The [start, end) of each segment: a head, position 0, or the first
    position of a tile of `tile_items` positions starts one."""
    starts = [p for p in range(len(flags))
              if p == 0 or flags[p] or (tile_items and p % tile_items == 0)]
    return list(zip(starts, starts[1:] + [len(flags)]))


def reference(op, values, flags, identity, reverse, tile_items=None):
    """Inclusive and exclusive segmented scans from the definition: position
    p combines its segment's values up to it (reversed: from it), in
    position order, the exclusive form leaving p out (the identity where
    nothing is left)."""
    inc, exc = [None] * len(values), [None] * len(values)
    for start, end in segments(flags, tile_items):
        for p in range(start, end):
            part = values[p:end] if reverse else values[start:p + 1]
            inc[p] = functools.reduce(op, part)
            rest = part[1:] if reverse else part[:-1]
            exc[p] = functools.reduce(op, rest) if rest else identity
    return inc, exc


def run(backend, name, n, block, reverse, algorithm=None, tile=None, density=0.2):
    kind, _, dtype, identity = KINDS[name]
    compiled = wm.compile(segmented_program(name, n, reverse, algorithm, tile), chip="sm_90")
    threads = int(np.prod(block))
    size = threads * max(n, 1)
    rng = np.random.default_rng([threads, n, len(name), int(reverse), tile or 0])
    x = inputs(name, size, rng)
    f = (rng.random(size) < density).astype(np.int32) * rng.integers(1, 9, size, dtype=np.int32)
    inc, exc = np.zeros(size, x.dtype), np.zeros(size, x.dtype)
    wm.launch(compiled, "segmented_kernel", 1, block, x, f, inc, exc, backend=backend)
    wide = [int(v) if dtype == np.int32 else float(v) for v in x]
    op = {"add": lambda a, b: a + b, "maxsi": max}[kind]
    want_inc, want_exc = reference(op, wide, list(f), identity, reverse,
                                   tile * max(n, 1) if tile else None)
    # The exact sums fit int64; astype wraps them into int32 as i32 add does.
    cast = lambda a: np.asarray(  # noqa: E731
        a, np.int64 if dtype == np.int32 else np.float64).astype(dtype)
    np.testing.assert_array_equal(inc, cast(want_inc))
    np.testing.assert_array_equal(exc, cast(want_exc))


def test_segmented_ir():
    text = str(segmented_program("add_i32", 0, False))
    assert text.count("warp.block_scan <add> %") == 2
    assert text.count(" heads %") == 2 and text.count("exclusive heads %") == 1
    wm.Module.parse(text).verify()
    text = str(segmented_program("maxsi_i32", 3, True))
    assert text.count("items exclusive reverse heads %") == 1
    assert "vector.from_elements" in text
    wm.Module.parse(text).verify()


def test_segmented_rejects():
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="segmented scan takes no init"):
        @prog.kernel(x=wm.memref(wm.i32))
        def with_init(k, x):
            k.block_scan("add", x[0], init=1, heads=x[1] != 0)
    with pytest.raises(wm.VerificationError, match="segmented scan returns no block totals"):
        @prog.kernel(x=wm.memref(wm.i32))
        def with_total(k, x):
            k.block_scan("add", x[0], total=True, heads=x[1] != 0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("n", [0, 3])
@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("name", list(KINDS))
def test_segmented_over_the_block(backend, name, reverse, n, block):
    run(backend, name, n, block, reverse)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("density", [0.0, 1.0, 0.02])
def test_segmented_flag_densities(backend, density):
    """No head (one segment, the plain scan), every position a head (each
    alone: the inclusive scan is the input, the exclusive the identity),
    and long segments across warps."""
    for reverse in (False, True):
        run(backend, "add_i32", 2, 256, reverse, density=density)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("algorithm", ["warp_scans", "raking"])
@pytest.mark.parametrize("block", [33, 96, (16, 8)], ids=str)
def test_segmented_algorithms(backend, algorithm, block):
    run(backend, "add_f32", 0, block, False, algorithm=algorithm)
    run(backend, "maxsi_i32", 2, block, False, algorithm=algorithm)
    if algorithm != "raking":
        run(backend, "add_i32", 0, block, True, algorithm=algorithm)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("tile", [64, 128])
@pytest.mark.parametrize("n", [0, 2])
def test_segmented_tiles(backend, tile, n):
    """Each tile scans on its own: its first thread starts a segment too."""
    for reverse in (False, True):
        run(backend, "add_i32", n, 512, reverse, tile=tile)


@functools.lru_cache(maxsize=None)
def affine_program(n, reverse):
    """The affine maps' segmented compositions (a combine region over a
    tuple), inclusive, over one map per thread (n = 0) or n."""
    prog = wm.Program(f"segmented_affine_{n}_{int(reverse)}")

    @prog.kernel(a=wm.memref(wm.i32), b=wm.memref(wm.i32), f=wm.memref(wm.i32),
                 ia=wm.memref(wm.i32), ib=wm.memref(wm.i32))
    def affine_kernel(k, a, b, f, ia, ib):
        t = linear_thread(k)
        if n:
            base = t * n
            maps = (k.load_vector(a, base, n), k.load_vector(b, base, n))
            heads = [f[base + j] != 0 for j in range(n)]

            def store(buffer, value):
                k.store_vector(buffer, base, value)
        else:
            maps, heads = (a[t], b[t]), f[t] != 0

            def store(buffer, value):
                buffer[t] = value
        sa, sb = k.block_scan(affine, maps, reverse=reverse, items=n > 0, heads=heads)
        store(ia, sa)
        store(ib, sb)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [17, 100, (8, 4, 5)], ids=str)
@pytest.mark.parametrize("n", [0, 2])
@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
def test_segmented_combiner(backend, reverse, n, block):
    compiled = wm.compile(affine_program(n, reverse), chip="sm_90")
    threads = int(np.prod(block))
    size = threads * max(n, 1)
    rng = np.random.default_rng([threads, n, int(reverse), 11])
    a = rng.integers(INT32_MIN, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    b = rng.integers(INT32_MIN, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    f = (rng.random(size) < 0.25).astype(np.int32)
    ia, ib = np.zeros(size, np.int32), np.zeros(size, np.int32)
    wm.launch(compiled, "affine_kernel", 1, block, a, b, f, ia, ib, backend=backend)
    maps = [(int(p), int(q)) for p, q in zip(a, b)]
    compose = lambda left, right: tuple(map(wrap, affine(left, right)))  # noqa: E731
    want, _ = reference(compose, maps, list(f), None, reverse)
    assert list(zip(map(int, ia), map(int, ib))) == want
