"""Row argmax (tl.argmax: ties to the left-most column; NaN is not specified)
in Triton, as a Triton user writes it. Compare argmax_warp.py and argmax.cu.
run() takes and returns numpy arrays (through torch on the GPU)."""
import torch
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf"))
    tl.store(out_ptr + row, tl.argmax(x, axis=0))


def run(x):
    xt = torch.from_numpy(x).cuda()
    out = torch.empty(x.shape[0], dtype=torch.int32, device="cuda")
    rows, n = x.shape
    argmax_kernel[(rows,)](xt, out, n, BLOCK=triton.next_power_of_2(n))
    return out.cpu().numpy()
