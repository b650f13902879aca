"""warp.block_histogram (CUB BlockHistogram): a block's samples counted into
shared-memory bins, zeroed first or accumulated (Composite), samples past
the bins ignored; every algorithm (atomic, warp_aggregated, sort), on the
simulator (and a GPU) against numpy's bincount."""
import functools

import numpy as np
import pytest

import warp_mlir as wm
from conftest import BACKENDS
from block_kernels import linear_thread

SAMPLES = {"i8": (wm.i8, np.uint8), "i32": (wm.i32, np.uint32), "i64": (wm.i64, np.uint64)}



@functools.lru_cache(maxsize=None)
def histogram_program(type_name, n, bins, algorithm, counter):
    """Block b counts its B*n samples (blocked) into shared bins twice: the
    histogram, then the same samples again accumulated; each thread copies
    bins t, t + B, ... of both to the output."""
    element, _ = SAMPLES[type_name]
    counter_type = {"i32": wm.i32, "i64": wm.i64}[counter]
    prog = wm.Program(f"histogram_{type_name}_{n}_{bins}_{algorithm}_{counter}")

    @prog.kernel(x=wm.memref(element), once=wm.memref(counter_type),
                 twice=wm.memref(counter_type))
    def histogram(k, x, once, twice):
        t = linear_thread(k)
        threads = k.block_dim("x") * k.block_dim("y") * k.block_dim("z")
        counts = k.shared(counter_type, bins)
        samples = k.block_load(x, k.block_id("x") * threads * n, n)
        k.block_histogram(samples, counts, algorithm=algorithm)
        with k.loop(t, bins, threads) as i:
            once[k.block_id("x") * bins + i] = counts[i]
        k.block_histogram(samples, counts, accumulate=True, algorithm=algorithm)
        with k.loop(t, bins, threads) as i:
            twice[k.block_id("x") * bins + i] = counts[i]
    return prog


CASES = [("i8", 4, 256, None, "i32"), ("i8", 3, 200, "warp_aggregated", "i32"),
         ("i32", 2, 64, "atomic", "i64"), ("i32", 1, 17, "warp_aggregated", "i32"),
         ("i64", 5, 100, None, "i32"),
         # CUB's BLOCK_HISTO_SORT: a sort, then the runs' ends; 8-bit samples
         # over every bin (no clamp), i32 clamped to 17 (5 bits sorted), i64.
         ("i8", 4, 256, "sort", "i32"), ("i32", 1, 17, "sort", "i64"),
         ("i64", 2, 100, "sort", "i32")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "_".join(map(str, c)))
@pytest.mark.parametrize("block", [1, 33, 128, (16, 3, 2)], ids=str)
@pytest.mark.parametrize("skew", [False, True])
def test_block_histogram(backend, case, block, skew):
    type_name, n, bins, algorithm, counter = case
    compiled = wm.compile(histogram_program(*case), chip="sm_90")
    threads = int(np.prod(block))
    blocks = 2
    rng = np.random.default_rng([threads, n, bins, skew])
    size = blocks * threads * n
    dtype = SAMPLES[type_name][1]
    # Skewed: most samples in a few bins (warps' lanes collide); else all
    # over, some past the bins (not counted).
    high = min(int(np.iinfo(dtype).max), bins + bins // 4 + 1)
    x = (rng.choice([0, 3, bins - 1], size) if skew else rng.integers(0, high, size)).astype(dtype)
    signed = {np.uint8: np.int8, np.uint32: np.int32, np.uint64: np.int64}[dtype]
    cdtype = {"i32": np.int32, "i64": np.int64}[counter]
    once, twice = np.zeros(blocks * bins, cdtype), np.zeros(blocks * bins, cdtype)
    wm.launch(compiled, "histogram", blocks, block, x.view(signed), once, twice,
              backend=backend)
    for b in range(blocks):
        samples = x[b * threads * n:(b + 1) * threads * n].astype(np.int64)
        want = np.bincount(samples[samples < bins], minlength=bins)[:bins]
        np.testing.assert_array_equal(once[b * bins:(b + 1) * bins], want, err_msg=f"block {b}")
        np.testing.assert_array_equal(twice[b * bins:(b + 1) * bins], 2 * want,
                                      err_msg=f"block {b}")


def test_block_histogram_sort_ir():
    text = str(histogram_program("i32", 1, 17, "sort", "i64"))
    assert "algorithm = <sort> : vector<1xi32>" in text
    wm.Module.parse(text).verify()


def test_block_histogram_ir():
    text = str(histogram_program("i8", 4, 256, "warp_aggregated", "i32"))
    assert "warp.block_histogram %" in text
    assert "accumulate algorithm = <warp_aggregated> : vector<4xi8>, " \
        "memref<256xi32, #gpu.address_space<workgroup>>" in text
    wm.Module.parse(text).verify()
