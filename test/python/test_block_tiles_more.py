"""The rest of cooperative groups' tiled_partition<64..512> (and the block
level): warp.block_shuffle <xor> (tile.shfl_xor, a block-wide butterfly),
warp.block_ballot (tile.ballot of more than 32 threads, the block's lane
mask as vector<W x i32>), and `items` and `algorithm = <raking>` on the
tiled block reduce and scan. Results on the simulator (and a GPU) against
numpy models written from the ops' definitions: each tile of N consecutive
threads (t = x + X * (y + Y * z)) is a block of N threads."""
import functools
import sys
from pathlib import Path

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import affine, block_threads, linear_thread, wrap

CUDA_SUITE = Path(__file__).resolve().parents[1] / "Integration" / "CUDA"
sys.path.insert(0, str(CUDA_SUITE))
try:
    import reference as ref
except ImportError:  # e.g. the GPU bundle's copy of test/python
    ref = None

ELEMENTS = {"i32": (wm.i32, np.int32), "f32": (wm.f32, np.float32),
            "i64": (wm.i64, np.int64), "f16": (wm.f16, np.float16)}


def payload(dtype, size, rng):
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)
    return rng.standard_normal(size).astype(dtype) * dtype(100)


# --- block_shuffle <xor> -----------------------------------------------------

@functools.lru_cache(maxsize=None)
def xor_program(name, tile):
    """Per thread: the xor shuffle by a distance read from memory (one per
    thread), and by the constant 1 (each thread's neighbour pair)."""
    element = ELEMENTS[name][0]
    prog = wm.Program(f"xor_{name}_{tile}")

    @prog.kernel(x=wm.memref(element), d=wm.memref(wm.i32), got=wm.memref(element),
                 ok=wm.memref(wm.i32), pair=wm.memref(element))
    def xor_kernel(k, x, d, got, ok, pair):
        t = linear_thread(k)
        v, valid = k.block_shuffle("xor", x[t], d[t], tile=tile)
        got[t] = v
        ok[t] = k.select(valid, 1, 0, wm.i32)
        pair[t] = k.block_shuffle("xor", x[t], 1, tile=tile)[0]
    return prog


def xor_model(x, d, group):
    """(result, valid) from the definition: rank r of its group (the tile,
    or the whole block) reads rank r ^ d where that is below the group's
    size (d's unsigned 32-bit pattern), else keeps its own value."""
    threads = x.size
    got, ok = x.copy(), np.zeros(threads, np.int32)
    for t in range(threads):
        first, rank = t - t % group, t % group
        source = rank ^ (int(d[t]) & 0xFFFFFFFF)
        if source < group:
            got[t], ok[t] = x[first + source], 1
    return got, ok


# (payload, block, tile): 1, 2 and 4 tiles, 2-D blocks, and block-wide
# butterflies (tile None) over a ragged 1-D and a ragged 2-D block.
XOR_CASES = [("i32", 256, 64), ("f32", (64, 2), 128), ("i64", (32, 4), 64),
             ("f16", 512, 256), ("i32", 100, None), ("f32", (16, 6), None)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,block,tile", XOR_CASES, ids=str)
def test_xor_shuffle_matches_numpy(backend, name, block, tile):
    dtype = ELEMENTS[name][1]
    compiled = wm.compile(xor_program(name, tile), chip="sm_90")
    threads = block_threads(block)
    group = tile or threads
    rng = np.random.default_rng([threads, group, len(name)])
    x = payload(dtype, threads, rng)
    # Distances inside and past the group, negative ones, 0 and the top bit.
    d = rng.integers(-4, 2 * group, threads).astype(np.int32)
    d[:4] = [0, group, -1, -2 ** 31]
    got, ok, pair = np.zeros_like(x), np.zeros(threads, np.int32), np.zeros_like(x)
    wm.launch(compiled, "xor_kernel", 1, block, x, d, got, ok, pair, backend=backend)
    want, want_ok = xor_model(x, d, group)
    np.testing.assert_array_equal(ok, want_ok)
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    want_pair, _ = xor_model(x, np.ones(threads, np.int32), group)
    np.testing.assert_array_equal(pair.view(np.uint8), want_pair.view(np.uint8))


def test_xor_model_against_reference():
    """The test's model and reference.py's block_shuffle_source agree."""
    if ref is None:
        pytest.skip("needs test/Integration/CUDA/reference.py")
    d = np.resize(np.array([3, 64, -1, 200, 0, 33, 99], np.int32), 100)
    got, ok = xor_model(np.arange(100, dtype=np.int32), d, 100)
    for t in range(100):
        source, valid = ref.block_shuffle_source("xor", t, int(d[t]), 100)
        assert (got[t], ok[t]) == (source, int(valid)), t


# --- block_ballot ------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def ballot_program(block, tile):
    words = tile // 32 if tile else -(-block_threads(block) // 32)
    prog = wm.Program(f"ballot_{block_threads(block)}_{tile}")

    @prog.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32))
    def ballot_kernel(k, x, out):
        if tile is None:
            k.known_block_size(*((block,) if isinstance(block, int) else block))
        t = linear_thread(k)
        mask = k.block_ballot(x[t] > 0, tile=tile)
        k.store_vector(out, t * words, mask)
    return prog, words


