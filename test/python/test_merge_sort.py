"""warp.merge_sort (CUB WarpMergeSort::StableSort): sorts on the simulator
(and a GPU) against numpy's stable argsort, per logical warp of `width`
lanes: lane l (the p-th of its group) holds the group's items p*N ..
p*N+N-1 (blocked), so a group's items are consecutive in memory. Values
are each item's input position, which shows stability (many duplicate
keys). With valid_items n only the group's first n positions are sorted;
the others get the oob default and keep their values. Errors of the
builder are raised at the call."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import linear_thread

TYPES = {"i8": (wm.i8, np.int8), "i32": (wm.i32, np.int32),
         "i64": (wm.i64, np.int64), "f32": (wm.f32, np.float32),
         "f64": (wm.f64, np.float64), "f16": (wm.f16, np.float16)}

# Two warps: each sorts in its own slice of the buffer.
BLOCK = 64


@functools.lru_cache(maxsize=None)
def sort_program(key, n, values=True, descending=False, valid=False, width=32):
    """Loads N keys (and N i32 values) per lane, sorts them and stores the
    results where the lane loaded its items; `valid`: with valid_items
    (a kernel argument) and the oob default -1."""
    element = TYPES[key][0]
    prog = wm.Program(f"msort_{key}_{n}")

    @prog.kernel(x=wm.memref(element), v=wm.memref(wm.i32), ok=wm.memref(element),
                 ov=wm.memref(wm.i32), count=wm.i32)
    def msort(k, x, v, ok, ov, count):
        k.known_block_size(BLOCK)
        base = linear_thread(k) * n
        keys = k.load_vector(x, base, n)
        options = {"width": width}
        if descending:
            options["compare"] = lambda a, b: a > b
        if valid:
            options.update(valid_items=count, oob_default=k.coerce(-1, element))
        # Keys only, or pairs (a tuple back).
        result = k.merge_sort(keys, k.load_vector(v, base, n) if values else None, **options)
        sorted_keys, sorted_values = result if values else (result, None)
        k.store_vector(ok, base, sorted_keys)
        if values:
            k.store_vector(ov, base, sorted_values)
    return prog


def expected(x, n, width, descending=False, count=None):
    """The keys and the positions (the values) each group's sort gives."""
    group = width * n
    keys, where = x.copy(), np.arange(x.size, dtype=np.int32)
    for first in range(0, x.size, group):
        chunk = x[first:first + group]
        m = group if count is None else min(max(count, 0), group)
        # Stable descending: ascending on the negated keys (exact here).
        order = np.argsort(-chunk[:m].astype(np.float64) if descending else chunk[:m],
                           kind="stable")
        keys[first:first + m] = chunk[:m][order]
        where[first:first + m] = first + order
        if count is not None:
            keys[first + m:first + group] = -1
    return keys, where


def run(backend, key, n, x, values=True, descending=False, width=32, count=None):
    program = sort_program(key, n, values, descending, count is not None, width)
    compiled = wm.compile(program, chip="sm_90")
    assert x.size == BLOCK * n
    v = np.arange(x.size, dtype=np.int32)
    ok, ov = np.zeros_like(x), np.zeros_like(v)
    wm.launch(compiled, "msort", 1, BLOCK, x, v, ok, ov,
              np.int32(0 if count is None else count), backend=backend)
    keys, where = expected(x, n, width, descending, count)
    np.testing.assert_array_equal(ok, keys)
    if values:
        np.testing.assert_array_equal(ov, where)
    return compiled


def duplicates(rng, size, dtype, spread=6):
    """Keys with many duplicates (so stability shows), both signs."""
    return rng.integers(-spread, spread, size).astype(dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 2, 4, 7, 16])
def test_i32_pairs_stable(backend, n):
    rng = np.random.default_rng(n)
    x = duplicates(rng, BLOCK * n, np.int32)
    x[::7] = rng.integers(-2 ** 31, 2 ** 31 - 1, x[::7].size, dtype=np.int64)
    run(backend, "i32", n, x)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key, n, values, descending", [
    ("f32", 4, False, True), ("i8", 7, True, False), ("f64", 3, True, True),
    ("i64", 2, False, False), ("f16", 5, True, True)])
