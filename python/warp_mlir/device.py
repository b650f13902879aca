"""Device-wide collectives on torch, cupy or numpy arrays: `warp.device_reduce`,
`warp.device_scan`, `warp.device_select`, `warp.device_partition` (and
their predicate forms, `warp.device_select_if`, `warp.device_partition_if`),
`warp.device_unique`, `warp.device_run_length_encode`,
`warp.device_non_trivial_runs`, `warp.device_histogram`, `warp.device_radix_sort`,
`warp.device_reduce_combine`, `warp.device_scan_combine`,
`warp.device_segmented_reduce`, `warp.device_segmented_reduce_combine` and
`warp.device_segmented_radix_sort` from Python.

    import warp_mlir.device as wd
    total = wd.reduce(x)                      # x[0] + ... + x[n-1], a 1-element array
    m, i = wd.reduce((x, idx), argmax, init=(-inf, -1))  # argmax(k, left, right): a combiner
    prefix = wd.scan(x, "maxsi", exclusive=True)
    a, b = wd.scan((a, b), compose, init=(1, 0), exclusive=True)  # a combiner, in order
    runs = wd.scan(x, keys=k)                  # restarts wherever k[i] != k[i-1]
    kept, count = wd.select(x, x > 0)          # kept[:count[0]]: the positive ones
    kept, count = wd.select(x, pred=("gt", 0))  # the same, the test in the kernel
    first, lengths, runs = wd.run_length_encode(x)  # x's runs: first[:runs[0]], lengths[:runs[0]]
    offsets, lengths, runs = wd.non_trivial_runs(x)  # the runs of 2 or more: where, how long
    sorted_keys, sorted_values = wd.radix_sort(k, values=v)  # stable, by k
    current = wd.radix_sort(k, out=k2, double_buffer=True)  # k or k2, both overwritten
    sums = wd.segmented_reduce(x, offsets)     # sums[s] = x[offsets[s]:offsets[s+1]].sum()
    at, low = wd.segmented_argmin(x, offsets)  # CUB's ArgMin: (offset within, value) per segment
    out = wd.segmented_radix_sort(k, offsets)  # each k[offsets[s]:offsets[s+1]] sorted
    current = wd.segmented_radix_sort(k, offsets, out=k2, double_buffer=True)  # k or k2

Each call writes the one op into a host function, lets the compiler expand
it (`warp-expand-device-ops`: kernels made of warp ops, and how to launch
them), compiles those kernels once per (op, kind, type, chip) and launches
them in the order the module states, with the grid and scratch size its
attributes give (see the pass's description). Nothing about the launch is
decided here.

Arrays are 1-D and contiguous, of int8, int16, int32, int64, float16,
bfloat16 (torch) or float32, float64; values combine in their own type. Device
arrays (torch, cupy: DLPack or `__cuda_array_interface__`) are used in place
and the kernels are queued on `stream` (default: the default stream), so the
result is ready when that stream has run them, as with torch's own ops; host
arrays (numpy) are copied in and out and the call waits. `backend="sim"`
runs the kernels on warp's SIMT simulator (numpy arrays, no GPU).
"""
from __future__ import annotations

import math
import struct
import sys
import weakref
from dataclasses import dataclass
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from . import _capi, _checks
from .compiler import CompiledModule, compile as _compile
from .cuda import launch, launch_sequence, synchronize
from .ir import Context, Module

# The element types the ops take, by the names numpy, cupy and torch give them.
_TYPES = {"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float16": "f16",
          "bfloat16": "bf16", "float32": "f32", "float64": "f64"}


