"""warp.block_radix_sort (CUB BlockRadixSort): IR from the builder, errors
at the call, and sorts on the simulator (and a GPU) against numpy's stable
argsort of the keys' unsigned images, computed here (integers as they are,
signed with the sign bit flipped, floats with every bit flipped when
negative and the sign bit flipped otherwise; `bits` keeps bits [b0, b1);
descending sorts by the complement). Thread t = x + X * (y + Y * z) holds
items t*N .. t*N+N-1 (blocked); striped output gives thread t ranks t, t+B,
..., t+(N-1)B. Kernels rank in a workgroup counter grid: beside the key
and value buffers where they all fit, else in one buffer with them (CUB's
TempStorage union, e.g. a block of up to 1024 threads); where not even
that fits (radix_bits = 8 in large blocks), a grid of a column per warp
counted by ballots of the digits' bits (known blocks of whole warps, N a power of two up to
32), else the counters are in registers."""
import functools
import re

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import block_threads, linear_thread

TYPES = {"i8": (wm.i8, np.int8, np.uint8), "i16": (wm.i16, np.int16, np.uint16),
         "i32": (wm.i32, np.int32, np.uint32), "i64": (wm.i64, np.int64, np.uint64),
         "f16": (wm.f16, np.float16, np.uint16), "f32": (wm.f32, np.float32, np.uint32),
         "f64": (wm.f64, np.float64, np.uint64)}




# The workgroup buffer of the counter grid (CUB's BlockRadixRank), and the
# one buffer of the grid and the key and value buffers where only that fits.
GRID = "__warp_block_radix_counters"
UNION = "__warp_block_radix_union"


@functools.lru_cache(maxsize=None)
def sort_program(key, n, values=True, known=None, **options):
    """Loads N keys (and N i32 values) per thread, blocked, sorts them with
    `options` and stores the results where the thread loaded its items;
    `known`: the block's shape, promised (known_block_size)."""
    element = TYPES[key][0]
    prog = wm.Program(f"radix_{key}_{n}")

    @prog.kernel(x=wm.memref(element), v=wm.memref(wm.i32), ok=wm.memref(element),
                 ov=wm.memref(wm.i32))
    def radix(k, x, v, ok, ov):
        if known:
            k.known_block_size(*known)
        base = linear_thread(k) * n
        keys = k.load_vector(x, base, n)
        if values:
            keys, vals = k.block_radix_sort(keys, k.load_vector(v, base, n), **options)
            k.store_vector(ov, base, vals)
        else:
            keys = k.block_radix_sort(keys, **options)
        k.store_vector(ok, base, keys)
    return prog


def image(x, key, signed=False, descending=False, bits=None):
    """The unsigned image the sort compares (numpy, independent of the
    compiler)."""
    _, _, unsigned = TYPES[key]
    width = np.dtype(unsigned).itemsize * 8
    u = x.view(unsigned).astype(np.uint64)
    sign = np.uint64(1) << np.uint64(width - 1)
    ones = np.uint64((1 << width) - 1)
    if key.startswith("f"):
        u = np.where(u & sign, u ^ ones, u ^ sign)
    elif signed:
        u = u ^ sign
    b0, b1 = bits if bits else (0, width)
    mask = np.uint64((1 << (b1 - b0)) - 1)
    u = (u >> np.uint64(b0)) & mask
    return mask - u if descending else u


def expected(x, key, n, threads, striped=False, **options):
    """The permutation that sorts `x` (stable), laid out as the op returns
    it: blocked, or striped."""
    order = np.argsort(image(x, key, **options), kind="stable")
    if striped:
        order = order.reshape(n, threads).T.reshape(-1)
    return order


def shape(block):
    return (block,) if isinstance(block, int) else tuple(block)


def run(backend, key, n, block, x, values=True, known=False, **options):
    """Sorts `x` in one block and checks the result; `known`: the kernel
    promises the block's shape. Returns the compiled module."""
    program = sort_program(key, n, values, shape(block) if known else None, **options)
    compiled = wm.compile(program, chip="sm_90")
    threads = block_threads(block)
    assert x.size == threads * n
    v = np.arange(threads * n, dtype=np.int32)
    ok, ov = np.zeros_like(x), np.zeros_like(v)
    wm.launch(compiled, "radix", 1, block, x, v, ok, ov, backend=backend)
    order = expected(x, key, n, threads,
                     **{o: options[o] for o in ("signed", "descending", "bits", "striped")
                        if o in options})
    # Bit for bit (NaN payloads, -0.0), and the values say where each key
    # came from: stability.
    unsigned = TYPES[key][2]
    np.testing.assert_array_equal(ok.view(unsigned), x[order].view(unsigned))
    if values:
        np.testing.assert_array_equal(ov, v[order])
    return compiled