def test_types(backend, key, n, values, descending):
    rng = np.random.default_rng([n, len(key)])
    dtype = TYPES[key][1]
    x = duplicates(rng, BLOCK * n, dtype, spread=20)
    if key.startswith("f"):
        x = x / dtype(4)
        x[::9] = -0.0
    run(backend, key, n, x.astype(dtype), values=values, descending=descending)


@pytest.mark.parametrize("backend", BACKENDS)
def test_presorted_and_reversed(backend):
    x = np.arange(BLOCK * 4, dtype=np.int32)
    run(backend, "i32", 4, x[::-1].copy())
    run(backend, "i32", 4, x)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("width, n", [(32, 4), (8, 3)])
def test_valid_items(backend, width, n):
    rng = np.random.default_rng([width, n])
    x = duplicates(rng, BLOCK * n, np.int32, spread=4)
    for count in [0, 1, n + 1, width * n // 2 + 1, width * n - 1, width * n, 1000, -3]:
        run(backend, "i32", n, x, width=width, count=count)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("width, n", [(1, 5), (2, 4), (16, 2)])
def test_logical_warps(backend, width, n):
    rng = np.random.default_rng([width, n])
    x = duplicates(rng, BLOCK * n, np.int32)
    run(backend, "i32", n, x, width=width, descending=width == 2)


def test_no_shared_memory_for_one_lane():
    compiled = wm.compile(sort_program("i32", 5, True, False, False, 1), chip="sm_90")
    assert "__warp_merge_sort_buffer" not in compiled.ptx


def test_builder_errors():
    prog = wm.Program("msort_errors")

    @prog.kernel(x=wm.memref(wm.i32))
    def bad(k, x):
        keys = k.load_vector(x, k.to_index(0), 4)
        with pytest.raises(TypeError, match="vector of a lane's keys"):
            k.merge_sort(k.coerce(1, wm.i32))
        with pytest.raises(TypeError, match="as many items as the keys"):
            k.merge_sort(keys, k.load_vector(x, k.to_index(0), 2))
        with pytest.raises(ValueError, match="together"):
            k.merge_sort(keys, valid_items=3)
        with pytest.raises(ValueError, match="width"):
            k.merge_sort(keys, width=64)
        with pytest.raises(TypeError, match="where i1 is expected"):
            k.merge_sort(keys, compare=lambda a, b: a + b)
        k.merge_sort(keys, compare=lambda a, b: a > b)


def two_sorts_program():
    """Two warp merge sorts of different sizes in one kernel of 64 threads:
    2 i32 keys a lane, then 8 f64 keys a lane."""
    prog = wm.Program("two_sorts")

    @prog.kernel(a=wm.memref(wm.i32), b=wm.memref(wm.f64), out_a=wm.memref(wm.i32),
                 out_b=wm.memref(wm.f64))
    def sorts(k, a, b, out_a, out_b):
        k.known_block_size(64)
        t = k.thread_id("x")
        small = k.merge_sort(k.load_vector(a, t * 2, 2))
        large = k.merge_sort(k.load_vector(b, t * 8, 8))
        k.store_vector(out_a, t * 2, small)
        k.store_vector(out_b, t * 8, large)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
def test_sorts_of_different_sizes_in_one_kernel(backend):
    """Each warp's slice of the sort buffer is the larger sort's for both:
    with a slice each, warp 1's slice of the small sort lay in warp 0's of
    the large one (the simulator's race check reported warp 1's store
    against warp 0's), which warp 0 may sort meanwhile on a GPU."""
    compiled = wm.compile(two_sorts_program(), chip="sm_90")
    assert compiled.ptx.count("__warp_merge_sort_buffer[") == 1
    rng = np.random.default_rng(64)
    a = rng.integers(-100, 100, 128).astype(np.int32)
    b = rng.standard_normal(512)
    out_a, out_b = np.zeros_like(a), np.zeros_like(b)
    wm.launch(compiled, "sorts", 1, 64, a, b, out_a, out_b, backend=backend)
    np.testing.assert_array_equal(out_a.reshape(2, 64), np.sort(a.reshape(2, 64), axis=1))
    np.testing.assert_array_equal(out_b.reshape(2, 256), np.sort(b.reshape(2, 256), axis=1))
