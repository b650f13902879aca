"""The Python examples: they compile everywhere and run against torch/numpy
on a GPU."""
import subprocess

import pytest

import ballot_compaction
import mma_matmul
import softmax
import warp_mlir as wm
from conftest import requires_gpu


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
