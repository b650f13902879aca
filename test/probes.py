"""What the test machine has: ptxas and a CUDA device. Shared by the lit
configurations (main suite and GPU bundle) and the pytest suite."""
import ctypes
import os
import shutil
import subprocess
import tempfile


def package_paths(root):
    """Where the tests take the warp_mlir package from: the source tree's
    python/ under `root` (with the library of a build, $WARP_MLIR_LIBRARY), or,
    with WARP_TEST_INSTALLED=1, wherever it is installed (an installed wheel:
    nothing to add to sys.path)."""
    if os.environ.get("WARP_TEST_INSTALLED") == "1":
        return []
    return [os.path.join(str(root), "python")]


def find_ptxas():
    """ptxas under $CUDA_HOME or /usr/local/cuda, else on PATH; or None."""
    for root in [os.environ.get("CUDA_HOME"), "/usr/local/cuda"]:
        if root and os.path.exists(os.path.join(root, "bin", "ptxas")):
            return os.path.join(root, "bin", "ptxas")
    return shutil.which("ptxas")


def find_nvcc():
    """nvcc next to ptxas (see find_ptxas); or None."""
    for root in [os.environ.get("CUDA_HOME"), "/usr/local/cuda"]:
        if root and os.path.exists(os.path.join(root, "bin", "nvcc")):
            return os.path.join(root, "bin", "nvcc")
    return shutil.which("nvcc")


def find_numpy_python(candidates):
    """The first Python interpreter of `candidates` that imports numpy."""
    for python in candidates:
        if python and os.path.exists(python) and subprocess.run(
                [python, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return python
    return None


def ptxas_accepts(ptxas, chip):
    """Whether this ptxas can target `chip` (CUDA 13 dropped sm_70)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.ptx")
        with open(src, "w") as f:
            f.write(".version 8.6\n.target %s\n.address_size 64\n" % chip)
        result = subprocess.run([ptxas, "-arch=" + chip, src, "-o", os.path.join(tmp, "probe.o")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return result.returncode == 0


def cuda_device_present():
    """A CUDA driver that loads and reports at least one device."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return (cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0
            and count.value > 0)


def cuda_compute_capability(ordinal=0):
    """(major, minor) of CUDA device `ordinal`, None without a driver or
    device."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    device = ctypes.c_int(0)
    major, minor = ctypes.c_int(0), ctypes.c_int(0)
    # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, _MINOR = 76.
    if (cuda.cuInit(0) != 0 or cuda.cuDeviceGet(ctypes.byref(device), ordinal) != 0
            or cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, device) != 0
            or cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, device) != 0):
        return None
    return major.value, minor.value
