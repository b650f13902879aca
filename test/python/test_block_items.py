"""warp.block_reduce / warp.block_scan over a thread's items (`items=True`,
CUB's ITEMS_PER_THREAD overloads): IR from the builder, errors at the call,
and results on the simulator (and a GPU) against numpy over the block's
items flattened in the blocked order (thread t holds items t*N .. t*N+N-1,
t = x + X * (y + Y * z))."""
import functools
import re

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import affine, argmax, block_threads, linear_thread, wrap

INT32_MIN = -2 ** 31

# Ragged and multi-warp (100 threads: three full warps and a partial one),
# two- and three-dimensional blocks of several warps, the largest block.
BLOCKS = [100, (64, 3), (8, 4, 5), 1024]
ITEMS = [1, 3, 4]

# kind -> (element type, numpy dtype, the exclusive scan's init, identity).
KINDS = {"add_i32": ("add", wm.i32, np.int32, 7, 0),
         "maxsi_i32": ("maxsi", wm.i32, np.int32, 500, INT32_MIN),
         "add_f32": ("add", wm.f32, np.float32, 7.0, 0.0)}




@functools.lru_cache(maxsize=None)
def items_program(name, n, algorithm=None):
    """Every form over vector<n x T> items: a reduction, an inclusive scan,
    an exclusive scan with init and the block total, an exclusive scan
    without init (the kind's identity first). `algorithm` "raking" (the
    reduction's and the scans') or None (the compiler's choice)."""
    kind, element, _, init, _ = KINDS[name]
    prog = wm.Program(f"items_{name}_{n}")

    @prog.kernel(x=wm.memref(element), red=wm.memref(element), inc=wm.memref(element),
                 exc=wm.memref(element), tot=wm.memref(element), exi=wm.memref(element))
    def items_kernel(k, x, red, inc, exc, tot, exi):
        t = linear_thread(k)
        base = t * n
        v = k.load_vector(x, base, n)
        red[t] = k.block_reduce(kind, v, items=True, algorithm=algorithm)
        k.store_vector(inc, base, k.block_scan(kind, v, items=True, algorithm=algorithm))
        scan, total = k.block_scan(kind, v, items=True, exclusive=True, init=init, total=True,
                                   algorithm=algorithm)
        k.store_vector(exc, base, scan)
        tot[t] = total
        k.store_vector(exi, base, k.block_scan(kind, v, items=True, exclusive=True,
                                               algorithm=algorithm))
    return prog


def test_items_ir_and_verify():
    text = str(items_program("add_i32", 4))
    # The reduction has the element type, the inclusive scan the vector's.
    assert re.search(r"= warp.block_reduce <add> %\w+ items : vector<4xi32>\s", text)
    assert re.search(r"= warp.block_scan <add> %\w+ items : vector<4xi32>\s", text)
    # The scan keeps the vector type; init and the total have the element type.
    assert "items exclusive init %c7_i32 : vector<4xi32>, i32 " in text
    assert text.count(" items") == 4 and text.count("items exclusive") == 2
    wm.Module.parse(text).verify()
    # The unit attribute (a property) in the generic form.
    generic = wm.Module.parse(text).to_string(generic=True)
    assert len(re.findall(r"<\{(?:exclusive, )?items, kind = #warp.kind<add>", generic)) == 4
    text = str(items_program("maxsi_i32", 3, "raking"))
    assert "warp.block_reduce <maxsi> %" in text and text.count("algorithm = <raking>") == 4
    wm.Module.parse(text).verify()


def test_items_results_have_the_element_types():
    prog = wm.Program()
    seen = {}

    @prog.kernel(x=wm.memref(wm.f32), y=wm.memref(wm.i32))
    def typed(k, x, y):
        v = k.load_vector(x, 0, 3)
        w = k.load_vector(y, 0, 3)
        seen["reduce"] = k.block_reduce("add", v, items=True).type
        seen["scan"], seen["total"] = (r.type for r in k.block_scan(
            "add", v, items=True, exclusive=True, init=1.5, total=True))
        seen["pair"] = tuple(r.type for r in k.block_reduce(
            lambda l, r: (l[0] + r[0], l[1] + r[1]), (v, w), items=True))

        def combine(left, right):
            seen["arguments"] = (left.type, right.type)
            return left + right
        seen["region"] = k.block_scan(combine, v, items=True).type
    assert seen == {"reduce": wm.f32, "scan": wm.vector(3, wm.f32), "total": wm.f32,
                    "pair": (wm.f32, wm.i32), "arguments": (wm.f32, wm.f32),
                    "region": wm.vector(3, wm.f32)}
    text = str(prog)
    assert "items exclusive init %cst : vector<3xf32>, f32 " in text
    assert "items : vector<3xf32>, vector<3xi32> combine (%arg" in text
    wm.Module.parse(text).verify()