def duplicates(rng, size, dtype, spread=7):
    """Keys with many duplicates (so stability shows), both signs."""
    return rng.integers(-spread, spread, size).astype(dtype)


BLOCKS = [1, 17, 32, 100, (64, 3), (8, 4, 5), 256, 1024]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", BLOCKS, ids=str)
@pytest.mark.parametrize("n", [1, 3, 4])
def test_unsigned_i32_with_values_is_stable(backend, n, block):
    rng = np.random.default_rng([block_threads(block), n])
    x = duplicates(rng, block_threads(block) * n, np.int32)
    # Some large unsigned values (negative as i32) among the small ones.
    x[::5] = rng.integers(-2 ** 31, 2 ** 31 - 1, x[::5].size, dtype=np.int64).astype(np.int32)
    run(backend, "i32", n, block, x)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [17, (8, 4, 5), 1024], ids=str)
@pytest.mark.parametrize("radix_bits", [None, 1, 4, 8])
def test_signed_i32_radix_bits(backend, block, radix_bits):
    rng = np.random.default_rng([block_threads(block), radix_bits or 0])
    x = duplicates(rng, block_threads(block) * 3, np.int32, spread=300)
    x[:4] = [-2 ** 31, 2 ** 31 - 1, 0, -1][:x[:4].size]
    run(backend, "i32", 3, block, x, signed=True, radix_bits=radix_bits)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [32, 100, 256], ids=str)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("signed", [False, True])
def test_i8(backend, block, descending, signed):
    rng = np.random.default_rng([block_threads(block), descending, signed])
    x = rng.integers(-128, 128, block_threads(block) * 4).astype(np.int8)
    run(backend, "i8", 4, block, x, signed=signed, descending=descending)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [17, (64, 3)], ids=str)
@pytest.mark.parametrize("signed", [False, True])
def test_i64(backend, block, signed):
    rng = np.random.default_rng([block_threads(block), signed])
    x = rng.integers(-2 ** 63, 2 ** 63 - 1, block_threads(block) * 3, dtype=np.int64)
    x[::3] = x[1::3]   # duplicates
    run(backend, "i64", 3, block, x, signed=signed)


SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 1e-40, -1e-40]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [1, 100, (8, 4, 5)], ids=str)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("key", ["f32", "f16", "f64"])
def test_floats(backend, key, block, descending):
    dtype = TYPES[key][1]
    rng = np.random.default_rng([block_threads(block), descending, len(key)])
    size = block_threads(block) * 3
    x = rng.integers(-20, 20, size).astype(dtype) / dtype(4)
    with np.errstate(over="ignore"):
        specials = np.array(SPECIALS * (size // len(SPECIALS) // 2 + 1), dtype)[:size // 2]
    x[rng.permutation(size)[:specials.size]] = specials
    # A NaN with a payload keeps it.
    if key == "f32" and size > 1:
        x[-1] = np.array([0x7fc01234], np.uint32).view(np.float32)[0]
    run(backend, key, 3, block, x, descending=descending)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [17, 100, 1024], ids=str)
@pytest.mark.parametrize("options", [
    {"bits": (0, 16)}, {"bits": (4, 12), "radix_bits": 3},
    {"bits": (8, 32), "signed": True, "descending": True},
    {"bits": (31, 32), "radix_bits": 1}], ids=str)
def test_bit_ranges(backend, block, options):
    rng = np.random.default_rng([block_threads(block), len(options)])
    x = rng.integers(-2 ** 31, 2 ** 31 - 1, block_threads(block) * 2,
                     dtype=np.int64).astype(np.int32)
    run(backend, "i32", 2, block, x, **options)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [1, 17, 100, (8, 4, 5), 1024], ids=str)
@pytest.mark.parametrize("n", [1, 4])
@pytest.mark.parametrize("values", [False, True])
def test_striped(backend, n, block, values):
    rng = np.random.default_rng([block_threads(block), n, values])
    x = duplicates(rng, block_threads(block) * n, np.float32).astype(np.float32)
    run(backend, "f32", n, block, x, values=values, striped=True, radix_bits=8)


