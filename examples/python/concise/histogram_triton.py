"""Histogram (an atomic add per element) in Triton, as a Triton user writes it.
Compare histogram_warp.py and histogram.cu. run() takes and returns numpy
arrays (through torch on the GPU)."""
import torch
import triton
import triton.language as tl


BLOCK = 256


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_add(hist_ptr + x, 1, mask=mask)


def run(x, bins):
    xt = torch.from_numpy(x).cuda()
    hist = torch.zeros(bins, dtype=torch.int32, device="cuda")
    if x.size:  # no launch on an empty (null) pointer
        histogram_kernel[(max(1, triton.cdiv(x.size, BLOCK)),)](xt, hist, x.size, BLOCK=BLOCK)
    return hist.cpu().numpy()
