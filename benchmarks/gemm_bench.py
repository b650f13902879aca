"""warp's three GEMM examples, examples/python/gemm.py (cp.async, ldmatrix,
mma.sync), examples/python/gemm_wgmma.py (cp.async, warpgroup MMA, sm_90a)
and examples/python/gemm_tma.py (TMA, mbarriers, warp-specialised
warpgroup MMA, sm_90a), against torch.matmul (cuBLAS) and a Triton matmul,
in one run.

    python3 benchmarks/gemm_bench.py [--size 4096] [--size 8192x128x8192 ...]
                                     [--type f16|bf16|all] [--wgmma-bn 0]
                                     [--json out.json]

For each M x N x K (default 4096^3, 8192^3 and two skinny shapes) and input
type: C = A @ B, A and B row-major in f16 or bf16. warp's kernel and the
Triton kernel write C in f32; torch.matmul returns the input type (f32
accumulation inside cuBLAS), which is cuBLAS's fastest form of the same
product. Each result is first checked against torch.matmul in f32 on the same
inputs (a relative bound derived from K and the input's rounding), then each
implementation is timed: CUDA events around a batch of --batch launches
enqueued while a spinning kernel holds the stream (so no launch's host
work is in the interval, even where it outlasts the kernel), the median
of --repeat batches, the implementations interleaved batch by batch. Prints one line per shape and type with TFLOP/s (2 M N K / time) and
the ratios of each warp kernel to torch and to triton; --json writes the
rows. The wgmma and TMA kernels need an sm_90 GPU (H100, H200); elsewhere
their columns are left out. The wgmma kernel's tile's N is
gemm_wgmma.tile_n's for each shape and the GPU's SM count (128 where
tiles 256 wide would not fill the SMs), and it splits K where the tiles
alone would not fill them (gemm_wgmma.splits_for), zeroing C first as
part of each launch. The TMA kernel takes the same tile N (--wgmma-bn
too) and does not split K (it can: at the skinny shapes that was slower
than the narrower tile alone, docs/results/gemm-skinny-h100.md); its
tensor maps are made once per array (gemm_tma caches them), outside the
timed launches.

Needs torch with CUDA, triton, and the warp_mlir package with its C API
library (the GPU bundle's wheel).
"""
import argparse
import json
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
for _base in (HERE.parent / "examples" / "python", HERE / "examples" / "python"):
    if (_base / "gemm.py").exists():
        sys.path.insert(0, str(_base))
        break

DEFAULT_SIZES = ["4096", "8192", "8192x128x8192", "128x8192x8192"]


def triton_matmul():
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(a, b, c, m, n, k, sam, sak, sbk, sbn, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pid_m, pid_n = tl.program_id(1), tl.program_id(0)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, k, BK):
            x = tl.load(a + rm[:, None] * sam + (k0 + rk)[None, :] * sak,
                        mask=(rm[:, None] < m) & ((k0 + rk)[None, :] < k), other=0.0)
            y = tl.load(b + (k0 + rk)[:, None] * sbk + rn[None, :] * sbn,
                        mask=((k0 + rk)[:, None] < k) & (rn[None, :] < n), other=0.0)
            acc += tl.dot(x, y)
        tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc,
                 mask=(rm[:, None] < m) & (rn[None, :] < n))

    def run(a, b, c):
        m, k = a.shape
        n = b.shape[1]
        grid = (triton.cdiv(n, 128), triton.cdiv(m, 128))
        kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1), BM=128, BN=128, BK=32, num_warps=8,
                     num_stages=3)
    return run


def parse_size(text):
    parts = [int(p) for p in text.lower().split("x")]
    return tuple(parts * 3) if len(parts) == 1 else tuple(parts)


# A bound on the SM clock (the H100's and H200's boost clock is 1.98 GHz):
# torch.cuda._sleep(seconds * SLEEP_CYCLES_PER_S) spins at least that long.
SLEEP_CYCLES_PER_S = 2.0e9


