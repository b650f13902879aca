"""Row-wise softmax from warp and block reductions, checked against torch on
the GPU.

Rows of up to LONG_ROW (1024) elements: one warp per row (softmax_rows):
each lane strides over the row, the warp combines the lanes' maxima with
warp.reduce <maxnumf> and their sums of exponentials with warp.reduce <add>.
Longer rows: one block per row (softmax_rows_block): each thread strides
over the row by the block size and warp.block_reduce combines the whole
block's maxima and sums (any block size; BLOCK threads here), so a row of
8192 elements keeps 256 threads busy instead of 32.
Run: python3 examples/python/softmax.py [rows] [cols]
"""
import sys

import warp_mlir as wm

prog = wm.Program("softmax")


@prog.kernel(x=wm.memref(wm.f32, (-1, -1)), y=wm.memref(wm.f32, (-1, -1)), cols=wm.i32)
def softmax_rows(k, x, y, cols):
    row = k.cast(k.global_id() // 32, wm.index)
    lane = k.cast(k.lane_id(), wm.index)
    n = k.cast(cols, wm.index)

    local_max = k.loop(lane, n, 32, init=[k.constant(float("-inf"), wm.f32)])
    with local_max as (j, m):
        local_max.yield_(k.max(m, x[row, j]))
    row_max = k.reduce("maxnumf", local_max.results[0])

    local_sum = k.loop(lane, n, 32, init=[k.constant(0.0, wm.f32)])
    with local_sum as (j, s):
        local_sum.yield_(s + k.exp(x[row, j] - row_max))
    row_sum = k.reduce("add", local_sum.results[0])

    with k.loop(lane, n, 32) as j:
        y[row, j] = k.exp(x[row, j] - row_max) / row_sum


# Rows longer than this take one block each.
LONG_ROW = 1024
BLOCK = 256


@prog.kernel(x=wm.memref(wm.f32, (-1, -1)), y=wm.memref(wm.f32, (-1, -1)), cols=wm.i32)
def softmax_rows_block(k, x, y, cols):
    row = k.block_id()
    first, stride = k.thread_id(), k.block_dim()
    n = k.cast(cols, wm.index)

    local_max = k.loop(first, n, stride, init=[k.constant(float("-inf"), wm.f32)])
    with local_max as (j, m):
        local_max.yield_(k.max(m, x[row, j]))
    row_max = k.block_reduce("maxnumf", local_max.results[0])

    local_sum = k.loop(first, n, stride, init=[k.constant(0.0, wm.f32)])
    with local_sum as (j, s):
        local_sum.yield_(s + k.exp(x[row, j] - row_max))
    row_sum = k.block_reduce("add", local_sum.results[0])

    with k.loop(first, n, stride) as j:
        y[row, j] = k.exp(x[row, j] - row_max) / row_sum


def softmax(compiled, x, y, launch=wm.launch) -> None:
    """y = softmax(x) over rows, for host or device f32 arrays: one warp per
    row up to LONG_ROW columns, one block per row beyond. `launch` takes
    wm.launch's arguments (the tests pass the SIMT simulator's)."""
    rows, cols = x.shape
    if cols > LONG_ROW:
        launch(compiled, "softmax_rows_block", rows, BLOCK, x, y, cols)
    else:
        # The warp kernel has no row guard: 8 warps per block where they
        # divide the rows, else one.
        warps = 8 if rows % 8 == 0 else 1
        launch(compiled, "softmax_rows", rows // warps, 32 * warps, x, y, cols)


def main(rows: int = 4096, cols: int = 1000) -> None:
    compiled = wm.compile(prog, chip="sm_90")
    if not wm.cuda.is_available():
        # No GPU: a few rows on the SIMT simulator, checked against numpy.
        import numpy as np

        rows = min(rows, 16)
        x = np.random.default_rng(0).standard_normal((rows, cols)).astype(np.float32)
        y = np.zeros_like(x)
        softmax(compiled, x, y, launch=lambda *args: wm.launch(*args, backend="sim"))
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
        print(f"softmax over {rows}x{cols} on the simulator: matches numpy")
        return
    import torch

    x = torch.randn(rows, cols, device="cuda")
    y = torch.empty_like(x)
    softmax(compiled, x, y)
    torch.testing.assert_close(y, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)
    print(f"softmax over {rows}x{cols}: matches torch.softmax")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
