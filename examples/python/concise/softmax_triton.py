"""Row softmax (a program per row, the row in one BLOCK) in Triton, as a Triton
user writes it. Compare softmax_warp.py and softmax.cu. run() takes and
returns numpy arrays (through torch on the GPU)."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + row * n + cols, mask=mask, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * n + cols, e / tl.sum(e, axis=0), mask=mask)


def run(x):
    xt = torch.from_numpy(x).cuda()
    y = torch.empty_like(xt)
    rows, n = x.shape
    softmax_kernel[(rows,)](xt, y, n, BLOCK=triton.next_power_of_2(n))
    return y.cpu().numpy()
