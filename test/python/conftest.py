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
# The simulator alone: for tests that watch which kernels it launches.
SIM = [pytest.param("sim", marks=requires_sim)]


@pytest.fixture
def device_launches(monkeypatch):
    """The (kernel, grid) of each simulator launch warp_mlir.device makes
    during the test, in order (the launches still run)."""
    import warp_mlir.device as wd
    launched = []
    run = wd.launch

    def spy(compiled, kernel, grid, threads, *args, **kwargs):
        launched.append((kernel, grid))
        return run(compiled, kernel, grid, threads, *args, **kwargs)
    monkeypatch.setattr(wd, "launch", spy)
    return launched


@pytest.fixture(scope="session", autouse=True)
def _private_compile_cache(tmp_path_factory):
    """Compiled kernels go to a cache of this session, never the user's:
    one for all of pytest-xdist's workers (the directory above each
    worker's own), which then compile each kernel once between them (the
    cache renames finished entries into place, so they share it safely)."""
    import os
    saved = os.environ.get("WARP_MLIR_CACHE_DIR")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "compile-cache"
        shared.mkdir(exist_ok=True)
        os.environ["WARP_MLIR_CACHE_DIR"] = str(shared)
    else:
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


def pytest_collection_modifyitems(config, items):
    """WARP_TEST_SAMPLE=N keeps one in N of the test cases (chosen by a hash
    of the test id, the same on every run), and every case of
    test_package.py. The test command's second pass, over the installed
    wheel, uses it: the tree's pass ran every case against the same
    sources; the wheel's pass proves the installed package and its
    self-contained library, which every file's sample does as well."""
    import os
    import zlib
    every = int(os.environ.get("WARP_TEST_SAMPLE", "1") or 1)
    if every <= 1:
        return
    keep, drop = [], []
    for item in items:
        always = item.nodeid.split("::")[0].endswith("test_package.py")
        if always or zlib.crc32(item.nodeid.encode()) % every == 0:
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
