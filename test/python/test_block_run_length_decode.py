"""warp.block_run_length_decode (CUB BlockRunLengthDecode): IR from the
builder, errors at the call, and windows decoded on the simulator (and a
GPU) against a Python reference written from the definition: thread t holds
runs t*R .. t*R+R-1; run r starts at the sum of the lengths before it;
position p takes the last run that starts at or before p (runs of length 0
anywhere); thread t gets positions from + t*D .. from + t*D + D - 1, each
with its position in its run; past the total, the block's last run's value
or the default."""
import functools
import random

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import block_threads, linear_thread

TYPES = {"i8": (wm.i8, np.int8), "i16": (wm.i16, np.int16), "i32": (wm.i32, np.int32),
         "i64": (wm.i64, np.int64), "f16": (wm.f16, np.float16), "f32": (wm.f32, np.float32),
         "f64": (wm.f64, np.float64)}
LENGTHS = {"i8": (wm.i8, np.int8), "i16": (wm.i16, np.int16), "i32": (wm.i32, np.int32),
           "i64": (wm.i64, np.int64)}


def reference(values, lengths, threads, d, start, default, bits):
    """(items, total, relative offsets) of the definition, in Python
    integers modulo 2^bits."""
    mod = 1 << bits
    starts, total = [], 0
    for length in lengths.tolist():
        starts.append(total)
        total = (total + int(length)) % mod
    items, relative = decode_reference(values, starts, threads, d, start, default, total, bits)
    return items, total, relative


def decode_reference(values, starts, threads, d, start, default, total, bits):
    """(items, relative offsets) of the window from `start` over runs that
    begin at `starts`: position p takes the last run starting at or before
    it (the first run where none does: the offsets form's rule)."""
    mod = 1 << bits
    items, relative = [], []
    for p in range(threads * d):
        p = (start + p) % mod
        run = max([r for r, s in enumerate(starts) if s <= p], default=0)
        past = default is not None and p >= total
        items.append(default if past else values[run])
        relative.append((p - starts[run]) % mod)
    return np.array(items, values.dtype), relative


@functools.lru_cache(maxsize=None)
def decode_program(value, length, r, d, known, with_default, offset):
    element, offset_type = TYPES[value][0], (wm.i64 if offset == 64 else wm.i32)
    prog = wm.Program(f"rld_{value}_{length}")

    @prog.kernel(v=wm.memref(element), n=wm.memref(LENGTHS[length][0]),
                 start=wm.memref(offset_type), fill=wm.memref(element),
                 out=wm.memref(element), rel=wm.memref(offset_type), tot=wm.memref(offset_type))
    def rld(k, v, n, start, fill, out, rel, tot):
        if known:
            k.known_block_size(*known)
        t = linear_thread(k)
        values = k.load_vector(v, t * r, r)
        lengths = k.load_vector(n, t * r, r)
        default = fill[0] if with_default else None
        items, total, relative = k.block_run_length_decode(
            values, lengths, d, from_offset=start[0], default=default,
            relative_offsets=True)
        k.store_vector(out, t * d, items)
        k.store_vector(rel, t * d, relative)
        tot[t] = total
    return prog


def run(backend, value, length, r, d, block, start_at, with_default, offset=32, known=True,
        seed=0):
    threads = block_threads(block)
    shape = (block,) if isinstance(block, int) else tuple(block)
    program = decode_program(value, length, r, d, shape if known else None, with_default, offset)
    compiled = wm.compile(program, chip="sm_90")
    rng = np.random.default_rng([threads, r, d, seed])
    dtype = TYPES[value][1]
    values = rng.integers(-100, 100, threads * r).astype(dtype)
    # Short runs, a third of them empty (anywhere, not only at the end).
    most = min(7, np.iinfo(LENGTHS[length][1]).max)
    lengths = rng.integers(0, most + 1, threads * r).astype(LENGTHS[length][1])
    lengths[rng.random(lengths.size) < 0.33] = 0
    lengths[0] = max(int(lengths[0]), 1)
    total = int(lengths.astype(np.int64).sum())
    # The window: from the start, inside, or partly or wholly past the end.
    start = {"zero": 0, "inside": total // 3, "end": max(0, total - threads * d // 2),
             "past": total + 5}[start_at]
    fill = np.array([42], dtype)
    offset_dtype = np.int64 if offset == 64 else np.int32
    out = np.zeros(threads * d, dtype)
    rel = np.zeros(threads * d, offset_dtype)
    tot = np.zeros(threads, offset_dtype)
    wm.launch(compiled, "rld", 1, block, values, lengths, np.array([start], offset_dtype), fill,
              out, rel, tot, backend=backend)
    want, want_total, want_rel = reference(values, lengths, threads, d, start,
                                           fill[0] if with_default else None, offset)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(rel, np.array(want_rel, offset_dtype))
    np.testing.assert_array_equal(tot, np.full(threads, want_total, offset_dtype))
    return compiled


CASES = [(value, length, r, d, block, start_at, with_default)
         for value in TYPES for length in ("i8", "i16", "i32")
         for r in (1, 2, 3) for d in (1, 4, 5) for block in (32, 64, 96, 256)
         for start_at in ("zero", "inside", "end", "past") for with_default in (False, True)]
