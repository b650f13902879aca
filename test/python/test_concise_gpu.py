"""The Triton and CUDA versions of the concise kernels
(examples/python/concise/) on the GPU, against the same numpy references as
the warp_mlir versions (test_concise.py), so the line-count table
(docs/results/concision.md) compares kernels that all work. Skipped without
a CUDA GPU, torch and triton (the Triton kernels) or cupy (the .cu kernels,
compiled with nvcc through cupy.RawModule). Needs no warp_mlir library.

    python3 -m pytest -q test/python/test_concise_gpu.py
"""
import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
CONCISE = ROOT / "examples" / "python" / "concise"
sys.path.insert(0, str(CONCISE))
import concise_reference as ref  # noqa: E402


def _available(module: str) -> bool:
    try:
        importlib.import_module(module)
    except Exception:
        return False
    return True


HAS_TORCH_GPU = _available("torch") and __import__("torch").cuda.is_available()
requires_triton = pytest.mark.skipif(not (HAS_TORCH_GPU and _available("triton")),
                                     reason="needs torch with a CUDA GPU and triton")
requires_cupy = pytest.mark.skipif(not _available("cupy"), reason="needs cupy and a CUDA GPU")
RAGGED = [1, 5, 31, 32, 33, 77, 1000]
BLOCK = 256


# -- the cases: (arguments, expected, how to compare) ---------------------------
def _close(rtol, atol):
    return lambda got, want: np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def _equal(got, want):
    assert (got == want).all(), (got, want)


def cases(name):
    """(args, expected, check) per case of kernel `name`, as run() takes them."""
    if name == "softmax":
        for n in RAGGED:
            x = ref.rows(3, n, seed=n)
            yield (x,), ref.softmax(x), _close(1e-5, 1e-6)
    elif name == "argmax":  # ties, no NaN: Triton leaves NaN unspecified
        for n in RAGGED:
            for ties in (False, True):
                x = ref.rows(4, n, seed=n, ties=ties)
                yield (x,), ref.argmax(x), _equal
    elif name == "layernorm":
        for n in RAGGED:
            rng = np.random.default_rng(n)
            x = (ref.rows(3, n, seed=n) * 3 + 1).astype(np.float32)
            w, b = rng.standard_normal((2, n)).astype(np.float32)
            yield (x, w, b, 1e-5), ref.layernorm(x, w, b, 1e-5), _close(1e-4, 1e-4)
    elif name == "block_sum":
        for n in (1, 31, 255, 256, 257, 700):
            x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
            yield (x,), ref.block_sum(x, BLOCK), _close(1e-5, 1e-4)
    elif name == "histogram":
        for n, bins in ((0, 3), (1, 1), (33, 7), (1000, 64), (777, 1)):
            x = np.random.default_rng(n).integers(0, bins, n).astype(np.int32)
            yield (x, bins), ref.histogram(x, bins), _equal
    elif name == "segment_sum":
        for n, segments in ((1, 3), (31, 4), (100, 1), (600, 40), (513, 600)):
            x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
            seg = ref.sorted_segments(n, segments, seed=n)
            yield (x, seg, segments), ref.segment_sum(x, seg, segments), _close(1e-5, 1e-4)


NAMES = ["softmax", "argmax", "layernorm", "block_sum", "histogram", "segment_sum"]


@requires_triton
@pytest.mark.parametrize("name", NAMES)
def test_triton_kernel(name):
    module = importlib.import_module(f"{name}_triton")
    for args, expected, check in cases(name):
        check(module.run(*args), expected)


# -- the .cu kernels, through cupy ------------------------------------------------------
def _cuda_run(name, args):
    """Launches the .cu kernel `name` as the warp_mlir version is launched:
    a warp per row (32 threads a block, a block per row) for the row
    kernels, BLOCK threads a block over the elements for the others."""
    import cupy as cp
    module = cp.RawModule(code=(CONCISE / f"{name}.cu").read_text(), backend="nvcc",
                          options=("-std=c++17",))
    kernel = module.get_function(name)
    if name in ("softmax", "argmax", "layernorm"):
        x = cp.asarray(args[0])
        rows, n = x.shape
        if name == "softmax":
            y = cp.zeros_like(x)
            kernel((rows,), (32,), (x, y, np.int32(n)))
        elif name == "argmax":
            y = cp.zeros(rows, cp.int32)
            kernel((rows,), (32,), (x, y, np.int32(n)))
        else:
            w, b, y = cp.asarray(args[1]), cp.asarray(args[2]), cp.zeros_like(x)
            kernel((rows,), (32,), (x, w, b, y, np.int32(n), np.float32(args[3])))
        return cp.asnumpy(y)
    x = cp.asarray(args[0])
    grid = (max(1, -(-x.size // BLOCK)),)
    if name == "block_sum":
        out = cp.zeros(-(-x.size // BLOCK), cp.float32)
        kernel(grid, (BLOCK,), (x, out, np.int32(x.size)))
    elif name == "histogram":
        out = cp.zeros(args[1], cp.int32)
        kernel(grid, (BLOCK,), (x, out, np.int32(x.size)))
    else:
        out = cp.zeros(args[2], cp.float32)
        kernel(grid, (BLOCK,), (x, cp.asarray(args[1]), out, np.int32(x.size)))
    return cp.asnumpy(out)


@requires_cupy
@pytest.mark.parametrize("name", NAMES)
def test_cuda_kernel(name):
    import cupy as cp
    if cp.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("needs a CUDA GPU")
    for args, expected, check in cases(name):
        check(_cuda_run(name, args), expected)
