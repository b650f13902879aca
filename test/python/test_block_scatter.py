"""warp.block_scatter (CUB BlockExchange::ScatterToBlocked / ScatterToStriped,
ScatterToStripedGuarded / Flagged): every item placed at its rank over the
block, results blocked or striped, on ragged, 2-D and 3-D blocks; items with a
negative rank or a false flag dropped; on the simulator (and a GPU) against
numpy."""
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


@functools.lru_cache(maxsize=None)
def selective_program(n, striped, flagged):
    """A scatter of f32 items, flagged (a nonzero entry of `keep` sets an
    item's flag) or not (guarded by the ranks alone)."""
    prog = wm.Program(f"scatter_sel_{n}_{striped}_{flagged}")

    @prog.kernel(x=wm.memref(wm.f32), ranks=wm.memref(wm.i32), keep=wm.memref(wm.i32),
                 out=wm.memref(wm.f32))
    def scatter(k, x, ranks, keep, out):
        t = linear_thread(k)
        base = (k.block_id("x") * k.block_dim("x") + t) * n
        flags = None
        if flagged:
            kept = k.load_vector(keep, base, n)
            flags = [k.vector_element(kept, j) != 0 for j in range(n)]
        placed = k.block_scatter(k.load_vector(x, base, n), k.load_vector(ranks, base, n),
                                 striped=striped, flags=flags)
        k.store_vector(out, base, placed)
    return prog


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", [(3, True, False), (4, True, True), (2, False, True)],
                         ids=str)
@pytest.mark.parametrize("threads", [33, 64], ids=str)
def test_block_scatter_guarded_and_flagged(backend, case, threads):
    """CUB's Guarded form (rank -1 not exchanged) and Flagged form (only
    items whose flag is set): a random subset of the block's positions is
    filled, every other item gets rank -1 (guarded) or a clashing rank and a
    false flag (flagged); a dropped item must not overwrite a kept one."""
    n, striped, flagged = case
    compiled = wm.compile(selective_program(*case), chip="sm_90")
    blocks, size = 2, threads * n
    rng = np.random.default_rng([threads, n, striped, flagged])
    x = rng.integers(-1000, 1000, blocks * size).astype(np.float32)
    ranks, keep = [], []
    for _ in range(blocks):
        perm = rng.permutation(size).astype(np.int32)
        kept = rng.random(size) < 0.6
        if flagged:
            # A dropped item names the position of a kept one: were it
            # stored, it could overwrite the kept item's value.
            clash = perm[kept][rng.integers(0, kept.sum(), size)]
            rank = np.where(kept, perm, clash).astype(np.int32)
        else:
            rank = np.where(kept, perm, -1).astype(np.int32)
        ranks.append(rank)
        keep.append(kept.astype(np.int32))
    ranks, keep = np.concatenate(ranks), np.concatenate(keep)
    out = np.zeros_like(x)
    wm.launch(compiled, "scatter", blocks, threads, x, ranks, keep, out, backend=backend)
    for b in range(blocks):
        tile = slice(b * size, (b + 1) * size)
        kept = keep[tile] != 0
        by_position = np.full(size, np.nan, np.float32)
        by_position[ranks[tile][kept]] = x[tile][kept]
        # Thread t's item j: position t n + j (blocked) or j B + t (striped).
        want = by_position.reshape(n, threads).T.reshape(-1) if striped else by_position
        filled = ~np.isnan(want)
        assert filled.sum() == kept.sum()
        np.testing.assert_array_equal(out[tile][filled], want[filled], err_msg=f"block {b}")


def test_block_scatter_ir_and_errors():
    text = str(scatter_program("i64", 3, True))
    assert "warp.block_scatter %" in text and "striped : vector<3xi64>, vector<3xi32>" in text
    wm.Module.parse(text).verify()
    prog = wm.Program()
    with pytest.raises(wm.VerificationError, match="one rank per item: 4 items, 2 ranks"):
        @prog.kernel(x=wm.memref(wm.f32), r=wm.memref(wm.i32))
        def bad(k, x, r):
            k.block_scatter(k.load_vector(x, 0, 4), k.load_vector(r, 0, 2))
    text = str(selective_program(4, True, True))
    assert "flags %" in text and "striped : vector<4xf32>, vector<4xi32>, vector<4xi1>" in text
    wm.Module.parse(text).verify()
    prog = wm.Program()

    @prog.kernel(x=wm.memref(wm.f32), r=wm.memref(wm.i32))
    def bad_flags(k, x, r):
        items, ranks = k.load_vector(x, 0, 4), k.load_vector(r, 0, 4)
        with pytest.raises(wm.VerificationError, match="one flag per item: 4 items, 3 flags"):
            k.block_scatter(items, ranks, flags=[True, False, True])
        with pytest.raises(wm.VerificationError, match="fixed-length vector of 1-bit signless integer"):
            k.block_scatter(items, ranks, flags=ranks)
        with pytest.raises(TypeError, match="must be a vector of i1"):
            k.block_scatter(items, ranks, flags=True)
        with pytest.raises(ValueError, match="one flag per item, not none"):
            k.block_scatter(items, ranks, flags=[])
