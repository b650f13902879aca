"""examples/wmma_matmul.mlir (gpu.subgroup_mma_* lowered to PTX wmma) on the
GPU, against numpy within the f32 accumulator's tolerance."""
import pathlib

import numpy as np

import warp_mlir as wm
from conftest import requires_gpu

SOURCE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "wmma_matmul.mlir"


def test_wmma_example_compiles_to_wmma():
    ptx = wm.compile(SOURCE.read_text(), chip="sm_90").ptx
    assert ptx.count("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32") == 2
    assert ptx.count("wmma.store.d.sync") == 1


@requires_gpu
def test_wmma_matmul_against_numpy():
    compiled = wm.compile(SOURCE.read_text(), chip="sm_90")
    rng = np.random.default_rng(16)
    a = rng.standard_normal((64, 32)).astype(np.float16)
    b = rng.standard_normal((32, 48)).astype(np.float16)
    c = np.zeros((64, 48), np.float32)
    wm.launch(compiled, "matmul", (3, 4), 32, a, b, c)
    want = a.astype(np.float32) @ b.astype(np.float32)
    # f16 products are exact in f32; 32 f32 additions in any order.
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-4)
