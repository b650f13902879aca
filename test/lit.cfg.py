# -*- Python -*-
# lit configuration for the warp regression tests.

import os
import shutil
import subprocess
import tempfile

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "WARP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.warp_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%warp_src_root", config.warp_src_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "CUDA_HOME"])
llvm_config.use_default_substitutions()

config.warp_tools_dir = config.warp_tools_dir
tool_dirs = [config.warp_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["warp-opt", "warp-cuda-runner", "mlir-opt", "not", "split-file"], tool_dirs)
config.substitutions.append(("%python", config.python_executable))


# ptxas: every PTX the suite emits is assembled for its chip where this CUDA
# can target that chip (CUDA 13 dropped sm_70). Features: `ptxas` and one
# `ptxas-sm_NN[a]` per chip this ptxas accepts.
def find_ptxas():
    for root in [os.environ.get("CUDA_HOME"), "/usr/local/cuda"]:
        if root and os.path.exists(os.path.join(root, "bin", "ptxas")):
            return os.path.join(root, "bin", "ptxas")
    return shutil.which("ptxas")


def ptxas_accepts(ptxas, chip):
    ptx = ".version 8.6\n.target %s\n.address_size 64\n" % chip
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        result = subprocess.run([ptxas, "-arch=" + chip, src, "-o",
                                 os.path.join(tmp, "probe.o")],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        return result.returncode == 0


ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    for chip in ["sm_70", "sm_75", "sm_80", "sm_90", "sm_90a", "sm_100a"]:
        if ptxas_accepts(ptxas, chip):
            config.available_features.add("ptxas-" + chip)


# `cuda`: a CUDA driver that loads and at least one device. GPU integration
# tests REQUIRE it and report UNSUPPORTED elsewhere (CI has no GPU).
def cuda_device_present():
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return False
    return count.value > 0


if cuda_device_present():
    config.available_features.add("cuda")

# A C compiler, for the stand-in libcuda.so.1 of the runner's host-path tests.
for cc in ["clang-22", "cc", "gcc"]:
    if shutil.which(cc):
        config.available_features.add("cc")
        config.substitutions.append(("%cc", shutil.which(cc)))
        break
