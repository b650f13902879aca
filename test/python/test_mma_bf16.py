"""warp's own MMA ops (warp.mma_load / warp.mma_compute / warp.mma_store):
examples/mma_matmul_bf16.mlir (bf16, f16 and tf32 inputs, f32 accumulator,
fragments loaded straight from run-time-strided global memory) and the
Python builder's bf16 path (k.mma_load / k.mma / k.mma_store on bf16 build
the warp ops; k.warp_mma_* for every combination).

CPU: the PTX has the expected wmma instructions, one loop with one fragment
load per operand and one wmma.mma per K step. GPU: against numpy on several
shapes, square and not, with the inputs rounded to bf16 (numpy has none: the
bits are made here, round to nearest even), exactly for small integers and
within a derived bound for random inputs.
"""
import pathlib
import re

import numpy as np
import pytest

import warp_mlir as wm
from conftest import requires_gpu
from probes import cuda_compute_capability
from test_mma_any import (F32_ULP, backward_branches, kernel_body, small_integers,
                          summation_bound, tf32_round_bound)

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "mma_matmul_bf16.mlir"

SHAPES = [(16, 16, 16), (48, 80, 32), (128, 64, 256), (96, 112, 48), (16, 160, 64)]  # M, N, K


def to_bf16_bits(values):
    """The bf16 bit patterns (uint16) of f32 `values`, rounded to nearest
    even (no NaNs here): add 0x7fff plus the lowest kept bit, drop 16 bits."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_bits_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def test_bf16_rounding():
    # 1 + 2^-8 is halfway between bf16 1.0 and 1 + 2^-7: even (1.0) wins;
    # 1 + 3 * 2^-8 is halfway to 1 + 2^-6: even (1 + 2^-6) wins.
    x = np.array([1.0, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 1 + 2.0 ** -8 + 2.0 ** -20, -2.5],
                 np.float32)
    np.testing.assert_array_equal(bf16_bits_to_f32(to_bf16_bits(x)),
                                  [1.0, 1.0, 1 + 2.0 ** -6, 1 + 2.0 ** -7, -2.5])


@pytest.mark.parametrize("kernel, chip, mma, load", [
    ("matmul_bf16", "sm_80", "wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32",
     "wmma.load.a.sync.aligned.row.m16n16k16.bf16"),
    ("matmul_f16", "sm_80", "wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32",
     "wmma.load.a.sync.aligned.row.m16n16k16.f16"),
    ("matmul_tf32", "sm_90", "wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32",
     "wmma.load.a.sync.aligned.row.m16n16k8.tf32"),
])
def test_example_ptx_has_one_mma_per_k_step(kernel, chip, mma, load):
    body = kernel_body(wm.compile(EXAMPLE.read_text(), chip=chip).ptx, kernel)
    assert len(backward_branches(body)) == 1
    assert body.count(mma) == 1
    assert body.count(load) == 1
    assert body.count("wmma.load.b.sync") == 1
    assert body.count("wmma.store.d.sync.aligned.row.m16n16k16.f32") == 1
    # No staging through workgroup memory, so no syncwarp either.
    assert "bar.warp.sync" not in body and ".shared" not in body


def test_example_chip_gate():
    with pytest.raises(wm.MLIRError, match="bf16 fragments needs sm_80 or newer; the target "
                                           "chip is sm_75"):
        wm.compile(EXAMPLE.read_text(), chip="sm_75")


def build_program():
    """The builder's forms: k.mma_load / k.mma / k.mma_store on bf16 (the
    warp ops behind them) in a K loop, and k.warp_mma_* for f16 and tf32."""
    prog = wm.Program("warp_mma")

    @prog.kernel(a=wm.memref(wm.bf16, (-1, -1)), b=wm.memref(wm.bf16, (-1, -1)),
                 c=wm.memref(wm.f32, (-1, -1)), k_size=wm.index)
    def matmul_bf16(k, a, b, c, k_size):
        row0 = k.block_id("y") * 16
        col0 = k.block_id("x") * 16
        steps = k.loop(0, k_size, 16, init=[k.warp_mma_fill(0.0)])
        with steps as (kk, total):
            fa = k.mma_load(a, (row0, kk), "a")
            fb = k.mma_load(b, (kk, col0), "b")
            steps.yield_(k.mma(fa, fb, total))
        k.mma_store(steps.results[0], c, (row0, col0))

    @prog.kernel(a=wm.memref(wm.f16, (16, 16)), b=wm.memref(wm.f16, (16, 16)),
                 c=wm.memref(wm.f16, (16, 16)))
    def tile_f16(k, a, b, c):
        fa = k.warp_mma_load(a, (0, 0), "a", layout="col")
        fb = k.warp_mma_load(b, (0, 0), "b")
        d = k.warp_mma(fa, fb, k.warp_mma_fill(0.0, wm.f16), a_layout="col")
        k.warp_mma_store(d * k.constant(2.0, d.type), c, (0, 0))

    @prog.kernel(a=wm.memref(wm.f32, (16, 8)), b=wm.memref(wm.f32, (8, 16)),
                 c=wm.memref(wm.f32, (16, 16)))
    def tile_tf32(k, a, b, c):
        fa = k.warp_mma_load(a, (0, 0), "a")
        fb = k.warp_mma_load(b, (0, 0), "b")
        fc = k.warp_mma_load(c, (0, 0), "c")
        k.warp_mma_store(k.warp_mma(fa, fb, fc), c, (0, 0), layout="row")

    return prog


def test_builder_ops_and_ptx():
    prog = build_program()
    text = str(prog)
    assert ("warp.mma_load %a[%" in text and "operand = a layout = row shape = m16n16k16 : "
            "memref<?x?xbf16> -> vector<8xbf16>" in text)
    assert "iter_args(" in text and "-> (vector<8xf32>)" in text
    assert "shape = m16n16k8 a_layout = row b_layout = row : vector<4xf32>, vector<8xf32>" in text
    assert "arith.mulf" in text  # elementwise arithmetic on an accumulator
    ptx = wm.compile(prog, chip="sm_80").ptx
    body = kernel_body(ptx, "matmul_bf16")
    assert len(backward_branches(body)) == 1
    assert body.count("wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32") == 1
    assert body.count("wmma.load.b.sync.aligned.row.m16n16k16.bf16") == 1
    body = kernel_body(ptx, "tile_f16")
    assert body.count("wmma.load.a.sync.aligned.col.m16n16k16.f16") == 1
    assert body.count("wmma.mma.sync.aligned.col.row.m16n16k16.f16.f16") == 1
    # The doubling is plain f16x2 arithmetic on the fragment's 4 registers.
    assert len(re.findall(r"\b(?:add|mul)\.rn\.f16x2", body)) == 4
    body = kernel_body(ptx, "tile_tf32")
    assert body.count("wmma.load.c.sync.aligned.row.m16n16k16.f32") == 1
    assert body.count("wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32") == 1


def test_builder_ptx_assembles(ptxas, tmp_path):
    import subprocess
    path = tmp_path / "warp_mma.ptx"
    path.write_text(wm.compile(build_program(), chip="sm_90").ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "warp_mma.cubin")],
                   check=True)


def builder_error(build):
    prog = wm.Program()
    with pytest.raises((TypeError, ValueError)) as info:
        @prog.kernel(gbf=wm.memref(wm.bf16, (16, 16)), g16=wm.memref(wm.f16, (16, 16)),
                     g32=wm.memref(wm.f32, (16, 16)), flat=wm.memref(wm.bf16, (256,)))
        def bad(k, gbf, g16, g32, flat):
            build(k, gbf, g16, g32, flat)
    return str(info.value)


@pytest.mark.parametrize("match, build", [
    ("PTX wmma has no m16n16k16 C fragment of bf16",
     lambda k, gbf, g16, g32, flat: k.mma_load(gbf, (0, 0), "c")),
    ("mma_load of bf16: PTX wmma has only 16x16 bf16 fragments",
     lambda k, gbf, g16, g32, flat: k.mma_load(gbf, (0, 0), "a", shape=(32, 16))),
    ("takes the leading dimension from memref<16x16xbf16>'s row stride; lead_dimension=32",
     lambda k, gbf, g16, g32, flat: k.mma_load(gbf, (0, 0), "a", lead_dimension=32)),
    ("must be a 2-D memref of scalars",
     lambda k, gbf, g16, g32, flat: k.warp_mma_load(flat, (0,), "a")),
    ("PTX wmma has no m16n16k16 multiply of 'bf16' into 'f16'",
     lambda k, gbf, g16, g32, flat: k.warp_mma(k.warp_mma_load(gbf, (0, 0), "a"),
                                               k.warp_mma_load(gbf, (0, 0), "b"),
                                               k.warp_mma_fill(0.0, wm.f16))),
    ("'warp.mma_compute' op failed to verify that all of {a, b} have same type",
     lambda k, gbf, g16, g32, flat: k.warp_mma(k.warp_mma_load(gbf, (0, 0), "a"),
                                               k.warp_mma_load(g16, (0, 0), "b"),
                                               k.warp_mma_fill(0.0))),
    ("PTX wmma has no m16n16k16 C fragment of bf16",
     lambda k, gbf, g16, g32, flat: k.warp_mma_fill(0.0, wm.bf16)),
    ("an MMA layout", lambda k, gbf, g16, g32, flat: k.warp_mma_load(g16, (0, 0), "a",
                                                                      layout="diagonal")),
    ("'warp.mma_store' op value must be 'vector<8xf16>', one lane's m16n16k16 C fragment",
     lambda k, gbf, g16, g32, flat: k.warp_mma_store(k.warp_mma_load(g16, (0, 0), "a"),
                                                     g16, (0, 0))),
])
def test_builder_mistakes(match, build):
    assert match in builder_error(build)


def run(kernel, a, b):
    m, k = a.shape
    n = b.shape[1]
    assert m % 16 == 0 and n % 16 == 0 and k % 16 == 0
    c = np.zeros((m, n), np.float32)
    wm.launch(wm.compile(EXAMPLE.read_text(), chip="sm_80"), kernel, (n // 16, m // 16), 32,
              a, b, c)
    return c


def needs_sm80():
    capability = cuda_compute_capability()
    if capability is None or capability < (8, 0):
        pytest.skip("bf16 and tf32 wmma need sm_80 or newer")


def bf16_inputs(values):
    """(the bf16 array to launch with, its values as f32)."""
    bits = to_bf16_bits(values)
    return bits.view(np.dtype("V2")), bf16_bits_to_f32(bits)


@requires_gpu
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_bf16_against_numpy(m, n, k):
    needs_sm80()
    rng = np.random.default_rng(m * 5 + n * 11 + k)
    # Small integers: exact in bf16, every partial sum exact in f32.
    a, a32 = bf16_inputs(small_integers(rng, (m, k), np.float32))
    b, b32 = bf16_inputs(small_integers(rng, (k, n), np.float32))
    np.testing.assert_array_equal(run("matmul_bf16", a, b),
                                  a32.astype(np.float64) @ b32.astype(np.float64))
    a, a32 = bf16_inputs(rng.standard_normal((m, k)))
    b, b32 = bf16_inputs(rng.standard_normal((k, n)))
    # bf16 x bf16 products are exact in f32; only the f32 accumulation errs.
    exact = a32.astype(np.float64) @ b32.astype(np.float64)
    got = run("matmul_bf16", a, b).astype(np.float64)
    assert np.all(np.abs(got - exact) <= summation_bound(a32, b32, F32_ULP))


@requires_gpu
@pytest.mark.parametrize("kernel, dtype", [("matmul_f16", np.float16),
                                           ("matmul_tf32", np.float32)])
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_f16_and_tf32_against_numpy(kernel, dtype, m, n, k):
    if kernel == "matmul_tf32":
        needs_sm80()
    rng = np.random.default_rng(m * 3 + n * 7 + k + dtype().itemsize)
    # Small integers: exact in f16 and tf32, every partial sum exact in f32.
    a, b = small_integers(rng, (m, k), dtype), small_integers(rng, (k, n), dtype)
    np.testing.assert_array_equal(run(kernel, a, b),
                                  a.astype(np.float64) @ b.astype(np.float64))
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    got = run(kernel, a, b).astype(np.float64)
    if kernel == "matmul_f16":  # f16 products are exact in f32
        bound = summation_bound(a, b, F32_ULP)
    else:  # tf32 rounds the inputs; 8 products per m16n16k8 step
        bound = tf32_round_bound(a, b) + summation_bound(a, b, F32_ULP, step=8)
    assert np.all(np.abs(got - exact) <= bound)


@requires_gpu
@pytest.mark.parametrize("m, n, k", [(32, 48, 64), (64, 16, 16)])
def test_builder_bf16_against_numpy(m, n, k):
    needs_sm80()
    compiled = wm.compile(build_program(), chip="sm_80")
    rng = np.random.default_rng(m + n + k)
    a, a32 = bf16_inputs(small_integers(rng, (m, k), np.float32))
    b, b32 = bf16_inputs(small_integers(rng, (k, n), np.float32))
    c = np.zeros((m, n), np.float32)
    wm.launch(compiled, "matmul_bf16", (n // 16, m // 16), 32, a, b, c, k)
    np.testing.assert_array_equal(c, a32.astype(np.float64) @ b32.astype(np.float64))
