"""Why the TMA GEMM (examples/python/gemm_tma.py) is slow at skinny shapes
(issue 33): it times variants of it against torch.matmul and Triton in one
run, each first checked against an f32 product.

    python3 benchmarks/gemm_skinny_probe.py [--size 8192x128x8192 ...]

Variants, for an operand the blocks share (B at M >> N, A at N >> M) and
one each block streams from DRAM:
  base        the example as the benchmark runs it (no split)
  rotate      block x starts its K walk at x * k_tiles / blocks, so the
              blocks do not read the same K tile of the shared operand at
              once (an L2 hot spot if that is what limits)
  pad         the streamed operand's rows padded by 128 bytes (its row
              stride no longer a power of two: DRAM channel camping if
              that is what limits)
  rotate+pad  both
  split4      K split in 4 (4 times the blocks), sums added into C
  rotate+split4
and `copy`, a clone of the streamed operand (its read and write at the
DRAM's rate), as the bandwidth reference. Prints ms and TFLOP/s a variant.
--once launches each variant once (for a profiler, e.g. ncu's DRAM and L2
throughput of each).
"""
import argparse
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "examples" / "python"))
sys.path.insert(0, str(HERE))

from gemm_bench import parse_size, time_batches, triton_matmul  # noqa: E402


def variant_options(name):
    """The launch options of a variant's name (e.g. "bn128+split2+rotate")."""
    options = {}
    for token in name.split("+"):
        if token in ("rotate", "pad"):
            options[token] = True
        elif token.startswith("split"):
            options["splits"] = int(token[5:])
        elif token.startswith("bn"):
            options["bn"] = int(token[2:])
        elif token != "base":
            raise ValueError(f"unknown variant part {token!r}")
    return options


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", action="append")
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--variants", default="base,rotate,pad,rotate+pad,split4,rotate+split4",
                        help="comma-separated: base, or +-joined rotate, pad, splitN, bnN")
    parser.add_argument("--once", action="store_true",
                        help="launch each variant once, untimed and unchecked (under ncu)")
    args = parser.parse_args(argv)
    import torch
    import warp_mlir as wm
    import gemm_tma

    triton_run = triton_matmul()
    compiled = {}

    def kernel(bn, rotate):
        if (bn, rotate) not in compiled:
            compiled[bn, rotate] = gemm_tma.compile_gemm(wm.f16, bn, rotate_k=rotate)
        return compiled[bn, rotate]

    failed = False
    for m, n, kk in (parse_size(s) for s in (args.size or ["8192x128x8192", "128x8192x8192"])):
        gen = torch.Generator(device="cuda").manual_seed(m + n + kk)
        # Padded copies: rows of K + 64 (A) and N + 64 (B) elements, the
        # kernel reading only the first K (N) of each.
        a_pad = torch.randn(m, kk + 64, device="cuda", generator=gen).half()
        b_pad = torch.randn(kk, n + 64, device="cuda", generator=gen).half()
        a, b = a_pad[:, :kk].contiguous(), b_pad[:, :n].contiguous()
        want = a.float() @ b.float()
        bound = 4 * kk * 2.0 ** -24 * (a.float().abs() @ b.float().abs()).max().item()
        bn = gemm_tma.tile_n(n)
        streamed_pad = m >= n

        def launch(c, rotate=False, pad=False, splits=1, bn=bn):
            compiled_k, shared = kernel(bn, rotate)
            if splits > 1:
                c.zero_()
            x = a_pad if pad and streamed_pad else a
            y = b_pad if pad and not streamed_pad else b
            map_a = gemm_tma._tensor_map(x, (gemm_tma.BM, gemm_tma.BK))
            map_b = gemm_tma._tensor_map(y, (gemm_tma.BK, 64))
            wm.launch(compiled_k, "gemm", gemm_tma.grid(m, n, bn, splits), gemm_tma.THREADS,
                      map_a.address, map_b.address, c, m, n, kk, shared_bytes=shared,
                      sync=False)

        variants = {name: variant_options(name) for name in args.variants.split(",")}
        outputs = {name: torch.empty(m, n, device="cuda") for name in [*variants, "triton"]}
        if args.once:
            for name, options in variants.items():
                launch(outputs[name], **options)
            torch.cuda.synchronize()
            continue
        launches = {}
        for name, options in variants.items():
            launch(outputs[name], **options)
            launches[name] = lambda c=outputs[name], o=options: launch(c, **o)
        triton_run(a, b, outputs["triton"])
        torch.cuda.synchronize()
        for name, c in outputs.items():
            error = (c - want).abs().max().item()
            if error > bound:
                print(f"WRONG {name} {m}x{n}x{kk}: max |error| {error:.3g} > {bound:.3g}")
                failed = True
        streamed = a if streamed_pad else b
        launches["torch"] = lambda: torch.matmul(a, b)
        launches["triton"] = lambda: triton_run(a, b, outputs["triton"])
        launches["copy"] = lambda: streamed.clone()
        ms = time_batches(torch, launches, args.batch, args.repeat)
        print(f"{m}x{n}x{kk} f16 (BN {bn} unless named; copy of the streamed operand "
              f"{2 * streamed.numel() * 2 / (ms['copy'] * 1e-3) / 1e12:.2f} TB/s read+write):")
        for name, t in ms.items():
            if name != "copy":
                print(f"  {name:14s} {t:.4f} ms  {2 * m * n * kk / (t * 1e-3) / 1e12:6.1f} TFLOP/s"
                      f"  / torch {ms['torch'] / t:.3f}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