def test_items_bad_calls_raise_at_the_call():
    prog = wm.Program()
    raised = []

    @prog.kernel(x=wm.memref(wm.i32), n=wm.i32)
    def bad(k, x, n):
        v = k.load_vector(x, 0, 4)
        for call, error, match in (
                (lambda: k.block_reduce("add", x[0], items=True), TypeError,
                 "block_reduce with items=True takes vectors of a thread's items, not i32"),
                (lambda: k.block_scan("add", x[0], items=True), TypeError,
                 "block_scan with items=True takes vectors"),
                (lambda: k.block_scan("add", (v, x[0]), items=True), TypeError,
                 "takes vectors"),
                (lambda: k.block_reduce("add", v, items=True, valid_threads=n), ValueError,
                 "items=True or valid_threads, not both"),
                (lambda: k.block_reduce("add", v, items=1), TypeError,
                 "items must be True or False"),
                (lambda: k.block_scan("add", v, items="yes"), TypeError,
                 "items must be True or False"),
                (lambda: k.block_reduce(lambda l, r: (l[0] + r[0], l[1] + r[1]),
                                        (v, k.load_vector(x, 0, 3)), items=True), ValueError,
                 "vectors of one length"),
                # init has the element type, not the vector's.
                (lambda: k.block_scan("add", v, items=True, exclusive=True, init=v), TypeError,
                 "vector<4xi32> where i32 is expected"),
                # A combiner gets and returns elements.
                (lambda: k.block_reduce(lambda l, r: v, v, items=True), TypeError,
                 "the combiner returned vector<4xi32> where i32 is expected")):
            with pytest.raises(error, match=match):
                call()
            raised.append(error)
        # The kernel is still whole: a valid op after the failed ones.
        k.block_reduce("add", v, items=True)
    assert len(raised) == 9
    wm.Module.parse(str(prog)).verify()


def accumulate(kind, values):
    """The inclusive scan of `values` (int64 or float64) under `kind`."""
    return {"add": np.add.accumulate, "maxsi": np.maximum.accumulate}[kind](values)


def reference(name, flat):
    """(reduction, inclusive, exclusive from init, total, exclusive from the
    identity) of the block's items `flat` in blocked order."""
    kind, _, dtype, init, identity = KINDS[name]
    wide = flat.astype(np.float64 if dtype == np.float32 else np.int64)
    incl = accumulate(kind, wide)
    excl_init = accumulate(kind, np.concatenate([[init], wide]))[:-1]
    excl = np.concatenate([[identity], incl[:-1]])
    # astype wraps an int64 into int32 (two's complement), as i32 add does.
    cast = lambda a: np.asarray(a).astype(dtype)  # noqa: E731
    return cast(incl[-1]), cast(incl), cast(excl_init), cast(incl[-1]), cast(excl)


def inputs(name, size, rng):
    _, _, dtype, _, _ = KINDS[name]
    if name == "add_i32":   # wraps around
        return rng.integers(INT32_MIN, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    if name == "maxsi_i32":  # below and above init
        return rng.integers(-1000, 1000, size).astype(np.int32)
    # Small integers: every combine order gives the exact sums.
    return rng.integers(-50, 50, size).astype(np.float32)


def run_items(backend, name, n, block, algorithm=None):
    compiled = wm.compile(items_program(name, n, algorithm), chip="sm_90")
    threads = block_threads(block)
    rng = np.random.default_rng([threads, n, len(name)])
    x = inputs(name, threads * n, rng)
    dtype = x.dtype
    red, tot = np.zeros(threads, dtype), np.zeros(threads, dtype)
    inc, exc, exi = (np.zeros(threads * n, dtype) for _ in range(3))
    wm.launch(compiled, "items_kernel", 1, block, x, red, inc, exc, tot, exi, backend=backend)
    want_red, want_inc, want_exc, want_tot, want_exi = reference(name, x)
    np.testing.assert_array_equal(red, np.full(threads, want_red))
    np.testing.assert_array_equal(inc, want_inc)
    np.testing.assert_array_equal(exc, want_exc)
    np.testing.assert_array_equal(tot, np.full(threads, want_tot))
    np.testing.assert_array_equal(exi, want_exi)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("n", ITEMS)
@pytest.mark.parametrize("name", list(KINDS))
def test_items_over_the_block(backend, name, n, block):
    run_items(backend, name, n, block)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [100, 1024], ids=str)
