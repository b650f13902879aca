"""Tensor-core throughput of examples/mma_matmul_any.mlir against
torch.matmul (cuBLAS) in the same run, on the GPU.

    python3 benchmarks/mma_bench.py [--size 4096] [--size 2048x1024x512 ...]
                                    [--accumulator f32|f16] [--json out.json]

For each M x N x K (multiples of 16; default 4096^3): C = A @ B with A, B in
f16 and C in f32 (matmul_f32acc) or f16 (matmul_f16acc), checked first
against float64 torch within the accumulator's summation bound, then timed:
the median of --repeat launches after --warmup ones, CUDA events around each.
torch.matmul runs on the same f16 inputs (cuBLAS, f16 output, f32 internal
accumulation). Prints TFLOP/s (2 M N K / time) of both and their ratio.

Needs torch with CUDA and the warp_mlir package with its C API library
(WARP_MLIR_LIBRARY, or the GPU bundle's), which compiles the example for the
device's chip. The example is one warp per 16x16 tile with its A and B tiles
staged through workgroup memory: a correctness-first kernel, not a tuned
GEMM; this measures how far it is from cuBLAS.
"""
import argparse
import json
import pathlib
import statistics
import sys

HERE = pathlib.Path(__file__).resolve().parent
# From the repository (benchmarks/) or from the GPU bundle's top level.
for _base in (HERE.parent, HERE):
    if (_base / "examples" / "mma_matmul_any.mlir").exists():
        EXAMPLE = _base / "examples" / "mma_matmul_any.mlir"
        sys.path.insert(0, str(_base / "python"))
        break
else:
    EXAMPLE = HERE.parent / "examples" / "mma_matmul_any.mlir"


def parse_size(text: str):
    parts = [int(p) for p in text.lower().split("x")]
    if len(parts) == 1:
        parts *= 3
    if len(parts) != 3 or any(p <= 0 or p % 16 for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r}: M, N, K (or one size) must be positive "
                                         f"multiples of 16")
    return tuple(parts)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, action="append",
                        help="M x N x K or one size for all three (default 4096)")
    parser.add_argument("--accumulator", choices=("f32", "f16"), default="f32")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    args.size = args.size or [(4096, 4096, 4096)]
    return args


def summation_bound(abs_product, k, ulp):
    """|computed - exact| <= ulp (18 K / 16 + 17) (|A| @ |B|): each of the
    K / 16 wmma steps errs by at most ulp ((16 + 1) (|previous sum| + its
    |products|) + |new sum|) (test/python/test_mma_any.py, summation_bound,
    says why), and every |partial sum| is at most |A| @ |B|."""
    return ulp * (18 * k / 16 + 17) * abs_product


def time_ms(torch, launch, warmup, repeat):
    for _ in range(warmup):
        launch()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        launch()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import torch

    import warp_mlir as wm

    major, minor = torch.cuda.get_device_capability()
    chip = f"sm_{major}{minor}"
    compiled = wm.compile(EXAMPLE.read_text(), chip=chip)
    kernel = f"matmul_{args.accumulator}acc"
    out_type = torch.float32 if args.accumulator == "f32" else torch.float16
    ulp = 2.0 ** -23 if args.accumulator == "f32" else 2.0 ** -10
    results = []
    for m, n, k in args.size:
        gen = torch.Generator(device="cuda").manual_seed(m + n + k)
        a = torch.randn(m, k, device="cuda", generator=gen).half()
        b = torch.randn(k, n, device="cuda", generator=gen).half()
        if args.accumulator == "f16":  # keep f16 sums far from overflow
            a, b = a / 4, b / 4
        c = torch.zeros(m, n, device="cuda", dtype=out_type)

        def ours():
            wm.launch(compiled, kernel, (n // 16, m // 16), 32, a, b, c, sync=False)

        ours()
        torch.cuda.synchronize()
        exact = a.double() @ b.double()
        bound = summation_bound(a.double().abs() @ b.double().abs(), k, ulp)
        excess = ((c.double() - exact).abs() - bound).max().item()
        if excess > 0:
            raise SystemExit(f"{kernel} {m}x{n}x{k}: wrong result (exceeds the bound by "
                             f"{excess:.3g})")
        ours_ms = time_ms(torch, ours, args.warmup, args.repeat)
        torch_ms = time_ms(torch, lambda: torch.matmul(a, b), args.warmup, args.repeat)
        flops = 2.0 * m * n * k
        row = {"kernel": kernel, "m": m, "n": n, "k": k, "chip": chip,
               "warp_ms": ours_ms, "torch_ms": torch_ms,
               "warp_tflops": flops / ours_ms / 1e9, "torch_tflops": flops / torch_ms / 1e9}
        results.append(row)
        print(f"{kernel} {m}x{n}x{k}: warp {row['warp_tflops']:.1f} TFLOP/s ({ours_ms:.3f} ms), "
              f"torch.matmul {row['torch_tflops']:.1f} TFLOP/s ({torch_ms:.3f} ms), "
              f"warp / torch = {row['warp_tflops'] / row['torch_tflops']:.3f}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    main()
