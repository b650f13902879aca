"""warp.load / warp.store (CUB WarpLoad / WarpStore): every algorithm moves
the same items. Each warp of two 64-thread blocks (or each logical warp of
`width` lanes) loads its own tile (the offsets apart by more than a tile,
so their alignments differ), blocked or striped, whole or cut by valid
with a default, and stores it back, on the simulator (and a GPU) against
numpy index arithmetic from the definitions."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import check_tile_copy

DTYPES = {"i8": (wm.i8, np.int8), "f16": (wm.f16, np.float16), "i32": (wm.i32, np.int32),
          "f32": (wm.f32, np.float32), "f64": (wm.f64, np.float64)}
WARP = 32
BLOCK = 64
BLOCKS = 2


@functools.lru_cache(maxsize=None)
def copy_program(type_name, n, algorithm, striped, partial, width=WARP):
    """Logical warp g of `width` lanes (threads g*width .. of the grid; the
    hardware warps at width 32) loads its tile at off + g * stride, writes
    each thread's items to `seen` (thread t at t n), then stores them into
    `out` at the same tile, both with the algorithm."""
    element, _ = DTYPES[type_name]
    prog = wm.Program(f"warp_copy_{type_name}_{n}_{algorithm}_{striped}_{partial}_{width}")

    @prog.kernel(x=wm.memref(element), seen=wm.memref(element), out=wm.memref(element),
                 off=wm.index, stride=wm.index, valid=wm.i32)
    def copy(k, x, seen, out, off, stride, valid):
        k.known_block_size(BLOCK, 1, 1)  # whole warps: the compiler may transpose
        t = k.block_id("x") * k.block_dim("x") + k.thread_id("x")
        tile = off + (t // width) * stride
        extra = dict(valid=valid, default=k.constant(-7, element)) if partial else {}
        items = k.warp_load(x, tile, n, striped=striped, algorithm=algorithm, width=width,
                            **extra)
        k.store_vector(seen, t * n, items)
        k.warp_store(items, out, tile, striped=striped, algorithm=algorithm,
                     valid=valid if partial else None, width=width)
    return prog


def expected(x, off, stride, tiles, n, striped, valid, width=WARP):
    """(seen, out): each lane's items, out after the stores (unwritten
    items keep the sentinel -1). CUB's WarpLoad/WarpStore of logical warps
    of `width` lanes: the lane of rank r in logical warp g holds item r n +
    j (blocked) or j width + r (striped) of g's tile at off + g stride; past
    valid, the default."""
    seen, out = [], np.full_like(x, -1)
    for g in range(tiles):
        base = off + g * stride
        for rank in range(width):
            for j in range(n):
                item = j * width + rank if striped else rank * n + j
                seen.append(x[base + item] if valid is None or item < valid else -7)
        limit = width * n if valid is None else max(0, min(valid, width * n))
        out[base:base + limit] = x[base:base + limit]
    return np.array(seen, x.dtype), out


CASES = [
    # (type, n, algorithm, striped, partial)
    ("f32", 4, "vectorize", False, False),
    ("i8", 8, None, False, False),
    ("f16", 3, "direct", False, True),
    ("i32", 4, "transpose", False, True),
    ("f64", 2, "direct", True, True),
    ("f64", 3, None, False, False),
    ("i8", 5, "transpose", False, True),
]


# Logical warps (CUB's LOGICAL_WARP_THREADS, `width`): each its own tile.
LOGICAL_CASES = [
    # (type, n, algorithm, striped, partial, width)
    ("f32", 4, "vectorize", False, False, 8),
    ("i32", 3, None, False, True, 4),
    ("f64", 2, "direct", True, True, 16),
    ("i8", 2, None, False, False, 1),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES + LOGICAL_CASES, ids=lambda c: "_".join(map(str, c)))
def test_warp_load_store(backend, case):
    type_name, n, algorithm, striped, partial, width = (case + (WARP,))[:6]
    compiled = wm.compile(copy_program(*case), chip="sm_90")
    tiles = BLOCKS * BLOCK // width
    # Tiles apart by more than their items, at offsets of every alignment.
    off, stride = 1, width * n + 5
    x = np.arange(1, off + tiles * stride + 9).astype(DTYPES[type_name][1])
    # A ragged tile (valid inside it), and valid past its end (all of it).
    for valid in ([width * n // 2 + 1, width * n + 5] if partial else [None]):
        want = expected(x, off, stride, tiles, n, striped, valid, width)
        scalars = [np.int64(off), np.int64(stride), np.int32(valid or 0)]
        check_tile_copy(compiled, BLOCKS, BLOCK, x, scalars, want, backend, f"valid={valid}")


def test_warp_load_store_ir():
    text = str(copy_program("i32", 4, "transpose", False, True))
    wm.Module.parse(text).verify()
    for form in ("= warp.load %x[%", "valid %valid default %c-7_i32 algorithm = <transpose> : "
                 "memref<?xi32>, vector<4xi32>", "warp.store %"):
        assert form in text, form
    assert " width " not in text
    text = str(copy_program("i32", 3, None, False, True, 4))
    assert "] width 4 valid %valid default" in text and "] width 4 valid %valid :" in text


@pytest.mark.parametrize("error, message, options", [
    (wm.VerificationError, "'warp_transpose' is for block loads", {"algorithm": "warp_transpose"}),
    (wm.VerificationError, "not of logical warps of width 8",
     {"algorithm": "transpose", "width": 8}),
    (ValueError, "load's default is for the items past valid", {"default": 1.0}),
])
def test_warp_load_errors_at_the_call(error, message, options):
    def kernel(k, x):
        k.warp_load(x, 0, 4, **options)
    with pytest.raises(error, match=message):
        wm.Program().kernel(x=wm.memref(wm.f32))(kernel)