def time_batches(torch, launches, batch, repeat):
    """{name: median ms per launch}, the implementations interleaved. The
    stream is held by a spinning kernel while each batch is enqueued (three
    times the host time of a batch, measured after the warm-up, at least
    1 ms), so that the interval holds the kernels only: a launch whose host
    work outlasts its kernel (warp's Python launch, tens of microseconds,
    against a 60-us kernel) would otherwise be timed by its host work."""
    times = {name: [] for name in launches}
    for launch in launches.values():  # warm-up (and Triton's compile)
        launch()
    torch.cuda.synchronize()
    host_s = 0.0
    for launch in launches.values():
        started = time.perf_counter()
        for _ in range(3):
            launch()
        host_s = max(host_s, (time.perf_counter() - started) / 3)
        torch.cuda.synchronize()
    hold_cycles = int(max(1e-3, 3 * batch * host_s) * SLEEP_CYCLES_PER_S)
    for _ in range(repeat):
        for name, launch in launches.items():
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda._sleep(hold_cycles)
            start.record()
            for _ in range(batch):
                launch()
            stop.record()
            stop.synchronize()
            times[name].append(start.elapsed_time(stop) / batch)
    return {name: statistics.median(t) for name, t in times.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", action="append")
    parser.add_argument("--type", default="all", choices=["f16", "bf16", "all"])
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--wgmma-bn", type=int, default=0, choices=[0, 64, 128, 192, 256],
                        help="the N of the wgmma kernel's block tile (0: gemm_wgmma.tile_n's "
                             "choice for each shape)")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    import torch
    import warp_mlir as wm
    import gemm
    import gemm_tma
    import gemm_wgmma

    hopper = torch.cuda.get_device_capability() == (9, 0)
    types = ["f16", "bf16"] if args.type == "all" else [args.type]
    triton_run = triton_matmul()
    rows, failed = [], False
    for name in types:
        dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[name]
        element = {"f16": wm.f16, "bf16": wm.bf16}[name]
        compiled = wm.compile(gemm.build(element), chip="sm_90")
        kernels = {"mma_sync": lambda a, b, c: gemm.gemm(compiled, a, b, c, sync=False)}
        if hopper:
            sms = torch.cuda.get_device_properties(0).multi_processor_count
            variants = {bn: gemm_wgmma.compile_gemm(element, bn) for bn in
                        ([args.wgmma_bn] if args.wgmma_bn else [128, 256])}

            def wgmma(a, b, c):
                (m, k), n = a.shape, b.shape[1]
                bn = args.wgmma_bn or gemm_wgmma.tile_n(n, m, sms)
                compiled_wg, shared = variants[bn]
                gemm_wgmma.gemm(compiled_wg, shared, a, b, c, bn,
                                gemm_wgmma.splits_for(m, n, k, sms, bn), sync=False)
            kernels["wgmma"] = wgmma
            tma_variants = {bn: gemm_tma.compile_gemm(element, bn) for bn in
                            ([args.wgmma_bn] if args.wgmma_bn else [128, 256])}

            def tma(a, b, c):
                bn = args.wgmma_bn or gemm_tma.tile_n(b.shape[1], a.shape[0], sms)
                compiled_tma, shared = tma_variants[bn]
                gemm_tma.gemm(compiled_tma, shared, a, b, c, bn, sync=False)
            kernels["tma"] = tma
        for m, n, k in (parse_size(s) for s in (args.size or DEFAULT_SIZES)):
            gen = torch.Generator(device="cuda").manual_seed(m * 31 + n * 7 + k)
            a = torch.randn(m, k, device="cuda", generator=gen).to(dtype)
            b = torch.randn(k, n, device="cuda", generator=gen).to(dtype)
            outputs = {who: torch.empty(m, n, device="cuda", dtype=torch.float32)
                       for who in [*kernels, "triton"]}
            want = a.float() @ b.float()
            for who, run in kernels.items():
                run(a, b, outputs[who])
            triton_run(a, b, outputs["triton"])
            torch.cuda.synchronize()
            # Products are exact in f32; the sums of K terms of size ~1 err
            # by a few K ulp at worst in any order.
            bound = 4 * k * 2.0 ** -24 * (a.float().abs() @ b.float().abs()).max().item()
            errors = {who: (c - want).abs().max().item() for who, c in outputs.items()}
            for who, error in errors.items():
                if error > bound:
                    print(f"WRONG {who} {name} {m}x{n}x{k}: max |error| {error:.3g} > {bound:.3g}")
                    failed = True
            launches = {who: (lambda run=run, c=outputs[who]: run(a, b, c))
                        for who, run in kernels.items()}
            launches["torch"] = lambda: torch.matmul(a, b)
            launches["triton"] = lambda: triton_run(a, b, outputs["triton"])
            ms = time_batches(torch, launches, args.batch, args.repeat)
            tflops = {who: 2 * m * n * k / (t * 1e-3) / 1e12 for who, t in ms.items()}
            row = {"type": name, "m": m, "n": n, "k": k, "ms": ms, "tflops": tflops,
                   "max_error": errors, "bound": bound}
            parts = []
            for who in kernels:
                row[f"{who}_over_torch"] = ms["torch"] / ms[who]
                row[f"{who}_over_triton"] = ms["triton"] / ms[who]
                parts.append(f"warp {who} {tflops[who]:.1f} TFLOP/s ({ms[who]:.3f} ms; "
                             f"/ torch {row[who + '_over_torch']:.3f}, "
                             f"/ triton {row[who + '_over_triton']:.3f})")
            rows.append(row)
            print(f"gemm {name} {m}x{n}x{k}: torch.matmul {tflops['torch']:.1f} TFLOP/s, "
                  f"triton {tflops['triton']:.1f}; " + "; ".join(parts), flush=True)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