SAMPLE = random.Random(11).sample(CASES, 8)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("value,length,r,d,block,start_at,with_default", SAMPLE, ids=str)
def test_windows(backend, value, length, r, d, block, start_at, with_default):
    run(backend, value, length, r, d, block, start_at, with_default)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("start_at", ["zero", "end"])
def test_i64_offsets_unknown_block(backend, start_at):
    """i64 lengths and offsets; the block size only at run time (2-D, not
    whole warps)."""
    run(backend, "f64", "i64", 2, 3, (10, 5), start_at, True, offset=64, known=False)


@pytest.mark.parametrize("backend", BACKENDS)
def test_i8_lengths_i64_offsets(backend):
    run(backend, "i16", "i8", 4, 2, 64, "inside", False, offset=64)


@functools.lru_cache(maxsize=None)
def offsets_program(r, d):
    prog = wm.Program(f"rld_offsets_{r}_{d}")

    @prog.kernel(v=wm.memref(wm.f32), o=wm.memref(wm.i32), start=wm.memref(wm.i32),
                 out=wm.memref(wm.f32), rel=wm.memref(wm.i32), tot=wm.memref(wm.i32))
    def rld(k, v, o, start, out, rel, tot):
        t = linear_thread(k)
        items, last, relative = k.block_run_length_decode(
            k.load_vector(v, t * r, r), k.load_vector(o, t * r, r), d,
            from_offset=start[0], relative_offsets=True, offsets=True)
        k.store_vector(out, t * d, items)
        k.store_vector(rel, t * d, relative)
        tot[t] = last
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("r,d,threads,first,start_at", [
    (2, 3, 64, 0, "zero"), (3, 4, 100, 0, "end"), (1, 2, 33, 5, "zero")], ids=str)
def test_from_offsets(backend, r, d, threads, first, start_at):
    """CUB's constructor from run_offsets: the starts given (the exclusive
    sum of lengths, some runs empty), the last run without an end (the
    window runs past it), `total` its start; where the first start is not
    0, the positions before it take the first run."""
    compiled = wm.compile(offsets_program(r, d), chip="sm_90")
    rng = np.random.default_rng([r, d, threads, first])
    values = rng.integers(-100, 100, threads * r).astype(np.float32)
    lengths = rng.integers(0, 4, threads * r)
    starts = (first + np.concatenate([[0], np.cumsum(lengths)[:-1]])).astype(np.int32)
    start = {"zero": 0, "end": max(0, int(starts[-1]) - threads * d // 2)}[start_at]
    out = np.zeros(threads * d, np.float32)
    rel = np.zeros(threads * d, np.int32)
    tot = np.zeros(threads, np.int32)
    wm.launch(compiled, "rld", 1, threads, values, starts, np.array([start], np.int32), out, rel,
              tot, backend=backend)
    want, want_rel = decode_reference(values, starts.tolist(), threads, d, start, None, None, 32)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(rel, np.array(want_rel, np.uint32).view(np.int32))
    np.testing.assert_array_equal(tot, np.full(threads, starts[-1], np.int32))


def test_ir():
    prog = wm.Program("ir")

    @prog.kernel(v=wm.memref(wm.f32), n=wm.memref(wm.i16))
    def k(k, v, n):
        k.known_block_size(64)
        vals, lens = k.load_vector(v, 0, 2), k.load_vector(n, 0, 2)
        k.block_run_length_decode(vals, lens, 4)
        k.block_run_length_decode(vals, lens, 3, from_offset=7, default=0.5,
                                  relative_offsets=True)
    text = str(prog)
    assert ": vector<2xf32>, vector<2xi16>, i32 -> vector<4xf32> loc" in text
    assert "default %" in text and "-> vector<3xf32>, vector<3xi32>" in text
    text = str(offsets_program(2, 3))
    assert ", offsets %" in text and ": vector<2xf32>, vector<2xi32>, i32 -> vector<3xf32>, " \
        "vector<3xi32>" in text
    wm.Module.parse(text).verify()


@pytest.mark.parametrize("call,error", [
    (lambda k, v, n: k.block_run_length_decode(n, v, 4), TypeError),
    (lambda k, v, n: k.block_run_length_decode(v, k.vector_slice(n, 0, 1), 4), TypeError),
    (lambda k, v, n: k.block_run_length_decode(v, n, 0), ValueError),
    (lambda k, v, n: k.block_run_length_decode(v, n, 4, default=k.constant(1, wm.i32)), TypeError),
    (lambda k, v, n: k.block_run_length_decode(v, n, 4, default=0.5, offsets=True), ValueError),
    (lambda k, v, n: k.block_run_length_decode(v, n, 4, offsets=1), TypeError),
])
def test_errors_at_the_call(call, error):
    prog = wm.Program("bad")

    @prog.kernel(v=wm.memref(wm.f32), n=wm.memref(wm.i32))
    def k(k, v, n):
        with pytest.raises(error):
            call(k, k.load_vector(v, 0, 2), k.load_vector(n, 0, 2))
