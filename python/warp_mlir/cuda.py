"""Launch compiled kernels on the GPU through the CUDA driver (ctypes).

Arguments are arrays exposing `__cuda_array_interface__` (torch, cupy,
numba: used in place) or numpy arrays (copied to the device and back), and
Python numbers for scalar parameters. Each argument is checked against the
kernel's parameter list, and the grid and block against CUDA's limits,
before anything runs (no GPU needed for the checks).
"""
from __future__ import annotations

import ctypes
from collections import abc
from typing import Any, List, Sequence, Tuple, Union

from . import _checks
from .compiler import ArgType, CompiledModule

_NUMPY_CODES = {"f16": "f2", "bf16": "V2", "f32": "f4", "f64": "f8", "i8": "i1", "i16": "i2",
                "i32": "i4", "i64": "i8", "index": "i8", "i1": "b1"}
_SCALARS = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
            "i32": ctypes.c_int32, "i64": ctypes.c_int64, "index": ctypes.c_int64,
            "f32": ctypes.c_float, "f64": ctypes.c_double}


# CUDA's limits: grid x < 2**31, y and z < 2**16; block x, y <= 1024,
# z <= 64, and at most 1024 threads in all.
GRID_LIMITS = ((1 << 31) - 1, 65535, 65535)
BLOCK_LIMITS = (1024, 1024, 64)
MAX_BLOCK_THREADS = 1024


class CudaError(RuntimeError):
    """A failing CUDA driver call: which call, CUDA's error name and text."""


class LaunchError(TypeError):
    """Arguments that do not match the kernel's parameters."""


class _Driver:
    def __init__(self) -> None:
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError as error:
            raise CudaError(f"cannot load libcuda.so.1 (no NVIDIA driver?): {error}") from None
        self.check(self.lib.cuInit(0), "cuInit")
        count = ctypes.c_int()
        self.check(self.lib.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
        if count.value == 0:
            raise CudaError("no CUDA device found")
        self.context = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.context), 0),
                   "cuDevicePrimaryCtxRetain")
        self.modules = {}

    def check(self, result: int, call: str) -> None:
        if result != 0:
            name, text = ctypes.c_char_p(), ctypes.c_char_p()
            self.lib.cuGetErrorName(result, ctypes.byref(name))
            self.lib.cuGetErrorString(result, ctypes.byref(text))
            raise CudaError(f"{call} failed: {(name.value or b'?').decode()} ({result}): "
                            f"{(text.value or b'?').decode()}")

    def current(self) -> "_Driver":
        self.check(self.lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        return self

    def function(self, compiled: CompiledModule, name: str) -> ctypes.c_void_p:
        key = id(compiled)
        if key not in self.modules:
            module = ctypes.c_void_p()
            image = compiled.binary + (b"\0" if compiled.format == "ptx" else b"")
            self.check(self.lib.cuModuleLoadData(ctypes.byref(module), image), "cuModuleLoadData")
            self.modules[key] = (compiled, module)
        function = ctypes.c_void_p()
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(function), self.modules[key][1],
                                                name.encode()), f"cuModuleGetFunction({name})")
        return function


_driver = None


def driver() -> _Driver:
    global _driver
    if _driver is None:
        _driver = _Driver()
    return _driver.current()


def _interface(array: Any) -> Union[dict, None]:
    return getattr(array, "__cuda_array_interface__", None)


def _check_array(position: int, array: Any, param: ArgType) -> Tuple[Tuple[int, ...], str]:
    """Shape and numpy type code of an array argument, checked against a
    memref parameter."""
    iface = _interface(array)
    if iface is not None:
        shape, typestr, strides = tuple(iface["shape"]), iface["typestr"], iface.get("strides")
        itemsize = int(typestr[2:])
        contiguous = strides is None or all(
            s == itemsize * _prod(shape[i + 1:]) for i, s in enumerate(strides))
    elif hasattr(array, "__array_interface__"):
        shape, typestr = tuple(array.shape), array.dtype.str
        contiguous = array.flags["C_CONTIGUOUS"]
    else:
        raise LaunchError(f"argument {position}: expected an array for {param}, "
                          f"got {type(array).__name__}")
    want = _NUMPY_CODES.get(param.element)
    if want is None or typestr[1:] != want:
        raise LaunchError(f"argument {position}: dtype {typestr[1:]} does not match {param} "
                          f"(needs {want})")
    if len(shape) != len(param.shape):
        raise LaunchError(f"argument {position}: rank {len(shape)} does not match {param}")
    for got, need in zip(shape, param.shape):
        if need >= 0 and got != need:
            raise LaunchError(f"argument {position}: shape {shape} does not match {param}")
    if not contiguous:
        raise LaunchError(f"argument {position}: only contiguous arrays are supported")
    return shape, typestr


