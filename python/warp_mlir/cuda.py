"""Launch compiled kernels on the GPU through the CUDA driver (ctypes).

Array arguments are taken, in this order of preference, through DLPack
(`__dlpack__`/`__dlpack_device__`: torch, cupy, JAX, numpy >= 1.22), the
`__cuda_array_interface__` (numba, cupy, torch) or numpy's array interface;
a CUDA torch tensor or a cupy array whose library queues its work on the
launch's stream is read from its own attributes instead (what DLPack would
give there, without its cost).
Device arrays are used in place; host arrays (numpy, CPU tensors) are copied
to the device and back. Python numbers go to scalar parameters. Each
argument is checked against the kernel's parameter list, and the grid and
block against CUDA's limits, before anything runs (no GPU needed for the
checks: `marshal_arguments` and `pack_parameters` are the two halves of that
work, usable without a GPU).

`launch(..., stream=None, device=None, sync=True)`: the CUDA stream (an int
handle, or a torch/cupy/numba stream object), the device ordinal (default:
the device the arrays live on, else 0) and whether to wait for the kernel.
With `sync=False` the call returns once the kernel is queued; `synchronize()`
waits (and reports errors the kernel raised).
"""
from __future__ import annotations

import ctypes
import operator
import struct
import sys
import threading
from collections import abc
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _checks
from .compiler import ArgType, CompiledModule

# The numpy type code each element type takes (bf16: a 2-byte void, as
# ml_dtypes spells it; fp8: the bytes as uint8).
_NUMPY_CODES = {"f16": "f2", "bf16": "V2", "f32": "f4", "f64": "f8", "i8": "i1", "i16": "i2",
                "i32": "i4", "i64": "i8", "index": "i8", "i1": "b1", "f8E4M3FN": "u1",
                "f8E5M2": "u1"}
# The names users know the codes by (numpy's and torch's dtype names).
_DTYPE_NAMES = {"f2": "float16", "V2": "bfloat16 (2 bytes)", "f4": "float32", "f8": "float64",
                "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "b1": "bool",
                "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
                "c8": "complex64", "c16": "complex128"}
# Each scalar parameter type's ctypes word and struct code (standard sizes).
_SCALAR_WORDS = {"i1": (ctypes.c_bool, "?"), "i8": (ctypes.c_int8, "b"),
                 "i16": (ctypes.c_int16, "h"), "i32": (ctypes.c_int32, "i"),
                 "i64": (ctypes.c_int64, "q"), "index": (ctypes.c_int64, "q"),
                 "f32": (ctypes.c_float, "f"), "f64": (ctypes.c_double, "d")}
_SCALARS = {element: word for element, (word, _) in _SCALAR_WORDS.items()}


# CUDA's limits: grid x < 2**31, y and z < 2**16; block x, y <= 1024,
# z <= 64, and at most 1024 threads in all.
GRID_LIMITS = ((1 << 31) - 1, 65535, 65535)
BLOCK_LIMITS = (1024, 1024, 64)
MAX_BLOCK_THREADS = 1024

# DLPack device types (dlpack.h).
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13
_DL_DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal",
                    10: "rocm", 13: "cuda_managed", 14: "oneapi"}
# DLPack type codes and bits -> numpy type codes.
_DL_TYPES = {(0, 8): "i1", (0, 16): "i2", (0, 32): "i4", (0, 64): "i8",
             (1, 8): "u1", (1, 16): "u2", (1, 32): "u4", (1, 64): "u8",
             (2, 16): "f2", (2, 32): "f4", (2, 64): "f8", (4, 16): "V2", (6, 8): "b1"}
# Host memory, copied in and out: CPU and pinned (page-locked) CPU memory.
_DL_HOST = (DL_CPU, DL_CUDA_HOST)
_DL_READABLE = frozenset((DL_CUDA, DL_CUDA_MANAGED) + _DL_HOST)
_CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9


class CudaError(RuntimeError):
    """A failing CUDA driver call: which call, CUDA's error name and text."""


class LaunchError(TypeError):
    """Arguments that do not match the kernel's parameters."""


# -- DLPack ------------------------------------------------------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    """dlpack.h's DLTensor (the head of DLManagedTensor)."""
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object,
                                                                        ctypes.c_char_p]


def _dlpack_stream(stream: int) -> int:
    """The `stream` argument of __dlpack__ for a launch on `stream`: DLPack
    spells CUDA's legacy default stream 1 (0 is ambiguous there)."""
    return 1 if stream == 0 else stream


# DLTensor's fields up to byte_offset, as laid out in memory: data, device
# (type, id), ndim, dtype (code, bits, lanes), shape, strides, byte_offset.
_DLTENSOR_FIELDS = struct.Struct("=QiiiBBHQQQ")
_INT64S: Dict[int, struct.Struct] = {}


def _int64s(address: int, count: int) -> Tuple[int, ...]:
    """`count` int64 at `address`."""
    if count not in _INT64S:
        _INT64S[count] = struct.Struct(f"={count}q")
    return _INT64S[count].unpack(ctypes.string_at(address, 8 * count))


def _dlpack_tensor(position: int, array: Any, stream: Optional[int]) -> Tuple[tuple, Any]:
    """The fields of `array`'s DLTensor (_DLTENSOR_FIELDS, read at once) and
    the capsule that owns it (dropping the capsule, unconsumed, lets the
    producer free its side). `stream`: the launch's stream for a device
    array (the producer orders its work before it), None for host memory
    (DLPack takes no stream there)."""
    if stream is None:
        capsule = array.__dlpack__()
    else:
        try:
            capsule = array.__dlpack__(stream=_dlpack_stream(stream))
        except TypeError:  # a producer without the stream keyword
            capsule = array.__dlpack__()
    try:
        address = _capsule_pointer(capsule, b"dltensor")
    except (ValueError, TypeError):  # not a capsule, or one of another name
        address = None
    if not address:
        raise LaunchError(f"argument {position}: __dlpack__ did not return a 'dltensor' capsule")
    return _DLTENSOR_FIELDS.unpack(ctypes.string_at(address, _DLTENSOR_FIELDS.size)), capsule


