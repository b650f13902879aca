"""Shared fixtures: the package (from the source tree, or installed with
WARP_TEST_INSTALLED=1), ptxas and a GPU when present."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "python"))
sys.path.insert(0, str(ROOT / "test"))
from probes import cuda_device_present, find_ptxas, package_paths  # noqa: E402
sys.path[:0] = package_paths(ROOT)


PTXAS = find_ptxas()
HAS_GPU = cuda_device_present()
requires_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU")
requires_ptxas = pytest.mark.skipif(PTXAS is None, reason="needs ptxas")


def _simulator_present() -> bool:
    from warp_mlir import sim
    try:
        sim.lib()
    except ImportError:
        return False
    return True


HAS_SIM = _simulator_present()
requires_sim = pytest.mark.skipif(not HAS_SIM, reason="needs libWarpSim (the WarpSim target)")
# Where a launch test runs: the GPU when there is one, the SIMT simulator
# (wm.launch(..., backend="sim")) everywhere; the same expected values.
BACKENDS = [pytest.param("cuda", marks=requires_gpu), pytest.param("sim", marks=requires_sim)]


@pytest.fixture(scope="session", autouse=True)
def _private_compile_cache(tmp_path_factory):
    """Compiled kernels go to a cache of this session, never the user's."""
    import os
    saved = os.environ.get("WARP_MLIR_CACHE_DIR")
    os.environ["WARP_MLIR_CACHE_DIR"] = str(tmp_path_factory.mktemp("compile-cache"))
    yield
    if saved is None:
        del os.environ["WARP_MLIR_CACHE_DIR"]
    else:
        os.environ["WARP_MLIR_CACHE_DIR"] = saved


@pytest.fixture
def ptxas():
    if PTXAS is None:
        pytest.skip("needs ptxas")
    return PTXAS
