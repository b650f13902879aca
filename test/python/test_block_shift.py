"""warp.block_shift (CUB BlockShuffle::Up / Down of ITEMS_PER_THREAD items,
with block_suffix / block_prefix): the block's blocked items moved one
position, on whole, ragged and 2-D blocks, on the simulator (and a GPU)
against numpy."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import block_threads, linear_thread

TYPES = {"f32": (wm.f32, np.float32), "i64": (wm.i64, np.int64), "f16": (wm.f16, np.float16)}


@functools.lru_cache(maxsize=None)
def shift_program(type_name, n):
    element = TYPES[type_name][0]
    prog = wm.Program(f"shift_{type_name}_{n}")

    @prog.kernel(x=wm.memref(element), prev=wm.memref(element), next=wm.memref(element),
                 edges=wm.memref(element))
    def shift(k, x, prev, next, edges):
        t = linear_thread(k)
        threads = k.block_dim("x") * k.block_dim("y") * k.block_dim("z")
        thread = k.block_id("x") * threads + t
        items = k.load_vector(x, thread * n, n)
        up, suffix = k.block_shift("up", items)
        down, prefix = k.block_shift("down", items)
        k.store_vector(prev, thread * n, up)
        k.store_vector(next, thread * n, down)
        edges[thread * 2] = suffix
        edges[thread * 2 + 1] = prefix
    return prog


def shifted_model(tile, n):
    """CUB's Up and Down over one block's blocked items (numpy): up[g] =
    tile[g-1], down[g] = tile[g+1]; at the block's two ends the thread keeps
    its own item (the value this op defines where CUB leaves it as it
    was)."""
    up = np.concatenate([tile[:1], tile[:-1]])
    down = np.concatenate([tile[1:], tile[-1:]])
    return up, down


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", [("f32", 1), ("f32", 3), ("i64", 4), ("f16", 3)], ids=str)
@pytest.mark.parametrize("block", [96, 100, (20, 5)], ids=str)
def test_block_shift(backend, case, block):
    type_name, n = case
    dtype = TYPES[type_name][1]
    compiled = wm.compile(shift_program(type_name, n), chip="sm_90")
    threads, blocks = block_threads(block), 2
    rng = np.random.default_rng([threads, n])
    # Distinct values, so that an item from the wrong position shows.
    x = rng.permutation(blocks * threads * n).astype(dtype)
    prev, next = np.zeros_like(x), np.zeros_like(x)
    edges = np.zeros(blocks * threads * 2, dtype)
    wm.launch(compiled, "shift", blocks, block, x, prev, next, edges, backend=backend)
    size = threads * n
    for b in range(blocks):
        tile = x[b * size:(b + 1) * size]
        up, down = shifted_model(tile, n)
        np.testing.assert_array_equal(prev[b * size:(b + 1) * size], up, err_msg=f"up {b}")
        np.testing.assert_array_equal(next[b * size:(b + 1) * size], down, err_msg=f"down {b}")
        pairs = edges[b * threads * 2:(b + 1) * threads * 2].reshape(threads, 2)
        np.testing.assert_array_equal(pairs[:, 0], np.full(threads, tile[-1]), err_msg="suffix")
        np.testing.assert_array_equal(pairs[:, 1], np.full(threads, tile[0]), err_msg="prefix")


def test_block_shift_ir_and_errors():
    text = str(shift_program("i64", 4))
    assert "= warp.block_shift <up> %" in text and "= warp.block_shift <down> %" in text
    assert ": vector<4xi64>" in text
    wm.Module.parse(text).verify()
    prog = wm.Program()

    @prog.kernel(x=wm.memref(wm.f32))
    def bad(k, x):
        with pytest.raises(ValueError, match="BlockShiftDirection to be one of: up, down"):
            k.block_shift("left", k.load_vector(x, 0, 2))
        with pytest.raises(TypeError, match="a vector of a thread's items, not f32"):
            k.block_shift("up", x[0])