# -- arguments, checked without a GPU -------------------------------------------

@dataclass
class ArrayArgument:
    """An array argument, checked against its memref parameter. `pointer`
    is the device address (None for a host array until it is copied);
    `host` the (address, bytes) of a host array; `device` the CUDA device
    ordinal it lives on when the array says so; `source` how it came
    ("dlpack", "cuda_array_interface", "numpy", or "torch" and "cupy" for
    their arrays read from their own attributes)."""
    position: int
    shape: Tuple[int, ...]
    pointer: Optional[int] = None
    host: Optional[Tuple[int, int]] = None
    writable: bool = True
    device: Optional[int] = None
    source: str = ""
    keep: Any = None  # keeps a DLPack capsule alive while the pointer is used

    @property
    def strides(self) -> List[int]:
        """Row-major strides in elements."""
        if len(self.shape) == 1:
            return [1]
        return [_prod(self.shape[i + 1:]) for i in range(len(self.shape))]


def _check_layout(position: int, param: ArgType, shape: Tuple[int, ...], code: str,
                  contiguous: bool) -> None:
    want = _NUMPY_CODES.get(param.element)
    if want is None or code != want:
        raise LaunchError(f"argument {position}: dtype {_DTYPE_NAMES.get(code, code)} does "
                          f"not match {param} (needs {_DTYPE_NAMES.get(want, want)})")
    if len(shape) != len(param.shape):
        raise LaunchError(f"argument {position}: rank {len(shape)} does not match {param}")
    for got, need in zip(shape, param.shape):
        if need >= 0 and got != need:
            raise LaunchError(f"argument {position}: shape {shape} does not match {param}")
    if not contiguous:
        raise LaunchError(f"argument {position}: only contiguous (row-major) arrays are "
                          f"supported; pass a contiguous copy (e.g. .contiguous(), "
                          f"ascontiguousarray)")
    if not param.identity_layout:
        raise LaunchError(f"argument {position}: the kernel's parameter has a non-identity "
                          f"layout, which launch cannot pass")


def _row_major(shape: Sequence[int], strides: Optional[Sequence[int]], unit: int) -> bool:
    """Whether `strides` (in `unit`s; None: row-major) are row-major for
    `shape`; sizes of 0 or 1 take any stride."""
    if strides is None:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size > 1 and stride != expected * unit:
            return False
        expected *= size
    return True


@dataclass
class _DLPackView:
    """What a DLTensor says of an array: its device (type, ordinal), the
    address of its first element, shape, element strides (None: row-major),
    numpy type code (with "xL" for L lanes) and bits per element."""
    kind: int
    device_id: int
    address: int
    shape: Tuple[int, ...]
    strides: Optional[Tuple[int, ...]]
    code: str
    bits: int


def _dlpack_view(position: int, array: Any,
                 stream: Optional[int]) -> Tuple[_DLPackView, Any]:
    """`array`'s DLTensor read through DLPack (_dlpack_tensor), and the
    capsule that owns it."""
    fields, capsule = _dlpack_tensor(position, array, stream)
    data, kind, device_id, ndim, code, bits, lanes, shape_at, strides_at, byte_offset = fields
    shape = _int64s(shape_at, ndim) if ndim else ()
    strides = _int64s(strides_at, ndim) if ndim and strides_at else None
    numpy_code = _DL_TYPES.get((code, bits), f"dlpack(code={code}, bits={bits})")
    if lanes != 1:
        numpy_code += f"x{lanes}"
    return _DLPackView(kind, device_id, (data or 0) + byte_offset, shape, strides, numpy_code,
                       bits), capsule


def _from_dlpack(position: int, array: Any, param: ArgType,
                 stream: Optional[int]) -> ArrayArgument:
    view, capsule = _dlpack_view(position, array, stream)
    kind, shape, bits = view.kind, view.shape, view.bits
    if kind not in _DL_READABLE:
        raise LaunchError(f"argument {position}: a DLPack array on a "
                          f"{_DL_DEVICE_NAMES.get(kind, kind)} device; launch takes CUDA "
                          f"(or CPU, copied) arrays")
    _check_layout(position, param, shape, view.code, _row_major(shape, view.strides, 1))
    address, device_id = view.address, view.device_id
    if kind in _DL_HOST:
        nbytes = _prod(shape) * bits // 8
        return ArrayArgument(position, shape, host=(address, nbytes), source="dlpack",
                             keep=(array, capsule))
    return ArrayArgument(position, shape, pointer=address, device=device_id,
                         source="dlpack", keep=(array, capsule))


# torch's dtype names -> numpy type codes (bfloat16 as _NUMPY_CODES spells
# it): _DTYPE_NAMES the other way.
_TORCH_CODES = {name.split(" ")[0]: code for code, name in _DTYPE_NAMES.items()}
_torch_codes: Dict[Any, str] = {}


def _torch_stream(torch: Any, device: int) -> int:
    """The handle of torch's current stream on `device` (where torch
    queues its work on the tensors)."""
    current = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if current is not None:
        return current(device)
    return torch.cuda.current_stream(device).cuda_stream


def _torch_code(dtype: Any) -> str:
    """The numpy type code of a torch dtype (bfloat16: "V2")."""
    code = _torch_codes.get(dtype)
    if code is None:
        code = _torch_codes[dtype] = _TORCH_CODES.get(str(dtype).replace("torch.", ""), str(dtype))
    return code


# (address, shape, numpy type code, device ordinal, whether row-major) of
# an array read from its own attributes.
_OwnAttributes = Tuple[int, Tuple[int, ...], str, int, bool]


