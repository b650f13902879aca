"""The subset of cupy that run_on_gpu.py uses, backed by libWarpSim (the
32-lane SIMT interpreter of PTX, lib/Sim) instead of a GPU:

    import simcupy as cp
    mod = cp.RawModule(path="shuffle.ptx")      # PTX text (nvcc -ptx too)
    fn = mod.get_function("shfl_up_w16_i32")
    fn((1,), (32,), [d_in, d_out, np.int32(3)])  # as cupy: grid, block, args

"Device" arrays are host numpy arrays: asarray/asnumpy copy, as cupy's
transfers do. A kernel parameter that is an ndarray passes its data pointer
and makes the array a buffer the kernel may access; a numpy scalar passes
its bytes (the size must match the .param declaration). Launches that hit
undefined behaviour are recorded in `reports` (and printed); `summary()`
gives the counts for the suite's last line.

The library is found as warp_mlir.sim finds it: $WARP_SIM_LIBRARY, else
build/lib/libWarpSim.so of this checkout. WARP_SIM_SCHEDULE=highest-pc runs
the lanes at the highest PC first (default: lowest), another legal schedule
under independent thread scheduling. WARP_SIM_RACE_CHECK=0 turns off the
simulator's report of shared-memory races between warps.
"""
import contextlib
import ctypes
import os
import struct
import sys

import numpy as np

__all__ = ["RawModule", "asarray", "asnumpy", "zeros", "zeros_like", "full",
           "empty", "empty_like", "ndarray", "undefined_values_allowed",
           "reports", "summary", "SimError"]

ndarray = np.ndarray


class SimError(RuntimeError):
    pass


# The library and its prototypes come from the warp_mlir package of this
# checkout (warp_mlir.sim, the launch(..., backend="sim") of the package).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))), "python"))
from warp_mlir import sim as _sim  # noqa: E402

_Buffer, _Stats = _sim._Buffer, _sim._Stats
_POINTER = struct.Struct("<Q")
_lib = _sim.lib()

_ALLOW_UNDEFINED_STORES = _sim._ALLOW_UNDEFINED_STORES
_SCHEDULE_HIGHEST_PC = _sim._SCHEDULE_HIGHEST_PC
_flags = (_SCHEDULE_HIGHEST_PC if os.environ.get("WARP_SIM_SCHEDULE") == "highest-pc" else 0) | \
    (_sim._NO_RACE_CHECK if os.environ.get("WARP_SIM_RACE_CHECK") == "0" else 0)
_stats = _Stats()
launches = 0
values_read = 0
reports = []


def _take_string(ptr):
    text = ctypes.string_at(ptr).decode()
    _lib.warpSimFree(ptr)
    return text


@contextlib.contextmanager
def undefined_values_allowed():
    """Within this block a kernel may store values PTX leaves undefined
    (a shuffle read from a lane outside the member mask): checks that skip
    such lanes by design use it. They are counted, not reported."""
    global _flags
    saved = _flags
    _flags |= _ALLOW_UNDEFINED_STORES
    try:
        yield
    finally:
        _flags = saved


class RawKernel:
    def __init__(self, module, name):
        self._module = module
        self.name = name
        sizes = (ctypes.c_size_t * 256)()
        n = _lib.warpSimParamSizes(module._handle, name.encode(), sizes, 256)
        if n < 0:
            raise SimError(f"no kernel named {name!r} in {module.path}")
        self.param_sizes = list(sizes[:n])

    def __call__(self, grid, block, args, shared_mem=0):
        global launches
        if len(args) != len(self.param_sizes):
            raise TypeError(f"{self.name}: {len(self.param_sizes)} parameters, got {len(args)}")
        # Every parameter's bytes in one buffer, each passed by its address
        # there (one ctypes object per launch instead of two per parameter).
        raws, buffers = [], []
        for i, (arg, size) in enumerate(zip(args, self.param_sizes)):
            if isinstance(arg, np.ndarray):
                if not arg.flags.c_contiguous:
                    raise TypeError(f"{self.name}: argument {i} is not contiguous")
                address = arg.ctypes.data
                raw = _POINTER.pack(address)
                buffers.append(_Buffer(address, arg.nbytes))
            elif isinstance(arg, np.generic):
                raw = arg.tobytes()
            else:
                raise TypeError(f"{self.name}: argument {i} must be an array or a numpy scalar")
            if len(raw) != size:
                raise TypeError(f"{self.name}: argument {i} has {len(raw)} bytes, the "
                                f".param declares {size}")
            raws.append(raw)
        # Each parameter at an 8-byte aligned offset.
        offsets, packed = [], bytearray()
        for raw in raws:
            offsets.append(len(packed))
            packed += raw + bytes(-len(raw) % 8)
        storage = ctypes.create_string_buffer(bytes(packed), max(1, len(packed)))
        base = ctypes.addressof(storage)
        params = [base + offset for offset in offsets]
        param_array = (ctypes.c_void_p * max(1, len(params)))(*params)
        buf_array = (_Buffer * max(1, len(buffers)))(*buffers)
        dims = lambda d: (ctypes.c_uint * 3)(*(list(d) + [1, 1, 1])[:3])
        launches += 1
        report = _lib.warpSimLaunch(self._module._handle, self.name.encode(), dims(grid),
                                    dims(block), shared_mem, param_array, len(params),
                                    buf_array, len(buffers), _flags, ctypes.byref(_stats))
        if report:
            text = f"{self.name}: {_take_string(report)}"
            reports.append(text)
            print("sim: " + text, file=sys.stderr, flush=True)


class RawModule:
    def __init__(self, code=None, path=None, **_):
        if path is not None:
            with open(path, "rb") as f:
                raw = f.read()
            if raw.startswith(b"\x7fELF"):
                raise SimError(f"{path}: the simulator runs PTX text, not a cubin")
            code = raw.decode()
        self.path = path or "<code>"
        if code is None:
            raise SimError("RawModule needs code or path")
        err = ctypes.c_void_p()
        self._handle = _lib.warpSimLoadPTX(code.encode(), ctypes.byref(err))
        if not self._handle:
            raise SimError(f"{self.path}: {_take_string(err.value)}")
        self._functions = {}

    def get_function(self, name):
        if name not in self._functions:
            self._functions[name] = RawKernel(self, name)
        return self._functions[name]

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle and _lib is not None:  # not at interpreter shutdown
            _lib.warpSimUnload(handle)
            self._handle = None


def asarray(a, dtype=None):
    return np.array(a, dtype=dtype, copy=True, order="C")


def asnumpy(a):
    global values_read
    values_read += np.size(a)
    return np.array(a, copy=True)


def zeros(shape, dtype=float):
    return np.zeros(shape, dtype=dtype)


def zeros_like(a, dtype=None):
    return np.zeros_like(a, dtype=dtype)


def full(shape, fill_value, dtype=None):
    return np.full(shape, fill_value, dtype=dtype)


def empty(shape, dtype=float):
    return np.zeros(shape, dtype=dtype)  # defined contents: a rerun is reproducible


def empty_like(a, dtype=None):
    return np.zeros_like(a, dtype=dtype)


def summary():
    """One line with what the simulator ran."""
    return (f"sim: {launches} launches, {_stats.threads} threads, "
            f"{_stats.laneInstructions} lane instructions, {values_read} lane values read back, "
            f"{_stats.undefinedStores} undefined values stored where allowed, "
            f"{len(reports)} undefined-behaviour reports")
