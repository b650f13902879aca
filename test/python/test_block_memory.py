"""warp.block_load / warp.block_store (CUB BlockLoad / BlockStore): every
algorithm moves the same items. Tiles of N items per thread at an offset,
blocked, striped and warp-striped, partial tiles (valid, default), over ragged, 2-D and
whole-warp blocks, on the simulator (and a GPU) against numpy index
arithmetic from the definitions."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import check_tile_copy, linear_thread

DTYPES = {"f32": (wm.f32, np.float32), "i64": (wm.i64, np.int64), "i16": (wm.i16, np.int16)}



@functools.lru_cache(maxsize=None)
def copy_program(type_name, n, algorithm, striped, partial, known=None):
    """Each block loads its tile (offset `off` + b * B * n) with the
    algorithm, writes each thread's items to `seen` (thread t at t*n ..,
    the arrangement as loaded), then stores them back with the same
    algorithm into `out` at the same tile."""
    element, _ = DTYPES[type_name]
    shape = "x".join(map(str, known)) if known else "any"
    prog = wm.Program(f"copy_{type_name}_{n}_{algorithm}_{striped}_{partial}_{shape}")

    @prog.kernel(x=wm.memref(element), seen=wm.memref(element), out=wm.memref(element),
                 off=wm.index, valid=wm.i32)
    def copy(k, x, seen, out, off, valid):
        if known:
            k.known_block_size(*known)
        t = linear_thread(k)
        threads = k.block_dim("x") * k.block_dim("y") * k.block_dim("z")
        tile = off + k.block_id("x") * threads * n
        extra = dict(valid=valid, default=k.constant(-7, element)) if partial else {}
        arrangement = dict(warp_striped=True) if striped == "warp" else dict(striped=striped)
        items = k.block_load(x, tile, n, algorithm=algorithm, **arrangement, **extra)
        k.store_vector(seen, (k.block_id("x") * threads + t) * n, items)
        k.block_store(items, out, tile, algorithm=algorithm,
                      valid=valid if partial else None, **arrangement)
    return prog


def expected(x, off, blocks, threads, n, striped, valid):
    """(seen, out): the items each thread holds, out's tiles after the
    stores (unwritten items keep the sentinel)."""
    seen, out = [], np.full_like(x, -1)
    for b in range(blocks):
        base = off + b * threads * n
        for t in range(threads):
            for j in range(n):
                if striped == "warp":
                    # Lane l of warp w, its warp of L threads (a ragged
                    # last warp has fewer).
                    w, lane = divmod(t, 32)
                    g = 32 * w * n + lane + min(32, threads - 32 * w) * j
                elif striped:
                    g = j * threads + t
                else:
                    g = t * n + j
                inside = valid is None or g < valid
                seen.append(x[base + g] if inside else -7)
        limit = threads * n if valid is None else max(0, min(valid, threads * n))
        out[base:base + limit] = x[base:base + limit]
    return np.array(seen, x.dtype), out


CASES = [
    # (type, n, algorithm, striped, partial, known block)
    ("f32", 4, None, False, False, None),
    ("f32", 4, "vectorize", False, False, None),
    ("f32", 8, "vectorize", False, False, None),
    ("i16", 8, "vectorize", False, False, None),
    ("f32", 4, "vectorize", False, True, None),  # a partial tile: direct, guarded
    ("i16", 3, "direct", False, True, None),
    ("f32", 3, "transpose", False, False, None),
    ("i64", 5, "transpose", False, True, None),
    ("f32", 4, "direct", True, False, None),
    ("i64", 2, None, True, True, None),
    ("f32", 4, "warp_transpose", False, False, (64, 2, 1)),
    ("i64", 3, "warp_transpose", False, True, (96, 1, 1)),
    ("f32", 4, None, False, True, (128, 1, 1)),
    ("f32", 1, None, False, False, None),
    # Warp-striped (CUB's LoadDirectWarpStriped / StoreDirectWarpStriped).
    ("f32", 4, None, "warp", False, None),
    ("i16", 3, "direct", "warp", True, None),
    ("i64", 2, None, "warp", True, (64, 2, 1)),
]
BLOCKS = [1, 33, 100, (16, 3, 2), 256]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "_".join(map(str, c)))
@pytest.mark.parametrize("offset", [0, 1, 4])
def test_block_load_store(backend, case, offset):
    type_name, n, algorithm, striped, partial, known = case
    compiled = wm.compile(copy_program(*case), chip="sm_90")
    blocks = 2
    for block in ([known] if known else BLOCKS):
        threads = int(np.prod(block))
        size = offset + blocks * threads * n + 8
        x = np.arange(1, size + 1).astype(DTYPES[type_name][1])
        for valid in ([threads * n // 2 + 1, 0, threads * n + 5] if partial else [None]):
            check_tile_copy(compiled, blocks, block, x,
                            [np.int64(offset), np.int32(valid if valid is not None else 0)],
                            expected(x, offset, blocks, threads, n, striped, valid), backend,
                            f"{block} valid={valid}")


def test_block_load_store_ir():
    text = str(copy_program("f32", 4, "vectorize", False, False))
    assert "warp.block_load %" in text and "algorithm = <vectorize> : memref<?xf32>, vector<4xf32>" in text
    assert "warp.block_store %" in text
    wm.Module.parse(text).verify()
    text = str(copy_program("i64", 3, "warp_transpose", False, True, (96, 1, 1)))
    assert "known_block_size = array<i32: 96, 1, 1>" in text
    assert "valid %valid default %c-7_i64 algorithm = <warp_transpose>" in text


def test_block_load_errors_at_the_call():
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="needs a known_block_size of whole warps"):
        @prog.kernel(x=wm.memref(wm.f32))
        def no_block(k, x):
            k.block_load(x, 0, 4, algorithm="warp_transpose")
    with pytest.raises(wm.VerificationError, match="exchanges 4- or 8-byte items"):
        @prog.kernel(x=wm.memref(wm.i16))
        def short(k, x):
            k.block_load(x, 0, 4, algorithm="transpose")
    with pytest.raises(wm.VerificationError, match="striped items take algorithm 'direct'"):
        @prog.kernel(x=wm.memref(wm.f32))
        def warp_striped_vectors(k, x):
            k.block_load(x, 0, 4, warp_striped=True, algorithm="vectorize")
    with pytest.raises(ValueError, match="not both"):
        @prog.kernel(x=wm.memref(wm.f32))
        def both(k, x):
            k.block_load(x, 0, 4, striped=True, warp_striped=True)
    with pytest.raises(ValueError, match="give valid"):
        @prog.kernel(x=wm.memref(wm.f32))
        def no_valid(k, x):
            k.block_load(x, 0, 4, default=1.0)