def _torch_attributes(array: Any) -> Optional[_OwnAttributes]:
    """A CUDA torch tensor's _OwnAttributes; None for anything else."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(array, torch.Tensor) or not array.is_cuda:
        return None
    return (array.data_ptr(), tuple(array.shape), _torch_code(array.dtype), array.get_device(),
            array.is_contiguous())


def _cupy_attributes(array: Any) -> Optional[_OwnAttributes]:
    """A cupy array's _OwnAttributes; None for anything else."""
    cupy = sys.modules.get("cupy")
    if cupy is None or not isinstance(array, cupy.ndarray):
        return None
    return (array.data.ptr, array.shape, array.dtype.str[1:], array.device.id,
            array.flags.c_contiguous)


def _from_torch(position: int, tensor: Any, param: ArgType, stream: int) -> Optional[ArrayArgument]:
    """A CUDA torch tensor read from its own attributes where torch queues
    its work on `stream`, the launch's; None otherwise (DLPack then: its
    stream handshake orders torch's stream before the launch's, and does
    nothing where they are one, at the cost of ten-odd microseconds of
    torch's Python)."""
    own = _torch_attributes(tensor)
    if own is None:
        return None
    address, shape, code, device, contiguous = own
    if _torch_stream(sys.modules["torch"], device) != stream:
        return None
    _check_layout(position, param, shape, code, contiguous)
    return ArrayArgument(position, shape, pointer=address, device=device, source="torch",
                         keep=tensor)


def _from_cupy(position: int, array: Any, param: ArgType, stream: int) -> Optional[ArrayArgument]:
    """A cupy array read from its own attributes where cupy's current
    stream is `stream`, the launch's; None otherwise (DLPack then, as for
    torch)."""
    own = _cupy_attributes(array)
    if own is None or sys.modules["cupy"].cuda.get_current_stream().ptr != stream:
        return None
    address, shape, code, device, contiguous = own
    _check_layout(position, param, shape, code, contiguous)
    return ArrayArgument(position, shape, pointer=address, device=device, source="cupy",
                         keep=array)


# The readers of the array types that tell their pointer and layout faster
# than DLPack does, in the order tried.
_FAST_READERS = (_from_torch, _from_cupy)


def _from_cuda_array_interface(position: int, array: Any, param: ArgType) -> ArrayArgument:
    iface = array.__cuda_array_interface__
    shape, typestr = tuple(iface["shape"]), iface["typestr"]
    itemsize = int(typestr[2:])
    _check_layout(position, param, shape, typestr[1:],
                  _row_major(shape, iface.get("strides"), itemsize))
    pointer, readonly = iface["data"]
    return ArrayArgument(position, shape, pointer=pointer or 0, writable=not readonly,
                         source="cuda_array_interface", keep=array)


def _from_numpy(position: int, array: Any, param: ArgType) -> ArrayArgument:
    shape = tuple(array.shape)
    _check_layout(position, param, shape, array.dtype.str[1:], bool(array.flags["C_CONTIGUOUS"]))
    return ArrayArgument(position, shape, host=(array.ctypes.data, array.nbytes),
                         writable=bool(array.flags["WRITEABLE"]), source="numpy", keep=array)


def _dlpack_device_type(array: Any) -> Optional[int]:
    """The DLPack device type `array` says it lives on; None where it has
    no DLPack or cannot say (the other protocols are tried then)."""
    if hasattr(array, "__dlpack_device__") and hasattr(array, "__dlpack__"):
        try:
            return int(array.__dlpack_device__()[0])
        except Exception:  # a producer that cannot say
            return None
    return None


def _array_argument(position: int, array: Any, param: ArgType, stream: int) -> ArrayArgument:
    """An array argument through DLPack (device arrays), the CUDA array
    interface or numpy's array interface, checked against `param`; a torch
    or cupy array on the launch's stream from its own attributes."""
    for read in _FAST_READERS:
        argument = read(position, array, param, stream)
        if argument is not None:
            return argument
    dl_device = _dlpack_device_type(array)
    if dl_device in (DL_CUDA, DL_CUDA_MANAGED):
        return _from_dlpack(position, array, param, stream)
    if hasattr(array, "__cuda_array_interface__"):
        return _from_cuda_array_interface(position, array, param)
    if hasattr(array, "__array_interface__") and hasattr(array, "ctypes"):
        return _from_numpy(position, array, param)
    if dl_device in _DL_HOST:
        return _from_dlpack(position, array, param, None)
    if dl_device is not None:
        raise LaunchError(f"argument {position}: a DLPack array on a "
                          f"{_DL_DEVICE_NAMES.get(dl_device, dl_device)} device; launch takes "
                          f"CUDA (or CPU, copied) arrays")
    raise LaunchError(f"argument {position}: expected an array for {param} (DLPack, "
                      f"__cuda_array_interface__ or numpy), got {type(array).__name__}")


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


def _params(compiled: CompiledModule, kernel: str, count: int) -> List[ArgType]:
    if not isinstance(compiled, CompiledModule):
        raise TypeError(f"launch takes a CompiledModule (from compile), not "
                        f"{type(compiled).__name__}")
    if not isinstance(kernel, str) or kernel not in compiled.kernels:
        raise LaunchError(f"no kernel named {kernel!r}; the module has "
                          f"{sorted(compiled.kernels)}")
    params = compiled.kernels[kernel]
    if count != len(params):
        raise LaunchError(f"{kernel} takes {len(params)} arguments "
                          f"({', '.join(map(str, params))}), got {count}")
    return params


def marshal_arguments(compiled: CompiledModule, kernel: str, args: Sequence[Any],
                      stream: Any = None) -> List[Any]:
    """Checks `args` against the parameters of `kernel` and returns one
    entry per argument: an ArrayArgument for a memref, the ctypes word of a
    scalar. Needs no GPU (DLPack producers of device arrays may use theirs
    to order their stream before `stream`)."""
    return _marshal(_params(compiled, kernel, len(args)), args, stream_handle(stream))


def _marshal(params: Sequence[ArgType], args: Sequence[Any], handle: int) -> List[Any]:
    """marshal_arguments' entries of `args`, checked against `params` (as
    many), for a launch on the stream `handle`."""
    return [_array_argument(i, a, p, handle) if p.is_memref else _scalar(i, a, p)
            for i, (a, p) in enumerate(zip(args, params))]


