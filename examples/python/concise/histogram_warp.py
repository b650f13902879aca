"""Histogram in warp_mlir: one atomic per distinct bin per warp
(k.aggregated_atomic_add). Compare histogram_triton.py and histogram.cu."""
import numpy as np

import warp_mlir as wm

BLOCK = 256
prog = wm.Program("histogram")


@prog.kernel(x=wm.memref(wm.i32), hist=wm.memref(wm.i32), n=wm.index)
def histogram(k, x, hist, n):
    i = k.global_id()
    with k.if_(i < n):
        k.aggregated_atomic_add(hist, x[i], 1)


def run(x, bins, backend="cuda"):
    """How many elements of x (bin numbers in [0, bins)) fall in each bin."""
    hist = np.zeros(bins, np.int32)
    grid = max(1, -(-x.size // BLOCK))
    wm.launch(wm.compile(prog), "histogram", grid, BLOCK, x, hist, x.size, backend=backend)
    return hist