def _blocks_for(n: int, items: int) -> int:
    """max(1, ceil(n / items)), as the host code's blocksFor: an empty
    input still gets one block (or tile)."""
    return max(1, -(-n // items))


class _Kernel(NamedTuple):
    """A kernel of a plan, as its attributes state its launch."""
    name: str
    items: Optional[int]     # elements per block of its grid (None: one block)
    most: Optional[int]      # the most blocks (None: no cap)
    single: Optional[int]    # the most elements one block takes alone
    threads: int             # its block size
    cluster: int             # its cluster's blocks
    operand: Optional[int]   # the operand whose elements its grid counts (None: the input's)
    after_single: bool       # skipped where the kernel before ran one block or cluster
    before_single: bool      # skipped where the kernel after runs one block or cluster
    alone_up_to: Optional[int]  # the only launch (one block or cluster) for n up to this
    alone_over: Optional[int]   # and over this (None: from 0); not launched for other n
    least: Optional[Tuple[int, int]] = None  # at least min(B, ceil(n / I)) blocks: (B, I)

    def grid(self, n: int) -> int:
        """Its blocks for `n` elements (of its operand): whole clusters."""
        blocks = 1 if self.items is None else _blocks_for(n, self.items)
        if self.least is not None:
            blocks = max(blocks, min(self.least[0], _blocks_for(n, self.least[1])))
        blocks = blocks if self.most is None else min(blocks, self.most)
        blocks = 1 if self.single is not None and n <= self.single else blocks
        return -(-blocks // self.cluster) * self.cluster


@dataclass
class _Plan:
    """A compiled device op: its kernels in launch order (_Kernel: the grid
    is whole clusters), the scratch rule (bytes = fixed + per_tile * T,
    T = max(1, ceil(n / tile))) and, for a double-buffered radix sort, the
    buffer that holds the result (`warp.device_result_buffer`; else None)."""
    compiled: CompiledModule
    kernels: List[_Kernel]
    scratch: Tuple[int, ...]
    result_buffer: Optional[int] = None

    def launches(self, n: int, arrays: List[Any]) -> List[Tuple[str, int, int]]:
        """(kernel, grid, threads) of each kernel launched for `n` elements
        of `arrays` (the kernels' operands), in order."""
        for k in self.kernels:
            if k.alone_up_to is not None and n <= k.alone_up_to and \
                    (k.alone_over is None or n > k.alone_over):
                return [(k.name, k.cluster, k.threads)]
        grids = [k.grid(n if k.operand is None else _length(arrays[k.operand]))
                 for k in self.kernels]
        launches: List[Tuple[str, int, int]] = []
        # The blocks of a cluster of the kernel launched last: its grid is
        # one cluster (one block without clusters) where it is that many.
        last_cluster = 0
        for i, k in enumerate(self.kernels):
            if k.alone_up_to is not None:
                continue
            if k.after_single and launches and launches[-1][1] == last_cluster:
                continue
            if k.before_single and i + 1 < len(grids) and \
                    grids[i + 1] == self.kernels[i + 1].cluster:
                continue
            launches.append((k.name, grids[i], k.threads))
            last_cluster = k.cluster
        return launches

    def scratch_bytes(self, n: int) -> int:
        fixed, per_tile, tile = self.scratch
        return fixed + per_tile * _blocks_for(n, tile)


_plans: Dict[Tuple[str, ...], _Plan] = {}


# numpy's names of the dtypes seen (str() of a numpy dtype is slow), per
# dtype object.
_dtype_names: Dict[Any, str] = {}


def _dtype_name(x: Any) -> str:
    """numpy's name of the element type of `x` (torch's without "torch.")."""
    dtype = getattr(x, "dtype", "")
    try:
        return _dtype_names[dtype]
    except (KeyError, TypeError):  # new, or not hashable
        name = str(dtype).replace("torch.", "")
    try:
        _dtype_names[dtype] = name
    except TypeError:
        pass
    return name


def _library(x: Any) -> Any:
    """The module of the array library `x` comes from (torch, cupy, numpy)."""
    return sys.modules[type(x).__module__.split(".")[0]]


def _dtype(like: Any, name: str) -> Any:
    """The dtype `name` (a numpy name) as the library of `like` spells it."""
    library = _library(like)
    return getattr(library, name) if library.__name__ == "torch" else name


def _element_type(x: Any) -> str:
    name = _dtype_name(x)
    if name not in _TYPES:
        raise TypeError(f"device ops take int8, int16, int32, int64, float16, bfloat16, "
                        f"float32 or float64 arrays, not {name or type(x).__name__}")
    return _TYPES[name]


def _length(x: Any) -> int:
    shape = tuple(getattr(x, "shape", ()))
    if len(shape) != 1:
        raise ValueError(f"device ops take 1-D arrays, got shape {shape}")
    return int(shape[0])


def _empty(like: Any, n: int, dtype: str) -> Any:
    """An uninitialised 1-D array of `n` elements of `dtype` (a numpy name)
    from the library and on the device of `like`."""
    if _library(like).__name__ == "torch":
        return like.new_empty((n,), dtype=_dtype(like, dtype))
    return _library(like).empty((n,), dtype=dtype)


def _attribute(op, name: str):
    attr = _capi.lib().mlirOperationGetAttributeByName(op, _capi.MlirStringRef.of(name.encode()))
    return attr if attr.ptr else None


def _read_plan(module: Module, compiled: CompiledModule) -> _Plan:
    """The launches the expanded module states: its gpu.module's
    `warp.device_scratch` and, in order, each kernel's `warp.device_grid`,
    `warp.device_grid_max`, `warp.device_grid_min`, `warp.device_grid_single`,
    `known_block_size`, `known_cluster_size`, `warp.device_grid_operand`,
    `warp.device_skip_if_single`, `warp.device_skip_before_single`,
    `warp.device_alone_up_to` and `warp.device_alone_over`; the module's
    `warp.device_result_buffer` where it has one."""
    L = _capi.lib()
    kernels: List[_Kernel] = []
    scratch: List[Tuple[int, ...]] = []
    result_buffer: List[int] = []

    def ints(attr) -> List[int]:
        return [L.mlirDenseI64ArrayGetElement(attr, i) if L.mlirAttributeIsADenseI64Array(attr)
                else L.mlirDenseI32ArrayGetElement(attr, i)
                for i in range(L.mlirDenseArrayGetNumElements(attr))]

    def value(attr) -> Optional[int]:
        return None if attr is None else L.mlirIntegerAttrGetValueInt(attr)

    def visit(op, _user_data):
        name = L.mlirIdentifierStr(L.mlirOperationGetName(op)).bytes()
        if name == b"gpu.module":
            rule = _attribute(op, "warp.device_scratch")
            if rule is not None:
                scratch.append(tuple(ints(rule)))
            buffer = _attribute(op, "warp.device_result_buffer")
            if buffer is not None:
                result_buffer.append(L.mlirIntegerAttrGetValueInt(buffer))
        elif name == b"gpu.func" and scratch:
            symbol = L.mlirStringAttrGetValue(_attribute(op, "sym_name")).bytes().decode()
            grid, most, single, operand = (_attribute(op, "warp.device_grid" + suffix)
                                           for suffix in ("", "_max", "_single", "_operand"))
            alone, over = (_attribute(op, "warp.device_alone_" + suffix)
                           for suffix in ("up_to", "over"))
            least = _attribute(op, "warp.device_grid_min")
            block = ints(_attribute(op, "known_block_size"))
            cluster = _attribute(op, "known_cluster_size")
            kernels.append(_Kernel(symbol, value(grid), value(most), value(single),
                                   block[0] * block[1] * block[2],
                                   1 if cluster is None else ints(cluster)[0], value(operand),
                                   _attribute(op, "warp.device_skip_if_single") is not None,
                                   _attribute(op, "warp.device_skip_before_single") is not None,
                                   value(alone), value(over),
                                   None if least is None else tuple(ints(least))))
        return 0  # advance

    callback = _capi.OperationWalkCallback(visit)
    L.mlirOperationWalk(module.operation, callback, None, 0)  # pre-order: module order
    if len(scratch) != 1 or not kernels:
        raise RuntimeError("warp-expand-device-ops gave no launch plan")
    return _Plan(compiled, kernels, scratch[0], result_buffer[0] if result_buffer else None)


def _op_text(op: str, variant: str, element: str, exclusive: bool, cluster: int = 1,
             keys: str = "") -> str:
    """A host function holding the one device op on memrefs of `element`;
    `variant` is the combine kind of a reduce or scan, the bins' memref
    type of a histogram ("memref<256xi32>": static bins are counted in
    workgroup memory first), the counts' element type of a run-length
    encoding ("i32"), the offsets' and lengths' of the non-trivial runs
    ("i32,i64"), unused otherwise; a scan's `cluster` blocks, and the
    element type of its `keys` (a scan by key) where given."""
    data = f"memref<?x{element}>"
    region = ""
    if op in ("select_if", "partition_if"):
        # `variant`: the predicate, "<arith.cmpf or cmpi predicate>:<constant>".
        types, head = [data, data, "memref<1xi64>"], f"warp.device_{op}"
        compare, constant = variant.split(":")
        cmp = "cmpf" if element.startswith(("f", "bf")) else "cmpi"
        region = (f" pred(%v: {element}) {{\n    %t = arith.constant {constant} : {element}\n"
                  f"    %keep = arith.{cmp} {compare}, %v, %t : {element}\n"
                  f"    warp.yield %keep : i1\n  }}")
    elif op in ("select", "partition"):
        types = [data, "memref<?xi8>", data, "memref<1xi64>"]
        head = f"warp.device_{op}"
    elif op == "unique":
        types, head = [data, data, "memref<1xi64>"], "warp.device_unique"
    elif op == "run_length_encode":
        types = [data, data, f"memref<?x{variant}>", "memref<1xi64>"]
        head = "warp.device_run_length_encode"
    elif op == "non_trivial_runs":
        offsets, lengths = variant.split(",")
        types = [data, f"memref<?x{offsets}>", f"memref<?x{lengths}>", "memref<1xi64>"]
        head = "warp.device_non_trivial_runs"
    elif op == "histogram":
        types, head = [data, variant], "warp.device_histogram"
    else:
        types = [data, f"memref<1x{element}>" if op == "reduce" else data]
        head = f"warp.device_{op} <{variant}>"
    names = [f"%a{i}" for i in range(len(types))]
    operands = ", ".join(names)
    if keys:
        types.append(f"memref<?x{keys}>")
        names.append(f"%a{len(names)}")
        operands += f" keys {names[-1]}"
    params = ", ".join(f"{name}: {type_}" for name, type_ in zip(names, types))
    return (f"func.func @device_op({params}) {{\n  {head} {operands}"
            f"{' exclusive' if exclusive else ''}"
            f"{f' cluster_blocks = {cluster}' if cluster > 1 else ''}"
            f" : {', '.join(types)}{region}\n  return\n}}\n")


def _plan(op: str, variant: str, element: str, exclusive: bool, chip: str,
          cluster: int = 1, keys: str = "") -> _Plan:
    """The compiled kernels and launches of an op (see _op_text), made once."""
    key = (op, variant, element, str(exclusive), chip, str(cluster), keys)
    if key in _plans:
        return _plans[key]
    if op in ("reduce", "scan"):
        _check_kind(variant)
    return _plan_of(key, _op_text(op, variant, element, exclusive, cluster, keys), chip)


def _check_kind(kind: Any) -> None:
    """ValueError unless `kind` names a combine kind (the dialect's kind
    table says which names are kinds)."""
    if not (isinstance(kind, str) and kind.isidentifier() and
            _capi.lib().warpCombineKindDomains(_capi.MlirStringRef.of(kind.encode()))):
        raise ValueError(f"kind must be a combine kind of the warp dialect (add, mul, "
                         f"minsi, maxui, xor, maxnumf, ...), not {kind!r}")


def _plan_of(key: Tuple[str, ...], text: str, chip: str) -> _Plan:
    """The plan of the host function `text`, compiled and kept under `key`
    (the kept one where there is one)."""
    if key in _plans:
        return _plans[key]
    module = Module.parse(text, Context())
    module.verify()  # a kind outside the type's domain is the verifier's error
    module.run(f"warp-expand-device-ops{{chip={chip}}}")
    plan = _read_plan(module, _compile(module, chip=chip))
    _plans[key] = plan
    return plan


def _host(x: Any, backend: str) -> bool:
    """Whether launches copy `x` in and out (numpy, the simulator)."""
    return backend == "sim" or not (hasattr(x, "__dlpack_device__") and
                                    x.__dlpack_device__()[0] != 1)


def _run(op: str, arrays: List[Any], kind: str, exclusive: bool, chip: str, stream: Any,
         backend: str, cluster: int = 1, keys: Any = None) -> None:
    """Launches the kernels of `op` on `arrays` (its memrefs, in order; the
    first is the input; a scan's `keys` last) with a fresh scratch, as the
    expanded module says."""
    x = arrays[0]
    key_type = ""
    if keys is not None:
        key_type = _element_type(keys)
        arrays = arrays + [keys]
    _launch(_plan(op, kind, _element_type(x), exclusive, chip, cluster, key_type), arrays,
            _length(x), stream, backend)


def _launch(plan: _Plan, arrays: List[Any], n: int, stream: Any, backend: str) -> None:
    """The launches of `plan` on `arrays` (the kernels' operands before the
    scratch: arrays, and scalars after them), with a fresh scratch."""
    x = arrays[0]
    scratch = _empty(x, plan.scratch_bytes(n), "int8")
    host = _host(x, backend)
    launches = plan.launches(n, arrays)
    if backend == "sim":
        for kernel, grid, threads in launches:
            launch(plan.compiled, kernel, grid, threads, *arrays, scratch, n, backend=backend)
    else:
        # The arguments are checked and marshalled once for all the kernels.
        launch_sequence(plan.compiled, launches, *arrays, scratch, n, stream=stream, sync=host)
    if not host and stream is not None:
        # The scratch goes back to its library's allocator when this call
        # returns, which may hand it out on its own stream while `stream`
        # still runs the kernels: torch can be told; otherwise wait.
        if _library(scratch).__name__ == "torch" and _library(stream).__name__ == "torch":
            scratch.record_stream(stream)
        else:
            synchronize(stream)


def _output(x: Any, out: Any, n: int, what: str = "out") -> Any:
    """`out` checked against `x` (element type, at least `n` elements), or a
    new array like `x` of `n` elements."""
    if out is None:
        return _empty(x, n, _dtype_name(x))
    if _element_type(out) != _element_type(x):
        raise TypeError(f"{what} has {_element_type(out)} elements, x {_element_type(x)}")
    if _length(out) < n:
        raise ValueError(f"{what} has {_length(out)} elements, needs {n}")
    return out


_SAMPLES = {"int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16", "int32": "i32",
            "uint32": "i32", "int64": "i64", "uint64": "i64"}


def histogram(x: Any, bins: int, out: Any = None, dtype: str = "int32", chip: str = "sm_90",
              stream: Any = None, backend: str = "cuda", channels: Optional[int] = None,
              active: Optional[int] = None) -> Any:
    """`out[k]` = the number of samples of `x` equal to `k`, for `k <
    bins` (each sample an unsigned bin number; larger ones are not
    counted): a new int32 (or `dtype` int64) array like `x`, or `out`
    (overwritten). `x`: 1-D int8..int64 or uint8..uint64. With `channels`
    (C, CUB's MultiHistogram): `x` holds pixels of C interleaved channels,
    and `out[a, k]` counts channel a's samples equal to `k` for the first
    `active` (A, default C) channels: an (A, bins) array; the samples of a
    partial last pixel are not counted."""
    shape = _check_channels(channels, active)
    if shape is not None:
        name = _dtype_name(x)
        if name not in _SAMPLES:
            raise TypeError(f"histogram samples are int8..int64 or uint8..uint64, not {name}")
        if name.startswith("u"):
            x = x.view(_dtype(x, name[1:]))
        out, flat = _channel_counters(x, shape[1], int(bins), out, dtype)
        _level_histogram(x, flat, "", [], [], chip, stream, backend, shape)
        return out
    n = _length(x)
    name = _dtype_name(x)
    if name not in _SAMPLES:
        raise TypeError(f"histogram samples are int8..int64 or uint8..uint64, not {name}")
    bins = int(bins)
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    if name.startswith("u"):  # the same bits, as the signless type the kernels take
        x = x.view(_dtype(x, name[1:]))
    if out is None:
        if dtype not in ("int32", "int64"):
            raise ValueError(f"dtype must be int32 or int64, not {dtype!r}")
        out = _empty(x, bins, dtype)
    elif _dtype_name(out) not in ("int32", "int64") or \
            _length(out) != bins:
        raise TypeError(f"out must be an int32 or int64 array of {bins} elements")
    counters = _TYPES[_dtype_name(out)]
    sample = _SAMPLES[name]
    plan = _plan("histogram", f"memref<{bins}x{counters}>", sample, False, chip)
    _launch(plan, [x, out], n, stream, backend)
    return out


def _counters(x: Any, bins: int, out: Any, dtype: str) -> Any:
    """A histogram's `out` of `bins` int32 or int64 counters, checked, or a
    new one of `dtype` like `x`."""
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    if out is None:
        if dtype not in ("int32", "int64"):
            raise ValueError(f"dtype must be int32 or int64, not {dtype!r}")
        return _empty(x, bins, dtype)
    if _dtype_name(out) not in ("int32", "int64") or _length(out) != bins:
        raise TypeError(f"out must be an int32 or int64 array of {bins} elements")
    return out


def _check_channels(channels: Any, active: Any) -> Optional[Tuple[int, int]]:
    """(C, A) of a multi-channel histogram, checked (1 <= A <= C <= 16; A
    is C where not given), or None without `channels`."""
    if channels is None:
        if active is not None:
            raise ValueError("active channels need channels")
        return None
    count = _checks.integer(channels, "channels", 1, 16)
    if active is None:
        return count, count
    return count, _checks.integer(active, "active channels", 1, count)


def _channel_counters(x: Any, active: int, bins: int, out: Any, dtype: str) -> Tuple[Any, Any]:
    """A multi-channel histogram's (active, bins) counters, checked or new
    (of `dtype`, like `x`), and their flat view the kernels count into."""
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    if out is None:
        if dtype not in ("int32", "int64"):
            raise ValueError(f"dtype must be int32 or int64, not {dtype!r}")
        flat = _empty(x, active * bins, dtype)
        return flat.reshape(active, bins), flat
    if _dtype_name(out) not in ("int32", "int64") or \
            tuple(getattr(out, "shape", ())) != (active, bins):
        raise TypeError(f"out must be an int32 or int64 array of shape ({active}, {bins})")
    return out, out.reshape(-1)


def _level_samples(x: Any) -> Tuple[Any, bool]:
    """`x` as the kernels take it, and whether its integers are unsigned
    (uint8..uint64, viewed as the signed type of the same bits)."""
    name = _dtype_name(x)
    if name in ("uint8", "uint16", "uint32", "uint64"):
        return x.view(_dtype(x, name[1:])), True
    return x, False


def _level_histogram(x: Any, out: Any, levels: str, scalars: List[Any], extra: List[Any],
                     chip: str, stream: Any, backend: str,
                     channels: Optional[Tuple[int, int]] = None, unsigned: bool = False,
                     level: Optional[Tuple[str, bool]] = None) -> Any:
    """warp.device_histogram of `x` into `out` with `levels` (the op's
    clause: "even" or "range"; "" for bin numbers, with channels), the even
    levels' bits `scalars` (a lower and an upper per channel) or the
    range's array in `extra`; with `channels` (C, A), `out` and the range's
    levels flat, of A rows each; `unsigned`: the integers compare as
    unsigned; `level`: the levels' element type and whether its integers
    are unsigned, where it is not `x`'s."""
    element = _element_type(x)
    level_type = level[0] if level is not None else element
    counters = _TYPES[_dtype_name(out)]
    bins = _length(out)
    types = [f"memref<?x{element}>", f"memref<{bins}x{counters}>"]
    head = ""
    if channels is not None:
        types[1] = f"memref<{channels[1]}x{bins // channels[1]}x{counters}>"
        head = f" channels {channels[0]}"
    if unsigned:
        head += " unsigned"
    if level is not None and level[1]:
        head += " unsigned_levels"
    key = ("histogram", levels, element, types[1], chip, str(channels), str(unsigned),
           str(level))
    plan = _plans.get(key)
    if plan is None:
        if levels == "even":
            names = [f"%{side}{a}" for a in range(len(scalars) // 2) for side in ("lo", "hi")]
            params = "".join(f", {name}: {level_type}" for name in names)
            clause, tail = f" even({', '.join(names)} : {level_type})", ""
        elif levels == "range":
            types.append(f"memref<?x{level_type}>" if channels is None
                         else f"memref<{channels[1]}x?x{level_type}>")
            params, clause, tail = f", %l: {types[2]}", " range %l", f", {types[2]}"
        else:
            params, clause, tail = "", "", ""
        text = (f"func.func @device_op(%x: {types[0]}, %b: {types[1]}{params}) {{\n"
                f"  warp.device_histogram %x, %b{head}{clause} : {types[0]}, {types[1]}{tail}\n"
                f"  return\n}}\n")
        plan = _plan_of(key, text, chip)
    _launch(plan, [x, out] + extra + scalars, _length(x), stream, backend)
    return out


def _even_bounds(element: str, lower: Any, upper: Any, unsigned: bool = False) -> List[int]:
    """The bits of one channel's even levels as the kernels take them
    (unsigned ones as the signed integer of their bits), checked (`lower <
    upper`)."""
    if element[0] == "i" and unsigned:
        bits = int(element[1:])
        low, high = (_checks.integer(level, f"{what} level of u{element} samples",
                                     0, (1 << bits) - 1)
                     for what, level in (("lower", lower), ("upper", upper)))
        low, high = (v - (1 << bits) if v >> (bits - 1) else v for v in (low, high))
    elif element[0] == "i":  # samples and levels compare as signed
        bits = int(element[1:])
        low, high = (_checks.integer(level, f"{what} level of {element} samples",
                                     -(1 << (bits - 1)), (1 << (bits - 1)) - 1)
                     for what, level in (("lower", lower), ("upper", upper)))
    else:
        low, high = _init_bits(lower, element), _init_bits(upper, element)
    if not float(lower) < float(upper):
        raise ValueError(f"lower must be below upper, got {lower!r} and {upper!r}")
    return [low, high]


def _level_type(x_element: str, unsigned: bool, name: str) -> Optional[Tuple[str, bool]]:
    """The levels' element type of numpy name `name` and whether it is
    unsigned, where it is not the samples' (`x_element`, `unsigned`), else
    None; levels of the samples' type have their signedness."""
    signed = _UNSIGNED.get(name, name)
    if signed not in _TYPES:
        raise TypeError(f"levels are int8..int64, uint8..uint64 or float16..float64, "
                        f"not {name}")
    element = _TYPES[signed]
    if element == x_element:
        if (signed != name) != unsigned:
            sample = "u" * unsigned + signed
            raise TypeError(f"{name} levels for {sample} samples: levels of the samples' "
                            f"width share their signedness")
        return None
    return element, signed != name


def histogram_even(x: Any, bins: int, lower: Any, upper: Any, out: Any = None,
                   dtype: str = "int32", chip: str = "sm_90", stream: Any = None,
                   backend: str = "cuda", channels: Optional[int] = None,
                   active: Optional[int] = None, level_dtype: Any = None) -> Any:
    """CUB's DeviceHistogram::HistogramEven: `bins` bins spread evenly over
    `[lower, upper)`; a sample there goes to bin `floor((x - lower) * bins /
    (upper - lower))` (integers exactly; floats as CUB computes it, in `x`'s
    type: `(x - lower) * (bins / (upper - lower))` truncated, at most `bins
    - 1`); others, and NaN, are not counted. `x`: 1-D int8..int64 (signed)
    or float16..float64; `lower < upper`, numbers rounded to `x`'s type.
    Returns `out` (`bins` int32 or int64 counters, overwritten) or a new
    one of `dtype`. With `channels` (C, CUB's MultiHistogramEven): `x`
    holds pixels of C interleaved channels, `lower` and `upper` are
    sequences of one level per active channel (the first `active`, A,
    default C), and the result is (A, bins): row a is channel a's.
    uint8..uint64 samples compare with their levels as unsigned.

    `level_dtype` (a numpy dtype or its name; CUB's `LevelT` apart from
    the samples' type): the levels are of that type, and the sample and
    the levels are compared and binned in C++'s common type of the two
    (warp.device_histogram's description), e.g. uint8 pixels with int32
    levels as C++'s int, int32 samples with float64 levels as double."""
    x, unsigned = _level_samples(x)
    element = _element_type(x)
    level = None
    if level_dtype is not None:
        # A name, a numpy dtype or scalar type, or a torch dtype.
        type_name = getattr(level_dtype, "name", None) or getattr(level_dtype, "__name__", None)
        level = _level_type(element, unsigned,
                            str(type_name or level_dtype).replace("torch.", ""))
    bound_type, bound_unsigned = level if level is not None else (element, unsigned)
    shape = _check_channels(channels, active)
    if shape is None:
        out = _counters(x, int(bins), out, dtype)
        return _level_histogram(x, out, "even",
                                _even_bounds(bound_type, lower, upper, bound_unsigned),
                                [], chip, stream, backend, unsigned=unsigned, level=level)
    lower, upper = list(lower), list(upper)
    if len(lower) != shape[1] or len(upper) != shape[1]:
        raise ValueError(f"lower and upper need a level per active channel ({shape[1]}), "
                         f"got {len(lower)} and {len(upper)}")
    out, flat = _channel_counters(x, shape[1], int(bins), out, dtype)
    bounds = [bits for a in range(shape[1])
              for bits in _even_bounds(bound_type, lower[a], upper[a], bound_unsigned)]
    _level_histogram(x, flat, "even", bounds, [], chip, stream, backend, shape, unsigned,
                     level)
    return out


def histogram_range(x: Any, levels: Any, out: Any = None, dtype: str = "int32",
                    chip: str = "sm_90", stream: Any = None, backend: str = "cuda",
                    channels: Optional[int] = None, active: Optional[int] = None) -> Any:
    """CUB's DeviceHistogram::HistogramRange: `len(levels) - 1` bins, a
    sample `v` going to the bin `k` with `levels[k] <= v < levels[k + 1]`
    (a binary search; others, and NaN, are not counted). `levels`: at least
    2 increasing values, an array like `x` (int8..int64 signed or
    float16..float64) in the same memory. Returns `out` (int32 or int64
    counters, overwritten) or a new one of `dtype`. With `channels` (C,
    CUB's MultiHistogramRange): `x` holds pixels of C interleaved channels,
    `levels` is a contiguous (A, L) array (row a: channel a's levels, for
    the first `active`, A, default C) and the result is (A, L - 1).
    uint8..uint64 samples (and levels) compare as unsigned. Levels of
    another type (CUB's `LevelT`): each sample is converted to it as C++
    converts it (`(LevelT) sample`) and compared there, e.g. uint8 pixels
    with float32 levels, int32 samples with float64 levels."""
    x, unsigned = _level_samples(x)
    element = _element_type(x)
    level = _level_type(element, unsigned, _dtype_name(levels))
    levels, _ = _level_samples(levels)
    shape = _check_channels(channels, active)
    if shape is not None:
        rows = tuple(getattr(levels, "shape", ()))
        if len(rows) != 2 or rows[0] != shape[1] or rows[1] < 2:
            raise ValueError(f"levels must be ({shape[1]}, L) with L >= 2, got shape {rows}")
        out, flat = _channel_counters(x, shape[1], rows[1] - 1, out, dtype)
        _level_histogram(x, flat, "range", [], [levels.reshape(-1)], chip, stream, backend,
                         shape, unsigned, level)
        return out
    if _length(levels) < 2:
        raise ValueError(f"levels needs at least 2 values, got {_length(levels)}")
    out = _counters(x, _length(levels) - 1, out, dtype)
    return _level_histogram(x, out, "range", [], [levels], chip, stream, backend,
                            unsigned=unsigned, level=level)


def _cluster_blocks(value: Any) -> int:
    """A reduce's or scan's cluster_blocks, checked."""
    cluster = int(value)
    if cluster != 1 and not 2 <= cluster <= 8:
        raise ValueError(f"cluster_blocks must be 1 (none) or 2..8, not {value!r}")
    return cluster


def reduce(x: Any, kind: Any = "add", out: Any = None, chip: str = "sm_90",
           stream: Any = None, backend: str = "cuda", cluster_blocks: int = 1,
           init: Any = None) -> Any:
    """`x[0] (kind) ... (kind) x[n-1]` as a 1-element array (`out`, not
    overlapping `x`, or a new one like `x`); the kind's identity for an
    empty `x`. Floats combine in
    a tree, so a float sum may round differently from a sequential one.
    `cluster_blocks` 2 to 8 (sm_90 or the simulator): the folding blocks
    run in thread-block clusters and combine their partials through
    distributed shared memory (warp.device_reduce's cluster_blocks).

    `kind` may instead be a combiner function `combine(k, left, right)`
    (CUB's DeviceReduce::Reduce with a custom op; warp.device_reduce_combine):
    `k` is the kernel builder (warp_mlir's KernelBuilder) and `left`,
    `right` its Values, or tuples of them where `x` is a tuple of arrays
    (one tuple element per array, all of at least `len(x[0])` elements);
    it returns the combined Value or tuple, built as a block op's
    combiner is (see builder.py's block_reduce). It must be associative;
    the input order is kept (`left` holds the earlier elements), so it
    need not be commutative. `init` (a number, or a tuple of them) is
    required: the result is `init (op) x_0 (op) ... (op) x_{n-1}`, `init`
    for an empty `x`. Returns a 1-element array, or a tuple of them (`out`
    may give them). Not with `cluster_blocks`; int8 to int64, float32 and
    float64 arrays (init travels as a kernel parameter, which cannot be
    float16 or bfloat16)."""
    if callable(kind):
        if cluster_blocks != 1:
            raise ValueError("cluster_blocks does not combine with a combiner function")
        return _reduce_combine(x, kind, init, out, chip, stream, backend)
    if init is not None:
        raise ValueError("init goes with a combiner function (a kind has its identity)")
    cluster = _cluster_blocks(cluster_blocks)
    n = _length(x)
    out = _output(x, out, 1)
    if n and _address(out) == _address(x):
        raise ValueError("out must not be x")
    _run("reduce", [x, out], kind, False, chip, stream, backend, cluster)
    return out


# The region text of each function the device ops trace (a combiner, a
# key equality), per what it is and its element types. A function is traced
# once per element types, as a JIT traces once per signature: it must not
# depend on state that changes between calls. A function that cannot be
# referenced weakly is traced on each call.
_regions: "weakref.WeakKeyDictionary[Any, Dict[Tuple[str, ...], str]]" = \
    weakref.WeakKeyDictionary()


def _traced(function: Any, what: str, elements: List[str], trace: Any) -> str:
    """`trace(function, elements)`, kept per function, `what` and
    `elements`."""
    try:
        kept = _regions.setdefault(function, {})
    except TypeError:
        kept = {}
    key = (what, *elements)
    if key not in kept:
        kept[key] = trace(function, elements)
    return kept[key]


def _combine_region(combine: Any, elements: List[str]) -> str:
    """The `combine (...) { ... }` text of the combiner function `combine(k,
    left, right)` over tuples of `elements` (single values for one): the
    region warp_mlir's kernel builder makes for a warp.block_reduce, with
    its locations (the user's lines), for a device op's text; kept."""
    return _traced(combine, "combine", elements, _trace_region)


def _trace_region(combine: Any, elements: List[str]) -> str:
    """_combine_region's text, traced from `combine`."""
    from . import builder
    program = builder.Program("device_combiner")
    params = {f"v{i}": getattr(builder, element) for i, element in enumerate(elements)}
    single = len(elements) == 1

    def combiner(k, *values):
        k.block_reduce(lambda left, right: combine(k, left, right),
                       values[0] if single else tuple(values))
    program.kernel(**params)(combiner)
    return _region_text(str(program), "combine (")


def _equal_region(equal: Any, key: str) -> str:
    """The `equal(...) { ... }` text of a scan by key's equality function
    `equal(k, a, b)` of two `key` Values (an i1 Value): the region the
    kernel builder makes for a warp.merge_sort's compare function, renamed;
    kept."""
    return _traced(equal, "equal", [key], _trace_equal)


def _trace_equal(equal: Any, keys: List[str]) -> str:
    """_equal_region's text, traced from `equal`."""
    from . import builder
    program = builder.Program("device_equal")

    def sorter(k, v):
        k.merge_sort(v, compare=lambda a, b: equal(k, a, b))
    program.kernel(v=builder.vector(1, getattr(builder, keys[0])))(sorter)
    return "equal" + _region_text(str(program), "compare(")[len("compare"):]


def _region_text(text: str, opening: str) -> str:
    """The text of the first region of `text` that starts with `opening`,
    up to its closing brace."""
    start = text.index(opening)
    # The region ends at the brace that closes its first one (braces in
    # the locations' quoted file names do not count).
    depth, quoted, escaped, i = 0, False, False, text.index(")", start)
    while True:
        c = text[i]
        if quoted:
            quoted = not (c == '"' and not escaped)
            escaped = c == "\\" and not escaped
        elif c == '"':
            quoted = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1


def _tuple_arrays(what: str, x: Any, init: Any, out: Any, missing_init: Optional[str],
                 out_length: Optional[int]) -> Tuple[bool, List[Any], List[Any], List[Any],
                                                     List[str], int]:
    """The arrays, init values and outputs of a combiner-function call
    (`reduce` or `scan`: `what`), checked: whether `x` is a single array,
    the arrays, the init values (empty where `init` is None; an error
    saying `missing_init` where that is given), the outputs (`out_length`
    elements, `n` where None; new ones where not given), the element types
    and `n`."""
    single = not isinstance(x, (tuple, list))
    arrays = [x] if single else list(x)
    if not arrays:
        raise ValueError(f"{what} takes at least one array")
    if init is None and missing_init:
        raise ValueError(missing_init)
    inits = [] if init is None else [init] if single else list(init)
    outs = [out] if single else list(out) if out is not None else [None] * len(arrays)
    if (inits and len(inits) != len(arrays)) or len(outs) != len(arrays):
        raise ValueError(f"{what} takes one init value and one out per array: "
                         f"{len(arrays)} arrays, {len(inits)} init, {len(outs)} out")
    elements = [_element_type(a) for a in arrays]
    n = _length(arrays[0])
    for i, a in enumerate(arrays[1:], 1):
        if _length(a) < n:
            raise ValueError(f"array {i} has {_length(a)} elements, array 0 {n}")
    length = n if out_length is None else out_length
    outs = [_output(a, o, length) for a, o in zip(arrays, outs)]
    return single, arrays, inits, outs, elements, n


def _tuple_op(head: str, elements: List[str], with_init: bool, combine: Any,
              suffix: str = "", more_params: Tuple[str, ...] = (),
              more_types: str = "", more_regions: str = "") -> str:
    """A host function holding the one tuple op `head` (its mnemonic) on
    inputs %x<i> of `elements`, init values %i<i> of those types (where
    `with_init`) and outputs %o<i>, with the region of the combiner
    function; `suffix` after the outputs (" exclusive"), which may use the
    function's `more_params` (after the outputs: "%b: memref<?xi32>");
    `more_types` after the outputs' types (" keys memref<?xi32>"),
    `more_regions` after the combine region."""
    region = _combine_region(combine, elements) + more_regions
    memrefs = [f"memref<?x{e}>" for e in elements]
    params = ", ".join([f"%x{i}: {m}" for i, m in enumerate(memrefs)] +
                       [f"%i{i}: {e}" for i, e in enumerate(elements) if with_init] +
                       [f"%o{i}: {m}" for i, m in enumerate(memrefs)] + list(more_params))
    names = lambda prefix: ", ".join(f"%{prefix}{i}" for i in range(len(elements)))  # noqa: E731
    init = f" init({names('i')} : {', '.join(elements)})" if with_init else ""
    return (f"func.func @device_op({params}) {{\n  {head} {names('x')}{init} into "
            f"{names('o')}{suffix} : {', '.join(memrefs)} -> {', '.join(memrefs)}"
            f"{more_types} {region}\n"
            f"  return\n}}\n")


def _init_scalars(what: str, inits: List[Any], elements: List[str]) -> List[Any]:
    """The init values of a reduction with a combiner function (`what`) as
    the kernels take them: kernel parameters of the element types, which
    cannot be float16 or bfloat16."""
    if "f16" in elements or "bf16" in elements:
        raise TypeError(f"{what} with a combiner function takes int8..int64, float32 and "
                        "float64 arrays (init is a kernel parameter)")
    return [float(v) if e.startswith("f") else int(v) for v, e in zip(inits, elements)]


def _reduce_combine(x: Any, combine: Any, init: Any, out: Any, chip: str, stream: Any,
                    backend: str) -> Any:
    """reduce() with a combiner function: warp.device_reduce_combine."""
    single, arrays, inits, outs, elements, n = _tuple_arrays(
        "reduce", x, init, out, "a combiner function needs init (the fold starts from it)", 1)
    scalars = _init_scalars("reduce", inits, elements)
    text = _tuple_op("warp.device_reduce_combine", elements, True, combine)
    key = ("reduce_combine", text, chip)
    plan = _plan_of(key, text, chip)
    _launch(plan, arrays + scalars + outs, n, stream, backend)
    return outs[0] if single else tuple(outs)


def _scan_combine(x: Any, combine: Any, init: Any, exclusive: bool, out: Any, chip: str,
                  stream: Any, backend: str, keys: Any = None, equal: Any = None) -> Any:
    """scan() with a combiner function: warp.device_scan_combine (init as
    the integers of its bits, as the kernels take it), by `keys` (with an
    `equal` function or ==) where given."""
    single, arrays, inits, outs, elements, n = _tuple_arrays(
        "scan", x, init, out,
        "an exclusive scan with a combiner function needs init (a combiner has no identity)"
        if exclusive else None, None)
    if n and len({_address(o) for o in outs}) < len(outs):
        raise ValueError("the outs must be distinct arrays")
    bits = [_init_bits(v, e) for v, e in zip(inits, elements)]
    suffix, params, types, regions, extra = "", (), "", "", []
    if keys is not None:
        keys = _scan_keys(keys, n, outs)
        key_type = _element_type(keys)
        suffix, params = " keys %k", (f"%k: memref<?x{key_type}>",)
        types, extra = f" keys memref<?x{key_type}>", [keys]
        if equal is not None:
            regions = " " + _equal_region(equal, key_type)
    elif equal is not None:
        raise ValueError("equal goes with keys")
    text = _tuple_op("warp.device_scan_combine", elements, bool(inits), combine,
                     suffix + (" exclusive" if exclusive else ""), params, types, regions)
    key = ("scan_combine", text, chip)
    plan = _plan_of(key, text, chip)
    _launch(plan, arrays + bits + outs + extra, n, stream, backend)
    return outs[0] if single else tuple(outs)


def _scan_keys(keys: Any, n: int, outs: List[Any]) -> Any:
    """A scan's `keys`, checked (at least `n` elements, none of `outs`), as
    the kernels take them (unsigned ones as the signed type of their bits:
    == is bit for bit)."""
    if _length(keys) < n:
        raise ValueError(f"keys has {_length(keys)} elements, x {n}")
    if any(o is keys for o in outs) or (n and _address(keys) in {_address(o) for o in outs}):
        raise ValueError("out must not be keys")
    name = _dtype_name(keys)
    if name in _UNSIGNED:
        keys = keys.view(_dtype(keys, _UNSIGNED[name]))
    return keys


def scan(x: Any, kind: Any = "add", exclusive: bool = False, out: Any = None,
         chip: str = "sm_90", stream: Any = None, backend: str = "cuda",
         cluster_blocks: int = 1, keys: Any = None, init: Any = None,
         equal: Any = None) -> Any:
    """The inclusive (or `exclusive`) prefix scan of `x` with `kind`, into
    `out` (may be `x` itself) or a new array like `x`. `cluster_blocks` 2
    to 8 (sm_90 or the simulator): the tiles are scanned in thread-block
    clusters of that many blocks, with a look-back step per cluster
    (warp.device_scan's cluster_blocks).

    With `keys` (1-D, any of the types above, at least `len(x)` elements;
    not overlapping `out`), a scan by key (CUB's InclusiveScanByKey,
    ExclusiveScanByKey): the scan restarts wherever `keys[i] != keys[i-1]`
    (`==`: -0.0 equals 0.0, a NaN equals nothing), an exclusive one with
    the identity. Not with `cluster_blocks`.

    `kind` may instead be a combiner function `combine(k, left, right)`,
    as `reduce`'s (CUB's DeviceScan::InclusiveScan and ExclusiveScan with a
    custom op; warp.device_scan_combine), over `x` or a tuple of arrays
    (all of at least `len(x[0])` elements): output `i` is `x_0 (op) ...
    (op) x_i`, or with `init` (a number, or a tuple of them) `init (op)
    x_0 (op) ... (op) x_i` (CUB's InclusiveScanInit); `exclusive` needs
    `init`: output 0 is `init`, output `i` `init (op) x_0 (op) ... (op)
    x_{i-1}`. The combiner must be associative; the input order is kept,
    so it need not be commutative. Returns `out` (an array, or a tuple of
    them, each of at least `len(x[0])` elements; an out may be an array of
    `x` itself, in place, but must not otherwise overlap an array of `x`
    or another out), or new arrays. Not with `cluster_blocks`; init of any
    of the types (it travels as its bits).

    A combiner function with `keys` (CUB's InclusiveScanByKey and
    ExclusiveScanByKey with a custom op, init and equality_op): the scan
    restarts at each segment of equal neighbouring keys, `init` (where
    given) in front of every segment, an exclusive one's segments starting
    with `init`; `equal(k, a, b)` (a function of two key Values returning
    an i1 Value, e.g. `lambda k, a, b: a // 10 == b // 10`) says
    which neighbours `keys[i-1]`, `keys[i]` are in one segment, in place
    of `==`."""
    if callable(kind):
        if cluster_blocks != 1:
            raise ValueError("cluster_blocks does not combine with a combiner function")
        return _scan_combine(x, kind, init, exclusive, out, chip, stream, backend, keys,
                             equal)
    if init is not None:
        raise ValueError("init goes with a combiner function (a kind has its identity)")
    if equal is not None:
        raise ValueError("equal goes with a combiner function (warp.device_scan_combine)")
    cluster = _cluster_blocks(cluster_blocks)
    n = _length(x)
    if keys is not None:
        if cluster != 1:
            raise ValueError("cluster_blocks does not combine with keys")
        keys = _scan_keys(keys, n, [out])
    out = _output(x, out, n)
    _run("scan", [x, out], kind, bool(exclusive), chip, stream, backend, cluster, keys)
    return out


# The comparisons of a selection's `pred`, as arith.cmpf's and arith.cmpi's
# predicates: ordered ones for floats (a comparison with a NaN is false, as
# IEEE's and numpy's), but `une` for ne (a NaN differs from everything);
# signed ones for integers (numpy's int8..int64).
_COMPARISONS = {"lt": ("olt", "slt"), "le": ("ole", "sle"), "gt": ("ogt", "sgt"),
                "ge": ("oge", "sge"), "eq": ("oeq", "eq"), "ne": ("une", "ne")}
_SYMBOLS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


def _float_bits(value: float, element: str) -> str:
    """`value` rounded to the float type `element` (to nearest, as numpy
    rounds a Python scalar to an array's type; bf16 by way of f32), as
    the hexadecimal bit pattern MLIR takes for a float constant."""
    if element == "f64":
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    pack, unpack, width = {"f32": ("<f", "<I", 8), "bf16": ("<f", "<I", 4),
                           "f16": ("<e", "<H", 4)}[element]
    try:
        bits = struct.unpack(unpack, struct.pack(pack, value))[0]
    except OverflowError:  # rounds past the largest finite value
        bits = struct.unpack(unpack, struct.pack(pack, math.copysign(math.inf, value)))[0]
    if element == "bf16":  # the upper half of the f32, rounded to nearest even
        bits = 0x7FC0 if math.isnan(value) else (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return "0x%0*X" % (width, bits)


def _predicate(pred: Any, element: str) -> str:
    """The `pred` of a selection, `(comparison, scalar)`, as _op_text's
    variant for `element`s: "<predicate>:<constant>"."""
    try:
        if isinstance(pred, (str, bytes)):
            raise TypeError
        comparison, scalar = pred
    except (TypeError, ValueError):
        raise TypeError(f"pred must be a (comparison, scalar) pair such as ('gt', 0.5), "
                        f"not {pred!r}") from None
    name = _SYMBOLS.get(comparison, comparison) if isinstance(comparison, str) else None
    if name not in _COMPARISONS:
        raise ValueError(f"pred's comparison must be one of lt, le, gt, ge, eq, ne "
                         f"(or <, <=, >, >=, ==, !=), not {comparison!r}")
    floating = element.startswith(("f", "bf"))
    if floating:
        try:
            constant = _float_bits(float(scalar), element)
        except (TypeError, ValueError):
            raise TypeError(f"pred compares with a number, not {scalar!r}") from None
    else:
        try:
            value = int(scalar)
            exact = value == scalar
        except (TypeError, ValueError, OverflowError):
            exact = False
        if not exact or isinstance(scalar, bool):
            raise TypeError(f"pred compares {element} elements with an integer, "
                            f"not {scalar!r}")
        bits = int(element[1:])
        if not -2 ** (bits - 1) <= value < 2 ** (bits - 1):
            raise ValueError(f"pred's {value} does not fit the {element} elements")
        constant = str(value)
    return f"{_COMPARISONS[name][0 if floating else 1]}:{constant}"


def _selection(op: str, x: Any, flags: Any, out: Any, count: Any, chip: str, stream: Any,
               backend: str, pred: Any = None) -> Tuple[Any, Any]:
    n = _length(x)
    if (flags is None) == (pred is None):
        raise TypeError(f"{op} takes flags or pred, one of them")
    if pred is not None:
        variant = _predicate(pred, _element_type(x))
        out = _output(x, out, n)
        count = _count(x, count)
        _run(f"{op}_if", [x, out, count], variant, False, chip, stream, backend)
        return out, count
    name = _dtype_name(flags)
    if name == "bool":
        flags = flags.view(_dtype(flags, "int8"))
    elif name != "int8":
        raise TypeError(f"flags must be bool or int8, not {name or type(flags).__name__}")
    if _length(flags) < n:
        raise ValueError(f"flags has {_length(flags)} elements, x {n}")
    out = _output(x, out, n)
    count = _count(x, count)
    _run(op, [x, flags, out, count], "add", False, chip, stream, backend)
    return out, count


def _count(x: Any, count: Any, what: str = "count") -> Any:
    """A selection's count array: `count`, checked, or a new one like `x`."""
    if count is None:
        return _empty(x, 1, "int64")
    if _dtype_name(count) != "int64" or _length(count) < 1:
        raise TypeError(f"{what} must be an int64 array of at least one element")
    return count


def select(x: Any, flags: Any = None, out: Any = None, count: Any = None, chip: str = "sm_90",
           stream: Any = None, backend: str = "cuda", pred: Any = None) -> Tuple[Any, Any]:
    """The elements of `x` whose flag is not zero, in order: returns `(out,
    count)`, `out[:count[0]]` being them (`out` like `x`, not overlapping
    it; the rest is left as it is) and `count` a 1-element int64 array.
    `flags`: one bool or int8 per element of `x` (more are ignored).

    Or, in place of `flags`, `pred=(comparison, scalar)`: the elements
    for which `x[i] <comparison> scalar` holds (CUB's DeviceSelect::If,
    `warp.device_select_if`; the test runs in the kernel). The comparison
    is lt, le, gt, ge, eq or ne (or <, <=, >, >=, ==, !=); the scalar is
    rounded to `x`'s type, an integer for integer `x` (compared signed).
    Float comparisons are IEEE's, as numpy's: with a NaN only ne holds."""
    return _selection("select", x, flags, out, count, chip, stream, backend, pred)


def unique(x: Any, out: Any = None, count: Any = None, chip: str = "sm_90",
           stream: Any = None, backend: str = "cuda") -> Tuple[Any, Any]:
    """The first element of each run of equal elements of `x`, in order
    (CUB's DeviceSelect::Unique; equality is `==`: -0.0 equals 0.0, a NaN
    equals nothing): returns `(out, count)` as `select` does."""
    n = _length(x)
    out = _output(x, out, n)
    count = _count(x, count)
    _run("unique", [x, out, count], "add", False, chip, stream, backend)
    return out, count


def run_length_encode(x: Any, unique: Any = None, counts: Any = None, num_runs: Any = None,
                      chip: str = "sm_90", stream: Any = None,
                      backend: str = "cuda") -> Tuple[Any, Any, Any]:
    """The runs of equal consecutive elements of `x` (CUB's
    DeviceRunLengthEncode::Encode; equality as `unique`'s: -0.0 equals 0.0,
    every NaN is a run of its own): returns `(unique, counts, num_runs)`,
    `unique[r]` the first element of run `r` and `counts[r]` its length for
    `r < num_runs[0]` (the rest of both is left as it is). `unique`: like
    `x`, not overlapping it; `counts`: int32 or int64 (new: int32, as CUB's
    `int` lengths, or int64 where `x` has 2^31 elements or more, so that
    every length fits); `num_runs`: a 1-element int64 array. All new where
    not given, like `x`."""
    n = _length(x)
    unique = _output(x, unique, n, "unique")
    if counts is None:
        counts = _empty(x, n, "int32" if n < 2 ** 31 else "int64")
    elif _dtype_name(counts) not in ("int32", "int64"):
        raise TypeError(f"counts must be an int32 or int64 array, not "
                        f"{_dtype_name(counts) or type(counts).__name__}")
    elif _length(counts) < n:
        # Every element may start a run.
        raise ValueError(f"counts has {_length(counts)} elements, needs {n}")
    num_runs = _count(x, num_runs, "num_runs")
    _run("run_length_encode", [x, unique, counts, num_runs], _TYPES[_dtype_name(counts)],
         False, chip, stream, backend)
    return unique, counts, num_runs


def _positions(x: Any, array: Any, what: str, n: int) -> Any:
    """An int32 or int64 array of at least `n // 2` elements for the
    non-trivial runs' offsets or lengths: `array`, checked, or a new one
    like `x` (int32 unless `x` has 2^31 elements or more)."""
    if array is None:
        return _empty(x, n // 2, "int32" if n < 2 ** 31 else "int64")
    if _dtype_name(array) not in ("int32", "int64"):
        raise TypeError(f"{what} must be an int32 or int64 array, not "
                        f"{_dtype_name(array) or type(array).__name__}")
    if _length(array) < n // 2:
        # Every other element may start a run of two.
        raise ValueError(f"{what} has {_length(array)} elements, needs {n // 2}")
    return array


def non_trivial_runs(x: Any, offsets: Any = None, lengths: Any = None, num_runs: Any = None,
                     chip: str = "sm_90", stream: Any = None,
                     backend: str = "cuda") -> Tuple[Any, Any, Any]:
    """The runs of two or more equal consecutive elements of `x` (CUB's
    DeviceRunLengthEncode::NonTrivialRuns, `warp.device_non_trivial_runs`;
    equality as `unique`'s: -0.0 equals 0.0, a NaN equals nothing): returns
    `(offsets, lengths, num_runs)`, `offsets[r]` the position in `x` of
    the first element of such run `r` and `lengths[r]` its length for `r <
    num_runs[0]` (the rest of both is left as it is). `offsets`,
    `lengths`: int32 or int64 arrays of at least `len(x) // 2` elements
    (new: int32, or int64 where `x` has 2^31 elements or more; an int32
    offset must hold every position of `x`); `num_runs`: a 1-element
    int64 array. All new where not given, like `x`."""
    n = _length(x)
    offsets = _positions(x, offsets, "offsets", n)
    lengths = _positions(x, lengths, "lengths", n)
    if n and _address(offsets) == _address(lengths):
        raise ValueError("offsets and lengths must be two arrays")
    num_runs = _count(x, num_runs, "num_runs")
    _run("non_trivial_runs", [x, offsets, lengths, num_runs],
         f"{_TYPES[_dtype_name(offsets)]},{_TYPES[_dtype_name(lengths)]}",
         False, chip, stream, backend)
    return offsets, lengths, num_runs


def partition(x: Any, flags: Any = None, out: Any = None, count: Any = None,
              chip: str = "sm_90", stream: Any = None, backend: str = "cuda",
              pred: Any = None) -> Tuple[Any, Any]:
    """As `select`, and the elements whose flag is zero fill `out[count[0]:n]`
    in reverse order (CUB's DevicePartition::Flagged); with `pred`, those
    it does not hold for (DevicePartition::If)."""
    return _selection("partition", x, flags, out, count, chip, stream, backend, pred)


def _address(x: Any) -> Any:
    """Where the elements of `x` start (torch, cupy, numpy), else `x`'s id."""
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    pointer = getattr(getattr(x, "data", None), "ptr", None)  # cupy's MemoryPointer
    if type(pointer) is int:
        return pointer
    for interface in ("__cuda_array_interface__", "__array_interface__"):
        # One read: cupy builds the interface's dict on each.
        described = getattr(x, interface, None)
        if described is not None:
            return described["data"][0]
    return id(x)


def _sort_plan(key_type: str, value_type: str, options: str, chip: str,
               offsets: Tuple[str, ...] = ()) -> _Plan:
    """The compiled kernels of a warp.device_radix_sort of `key_type` keys
    (and `value_type` values, "" for none) with `options` (" descending
    signed bits B to E" or part of it), made once; with `offsets` (the
    begin and end offsets' element types), a
    warp.device_segmented_radix_sort."""
    key = ("radix_sort", key_type, value_type, options, chip) + offsets
    if key in _plans:
        return _plans[key]
    types = ([f"memref<?x{key_type}>"] * 2 + [f"memref<?x{o}>" for o in offsets] +
             [f"memref<?x{value_type}>"] * (2 if value_type else 0))
    names = [f"%a{i}" for i in range(len(types))]
    params = ", ".join(f"{name}: {type_}" for name, type_ in zip(names, types))
    operands = ", ".join(names[:2 + len(offsets)])
    if value_type:
        operands += f" values {names[-2]}, {names[-1]}"
    op = "warp.device_segmented_radix_sort" if offsets else "warp.device_radix_sort"
    double = options.endswith("double_buffer")
    result = " -> i32" if double else ""
    text = (f"func.func @device_op({params}){result} {{\n"
            f"  {'%c = ' if double else ''}{op} {operands}{options} : {', '.join(types)}{result}\n"
            f"  return{' %c : i32' if double else ''}\n}}\n")
    return _plan_of(key, text, chip)


_UNSIGNED = {"uint8": "int8", "uint16": "int16", "uint32": "int32", "uint64": "int64"}


def radix_sort(keys: Any, values: Any = None, out: Any = None, values_out: Any = None,
               descending: bool = False, begin_bit: int = 0, end_bit: Optional[int] = None,
               chip: str = "sm_90", stream: Any = None, backend: str = "cuda",
               double_buffer: bool = False) -> Any:
    """The keys sorted, stably (CUB's DeviceRadixSort::SortKeys): `out` (or a
    new array like `keys`, not overlapping it) gets them in ascending (or
    `descending`) order; with `values` (CUB's SortPairs), `values_out` (or a
    new array like `values`) gets each key's value, and `(out, values_out)`
    is returned. Keys: int8..int64 (signed order), uint8..uint64 (unsigned),
    float16, bfloat16, float32, float64 (-0.0 before +0.0, NaNs by their
    bits: positive ones last); values of any of those types, as many as
    the keys. Only bits `[begin_bit, end_bit)` of the key's ordered image
    (warp.device_radix_sort's) take part (default: all).

    `double_buffer=True` (CUB's DoubleBuffer form): `keys` and `out` (and
    `values` and `values_out`) are the two buffers the passes go back and
    forth between, so no copy of the data is allocated; both are
    overwritten, and the one that holds the sorted keys (and values) is
    returned, as above: `keys` itself or `out` (CUB's `keys.Current()`;
    which one depends on the key type and bits only)."""
    return _radix_sort(keys, None, values, out, values_out, descending, begin_bit, end_bit,
                       chip, stream, backend, double_buffer)


def segmented_radix_sort(keys: Any, offsets: Any, values: Any = None, out: Any = None,
                         values_out: Any = None, descending: bool = False, begin_bit: int = 0,
                         end_bit: Optional[int] = None, chip: str = "sm_90", stream: Any = None,
                         backend: str = "cuda", double_buffer: bool = False) -> Any:
    """Each segment of the keys sorted on its own, stably, at its own
    positions (CUB's DeviceSegmentedRadixSort::SortKeys, SortPairs and
    their Descending forms; warp.device_segmented_radix_sort): segment `s`
    is `keys[b:e]`, `[b, e) = [offsets[s], offsets[s+1])` (`offsets`: one
    int32 or int64 array of `S + 1` offsets), or `[begin[s], end[s])` for
    `offsets=(begin, end)` (`begin`'s length is `S`, `end` has at least as
    many); `e <= b` is empty. Segments must not overlap and must lie within
    `keys`. The order, `values`, `descending` and the bits are
    `radix_sort`'s. Returns `out` (or `(out, values_out)`), each of at
    least `len(keys)` elements, not overlapping the inputs; the elements in
    no segment are left as they are, and new arrays are copies of the
    inputs, so that they keep the inputs' elements there.

    `double_buffer=True` (CUB's DoubleBuffer form): as `radix_sort`'s, the
    inputs and outputs are the two buffers the passes go back and forth
    between (no copy of the data is allocated), both are overwritten in
    the segments, and the one that holds the sorted keys (and values) is
    returned: `keys` itself or `out`, by the key type and bits only, as
    `radix_sort` returns it for the same keys and bits."""
    begin, end = _offsets(offsets)
    if out is None:
        out = _copy(keys)
    if values is not None and values_out is None:
        values_out = _copy(values)
    return _radix_sort(keys, (begin, end), values, out, values_out, descending, begin_bit,
                       end_bit, chip, stream, backend, double_buffer)


def _copy(x: Any) -> Any:
    """A new array with `x`'s elements (torch, cupy, numpy)."""
    return x.clone() if _library(x).__name__ == "torch" else x.copy()


def _radix_sort(keys: Any, offsets: Optional[Tuple[Any, Any]], values: Any, out: Any,
                values_out: Any, descending: bool, begin_bit: int, end_bit: Optional[int],
                chip: str, stream: Any, backend: str, double_buffer: bool) -> Any:
    """radix_sort, or with `offsets` (begin, end) segmented_radix_sort."""
    n = _length(keys)
    name = _dtype_name(keys)
    signed = name in ("int8", "int16", "int32", "int64")

    def signless(x: Any) -> Any:  # the same bits, as the type the kernels take
        if x is not None and _dtype_name(x) in _UNSIGNED:
            return x.view(_dtype(x, _UNSIGNED[_dtype_name(x)]))
        return x

    def typed(x: Any, like_name: str) -> Any:  # back to the caller's unsigned type
        return x.view(_dtype(x, like_name)) if like_name in _UNSIGNED else x

    keys, out = signless(keys), signless(out)
    key_type = _element_type(keys)
    width = int(key_type[1:] if key_type[0] == "i" else key_type[-2:])
    begin = int(begin_bit)
    end = width if end_bit is None else int(end_bit)
    if not 0 <= begin < end <= width:
        raise ValueError(f"bits {begin} to {end} are not a range 0 <= begin < end <= "
                         f"{width} of {name} keys")
    out = _output(keys, out, n)
    arrays = [keys, out]
    value_type = value_name = ""
    if values is None and values_out is not None:
        raise ValueError("values_out needs values")
    if values is not None:
        if _length(values) < n:
            raise ValueError(f"values has {_length(values)} elements, keys {n}")
        value_name = _dtype_name(values)
        values, values_out = signless(values), signless(values_out)
        value_type = _element_type(values)
        values_out = _output(values, values_out, n, "values_out")
        arrays += [values, values_out]
    if n and len({_address(a) for a in arrays}) != len(arrays):
        raise ValueError("the outputs must not be the inputs or each other")
    bits = "" if (begin, end) == (0, width) else f" bits {begin} to {end}"
    options = (f"{' descending' if descending else ''}{' signed' if signed else ''}{bits}"
               f"{' double_buffer' if double_buffer else ''}")
    offset_types: Tuple[str, ...] = ()
    if offsets is not None:
        offset_types = tuple(_OFFSETS[_dtype_name(a)] for a in offsets)
        arrays[2:2] = list(offsets)
    plan = _sort_plan(key_type, value_type, options, chip, offset_types)
    _launch(plan, arrays, n, stream, backend)
    if double_buffer and plan.result_buffer == 0:
        out, values_out = keys, values
    out = typed(out, name)
    return (out, typed(values_out, value_name)) if values is not None else out


_OFFSETS = {"int32": "i32", "int64": "i64"}


def _init_bits(init: Any, element: str) -> int:
    """The bits of a segmented reduction's `init` as the kernel takes them
    (an integer of the element's width): a float rounded to `element` to
    nearest, an integer in the type's signed or unsigned range."""
    if element[0] == "i":
        low, high = _checks.int_range(element)
        return _checks.integer(init, f"init of {element} elements", low, high)
    if isinstance(init, bool):
        raise TypeError(f"init of {element} elements must be a number, not {init!r}")
    try:
        value = float(init)
    except (TypeError, ValueError):
        raise TypeError(f"init of {element} elements must be a number, not {init!r}") from None
    return _checks.float_bits(value, element)


def _offsets(offsets: Any) -> Tuple[Any, Any]:
    """The (begin, end) offset arrays of a segmented op, checked: from one
    array of `S + 1` offsets, or a pair of arrays."""
    if isinstance(offsets, tuple):
        if len(offsets) != 2:
            raise ValueError(f"offsets must be one array or a (begin, end) pair, not a tuple "
                             f"of {len(offsets)}")
        begin, end = offsets
    else:
        if _length(offsets) < 1:
            raise ValueError("offsets needs at least one element (S + 1 offsets for S segments)")
        begin, end = offsets[:-1], offsets[1:]
    for what, array in (("begin", begin), ("end", end)):
        if _dtype_name(array) not in _OFFSETS:
            raise TypeError(f"{what} offsets must be an int32 or int64 array, not "
                            f"{_dtype_name(array) or type(array).__name__}")
    if _length(end) < _length(begin):
        raise ValueError(f"end has {_length(end)} offsets, begin {_length(begin)}")
    return begin, end


def segmented_reduce(x: Any, offsets: Any, kind: Any = "add", init: Any = None, out: Any = None,
                     chip: str = "sm_90", stream: Any = None, backend: str = "cuda") -> Any:
    """`out[s] = init (kind) x[b] (kind) ... (kind) x[e-1]` for each segment
    `s` (CUB's DeviceSegmentedReduce::Reduce; Sum, Min, Max without
    `init`): `init` alone where `e <= b`. `offsets`: one int32 or int64
    array of `S + 1` offsets (segment `s` is `[offsets[s], offsets[s+1])`,
    CUB's usual form), or a pair `(begin, end)` of such arrays (`begin`'s
    length is `S`, `end` has at least as many). Every non-empty segment
    must lie within `x`. `init`: a number, rounded to `x`'s type (default:
    the kind's identity, as `reduce`'s). Returns `out` (at least `S`
    elements like `x`, not overlapping `x`; elements past `S` are left as
    they are), or a new array of `S`. Floats combine in the order
    warp.device_segmented_reduce states: each of 256 threads folds every
    256th element of the segment from the left, then a tree.

    `kind` may instead be a combiner function `combine(k, left, right)`
    (CUB's DeviceSegmentedReduce::Reduce with a custom op;
    warp.device_segmented_reduce_combine), as `reduce`'s: `x` may be a
    tuple of arrays (all of at least `len(x[0])` elements), `init` (a
    number or a tuple of them) is required, `out[s] = init (op) x[b] (op)
    ... (op) x[e-1]` with the input order kept, `init` for an empty
    segment; returns an array or a tuple of them of `S` elements (or
    `out`); int8 to int64, float32 and float64 arrays."""
    if callable(kind):
        return _segmented_reduce_combine(x, offsets, kind, init, out, chip, stream, backend)
    _check_kind(kind)
    n = _length(x)
    element = _element_type(x)
    begin, end = _offsets(offsets)
    segments = _length(begin)
    out = _output(x, out, segments)
    if n and segments and _address(out) == _address(x):
        raise ValueError("out must not be x")
    # The kernels take init as its bits (warp-expand-device-ops).
    scalars = [] if init is None else [_init_bits(init, element)]
    types = [f"memref<?x{element}>"] * 2 + [f"memref<?x{_OFFSETS[_dtype_name(a)]}>"
                                              for a in (begin, end)]
    key = ("segmented_reduce", kind, element, types[2], types[3], str(init is None), chip)
    plan = _plans.get(key)
    if plan is None:
        params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
        init_clause, init_type = ("", "") if init is None else (" init %i", f", {element}")
        init_param = "" if init is None else f", %i: {element}"
        text = (f"func.func @device_op({params}{init_param}) {{\n"
                f"  warp.device_segmented_reduce <{kind}> %a0, %a1, %a2, %a3{init_clause}"
                f" : {', '.join(types)}{init_type}\n  return\n}}\n")
        plan = _plan_of(key, text, chip)
    view = out[:segments] if _length(out) > segments else out
    _launch(plan, [x, view, begin, end] + scalars, n, stream, backend)
    return out


def _segmented_reduce_combine(x: Any, offsets: Any, combine: Any, init: Any, out: Any,
                              chip: str, stream: Any, backend: str) -> Any:
    """segmented_reduce() with a combiner function:
    warp.device_segmented_reduce_combine."""
    begin, end = _offsets(offsets)
    segments = _length(begin)
    single, arrays, inits, outs, elements, n = _tuple_arrays(
        "segmented_reduce", x, init, out,
        "a combiner function needs init (the fold starts from it)", segments)
    scalars = _init_scalars("segmented_reduce", inits, elements)
    if n and segments:
        written = [_address(o) for o in outs]
        if len(set(written)) < len(outs) or set(written) & {_address(a) for a in arrays}:
            raise ValueError("the outs must be distinct arrays, none of them an x")
    offset_types = [f"memref<?x{_OFFSETS[_dtype_name(a)]}>" for a in (begin, end)]
    text = _tuple_op("warp.device_segmented_reduce_combine", elements, True, combine,
                     f" segments(%b, %e : {', '.join(offset_types)})",
                     (f"%b: {offset_types[0]}", f"%e: {offset_types[1]}"))
    key = ("segmented_reduce_combine", text, chip)
    plan = _plan_of(key, text, chip)
    views = [o[:segments] if _length(o) > segments else o for o in outs]
    _launch(plan, arrays + scalars + views + [begin, end], n, stream, backend)
    return outs[0] if single else tuple(outs)


def _arg_combiner(better: str) -> Any:
    """CUB's ArgMin (`better` "lt") or ArgMax ("gt") over (value, index)
    pairs whose left pair holds the lower indices: the right pair only
    where its value is strictly better (a tie keeps the first), and a left
    pair of index -1 (init, no element) never."""
    def combine(k, left, right):
        (lv, li), (rv, ri) = left, right
        better_value = rv < lv if better == "lt" else rv > lv
        take = (li < 0) | better_value
        return k.select(take, rv, lv), k.select(take, ri, li)
    return combine


def _segmented_arg(x: Any, offsets: Any, better: str, chip: str, stream: Any,
                   backend: str) -> Tuple[Any, Any]:
    """segmented_argmin / segmented_argmax: the reduction of (x, global
    index) pairs, then each index made an offset within its segment, and
    CUB's (1, the extreme value) for an empty segment."""
    element = _element_type(x)
    n = _length(x)
    if n >= 2 ** 31:
        raise ValueError("segmented_argmin/argmax take fewer than 2^31 elements (int32 "
                         "offsets, CUB's KeyValuePair<int, T>)")
    if element in ("f16", "bf16"):
        raise TypeError("segmented_argmin/argmax take int8..int64, float32 and float64 arrays")
    # numeric_limits<T>::max() and lowest().
    bits = int(element[1:])
    if element[0] == "f":
        largest = sys.float_info.max if bits == 64 else float.fromhex("0x1.fffffep127")
    else:
        largest = (1 << (bits - 1)) - 1
    extreme = largest if better == "lt" else -largest - (element[0] == "i")
    library = _library(x)
    if library.__name__ == "torch":
        index = library.arange(n, dtype=library.int32, device=x.device)
    else:
        index = library.arange(n, dtype="int32")
    begin, end = _offsets(offsets)
    values, found = _segmented_reduce_combine(
        (x, index), (begin, end), _arg_combiner(better), (extreme, -1), None, chip, stream,
        backend)
    if stream is not None and not _host(x, backend):
        synchronize(stream)  # the fix-up below runs on the library's own stream
    segments = _length(values)
    within = found - begin[:segments]
    within = library.where(found < 0, 1, within)
    within = within.to(library.int32) if library.__name__ == "torch" else within.astype("int32")
    return within, values


def segmented_argmin(x: Any, offsets: Any, chip: str = "sm_90", stream: Any = None,
                     backend: str = "cuda") -> Tuple[Any, Any]:
    """CUB's DeviceSegmentedReduce::ArgMin: for each segment (`offsets` as
    `segmented_reduce`'s), the offset within the segment of its first least
    element and that element, as two arrays of `S` (int32 offsets, values
    like `x`); an empty segment gives (1, the type's largest value), as
    CUB's `{1, numeric_limits<T>::max()}`. Values compare with `<` (signed
    integers; floats ordered, so a NaN is never less than anything: which
    pair a segment with NaNs gives is unspecified, as CUB's operator is not
    associative over NaN either). int8 to int64, float32 and float64
    arrays of fewer than 2^31 elements."""
    return _segmented_arg(x, offsets, "lt", chip, stream, backend)


def segmented_argmax(x: Any, offsets: Any, chip: str = "sm_90", stream: Any = None,
                     backend: str = "cuda") -> Tuple[Any, Any]:
    """CUB's DeviceSegmentedReduce::ArgMax: `segmented_argmin` with the
    first greatest element; an empty segment gives (1, the type's lowest
    value), as CUB's `{1, numeric_limits<T>::lowest()}`."""
    return _segmented_arg(x, offsets, "gt", chip, stream, backend)


__all__ = ["histogram", "histogram_even", "histogram_range", "non_trivial_runs", "partition",
           "radix_sort", "reduce", "run_length_encode", "scan", "segmented_radix_sort",
           "segmented_argmax", "segmented_argmin", "segmented_reduce", "select", "unique"]
