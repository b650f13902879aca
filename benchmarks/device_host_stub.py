"""The Python part of a warp_mlir.device call's host time, without a GPU:
the CUDA driver stubbed out (every call succeeds at once) and device
arrays stood in for by numpy arrays behind DLPack (a capsule of a CUDA
DLTensor per call, as cupy gives one) and __cuda_array_interface__, so
that what is timed is warp_mlir's own work per call (plan lookup,
argument checks and packing, launch configurations), not the driver's or
an array library's. Prints microseconds per call of a reduce, a scan and a
radix sort of 1024 int32, then a cProfile of the reduces (or of the
calls --profile names). The real host time, with the driver and cupy, is
benchmarks/device_host_profile.py's (GPU host).

    WARP_MLIR_LIBRARY=build/lib/libWarpCAPI.so PYTHONPATH=python \\
        python3 benchmarks/device_host_stub.py [--calls N] [--profile radix_sort ...]
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
    """A 1-D device array as warp_mlir sees one through DLPack (on CUDA
    device 0) or the CUDA array interface (numpy memory behind it; nothing
    reads it)."""

    def __init__(self, array):
        self._array = array
        self.dtype, self.shape = array.dtype, array.shape
        self._shape = (ctypes.c_int64 * 1)(array.shape[0])
        self._tensor = cuda.DLTensor(array.ctypes.data, cuda._DLDevice(cuda.DL_CUDA, 0), 1,
                                     cuda._DLDataType(_DL_CODES[array.dtype.kind],
                                                      array.dtype.itemsize * 8, 1),
                                     self._shape, None, 0)

    def __dlpack_device__(self):
        return (cuda.DL_CUDA, 0)

    def __dlpack__(self, stream=None):
        # A capsule without a deleter: the array owns the DLTensor.
        return _new_capsule(ctypes.addressof(self._tensor), b"dltensor", None)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self._array.ctypes.data, False),
                "version": 3, "strides": None, "stream": 1}


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
    parser.add_argument("--profile", nargs="*", default=["reduce"],
                        choices=["reduce", "scan", "radix_sort"],
                        help="the calls to profile (default: reduce)")
    args = parser.parse_args()
    cuda.driver = lambda device=0: StubDriver()
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
