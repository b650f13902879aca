"""Segmented sum over segment ids (an atomic add per element) in Triton, as a
Triton user writes it. Compare segment_sum_warp.py and segment_sum.cu. run()
takes and returns numpy arrays (through torch on the GPU)."""
import torch
import triton
import triton.language as tl


BLOCK = 256


@triton.jit
def segment_sum_kernel(x_ptr, seg_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    seg = tl.load(seg_ptr + offs, mask=mask)
    tl.atomic_add(out_ptr + seg, x, mask=mask)


def run(x, seg, segments):
    xt, st = torch.from_numpy(x).cuda(), torch.from_numpy(seg).cuda()
    out = torch.zeros(segments, dtype=torch.float32, device="cuda")
    grid = (max(1, triton.cdiv(x.size, BLOCK)),)
    segment_sum_kernel[grid](xt, st, out, x.size, BLOCK=BLOCK)
    return out.cpu().numpy()
