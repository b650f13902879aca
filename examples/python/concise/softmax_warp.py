"""Row softmax in warp_mlir: a warp per row held in registers (k.row).
Compare softmax_triton.py and softmax.cu."""
import numpy as np

import warp_mlir as wm

SIZE = 1024  # the most columns a row may have (Triton's BLOCK)
prog = wm.Program("softmax")


@prog.kernel(x=wm.memref(wm.f32, (-1, -1)), y=wm.memref(wm.f32, (-1, -1)), n=wm.index)
def softmax(k, x, y, n):
    r = k.row(x, k.global_warp_id(), n, size=SIZE)
    e = (r - r.max()).exp()
    (e / e.sum()).store(y)


def run(x, backend="cuda"):
    """softmax of each row of the f32 array x (a warp per row)."""
    y = np.zeros_like(x)
    wm.launch(wm.compile(prog), "softmax", x.shape[0], 32, x, y, x.shape[1], backend=backend)
    return y