def ballot_model(p, group, words):
    """Every thread's words: bit i of word w the predicate of rank 32 w + i
    of its group (the tile, or the block), 0 past the group."""
    threads = p.size
    out = np.zeros((threads, words), np.uint32)
    for first in range(0, threads, group):
        bits = np.zeros(words * 32, bool)
        bits[:min(group, threads - first)] = p[first:first + group]
        packed = (bits.reshape(words, 32) * (1 << np.arange(32, dtype=np.uint64))).sum(1)
        out[first:first + group] = packed.astype(np.uint32)
    return out.view(np.int32).reshape(-1)


# (block, tile): 4, 2 and 1 tiles of 64..256, 2-D blocks; whole blocks of a
# known size (tile None), a ragged one, a 2-D one and one of a partial warp
# (its warp's ballot).
BALLOT_CASES = [(256, 64), ((64, 4), 128), (256, 256), ((128, 4), 256),
                (100, None), ((32, 3), None), ((5, 4), None)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block,tile", BALLOT_CASES, ids=str)
def test_block_ballot_matches_numpy(backend, block, tile):
    prog, words = ballot_program(block, tile)
    compiled = wm.compile(prog, chip="sm_90")
    threads = block_threads(block)
    group = tile or threads
    rng = np.random.default_rng([threads, group])
    for what in ["random", "all true", "all false", "one"]:
        if what == "random":
            x = rng.integers(-1, 2, threads).astype(np.int32)
        elif what == "one":
            x = np.zeros(threads, np.int32)
            x[threads - 1] = 1
        else:
            x = np.full(threads, 1 if what == "all true" else 0, np.int32)
        out = np.full(threads * words, -7, np.int32)
        wm.launch(compiled, "ballot_kernel", 1, block, x, out, backend=backend)
        want = ballot_model(x > 0, group, words)
        np.testing.assert_array_equal(out, want, err_msg=f"{what}, block {block}, tile {tile}")
        if ref is not None:
            assert list(want[:words].view(np.uint32)) == ref.block_ballot(
                list(x[:group] > 0), words)


def test_block_ballot_ir_and_errors():
    prog, _ = ballot_program(100, None)
    text = str(prog)
    assert "warp.block_ballot" in text and ": vector<4xi32>" in text
    tiled, _ = ballot_program(256, 64)
    assert "tile 64 : vector<2xi32>" in str(tiled)
    bad = wm.Program()
    with pytest.raises(ValueError, match="known_block_size"):
        @bad.kernel(x=wm.memref(wm.i32))
        def no_size(k, x):
            k.block_ballot(x[0] > 0)
    with pytest.raises(wm.VerificationError, match="tile must be a power of two from 64"):
        @bad.kernel(x=wm.memref(wm.i32))
        def bad_tile(k, x):
            k.block_ballot(x[0] > 0, tile=96)


# --- items and raking with tile ----------------------------------------------

INIT = 7


@functools.lru_cache(maxsize=None)
def tiled_items_program(n, tile, algorithm, kind):
    """Per tile of `tile` threads, over n i32 items a thread (n = 1 uses a
    plain value, not items): the reduction, the inclusive scan, the
    exclusive scan with init and its total, the exclusive scan without init;
    then an untiled raking reduction of the block (its own buffers)."""
    prog = wm.Program(f"tiled_items_{n}_{tile}_{algorithm}_{kind}")
    items = n > 1

    @prog.kernel(x=wm.memref(wm.i32), red=wm.memref(wm.i32), inc=wm.memref(wm.i32),
                 exi=wm.memref(wm.i32), tot=wm.memref(wm.i32), exc=wm.memref(wm.i32),
                 block=wm.memref(wm.i32))
    def items_kernel(k, x, red, inc, exi, tot, exc, block):
        t = linear_thread(k)
        base = t * n
        v = k.load_vector(x, base, n) if items else x[t]

        def put(buffer, value):
            if items:
                k.store_vector(buffer, base, value)
            else:
                buffer[t] = value
        red[t] = k.block_reduce(kind, v, items=items, algorithm=algorithm, tile=tile)
        put(inc, k.block_scan(kind, v, items=items, algorithm=algorithm, tile=tile))
        scan, total = k.block_scan(kind, v, items=items, exclusive=True, init=INIT, total=True,
                                   algorithm=algorithm, tile=tile)
        put(exi, scan)
        tot[t] = total
        put(exc, k.block_scan(kind, v, items=items, exclusive=True, algorithm=algorithm,
                              tile=tile))
        block[t] = k.block_reduce(kind, v, items=items, algorithm="raking")
    return prog


def wrap32(a):
    return ((a + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)


def items_model(x, n, tile, kind):
    """Each tile's tile * n items in the blocked order, scanned with numpy."""
    groups = x.astype(np.int64).reshape(-1, tile * n)
    if kind == "add":
        inc, identity, combine = np.cumsum(groups, 1), 0, np.add
    else:
        inc, identity, combine = np.maximum.accumulate(groups, 1), -2 ** 31, np.maximum
    total = inc[:, -1]
    exc = np.concatenate([np.full((groups.shape[0], 1), identity), inc[:, :-1]], 1)
    exi = np.concatenate([np.full((groups.shape[0], 1), INIT), combine(INIT, inc[:, :-1])], 1)
    per_thread = lambda a: np.repeat(a, tile)  # noqa: E731
    if kind == "add":
        whole = np.full(x.size // n, groups.sum())
    else:
        whole = np.full(x.size // n, groups.max())
    return dict(red=per_thread(total), inc=inc.reshape(-1), exi=exi.reshape(-1),
                tot=per_thread(total), exc=exc.reshape(-1), block=whole)


# (items, block, tile, algorithm, kind): items 1, 3, 4; 4, 2 and 1 tiles;
# 2-D blocks; the warp scans and raking (with and without items).
ITEMS_CASES = [(3, 256, 64, None, "add"), (4, (64, 2), 128, "raking", "maxsi"),
               (1, (32, 8), 64, "raking", "add"), (4, 512, 128, "raking", "add"),
               (3, (16, 8), 128, "raking", "add"), (1, 512, 256, "raking", "maxsi")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n,block,tile,algorithm,kind", ITEMS_CASES, ids=str)
def test_tiled_items_and_raking_match_numpy(backend, n, block, tile, algorithm, kind):
    compiled = wm.compile(tiled_items_program(n, tile, algorithm, kind), chip="sm_90")
    threads = block_threads(block)
    rng = np.random.default_rng([threads, tile, n])
    if kind == "add":
        x = rng.integers(-2 ** 31, 2 ** 31, threads * n, dtype=np.int64).astype(np.int32)
    else:
        x = rng.integers(-1000, 1000, threads * n).astype(np.int32)
    outs = {name: np.zeros(size, np.int32) for name, size in
            [("red", threads), ("inc", threads * n), ("exi", threads * n),
             ("tot", threads), ("exc", threads * n), ("block", threads)]}
    wm.launch(compiled, "items_kernel", 1, block, x, *outs.values(), backend=backend)
    want = items_model(x, n, tile, kind)
    for name, got in outs.items():
        np.testing.assert_array_equal(got, wrap32(want[name]),
                                      err_msg=f"{name}: n {n}, block {block}, tile {tile}")



@functools.lru_cache(maxsize=None)
def tiled_items_region_program(n, tile):
    """Per tile, over n items a thread: the affine maps' composition (a
    combine region without init: each thread's prefix is the tiled
    inclusive scan of the thread before, read by a tiled block shuffle),
    and a reverse add scan (the tile's last rank has no suffix)."""
    prog = wm.Program(f"tiled_items_region_{n}_{tile}")

    @prog.kernel(a=wm.memref(wm.i32), b=wm.memref(wm.i32), x=wm.memref(wm.i32),
                 sa=wm.memref(wm.i32), sb=wm.memref(wm.i32), rev=wm.memref(wm.i32))
    def region_kernel(k, a, b, x, sa, sb, rev):
        t = linear_thread(k)
        base = t * n
        va, vb = k.load_vector(a, base, n), k.load_vector(b, base, n)
        ma, mb = k.block_scan(affine, (va, vb), items=True, tile=tile)
        k.store_vector(sa, base, ma)
        k.store_vector(sb, base, mb)
        k.store_vector(rev, base, k.block_scan("add", k.load_vector(x, base, n), items=True,
                                               reverse=True, tile=tile))
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n,block,tile", [(3, (64, 4), 128), (4, 128, 64)], ids=str)
def test_tiled_items_region_and_reverse(backend, n, block, tile):
    compiled = wm.compile(tiled_items_region_program(n, tile), chip="sm_90")
    threads = block_threads(block)
    rng = np.random.default_rng([threads, tile, n, 3])
    a, b, x = (rng.integers(-1000, 1000, threads * n).astype(np.int32) for _ in range(3))
    sa, sb, rev = (np.zeros(threads * n, np.int32) for _ in range(3))
    wm.launch(compiled, "region_kernel", 1, block, a, b, x, sa, sb, rev, backend=backend)
    group = tile * n
    want_rev = np.flip(np.cumsum(np.flip(x.astype(np.int64).reshape(-1, group), 1), 1), 1)
    np.testing.assert_array_equal(rev, wrap32(want_rev.reshape(-1)))
    for i in range(threads * n):
        start = i - i % group
        acc = (int(a[start]), int(b[start]))
        for j in range(start + 1, i + 1):
            acc = tuple(map(wrap, affine(acc, (int(a[j]), int(b[j])))))
        assert (sa[i], sb[i]) == acc, i
