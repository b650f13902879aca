"""launch(): argument checking (everywhere) and results on the GPU."""
import numpy as np
import pytest

import seed_kernels
import warp_mlir as wm
from conftest import HAS_GPU, requires_gpu


@pytest.fixture(scope="module")
def compiled():
    return wm.compile(seed_kernels.prog, chip="sm_90")


def test_wrong_kernel_arity_dtype_shape(compiled):
    x = np.zeros(64, np.float32)
    with pytest.raises(wm.LaunchError, match="no kernel named 'nope'"):
        wm.launch(compiled, "nope", 1, 32)
    with pytest.raises(wm.LaunchError, match="takes 3 arguments"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x)
    with pytest.raises(wm.LaunchError, match="dtype f8 does not match memref<\\?xf32>"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x.astype(np.float64), x)
    with pytest.raises(wm.LaunchError, match="rank 2 does not match"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x.reshape(2, 32), x)
    with pytest.raises(wm.LaunchError, match="shape \\(2,\\) does not match memref<1xi32>"):
        wm.launch(compiled, "compact_positive", 2, 32, x, x, np.zeros(2, np.int32))
    with pytest.raises(wm.LaunchError, match="expected an array"):
        wm.launch(compiled, "warp_dot", 2, 32, x, 3.0, x)


@pytest.mark.skipif(HAS_GPU, reason="checks the error without a GPU")
def test_no_gpu_is_a_clear_error(compiled):
    x = np.ones(64, np.float32)
    with pytest.raises(wm.CudaError, match="libcuda.so.1"):
        wm.launch(compiled, "warp_dot", 2, 32, x, x, np.zeros(2, np.float32))


@requires_gpu
def test_warp_dot_numpy(compiled):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(4096).astype(np.float32), rng.standard_normal(4096).astype(np.float32)
    out = np.zeros(128, np.float32)
    wm.launch(compiled, "warp_dot", 16, 256, a, b, out)
    np.testing.assert_allclose(out, (a * b).reshape(128, 32).sum(axis=1), rtol=1e-5, atol=1e-5)


@requires_gpu
def test_compaction_numpy(compiled):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(2048).astype(np.float32)
    out, counter = np.zeros(2048, np.float32), np.zeros(1, np.int32)
    wm.launch(compiled, "compact_positive", 8, 256, x, out, counter)
    kept = x[x > 0]
    assert counter[0] == kept.size
    # Warps append in any order; each warp's elements stay in lane order.
    assert sorted(out[:kept.size].tolist()) == sorted(kept.tolist())


@requires_gpu
@pytest.mark.parametrize("block", [32, 129, 159, 180, 1024])
def test_block_sum_ragged_blocks(compiled, block):
    x = np.arange(3 * block, dtype=np.float32) % 17 - 8
    out = np.zeros(3, np.float32)
    wm.launch(compiled, "block_sum", 3, block, x, out)
    np.testing.assert_array_equal(out, x.reshape(3, block).sum(axis=1))


@requires_gpu
def test_torch_tensors_in_place(compiled):
    torch = pytest.importorskip("torch")
    a = torch.randn(1024, device="cuda")
    b = torch.randn(1024, device="cuda")
    out = torch.zeros(32, device="cuda")
    wm.launch(compiled, "warp_dot", 4, 256, a, b, out)
    torch.testing.assert_close(out, (a * b).reshape(32, 32).sum(dim=1), rtol=1e-5, atol=1e-5)