def _memref_codes(param: ArgType, bare_pointers: bool) -> str:
    """The struct codes of a memref parameter's words: one pointer, or the
    descriptor (allocated and aligned pointers, offset, sizes, strides)."""
    return "Q" if bare_pointers else "QQq" + "q" * (2 * len(param.shape))


def _memref_words(argument: ArrayArgument, bare_pointers: bool) -> List[int]:
    """The words of an array argument (_memref_codes' layout): its device
    pointer, or the descriptor of its row-major elements at offset 0."""
    if argument.pointer is None:
        raise ValueError(f"argument {argument.position} has no device pointer yet")
    if bare_pointers:
        return [argument.pointer]
    return [argument.pointer, argument.pointer, 0, *argument.shape, *argument.strides]


def pack_parameters(params: Sequence[ArgType], arguments: Sequence[Any],
                    bare_pointers: bool = False) -> List[Any]:
    """The kernel's parameter words, in order, as ctypes objects: a scalar
    as it is; a memref as its descriptor (allocated and aligned pointer,
    offset 0, sizes, row-major strides: 3 + 2 * rank words) or, with
    `bare_pointers`, as one pointer. Every ArrayArgument must have its
    device `pointer` by now."""
    words: List[Any] = []
    for param, argument in zip(params, arguments):
        if not param.is_memref:
            words.append(argument)
            continue
        codes = _memref_codes(param, bare_pointers)
        words += [_WORD_TYPES[code](value)
                  for code, value in zip(codes, _memref_words(argument, bare_pointers))]
    return words


class _Signature:
    """What launching kernels of one parameter list needs, made once: the
    parameters, and a buffer the parameter words are packed into (one
    struct.pack_into a call) with the array of pointers to each word that
    cuLaunchKernel takes (the driver copies the words at the launch, so
    the buffer is reused; one per thread)."""

    def __init__(self, params: List[ArgType], bare_pointers: bool) -> None:
        self.params = params
        self.bare_pointers = bare_pointers
        codes = "".join(_memref_codes(p, bare_pointers) if p.is_memref else _SCALAR_WORDS[p.element][1]
                        for p in params)
        self.struct = struct.Struct("=" + codes)
        self.offsets = [struct.calcsize("=" + codes[:i]) for i in range(len(codes))]
        self._local = threading.local()

    def pack(self, arguments: Sequence[Any]) -> Any:
        """The kernelParams array of `arguments` (marshal_arguments'
        entries, each array's device `pointer` set), valid until this
        thread packs again."""
        values: List[Any] = []
        for param, argument in zip(self.params, arguments):
            if param.is_memref:
                values += _memref_words(argument, self.bare_pointers)
            else:
                values.append(argument.value)
        buffers = getattr(self._local, "buffers", None)
        if buffers is None:
            storage = ctypes.create_string_buffer(max(self.struct.size, 1))
            base = ctypes.addressof(storage)
            pointers = (ctypes.c_void_p * max(len(self.offsets), 1))(
                *[base + offset for offset in self.offsets])
            buffers = self._local.buffers = (storage, pointers)
        self.struct.pack_into(buffers[0], 0, *values)
        return buffers[1]


# The ctypes type of a memref's words by their struct code.
_WORD_TYPES = {"Q": ctypes.c_void_p, "q": ctypes.c_int64}
# The signatures of the kernel sequences launched, per (id(compiled), kernel
# names): the compiled module is kept with its signature, so that its id
# is not reused while the entry lives.
_signatures: Dict[Tuple[int, Tuple[str, ...]], Tuple[CompiledModule, _Signature]] = {}


def _signature(compiled: CompiledModule, names: Tuple[str, ...], count: int) -> _Signature:
    """The signature the kernels `names` of `compiled` share, checked once
    (LaunchError where one takes other parameters); `count` arguments are
    checked against it on every call."""
    entry = _signatures.get((id(compiled), names))
    if entry is None or entry[0] is not compiled:
        params = _params(compiled, names[0], count)
        for name in names[1:]:
            if _params(compiled, name, count) != params:
                raise LaunchError(f"{name} does not take the parameters of {names[0]}")
        entry = _signatures[(id(compiled), names)] = (
            compiled, _Signature(params, compiled.bare_pointers))
    elif count != len(entry[1].params):
        _params(compiled, names[0], count)  # its error
    return entry[1]


# -- streams and devices -------------------------------------------------------

def stream_handle(stream: Any) -> int:
    """The CUstream handle of `stream`: None (the legacy default stream, 0),
    an int handle, or a stream object: cuda-python's `__cuda_stream__`
    protocol, torch's `.cuda_stream`, cupy's `.ptr`, numba's `.handle`."""
    if stream is None:
        return 0
    value: Any = stream
    if isinstance(stream, bool):
        raise TypeError("stream must be a CUDA stream handle or stream object, not a bool")
    if not isinstance(stream, int):
        if hasattr(stream, "__cuda_stream__"):
            value = stream.__cuda_stream__()
            value = value[1] if isinstance(value, tuple) else value
        elif hasattr(stream, "cuda_stream"):
            value = stream.cuda_stream
        elif hasattr(stream, "ptr"):
            value = stream.ptr
        elif hasattr(stream, "handle"):
            value = stream.handle
            value = getattr(value, "value", value)  # a ctypes c_void_p
        elif hasattr(stream, "__index__"):  # a numpy integer
            value = operator.index(stream)
        else:
            raise TypeError(f"stream must be an int handle or a stream object with "
                            f"__cuda_stream__, .cuda_stream, .ptr or .handle, not "
                            f"{type(stream).__name__}")
        if value is None:
            value = 0
    return _checks.integer(value, "stream handle", 0, (1 << 64) - 1)