def _prod(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


def _dims(value: Any, what: str, limits: Tuple[int, int, int]) -> Tuple[int, int, int]:
    """An int or 1 to 3 ints, each in 1..its limit, as three ints."""
    is_sequence = isinstance(value, abc.Sequence) and not isinstance(value, (str, bytes))
    entries = list(value) if is_sequence else [value]
    if not 1 <= len(entries) <= 3:
        raise ValueError(f"{what} must have 1 to 3 entries (x, y, z), got {len(entries)}: {value!r}")
    dims = [_checks.integer(d, f"{what} {axis}", 1, limit, kind_error=ValueError)
            for d, axis, limit in zip(entries, "xyz", limits)]
    return tuple(dims + [1] * (3 - len(dims)))


def launch_config(grid: Union[int, Sequence[int]], block: Union[int, Sequence[int]],
                  shared_bytes: int = 0) -> Tuple[Tuple[int, int, int], Tuple[int, int, int]]:
    """The (x, y, z) grid and block of a launch, checked against CUDA's
    limits: 1 to 3 positive ints each, grid x < 2**31 and y, z < 65536,
    block x, y <= 1024, z <= 64 and x*y*z <= 1024 threads; shared_bytes an
    int >= 0. Raises ValueError otherwise; needs no GPU."""
    grid3 = _dims(grid, "grid", GRID_LIMITS)
    block3 = _dims(block, "block", BLOCK_LIMITS)
    if _prod(block3) > MAX_BLOCK_THREADS:
        raise ValueError(f"block {block!r} has {_prod(block3)} threads; CUDA allows at most "
                         f"{MAX_BLOCK_THREADS}")
    _checks.integer(shared_bytes, "shared_bytes", 0, (1 << 32) - 1, kind_error=ValueError)
    return grid3, block3


def _scalar(position: int, value: Any, param: ArgType) -> Any:
    """The ctypes word of a scalar argument, checked against its type:
    LaunchError for the wrong kind of number, ValueError out of range."""
    element = param.element
    if element not in _SCALARS:
        raise LaunchError(f"argument {position}: scalar parameters of type {element} are not "
                          f"supported")
    what = f"argument {position} ({param})"
    if element == "i1":
        if not (isinstance(value, bool) or type(value) is int and value in (0, 1)):
            raise LaunchError(f"{what}: expected a bool, got {value!r}")
        return ctypes.c_bool(bool(value))
    if element.startswith("f"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise LaunchError(f"{what}: expected a Python number, got {type(value).__name__}")
        _checks.float_bits(value, element)  # ValueError when it overflows the type
        return _SCALARS[element](float(value))
    low, high = _checks.int_range(element)
    value = _checks.integer(value, what, low, high, kind_error=LaunchError)
    return _SCALARS[element](value)  # an unsigned-range value wraps to the signed one


def launch(compiled: CompiledModule, kernel: str, grid: Union[int, Sequence[int]],
           block: Union[int, Sequence[int]], *args: Any, shared_bytes: int = 0) -> None:
    """Runs `kernel` of `compiled` on the GPU and waits for it. numpy arrays
    are copied in and back out; device arrays are used in place. Everything
    is checked before the GPU is touched: LaunchError (a TypeError) for
    arguments that do not match the kernel's parameters, ValueError for a
    grid, block or shared_bytes outside CUDA's limits (see launch_config)
    and for scalars out of their type's range."""
    if not isinstance(compiled, CompiledModule):
        raise TypeError(f"launch takes a CompiledModule (from compile), not "
                        f"{type(compiled).__name__}")
    if not isinstance(kernel, str) or kernel not in compiled.kernels:
        raise LaunchError(f"no kernel named {kernel!r}; the module has "
                          f"{sorted(compiled.kernels)}")
    params = compiled.kernels[kernel]
    if len(args) != len(params):
        raise LaunchError(f"{kernel} takes {len(params)} arguments "
                          f"({', '.join(map(str, params))}), got {len(args)}")
    grid, block = launch_config(grid, block, shared_bytes)
    shapes = [_check_array(i, a, p) if p.is_memref else None for i, (a, p) in enumerate(zip(args, params))]
    scalars = [None if p.is_memref else _scalar(i, a, p)
               for i, (a, p) in enumerate(zip(args, params))]

    cuda = driver()
    L = cuda.lib
    words: List[Any] = []        # keeps every ctypes parameter alive
    copies: List[Tuple[Any, int, int]] = []
    allocations: List[int] = []
    try:
        for array, param, shape, scalar in zip(args, params, shapes, scalars):
            if not param.is_memref:
                words.append(scalar)
                continue
            shape, _ = shape
            iface = _interface(array)
            if iface is not None:
                pointer = iface["data"][0]
            else:
                nbytes = array.nbytes
                device = ctypes.c_uint64()
                cuda.check(L.cuMemAlloc_v2(ctypes.byref(device), ctypes.c_size_t(max(nbytes, 1))), "cuMemAlloc")
                allocations.append(device.value)
                cuda.check(L.cuMemcpyHtoD_v2(device, array.ctypes.data_as(ctypes.c_void_p),
                                             ctypes.c_size_t(nbytes)), "cuMemcpyHtoD")
                copies.append((array, device.value, nbytes))
                pointer = device.value
            strides = [_prod(shape[i + 1:]) for i in range(len(shape))]
            words += [ctypes.c_void_p(pointer), ctypes.c_void_p(pointer), ctypes.c_int64(0)]
            words += [ctypes.c_int64(d) for d in shape] + [ctypes.c_int64(s) for s in strides]
        params_array = (ctypes.c_void_p * len(words))(*[ctypes.cast(ctypes.byref(w), ctypes.c_void_p)
                                                         for w in words])
        function = cuda.function(compiled, kernel)
        cuda.check(L.cuLaunchKernel(function, *map(ctypes.c_uint, grid), *map(ctypes.c_uint, block),
                                    ctypes.c_uint(shared_bytes), None, params_array, None),
                   f"cuLaunchKernel({kernel})")
        cuda.check(L.cuCtxSynchronize(), f"cuCtxSynchronize after {kernel}")
        for array, device, nbytes in copies:
            cuda.check(L.cuMemcpyDtoH_v2(array.ctypes.data_as(ctypes.c_void_p),
                                         ctypes.c_uint64(device), ctypes.c_size_t(nbytes)), "cuMemcpyDtoH")
    finally:
        for device in allocations:
            L.cuMemFree_v2(ctypes.c_uint64(device))
