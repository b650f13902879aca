"""warp_mlir: build, compile and launch warp-collective kernels from Python.

The DSL-frontend path of the warp MLIR dialect: write kernels with the
builder (or as MLIR text), compile them to PTX or cubin for a chip, and
launch them on torch/cupy/numba/numpy arrays. Works under any CPython >= 3.9
through ctypes over the project's C API library (libWarpCAPI.so).
"""
from .builder import (KernelBuilder, Loop, MemRefType, MMAMatrixType, Program, SourceLocation,
                      Type, Value, VectorType, bf16, f16, f32, f64, i1, i8, i16, i32, i64, index,
                      memref, mma_matrix, vector)
from .compiler import ArgType, CompiledModule, compile, kernel_signatures
from . import device, sim
from .tile import Carry, Tile, welford_combine
from .cuda import CudaError, LaunchError, launch, synchronize
from .ir import Context, Diagnostic, MLIRError, MLIRWarning, Module, VerificationError



def __getattr__(name: str):
    # The version is the C API library's (warpGetVersion), whose one source is
    # the project version in the top-level CMakeLists.txt.
    if name == "__version__":
        from . import _capi
        return _capi.lib().warpGetVersion().bytes().decode()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ArgType", "Carry", "CompiledModule", "Context", "CudaError", "Diagnostic", "device",
    "KernelBuilder",
    "LaunchError", "Loop", "MLIRError", "MLIRWarning", "MemRefType", "MMAMatrixType", "Module",
    "Program",
    "SourceLocation", "Type", "Value", "VectorType", "VerificationError", "bf16", "compile",
    "f16", "f32", "f64",
    "i1", "i8", "i16", "i32", "i64", "index", "kernel_signatures", "launch", "memref",
    "mma_matrix",
    "sim", "synchronize", "Tile", "vector", "welford_combine", "__version__",
]