def device_ordinal(device: Any) -> Optional[int]:
    """The CUDA device ordinal of `device`: None, an int, a torch.device
    ('cuda:N'; 'cuda' alone is None) or a cupy Device (.id)."""
    if device is None:
        return None
    if isinstance(device, bool):
        raise TypeError("device must be a CUDA device ordinal, not a bool")
    if isinstance(device, str):
        if device == "cuda":
            return None
        if device.startswith("cuda:"):
            return _checks.integer(int(device[5:]) if device[5:].isdigit() else device[5:],
                                   "device", 0)
        raise ValueError(f"device must be 'cuda' or 'cuda:N', not {device!r}")
    if hasattr(device, "type") and hasattr(device, "index"):  # torch.device
        if device.type != "cuda":
            raise ValueError(f"device must be a CUDA device, not {device}")
        return None if device.index is None else _checks.integer(device.index, "device", 0)
    if hasattr(device, "id") and not isinstance(device, int):  # cupy.cuda.Device
        return _checks.integer(device.id, "device", 0)
    try:
        return _checks.integer(operator.index(device), "device", 0)
    except TypeError:
        raise TypeError(f"device must be an int ordinal, 'cuda:N', a torch.device or a "
                        f"cupy Device, not {type(device).__name__}") from None


# -- the driver ----------------------------------------------------------------

class _Driver:
    def __init__(self) -> None:
        try:
            self.lib = ctypes.CDLL("libcuda.so.1")
        except OSError as error:
            raise CudaError(f"cannot load libcuda.so.1 (no NVIDIA driver?): {error}") from None
        self.check(self.lib.cuInit(0), "cuInit")
        # Typed once, so that a launch passes Python ints (CUfunction, grid
        # and block dims, shared bytes, stream, kernelParams, extra).
        self.lib.cuLaunchKernel.restype = ctypes.c_int
        self.lib.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + \
            [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        count = ctypes.c_int()
        self.check(self.lib.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
        if count.value == 0:
            raise CudaError("no CUDA device found")
        self.count = count.value
        self.contexts = {}
        self.modules = {}

    def check(self, result: int, call: str) -> None:
        if result != 0:
            name, text = ctypes.c_char_p(), ctypes.c_char_p()
            self.lib.cuGetErrorName(result, ctypes.byref(name))
            self.lib.cuGetErrorString(result, ctypes.byref(text))
            raise CudaError(f"{call} failed: {(name.value or b'?').decode()} ({result}): "
                            f"{(text.value or b'?').decode()}")

    def use(self, device: int) -> "_Driver":
        """Makes `device`'s primary context (the one torch and cupy use)
        current on this thread."""
        if not 0 <= device < self.count:
            raise ValueError(f"device {device} does not exist: this machine has {self.count} "
                             f"CUDA device(s), 0..{self.count - 1}")
        if device not in self.contexts:
            handle, context = ctypes.c_int(), ctypes.c_void_p()
            self.check(self.lib.cuDeviceGet(ctypes.byref(handle), device), "cuDeviceGet")
            self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(context), handle),
                       "cuDevicePrimaryCtxRetain")
            self.contexts[device] = context
        self.check(self.lib.cuCtxSetCurrent(self.contexts[device]), "cuCtxSetCurrent")
        return self

    def pointer_device(self, pointer: int) -> Optional[int]:
        """The device ordinal of a device pointer, None when the driver
        does not know it (host memory)."""
        ordinal = ctypes.c_int()
        result = self.lib.cuPointerGetAttribute(ctypes.byref(ordinal),
                                                _CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                                ctypes.c_uint64(pointer))
        return ordinal.value if result == 0 else None

    def function(self, compiled: CompiledModule, name: str, device: int) -> ctypes.c_void_p:
        key = (id(compiled), device)
        if key not in self.modules:
            module = ctypes.c_void_p()
            image = compiled.binary + (b"\0" if compiled.format == "ptx" else b"")
            self.check(self.lib.cuModuleLoadData(ctypes.byref(module), image), "cuModuleLoadData")
            # The compiled module keeps id(compiled) from being reused; its
            # functions are looked up once each.
            self.modules[key] = (compiled, module, {})
        _, module, functions = self.modules[key]
        if name not in functions:
            function = ctypes.c_void_p()
            self.check(self.lib.cuModuleGetFunction(ctypes.byref(function), module, name.encode()),
                       f"cuModuleGetFunction({name})")
            functions[name] = function
        return functions[name]


_driver = None


def is_available() -> bool:
    """Whether launch can reach a CUDA GPU: the driver loads and names at
    least one device. Without one, launch(..., backend="sim") runs kernels
    on the simulator."""
    try:
        driver(0)
    except CudaError:
        return False
    return True


def driver(device: int = 0) -> _Driver:
    """The driver with `device`'s primary context current."""
    global _driver
    if _driver is None:
        _driver = _Driver()
    return _driver.use(device)


def _dims(value: Any, what: str, limits: Tuple[int, int, int]) -> Tuple[int, int, int]:
    """An int or 1 to 3 ints, each in 1..its limit, as three ints."""
    if type(value) is int and 1 <= value <= limits[0]:  # the common case, quickly
        return value, 1, 1
    is_sequence = isinstance(value, abc.Sequence) and not isinstance(value, (str, bytes))
    entries = list(value) if is_sequence else [value]
    if not 1 <= len(entries) <= 3:
        raise ValueError(f"{what} must have 1 to 3 entries (x, y, z), got {len(entries)}: {value!r}")
    dims = [_checks.integer(d, f"{what} {axis}", 1, limit, kind_error=ValueError)
            for d, axis, limit in zip(entries, "xyz", limits)]
    return tuple(dims + [1] * (3 - len(dims)))


# What every block may have without opting in, and the attribute that opts in
# (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
STATIC_SHARED_BYTES = 48 * 1024
_MAX_DYNAMIC_SHARED = 8


