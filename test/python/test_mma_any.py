"""examples/mma_matmul_any.mlir (f16 inputs, f32 or f16 accumulator) and
examples/mma_matmul_tf32.mlir (f32 inputs as tf32, sm_80+): M x K by K x N
for sizes given at run time, one warp per 16x16 tile of C, the K loop an
scf.for carrying the wmma accumulator.

CPU: the PTX keeps one loop with one fragment load per operand and one
wmma.mma per step. GPU: against numpy on several shapes, exactly for
small-integer inputs (every partial sum is representable, so any summation
order gives the exact result) and within a derived bound for random inputs.
"""
import pathlib
import re

import numpy as np
import pytest

import warp_mlir as wm
from conftest import requires_gpu
from probes import cuda_compute_capability

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
ANY = EXAMPLES / "mma_matmul_any.mlir"
TF32 = EXAMPLES / "mma_matmul_tf32.mlir"

SHAPES = [(16, 16, 16), (48, 80, 32), (128, 64, 256), (96, 112, 48)]  # M, N, K


def kernel_body(ptx, name):
    start = ptx.index(f".entry {name}(")
    return ptx[start:ptx.index("\n}", start)]


def backward_branches(body):
    """The branches to a label defined above them: one per loop."""
    labels = {m.group(1): m.start() for m in re.finditer(r"^(\$L__\w+):", body, re.M)}
    return [m for m in re.finditer(r"\bbra(?:\.uni)?\s+(\$L__\w+);", body)
            if labels.get(m.group(1), len(body)) < m.start()]


@pytest.mark.parametrize("kernel, mma", [
    ("matmul_f32acc", "wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32"),
    ("matmul_f16acc", "wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16"),
])
def test_any_size_ptx_has_one_mma_per_k_step(kernel, mma):
    body = kernel_body(wm.compile(ANY.read_text(), chip="sm_90").ptx, kernel)
    # One loop (the K loop: its trip count is a run-time size) ...
    assert len(backward_branches(body)) == 1
    # ... one fragment load per operand, one multiply, one store.
    assert body.count(mma) == 1
    assert body.count("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16") == 1
    assert body.count("wmma.load.b.sync.aligned.row.m16n16k16.shared.f16") == 1
    assert body.count("wmma.store.d.sync") == 1
    # 16-byte global accesses: two loads per step, C out in 16-byte pieces.
    assert body.count("ld.global.v4.b32") == 2


def test_tf32_ptx_and_chip_gate():
    body = kernel_body(wm.compile(TF32.read_text(), chip="sm_80").ptx, "matmul_tf32")
    assert body.count("wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32") == 1
    with pytest.raises(wm.MLIRError, match="tf32 fragments needs sm_80 or newer"):
        wm.compile(TF32.read_text(), chip="sm_75")


# One ulp (relative to the operand's exponent) of the accumulator.
F32_ULP, F16_ULP = 2.0 ** -23, 2.0 ** -10


