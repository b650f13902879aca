"""Layer norm in warp_mlir: a warp per row in registers, mean and variance
by Welford's method (tile.mean_var). Compare layernorm_triton.py and
layernorm.cu."""
import numpy as np

import warp_mlir as wm

SIZE = 1024
prog = wm.Program("layernorm")


@prog.kernel(x=wm.memref(wm.f32, (-1, -1)), w=wm.memref(wm.f32), b=wm.memref(wm.f32),
             y=wm.memref(wm.f32, (-1, -1)), n=wm.index, eps=wm.f32)
def layernorm(k, x, w, b, y, n, eps):
    r = k.row(x, k.global_warp_id(), n, size=SIZE)
    mean, var = r.mean_var()
    ((r - mean) * k.rsqrt(var + eps) * r.load(w) + r.load(b)).store(y)


def run(x, w, b, eps, backend="cuda"):
    """(x - mean) / sqrt(var + eps) * w + b over each row."""
    y = np.zeros_like(x)
    wm.launch(wm.compile(prog), "layernorm", x.shape[0], 32, x, w, b, y, x.shape[1], eps,
              backend=backend)
    return y
