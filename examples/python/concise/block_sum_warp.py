"""Block sum in warp_mlir: each block of BLOCK threads adds its BLOCK
elements (warp.block_reduce). Compare block_sum_triton.py and
block_sum.cu."""
import numpy as np

import warp_mlir as wm

BLOCK = 256
prog = wm.Program("block_sum")


@prog.kernel(x=wm.memref(wm.f32), out=wm.memref(wm.f32), n=wm.index)
def block_sum(k, x, out, n):
    i = k.global_id()
    total = k.block_reduce("add", k.load(x, i, i < n, other=0.0))
    k.store_first(out, k.block_id(), total, scope="block")


def run(x, backend="cuda"):
    """The sum of each run of BLOCK elements of x."""
    out = np.zeros(-(-x.size // BLOCK), np.float32)
    wm.launch(wm.compile(prog), "block_sum", out.size, BLOCK, x, out, x.size, backend=backend)
    return out
