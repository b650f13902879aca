"""warp.block_scatter (CUB BlockExchange::ScatterToBlocked / ScatterToStriped):
every item placed at its rank over the block, results blocked or striped, on
ragged, 2-D and 3-D blocks, on the simulator (and a GPU) against numpy."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import linear_thread



@functools.lru_cache(maxsize=None)
def scatter_program(type_name, n, striped):
    element = {"f32": wm.f32, "i64": wm.i64}[type_name]
    prog = wm.Program(f"scatter_{type_name}_{n}_{striped}")

    @prog.kernel(x=wm.memref(element), ranks=wm.memref(wm.i32), out=wm.memref(element))
    def scatter(k, x, ranks, out):
        t = linear_thread(k)
        threads = k.block_dim("x") * k.block_dim("y") * k.block_dim("z")
        base = (k.block_id("x") * threads + t) * n
        placed = k.block_scatter(k.load_vector(x, base, n), k.load_vector(ranks, base, n),
                                 striped=striped)
        k.store_vector(out, base, placed)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", [("f32", 1, False), ("f32", 4, False), ("i64", 3, True),
                                  ("f32", 5, True)], ids=str)
@pytest.mark.parametrize("block", [1, 33, 100, (16, 3, 2), 256], ids=str)
def test_block_scatter(backend, case, block):
    type_name, n, striped = case
    compiled = wm.compile(scatter_program(*case), chip="sm_90")
    threads = int(np.prod(block))
    blocks = 2
    rng = np.random.default_rng([threads, n, striped])
    dtype = {"f32": np.float32, "i64": np.int64}[type_name]
    x = rng.integers(-1000, 1000, blocks * threads * n).astype(dtype)
    ranks = np.concatenate([rng.permutation(threads * n) for _ in range(blocks)]).astype(np.int32)
    out = np.zeros_like(x)
    wm.launch(compiled, "scatter", blocks, block, x, ranks, out, backend=backend)
    for b in range(blocks):
        tile = slice(b * threads * n, (b + 1) * threads * n)
        by_position = np.empty(threads * n, dtype)
        by_position[ranks[tile]] = x[tile]
        # Thread t's item j: position t n + j (blocked) or j B + t (striped).
        want = (by_position.reshape(n, threads).T.reshape(-1) if striped else by_position)
        np.testing.assert_array_equal(out[tile], want, err_msg=f"block {b}")


def test_block_scatter_ir_and_errors():
    text = str(scatter_program("i64", 3, True))
    assert "warp.block_scatter %" in text and "striped : vector<3xi64>, vector<3xi32>" in text
    wm.Module.parse(text).verify()
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="one rank per item: 4 items, 2 ranks"):
        @prog.kernel(x=wm.memref(wm.f32), r=wm.memref(wm.i32))
        def bad(k, x, r):
            k.block_scatter(k.load_vector(x, 0, 4), k.load_vector(r, 0, 2))
