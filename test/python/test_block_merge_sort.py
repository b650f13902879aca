"""warp.block_merge_sort (CUB BlockMergeSort::StableSort): block-wide sorts
on the simulator (and a GPU) against Python's own stable sort: thread t
holds the block's positions t*N .. t*N+N-1 before and after (blocked).
Values are each item's input position (in one of the value types), which
shows stability: the keys have many duplicates. With valid_items n only the
block's first n positions are sorted; the others get the oob default and
keep their values. Each launch runs several blocks, each with its own
valid_items.

The cases are the cross product of key type x N x block size x keys/pairs
x valid_items. A GPU runs all of it; the simulator, which interprets every
thread, a fixed sample (chosen by a hash of the case, plus cases that
cover every key type, N and block size), so that the tree's test run stays
short."""
import functools
import itertools
import zlib

import numpy as np
import pytest

import warp_mlir as wm
from conftest import requires_gpu, requires_sim
from block_kernels import linear_thread

# The launch's array type (bf16 has no numpy type: its bits travel as
# 2-byte voids) and how a key's bits read as a number (the reference order).
TYPES = {"i8": (wm.i8, np.int8), "i16": (wm.i16, np.int16), "i32": (wm.i32, np.int32),
         "i64": (wm.i64, np.int64), "f16": (wm.f16, np.float16), "bf16": (wm.bf16, np.uint16),
         "f32": (wm.f32, np.float32), "f64": (wm.f64, np.float64)}
VALUE_TYPES = ["i32", "f32", "i16", "i64", "f64"]
NS = [1, 2, 3, 4, 8]
BLOCKS = [32, 64, 96, 128, 256]
OOB = -1


def number(key, bits):
    """What the bits of one key mean (bf16: the high half of an f32)."""
    if key == "bf16":
        return float(np.array([int(bits) << 16], np.uint32).view(np.float32)[0])
    return float(bits) if key.startswith("f") else int(bits)


@functools.lru_cache(maxsize=None)
def sort_program(key, n, block, value, valid, descending):
    """Block b sorts its B*N keys (and N values per thread) at b*B*N;
    `valid`: with valid_items counts[b] and the oob default -1."""
    element = TYPES[key][0]
    prog = wm.Program(f"bmsort_{key}_{n}_{block}_{value}_{valid}_{descending}")
    value_type = TYPES[value][0] if value else wm.i32

    @prog.kernel(x=wm.memref(element), v=wm.memref(value_type), ok=wm.memref(element),
                 ov=wm.memref(value_type), counts=wm.memref(wm.i32))
    def bmsort(k, x, v, ok, ov, counts):
        k.known_block_size(block)
        base = (k.block_id("x") * block + linear_thread(k)) * n
        keys = k.load_vector(x, base, n)
        options = {}
        if descending:
            options["compare"] = lambda a, b: a > b
        if valid:
            options.update(valid_items=counts[k.block_id("x")],
                           oob_default=k.coerce(OOB, element))
        result = k.block_merge_sort(keys, k.load_vector(v, base, n) if value else None,
                                    **options)
        sorted_keys, sorted_values = result if value else (result, None)
        k.store_vector(ok, base, sorted_keys)
        if value:
            k.store_vector(ov, base, sorted_values)
    return prog


def reference(key, keys, count, descending):
    """The block's keys (bits) and each output position's input position:
    Python's stable sort of the first `count` positions, the rest in place."""
    size = keys.size
    m = size if count is None else min(max(count, 0), size)
    sign = -1 if descending else 1
    order = sorted(range(m), key=lambda i: sign * number(key, keys[i]))
    where = np.array(order + list(range(m, size)), np.int64)
    out = keys[where]
    if count is not None:
        out[m:] = oob_bits(key)
    return out, where


def oob_bits(key):
    """The oob default -1 as the launch's array element."""
    if key == "bf16":
        return np.uint16(0xBF80)
    return TYPES[key][1](OOB)


def make_keys(rng, key, size):
    """Keys with many duplicates (a dozen distinct), both signs, -0.0."""
    small = rng.integers(-6, 6, size)
    if key == "bf16":
        floats = (small / 4).astype(np.float32)
        floats[::11] = -0.0
        return (floats.view(np.uint32) >> 16).astype(np.uint16)
    dtype = TYPES[key][1]
    if key.startswith("f"):
        x = (small / 4).astype(dtype)
        x[::11] = -0.0
        return x
    x = small.astype(dtype)
    # A few keys of the type's whole range.
    info = np.iinfo(dtype)
    x[::13] = rng.integers(info.min, info.max, x[::13].size, dtype=np.int64, endpoint=True)
    return x


