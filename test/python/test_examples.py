"""The Python examples: they compile everywhere and run against torch/numpy
on a GPU."""
import subprocess

import numpy as np
import pytest

import ballot_compaction
import mma_matmul
import softmax
import warp_mlir as wm
from conftest import HAS_GPU, requires_gpu, requires_sim


def test_softmax_compiles_to_two_warp_reductions(ptxas, tmp_path):
    compiled = wm.compile(softmax.prog, chip="sm_90")
    assert compiled.ptx.count("shfl.sync.bfly.b32") == 10  # max and sum: 5 each
    path = tmp_path / "softmax.ptx"
    path.write_text(compiled.ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "s.o")], check=True)


@requires_gpu
def test_softmax_matches_torch():
    pytest.importorskip("torch")
    softmax.main(512, 1000)


def test_softmax_long_rows_use_block_reductions(ptxas, tmp_path):
    text = str(softmax.prog)
    body = text[text.index("gpu.func @softmax_rows_block"):]
    assert body.count("warp.block_reduce <maxnumf>") == 1
    assert body.count("warp.block_reduce <add>") == 1
    assert "warp.reduce" not in body
    compiled = wm.compile(softmax.prog, chip="sm_90")
    ptx = compiled.ptx[compiled.ptx.index(".entry softmax_rows_block("):]
    ptx = ptx[:ptx.index("\n}")]
    # Each block reduction: a warp stage, barriers, a warp stage over the
    # warps' partials.
    assert ptx.count("bar.sync") >= 4
    assert "shfl.sync" in ptx
    path = tmp_path / "softmax.ptx"
    path.write_text(compiled.ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "s.o")], check=True)


SOFTMAX_SHAPES = [(3, 1025), (64, 4096), (5, 20000), (9, 1000)]


def softmax_reference(x):
    shifted = x.astype(np.float64) - x.max(axis=1, keepdims=True)
    return np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)


def softmax_rtol(cols):
    """Relative error budget in f32 ulps (2^-23): each exponential is off by
    at most 16 (x - max rounded, |x - max| < 16 for these rows, then the
    argument scaling and ex2.approx), the numerator and every term of the
    sum alike: 2 x 16; the sum adds ceil(cols / threads) terms in each
    thread, then a tree of log2(threads) levels; the division 1."""
    threads = softmax.BLOCK if cols > softmax.LONG_ROW else 32
    return (2 * 16 + -(-cols // threads) + np.log2(threads) + 1) * 2.0 ** -23


def simulator_launch(compiled, kernel, grid, block, *args):
    """wm.launch on the SIMT simulator (libWarpSim)."""
    wm.launch(compiled, kernel, grid, block, *args, backend="sim")


@pytest.mark.parametrize("rows, cols", [(3, 1500), (2, 4100), (9, 1000)])
@requires_sim
def test_softmax_on_the_simulator(rows, cols):
    """Both kernels run on the SIMT simulator (test/Sim): the block one's
    barriers and workgroup memory, the warp one's shuffles, against numpy."""
    x = np.random.default_rng(rows * cols).standard_normal((rows, cols)).astype(np.float32)
    y = np.zeros_like(x)
    softmax.softmax(wm.compile(softmax.prog, chip="sm_90"), x, y, launch=simulator_launch)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=softmax_rtol(cols), atol=0)


@requires_gpu
@pytest.mark.parametrize("rows, cols", SOFTMAX_SHAPES)
def test_softmax_against_numpy(rows, cols):
    compiled = wm.compile(softmax.prog, chip="sm_90")
    x = np.random.default_rng(rows + cols).standard_normal((rows, cols)).astype(np.float32)
    y = np.zeros_like(x)
    softmax.softmax(compiled, x, y)
    np.testing.assert_allclose(y, softmax_reference(x), rtol=softmax_rtol(cols), atol=0)


@requires_gpu
def test_ballot_compaction_matches_numpy():
    ballot_compaction.main(1 << 16)


@pytest.mark.parametrize("acc", [wm.f32, wm.f16])
def test_mma_matmul_assembles(ptxas, tmp_path, acc):
    compiled = wm.compile(mma_matmul.build(acc), chip="sm_90")
    assert compiled.ptx.count("wmma.mma.sync") == 1
    path = tmp_path / "mma.ptx"
    path.write_text(compiled.ptx)
    subprocess.run([ptxas, "-arch=sm_90", str(path), "-o", str(tmp_path / "m.o")], check=True)


@requires_gpu
def test_mma_matmul_runs():
    mma_matmul.main(128, 96, 64)


@pytest.mark.skipif(HAS_GPU, reason="checks the run without a GPU")
@requires_sim
def test_examples_run_without_a_gpu(capsys):
    """Each example's main runs on the simulator, or says what it needs."""
    ballot_compaction.main()
    softmax.main()
    mma_matmul.main()
    out = capsys.readouterr().out
    assert "kept " in out and "same multiset as numpy (sim)" in out
    assert "softmax over 16x1000 on the simulator: matches numpy" in out
    assert "not run: the matmul needs a CUDA GPU" in out
