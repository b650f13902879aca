"""Tiles of several warps (cooperative groups' tiled_partition<64..512>):
warp.block_reduce / block_scan / block_broadcast with `tile N` and
warp.tile_sync. Each tile of N consecutive threads (numbered x + X * (y + Y
* z)) runs the op as a block of N threads; the results on the simulator (and
a GPU) are checked against per-tile folds computed with numpy from that
definition."""
import functools
import sys
from pathlib import Path

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import affine, kind_inputs as inputs, linear_thread, wrap

CUDA_SUITE = Path(__file__).resolve().parents[1] / "Integration" / "CUDA"
sys.path.insert(0, str(CUDA_SUITE))
try:
    import reference as ref
except ImportError:  # e.g. the GPU bundle's copy of test/python
    ref = None

INT32_MIN = -2 ** 31

# kind -> (kind name, element type, numpy dtype, init, identity). The f32
# inputs are small integers: every partial sum is exact, so any combine
# order gives the numpy value.
KINDS = {"add_i32": ("add", wm.i32, np.int32, 7, 0),
         "maxsi_i32": ("maxsi", wm.i32, np.int32, 500, INT32_MIN),
         "add_f32": ("add", wm.f32, np.float32, 7.0, 0.0)}

# (block, tile): 1-D and 2-D blocks of 256 threads in tiles of 64 and 128,
# and a 3-D block of 512 in tiles of 256.
CASES = [(256, 64), (256, 128), ((64, 4), 128), ((32, 8), 64), ((8, 8, 8), 256)]

SOURCE_RANK = 37  # block_broadcast's rank within each tile


@functools.lru_cache(maxsize=None)
def tile_program(name, tile):
    """Per tile: the reduction, the inclusive scan, the exclusive scan, the
    exclusive scan with init and the tile's total, and rank SOURCE_RANK's
    value broadcast."""
    kind, element, _, init, _ = KINDS[name]
    prog = wm.Program(f"tiles_{name}_{tile}")

    @prog.kernel(x=wm.memref(element), red=wm.memref(element), inc=wm.memref(element),
                 exc=wm.memref(element), exci=wm.memref(element), tot=wm.memref(element),
                 bc=wm.memref(element))
    def tile_kernel(k, x, red, inc, exc, exci, tot, bc):
        t = linear_thread(k)
        v = x[t]
        red[t] = k.block_reduce(kind, v, tile=tile)
        inc[t] = k.block_scan(kind, v, tile=tile)
        exc[t] = k.block_scan(kind, v, exclusive=True, tile=tile)
        scan, total = k.block_scan(kind, v, exclusive=True, init=init, total=True, tile=tile)
        exci[t] = scan
        tot[t] = total
        bc[t] = k.block_broadcast(v, SOURCE_RANK, tile=tile)
    return prog


def reference(name, x, tile):
    """(reduction, inclusive, exclusive, exclusive with init, total,
    broadcast), each a value per thread, from numpy over each tile."""
    kind, _, dtype, init, identity = KINDS[name]
    wide = x.astype(np.int64 if dtype == np.int32 else np.float64).reshape(-1, tile)
    if kind == "add":
        inc = np.cumsum(wide, axis=1)
        combine = np.add
    else:
        inc = np.maximum.accumulate(wide, axis=1)
        combine = np.maximum
    total = inc[:, -1:]
    exc = np.concatenate([np.full((wide.shape[0], 1), identity, inc.dtype), inc[:, :-1]], 1)
    exci = np.concatenate([np.full((wide.shape[0], 1), init, inc.dtype),
                           combine(init, inc[:, :-1])], 1)
    bc = np.repeat(wide[:, SOURCE_RANK:SOURCE_RANK + 1], tile, axis=1)
    full = lambda a: np.broadcast_to(a, wide.shape).reshape(-1).astype(dtype)  # noqa: E731
    return full(total), full(inc), full(exc), full(exci), full(total), full(bc)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block,tile", CASES, ids=str)
@pytest.mark.parametrize("name", list(KINDS))
def test_tiles_match_numpy(backend, name, block, tile):
    compiled = wm.compile(tile_program(name, tile), chip="sm_90")
    threads = int(np.prod(block))
    rng = np.random.default_rng([threads, tile, len(name)])
    x = inputs(name, threads, rng)
    outs = [np.zeros(threads, x.dtype) for _ in range(6)]
    wm.launch(compiled, "tile_kernel", 1, block, x, *outs, backend=backend)
    for what, got, want in zip(["reduce", "inclusive", "exclusive", "exclusive init",
                                "total", "broadcast"], outs, reference(name, x, tile)):
        np.testing.assert_array_equal(got, want, err_msg=f"{what}, tile {tile}, block {block}")


