# -*- Python -*-
# lit configuration for the warp regression tests.

import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "WARP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
# A clean build directory has no timings of its own yet; lit then takes
# test/.lit_test_times.txt (seconds per test, the long ones only), so the
# long tests start first instead of in name order, last, on one worker.
config.excludes = ["Inputs", "consumer", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
sys.path.insert(0, config.test_source_root)
from probes import (cuda_device_present, find_numpy_python, find_nvcc, find_ptxas,  # noqa: E402
                    ptxas_accepts)
config.test_exec_root = os.path.join(config.warp_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%warp_src_root", config.warp_src_root))
config.substitutions.append(("%warp_obj_root", config.warp_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "CUDA_HOME"])
llvm_config.use_default_substitutions()

tool_dirs = [config.warp_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["warp-opt", "warp-cuda-runner", "warp-sim", "mlir-opt", "mlir-translate", "not", "split-file"], tool_dirs)
# A sanitized build (scripts/sanitized-build.sh, LLVM_USE_SANITIZER): Python
# processes that load its libraries (ctypes: the C API, libWarpSim) get the
# ASan runtime preloaded, as scripts/sanitize.sh does for pytest. Feature
# `sanitized`: tests that link against an install of it are unsupported.
# Feature `static-warp-opt`: warp-opt has LLVM and MLIR linked in
# (WARP_SELF_CONTAINED, tools/warp-opt/CMakeLists.txt).
if config.warp_self_contained.upper() in ("ON", "TRUE", "1", "YES"):
    config.available_features.add("static-warp-opt")
python_prefix = ""
if config.warp_sanitizer:
    import subprocess
    config.available_features.add("sanitized")
    asan_runtime = subprocess.check_output(
        ["clang-22", "-print-file-name=libclang_rt.asan-x86_64.so"], text=True).strip()
    python_prefix = (f"env LD_PRELOAD={asan_runtime} "
                     "ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0:abort_on_error=1 ")
config.substitutions.append(("%python", python_prefix + config.python_executable))


# ptxas: every PTX the suite emits is assembled for its chip where this CUDA
# can target that chip. Features: `ptxas` and one `ptxas-sm_NN[a]` per chip.
ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    # %ptxas-accepts: for tests that only check that ptxas accepts the PTX
    # (every module of a matrix), not the SASS it makes: -O0 still parses,
    # checks and assembles the whole module for the chip, in about half the
    # time on the GPU suite's kernels. Ahead of %ptxas, its prefix.
    config.substitutions.append(("%ptxas-accepts", ptxas + " -O0"))
    for chip in ["sm_70", "sm_75", "sm_80", "sm_89", "sm_90", "sm_90a", "sm_100a"]:
        if ptxas_accepts(ptxas, chip):
            config.available_features.add("ptxas-" + chip)
    # %ptxas-sm70 (feature `ptxas-sm70-ptx`): assembles PTX made for sm_70,
    # for the chip %ptxas-sm70-chip. CUDA 13's ptxas no longer targets
    # sm_70, but a chip accepts the PTX of any older target, so there it
    # assembles for sm_75: the instructions sm_70's lowering chooses are all
    # checked, only the SASS differs.
    for chip in ["sm_70", "sm_75"]:
        if "ptxas-" + chip in config.available_features:
            config.available_features.add("ptxas-sm70-ptx")
            config.substitutions.append(("%ptxas-sm70-chip", chip))
            config.substitutions.append(("%ptxas-sm70", ptxas + " -arch=" + chip))
            break
    config.substitutions.append(("%ptxas", ptxas))


# The SIMT simulator's runs of the GPU suite (test/Sim) need a Python with
# numpy (`numpy`, %numpy_python) and, for the nvcc oracles, nvcc (`nvcc`,
# whose directory joins PATH).
numpy_python = find_numpy_python([config.python_executable, "/usr/bin/python3",
                                  shutil.which("python3")])
if numpy_python:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy_python", python_prefix + numpy_python))
nvcc = find_nvcc()
if nvcc:
    config.available_features.add("nvcc")
    llvm_config.with_environment("PATH", os.path.dirname(nvcc), append_path=True)
config.environment["WARP_SIM_LIBRARY"] = os.path.join(config.warp_obj_root, "lib",
                                                      "libWarpSim.so")

# `cuda`: a CUDA driver that loads and at least one device. GPU integration
# tests REQUIRE it and report UNSUPPORTED elsewhere (CI has no GPU).
if cuda_device_present():
    config.available_features.add("cuda")

# A C compiler, for the stand-in libcuda.so.1 of the runner's host-path tests.
for cc in ["clang-22", "cc", "gcc"]:
    if shutil.which(cc):
        config.available_features.add("cc")
        config.substitutions.append(("%cc", shutil.which(cc)))
        break
