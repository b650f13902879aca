"""Row argmax in warp_mlir: a warp per row held in registers; ties go to the
lowest column, NaN counts as the largest (tile.argmax). Compare
argmax_triton.py and argmax.cu."""
import numpy as np

import warp_mlir as wm

SIZE = 1024
prog = wm.Program("argmax")


@prog.kernel(x=wm.memref(wm.f32, (-1, -1)), out=wm.memref(wm.i32), n=wm.index)
def argmax(k, x, out, n):
    _, at = k.row(x, k.global_warp_id(), n, size=SIZE).argmax()
    k.store_first(out, k.global_warp_id(), at)


def run(x, backend="cuda"):
    """The column of each row's largest value, as int32."""
    out = np.zeros(x.shape[0], np.int32)
    wm.launch(wm.compile(prog), "argmax", x.shape[0], 32, x, out, x.shape[1], backend=backend)
    return out