def _prod(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


def launch_config(grid: Union[int, Sequence[int]], block: Union[int, Sequence[int]],
                  shared_bytes: int = 0) -> Tuple[Tuple[int, int, int], Tuple[int, int, int]]:
    """The (x, y, z) grid and block of a launch, checked against CUDA's
    limits: 1 to 3 positive ints each, grid x < 2**31 and y, z < 65536,
    block x, y <= 1024, z <= 64 and x*y*z <= 1024 threads; shared_bytes an
    int >= 0. Raises ValueError otherwise; needs no GPU."""
    if (type(grid) is int and type(block) is int and type(shared_bytes) is int and  # quickly
            0 < grid <= GRID_LIMITS[0] and 0 < block <= MAX_BLOCK_THREADS and
            0 <= shared_bytes < 1 << 32):
        return (grid, 1, 1), (block, 1, 1)
    grid3 = _dims(grid, "grid", GRID_LIMITS)
    block3 = _dims(block, "block", BLOCK_LIMITS)
    if _prod(block3) > MAX_BLOCK_THREADS:
        raise ValueError(f"block {block!r} has {_prod(block3)} threads; CUDA allows at most "
                         f"{MAX_BLOCK_THREADS}")
    if not (type(shared_bytes) is int and 0 <= shared_bytes < 1 << 32):  # else the message
        _checks.integer(shared_bytes, "shared_bytes", 0, (1 << 32) - 1, kind_error=ValueError)
    return grid3, block3


def _launch_device(requested: Optional[int], arrays: List[ArrayArgument]) -> int:
    """The device to launch on: the requested one, else the first device
    array's, else 0; LaunchError when a DLPack array says it lives on
    another device."""
    known = [(a.position, a.device) for a in arrays if a.device is not None]
    device = requested if requested is not None else (known[0][1] if known else 0)
    for position, where in known:
        if where != device:
            raise LaunchError(f"argument {position} is on CUDA device {where}, the launch on "
                              f"device {device}")
    return device


def launch(compiled: CompiledModule, kernel: str, grid: Union[int, Sequence[int]],
           block: Union[int, Sequence[int]], *args: Any, shared_bytes: int = 0,
           stream: Any = None, device: Any = None, sync: bool = True,
           backend: str = "cuda") -> Any:
    """Runs `kernel` of `compiled` on the GPU, or with `backend="sim"` on
    warp's SIMT simulator (`warp_mlir.sim.launch`: host arrays, PTX, no GPU
    needed; returns the simulator's counts).

    Device arrays (DLPack, __cuda_array_interface__) are used in place;
    host arrays (numpy, CPU tensors) are copied in and back out, which
    needs `sync=True`. `stream`: None (the default stream), an int CUstream
    or a torch/cupy/numba stream object. `device`: the device ordinal (an
    int, 'cuda:N', a torch.device or cupy Device; default: the arrays'
    device, else 0). `sync=False` returns once the kernel is queued on the
    stream; call `synchronize(stream)` to wait and see its errors. The
    module must have been compiled with the ABI launch uses: one pointer per
    array for `compile(..., bare_pointers=True)`, a descriptor otherwise
    (`compiled.bare_pointers` says which).

    Everything is checked before the GPU is touched: LaunchError (a
    TypeError) for arguments that do not match the kernel's parameters or
    live on another device, ValueError for a grid, block or shared_bytes
    outside CUDA's limits (see launch_config), for scalars out of their
    type's range and for host arrays with sync=False."""
    if backend == "sim":
        if stream is not None or device is not None or not sync:
            raise ValueError("backend='sim' runs synchronously on the host: no stream, device "
                             "or sync=False")
        from . import sim
        return sim.launch(compiled, kernel, grid, block, *args, shared_bytes=shared_bytes)
    if backend != "cuda":
        raise ValueError(f"backend must be 'cuda' or 'sim', not {backend!r}")
    launch_sequence(compiled, [(kernel, grid, block)], *args, shared_bytes=shared_bytes,
                    stream=stream, device=device, sync=sync)


def launch_sequence(compiled: CompiledModule, kernels: Sequence[Tuple[str, Any, Any]], *args: Any,
                    shared_bytes: int = 0, stream: Any = None, device: Any = None,
                    sync: bool = True) -> None:
    """Launches `kernels` ((name, grid, block) each, in order, on one
    stream) of `compiled` with the same arguments, as launch would one
    after another, but checks and marshals the arguments once: the kernels
    must take the same parameters. What a multi-kernel op (warp_mlir.device)
    launches per call; the arguments are checked against the first
    kernel's parameters before anything runs."""
    if not kernels:
        raise ValueError("launch_sequence needs at least one kernel")
    signature = _signature(compiled, tuple(name for name, _, _ in kernels), len(args))
    configs = [(name,) + launch_config(grid, block, shared_bytes) for name, grid, block in kernels]
    if not isinstance(sync, bool):
        raise TypeError(f"sync must be a bool, not {type(sync).__name__}")
    handle = stream_handle(stream)
    requested = device_ordinal(device)
    arguments = _marshal(signature.params, args, handle)
    arrays = [a for a in arguments if isinstance(a, ArrayArgument)]
    host = [a for a in arrays if a.host is not None]
    if host and not sync:
        raise ValueError(f"argument {host[0].position} is a host array, copied back after the "
                         f"kernel finishes: sync=False needs device arrays (torch, cupy, ...)")
    ordinal = _launch_device(requested, arrays)

    cuda = driver(ordinal)
    L = cuda.lib
    for argument in arrays:
        if argument.pointer and argument.device is None:
            where = cuda.pointer_device(argument.pointer)
            if where is not None and where != ordinal:
                raise LaunchError(f"argument {argument.position} is on CUDA device {where}, the "
                                  f"launch on device {ordinal}")
    allocations: List[int] = []
    try:
        for argument in host:
            address, nbytes = argument.host
            pointer = ctypes.c_uint64()
            cuda.check(L.cuMemAlloc_v2(ctypes.byref(pointer), ctypes.c_size_t(max(nbytes, 1))),
                       "cuMemAlloc")
            allocations.append(pointer.value)
            cuda.check(L.cuMemcpyHtoD_v2(pointer, ctypes.c_void_p(address),
                                         ctypes.c_size_t(nbytes)), "cuMemcpyHtoD")
            argument.pointer = pointer.value
        params_array = signature.pack(arguments)
        for kernel, grid, block in configs:
            function = cuda.function(compiled, kernel, ordinal)
            if shared_bytes > STATIC_SHARED_BYTES:
                # Past 48 KB a kernel must opt in to its dynamic shared memory.
                cuda.check(L.cuFuncSetAttribute(function, ctypes.c_int(_MAX_DYNAMIC_SHARED),
                                                ctypes.c_int(shared_bytes)),
                           f"cuFuncSetAttribute({kernel}, {shared_bytes} bytes of shared memory)")
            result = L.cuLaunchKernel(function, *grid, *block, shared_bytes, handle,
                                      params_array, None)
            if result:
                cuda.check(result, f"cuLaunchKernel({kernel})")
        if sync:
            cuda.check(L.cuStreamSynchronize(ctypes.c_void_p(handle)),
                       f"cuStreamSynchronize after {kernel}")
            for argument in host:
                address, nbytes = argument.host
                if argument.writable:
                    cuda.check(L.cuMemcpyDtoH_v2(ctypes.c_void_p(address),
                                                 ctypes.c_uint64(argument.pointer),
                                                 ctypes.c_size_t(nbytes)), "cuMemcpyDtoH")
    finally:
        for pointer in allocations:
            L.cuMemFree_v2(ctypes.c_uint64(pointer))


def synchronize(stream: Any = None, device: Any = None) -> None:
    """Waits for work queued by `launch(..., sync=False)`: on `stream` (an
    int handle or stream object), or, without one, everything on `device`
    (default 0). Raises CudaError for an error a kernel raised."""
    handle = stream_handle(stream)
    ordinal = device_ordinal(device) or 0
    cuda = driver(ordinal)
    if stream is None:
        cuda.check(cuda.lib.cuCtxSynchronize(), "cuCtxSynchronize")
    else:
        cuda.check(cuda.lib.cuStreamSynchronize(ctypes.c_void_p(handle)), "cuStreamSynchronize")


# -- TMA tensor maps -------------------------------------------------------------

# cuda.h's CUtensorMapDataType for the element types a tensor map takes here:
# CU_TENSOR_MAP_DATA_TYPE_FLOAT16 (6), _FLOAT32 (7), _BFLOAT16 (9).
_TENSOR_MAP_TYPES = {"f2": 6, "f4": 7, "V2": 9}
# CUtensorMapSwizzle (NONE, 32B, 64B, 128B) and CUtensorMapL2promotion (NONE,
# L2_64B, L2_128B, L2_256B) by their byte counts; CU_TENSOR_MAP_INTERLEAVE_NONE
# and CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (out-of-bounds elements read as zeros)
# are 0.
_TENSOR_MAP_SWIZZLES = {0: 0, 32: 1, 64: 2, 128: 3}
_TENSOR_MAP_L2_PROMOTIONS = {0: 0, 64: 1, 128: 2, 256: 3}
TENSOR_MAP_BYTES = 128  # sizeof(CUtensorMap): 16 quadwords, 64-byte aligned


def _device_matrix(array: Any) -> Tuple[int, Tuple[int, ...], str, Optional[int], Any]:
    """(address, shape, numpy type code, device ordinal or None, owner) of
    a row-major device array: a CUDA torch tensor or cupy array from its
    own attributes (no stream is involved: a map holds an address, not
    data), others through DLPack or the CUDA array interface; ValueError
    for host or non-contiguous arrays."""
    own = _torch_attributes(array) or _cupy_attributes(array)
    dl_device = None if own else _dlpack_device_type(array)
    if own:
        (address, shape, code, device, contiguous), owner = own, array
    elif dl_device in (DL_CUDA, DL_CUDA_MANAGED):
        view, capsule = _dlpack_view(0, array, None)
        shape, code, address = view.shape, view.code, view.address
        contiguous = _row_major(shape, view.strides, 1)
        owner, device = (array, capsule), view.device_id
    elif hasattr(array, "__cuda_array_interface__"):
        iface = array.__cuda_array_interface__
        shape, code = tuple(iface["shape"]), iface["typestr"][1:]
        contiguous = _row_major(shape, iface.get("strides"), int(code[1:]))
        address, owner, device = iface["data"][0] or 0, array, None
    else:
        raise ValueError(f"tensor_map needs a device array (torch, cupy: DLPack or "
                         f"__cuda_array_interface__), not {type(array).__name__}: the tensor "
                         f"map holds the array's device address")
    if not contiguous:
        raise ValueError("tensor_map takes a contiguous (row-major) array; pass a contiguous "
                         "copy (e.g. .contiguous())")
    return address, shape, code, device, owner


def _tensor_map_words(address: int, shape: Tuple[int, ...], code: str, box: Any,
                      swizzle: int, l2_promotion: int) -> Tuple[list, Tuple[int, int]]:
    """The arguments of cuTensorMapEncodeTiled after its data type and rank
    (global dims and strides, box, element strides, interleave, swizzle,
    L2 promotion, OOB fill), checked: ValueError for what the driver would
    refuse with no more than CUDA_ERROR_INVALID_VALUE."""
    if code not in _TENSOR_MAP_TYPES:
        raise ValueError(f"tensor_map takes float16, bfloat16 or float32 arrays, not "
                         f"{_DTYPE_NAMES.get(code, code)}")
    size = int(code[1:])
    if len(shape) != 2 or 0 in shape:
        raise ValueError(f"tensor_map takes a non-empty 2-D array, not one of shape {shape}")
    rows, cols = shape
    if address % 16:
        raise ValueError(f"a tensor map's array starts at a multiple of 16 bytes, not at "
                         f"{address:#x}")
    if cols * size % 16:
        raise ValueError(f"a tensor map's rows are a multiple of 16 bytes apart: {cols} "
                         f"columns of {size} bytes are {cols * size}")
    if rows >= 1 << 32 or cols >= 1 << 32:
        raise ValueError(f"a tensor map's dimensions are below 2**32, not {shape}")
    is_pair = isinstance(box, abc.Sequence) and not isinstance(box, (str, bytes))
    if not is_pair or len(box) != 2:
        raise ValueError(f"box is (rows, columns) of the tile one load copies, not {box!r}")
    box_rows, box_cols = (_checks.integer(b, f"box {what}", 1, 256, kind_error=ValueError)
                          for b, what in zip(box, ("rows", "columns")))
    if box_cols * size % 16:
        raise ValueError(f"a box row is a multiple of 16 bytes: {box_cols} columns of {size} "
                         f"bytes are {box_cols * size}")
    if swizzle not in _TENSOR_MAP_SWIZZLES:
        raise ValueError(f"swizzle is 0 (none), 32, 64 or 128 bytes, not {swizzle!r}")
    if swizzle and box_cols * size > swizzle:
        raise ValueError(f"with the {swizzle}-byte swizzle a box row is at most {swizzle} "
                         f"bytes: {box_cols} columns of {size} bytes are {box_cols * size}")
    if l2_promotion not in _TENSOR_MAP_L2_PROMOTIONS:
        raise ValueError(f"l2_promotion is 0 (none), 64, 128 or 256 bytes, not "
                         f"{l2_promotion!r}")
    words = [(ctypes.c_uint64 * 2)(cols, rows),             # globalDim, innermost first
             (ctypes.c_uint64 * 1)(cols * size),            # globalStrides (bytes) of dim 1
             (ctypes.c_uint32 * 2)(box_cols, box_rows),     # boxDim
             (ctypes.c_uint32 * 2)(1, 1),                   # elementStrides
             ctypes.c_int(0),                               # CU_TENSOR_MAP_INTERLEAVE_NONE
             ctypes.c_int(_TENSOR_MAP_SWIZZLES[swizzle]),
             ctypes.c_int(_TENSOR_MAP_L2_PROMOTIONS[l2_promotion]),
             ctypes.c_int(0)]                               # CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
    return words, (box_rows, box_cols)


class TensorMap:
    """A CUtensorMap in device memory (128 bytes, 256-byte aligned), made by
    tensor_map. `address`: its device address, for a kernel's i64 parameter
    (k.tma_load's tensor map); as an array (the CUDA array interface, 16
    int64) it is a memref<16xi64> argument. It keeps the array it describes
    alive and frees its buffer when dropped."""

    def __init__(self, address: int, device: int, shape: Tuple[int, int],
                 box: Tuple[int, int], source: Any) -> None:
        self.address, self.device, self.shape, self.box = address, device, shape, box
        self._source = source

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": (TENSOR_MAP_BYTES // 8,), "typestr": "<i8",
                "data": (self.address, True), "version": 3}

    def __int__(self) -> int:
        return self.address

    def __repr__(self) -> str:
        return (f"TensorMap({self.shape[0]}x{self.shape[1]}, box {self.box[0]}x{self.box[1]}, "
                f"at {self.address:#x} on device {self.device})")

    def __del__(self) -> None:
        if self.address and _driver is not None:
            try:
                _driver.use(self.device).lib.cuMemFree_v2(ctypes.c_uint64(self.address))
            except Exception:  # interpreter shutdown: the context is going anyway
                pass
            self.address = 0


