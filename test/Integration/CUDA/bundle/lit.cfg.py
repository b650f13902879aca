# lit configuration of the GPU bundle (scripts/gpu-bundle.sh): runs the
# runner tests on a GPU host that has no LLVM, with the bundle's own
# warp-cuda-runner (self-contained), FileCheck and not.
import os
import sys

import lit.formats

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probes import cuda_device_present  # noqa: E402
config.name = "warp-gpu"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(root, "out")
config.environment["PATH"] = os.path.join(root, "bin") + ":" + os.environ.get("PATH", "")
config.environment["LD_LIBRARY_PATH"] = os.path.join(root, "lib")


if cuda_device_present():
    config.available_features.add("cuda")
