"""The Python part of a warp_mlir.device call's host time, without a GPU:
the CUDA driver stubbed out (every call succeeds at once) and device
arrays stood in for by numpy arrays dressed as cupy's (or, with --arrays
dlpack, read through DLPack: a capsule of a CUDA DLTensor a call), so
that what is timed is warp_mlir's own work per call (plan lookup,
argument checks and packing, launch configurations), not the driver's or
an array library's. Prints microseconds per call of a reduce, a scan and a
radix sort of 1024 int32, then a cProfile of the reduces (or of the
calls --profile names). The real host time, with the driver and cupy, is
benchmarks/device_host_profile.py's (GPU host).

    WARP_MLIR_LIBRARY=build/lib/libWarpCAPI.so PYTHONPATH=python \\
        python3 benchmarks/device_host_stub.py [--calls N] [--arrays dlpack] \\
        [--profile radix_sort ...]
"""
import argparse
import cProfile
import ctypes
import pstats
import sys
import time
import types

import numpy as np

import warp_mlir.cuda as cuda


_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
# DLPack's type codes of the numpy kinds the stub arrays take.
_DL_CODES = {"i": 0, "u": 1, "f": 2}


class StubArray:
    """A 1-D device array (on CUDA device 0; numpy memory behind it, which
    nothing reads) as warp_mlir sees a cupy array: by its own attributes
    (`data.ptr`, `flags`, `device`; the stub cupy module below), through
    DLPack (a capsule per call) or the CUDA array interface."""

    def __init__(self, array):
        self._array = array
        self.dtype, self.shape = array.dtype, array.shape
        self.data = types.SimpleNamespace(ptr=array.ctypes.data)
        self.flags = types.SimpleNamespace(c_contiguous=True)
        self.device = types.SimpleNamespace(id=0)
        self._tensor = None

    def __dlpack_device__(self):
        return (cuda.DL_CUDA, 0)

    def __dlpack__(self, stream=None):
        if self._tensor is None:
            self._shape = (ctypes.c_int64 * 1)(self.shape[0])
            self._tensor = cuda.DLTensor(self.data.ptr, cuda._DLDevice(cuda.DL_CUDA, 0), 1,
                                         cuda._DLDataType(_DL_CODES[self.dtype.kind],
                                                          self.dtype.itemsize * 8, 1),
                                         self._shape, None, 0)
        # A capsule without a deleter: the array owns the DLTensor.
        return _new_capsule(ctypes.addressof(self._tensor), b"dltensor", None)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.data.ptr, False),
                "version": 3, "strides": None, "stream": 1}


def stub_cupy():
    """Makes StubArray cupy's ndarray for warp_mlir (cupy's current stream
    the legacy default one), so that its arrays take the cupy path."""
    module = types.ModuleType("cupy")
    module.ndarray = StubArray
    module.cuda = types.SimpleNamespace(
        get_current_stream=lambda: types.SimpleNamespace(ptr=0))
    sys.modules["cupy"] = module


# The array library warp_mlir.device allocates outputs and scratch from
# (the module of the array's type).
stub_library = types.ModuleType("stub_library")
stub_library.empty = lambda shape, dtype: StubArray(np.empty(shape, dtype))
StubArray.__module__ = "stub_library"
sys.modules["stub_library"] = stub_library


class StubDriver:
    """cuda._Driver's interface, every driver call a success that does nothing."""

    class _Lib:
        def __getattr__(self, name):
            return lambda *args: 0

    lib = _Lib()

    def use(self, device):
        return self

    def check(self, result, call):
        pass

    def pointer_device(self, pointer):
        return 0

    def function(self, compiled, name, device):
        return ctypes.c_void_p(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--arrays", choices=["cupy", "dlpack"], default="cupy",
                        help="how warp_mlir reads the stub arrays: as cupy's (default) or "
                             "through DLPack")
    parser.add_argument("--profile", nargs="*", default=["reduce"],
                        choices=["reduce", "scan", "radix_sort"],
                        help="the calls to profile (default: reduce)")
    args = parser.parse_args()
    cuda.driver = lambda device=0: StubDriver()
    if args.arrays == "cupy":
        stub_cupy()
    import warp_mlir.device as wd
    x = StubArray(np.arange(1024, dtype=np.int32))
    total, out = stub_library.empty((1,), "int32"), stub_library.empty((1024,), "int32")
    calls = {"reduce": lambda: wd.reduce(x, out=total), "scan": lambda: wd.scan(x, out=out),
             "radix_sort": lambda: wd.radix_sort(x, out=out)}
    for name, call in calls.items():
        call()  # compiles
        start = time.perf_counter()
        for _ in range(args.calls):
            call()
        print(f"{name}: {(time.perf_counter() - start) / args.calls * 1e6:.1f} us per call "
              f"(Python, driver stubbed)")
    for name in args.profile:
        print(f"== cProfile of {args.calls} calls of {name}")
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.calls):
            calls[name]()
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
