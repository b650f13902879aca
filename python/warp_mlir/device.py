"""Device-wide collectives on torch, cupy or numpy arrays: `warp.device_reduce`
and `warp.device_scan` from Python.

    import warp_mlir.device as wd
    total = wd.reduce(x)                      # x[0] + ... + x[n-1], a 1-element array
    prefix = wd.scan(x, "maxsi", exclusive=True)

Each call writes the one op into a host function, lets the compiler expand
it (`warp-expand-device-ops`: kernels made of warp ops, and how to launch
them), compiles those kernels once per (op, kind, type, chip) and launches
them in the order the module states, with the grid and scratch size its
attributes give (see the pass's description). Nothing about the launch is
decided here.

Arrays are 1-D and contiguous, of int32, int64, float32 or float64. Device
arrays (torch, cupy: DLPack or `__cuda_array_interface__`) are used in place
and the kernels are queued on `stream` (default: the default stream), so the
result is ready when that stream has run them, as with torch's own ops; host
arrays (numpy) are copied in and out and the call waits. `backend="sim"`
runs the kernels on warp's SIMT simulator (numpy arrays, no GPU).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from . import _capi
from .compiler import CompiledModule, compile as _compile
from .cuda import launch, synchronize
from .ir import Context, Module

# The element types the ops take, by the names numpy, cupy and torch give them.
_TYPES = {"int32": "i32", "int64": "i64", "float32": "f32", "float64": "f64"}
_KINDS = ("add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor",
          "minimumf", "maximumf", "minnumf", "maxnumf")


@dataclass
class _Plan:
    """A compiled device op: its kernels in launch order, each with the
    elements per block of its grid (None: one block), the most blocks
    (None: no cap) and its block size, and the scratch rule (bytes = fixed
    + per_tile * ceil(n / tile))."""
    compiled: CompiledModule
    kernels: List[Tuple[str, Optional[int], Optional[int], int]]
    scratch: Tuple[int, int, int]

    def grid(self, items: Optional[int], most: Optional[int], n: int) -> int:
        blocks = 1 if items is None else max(1, -(-n // items))
        return blocks if most is None else min(blocks, most)

    def scratch_bytes(self, n: int) -> int:
        fixed, per_tile, tile = self.scratch
        return fixed + per_tile * max(1, -(-n // tile))


_plans: Dict[Tuple[str, ...], _Plan] = {}


def _element_type(x: Any) -> str:
    name = str(getattr(x, "dtype", "")).replace("torch.", "")
    if name not in _TYPES:
        raise TypeError(f"device ops take int32, int64, float32 or float64 arrays, "
                        f"not {name or type(x).__name__}")
    return _TYPES[name]


def _length(x: Any) -> int:
    shape = tuple(getattr(x, "shape", ()))
    if len(shape) != 1:
        raise ValueError(f"device ops take 1-D arrays, got shape {shape}")
    return int(shape[0])


def _empty(like: Any, n: int, dtype: str) -> Any:
    """An uninitialised 1-D array of `n` elements of `dtype` (a numpy name)
    from the library and on the device of `like`."""
    library = sys.modules[type(like).__module__.split(".")[0]]
    if library.__name__ == "torch":
        return like.new_empty((n,), dtype=getattr(library, dtype))
    return library.empty((n,), dtype=dtype)


def _attribute(op, name: str):
    attr = _capi.lib().mlirOperationGetAttributeByName(op, _capi.MlirStringRef.of(name.encode()))
    return attr if attr.ptr else None


def _read_plan(module: Module, compiled: CompiledModule) -> _Plan:
    """The launches the expanded module states: its gpu.module's
    `warp.device_scratch` and, in order, each kernel's `warp.device_grid`,
    `warp.device_grid_max` and `known_block_size`."""
    L = _capi.lib()
    kernels: List[Tuple[str, Optional[int], Optional[int], int]] = []
    scratch: List[Tuple[int, int, int]] = []

    def ints(attr) -> List[int]:
        return [L.mlirDenseI64ArrayGetElement(attr, i) if L.mlirAttributeIsADenseI64Array(attr)
                else L.mlirDenseI32ArrayGetElement(attr, i)
                for i in range(L.mlirDenseArrayGetNumElements(attr))]

    def visit(op, _user_data):
        name = L.mlirIdentifierStr(L.mlirOperationGetName(op)).bytes()
        if name == b"gpu.module":
            rule = _attribute(op, "warp.device_scratch")
            if rule is not None:
                scratch.append(tuple(ints(rule)))
        elif name == b"gpu.func" and scratch:
            symbol = L.mlirStringAttrGetValue(_attribute(op, "sym_name")).bytes().decode()
            grid, most = (_attribute(op, "warp.device_grid" + suffix) for suffix in ("", "_max"))
            block = ints(_attribute(op, "known_block_size"))
            kernels.append((symbol,
                            None if grid is None else L.mlirIntegerAttrGetValueInt(grid),
                            None if most is None else L.mlirIntegerAttrGetValueInt(most),
                            block[0] * block[1] * block[2]))
        return 0  # advance

    callback = _capi.OperationWalkCallback(visit)
    L.mlirOperationWalk(module.operation, callback, None, 0)  # pre-order: module order
    if len(scratch) != 1 or not kernels:
        raise RuntimeError("warp-expand-device-ops gave no launch plan")
    return _Plan(compiled, kernels, scratch[0])


def _plan(op: str, kind: str, element: str, exclusive: bool, chip: str) -> _Plan:
    key = (op, kind, element, str(exclusive), chip)
    if key in _plans:
        return _plans[key]
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {', '.join(_KINDS)}, not {kind!r}")
    output = "memref<1x%s>" % element if op == "reduce" else "memref<?x%s>" % element
    text = (f"func.func @device_op(%x: memref<?x{element}>, %y: {output}) {{\n"
            f"  warp.device_{op} <{kind}> %x, %y{' exclusive' if exclusive else ''} : "
            f"memref<?x{element}>, {output}\n  return\n}}\n")
    module = Module.parse(text, Context())
    module.verify()  # a kind outside the type's domain is the verifier's error
    module.run("warp-expand-device-ops")
    plan = _read_plan(module, _compile(module, chip=chip))
    _plans[key] = plan
    return plan


def _run(op: str, x: Any, out: Any, kind: str, exclusive: bool, chip: str, stream: Any,
         backend: str) -> Any:
    n = _length(x)
    element = _element_type(x)
    plan = _plan(op, kind, element, exclusive, chip)
    dtype = str(getattr(x, "dtype")).replace("torch.", "")
    if out is None:
        out = _empty(x, 1 if op == "reduce" else n, dtype)
    elif _element_type(out) != element:
        raise TypeError(f"out has {_element_type(out)} elements, x {element}")
    scratch = _empty(x, plan.scratch_bytes(n), "int8")
    host = backend == "sim" or not (hasattr(x, "__dlpack_device__") and
                                   x.__dlpack_device__()[0] != 1)
    options = {"backend": backend} if backend == "sim" else {"stream": stream, "sync": host}
    for kernel, items, most, threads in plan.kernels:
        launch(plan.compiled, kernel, plan.grid(items, most, n), threads, x, out, scratch, n,
               **options)
    if not host and stream is not None:
        # The scratch goes back to its library's allocator when this call
        # returns, which may hand it out on its own stream while `stream`
        # still runs the kernels: torch can be told; otherwise wait.
        if type(scratch).__module__.startswith("torch") and \
                type(stream).__module__.startswith("torch"):
            scratch.record_stream(stream)
        else:
            synchronize(stream)
    return out


def reduce(x: Any, kind: str = "add", out: Any = None, chip: str = "sm_90",
           stream: Any = None, backend: str = "cuda") -> Any:
    """`x[0] (kind) ... (kind) x[n-1]` as a 1-element array (`out`, or a new
    one like `x`); the kind's identity for an empty `x`. Floats combine in
    a tree, so a float sum may round differently from a sequential one."""
    if out is not None and _length(out) < 1:
        raise ValueError("out needs at least one element")
    return _run("reduce", x, out, kind, False, chip, stream, backend)


def scan(x: Any, kind: str = "add", exclusive: bool = False, out: Any = None,
         chip: str = "sm_90", stream: Any = None, backend: str = "cuda") -> Any:
    """The inclusive (or `exclusive`) prefix scan of `x` with `kind`, into
    `out` (may be `x` itself) or a new array like `x`."""
    if out is not None and _length(out) < _length(x):
        raise ValueError(f"out has {_length(out)} elements, x {_length(x)}")
    return _run("scan", x, out, kind, bool(exclusive), chip, stream, backend)


__all__ = ["reduce", "scan"]
