"""Shared fixtures: the package from the source tree, ptxas and a GPU when
present."""
import ctypes
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "examples" / "python"))


def _ptxas():
    for base in [os.environ.get("CUDA_HOME"), "/usr/local/cuda"]:
        if base and (Path(base) / "bin" / "ptxas").exists():
            return str(Path(base) / "bin" / "ptxas")
    return shutil.which("ptxas")


def _gpu_present():
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


PTXAS = _ptxas()
HAS_GPU = _gpu_present()
requires_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs a CUDA GPU")
requires_ptxas = pytest.mark.skipif(PTXAS is None, reason="needs ptxas")


@pytest.fixture
def ptxas():
    if PTXAS is None:
        pytest.skip("needs ptxas")
    return PTXAS