def random_keys(rng, key, size):
    """Any bit patterns of the key type (NaNs and infinities too), a third
    of them repeated (so stability shows)."""
    _, dtype, unsigned = TYPES[key]
    width = np.dtype(unsigned).itemsize * 8
    x = rng.integers(0, 2 ** width, size, dtype=np.uint64).astype(unsigned).view(dtype)
    x[1::3] = x[::3][:x[1::3].size]
    return x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [1, 33, (64, 3), 256], ids=str)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("key", list(TYPES))
def test_counter_grid(backend, key, descending, block):
    """Known blocks whose buffers and counter grid fit: every key type
    ranked in the grid, integers descending as signed."""
    rng = np.random.default_rng([block_threads(block), descending, len(key), ord(key[0])])
    x = random_keys(rng, key, block_threads(block) * 4)
    options = {"descending": descending}
    if key.startswith("i"):
        options["signed"] = descending
    compiled = run(backend, key, 4, block, x, known=True, **options)
    assert GRID in compiled.ptx


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block", [(32, 2), 72], ids=str)
@pytest.mark.parametrize("radix_bits", [1, 2, 3, 5, 6, 7, 8])
def test_counter_grid_radix_bits(backend, block, radix_bits):
    """Grids of 2 to 129 lanes, a last pass of fewer bits (27 bits), a
    ragged block, striped output."""
    rng = np.random.default_rng([block_threads(block), radix_bits])
    x = random_keys(rng, "i32", block_threads(block) * 3)
    compiled = run(backend, "i32", 3, block, x, known=True, bits=(2, 29),
                   radix_bits=radix_bits, striped=True)
    assert GRID in compiled.ptx


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("values", [False, True])
def test_counter_grid_256x16(backend, values):
    """The benchmarks' shape: 256 threads x 16 i32 keys (and values)."""
    rng = np.random.default_rng([256, 16, values])
    x = random_keys(rng, "i32", 256 * 16)
    compiled = run(backend, "i32", 16, 256, x, values=values, known=True, striped=True)
    assert GRID in compiled.ptx


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n, values", [(16, False), (8, True), (16, True)], ids=str)
def test_counter_grid_in_union_512(backend, n, values):
    """512 threads: the keys', the values' and the grid's buffers do not fit
    the static shared memory together; the grid ranks in their union (the
    values exchanged after the keys, at the same ranks)."""
    rng = np.random.default_rng([512, n, values])
    x = random_keys(rng, "i32", 512 * n)
    compiled = run(backend, "i32", n, 512, x, values=values, known=True)
    assert UNION in compiled.ptx and GRID not in compiled.ptx


@pytest.mark.parametrize("backend", BACKENDS)
def test_union_striped_descending_and_a_second_sort(backend):
    """Two sorts of 512 threads x 16 keys and values in one kernel, both in
    the union: the first striped is loaded back blocked by the second,
    which sorts descending by the low 12 bits, signed f32 values' bits
    unchanged; the barrier before the second sort's first zeroing keeps the
    first's last loads apart."""
    n, block = 16, 512
    prog = wm.Program("radix_union_twice")

    @prog.kernel(x=wm.memref(wm.i32), v=wm.memref(wm.i32), ok=wm.memref(wm.i32),
                 ov=wm.memref(wm.i32))
    def twice(k, x, v, ok, ov):
        k.known_block_size(block)
        base = linear_thread(k) * n
        keys, vals = k.block_radix_sort(k.load_vector(x, base, n), k.load_vector(v, base, n),
                                        signed=True)
        keys, vals = k.block_radix_sort(keys, vals, descending=True, bits=(0, 12),
                                        striped=True)
        k.store_vector(ok, base, keys)
        k.store_vector(ov, base, vals)

    compiled = wm.compile(prog, chip="sm_90")
    assert UNION in compiled.ptx and GRID not in compiled.ptx
    rng = np.random.default_rng(3)
    x = random_keys(rng, "i32", block * n)
    v = np.arange(block * n, dtype=np.int32)
    ok, ov = np.zeros_like(x), np.zeros_like(v)
    wm.launch(compiled, "twice", 1, block, x, v, ok, ov, backend=backend)
    first = np.argsort(image(x, "i32", signed=True), kind="stable")
    second = np.argsort(image(x[first], "i32", descending=True, bits=(0, 12)), kind="stable")
    order = first[second].reshape(n, block).T.reshape(-1)
    np.testing.assert_array_equal(ok, x[order])
    np.testing.assert_array_equal(ov, v[order])


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_sorts_share_the_counter_grid(backend):
    """Two sorts of one kernel (of 32 and of 4 digits a pass) rank in one
    grid: the second re-sorts the first's output, descending by its low 20
    bits."""
    n, block = 3, (64, 2)
    threads = block_threads(block)
    prog = wm.Program("radix_twice")

    @prog.kernel(x=wm.memref(wm.i32), v=wm.memref(wm.i32), ok=wm.memref(wm.i32),
                 ov=wm.memref(wm.i32))
    def twice(k, x, v, ok, ov):
        k.known_block_size(*block)
        base = linear_thread(k) * n
        keys, vals = k.block_radix_sort(k.load_vector(x, base, n), k.load_vector(v, base, n),
                                        radix_bits=6)
        keys, vals = k.block_radix_sort(keys, vals, descending=True, bits=(0, 20),
                                        radix_bits=2)
        k.store_vector(ok, base, keys)
        k.store_vector(ov, base, vals)

    compiled = wm.compile(prog, chip="sm_90")
    assert compiled.ptx.count(GRID) >= 1
    rng = np.random.default_rng(2)
    x = random_keys(rng, "i32", threads * n)
    v = np.arange(threads * n, dtype=np.int32)
    ok, ov = np.zeros_like(x), np.zeros_like(v)
    wm.launch(compiled, "twice", 1, block, x, v, ok, ov, backend=backend)
    first = np.argsort(image(x, "i32"), kind="stable")
    second = np.argsort(image(x[first], "i32", descending=True, bits=(0, 20)), kind="stable")
    np.testing.assert_array_equal(ok, x[first][second])
    np.testing.assert_array_equal(ov, v[first][second])


