"""warp.block_scan with `reverse` (suffix scans over the block: thread t
gets x_t .. x_{B-1}, init after the last thread), alone and over a thread's
items: IR from the builder and results on the simulator (and a GPU) against
suffix folds computed in Python from the definition."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import affine, kind_inputs as inputs, linear_thread, wrap

INT32_MIN = -2 ** 31

# One partial warp, whole warps, ragged multi-warp, 2-D and 3-D, the largest.
BLOCKS = [17, 32, 100, (64, 3), (8, 4, 5), 1024]

# kind -> (element type, numpy dtype, init, identity).
KINDS = {"add_i32": ("add", wm.i32, np.int32, 7, 0),
         "maxsi_i32": ("maxsi", wm.i32, np.int32, 500, INT32_MIN),
         "add_f32": ("add", wm.f32, np.float32, 7.0, 0.0)}



@functools.lru_cache(maxsize=None)
def reverse_program(name, n):
    """Reverse scans of one value per thread (n = 0) or of n items: inclusive,
    inclusive with init and the block total, exclusive (the identity last),
    exclusive with init."""
    kind, element, _, init, _ = KINDS[name]
    prog = wm.Program(f"reverse_{name}_{n}")

    @prog.kernel(x=wm.memref(element), inc=wm.memref(element), inci=wm.memref(element),
                 tot=wm.memref(element), exc=wm.memref(element), exci=wm.memref(element))
    def reverse_kernel(k, x, inc, inci, tot, exc, exci):
        t = linear_thread(k)
        items = n > 0
        if items:
            base = t * n
            v = k.load_vector(x, base, n)

            def store(buffer, value):
                k.store_vector(buffer, base, value)
        else:
            v = x[t]

            def store(buffer, value):
                buffer[t] = value
        store(inc, k.block_scan(kind, v, reverse=True, items=items))
        scan, total = k.block_scan(kind, v, reverse=True, init=init, total=True, items=items)
        store(inci, scan)
        tot[t] = total
        store(exc, k.block_scan(kind, v, reverse=True, exclusive=True, items=items))
        store(exci, k.block_scan(kind, v, reverse=True, exclusive=True, init=init,
                                 items=items))
    return prog


def test_reverse_ir():
    text = str(reverse_program("add_i32", 0))
    assert "warp.block_scan <add> %" in text
    assert text.count(" reverse") == 4 and text.count("exclusive reverse") == 2
    assert "reverse init %c7_i32 : i32, i32 " in text
    wm.Module.parse(text).verify()
    text = str(reverse_program("maxsi_i32", 3))
    assert text.count("items exclusive reverse init %c500_i32_0 : vector<3xi32> ") == 1
    wm.Module.parse(text).verify()


def test_reverse_raking_is_an_error():
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="'raking' does not take 'reverse'"):
        @prog.kernel(x=wm.memref(wm.i32))
        def bad(k, x):
            k.block_scan("add", x[0], reverse=True, algorithm="raking")
    with pytest.raises(TypeError, match="reverse must be True or False"):
        @prog.kernel(x=wm.memref(wm.i32))
        def bad_flag(k, x):
            k.block_scan("add", x[0], reverse=1)


def suffixes(kind, values, init=None):
    """s[p] = values[p] (op) ... (op) values[-1] (op) init, exact (wide)."""
    op = {"add": lambda a, b: a + b, "maxsi": max}[kind]
    out, acc = [None] * len(values), init
    for p in range(len(values) - 1, -1, -1):
        acc = values[p] if acc is None else op(values[p], acc)
        out[p] = acc
    return out


def reference(name, flat):
    kind, _, dtype, init, identity = KINDS[name]
    wide = [int(v) if dtype == np.int32 else float(v) for v in flat]
    inc = suffixes(kind, wide)
    inci = suffixes(kind, wide, init)
    exc = inc[1:] + [identity]
    exci = inci[1:] + [init]
    # The exact sums fit int64; astype wraps them into int32 as i32 add does.
    cast = lambda a: np.asarray(  # noqa: E731
        a, np.int64 if dtype == np.int32 else np.float64).astype(dtype)
    return cast(inc), cast(inci), cast(inc[0]), cast(exc), cast(exci)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("n", [0, 1, 3])
@pytest.mark.parametrize("name", list(KINDS))
def test_reverse_over_the_block(backend, name, n, block):
    compiled = wm.compile(reverse_program(name, n), chip="sm_90")
    threads = int(np.prod(block))
    per = max(n, 1)
    rng = np.random.default_rng([threads, n, len(name)])
    x = inputs(name, threads * per, rng)
    inc, inci, exc, exci = (np.zeros(threads * per, x.dtype) for _ in range(4))
    tot = np.zeros(threads, x.dtype)
    wm.launch(compiled, "reverse_kernel", 1, block, x, inc, inci, tot, exc, exci,
              backend=backend)
    want_inc, want_inci, want_tot, want_exc, want_exci = reference(name, x)
    np.testing.assert_array_equal(inc, want_inc)
    np.testing.assert_array_equal(inci, want_inci)
    np.testing.assert_array_equal(tot, np.full(threads, want_tot))
    np.testing.assert_array_equal(exc, want_exc)
    np.testing.assert_array_equal(exci, want_exci)



@functools.lru_cache(maxsize=None)
def affine_program(n):
    """The affine maps' reverse compositions: inclusive without init and
    exclusive with init (1, 0), over one map per thread (n = 0) or n."""
    prog = wm.Program(f"reverse_affine_{n}")

    @prog.kernel(a=wm.memref(wm.i32), b=wm.memref(wm.i32), ia=wm.memref(wm.i32),
                 ib=wm.memref(wm.i32), ea=wm.memref(wm.i32), eb=wm.memref(wm.i32))
    def affine_kernel(k, a, b, ia, ib, ea, eb):
        t = linear_thread(k)
        if n:
            base = t * n
            maps = (k.load_vector(a, base, n), k.load_vector(b, base, n))

            def store(buffer, value):
                k.store_vector(buffer, base, value)
        else:
            maps = (a[t], b[t])

            def store(buffer, value):
                buffer[t] = value
        sa, sb = k.block_scan(affine, maps, reverse=True, items=n > 0)
        store(ia, sa)
        store(ib, sb)
        sa, sb = k.block_scan(affine, maps, reverse=True, exclusive=True, init=(1, 0),
                              items=n > 0)
        store(ea, sa)
        store(eb, sb)
    return prog



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("n", [0, 2])
def test_reverse_combiner(backend, n, block):
    compiled = wm.compile(affine_program(n), chip="sm_90")
    threads = int(np.prod(block))
    size = threads * max(n, 1)
    rng = np.random.default_rng([threads, n, 7])
    a = rng.integers(INT32_MIN, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    b = rng.integers(INT32_MIN, 2 ** 31, size, dtype=np.int64).astype(np.int32)
    ia, ib, ea, eb = (np.zeros(size, np.int32) for _ in range(4))
    wm.launch(compiled, "affine_kernel", 1, block, a, b, ia, ib, ea, eb, backend=backend)
    inclusive, exclusive = [None] * size, [None] * size
    running, with_init = None, (1, 0)
    for g in range(size - 1, -1, -1):
        m = (int(a[g]), int(b[g]))
        exclusive[g] = with_init
        with_init = tuple(map(wrap, affine(m, with_init)))
        running = m if running is None else tuple(map(wrap, affine(m, running)))
        inclusive[g] = running
    assert list(ia) == [p[0] for p in inclusive] and list(ib) == [p[1] for p in inclusive]
    assert list(ea) == [p[0] for p in exclusive] and list(eb) == [p[1] for p in exclusive]
