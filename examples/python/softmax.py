"""Row-wise softmax from warp reductions, checked against torch on the GPU.

One warp per row: each lane strides over the row, the warp combines the
lanes' maxima with warp.reduce <maxnumf> and their sums of exponentials with
warp.reduce <add>. Run: python3 examples/python/softmax.py [rows] [cols]
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


def main(rows: int = 4096, cols: int = 1000) -> None:
    import torch

    compiled = wm.compile(prog, chip="sm_90")
    x = torch.randn(rows, cols, device="cuda")
    y = torch.empty_like(x)
    wm.launch(compiled, "softmax_rows", rows * 32 // 256, 256, x, y, cols)
    torch.testing.assert_close(y, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)
    print(f"softmax over {rows}x{cols}: matches torch.softmax")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
