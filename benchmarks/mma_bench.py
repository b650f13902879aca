"""Tensor-core throughput of examples/mma_matmul_any.mlir (f16 inputs) and
examples/mma_matmul_bf16.mlir (bf16 inputs) against torch.matmul (cuBLAS) in
the same run, on the GPU.

    python3 benchmarks/mma_bench.py [--kernel f16|bf16|all] [--size 4096]
                                    [--size 2048x1024x512 ...]
                                    [--accumulator f32|f16] [--json out.json]

For each M x N x K (multiples of 16; default 4096^3) and each kernel
(--kernel, default all: both, f16 first):

  f16:  C = A @ B with A, B in f16 and C in f32 (matmul_f32acc) or f16
        (matmul_f16acc, --accumulator f16) from examples/mma_matmul_any.mlir;
        torch.matmul runs on the same f16 inputs (f16 output, f32 internal
        accumulation).
  bf16: C = A @ B with A, B in bf16 (torch.bfloat16) and C in f32
        (matmul_bf16 from examples/mma_matmul_bf16.mlir, sm_80 or newer; f32
        accumulation only, so --accumulator f16 does not apply to it);
        torch.matmul runs on the same bf16 inputs (bf16 output).

Each result is checked first against float64 torch on the same (f16- or
bf16-rounded) inputs within the accumulator's summation bound (bf16 x bf16
and f16 x f16 products are exact in f32, so only the accumulation errs),
then timed: the median of --repeat launches after --warmup ones, CUDA events
around each. Prints one line per kernel and size,

    matmul_bf16 4096x4096x4096: warp X TFLOP/s (Y ms), torch.matmul Z TFLOP/s (W ms), warp / torch = R

(TFLOP/s = 2 M N K / time), and --json writes the same rows as a list. A
wrong result stops the run with the kernel, the size and by how much it
exceeds the bound (exit status 1).

Needs torch with CUDA and the warp_mlir package with its C API library
(WARP_MLIR_LIBRARY, or the GPU bundle's), which compiles the examples for the
device's chip; the examples come from the repository's examples/ or the GPU
bundle's (scripts/gpu-bundle.sh copies examples/*.mlir there). The f16
example is one warp per 16x16 tile with its A and B tiles staged through
workgroup memory; the bf16 one is one warp per tile loading its fragments
straight from global memory: correctness-first kernels, not tuned GEMMs; this
measures how far they are from cuBLAS.
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
        EXAMPLES = _base / "examples"
        sys.path.insert(0, str(_base / "python"))
        break
else:
    EXAMPLES = HERE.parent / "examples"
EXAMPLE = EXAMPLES / "mma_matmul_any.mlir"
EXAMPLE_BF16 = EXAMPLES / "mma_matmul_bf16.mlir"
F32_ULP, F16_ULP = 2.0 ** -23, 2.0 ** -10


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
    parser.add_argument("--kernel", choices=("f16", "bf16", "all"), default="all",
                        help="f16: mma_matmul_any.mlir; bf16: mma_matmul_bf16.mlir's "
                             "matmul_bf16; all (default): both")
    parser.add_argument("--accumulator", choices=("f32", "f16"), default="f32",
                        help="the f16 kernel's accumulator (bf16 accumulates in f32)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    if args.kernel == "bf16" and args.accumulator == "f16":
        parser.error("--accumulator f16 is for the f16 kernel; matmul_bf16 accumulates in f32")
    args.size = args.size or [(4096, 4096, 4096)]
    args.kernels = ("f16", "bf16") if args.kernel == "all" else (args.kernel,)
    return args


def kernel_specs(args):
    """(kernel, example, input dtype name, output dtype name, ulp, input scale)
    for each of args.kernels, in order."""
    specs = []
    for which in args.kernels:
        if which == "f16":
            f32acc = args.accumulator == "f32"
            # f16 accumulation: inputs / 4 keep the f16 sums far from overflow.
            specs.append((f"matmul_{args.accumulator}acc", EXAMPLE, "float16",
                          "float32" if f32acc else "float16", F32_ULP if f32acc else F16_ULP,
                          1.0 if f32acc else 0.25))
        elif which == "bf16":
            specs.append(("matmul_bf16", EXAMPLE_BF16, "bfloat16", "float32", F32_ULP, 1.0))
        else:
            raise ValueError(f"unknown kernel {which!r}")
    return specs


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
    specs = kernel_specs(args)
    for kernel, example, *_ in specs:
        if not example.exists():
            raise SystemExit(f"{kernel}: {example} not found (run from the repository or the GPU "
                             f"bundle, whose examples/ scripts/gpu-bundle.sh fills)")
    import torch

    import warp_mlir as wm

    if not torch.cuda.is_available():
        raise SystemExit("mma_bench.py needs torch with a CUDA device; torch sees none")
    major, minor = torch.cuda.get_device_capability()
    chip = f"sm_{major}{minor}"
    if "bf16" in args.kernels and (major, minor) < (8, 0):
        raise SystemExit(f"matmul_bf16 needs sm_80 or newer (bf16 wmma); this device is {chip}: "
                         f"run with --kernel f16")
    compiled = {}
    for example in dict.fromkeys(spec[1] for spec in specs):
        compiled[example] = wm.compile(example.read_text(), chip=chip)
    results = []
    for m, n, k in args.size:
        for kernel, example, in_name, out_name, ulp, scale in specs:
            in_type, out_type = getattr(torch, in_name), getattr(torch, out_name)
            gen = torch.Generator(device="cuda").manual_seed(m + n + k)
            # Drawn in f32, scaled (exact: a power of 2), then rounded to the
            # input type; the reference below uses these rounded values.
            a = (torch.randn(m, k, device="cuda", generator=gen) * scale).to(in_type)
            b = (torch.randn(k, n, device="cuda", generator=gen) * scale).to(in_type)
            c = torch.zeros(m, n, device="cuda", dtype=out_type)
            module = compiled[example]

            def ours(module=module, kernel=kernel, a=a, b=b, c=c, m=m, n=n):
                wm.launch(module, kernel, (n // 16, m // 16), 32, a, b, c, sync=False)

            ours()
            torch.cuda.synchronize()
            if not torch.isfinite(c).all().item():
                raise SystemExit(f"{kernel} {m}x{n}x{k}: wrong result (not finite)")
            exact = a.double() @ b.double()
            bound = summation_bound(a.double().abs() @ b.double().abs(), k, ulp)
            excess = ((c.double() - exact).abs() - bound).max().item()
            del exact, bound
            if excess > 0:
                raise SystemExit(f"{kernel} {m}x{n}x{k}: wrong result (exceeds the bound by "
                                 f"{excess:.3g})")
            ours_ms = time_ms(torch, ours, args.warmup, args.repeat)
            torch_ms = time_ms(torch, lambda a=a, b=b: torch.matmul(a, b), args.warmup,
                               args.repeat)
            flops = 2.0 * m * n * k
            row = {"kernel": kernel, "inputs": in_name, "output": out_name,
                   "m": m, "n": n, "k": k, "chip": chip,
                   "warp_ms": ours_ms, "torch_ms": torch_ms,
                   "warp_tflops": flops / ours_ms / 1e9, "torch_tflops": flops / torch_ms / 1e9}
            results.append(row)
            print(f"{kernel} {m}x{n}x{k}: warp {row['warp_tflops']:.1f} TFLOP/s "
                  f"({ours_ms:.3f} ms), torch.matmul {row['torch_tflops']:.1f} TFLOP/s "
                  f"({torch_ms:.3f} ms), warp / torch = "
                  f"{row['warp_tflops'] / row['torch_tflops']:.3f}", flush=True)
            del a, b, c
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    main()