@pytest.mark.parametrize("name", ["add_i32", "maxsi_i32", "add_f32"])
def test_items_raking(backend, name, block):
    run_items(backend, name, 3, block, "raking")




@functools.lru_cache(maxsize=None)
def combiner_program(n):
    prog = wm.Program(f"items_combiners_{n}")

    @prog.kernel(v=wm.memref(wm.f32), idx=wm.memref(wm.i32), a=wm.memref(wm.i32),
                 b=wm.memref(wm.i32), best=wm.memref(wm.f32), where=wm.memref(wm.i32),
                 ea=wm.memref(wm.i32), eb=wm.memref(wm.i32), ta=wm.memref(wm.i32),
                 tb=wm.memref(wm.i32), ia=wm.memref(wm.i32), ib=wm.memref(wm.i32))
    def combiners(k, v, idx, a, b, best, where, ea, eb, ta, tb, ia, ib):
        t = linear_thread(k)
        base = t * n
        best[t], where[t] = k.block_reduce(
            lambda l, r: argmax(k, l, r),
            (k.load_vector(v, base, n), k.load_vector(idx, base, n)), items=True)
        maps = (k.load_vector(a, base, n), k.load_vector(b, base, n))
        (sa, sb), (ta[t], tb[t]) = k.block_scan(affine, maps, items=True, exclusive=True,
                                                init=(1, 0), total=True)
        k.store_vector(ea, base, sa)
        k.store_vector(eb, base, sb)
        sa, sb = k.block_scan(affine, maps, items=True)
        k.store_vector(ia, base, sa)
        k.store_vector(ib, base, sb)
    return prog


def test_items_combiner_ir():
    text = str(combiner_program(3))
    assert text.count("items : vector<3xf32>, vector<3xi32> combine (%arg") == 1
    assert "items exclusive init %c1_i32, %c0_i32 : vector<3xi32>, vector<3xi32>, i32, i32 " \
        "combine (%arg" in text
    assert "items : vector<3xi32>, vector<3xi32> combine (%arg" in text
    wm.Module.parse(text).verify()



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("n", ITEMS)
def test_items_combiners(backend, n, block):
    compiled = wm.compile(combiner_program(n), chip="sm_90")
    threads = block_threads(block)
    size = threads * n
    rng = np.random.default_rng([threads, n])
    v = rng.integers(-5, 5, size).astype(np.float32)   # many ties
    idx = np.arange(size, dtype=np.int32)
    a = rng.integers(INT32_MIN, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    b = rng.integers(INT32_MIN, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    best = np.zeros(threads, np.float32)
    where, ta, tb = (np.zeros(threads, np.int32) for _ in range(3))
    ea, eb, ia, ib = (np.zeros(size, np.int32) for _ in range(4))
    wm.launch(compiled, "combiners", 1, block, v, idx, a, b, best, where, ea, eb, ta, tb,
              ia, ib, backend=backend)
    # The first item holding the largest value.
    np.testing.assert_array_equal(best, np.full(threads, v.max()))
    np.testing.assert_array_equal(where, np.full(threads, int(np.argmax(v))))
    # Compositions of x -> a x + b over the items in blocked order, in
    # 32-bit wrap-around: exclusive from (1, 0), and inclusive.
    prefix, exclusive, inclusive, running = (1, 0), [], [], None
    for g in range(size):
        exclusive.append(prefix)
        m = (int(a[g]), int(b[g]))
        prefix = affine(prefix, m)
        prefix = (wrap(prefix[0]), wrap(prefix[1]))
        running = m if running is None else affine(running, m)
        running = (wrap(running[0]), wrap(running[1]))
        inclusive.append(running)
    assert list(ea) == [p[0] for p in exclusive] and list(eb) == [p[1] for p in exclusive]
    # The total is without init: the inclusive composition of every item.
    np.testing.assert_array_equal(ta, np.full(threads, inclusive[-1][0]))
    np.testing.assert_array_equal(tb, np.full(threads, inclusive[-1][1]))
    assert list(ia) == [p[0] for p in inclusive] and list(ib) == [p[1] for p in inclusive]
