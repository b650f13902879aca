"""Which package the suite exercises. With WARP_TEST_INSTALLED=1 (the wheel
jobs: scripts/test.sh and the GPU bundle's run.sh install the wheel into a
fresh virtual environment) it must be the installed one with the library
inside it, so those jobs cannot silently test the source tree; otherwise the
source tree's."""
import os
from pathlib import Path

import pytest

import warp_mlir
from warp_mlir import _capi, sim

ROOT = Path(__file__).resolve().parents[2]
INSTALLED = os.environ.get("WARP_TEST_INSTALLED") == "1"


def test_package_origin():
    package = Path(warp_mlir.__file__).resolve().parent
    _capi.lib()
    library = Path(_capi.lib_path).resolve()
    if INSTALLED:
        assert "site-packages" in package.parts, package
        assert package != ROOT / "python" / "warp_mlir", package
        assert library == package / "_lib" / "libWarpCAPI.so"
        assert sim.library_candidates()[0] == package / "_lib" / "libWarpSim.so"
        assert (package / "_lib" / "libWarpSim.so").exists()
        assert not os.environ.get("WARP_MLIR_LIBRARY")
    else:
        assert package == ROOT / "python" / "warp_mlir"


@pytest.mark.skipif(not INSTALLED, reason="checks an installed wheel")
def test_installed_wheel_metadata():
    """The wheel says what it holds: a platform library (not py3-none-any),
    and the installed files are the wheel's (RECORD lists the library)."""
    dist_info = next(Path(warp_mlir.__file__).resolve().parents[1].glob("warp_mlir-*.dist-info"))
    wheel = (dist_info / "WHEEL").read_text()
    assert "Root-Is-Purelib: false" in wheel
    tags = [line.split(": ", 1)[1] for line in wheel.splitlines() if line.startswith("Tag: ")]
    assert tags and all(t.startswith("py3-none-manylinux_2_") and t.endswith("_x86_64")
                        for t in tags), tags
    record = (dist_info / "RECORD").read_text()
    assert "warp_mlir/_lib/libWarpCAPI.so" in record
    assert "warp_mlir/_lib/libWarpSim.so" in record
    # Self-contained: the library needs no LLVM/MLIR shared library.
    needed = Path(_capi.lib_path).read_bytes()
    assert b"libMLIR.so" not in needed and b"libLLVM.so" not in needed
    # The simulator needs no C++ runtime of the machine either.
    simulator = Path(_capi.lib_path).parent / "libWarpSim.so"
    assert b"libstdc++.so" not in simulator.read_bytes(), simulator
