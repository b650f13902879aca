# lit configuration of the GPU bundle (scripts/gpu-bundle.sh): runs the
# runner tests on a GPU host that has no LLVM, with the bundle's own
# warp-cuda-runner (self-contained) and FileCheck.
import ctypes
import os

import lit.formats

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
config.name = "warp-gpu"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(root, "out")
config.environment["PATH"] = os.path.join(root, "bin") + ":" + os.environ.get("PATH", "")
config.environment["LD_LIBRARY_PATH"] = os.path.join(root, "lib")


def cuda_device_present():
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return (cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0
            and count.value > 0)


if cuda_device_present():
    config.available_features.add("cuda")
