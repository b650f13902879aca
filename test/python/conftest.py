"""Shared fixtures: the package from the source tree, ptxas and a GPU when
present."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "examples" / "python"))
sys.path.insert(0, str(ROOT / "test"))
from probes import cuda_device_present, find_ptxas  # noqa: E402


PTXAS = find_ptxas()
HAS_GPU = cuda_device_present()
requires_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU")
requires_ptxas = pytest.mark.skipif(PTXAS is None, reason="needs ptxas")


@pytest.fixture
def ptxas():
    if PTXAS is None:
        pytest.skip("needs ptxas")
    return PTXAS