def summation_bound(a, b, ulp, step=16):
    """A bound on |computed - exact| for C = A @ B accumulated `step` terms
    of K per wmma into an accumulator whose ulp (relative) is `ulp`.
    Products are exact (f16 x f16 and tf32 x tf32 fit in f32). Tensor cores
    add a step's products and the running sum after aligning them to the
    largest exponent, dropping (truncating, not rounding) the bits below it
    (Fasi et al., "Numerical behavior of NVIDIA tensor cores", 2021): each of
    the step + 1 addends loses less than one ulp of the largest, and the
    result is rounded once more. So step t errs by at most
    ulp * ((step + 1) * (|S(t-1)| + sum of the step's |products|) + |S(t)|),
    S the exact partial sums; the errors of the steps add up."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    bound = np.zeros((a.shape[0], b.shape[1]))
    partial = np.zeros_like(bound)
    for k in range(0, a.shape[1], step):
        blk = slice(k, k + step)
        products = np.abs(a64[:, blk]) @ np.abs(b64[blk, :])
        previous, partial = partial, partial + a64[:, blk] @ b64[blk, :]
        bound += (step + 1) * (np.abs(previous) + products) + np.abs(partial)
    return ulp * bound


def run(source, kernel, a, b, c_dtype):
    m, k = a.shape
    n = b.shape[1]
    assert m % 16 == 0 and n % 16 == 0 and k % 16 == 0
    c = np.zeros((m, n), c_dtype)
    wm.launch(wm.compile(source.read_text(), chip="sm_90"), kernel, (n // 16, m // 16), 32,
              a, b, c)
    return c


def small_integers(rng, shape, dtype):
    return rng.integers(-2, 3, size=shape).astype(dtype)


@requires_gpu
@pytest.mark.parametrize("kernel, out_type, ulp, scale", [
    # f32 accumulator: |partial sums| <= 4 K are integers exact in f32.
    ("matmul_f32acc", np.float32, F32_ULP, 1.0),
    # f16 accumulator: |partial sums| <= 4 K <= 1024 < 2048 are exact in
    # f16; random values of magnitude 1/4 keep every sum far from f16's range.
    ("matmul_f16acc", np.float16, F16_ULP, 0.25),
])
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_f16_inputs_against_numpy(kernel, out_type, ulp, scale, m, n, k):
    rng = np.random.default_rng(m * 7 + n * 3 + k)
    a, b = small_integers(rng, (m, k), np.float16), small_integers(rng, (k, n), np.float16)
    np.testing.assert_array_equal(run(ANY, kernel, a, b, out_type),
                                  a.astype(np.float64) @ b.astype(np.float64))
    a = (rng.standard_normal((m, k)) * scale).astype(np.float16)
    b = (rng.standard_normal((k, n)) * scale).astype(np.float16)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    got = run(ANY, kernel, a, b, out_type).astype(np.float64)
    assert np.all(np.abs(got - exact) <= summation_bound(a, b, ulp))


def tf32_round_bound(a, b):
    """tf32 keeps 10 of f32's 23 mantissa bits: each input moves by at most
    2^-10 of itself (truncated; 2^-11 rounded), each product by at most
    2^-9 (plus 2^-20) of |a||b|."""
    return (2.0 ** -9 + 2.0 ** -20) * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)))


@requires_gpu
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_tf32_against_numpy(m, n, k):
    capability = cuda_compute_capability()
    if capability is None or capability < (8, 0):
        pytest.skip("tf32 wmma needs sm_80 or newer")
    rng = np.random.default_rng(m + n * 13 + k * 17)
    # Small integers are exact in tf32 and every partial sum exact in f32.
    a, b = small_integers(rng, (m, k), np.float32), small_integers(rng, (k, n), np.float32)
    np.testing.assert_array_equal(run(TF32, "matmul_tf32", a, b, np.float32),
                                  a.astype(np.float64) @ b.astype(np.float64))
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    got = run(TF32, "matmul_tf32", a, b, np.float32)
    # Products of tf32 inputs are exact in f32; 8 of them per wmma step.
    bound = tf32_round_bound(a, b) + summation_bound(a, b, F32_ULP, step=8)
    assert np.all(np.abs(got - exact) <= bound)
    # And tf32 is what ran: with f32 inputs the error would stay within the
    # summation bound alone; tf32's input rounding (2^-11) exceeds it.
    assert np.any(np.abs(got - exact) > summation_bound(a, b, F32_ULP, step=8))


def test_benchmark_arguments():
    """benchmarks/mma_bench.py (GPU only) parses its sizes here."""
    import importlib.util
    # In the repository, or at the top of the GPU bundle.
    path = next(p for p in (EXAMPLES.parent / "benchmarks" / "mma_bench.py",
                            EXAMPLES.parent / "mma_bench.py") if p.exists())
    spec = importlib.util.spec_from_file_location("mma_bench", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.parse_args([]).size == [(4096, 4096, 4096)]
    assert bench.parse_args(["--size", "64x32x16", "--size", "48"]).size == [(64, 32, 16),
                                                                            (48, 48, 48)]
    with pytest.raises(SystemExit):
        bench.parse_args(["--size", "40"])
    assert bench.parse_args([]).kernels == ("f16", "bf16")
    assert bench.parse_args(["--kernel", "bf16"]).kernels == ("bf16",)
    assert [spec[0] for spec in bench.kernel_specs(bench.parse_args([]))] == ["matmul_f32acc",
                                                                             "matmul_bf16"]
    assert bench.EXAMPLE_BF16.exists()
    with pytest.raises(SystemExit):  # bf16 accumulates in f32 only
        bench.parse_args(["--kernel", "bf16", "--accumulator", "f16"])
