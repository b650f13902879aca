"""Block sum (a program per BLOCK elements) in Triton, as a Triton user writes
it. Compare block_sum_warp.py and block_sum.cu. run() takes and returns
numpy arrays (through torch on the GPU)."""
import torch
import triton
import triton.language as tl


BLOCK = 256


@triton.jit
def block_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + tl.program_id(0), tl.sum(x, axis=0))


def run(x):
    xt = torch.from_numpy(x).cuda()
    out = torch.zeros(-(-x.size // BLOCK), dtype=torch.float32, device="cuda")
    block_sum_kernel[(out.numel(),)](xt, out, x.size, BLOCK=BLOCK)
    return out.cpu().numpy()