@functools.lru_cache(maxsize=None)
def odd_tiles_program(tile):
    """Only the odd tiles reduce (the even ones skip the op): each tile's
    named barrier waits for its own threads alone. Then every tile syncs
    (warp.tile_sync) around a rotation through global memory within the
    tile."""
    prog = wm.Program(f"odd_tiles_{tile}")

    @prog.kernel(x=wm.memref(wm.i32), red=wm.memref(wm.i32), buf=wm.memref(wm.i32),
                 rot=wm.memref(wm.i32))
    def odd_kernel(k, x, red, buf, rot):
        t = linear_thread(k)
        rank = t % tile
        with k.if_(((t // tile) % 2) == 1):
            red[t] = k.block_reduce("add", x[t], tile=tile)
        buf[t] = x[t] * 3
        k.tile_sync(tile)
        rot[t] = buf[t - rank + (rank + 1) % tile]
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("block,tile", [(256, 64), ((64, 4), 128)], ids=str)
def test_some_tiles_and_tile_sync(backend, block, tile):
    compiled = wm.compile(odd_tiles_program(tile), chip="sm_90")
    threads = int(np.prod(block))
    rng = np.random.default_rng([threads, tile, 5])
    x = rng.integers(-1000, 1000, threads).astype(np.int32)
    red = np.full(threads, -1, np.int32)
    buf, rot = np.zeros(threads, np.int32), np.zeros(threads, np.int32)
    wm.launch(compiled, "odd_kernel", 1, block, x, red, buf, rot, backend=backend)
    tiles = x.reshape(-1, tile)
    want_red = np.repeat(tiles.sum(axis=1, dtype=np.int64), tile).astype(np.int32)
    odd = np.repeat(np.arange(threads // tile) % 2 == 1, tile)
    np.testing.assert_array_equal(red, np.where(odd, want_red, -1))
    np.testing.assert_array_equal(rot, np.roll(tiles * 3, -1, axis=1).reshape(-1))


def test_tile_ir_and_errors():
    text = str(tile_program("add_i32", 128))
    assert text.count(" tile 128") == 5
    assert "warp.block_broadcast %" in text and "tile 128 : i32" in text
    wm.Module.parse(text).verify()
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="tile must be a power of two from 64"):
        @prog.kernel(x=wm.memref(wm.i32))
        def bad_size(k, x):
            k.block_reduce("add", x[0], tile=96)
    with pytest.raises(wm.VerificationError, match="'raking' does not take 'reverse'"):
        @prog.kernel(x=wm.memref(wm.i32))
        def bad_raking(k, x):
            k.block_scan("add", x[0], tile=64, algorithm="raking", reverse=True)
    with pytest.raises(TypeError, match="tile must be an int"):
        @prog.kernel(x=wm.memref(wm.i32))
        def bad_kind(k, x):
            k.tile_sync(64.0)


@functools.lru_cache(maxsize=None)
def float_scan_program(tile, algorithm):
    prog = wm.Program(f"tiles_float_scan_{tile}_{algorithm}")

    @prog.kernel(x=wm.memref(wm.f32), inc=wm.memref(wm.f32), exc=wm.memref(wm.f32))
    def float_scan(k, x, inc, exc):
        t = linear_thread(k)
        inc[t] = k.block_scan("add", x[t], tile=tile, algorithm=algorithm)
        exc[t] = k.block_scan("add", x[t], exclusive=True, init=2.5, tile=tile,
                              algorithm=algorithm)
    return prog


@pytest.mark.skipif(ref is None, reason="needs test/Integration/CUDA/reference.py")
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("algorithm", ["warp_scans", "raking"])
def test_tile_float_scan_order(backend, algorithm):
    """Floats that round: each tile's bits are those of the algorithm's
    documented combine order over a block of N threads (reference.py;
    raking only where asked for: each tile rakes its own segments)."""
    block, tile = (32, 8), 128
    compiled = wm.compile(float_scan_program(tile, algorithm), chip="sm_90")
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(256) * 1e3).astype(np.float32)
    inc, exc = np.zeros(256, np.float32), np.zeros(256, np.float32)
    wm.launch(compiled, "float_scan", 1, block, x, inc, exc, backend=backend)
    f32 = np.dtype(np.float32)
    want_inc = ref.block_tiles(x, tile, lambda v: ref.block_scan_order(algorithm, v, f32)[0])
    want_exc = ref.block_tiles(x, tile, lambda v: ref.block_scan_order(
        algorithm, v, f32, init=np.float32(2.5), exclusive=True)[0])
    np.testing.assert_array_equal(inc, np.array(want_inc, np.float32))
    np.testing.assert_array_equal(exc, np.array(want_exc, np.float32))


@functools.lru_cache(maxsize=None)
def reverse_region_program(tile):
    """Per tile: a reverse inclusive add scan, and the affine maps'
    composition (a combine region, not commutative) inclusive, with a
    `valid_threads` reduce of the first 70 ranks."""
    prog = wm.Program(f"tiles_reverse_region_{tile}")

    @prog.kernel(x=wm.memref(wm.i32), a=wm.memref(wm.i32), b=wm.memref(wm.i32),
                 rev=wm.memref(wm.i32), sa=wm.memref(wm.i32), sb=wm.memref(wm.i32),
                 part=wm.memref(wm.i32))
    def reverse_region(k, x, a, b, rev, sa, sb, part):
        t = linear_thread(k)
        rev[t] = k.block_scan("add", x[t], reverse=True, tile=tile)
        ma, mb = k.block_scan(affine, (a[t], b[t]), tile=tile)
        sa[t] = ma
        sb[t] = mb
        part[t] = k.block_reduce("add", x[t], valid_threads=70, tile=tile)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
def test_tile_reverse_region_valid_threads(backend):
    block, tile = (64, 4), 128
    compiled = wm.compile(reverse_region_program(tile), chip="sm_90")
    rng = np.random.default_rng(23)
    x, a, b = (rng.integers(-1000, 1000, 256).astype(np.int32) for _ in range(3))
    outs = [np.zeros(256, np.int32) for _ in range(4)]
    wm.launch(compiled, "reverse_region", 1, block, x, a, b, *outs, backend=backend)
    rev, sa, sb, part = outs
    tiles = x.reshape(-1, tile).astype(np.int64)
    want_rev = np.flip(np.cumsum(np.flip(tiles, 1), 1), 1).reshape(-1).astype(np.int32)
    np.testing.assert_array_equal(rev, want_rev)
    want_part = np.repeat(tiles[:, :70].sum(1), tile).astype(np.int32)
    np.testing.assert_array_equal(part, want_part)
    for t in range(256):
        start = t - t % tile
        acc = (int(a[start]), int(b[start]))
        for g in range(start + 1, t + 1):
            acc = tuple(map(wrap, affine(acc, (int(a[g]), int(b[g])))))
        assert (sa[t], sb[t]) == acc, t


@functools.lru_cache(maxsize=None)
def mixed_program(reps, algorithm):
    """Whole-block and tiled ops in turn, `reps` rounds of five: the
    block's ops alternate scratch halves (a phase the tiled ops leave
    alone), the tiled ops keep their tiles' slots after them. With
    `algorithm` "raking" the reduce and scan rake, the tiled ones in
    raking buffers apart per tile size; a tiled ballot's words use the
    tile's scratch slots."""
    prog = wm.Program(f"tiles_mixed_{reps}_{algorithm}")

    @prog.kernel(x=wm.memref(wm.i32), out=wm.memref(wm.i32))
    def mixed(k, x, out):
        t = linear_thread(k)
        v = x[t]
        for _ in range(reps):
            a = k.block_reduce("add", v, algorithm=algorithm)
            b = k.block_scan("add", v, exclusive=True, tile=64, algorithm=algorithm)
            c = k.block_broadcast(b, 5, tile=128)
            d = k.block_reduce("maxsi", b, tile=128, algorithm=algorithm)
            e = k.vector_element(k.block_ballot((b & 1) == 1, tile=128), 1)
            v = a + b + c + d + (e & 15)
        out[t] = v
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("reps,algorithm", [(1, None), (3, None), (3, "raking")])
def test_tiles_mixed_with_block_ops(backend, reps, algorithm):
    compiled = wm.compile(mixed_program(reps, algorithm), chip="sm_90")
    rng = np.random.default_rng(reps)
    x = rng.integers(-100, 100, 256).astype(np.int32)
    out = np.zeros(256, np.int32)
    wm.launch(compiled, "mixed", 1, 256, x, out, backend=backend)
    v = x.astype(np.int64)
    for _ in range(reps):
        a = np.full(256, v.sum())
        tiles = v.reshape(-1, 64)
        b = (np.cumsum(tiles, 1) - tiles).reshape(-1)
        b = (b + 2 ** 31) % 2 ** 32 - 2 ** 31  # the i32 scan's (max compares it)
        c = np.repeat(b.reshape(-1, 128)[:, 5], 128)
        d = np.repeat(b.reshape(-1, 128).max(1), 128)
        # Word 1 of each tile of 128: ranks 32..35's odd bits (the low 4).
        odd = (b & 1).reshape(-1, 128)[:, 32:36]
        e = np.repeat((odd << np.arange(4)).sum(1), 128)
        v = (a + b + c + d + e + 2 ** 31) % 2 ** 32 - 2 ** 31
    np.testing.assert_array_equal(out, v.astype(np.int32))


@functools.lru_cache(maxsize=None)
def shuffle_sizes_program():
    """Tiled shuffles (CG's tile.shfl_up and a rotation) and ops over tiles
    of different sizes in turn: a tile of 128 reads slots its two tiles of
    64 wrote before, and the other way round."""
    prog = wm.Program("tiles_shuffle_sizes")

    @prog.kernel(x=wm.memref(wm.i32), up=wm.memref(wm.i32), ok=wm.memref(wm.i32),
                 rot=wm.memref(wm.i32), whole=wm.memref(wm.i32), mix=wm.memref(wm.i32))
    def shuffles(k, x, up, ok, rot, whole, mix):
        t = linear_thread(k)
        v = x[t]
        prev, valid = k.block_shuffle("offset", v, -3, tile=64)
        up[t] = prev
        ok[t] = k.select(valid, 1, 0, wm.i32)
        rot[t] = k.block_shuffle("rotate", v, 5, tile=128)[0]
        whole[t] = k.block_shuffle("rotate", v, 1)[0]
        a = k.block_reduce("add", v, tile=128)
        b = k.block_reduce("add", a + v, tile=64)
        c = k.block_broadcast(b, 70, tile=256)
        mix[t] = k.block_scan("add", c + v, tile=128)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
def test_tile_shuffles_and_sizes(backend):
    block = (64, 4)
    compiled = wm.compile(shuffle_sizes_program(), chip="sm_90")
    rng = np.random.default_rng(31)
    x = rng.integers(-1000, 1000, 256).astype(np.int32)
    outs = [np.zeros(256, np.int32) for _ in range(5)]
    wm.launch(compiled, "shuffles", 1, block, x, *outs, backend=backend)
    up, ok, rot, whole, mix = outs
    v = x.astype(np.int64)
    rank64 = np.arange(256) % 64
    has = rank64 >= 3
    np.testing.assert_array_equal(ok, has.astype(np.int32))
    np.testing.assert_array_equal(up, np.where(has, np.roll(x, 3), x))
    np.testing.assert_array_equal(rot, np.roll(x.reshape(-1, 128), -5, axis=1).reshape(-1))
    np.testing.assert_array_equal(whole, np.roll(x, -1))
    a = np.repeat(v.reshape(-1, 128).sum(1), 128)
    b = np.repeat((a + v).reshape(-1, 64).sum(1), 64)
    c = np.repeat(b.reshape(-1, 256)[:, 70], 256)
    want = np.cumsum((c + v).reshape(-1, 128), axis=1).reshape(-1)
    np.testing.assert_array_equal(mix, want.astype(np.int32))


@functools.lru_cache(maxsize=None)
def tile_votes_program(tile):
    """cg::tiled_partition<N>'s any() and all() for N > 32: warp.block_reduce
    <or> and <and> of an i1 with `tile N`."""
    prog = wm.Program(f"tile_votes_{tile}")

    @prog.kernel(x=wm.memref(wm.i32), any_=wm.memref(wm.i32), all_=wm.memref(wm.i32))
    def tile_votes(k, x, any_, all_):
        t = linear_thread(k)
        p = x[t] > 0
        any_[t] = k.select(k.block_reduce("or", p, tile=tile), 1, 0, wm.i32)
        all_[t] = k.select(k.block_reduce("and", p, tile=tile), 1, 0, wm.i32)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
def test_tile_any_all(backend):
    block, tile = 256, 64
    compiled = wm.compile(tile_votes_program(tile), chip="sm_90")
    # Tile 0: all true; tile 1: one true; tile 2: none; tile 3: all but one.
    x = np.zeros(block, np.int32)
    x[0:64] = 1
    x[64 + 45] = 1
    x[192:256] = 1
    x[192 + 7] = 0
    any_, all_ = np.full(block, -1, np.int32), np.full(block, -1, np.int32)
    wm.launch(compiled, "tile_votes", 1, block, x, any_, all_, backend=backend)
    tiles = (x > 0).reshape(-1, tile)
    np.testing.assert_array_equal(any_, np.repeat(tiles.any(axis=1), tile).astype(np.int32))
    np.testing.assert_array_equal(all_, np.repeat(tiles.all(axis=1), tile).astype(np.int32))