def tensor_map(array: Any, box: Sequence[int], swizzle: int = 128,
               l2_promotion: int = 256) -> TensorMap:
    """The TMA tensor map of a 2-D row-major device array (torch, cupy: f16,
    bf16 or f32) for loads of `box` = (rows, columns) tiles, in device
    memory for k.tma_load (pass `.address` to an i64 parameter).

    cuTensorMapEncodeTiled with the global dimensions innermost first
    (columns, rows), the row stride in bytes (a multiple of 16), the box
    (columns, rows; at most 256 each, a row a multiple of 16 bytes and, with
    a swizzle, at most `swizzle` bytes), element strides 1, no interleave,
    the `swizzle` (0, 32, 64 or 128 bytes: the 16-byte chunk c of box row r
    lands at chunk c ^ (r % 8) of its 128-byte row with 128), L2 promotion
    `l2_promotion` bytes and no OOB fill: elements past the array's edges
    load as zeros. ValueError for arrays and boxes the driver would refuse;
    CudaError if it refuses anyway. The map holds the array's address: it
    describes that array only while the array lives (the map keeps it)."""
    address, shape, code, device, owner = _device_matrix(array)
    words, box = _tensor_map_words(address, shape, code, box, swizzle, l2_promotion)
    if device is None:
        device = driver(0).pointer_device(address)
        if device is None:
            raise ValueError(f"tensor_map: {address:#x} is not device memory the driver knows")
    cuda = driver(device)
    # The driver writes the map to host memory aligned to 64 bytes.
    host = (ctypes.c_uint8 * (TENSOR_MAP_BYTES + 64))()
    aligned = ctypes.addressof(host) + (-ctypes.addressof(host)) % 64
    cuda.check(cuda.lib.cuTensorMapEncodeTiled(
        ctypes.c_void_p(aligned), ctypes.c_int(_TENSOR_MAP_TYPES[code]), ctypes.c_uint32(2),
        ctypes.c_void_p(address), *words), "cuTensorMapEncodeTiled")
    pointer = ctypes.c_uint64()
    cuda.check(cuda.lib.cuMemAlloc_v2(ctypes.byref(pointer), ctypes.c_size_t(TENSOR_MAP_BYTES)),
               "cuMemAlloc")
    result = TensorMap(pointer.value, device, shape, box, owner)
    cuda.check(cuda.lib.cuMemcpyHtoD_v2(pointer, ctypes.c_void_p(aligned),
                                        ctypes.c_size_t(TENSOR_MAP_BYTES)), "cuMemcpyHtoD")
    return result
