"""Segmented sum in warp_mlir over sorted segment ids: a segmented
warp.reduce per run of equal ids, one atomic per run per warp
(k.segment_add). Compare segment_sum_triton.py and segment_sum.cu."""
import numpy as np

import warp_mlir as wm

BLOCK = 256
prog = wm.Program("segment_sum")


@prog.kernel(x=wm.memref(wm.f32), seg=wm.memref(wm.i32), out=wm.memref(wm.f32), n=wm.index)
def segment_sum(k, x, seg, out, n):
    i = k.global_id()
    k.segment_add(out, k.load(seg, i, i < n), k.load(x, i, i < n), valid=i < n)


def run(x, seg, segments, backend="cuda"):
    """out[s] = the sum of x where seg == s; seg sorted."""
    out = np.zeros(segments, np.float32)
    grid = max(1, -(-x.size // BLOCK))
    wm.launch(wm.compile(prog), "segment_sum", grid, BLOCK, x, seg, out, x.size,
              backend=backend)
    return out