def test_ir_and_verify():
    text = str(sort_program("i32", 4, True, descending=True, signed=True, bits=(0, 16),
                            striped=True, radix_bits=8))
    assert re.search(r"= warp.block_radix_sort %\w+, %\w+ descending signed bits 0 to 16 "
                     r"striped radix_bits = 8 : vector<4xi32>, vector<4xi32>\s", text)
    wm.Module.parse(text).verify()
    text = str(sort_program("f16", 2, False))
    assert re.search(r"= warp.block_radix_sort %\w+ : vector<2xf16>\s", text)
    wm.Module.parse(text).verify()


def test_bad_calls_raise_at_the_call():
    prog = wm.Program()
    raised = []

    @prog.kernel(x=wm.memref(wm.i32), f=wm.memref(wm.f32), b=wm.memref(wm.i1))
    def bad(k, x, f, b):
        v = k.load_vector(x, 0, 4)
        for call, error, match in (
                (lambda: k.block_radix_sort(x[0]), TypeError, "vector of a thread's keys"),
                (lambda: k.block_radix_sort(k.load_vector(b, 0, 4)), TypeError,
                 "not vector<4xi1>"),
                (lambda: k.block_radix_sort(v, k.load_vector(x, 0, 3)), TypeError,
                 "as many items as the keys"),
                (lambda: k.block_radix_sort(k.load_vector(f, 0, 4), signed=True), ValueError,
                 "signed orders integer keys"),
                (lambda: k.block_radix_sort(v, bits=(4, 4)), ValueError, "bits' end"),
                (lambda: k.block_radix_sort(v, bits=(0, 33)), ValueError, "bits' end"),
                (lambda: k.block_radix_sort(v, bits=8), TypeError, "a pair"),
                (lambda: k.block_radix_sort(v, radix_bits=0), ValueError, "radix_bits"),
                (lambda: k.block_radix_sort(v, radix_bits=9), ValueError, "radix_bits"),
                (lambda: k.block_radix_sort(v, striped=1), TypeError,
                 "striped must be True or False")):
            with pytest.raises(error, match=match):
                call()
            raised.append(error)
        k.block_radix_sort(v)
    assert len(raised) == 10
    wm.Module.parse(str(prog)).verify()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key,n,block,options", [
    ("i32", 4, (64, 3), {"signed": True}),
    ("f32", 8, 256, {"descending": True, "striped": True}),
    ("i64", 2, (32, 2, 2), {"bits": (8, 40)}),
    ("i16", 16, 96, {})], ids=str)
def test_match_ranking(backend, key, n, block, options):
    """radix_bits = 8 in known blocks of whole warps where a counter grid
    of a column per thread does not fit: each warp counts in its own
    column by ballots of the digits' bits (CUB's BlockRadixRankMatch); every pass after
    the first re-zeroes the columns."""
    rng = np.random.default_rng([block_threads(block), n])
    x = random_keys(rng, key, block_threads(block) * n)
    compiled = run(backend, key, n, block, x, known=True, radix_bits=8, **options)
    assert "vote.sync.ballot" in compiled.ptx