def run(backend, key, n, block, value, valid, descending):
    compiled = wm.compile(sort_program(key, n, block, value, valid, descending), chip="sm_90")
    rng = np.random.default_rng(zlib.crc32(f"{key}{n}{block}{value}{valid}".encode()))
    size = block * n
    # Each block its own valid_items: inside, none (0 or negative), one
    # short, past the end.
    counts = [int(rng.integers(1, size)), -3 if block % 64 else 0, size - 1, size + 5] \
        if valid else [None, None]
    blocks = len(counts)
    x = make_keys(rng, key, blocks * size)
    vdtype = TYPES[value][1] if value else np.int32
    v = np.arange(blocks * size).astype(vdtype)
    ok, ov = np.zeros_like(x), np.zeros_like(v)
    arg_counts = np.array([0 if c is None else c for c in counts], np.int32)
    launch = (lambda a: a.view("V2")) if key == "bf16" else (lambda a: a)
    wm.launch(compiled, "bmsort", blocks, block, launch(x), v, launch(ok), ov, arg_counts,
              backend=backend)
    for b, count in enumerate(counts):
        chunk = slice(b * size, (b + 1) * size)
        keys, where = reference(key, x[chunk], count, descending)
        np.testing.assert_array_equal(ok[chunk].view(np.uint8), keys.view(np.uint8),
                                      err_msg=f"block {b}, valid_items {count}")
        if value:
            np.testing.assert_array_equal(ov[chunk], (b * size + where).astype(vdtype),
                                          err_msg=f"block {b}, valid_items {count}")


def case_id(case):
    key, n, block, value, valid = case
    return f"{key}-{n}x{block}-{value or 'keys'}{'-valid' if valid else ''}"


# The whole cross product; pairs take a value type that varies with the
# case, and a third of the cases sort descending.
CASES = [(key, n, block, VALUE_TYPES[i % len(VALUE_TYPES)] if pairs else None, valid)
         for i, (key, n, block, pairs, valid) in enumerate(itertools.product(
             TYPES, NS, BLOCKS, [False, True], [False, True]))]

# The simulator's sample: every key type, N and block size at least once,
# pairs and valid_items among them, and one case in 128 chosen by its hash.
# (key, N, block, pairs, valid_items)
COVER = [("i32", 4, 96, True, True), ("f32", 8, 64, True, False), ("i8", 3, 32, True, True),
         ("bf16", 2, 128, False, False), ("i64", 1, 256, True, False),
         ("f16", 4, 32, True, True), ("f64", 2, 96, False, True), ("i16", 8, 32, True, False)]


def in_sample(case):
    key, n, block, value, valid = case
    return (key, n, block, value is not None, valid) in COVER or \
        zlib.crc32(case_id(case).encode()) % 128 == 0


def params():
    for case in CASES:
        yield pytest.param("cuda", *case, id=f"cuda-{case_id(case)}", marks=requires_gpu)
        if in_sample(case):
            yield pytest.param("sim", *case, id=f"sim-{case_id(case)}", marks=requires_sim)


@pytest.mark.parametrize("backend, key, n, block, value, valid", list(params()))
def test_block_merge_sort(backend, key, n, block, value, valid):
    descending = zlib.crc32(case_id((key, n, block, value, valid)).encode()) % 3 == 0
    run(backend, key, n, block, value, valid, descending)


def test_no_shared_memory_for_one_thread():
    compiled = wm.compile(sort_program("i32", 5, 1, "i32", False, False), chip="sm_90")
    assert "__warp_block_merge_sort_buffer" not in compiled.ptx


# Builder misuse: the error each call raises, at the call.
BUILDER_ERRORS = [
    (TypeError, "vector of a thread's keys", lambda k, keys, x: k.block_merge_sort(k.coerce(1, wm.i32))),
    (TypeError, "as many items as the keys",
     lambda k, keys, x: k.block_merge_sort(keys, k.load_vector(x, k.to_index(0), 2))),
    (ValueError, "together", lambda k, keys, x: k.block_merge_sort(keys, oob_default=3)),
    (TypeError, "where i1 is expected", lambda k, keys, x: k.block_merge_sort(keys, compare=lambda a, b: a + b)),
    (TypeError, "compare must be a function", lambda k, keys, x: k.block_merge_sort(keys, compare="<")),
]


@pytest.mark.parametrize("error, message, call", BUILDER_ERRORS, ids=[m for _, m, _ in BUILDER_ERRORS])
def test_builder_errors(error, message, call):
    prog = wm.Program("bmsort_errors")

    @prog.kernel(x=wm.memref(wm.i32))
    def bad(k, x):
        k.known_block_size(64)
        keys = k.load_vector(x, k.to_index(0), 4)
        with pytest.raises(error, match=message):
            call(k, keys, x)


def test_needs_block_size():
    """Without known_block_size the verifier's error names the call."""
    prog = wm.Program("bmsort_unknown_block")
    with pytest.raises(wm.ir.VerificationError, match=r"test_block_merge_sort.py:\d+:\d+: error: "
                       r"'warp.block_merge_sort' op needs a known_block_size"):
        @prog.kernel(x=wm.memref(wm.i32))
        def unknown(k, x):
            k.block_merge_sort(k.load_vector(x, k.to_index(0), 4))
