"""A small builder for writing warp kernels in Python.

Kernels are written as Python functions over typed values; the builder
makes a `gpu.module` through MLIR's C API (generic operation state) that
`compile` lowers and `launch` runs. Each op is checked by the dialects'
own verifiers at the call that makes it.

    prog = Program()

    @prog.kernel(a=memref(f32), b=memref(f32), out=memref(f32))
    def dot(k, a, b, out):
        i = k.global_id()
        s = k.reduce("add", a[i] * b[i], lanes="first")
        with k.if_(k.lane_id() == 0):
            out[i // 32] = s

    print(prog)                       # the gpu.module
    compiled = compile(prog, chip="sm_90")

Bad input raises at the builder call that gets it. A Python value of the
wrong kind (a float or bool where an int is meant, a number where a kernel
value is, an operand of the wrong type) is a TypeError; one of the right
kind that does not fit (an i32 constant of 2**32, a value of another
kernel, a kernel name PTX cannot spell, a kernel defined twice, regions
nested deeper than KernelBuilder.MAX_NESTING) a ValueError, whose message
starts with the call and the user's line (`k.shuffle() at kernel.py:12:
...`). An op the compiler's verifier refuses (a payload the op does not
take, a kind for another type, a shuffle width of 3) raises
VerificationError (a ValueError) with the verifier's own message at the
user's line: `kernel.py:12:9: error: 'warp.shuffle' op ...`.

Every op carries the location of the user's call (`loc("kernel.py":12:9)`:
the innermost frame outside this package; a combiner's warp.yield the line
of the combiner's `return`), so a verifier error, a lint warning or a
pipeline failure names the Python line that made the op.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _capi, _checks
from ._ops import OpFactory
from .ir import Module, VerificationError, _release, default_context

Number = Union[int, float, bool]

# Frames in these files are the builder's own: a location names the first
# frame outside them (contextlib runs the `with k.if_(...)` machinery).
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_INTERNAL_FILES = frozenset({os.path.abspath(contextlib.__file__)})


@functools.lru_cache(maxsize=1024)
def _is_internal(filename: str) -> bool:
    path = os.path.abspath(filename)
    return path.startswith(_PACKAGE_DIR) or path in _INTERNAL_FILES


@functools.lru_cache(maxsize=512)
def _positions(code) -> Tuple:
    return tuple(code.co_positions()) if hasattr(code, "co_positions") else ()


class SourceLocation:
    """A Python source position: file, line and (1-based) column."""

    __slots__ = ("file", "line", "column")

    def __init__(self, file: str, line: int, column: int = 1) -> None:
        self.file, self.line, self.column = file, line, column

    def position(self) -> Tuple[str, int, int]:
        return (self.file, self.line, self.column)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def __repr__(self) -> str:
        return f"SourceLocation({self.file!r}, {self.line}, {self.column})"


def user_location() -> Optional[SourceLocation]:
    """Where the user's code called into the builder: the innermost frame
    outside warp_mlir (and contextlib), with its line and, on Python 3.11+,
    the column of the call; None when no such frame exists."""
    frame = sys._getframe(1)
    while frame is not None and _is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    return None if frame is None else _frame_location(frame)


def _frame_location(frame) -> SourceLocation:
    """The line of `frame` and, on Python 3.11+, the column of the
    instruction it is at."""
    line, column = frame.f_lineno, 1
    positions = _positions(frame.f_code)
    index = frame.f_lasti // 2
    if 0 <= index < len(positions):
        start_line, _, start_column, _ = positions[index]
        if start_line == line and start_column is not None:
            column = start_column + 1
    return SourceLocation(frame.f_code.co_filename, line, column)


def _function_location(function: Callable) -> Optional[SourceLocation]:
    code = getattr(function, "__code__", None)
    return SourceLocation(code.co_filename, code.co_firstlineno) if code else None


class _Call:
    """Names the outermost builder call in the errors raised inside it:
    `k.shuffle() at kernel.py:12: type mismatch ...`. Calls the builder
    makes itself (k.global_id calls k.block_id) keep the outer name; user
    callbacks (k.cond's branches) are calls of their own."""

    def __init__(self, builder: "KernelBuilder", name: str) -> None:
        self.builder, self.name = builder, name

    def __enter__(self) -> None:
        self.outermost = not self.builder._calls
        self.builder._calls.append(self.name)

    def __exit__(self, kind, error, traceback) -> None:
        self.builder._calls.pop()
        if (self.outermost and error is not None and isinstance(error, (TypeError, ValueError,
                                                                         IndexError))
                and error.args and isinstance(error.args[0], str)
                and not getattr(error, "_warp_named", False)):
            where = user_location()
            at = f" at {where}" if where else ""
            error.args = (f"{self.name}{at}: {error.args[0]}",) + error.args[1:]
            error._warp_named = True


def _api(name: str) -> Callable:
    """Decorates a builder method (or a Value/Loop method, reaching the
    builder through .builder) so errors name `name` and the user's line."""
    def wrap(method: Callable) -> Callable:
        @functools.wraps(method)
        def call(self, *args, **kwargs):
            builder = self if isinstance(self, KernelBuilder) else self.builder
            with _Call(builder, name):
                return method(self, *args, **kwargs)
        call._warp_api = True
        return call
    return wrap


class Type:
    """An MLIR type: i1 ... i64, index, f16, bf16, f32, f64, vectors, memrefs."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Type({self.name})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Type) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    @property
    def element(self) -> "Type":
        return self

    @property
    def is_float(self) -> bool:
        return self.element.name in ("f16", "bf16", "f32", "f64")

    @property
    def is_index(self) -> bool:
        return self.element.name == "index"

    @property
    def is_integer(self) -> bool:
        return self.element.name.startswith("i") and not self.is_index

    @property
    def bits(self) -> int:
        name = self.element.name
        if name.startswith("f8"):  # f8E4M3FN, f8E5M2, ...
            return 8
        return 64 if name == "index" else int(name.lstrip("ibf"))

    @property
    def is_fragment(self) -> bool:
        """Whether this is a warp's MMA fragment (MMAMatrixType): opaque,
        no arithmetic, taken only by the k.mma_* methods and loops."""
        return False


class VectorType(Type):
    def __init__(self, size: int, element: Type) -> None:
        size = _checks.integer(size, "a vector size", 1)
        if not isinstance(element, Type) or isinstance(element, (VectorType, MemRefType)):
            raise TypeError(f"a vector's element must be a scalar type such as f16, "
                            f"not {element!r}")
        super().__init__(f"vector<{size}x{element}>")
        self._element, self.size = element, size

    @property
    def element(self) -> Type:
        return self._element


# The memory space of workgroup (shared) memory buffers.
WORKGROUP_SPACE = "#gpu.address_space<workgroup>"


class MemRefType(Type):
    def __init__(self, element: Type, shape: Sequence[int], space: str = "") -> None:
        if not isinstance(element, Type) or isinstance(element, MemRefType):
            raise TypeError(f"a memref's element must be a scalar or vector type, not {element!r}")
        if isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
            raise TypeError(f"a memref shape is a sequence of sizes (-1 for dynamic), "
                            f"not {shape!r}")
        shape = [_checks.integer(d, "a memref size (-1 for dynamic)", -1) for d in shape]
        dims = "".join(("?" if d < 0 else str(d)) + "x" for d in shape)
        suffix = f", {space}" if space else ""
        super().__init__(f"memref<{dims}{element}{suffix}>")
        self._element, self.shape, self.space = element, tuple(shape), space

    @property
    def element(self) -> Type:
        return self._element


class MMAMatrixType(Type):
    """`!gpu.mma_matrix<RxCxT, "AOp"|"BOp"|"COp">`: the warp's fragment of a
    rows x cols tile of an MMA operand (`operand` "a", "b") or accumulator
    ("c"), spread over the 32 lanes in a way only the MMA ops know."""

    _OPERANDS = {"a": "AOp", "b": "BOp", "c": "COp"}

    def __init__(self, rows: int, cols: int, element: Type, operand: str) -> None:
        rows = _checks.integer(rows, "a fragment's rows", 1)
        cols = _checks.integer(cols, "a fragment's columns", 1)
        operand = _checks.one_of(operand, "an MMA operand", tuple(self._OPERANDS))
        if not isinstance(element, Type) or isinstance(element, (VectorType, MemRefType,
                                                                 MMAMatrixType)):
            raise TypeError(f"a fragment's element must be a scalar type, not {element!r}")
        super().__init__(f'!gpu.mma_matrix<{rows}x{cols}x{element}, "{self._OPERANDS[operand]}">')
        self._element, self.shape, self.operand = element, (rows, cols), operand

    @property
    def element(self) -> Type:
        return self._element

    @property
    def is_fragment(self) -> bool:
        return True


i1, i8, i16, i32, i64 = (Type(f"i{b}") for b in (1, 8, 16, 32, 64))
index, f16, bf16, f32, f64 = Type("index"), Type("f16"), Type("bf16"), Type("f32"), Type("f64")


def vector(size: int, element: Type) -> VectorType:
    """A 1-D vector type, e.g. vector(2, f16)."""
    return VectorType(size, element)


def memref(element: Type, shape: Sequence[int] = (-1,)) -> MemRefType:
    """A memref type; -1 marks a dynamic size (the default: one dynamic dim)."""
    return MemRefType(element, shape)


def mma_matrix(rows: int, cols: int, element: Type, operand: str) -> MMAMatrixType:
    """An MMA fragment type, e.g. mma_matrix(16, 16, f32, "c") (the values
    k.mma_load, k.mma_fill and k.mma make have such types)."""
    return MMAMatrixType(rows, cols, element, operand)


class Value:
    """An SSA value of the kernel being built. Arithmetic and comparison
    operators emit arith ops (signed for integers; integer `/` and `%`
    truncate as in C, `//` floors); memrefs index with [] (load) and []=
    (store)."""

    def __init__(self, builder: "KernelBuilder", name: str, type: Type, handle) -> None:
        # `name` labels the value in messages (%v3, %shared0, %a); `handle`
        # is its MlirValue.
        self.builder, self.name, self.type, self.handle = builder, name, type, handle

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Value({self.name}: {self.type})"

    def __bool__(self):
        raise TypeError("a kernel value has no Python truth value: use k.if_(...) "
                        "or k.select(...)")

    def _binary(self, other, int_op: str, float_op: str, reverse: bool = False) -> "Value":
        if isinstance(self.type, MemRefType):
            raise TypeError(f"no arithmetic on a memref ({self.type}): index it first")
        _reject_fragment(self, "arithmetic")
        if self.type.is_float and float_op == int_op:
            raise TypeError(f"arith.{int_op} needs integers, not {self.type}")
        other = self.builder.coerce(other, self.type)
        lhs, rhs = (other, self) if reverse else (self, other)
        return self.builder._arith(float_op if self.type.is_float else int_op, lhs, rhs)

    __add__ = lambda s, o: s._binary(o, "addi", "addf")
    __radd__ = lambda s, o: s._binary(o, "addi", "addf", True)
    __sub__ = lambda s, o: s._binary(o, "subi", "subf")
    __rsub__ = lambda s, o: s._binary(o, "subi", "subf", True)
    __mul__ = lambda s, o: s._binary(o, "muli", "mulf")
    __rmul__ = lambda s, o: s._binary(o, "muli", "mulf", True)
    __truediv__ = lambda s, o: s._binary(o, "divsi", "divf")
    __floordiv__ = lambda s, o: s._binary(o, "floordivsi", "divf")
    __mod__ = lambda s, o: s._binary(o, "remsi", "remf")
    __and__ = lambda s, o: s._binary(o, "andi", "andi")
    __or__ = lambda s, o: s._binary(o, "ori", "ori")
    __xor__ = lambda s, o: s._binary(o, "xori", "xori")
    __lshift__ = lambda s, o: s._binary(o, "shli", "shli")
    __rshift__ = lambda s, o: s._binary(o, "shrsi", "shrsi")

    def __neg__(self) -> "Value":
        if isinstance(self.type, MemRefType):
            raise TypeError(f"no arithmetic on a memref ({self.type}): index it first")
        _reject_fragment(self, "arithmetic")
        if self.type.is_float:
            return self.builder._emit("arith.negf", [self], self.type)
        return self.builder.coerce(0, self.type) - self

    def _compare(self, other, int_pred: str, float_pred: str) -> "Value":
        if isinstance(self.type, (MemRefType, VectorType, MMAMatrixType)):
            raise TypeError(f"cannot compare values of type {self.type}")
        b = self.builder
        other = b.coerce(other, self.type)
        if self.type.is_float:
            predicate = b._ops.integer(_CMPF_PREDICATES[float_pred], "i64")
            return b._emit("arith.cmpf", [self, other], i1, {"predicate": predicate})
        predicate = b._ops.integer(_CMPI_PREDICATES[int_pred], "i64")
        return b._emit("arith.cmpi", [self, other], i1, {"predicate": predicate})

    __eq__ = lambda s, o: s._compare(o, "eq", "oeq")
    __ne__ = lambda s, o: s._compare(o, "ne", "une")
    __lt__ = lambda s, o: s._compare(o, "slt", "olt")
    __le__ = lambda s, o: s._compare(o, "sle", "ole")
    __gt__ = lambda s, o: s._compare(o, "sgt", "ogt")
    __ge__ = lambda s, o: s._compare(o, "sge", "oge")
    __hash__ = object.__hash__

    def _indices(self, key) -> List["Value"]:
        keys = key if isinstance(key, tuple) else (key,)
        if len(keys) != len(self.type.shape):
            raise IndexError(f"{self.type} needs {len(self.type.shape)} indices, got {len(keys)}")
        return [self.builder.to_index(k) for k in keys]

    def __getitem__(self, key) -> "Value":
        if not isinstance(self.type, MemRefType):
            raise TypeError(f"cannot index a value of type {self.type}")
        return self.builder._emit("memref.load", [self, *self._indices(key)], self.type.element)

    def __setitem__(self, key, value) -> None:
        if not isinstance(self.type, MemRefType):
            raise TypeError(f"cannot index a value of type {self.type}")
        value = self.builder.coerce(value, self.type.element)
        self.builder._op("memref.store", [value, self, *self._indices(key)])


class Loop:
    """An scf.for under construction (see KernelBuilder.loop)."""

    def __init__(self, builder, lower, upper, step, init) -> None:
        self.builder = builder
        if not isinstance(step, Value):
            _checks.integer(step, "a loop step", 1)
        self.lower, self.upper, self.step = (builder.to_index(v) for v in (lower, upper, step))
        if isinstance(init, Value) or not hasattr(init, "__iter__"):
            raise TypeError("loop init is a list of kernel values, e.g. init=[x]")
        self.init = [builder.value(v, "a loop's init value") for v in init]
        self.results: List[Value] = []
        self._yielded: Optional[List[Value]] = None
        self._operation = None

    def __enter__(self):
        b = self.builder
        b._enter_region()
        self._where = b._position()
        types = [v.type for v in self.init]
        body = b._ops.block([b._ops.type(str(t)) for t in [index] + types],
                            b._ops.location(self._where))
        self._operation = b._op("scf.for", [self.lower, self.upper, self.step, *self.init],
                                types, regions=[[body]], verify=False)
        self.results = b._results(self._operation, types)
        arguments = b._arguments(body, [index] + types)
        b._blocks.append(body)
        return tuple(arguments) if self.init else arguments[0]

    def yield_(self, *values) -> None:
        """Ends an iteration with the next values of the carried variables."""
        if len(values) != len(self.init):
            raise ValueError(f"the loop carries {len(self.init)} values, yield_ got {len(values)}")
        self._yielded = [self.builder.coerce(v, c.type) for v, c in zip(values, self.init)]

    def __exit__(self, *exc) -> None:
        b = self.builder
        b._depth -= 1
        b._blocks.pop()
        if exc[0] is None and self.init and self._yielded is None:
            b._erase(self._operation)
            raise ValueError("a loop with carried values must call yield_()")
        if exc[0] is not None:
            b._erase(self._operation)
            return
        b._blocks.append(b._ops.region_block(self._operation, 0))
        try:
            b._op("scf.yield", self._yielded or [], location=self._where, verify=False)
        finally:
            b._blocks.pop()
        b._check(self._operation)


_DIMS = ("x", "y", "z")
# arith's comparison predicates (upstream's I64EnumAttr values).
_CMPI_PREDICATES = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5}
_CMPF_PREDICATES = {"oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "une": 13}
# memref.atomic_rmw's kinds (upstream's AtomicRMWKind values).
_ATOMIC_KINDS = {"addf": 0, "addi": 1}
# libdevice's functions: a kernel of that name collides with the lowering's
# declarations of them.
_RESERVED_PREFIXES = ("__nv_",)


def _symbol_name(name, what: str) -> str:
    """`name` when PTX can spell it as it is (the compiler's rule,
    warpIsPTXIdentifier) and it is no libdevice function's."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a string, not {type(name).__name__}")
    data = name.encode("utf-8")
    if not _capi.lib().warpIsPTXIdentifier(_capi.MlirStringRef.of(data)) or \
            name.startswith(_RESERVED_PREFIXES):
        raise ValueError(f"{what} {name!r} is not a valid PTX identifier: use ASCII letters, "
                         f"digits, '_' and '$' (a letter first, or '_'/'$' and one more "
                         f"character; not 'WARP_SZ' or '__nv_...')")
    return name


def _check_params(where: str, params: Dict[str, Type]) -> Dict[str, Type]:
    """Parameter names that are identifiers, each with a Type; `where`
    starts the messages."""
    for param, param_type in params.items():
        _checks.identifier(param, f"{where}: parameter name")
        if not isinstance(param_type, Type) or param_type.is_fragment:
            raise TypeError(f"{where}: parameter {param!r} needs a type such as wm.f32 or "
                            f"wm.memref(wm.f32), not {param_type!r}")
    return dict(params)


def _describe(value) -> str:
    if isinstance(value, Value):
        return f"a value of type {value.type}"
    return f"{type(value).__name__} ({value!r})"


def _reject_fragment(value: "Value", what: str) -> None:
    if value.type.is_fragment:
        raise TypeError(f"no {what} on an MMA fragment ({value.type}): its elements are "
                        f"spread over the lanes; store it with k.mma_store first")


def _segment_sizes(*groups: Sequence) -> str:
    """The operandSegmentSizes attribute of operand groups (one per ODS
    operand, in order)."""
    return f"array<i32: {', '.join(str(len(g)) for g in groups)}>"


def _returning(function: Callable, args: Tuple) -> Tuple[object, Optional[SourceLocation]]:
    """function(*args) and where it returned: the line of its `return` (of
    a lambda, its line), for the ops made from what it returned."""
    returned: List[SourceLocation] = []
    code = getattr(function, "__code__", None)
    previous = sys.getprofile()

    def profile(frame, event, arg):
        # The package's own functions (tile helpers) are no user's line.
        if event == "return" and frame.f_code is code and \
                not _is_internal(frame.f_code.co_filename):
            returned.append(_frame_location(frame))
        if previous is not None:
            previous(frame, event, arg)

    sys.setprofile(profile if code is not None else previous)
    try:
        result = function(*args)
    finally:
        sys.setprofile(previous)
    return result, (returned[-1] if returned else None)


from .tile import TileMixin  # noqa: E402  (tile helpers over the public API)


class KernelBuilder(TileMixin):
    """Builds one gpu.func kernel. Passed as `k` to a @Program.kernel
    function; its methods make ops and return Values.

    Regions (if_, loop, cond) nest at most MAX_NESTING levels deep: MLIR's
    parser recurses once per level and runs out of stack some thousands of
    levels down, so a deeper kernel could not be read back; deeper nesting
    raises ValueError here."""

    MAX_NESTING = 256

    def __init__(self, name: str, params: Dict[str, Type],
                 location: Optional[SourceLocation] = None,
                 program: Optional["Program"] = None) -> None:
        self._calls: List[str] = []
        self.location = location or user_location()
        self.name = _symbol_name(name, "kernel name")
        self.params = _check_params(f"kernel {name!r}", dict(params))
        self._depth = 0
        self._counter = 0
        # The gpu.func is made now, in its program's gpu.module (a program of
        # its own when none is given), so that the ops made into it have
        # their ancestors when they are verified; _finish completes it.
        self._program = program or Program()
        self._ops = ops = self._program._ops
        self._shared: List[Tuple[str, MemRefType]] = []
        self._shared_align: Dict[str, Optional[int]] = {}
        self._dynamic_bytes = 0
        self._dynamic_align = 16
        where = self.location.position() if self.location else None
        self._entry = ops.block([], ops.location(where))
        params_text = ", ".join(str(t) for t in self.params.values())
        self.operation = ops.create("gpu.func", ops.location(where), attributes={
            "sym_name": ops.string(self.name),
            "function_type": self._attribute(f"({params_text}) -> ()", where),
            "gpu.kernel": ops.unit(),
            "workgroup_attributions": ops.integer(0, "i64")}, regions=[[self._entry]])
        ops.L.mlirBlockAppendOwnedOperation(self._program._body, self.operation)
        self._blocks = [self._entry]
        self.args = [Value(self, f"%{p}", t, ops.L.mlirBlockAddArgument(
            self._entry, ops.type(str(t)), ops.location(where, p)))
            for p, t in self.params.items()]

    # -- making ops ----------------------------------------------------------
    def _position(self) -> Optional[Tuple[str, int, int]]:
        where = user_location()
        return where.position() if where else None

    def _call_name(self) -> str:
        return self._calls[0] if self._calls else f"kernel {self.name!r}"

    def _attribute(self, value, where):
        """An attribute given as MLIR text (parsed) or made already."""
        if not isinstance(value, str):
            return value
        attribute, diagnostics = self._ops.parse_attribute(value, where)
        if attribute is None:
            error = VerificationError(self._call_name(), diagnostics)
            error._warp_named = True
            raise error
        return attribute

    def _op(self, name: str, operands: Sequence[Value] = (), results: Sequence[Type] = (),
            attributes: Optional[Dict[str, object]] = None, regions: Sequence = (),
            location: Optional[Tuple[str, int, int]] = None, verify: bool = True):
        """Makes op `name` at the user's call (or `location`), appends it to
        the current block and, unless verify=False (terminators, and ops
        whose regions are filled in later), verifies it: VerificationError
        with the verifier's diagnostics when it fails, the op removed."""
        where = location or self._position()
        attributes = {key: self._attribute(value, where)
                      for key, value in (attributes or {}).items()}
        operation = self._ops.create(name, self._ops.location(where),
                                     [v.handle for v in operands],
                                     [self._ops.type(str(t)) for t in results],
                                     attributes, regions)
        self._ops.L.mlirBlockAppendOwnedOperation(self._blocks[-1], operation)
        if verify:
            self._check(operation)
        return operation

    def _check(self, operation) -> None:
        diagnostics = self._ops.verify(operation)
        if diagnostics:
            self._erase(operation)
            error = VerificationError(self._call_name(), diagnostics)
            error._warp_named = True
            raise error

    def _erase(self, operation) -> None:
        self._ops.L.mlirOperationDestroy(operation)

    def _results(self, operation, types: Sequence[Type]) -> List[Value]:
        return [Value(self, self._fresh(), t, h)
                for t, h in zip(types, self._ops.results(operation, len(types)))]

    def _arguments(self, block, types: Sequence[Type]) -> List[Value]:
        L = self._ops.L
        return [Value(self, self._fresh(), t, L.mlirBlockGetArgument(block, i))
                for i, t in enumerate(types)]

    def _emit(self, name: str, operands: Sequence[Value], type: Type,
              attributes: Optional[Dict[str, object]] = None, regions: Sequence = ()) -> Value:
        return self._emit_n(name, operands, [type], attributes, regions)[0]

    def _emit_n(self, name: str, operands: Sequence[Value], types: Sequence[Type],
                attributes: Optional[Dict[str, object]] = None,
                regions: Sequence = ()) -> List[Value]:
        return self._results(self._op(name, operands, types, attributes, regions), types)

    def _fresh(self) -> str:
        self._counter += 1
        return f"%v{self._counter}"

    def _enter_region(self) -> None:
        if self._depth >= self.MAX_NESTING:
            raise ValueError(f"kernel {self.name!r}: regions (if_/loop/cond) nested deeper than "
                             f"KernelBuilder.MAX_NESTING = {self.MAX_NESTING} levels")
        self._depth += 1

    def value(self, value, what: str = "an operand") -> Value:
        """`value` when it is a Value of this kernel: TypeError for anything
        else, ValueError for a Value of another kernel."""
        if not isinstance(value, Value):
            raise TypeError(f"{what} must be a kernel value, not {type(value).__name__} "
                            f"({value!r}); use k.constant for a number")
        if value.builder is not self:
            raise ValueError(f"{value!r} belongs to kernel {value.builder.name!r}, not "
                             f"{self.name!r}")
        return value

    def _arith(self, op: str, lhs: Value, rhs: Value) -> Value:
        _reject_fragment(lhs, "arithmetic")
        return self._emit(f"arith.{op}", [lhs, rhs], lhs.type)

    def known_block_size(self, x: int, y: int = 1, z: int = 1) -> None:
        """Promises the block shape the kernel is launched with (the
        gpu.func's known_block_size): the lowerings may then use it (e.g.
        block_load's "warp_transpose" needs whole warps). Call it before
        the ops that depend on it; launching another shape is undefined
        behaviour."""
        self._set_shape("known_block_size", (x, y, z), "a block dimension", 1024,
                        "a block has at most 1024 threads")

    def known_cluster_size(self, x: int, y: int = 1, z: int = 1) -> None:
        """Makes every launch of the kernel clustered (sm_90): clusters of
        x * y * z blocks (the gpu.func's known_cluster_size, PTX's
        .reqnctapercluster), which the cluster ops then fold over without a
        loop. The grid must be a multiple of it in each dimension; clusters
        of more than 8 blocks need the driver's non-portable opt-in."""
        self._set_shape("known_cluster_size", (x, y, z), "a cluster dimension", 16,
                        "a cluster has at most 16 blocks")

    def _set_shape(self, name: str, dims, what: str, most: int, limit: str) -> None:
        """The gpu.func's attribute `name`: a shape of three sizes, each and
        their product at most `most`."""
        sizes = [_checks.integer(v, what, 1, most) for v in dims]
        if sizes[0] * sizes[1] * sizes[2] > most:
            raise ValueError(f"{limit}, not {sizes}")
        if name == "known_block_size":
            self._known_block_threads = sizes[0] * sizes[1] * sizes[2]
        where = self.location.position() if self.location else None
        self._ops.L.mlirOperationSetAttributeByName(
            self.operation, _capi.MlirStringRef.of(name.encode()),
            self._attribute(f"array<i32: {', '.join(map(str, sizes))}>", where))

    def _finish(self) -> None:
        """Ends the kernel: gpu.return, the workgroup buffers' attributes,
        and the gpu.func verified as a whole."""
        ops, L = self._ops, self._ops.L
        where = self.location.position() if self.location else None
        self._blocks = [self._entry]
        self._op("gpu.return", location=where, verify=False)

        def set_attribute(name: str, value) -> None:
            L.mlirOperationSetAttributeByName(self.operation, _capi.MlirStringRef.of(name),
                                              value)

        set_attribute(b"workgroup_attributions", ops.integer(len(self._shared), "i64"))
        if any(self._shared_align.values()):
            set_attribute(b"workgroup_attrib_attrs", self._attribute("[" + ", ".join(
                f"{{llvm.align = {self._shared_align[n]} : i64}}" if self._shared_align[n]
                else "{}" for n, _ in self._shared) + "]", where))
        diagnostics = ops.verify(self.operation)
        if diagnostics:
            raise VerificationError(f"kernel {self.name!r}", diagnostics)

    def _discard(self) -> None:
        """Drops a kernel whose building failed."""
        if self.operation is not None:
            self._erase(self.operation)
        self.operation = None

    def text(self) -> str:
        """The gpu.func as MLIR text, with the user's locations."""
        return self._ops.print(self.operation) if self.operation is not None else ""

    # -- values --------------------------------------------------------------
    def constant(self, value: Number, type: Type) -> Value:
        """An arith.constant of `type` (a vector type gets a splat). Float
        constants are exact: the bits of `value` rounded to the type (to
        nearest even), NaN, infinities and -0.0 included. Integer types
        take ints only, in the type's signed or unsigned range; i1 takes
        bools, 0 and 1."""
        if not isinstance(type, Type) or isinstance(type, MemRefType) or type.is_fragment:
            raise TypeError(f"a constant needs a scalar or vector type, not {type!r}"
                            + (" (k.mma_fill makes a constant fragment)"
                               if isinstance(type, MMAMatrixType) else ""))
        element = type.element
        if element == i1:  # MLIR spells i1 constants `true`/`false`, untyped
            literal = "true" if _checks.int_literal(value, "i1") else "false"
        elif element.is_float:
            literal = _checks.float_literal(value, element.name)
        else:
            literal = str(_checks.int_literal(value, element.name))
        if isinstance(type, VectorType):
            text = f"dense<{literal}> : {type}"
        else:
            text = literal if element == i1 else f"{literal} : {type}"
        return self._emit("arith.constant", [], type, {"value": text})

    def coerce(self, value, type: Type) -> Value:
        """`value` as a Value of `type`: Python numbers become constants."""
        if isinstance(value, Value):
            self.value(value)
            if value.type != type:
                raise TypeError(f"type mismatch: {value.type} where {type} is expected "
                                f"(use k.cast)")
            return value
        if isinstance(value, (int, float, bool)):
            return self.constant(value, type)
        raise TypeError(f"cannot use {value!r} as a {type}")

    def to_index(self, value) -> Value:
        if isinstance(value, Value) and value.type != index:
            if (not self.value(value).type.is_integer or value.type == i1
                    or isinstance(value.type, VectorType)):
                raise TypeError(f"an index must be an integer, not {value.type} (use k.cast)")
            return self.cast(value, index)
        return self.coerce(value, index)

    def cast(self, value: Value, type: Type) -> Value:
        """Converts between integer, index and float types (signed; i1 is
        a boolean and widens to 0/1), or between vectors of them of one
        size."""
        src = self.value(value, "the value to cast").type
        if not isinstance(type, Type) or isinstance(type, MemRefType) or isinstance(
                src, MemRefType) or src.is_fragment or type.is_fragment:
            raise TypeError(f"cannot cast {src} to {type!r}")
        if isinstance(src, VectorType) != isinstance(type, VectorType) or (
                isinstance(src, VectorType) and src.size != type.size):
            raise TypeError(f"cannot cast {src} to {type}: vectors cast to vectors of one size")
        if src == type:
            return value
        if src.is_float and type.is_index:  # through i64: index_cast takes integers only
            return self.cast(self.cast(value, i64), type)
        if src.is_index and type.is_float:
            return self.cast(self.cast(value, i64), type)
        if src.is_index or type.is_index:
            # i1 is a boolean: true becomes 1, not -1.
            op = "index_castui" if src.element == i1 else "index_cast"
            return self._emit(f"arith.{op}", [value], type)
        if src.is_integer and type.is_integer:
            # i1 is a boolean: true widens to 1, not -1.
            widen = "extui" if src == i1 else "extsi"
            op = widen if type.bits > src.bits else "trunci"
        elif src.is_integer and type.is_float:
            op = "uitofp" if src.element == i1 else "sitofp"  # true is 1.0, not -1.0
        elif src.is_float and type.is_integer:
            op = "fptoui" if type.element == i1 else "fptosi"
        else:
            op = "extf" if type.bits > src.bits else "truncf"
        return self._emit(f"arith.{op}", [value], type)

    def select(self, condition: Value, a, b, type: Optional[Type] = None) -> Value:
        """`condition ? a : b`; give `type` when both are Python numbers."""
        condition = self.coerce(condition, i1)
        if type is None:
            if not isinstance(a, Value) and not isinstance(b, Value):
                raise TypeError("select: give `type` when both values are Python numbers")
            type = a.type if isinstance(a, Value) else b.type
        if type.is_fragment:
            raise TypeError(f"no select of MMA fragments ({type}): select the memory they "
                            f"are loaded from")
        a, b = self.coerce(a, type), self.coerce(b, type)
        return self._emit("arith.select", [condition, a, b], type)

    def min(self, a: Value, b) -> Value:
        a = self.value(a, "min's first operand")
        return self._arith("minimumf" if a.type.is_float else "minsi", a, self.coerce(b, a.type))

    def max(self, a: Value, b) -> Value:
        a = self.value(a, "max's first operand")
        return self._arith("maximumf" if a.type.is_float else "maxsi", a, self.coerce(b, a.type))

    def _math(self, op: str, x: Value, on_floats: bool = True) -> Value:
        x = self.value(x, f"math.{op}'s operand")
        _reject_fragment(x, f"math.{op}")
        if isinstance(x.type, MemRefType) or x.type.is_float != on_floats:
            raise TypeError(f"math.{op} needs {'a float' if on_floats else 'an integer'}, "
                            f"not {x.type}")
        return self._emit(f"math.{op}", [x], x.type)

    def exp(self, x: Value) -> Value:
        return self._math("exp", x)

    def sqrt(self, x: Value) -> Value:
        return self._math("sqrt", x)

    def rsqrt(self, x: Value) -> Value:
        return self._math("rsqrt", x)

    def popc(self, x: Value) -> Value:
        """Number of set bits (the ballot-count idiom)."""
        return self._math("ctpop", x, on_floats=False)

    # -- GPU ids, memory, control flow --------------------------------------
    def _dimension(self, op: str, dim: str) -> Value:
        dim = _checks.one_of(dim, "dim", _DIMS)
        return self._emit(op, [], index, {"dimension": f"#gpu<dim {dim}>"})

    def thread_id(self, dim: str = "x") -> Value:
        return self._dimension("gpu.thread_id", dim)

    def block_id(self, dim: str = "x") -> Value:
        return self._dimension("gpu.block_id", dim)

    def block_dim(self, dim: str = "x") -> Value:
        return self._dimension("gpu.block_dim", dim)

    def grid_dim(self, dim: str = "x") -> Value:
        return self._dimension("gpu.grid_dim", dim)

    def global_id(self) -> Value:
        """blockIdx.x * blockDim.x + threadIdx.x, as index."""
        return self.block_id() * self.block_dim() + self.thread_id()

    def shared(self, element: Type, size, align: Optional[int] = None) -> Value:
        """A workgroup (shared memory) buffer of `size` elements, or of
        shape `size` = (rows, cols). `align`: its byte alignment, a power
        of two (the default is the element's; fragments that k.mma_load
        and k.mma_store move need 32)."""
        if isinstance(size, tuple):
            if len(size) != 2:
                raise ValueError(f"a shared buffer has a size or (rows, cols), not {size!r}")
            shape = tuple(_checks.integer(d, "a shared buffer size", 1) for d in size)
        else:
            shape = (_checks.integer(size, "a shared buffer size", 1),)
        if align is not None:
            align = _checks.integer(align, "a shared buffer alignment", 1, 1 << 16)
            if align & (align - 1):
                raise ValueError(f"a shared buffer alignment is a power of two, not {align}")
        name = f"shared{len(self._shared)}"
        type = MemRefType(element, shape, WORKGROUP_SPACE)
        self._shared.append((f"%{name}", type))
        self._shared_align[f"%{name}"] = align
        where = self.location.position() if self.location else None
        handle = self._ops.L.mlirBlockAddArgument(self._entry, self._ops.type(str(type)),
                                                  self._ops.location(where, name))
        return Value(self, f"%{name}", type, handle)

    def barrier(self) -> None:
        """__syncthreads()."""
        self._op("gpu.barrier")

    def if_(self, condition: Value) -> contextlib.AbstractContextManager:
        """Makes the body under `with` inside scf.if."""
        if not (isinstance(condition, Value) and condition.type == i1):
            raise TypeError(f"if_ needs an i1 value (a comparison), not {_describe(condition)}")
        self.value(condition)
        self._enter_region()
        return self._if_region(condition, self._position())

    @contextlib.contextmanager
    def _if_region(self, condition: Value, where) -> Iterator[None]:
        then = self._ops.block([], self._ops.location(where))
        operation = self._op("scf.if", [condition], [], regions=[[then], []], location=where,
                             verify=False)
        self._blocks.append(then)
        try:
            yield
        except BaseException:
            self._blocks.pop()
            self._erase(operation)
            raise
        finally:
            self._depth -= 1
        self._op("scf.yield", location=where, verify=False)
        self._blocks.pop()
        self._check(operation)

    def cond(self, condition: Value, then: Callable[[], Union[Value, Number]],
             otherwise: Callable[[], Union[Value, Number]], type: Optional[Type] = None) -> Value:
        """A value computed by one of two branches (scf.if with a result):
        `k.cond(lane < n, lambda: buf[lane], lambda: 0.0, f32)`."""
        if not (isinstance(condition, Value) and condition.type == i1):
            raise TypeError(f"cond needs an i1 value (a comparison), not {_describe(condition)}")
        self.value(condition)
        self._enter_region()
        calls, self._calls = self._calls, []  # the branches are the user's calls
        try:
            return self._cond(condition, then, otherwise, type, self._position())
        finally:
            self._depth -= 1
            self._calls = calls

    def _cond(self, condition: Value, then, otherwise, type: Optional[Type], where) -> Value:
        # The branches are built in a result-less scf.if (so that their ops
        # have ancestors when verified); their regions then move to the
        # scf.if with the result, whose type the first branch tells.
        L = self._ops.L
        blocks = [self._ops.block([], self._ops.location(where)) for _ in range(2)]
        draft = self._op("scf.if", [condition], [], regions=[[blocks[0]], [blocks[1]]],
                         location=where, verify=False)
        try:
            for block, branch in zip(blocks, (then, otherwise)):
                self._blocks.append(block)
                try:
                    value, returned = _returning(branch, ())
                    type = type or (value.type if isinstance(value, Value) else None)
                    if type is None:
                        raise TypeError("cond: give `type` when both branches are Python numbers")
                    value = self.coerce(value, type)
                    self._op("scf.yield", [value], verify=False,
                             location=returned.position() if returned else where)
                finally:
                    self._blocks.pop()
            regions = [[], []]
            operation = self._op("scf.if", [condition], [type], regions=regions, location=where,
                                 verify=False)
            for index in range(2):
                L.mlirRegionTakeBody(L.mlirOperationGetRegion(operation, index),
                                     L.mlirOperationGetRegion(draft, index))
        finally:
            self._erase(draft)
        self._check(operation)
        return self._results(operation, [type])[0]

    def atomic_add(self, buffer: Value, position, value) -> Value:
        """Atomically adds `value` to buffer[position]; returns the old value."""
        if not isinstance(self.value(buffer, "atomic_add's buffer").type, MemRefType):
            raise TypeError(f"atomic_add needs a memref, not {buffer.type}")
        element = buffer.type.element
        value = self.coerce(value, element)
        kind = _ATOMIC_KINDS["addf" if element.is_float else "addi"]
        return self._emit("memref.atomic_rmw", [value, buffer, *buffer._indices(position)],
                          element, {"kind": self._ops.integer(kind, "i64")})

    def loop(self, lower, upper, step=1, init: Sequence[Value] = ()) -> Loop:
        """`with k.loop(0, n) as i:` or, carrying values,
        `with k.loop(0, n, init=[x]) as (i, acc): ...; loop.yield_(new)`,
        then `loop.results`."""
        return Loop(self, lower, upper, step, init)

    # -- warp ops ------------------------------------------------------------
    # Enum cases (kinds, modes, directions, ...) go into attribute text as
    # they are: _checks.keyword keeps the text an attribute, and the
    # compiler's attribute parser names the cases when one is not.
    def _enum(self, mnemonic: str, case, what: str) -> str:
        return f"#warp.{mnemonic}<{_checks.keyword(case, what)}>"

    def _ranking(self, attributes: Dict[str, object], ranking: Optional[str]) -> None:
        """A radix ranking's `ranking` attribute, where one is named."""
        if ranking is not None:
            attributes["ranking"] = self._enum("radix_ranking", ranking, "radix ranking")

    def _optional(self, value, type: Type) -> List[Value]:
        """An optional operand's group: [] for None, else [value as `type`]."""
        return [] if value is None else [self.coerce(value, type)]

    def _mask_value(self, mask) -> List[Value]:
        """The mask operand group: [] or [the i32 mask]."""
        return self._optional(mask, i32)

    def lane_id(self) -> Value:
        return self._emit("warp.lane_id", [], i32)

    def warp_id(self, linear: bool = False) -> Value:
        linear = _checks.flag(linear, "linear")
        return self._emit("warp.warp_id", [], i32, {"linear": self._ops.unit()} if linear else {})

    def lanemask(self, kind: str) -> Value:
        return self._emit("warp.lanemask", [], i32,
                          {"kind": self._enum("lanemask_kind", kind, "lanemask kind")})

    def activemask(self) -> Value:
        return self._emit("warp.activemask", [], i32)

    def syncwarp(self, mask=None) -> None:
        self._op("warp.syncwarp", self._mask_value(mask))

    def shuffle(self, mode: str, value: Value, offset, width: int = 32,
                mask=None, bound=None) -> Tuple[Value, Value]:
        """(value, valid) of warp.shuffle <mode> (idx, xor, up, down);
        `width` is a power of two in 1..32 or an i32 value (run time);
        `bound` (up and down over the whole warp) is the lowest (up) or
        highest (down) lane a lane may read, PTX's clamp lane."""
        attributes = {"mode": self._enum("shuffle_mode", mode, "shuffle mode")}
        value = self.value(value, "the shuffled value")
        offset, mask = self.coerce(offset, i32), self._mask_value(mask)
        dynamic = []
        if isinstance(width, Value):
            dynamic = [self.coerce(width, i32)]
        else:
            attributes["width"] = self._ops.integer(
                _checks.integer(width, "shuffle width", -(1 << 31), (1 << 31) - 1), "i32")
        bound = self._optional(bound, i32)
        attributes["operandSegmentSizes"] = _segment_sizes([value], [offset], dynamic, bound,
                                                           mask)
        return tuple(self._emit_n("warp.shuffle", [value, offset, *dynamic, *bound, *mask],
                                  [value.type, i1], attributes))

    def broadcast(self, value: Value, lane, mask=None) -> Value:
        value = self.value(value, "the broadcast value")
        lane, mask = self.coerce(lane, i32), self._mask_value(mask)
        return self._emit("warp.broadcast", [value, lane, *mask], value.type)

    def broadcast_first(self, value: Value, mask=None) -> Value:
        value = self.value(value, "the broadcast value")
        return self._emit("warp.broadcast_first", [value, *self._mask_value(mask)], value.type)

    def _tile(self, attributes: Dict[str, object], tile) -> None:
        """Puts `tile` (None, or the threads of a tile of several warps:
        64, 128, 256 or 512, which the verifier checks) in `attributes`."""
        if tile is not None:
            attributes["tile"] = self._ops.integer(
                _checks.integer(tile, "tile", 1, (1 << 31) - 1), "i32")

    def tile_sync(self, tile: int) -> None:
        """warp.tile_sync (cooperative groups' thread_block_tile<N>::sync()
        for N = 64..512): waits for every thread of the executing thread's
        tile of `tile` consecutive threads (a named barrier per tile)."""
        attributes: Dict[str, object] = {}
        self._tile(attributes, tile)
        self._op("warp.tile_sync", [], [], {"size": attributes["tile"]})

    def block_reduce(self, kind, value, commutative: bool = False,
                     algorithm: Optional[str] = None, valid_threads=None,
                     threads: str = "all", items: bool = False, tile: Optional[int] = None):
        """warp.block_reduce: `value` combined over every thread of the
        block, in every thread. Every thread of the block must call it (it
        holds barriers). `kind` is a kind name or a combiner function over
        a Value or a tuple of them, as for reduce (thread order is kept
        unless `commutative=True`); with a tuple, returns a tuple.
        `valid_threads` (an i32, the same in every thread; CUB's num_valid):
        only threads 0 .. valid_threads-1 contribute (below 1 counts as 1).
        `threads` "first": only thread 0's result is the reduction (CUB's
        BlockReduce), which can save a barrier; "all" (default): every
        thread's.
        `algorithm` "warp_reductions", "raking" or "raking_commutative_only"
        (CUB's three; the last for a kind or commutative=True; the rakings
        not with valid_threads),
        None for the compiler's choice (raking for integer kinds in a known
        block of the raking range, warp_reductions otherwise).
        `items=True` (CUB's Reduce over items[ITEMS_PER_THREAD]): each value
        is a vector of the thread's N items in the blocked arrangement
        (thread t holds items t*N .. t*N+N-1) and the reduction is over all
        B*N items of the block: the results have the vectors' element
        types, and a combiner function gets and returns element-typed
        Values. Not with valid_threads.
        `tile` (64, 128, 256 or 512; cooperative groups' tiled_partition<N>
        and cg::reduce): each tile of `tile` consecutive threads reduces on
        its own, as a block of that many threads (a named barrier per
        tile; the block a multiple of `tile`, at most 15 tiles; also with
        items and algorithm "raking", each tile raking its own segments)."""
        values, single = self._collective_values(value, "the reduced value")
        items = _checks.flag(items, "items")
        if items and valid_threads is not None:
            raise ValueError("block_reduce takes items=True or valid_threads, not both")
        combined = self._item_types(values, "block_reduce") if items else None
        valid = self._optional(valid_threads, i32)
        attributes = {"operandSegmentSizes": _segment_sizes(values, valid),
                      "threads": self._enum("result_lanes", threads, "threads")}
        if items:
            attributes["items"] = self._ops.unit()
        if algorithm is not None:
            attributes["algorithm"] = self._enum("block_reduce_algorithm", algorithm,
                                                 "block reduce algorithm")
        self._tile(attributes, tile)
        return self._emit_reduction("warp.block_reduce", "block reduce", kind, values, single,
                                    values + valid, attributes, commutative, combined)

    def block_scan(self, kind, value, exclusive: bool = False, init=None,
                   total: bool = False, algorithm: Optional[str] = None,
                   items: bool = False, reverse: bool = False,
                   prefix: Optional[Callable] = None, tile: Optional[int] = None,
                   heads=None):
        """warp.block_scan over the block's threads (numbered x + X * (y + Y
        * z)); `init` is a prefix in front of every thread (CUB's
        BlockPrefixCallbackOp); `algorithm` "warp_scans" or "raking" (each
        with its documented float combine order), None for the compiler's
        choice. `kind` is a kind name or a combiner function, as for scan
        (a tuple `value` takes a tuple `init`; an exclusive scan with a
        combiner needs init). Returns the scan, or (scan, block total) with
        total=True.
        `items=True` (CUB's scans over items[ITEMS_PER_THREAD]): each value
        is a vector of the thread's N items in the blocked arrangement
        (thread t holds items t*N .. t*N+N-1) and the scan runs over all
        B*N items in that order; the scans keep the vector types, while
        `init`, the totals and a combiner function's Values have the
        element types (an exclusive scan's first item gets the kind's
        identity, or init).
        `reverse=True`: a suffix scan (thread t gets x_t .. x_{B-1}, or
        x_{t+1} .. x_{B-1} exclusive; values still combine in thread order,
        `init` after the last thread); not with algorithm "raking".
        `prefix` (CUB's BlockPrefixCallbackOp called with the block
        aggregate): instead of init, a function called as prefix(k, total)
        (a tuple of totals for a tuple; the element types with items), the
        block's total without any prefix, which returns the prefix (Values
        of the same types); the ops it makes run once per block in the
        lanes of warp 0, lane 0's result is the prefix, and they may load
        and store (e.g. a running total in workgroup memory) but not
        synchronize the block. Not with init or reverse.
        `tile` (64, 128, 256 or 512): each tile of `tile` consecutive threads
        scans on its own, as a block of that many threads (see
        block_reduce's `tile`).
        `heads` (an i1 per thread; with items a vector of i1, or N i1
        values or bools, one per item): a segmented scan, each true flag
        starting a segment that combines nothing before it (an exclusive
        scan gives a head the kind's identity; reversed, a segment's last
        position). Not with init, prefix or total."""
        values, single = self._collective_values(value, "the scanned value")
        if prefix is not None:
            if not callable(prefix):
                raise TypeError(f"prefix must be a function (k, total) -> prefix, not "
                                f"{type(prefix).__name__}")
            if init is not None:
                raise ValueError("block_scan takes init or prefix, not both")
        items = _checks.flag(items, "items")
        reverse = _checks.flag(reverse, "reverse")
        combined = self._item_types(values, "block_scan") if items else None
        inits = self._inits(init, values, single, combined)
        flags = [] if heads is None else \
            [self._flag_vector(heads, "block_scan's heads")] if items else \
            self._optional(heads, i1)
        attributes = {"operandSegmentSizes": _segment_sizes(values, inits, flags)}
        if items:
            attributes["items"] = self._ops.unit()
        if exclusive:
            attributes["exclusive"] = self._ops.unit()
        if reverse:
            attributes["reverse"] = self._ops.unit()
        if algorithm is not None:
            attributes["algorithm"] = self._enum("block_scan_algorithm", algorithm,
                                                 "block scan algorithm")
        self._tile(attributes, tile)
        # The function sees the kernel builder, as CUB's functor its object.
        region = (lambda totals: prefix(self, totals)) if prefix is not None else None
        return self._emit_scan("warp.block_scan", "block scan", kind, values, single,
                               values + inits + flags, attributes,
                               exclusive and init is None and prefix is None, total,
                               combined, prefix=region, region_count=2)

    def block_scatter(self, items: Value, ranks: Value, striped: bool = False,
                      flags=None) -> Value:
        """warp.block_scatter (CUB BlockExchange::ScatterToBlocked /
        ScatterToStriped): item j of each thread goes to block position
        ranks[j] (a vector of i32, one per item; the ranks a permutation of
        0 .. B*N-1); returns the items by position, blocked or `striped`.
        An item whose rank is outside 0 .. B*N-1 (a negative one: CUB's
        ScatterToStripedGuarded) is dropped; with `flags` (CUB's
        ScatterToStripedFlagged: a vector<N x i1>, or N i1 values or bools)
        so is an item whose flag is false. Every thread of the block must
        call it."""
        items = self.value(items, "the scattered items")
        ranks = self.value(ranks, "the items' ranks")
        attributes = {"striped": self._ops.unit()} if _checks.flag(striped, "striped") else {}
        operands = [items, ranks]
        if flags is not None:
            operands.append(self._flag_vector(flags, "block_scatter's flags"))
        return self._emit("warp.block_scatter", operands, items.type, attributes)

    def _flag_vector(self, flags, what: str) -> Value:
        """`flags` as a vector of i1: a vector Value as it is (the op's
        verifier checks its type), a sequence of i1 values or bools packed
        with vector.from_elements."""
        if isinstance(flags, Value):
            return self.value(flags, what)
        if isinstance(flags, (str, bytes)) or not hasattr(flags, "__len__"):
            raise TypeError(f"{what} must be a vector of i1 or a sequence of i1 values, "
                            f"not {type(flags).__name__}")
        if len(flags) == 0:
            raise ValueError(f"{what}: give one flag per item, not none")
        elements = [self.coerce(flag, i1) for flag in flags]
        return self._emit("vector.from_elements", elements, VectorType(len(elements), i1))

    def block_load(self, buffer: Value, offset, items: int, striped: bool = False,
                   valid=None, default=None, algorithm: Optional[str] = None,
                   warp_striped: bool = False) -> Value:
        """warp.block_load (CUB BlockLoad): the block's tile buffer[offset ..
        offset + B*items), `items` per thread as a vector, blocked (thread t
        gets t*items ..) or `striped` (t, t + B, ...), or `warp_striped`
        (CUB's LoadDirectWarpStriped: lane l of warp w, of L threads, gets
        32*w*items + l, + L, ...). `valid` (i32, the same
        in every thread): only the tile's first `valid` items are read, the
        others are `default` (unspecified without one). `algorithm`
        "direct", "vectorize", "transpose", "warp_transpose" or None (the
        compiler's choice); it changes how, never what. Every thread of the
        block must call it."""
        return self._tile_load("warp.block_load", buffer, offset, items, striped, valid,
                               default, algorithm, warp_striped=warp_striped)

    def block_store(self, items: Value, buffer: Value, offset, striped: bool = False,
                    valid=None, algorithm: Optional[str] = None,
                    warp_striped: bool = False) -> None:
        """warp.block_store (CUB BlockStore): the mirror of block_load
        (`striped` or `warp_striped` as there); with `valid` only the tile's
        first `valid` items are written."""
        self._tile_store("warp.block_store", items, buffer, offset, striped, valid, algorithm,
                         warp_striped=warp_striped)

    def warp_load(self, buffer: Value, offset, items: int, striped: bool = False,
                  valid=None, default=None, algorithm: Optional[str] = None,
                  width: int = 32) -> Value:
        """warp.load (CUB WarpLoad): block_load for one warp. The warp's tile
        buffer[offset .. offset + 32*items) (`offset` the same in the warp's
        lanes, each warp its own), blocked (lane l gets l*items ..) or
        `striped` (l, l + 32, ...); `valid` and `default` as for block_load;
        `algorithm` "direct", "vectorize", "transpose" or None. With `width`
        < 32 (a power of two, CUB's LOGICAL_WARP_THREADS) each logical warp
        of `width` lanes loads its own tile of width*items at its own
        `offset`, lane rank r = lane % width in place of l. Every lane of
        the warp must call it."""
        return self._tile_load("warp.load", buffer, offset, items, striped, valid, default,
                               algorithm, width)

    def warp_store(self, items: Value, buffer: Value, offset, striped: bool = False,
                   valid=None, algorithm: Optional[str] = None, width: int = 32) -> None:
        """warp.store (CUB WarpStore): the mirror of warp_load; with `valid`
        only the tile's first `valid` items are written; `width` as for
        warp_load."""
        self._tile_store("warp.store", items, buffer, offset, striped, valid, algorithm,
                         width)

    def _tile_attributes(self, striped, algorithm, warp_striped=False) -> dict:
        attributes = {}
        if _checks.flag(striped, "striped"):
            attributes["striped"] = self._ops.unit()
        if _checks.flag(warp_striped, "warp_striped"):
            if "striped" in attributes:
                raise ValueError("a tile is striped over the block or warp_striped, "
                                 "not both")
            attributes["warp_striped"] = self._ops.unit()
        if algorithm is not None:
            attributes["algorithm"] = self._enum("block_memory_algorithm", algorithm,
                                                 "block memory algorithm")
        return attributes

    def _tile_load(self, name, buffer, offset, items, striped, valid, default, algorithm,
                   width=None, warp_striped=False):
        what = name.removeprefix("warp.")
        buffer = self._memref(buffer, f"{what}'s buffer")
        element = buffer.type.element
        type = VectorType(_checks.integer(items, "items per thread", 1), element)
        valid = self._optional(valid, i32)
        if default is not None and not valid:
            raise ValueError(f"{what}'s default is for the items past valid: give valid")
        fill = self._optional(default, element)
        attributes = {"operandSegmentSizes": _segment_sizes([buffer], [offset], valid, fill),
                      **self._tile_attributes(striped, algorithm, warp_striped)}
        if width is not None:
            attributes.update(self._tile_width(width, f"{what}'s width"))
        offset = self.coerce(offset, index)
        return self._emit(name, [buffer, offset, *valid, *fill], type, attributes)

    def _tile_store(self, name, items, buffer, offset, striped, valid, algorithm,
                    width=None, warp_striped=False) -> None:
        what = name.removeprefix("warp.")
        items = self.value(items, "the stored items")
        buffer = self._memref(buffer, f"{what}'s buffer")
        valid = self._optional(valid, i32)
        attributes = self._tile_attributes(striped, algorithm, warp_striped)
        if width is not None:
            attributes.update(self._tile_width(width, f"{what}'s width"))
        self._op(name, [items, buffer, self.coerce(offset, index), *valid],
                 attributes=attributes)

    def block_histogram(self, samples: Value, bins: Value, accumulate: bool = False,
                        algorithm: Optional[str] = None) -> None:
        """warp.block_histogram (CUB BlockHistogram): each thread's samples
        (a vector of unsigned bin numbers) counted into `bins` (a 1-D memref
        of i32/i64 counters, e.g. k.shared(i32, 256)); zeroed first unless
        `accumulate` (CUB's Composite); samples past the bins are not
        counted. `algorithm` "atomic", "warp_aggregated" or "sort" (CUB's
        BLOCK_HISTO_SORT: a block radix sort, then two adds per run; None:
        the compiler's choice). Every thread of the block must call it; every
        thread may read the counts after it."""
        samples = self.value(samples, "the histogram's samples")
        bins = self._memref(bins, "block_histogram's bins")
        attributes = {}
        if _checks.flag(accumulate, "accumulate"):
            attributes["accumulate"] = self._ops.unit()
        if algorithm is not None:
            attributes["algorithm"] = self._enum("block_histogram_algorithm", algorithm,
                                                 "block histogram algorithm")
        self._op("warp.block_histogram", [samples, bins], attributes=attributes)

    def block_broadcast(self, value: Value, thread, tile: Optional[int] = None) -> Value:
        """warp.block_broadcast: every thread gets `value` of thread
        `thread` (x + X * (y + Y * z), the same in every thread). With
        `tile` (64, 128, 256 or 512; CG's tile.shfl(x, thread)): each tile
        of `tile` consecutive threads broadcasts its rank `thread`'s value."""
        value = self.value(value, "the broadcast value")
        thread = self.coerce(thread, i32)
        attributes: Dict[str, object] = {}
        self._tile(attributes, tile)
        return self._emit("warp.block_broadcast", [value, thread], value.type, attributes)

    def cluster_reduce(self, kind: str, value: Value) -> Value:
        """warp.cluster_reduce (sm_90): `value` combined with `kind` over
        every thread of every block of the thread-block cluster, in every
        thread (each block reduced, then the blocks' totals folded in rank
        order). Every thread of the cluster must call it; the cluster is the
        kernel's known_cluster_size or the launch's."""
        value = self.value(value, "the reduced value")
        return self._emit_n("warp.cluster_reduce", [value], [value.type],
                            {"kind": self._enum("kind", kind, "cluster reduce kind")})[0]

    def cluster_scan(self, kind: str, value: Value,
                     exclusive: bool = False) -> Tuple[Value, Value]:
        """(scan, total) of warp.cluster_scan (sm_90): the prefix of `value`
        over the cluster's threads in (block rank, thread) order, and the
        cluster's total; with exclusive=True thread 0 of rank 0 gets the
        kind's identity."""
        value = self.value(value, "the scanned value")
        attributes = {"kind": self._enum("kind", kind, "cluster scan kind")}
        if _checks.flag(exclusive, "exclusive"):
            attributes["exclusive"] = self._ops.unit()
        scanned, total = self._emit_n("warp.cluster_scan", [value], [value.type, value.type],
                                      attributes)
        return scanned, total

    def cluster_broadcast(self, value: Value, block, thread) -> Value:
        """warp.cluster_broadcast (sm_90): every thread of the cluster gets
        `value` of thread `thread` of the block of rank `block` (both i32,
        the same in every thread)."""
        value = self.value(value, "the broadcast value")
        return self._emit("warp.cluster_broadcast",
                          [value, self.coerce(block, i32), self.coerce(thread, i32)],
                          value.type)

    def block_shuffle(self, mode: str, value: Value, distance,
                      tile: Optional[int] = None) -> Tuple[Value, Value]:
        """(value, valid) of warp.block_shuffle (CUB BlockShuffle): thread t
        reads `value` of thread t + distance ("offset": its own value and
        valid false where that is outside the block), (t + distance) mod B
        ("rotate") or t ^ distance ("xor", a butterfly: its own value and
        valid false from B on, or for a negative distance). `distance`
        (i32) may differ from thread to thread. Every thread of the block
        must call it (it holds barriers).
        With `tile` (64, 128, 256 or 512; CG's tile.shfl_up/down/xor): each
        tile of `tile` consecutive threads shuffles on its own, t its rank
        and B the tile size."""
        attributes = {"mode": self._enum("block_shuffle_mode", mode, "block shuffle mode")}
        self._tile(attributes, tile)
        value = self.value(value, "the shuffled value")
        distance = self.coerce(distance, i32)
        return tuple(self._emit_n("warp.block_shuffle", [value, distance], [value.type, i1],
                                  attributes))

    def block_ballot(self, predicate: Value, tile: Optional[int] = None) -> Value:
        """warp.block_ballot: the lane mask of the block, or with `tile`
        (64, 128, 256 or 512; CG's tile.ballot for a tiled_partition<N>
        wider than a warp) of the thread's tile, as a vector of W i32
        words: bit i of word w is the predicate of rank 32 w + i (ranks
        past the block 0), the whole mask in every thread. W is tile / 32,
        or without `tile` a word per warp of the kernel's known_block_size
        (which must be promised first). Every thread of the block (tile)
        must call it (it holds barriers)."""
        attributes: Dict[str, object] = {}
        self._tile(attributes, tile)
        if tile is not None:
            words = max(1, _checks.integer(tile, "tile", 1, (1 << 31) - 1) // 32)
        else:
            threads = getattr(self, "_known_block_threads", None)
            if threads is None:
                raise ValueError("block_ballot without tile has a word per warp of the "
                                 "kernel's known_block_size: promise one first")
            words = -(-threads // 32)
        predicate = self.coerce(predicate, i1)
        return self._emit("warp.block_ballot", [predicate], vector(words, i32), attributes)

    def block_shift(self, direction: str, items: Value) -> Tuple[Value, Value]:
        """(shifted, edge) of warp.block_shift (CUB BlockShuffle::Up / Down
        of a thread's N items, a vector): the block's items in the blocked
        arrangement moved one position. "up": shifted[j] = items[j-1], and
        shifted[0] the last item of thread t-1 (thread 0: its own items[0]);
        edge = the block's last item (CUB's block_suffix). "down":
        shifted[j] = items[j+1], shifted[N-1] the first item of thread t+1
        (the last thread: its own items[N-1]); edge = the block's first item
        (block_prefix). Every thread of the block must call it."""
        attributes = {"direction": self._enum("block_shift_direction", direction,
                                               "block shift direction")}
        items = self.value(items, "the shifted items")
        if not isinstance(items.type, VectorType):
            raise TypeError(f"block_shift takes a vector of a thread's items, not {items.type}")
        return tuple(self._emit_n("warp.block_shift", [items], [items.type, items.type.element],
                                  attributes))

    def block_exchange(self, items: Value, direction: str) -> Value:
        """warp.block_exchange (CUB BlockExchange) of a thread's N items (a
        vector of i32, i64, f32 or f64) over the whole block: direction
        "blocked_to_striped" (thread t holds items t*N..t*N+N-1 in, items t,
        t+B, ..., t+B*(N-1) out, B the block size) or "striped_to_blocked";
        "blocked_to_warp_striped" / "warp_striped_to_blocked": CUB's
        warp-striped arrangement (lane l of warp w: items 32wN + l + 32j).
        Every thread of the block must call it (it holds barriers)."""
        items = self.value(items, "the exchanged items")
        direction = self._enum("exchange_direction", direction, "block exchange direction")
        return self._emit("warp.block_exchange", [items], items.type, {"direction": direction})

    _RADIX_SORT_TYPES = ("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")

    def _sort_operands(self, op: str, whose: str, keys: Value, values: Optional[Value]):
        """The keys (a vector of one of the sorts' types), the operands
        (keys, then the values where given: a vector of as many items) and
        the result types of a sort."""
        keys = self.value(keys, "the sorted keys")
        operands, types = [keys], [keys.type]
        if not isinstance(keys.type, VectorType) or \
                keys.type.element.name not in self._RADIX_SORT_TYPES:
            raise TypeError(f"{op} takes a vector of {whose} keys "
                            f"({', '.join(self._RADIX_SORT_TYPES)}), not {keys.type}")
        if values is not None:
            values = self.value(values, "the sorted values")
            if not isinstance(values.type, VectorType) or values.type.size != keys.type.size \
                    or values.type.element.name not in self._RADIX_SORT_TYPES:
                raise TypeError(f"{op}'s values are a vector of as many items as "
                                f"the keys ({keys.type.size}), not {values.type}")
            operands.append(values)
            types.append(values.type)
        return keys, operands, types

    def _radix_order(self, keys: Value, descending, signed, bits, most_bits: int = 64):
        """The attributes of a radix op's key order: `descending`, `signed`
        (integer keys only) and `bits=(begin, end)` (None: all), a range of
        at most `most_bits` bits inside the key."""
        attributes: Dict[str, object] = {}
        if _checks.flag(descending, "descending"):
            attributes["descending"] = self._ops.unit()
        if _checks.flag(signed, "signed"):
            if keys.type.element.is_float:
                raise ValueError(f"signed orders integer keys; {keys.type.element} keys "
                                 f"have their own order")
            attributes["is_signed"] = self._ops.unit()
        if bits is not None:
            width = int(keys.type.element.name.lstrip("bfi"))
            if isinstance(bits, (str, bytes)) or not hasattr(bits, "__len__") or len(bits) != 2:
                raise TypeError(f"bits is a pair (begin, end), not {bits!r}")
            begin = _checks.integer(bits[0], "bits' begin", 0, width - 1)
            end = _checks.integer(bits[1], "bits' end", begin + 1, min(width, begin + most_bits))
            attributes["begin_bit"] = self._ops.integer(begin, "i32")
            attributes["end_bit"] = self._ops.integer(end, "i32")
        return attributes

    def block_radix_sort(self, keys, values: Optional[Value] = None,
                         descending: bool = False, signed: bool = False,
                         bits: Optional[Tuple[int, int]] = None, striped: bool = False,
                         radix_bits: Optional[int] = None, ranking: Optional[str] = None):
        """warp.block_radix_sort (CUB BlockRadixSort): a stable sort of the
        block's B*N keys, each thread holding N in a vector (i8, i16, i32,
        i64, f16, bf16, f32 or f64) in the blocked arrangement (thread t:
        keys t*N .. t*N+N-1). Integers compare unsigned unless `signed`;
        floats in CUB's order (-0.0 before +0.0, NaNs by their bits);
        `descending` reverses; `bits=(b0, b1)` compares only bits [b0, b1) of
        the key's unsigned image. `keys` may be a tuple of such vectors of
        one N (CUB's custom types through a decomposer): the keys are then
        tuples compared member by member, the first most significant
        (`signed` orders the integer members; no `bits`). `values` (a
        vector of the same N) travel with their keys. The result is
        blocked, or with `striped` thread t gets ranks t, t+B, ...,
        t+(N-1)B. `radix_bits` (1..8) are the bits per counting pass (None:
        the compiler's choice); `ranking` how a pass counts: "grid" (CUB's
        RADIX_RANK_BASIC), "match" (RADIX_RANK_MATCH) or "registers" (None:
        the compiler's choice). Returns the sorted keys (a tuple of members
        for a tuple), or (keys, values). Every thread of the block must call
        it (it holds barriers)."""
        members = list(keys) if isinstance(keys, (tuple, list)) else None
        if members is not None and not members:
            raise TypeError("block_radix_sort takes a key vector or a tuple of them, "
                            "not an empty tuple")
        first, operands, types = self._sort_operands(
            "block_radix_sort", "a thread's", members[0] if members else keys, values)
        keys_in = [first]
        for member in (members or [])[1:]:
            member, _, _ = self._sort_operands("block_radix_sort", "a thread's", member, None)
            if member.type.size != first.type.size:
                raise TypeError(f"block_radix_sort's key members hold as many items per "
                                f"thread ({first.type.size}), not {member.type}")
            keys_in.append(member)
        if len(keys_in) > 1:
            if bits is not None:
                raise ValueError("bits sorts by part of one key; a tuple of keys sorts "
                                 "by all bits of its members")
            if signed and all(m.type.element.is_float for m in keys_in):
                raise ValueError("signed orders the integer members of a tuple of keys; "
                                 "this one has none")
        attributes = self._radix_order(first, descending, signed and len(keys_in) == 1,
                                       bits)
        if len(keys_in) > 1 and _checks.flag(signed, "signed"):
            attributes["is_signed"] = self._ops.unit()
        if _checks.flag(striped, "striped"):
            attributes["striped"] = self._ops.unit()
        if radix_bits is not None:
            attributes["radix_bits"] = self._ops.integer(
                _checks.integer(radix_bits, "radix_bits", 1, 8), "i32")
        self._ranking(attributes, ranking)
        value_operands = operands[1:]
        attributes["operandSegmentSizes"] = _segment_sizes(keys_in, value_operands)
        attributes["resultSegmentSizes"] = _segment_sizes(keys_in, value_operands)
        result_types = [m.type for m in keys_in] + types[1:]
        results = self._emit_n("warp.block_radix_sort", keys_in + value_operands,
                               result_types, attributes)
        sorted_keys = results[0] if members is None else tuple(results[:len(keys_in)])
        return sorted_keys if values is None else (sorted_keys, results[-1])

    def block_radix_rank(self, keys: Value, bits: Optional[Tuple[int, int]] = None,
                         descending: bool = False, signed: bool = False, digit_prefix=False,
                         digit: Optional[Callable] = None, radix_bits: Optional[int] = None,
                         ranking: Optional[str] = None, warp_striped: bool = False,
                         counts: Optional[Callable] = None):
        """warp.block_radix_rank (CUB BlockRadixRank::RankKeys): each of the
        block's B*N keys' rank (a vector<N x i32>) in the block's stable
        order by its digit, bits [b0, b1) of the key's unsigned image
        (`bits=(b0, b1)`, 1 to 8 bits; the image as block_radix_sort's:
        `signed` flips the sign bit, floats in CUB's order), ascending or
        `descending`; keys of one digit keep their blocked order (thread t
        holds keys t*N .. t*N+N-1). Or a custom digit extractor (CUB's
        `RankKeys(keys, ranks, digit_extractor)`): `digit(key)`, a function
        of one key Value (keys of any element type) returning an i32 Value
        whose low `radix_bits` (1..8) bits are the digit (the bits above
        are ignored); no `bits` or `signed` then. With `digit_prefix`
        (True: CUB's max(1, ceil(2^R / B)) bins per thread, from
        known_block_size; or an int M where the block size is not
        promised), also each thread's bins t*M .. t*M+M-1: the keys ranked
        before bin b's digit (0 past the digits). `ranking`: as
        block_radix_sort's, or "match_early" (CUB's
        RADIX_RANK_MATCH_EARLY_COUNTS_ANY, with `warp_striped` keys in a
        known block of whole warps). With `warp_striped` the keys are
        warp-striped (block_load(..., warp_striped=True)), stable in that order, and
        the match ranking needs no exchange. `counts` (with
        ranking="match_early": CUB's counts callback) is a function of one
        Value, this thread's bins' counts (a vector of M i32, M as the digit
        prefix's: bin b the b-th digit in rank order), that every thread
        runs once after the counting and before the ranking, returning
        nothing (it may store). Returns the ranks, or (ranks, prefix).
        Every thread of the block must call it (it holds barriers)."""
        keys = self.value(keys, "the ranked keys")
        if not isinstance(keys.type, VectorType):
            raise TypeError(f"block_radix_rank takes a vector of a thread's keys, "
                            f"not {keys.type}")
        if digit is not None:
            if not callable(digit):
                raise TypeError(f"digit must be a function of one key, not {digit!r}")
            if bits is not None or signed:
                raise ValueError("block_radix_rank takes bits (and signed) or a digit "
                                 "function, not both")
            if radix_bits is None:
                raise TypeError("a digit function needs radix_bits (1..8): the digit "
                                "is the low radix_bits bits of what it returns")
            radix = _checks.integer(radix_bits, "radix_bits", 1, 8)
            attributes: Dict[str, object] = {"radix_bits": self._ops.integer(radix, "i32")}
            if _checks.flag(descending, "descending"):
                attributes["descending"] = self._ops.unit()
        else:
            if keys.type.element.name not in self._RADIX_SORT_TYPES:
                raise TypeError(f"block_radix_rank takes a vector of a thread's keys "
                                f"({', '.join(self._RADIX_SORT_TYPES)}), not {keys.type}")
            if bits is None:
                raise TypeError("block_radix_rank takes the digit's bits=(begin, end) "
                                "or a digit function")
            if radix_bits is not None:
                raise ValueError("radix_bits goes with a digit function; bits=(begin, "
                                 "end) gives the digit's width")
            attributes = self._radix_order(keys, descending, signed, bits, most_bits=8)
            radix = bits[1] - bits[0]
        self._ranking(attributes, ranking)
        if _checks.flag(warp_striped, "warp_striped"):
            attributes["warp_striped"] = self._ops.unit()
        types: List[Type] = [vector(keys.type.size, i32)]
        # CUB's BINS_TRACKED_PER_THREAD: the digit prefix's and the counts'.
        threads = getattr(self, "_known_block_threads", None)
        tracked = None if threads is None else vector(max(1, -(-(1 << radix) // threads)), i32)
        if digit_prefix is True:
            if tracked is None:
                raise ValueError("digit_prefix=True takes CUB's bins per thread from the "
                                 "kernel's known_block_size: promise one first, or give "
                                 "the bins per thread")
            types.append(tracked)
        elif digit_prefix is not False:
            types.append(vector(_checks.integer(digit_prefix, "digit_prefix", 1, 256), i32))
        callback = None
        if counts is not None:
            if not callable(counts):
                raise TypeError(f"counts must be a function of one vector, not {counts!r}")
            if ranking != "match_early" or tracked is None:
                raise ValueError("a counts function goes with ranking='match_early' in a "
                                 "kernel with a known_block_size")
            callback = (counts, [tracked], "counts function")
        if digit is None and callback is None:
            results = self._emit_n("warp.block_radix_rank", [keys], types, attributes,
                                   regions=[[], []])
        else:
            results = self._with_combiner("warp.block_radix_rank", [keys], True, [keys],
                                          attributes, digit, types, [keys.type.element],
                                          [i32], region_count=2, sides=1,
                                          what="digit function", callback=callback)
        return results[0] if len(types) == 1 else tuple(results)

    def block_run_length_decode(self, values: Value, lengths: Value, items_per_thread: int,
                                from_offset=0, default=None, relative_offsets: bool = False,
                                offsets: bool = False):
        """warp.block_run_length_decode (CUB BlockRunLengthDecode): the
        block's B*R runs, thread t holding runs t*R .. t*R+R-1 (`values` a
        vector of R items of i8 .. i64, f16, bf16, f32, f64; `lengths` a
        vector of R unsigned integers), decoded, and a window of
        B*items_per_thread items from decoded position `from_offset` (an
        i32 or i64 Value, or an int: i32, i64 where the lengths are i64)
        returned blocked: thread t gets positions from + t*D .. +D-1. Past
        the decoded total the item is the block's last run's value, or
        `default` where given. Returns (items, total), or with
        `relative_offsets` (items, total, each item's position in its
        run). Every thread of the block must call it (it holds barriers),
        with the same `from_offset`. With `offsets` (CUB's constructor from
        run_offsets), `lengths` holds each run's start instead, the starts
        not decreasing and the first 0; the block's last run then has no
        end, `total` is its start, and `default` cannot be given."""
        what = "offsets" if _checks.flag(offsets, "offsets") else "lengths"
        values = self.value(values, "the run values")
        lengths = self.value(lengths, f"the run {what}")
        if not isinstance(values.type, VectorType) or \
                values.type.element.name not in self._RADIX_SORT_TYPES:
            raise TypeError(f"block_run_length_decode takes a vector of a thread's run values "
                            f"({', '.join(self._RADIX_SORT_TYPES)}), not {values.type}")
        if not isinstance(lengths.type, VectorType) or lengths.type.size != values.type.size \
                or lengths.type.element.name not in ("i8", "i16", "i32", "i64"):
            raise TypeError(f"block_run_length_decode's {what} are a vector of "
                            f"{values.type.size} integers, not {lengths.type}")
        if offsets and default is not None:
            raise ValueError("block_run_length_decode from offsets has no decoded total for a "
                             "default to follow: leave out default")
        if isinstance(from_offset, Value):
            offset_type = from_offset.type
        else:
            offset_type = i64 if lengths.type.element.name == "i64" else i32
        start = self.coerce(from_offset, offset_type)
        items = _checks.integer(items_per_thread, "items_per_thread", 1, 1024)
        operands = [values, lengths, start]
        if default is not None:
            operands.append(self.coerce(default, values.type.element))
        types: List[Type] = [vector(items, values.type.element), offset_type]
        if _checks.flag(relative_offsets, "relative_offsets"):
            types.append(vector(items, offset_type))
        attributes = {"offsets": self._ops.unit()} if offsets else {}
        return tuple(self._emit_n("warp.block_run_length_decode", operands, types, attributes))

    def merge_sort(self, keys: Value, values: Optional[Value] = None,
                   compare: Callable = lambda a, b: a < b, valid_items=None,
                   oob_default=None, width: int = 32):
        """warp.merge_sort (CUB WarpMergeSort::StableSort): a stable sort of
        each logical warp's `width`*N keys (`width` a power of two, 1..32),
        each lane holding N in a vector (i8, i16, i32, i64, f16, bf16, f32
        or f64) in the blocked arrangement (the group's p-th lane: keys
        p*N .. p*N+N-1), by `compare(a, b)`: a function of two key Values,
        built with the kernel builder, that returns an i1 Value, true when
        `a` is ordered strictly before `b` (default `a < b`: signed for
        integers, ordered for floats; `a > b` sorts descending). `values`
        (a vector of the same N) travel with their keys. With `valid_items`
        (an i32 Value or int) and `oob_default` (a key), only the group's
        first `valid_items` positions are sorted; every later position gets
        `oob_default` and keeps its value (CUB's Sort with valid_items).
        Returns the sorted keys, or (keys, values). Every lane of the warp
        must call it."""
        width = self._ops.integer(_checks.integer(width, "width", 1, 32), "i32")
        return self._merge_sort("warp.merge_sort", "a lane's", keys, values, compare,
                                valid_items, oob_default, {"width": width})

    def _merge_sort(self, op: str, whose: str, keys, values, compare, valid_items,
                    oob_default, attributes: Dict[str, object]):
        """A warp or block merge sort: `op` with `attributes` besides the
        operands'; the sorted keys, or (keys, values)."""
        name = op.split(".")[1]
        keys, operands, types = self._sort_operands(name, whose, keys, values)
        if (valid_items is None) != (oob_default is None):
            raise ValueError(f"{name} takes valid_items and oob_default together")
        valid = [] if valid_items is None else [self.coerce(valid_items, i32)]
        oob = [] if oob_default is None else [self.coerce(oob_default, keys.type.element)]
        if not callable(compare):
            raise TypeError(f"compare must be a function of two keys, not {compare!r}")
        attributes = dict(attributes,
                          operandSegmentSizes=_segment_sizes([keys], operands[1:], valid, oob))
        results = self._with_combiner(op, [keys], True, operands + valid + oob, attributes,
                                      compare, types, [keys.type.element], [i1])
        return results[0] if values is None else tuple(results)

    def block_merge_sort(self, keys: Value, values: Optional[Value] = None,
                         compare: Callable = lambda a, b: a < b, valid_items=None,
                         oob_default=None):
        """warp.block_merge_sort (CUB BlockMergeSort::StableSort): a stable
        sort of the block's B*N keys, each thread holding N in a vector (i8,
        i16, i32, i64, f16, bf16, f32 or f64) in the blocked arrangement
        (thread t: keys t*N .. t*N+N-1), by `compare(a, b)` as merge_sort's
        (an i1 Value, true when `a` is ordered strictly before `b`; default
        `a < b`). `values` (a vector of the same N) travel with their keys.
        With `valid_items` (an i32 Value or int) and `oob_default` (a key),
        only the block's first `valid_items` positions are sorted; every
        later position gets `oob_default` and keeps its value. The kernel
        needs a known_block_size. Returns the sorted keys, or (keys,
        values). Every thread of the block must call it."""
        return self._merge_sort("warp.block_merge_sort", "a thread's", keys, values,
                                compare, valid_items, oob_default, {})

    def _tile_width(self, width, what: str) -> dict:
        """The `width` attribute of a ballot, vote, warp load or store (the
        verifier checks that it is a power of two in 1..32)."""
        return {"width": self._ops.integer(
            _checks.integer(width, what, -(1 << 31), (1 << 31) - 1), "i32")}

    def ballot(self, predicate: Value, mask=None, width: int = 32) -> Value:
        """warp.ballot: bit i set where lane i's predicate holds. With
        `width` < 32 (a power of two) the ballot of the lane's tile of
        `width` lanes (cooperative groups' tile.ballot): bit i is lane i of
        the tile."""
        predicate, mask = self.coerce(predicate, i1), self._mask_value(mask)
        return self._emit("warp.ballot", [predicate, *mask], i32,
                          self._tile_width(width, "ballot width"))

    def vote(self, kind: str, predicate: Value, mask=None, width: int = 32) -> Value:
        """warp.vote "any", "all" or "uni" over the warp, or with `width` <
        32 (a power of two) over the lane's tile of `width` lanes
        (cooperative groups' tile.any / tile.all)."""
        kind = self._enum("vote_kind", kind, "vote kind")
        predicate, mask = self.coerce(predicate, i1), self._mask_value(mask)
        return self._emit("warp.vote", [predicate, *mask], i1,
                          {"kind": kind, **self._tile_width(width, "vote width")})

    def match_any(self, value: Value, mask=None, bits: Optional[int] = None,
                  strategy: Optional[str] = None) -> Value:
        """warp.match_any (__match_any_sync): the lanes whose value equals
        this lane's; with `bits` (an integer value) only its low bits compared
        (CUB's MatchAny<LABEL_BITS>); strategy "match" (one match.any),
        "ballots" (a ballot per bit, bits <= 32) or None (the compiler's)."""
        value = self.value(value, "match_any's value")
        attributes: Dict[str, object] = {}
        if bits is not None:
            attributes["bits"] = self._ops.integer(_checks.integer(bits, "match bits", 1, 64), "i32")
        if strategy is not None:
            attributes["strategy"] = self._enum("match_strategy", strategy, "match strategy")
        return self._emit("warp.match_any", [value, *self._mask_value(mask)], i32, attributes)

    def match_all(self, value: Value, mask=None) -> Tuple[Value, Value]:
        value = self.value(value, "match_all's value")
        return tuple(self._emit_n("warp.match_all", [value, *self._mask_value(mask)], [i32, i1]))

    def _collective_values(self, value, what: str) -> Tuple[List[Value], bool]:
        """The values of a reduce/scan: one Value, or a tuple/list of them
        (a combiner function's tuple); and whether it was a single Value."""
        if isinstance(value, Value):
            return [self.value(value, what)], True
        if isinstance(value, (tuple, list)) and value:
            return [self.value(v, what) for v in value], False
        raise TypeError(f"{what} must be a kernel value or a non-empty tuple of them, "
                        f"not {value!r}")

    @staticmethod
    def _item_types(values: List[Value], op: str) -> List[Type]:
        """The element types of items=True's values: each a vector of the
        thread's items, all of the same length."""
        for v in values:
            if not isinstance(v.type, VectorType):
                raise TypeError(f"{op} with items=True takes vectors of a thread's items, "
                                f"not {v.type}")
        sizes = {v.type.size for v in values}
        if len(sizes) > 1:
            raise ValueError(f"{op} with items=True takes vectors of one length (the items "
                             f"per thread), not {', '.join(str(v.type) for v in values)}")
        return [v.type.element for v in values]

    def _with_combiner(self, op: str, values: List[Value], single: bool,
                       operands: List[Value], attributes: Dict[str, object],
                       combine: Optional[Callable], result_types: Sequence[Type],
                       types: Optional[Sequence[Type]] = None,
                       yields: Optional[Sequence[Type]] = None,
                       prefix: Optional[Callable] = None,
                       region_count: int = 1, sides: int = 2,
                       what: str = "combiner",
                       callback: Optional[Tuple[Callable, List[Type], str]] = None
                       ) -> List[Value]:
        """Makes `op` with a combine region built by calling `combine(left,
        right)` on the region's arguments (Values, or tuples of them), which
        returns the combined Value or tuple; returns the op's results. The
        region's warp.yield is located at the combiner's `return`. `types`:
        the combined types (the region's arguments and yields), by default
        the values' types; `yields`: the types it returns, by default `types`.
        combine=None leaves the combine region empty (a kind); `prefix`
        (block_scan's) fills a second region from `prefix(totals)`, the
        totals of the combined types, returning as many Values;
        `region_count`: the op's regions (the others left empty); `sides`:
        the tuples `combine` takes (1 for a function of one tuple, as a radix
        rank's digit extractor), `what` names it in errors; `callback`
        (function, argument types, what) fills the second region from a
        function of those arguments that returns nothing (a radix rank's
        counts callback)."""
        types = list(types) if types is not None else [v.type for v in values]
        yields = list(yields) if yields is not None else types
        where = self._position()
        location = self._ops.location(where)
        fills = []
        if combine is not None:
            block = self._ops.block([self._ops.type(str(t)) for t in types * sides], location)
            fills.append((block, combine, sides, yields, what))
        regions = [[fills[0][0]] if fills else []]
        if prefix is not None:
            block = self._ops.block([self._ops.type(str(t)) for t in types], location)
            fills.append((block, prefix, 1, types, "prefix function"))
            regions.append([block])
        if callback is not None:
            function, arguments, name = callback
            block = self._ops.block([self._ops.type(str(t)) for t in arguments], location)
            fills.append((block, function, 1, [], name, arguments))
            regions.append([block])
        regions += [[] for _ in range(region_count - len(regions))]
        operation = self._op(op, operands, result_types, attributes, regions=regions,
                             location=where, verify=False)
        try:
            for block, function, sides, returns, what, *arguments in fills:
                self._fill_region(block, function, arguments[0] if arguments else types,
                                  sides, single, returns, what, where)
        except BaseException:
            self._erase(operation)
            raise
        self._check(operation)
        return self._results(operation, result_types)

    def _fill_region(self, block, function: Callable, types: List[Type], sides: int,
                     single: bool, returns: List[Type], what: str, where) -> None:
        """Calls `function` on `block`'s arguments (`sides` tuples of
        `types`: one Value each for a single value, else tuples) inside the
        block and ends it in a warp.yield of what it returned (`returns`),
        located at its `return`."""
        arguments = self._arguments(block, types * sides)
        n = len(types)
        parts = [arguments[i * n:(i + 1) * n] for i in range(sides)]
        self._enter_region()
        self._blocks.append(block)
        try:
            result, returned = _returning(
                function, tuple(part[0] if single else tuple(part) for part in parts))
            at = f" (the {what}'s return at {returned})" if returned else ""
            if not returns:
                if result is not None:
                    raise ValueError(f"the {what} returns nothing, got {result!r}{at}")
                result = []
            elif single and isinstance(result, (tuple, list)) and len(result) == 1:
                result = result[0]
            result = [result] if single and returns else result
            if not isinstance(result, (tuple, list)) or len(result) != len(returns):
                raise ValueError(f"the {what} must return {len(returns)} value"
                                 f"{'s' if len(returns) > 1 else ''} (one per combined value), "
                                 f"got {result!r}{at}")
            for c, t in zip(result, returns):
                if isinstance(c, Value) and c.type != t:
                    raise TypeError(f"the {what} returned {c.type} where {t} is expected{at}")
            result = [self.coerce(c, t) for c, t in zip(result, returns)]
            self._op("warp.yield", result, location=returned.position() if returned else where,
                     verify=False)
        finally:
            self._blocks.pop()
            self._depth -= 1

    def reduce(self, kind, value, cluster_size: int = 32, cluster_stride: int = 1,
               lanes: str = "all", valid_lanes=None, mask=None,
               strategy: Optional[str] = None, heads=None, tails=None,
               commutative: bool = False):
        """warp.reduce; `lanes` is "all" or "first"; `valid_lanes` makes
        the partial-warp form.

        `kind` is a kind name ("add", "maxnumf", ...) or a combiner: a
        Python function `combine(left, right)` of the lower lane's and the
        higher lane's values (tuples when `value` is a tuple) that returns
        the combined value (tuple), built from kernel values. Say
        `commutative=True` only when combine(a, b) == combine(b, a) bit for
        bit; otherwise lane order is kept. With a tuple, returns a tuple.

        `heads` / `tails` (i1) segment the reduction: a true lane starts /
        ends a segment; with lanes="all" every lane of a segment gets its
        result, with lanes="first" the segment's first lane does."""
        values, single = self._collective_values(value, "the reduced value")
        if heads is not None and tails is not None:
            raise ValueError("reduce takes heads or tails, not both")
        heads, tails = self._optional(heads, i1), self._optional(tails, i1)
        valid = self._optional(valid_lanes, i32)
        mask = self._mask_value(mask)
        attributes = {
            "cluster_size": self._ops.integer(_checks.integer(cluster_size, "cluster_size",
                                                              0, 1 << 16), "i32"),
            "cluster_stride": self._ops.integer(_checks.integer(cluster_stride, "cluster_stride",
                                                                0, 1 << 16), "i32"),
            "lanes": self._enum("result_lanes", lanes, "lanes"),
            "operandSegmentSizes": _segment_sizes(values, valid, mask, heads, tails)}
        if strategy is not None:
            attributes["strategy"] = self._enum("strategy", strategy, "reduce strategy")
        return self._emit_reduction("warp.reduce", "reduce", kind, values, single,
                                    values + valid + mask + heads + tails, attributes,
                                    commutative)

    def _emit_reduction(self, op: str, what: str, kind, values: List[Value], single: bool,
                        operands: List[Value], attributes: Dict[str, object],
                        commutative: bool, types: Optional[List[Type]] = None):
        """Makes reduce-like `op` with a kind or a combiner function (see
        reduce); returns the result, or the tuple of results. `types`: the
        combined types (results and a region's), by default the values'."""
        types = types if types is not None else [v.type for v in values]
        if callable(kind):
            if commutative:
                attributes["commutative"] = self._ops.unit()
            results = self._with_combiner(op, values, single, operands, attributes, kind, types,
                                          types)
            return results[0] if single else tuple(results)
        attributes["kind"] = self._enum("kind", kind, f"{what} kind")
        if commutative:
            raise ValueError("commutative=True is for combiner functions (every kind is)")
        results = self._emit_n(op, operands, types, attributes, regions=[[]])
        return results[0] if single else tuple(results)

    def scan(self, kind, value, exclusive: bool = False, reverse: bool = False,
             width: int = 32, init=None, mask=None, total: bool = False,
             heads: Optional[Value] = None, valid_lanes=None):
        """warp.scan; returns the scan, or (scan, segment total) with
        total=True. `heads` (i1) segments the scan: a true lane starts one.

        `kind` is a kind name or a combiner function, as for reduce (scans
        always keep lane order); with a tuple `value` the scan and the total
        are tuples and `init` is a tuple. An exclusive scan with a combiner
        function needs `init`."""
        values, single = self._collective_values(value, "the scanned value")
        heads = self._optional(heads, i1)
        inits = self._inits(init, values, single)
        valid = self._optional(valid_lanes, i32)
        mask = self._mask_value(mask)
        attributes = {
            "width": self._ops.integer(_checks.integer(width, "scan width", 0, 1 << 16), "i32"),
            "operandSegmentSizes": _segment_sizes(values, inits, valid, mask, heads)}
        if exclusive:
            attributes["exclusive"] = self._ops.unit()
        if reverse:
            attributes["reverse"] = self._ops.unit()
        return self._emit_scan("warp.scan", "scan", kind, values, single,
                               values + inits + valid + mask + heads, attributes,
                               exclusive and init is None, total)

    def _inits(self, init, values: List[Value], single: bool,
               types: Optional[List[Type]] = None) -> List[Value]:
        """A scan's init operands: one per scanned value (as its combined
        type in `types`, by default the value's type), or none."""
        if init is None:
            return []
        inits = [init] if single else init
        if not isinstance(inits, (tuple, list)) or len(inits) != len(values):
            raise ValueError(f"scan init takes one value per scanned value ({len(values)})")
        types = types if types is not None else [v.type for v in values]
        return [self.coerce(i, t) for i, t in zip(inits, types)]

    def _emit_scan(self, op: str, what: str, kind, values: List[Value], single: bool,
                   operands: List[Value], attributes: Dict[str, object],
                   exclusive_without_init: bool, total: bool,
                   combined: Optional[List[Type]] = None, prefix: Optional[Callable] = None,
                   region_count: int = 1):
        """Makes scan-like `op` with a kind or a combiner function (see
        scan); returns the scan, or (scan, total), tuples for a tuple. The
        scans have the values' types; `combined` (by default the same) are
        the totals' and a region's types. `prefix`: block_scan's prefix
        function; `region_count`: the op's regions."""
        types = [v.type for v in values]
        combined = combined if combined is not None else types
        result_types = types + combined if total else types
        if callable(kind):
            if exclusive_without_init:
                raise ValueError("an exclusive scan with a combiner function needs init: "
                                 "a combiner has no known identity")
        else:
            attributes["kind"] = self._enum("kind", kind, f"{what} kind")
        if callable(kind) or prefix is not None:
            results = self._with_combiner(op, values, single, operands, attributes,
                                          kind if callable(kind) else None, result_types,
                                          combined, prefix=prefix, region_count=region_count)
        else:
            results = self._emit_n(op, operands, result_types, attributes,
                                   regions=[[] for _ in range(region_count)])
        n = len(values)
        scans, totals = results[:n], results[n:]
        if single:
            return (scans[0], totals[0]) if total else scans[0]
        return (tuple(scans), tuple(totals)) if total else tuple(scans)

    def compact(self, predicate: Value, mask=None) -> Tuple[Value, Value]:
        """(offset, count) of ballot compaction."""
        predicate, mask = self.coerce(predicate, i1), self._mask_value(mask)
        return tuple(self._emit_n("warp.compact", [predicate, *mask], [i32, i32]))

    def _memref(self, buffer: Value, what: str) -> Value:
        """`buffer` when it is a memref (the builder reads its element)."""
        buffer = self.value(buffer, what)
        if not isinstance(buffer.type, MemRefType):
            raise TypeError(f"{what} must be a memref, not {buffer.type}")
        return buffer

    def load_vector(self, buffer: Value, position, size: int) -> Value:
        """vector.load of `size` consecutive elements of a 1-D memref from
        `position` on: a lane's items for exchange()."""
        buffer = self._memref(buffer, "load_vector's buffer")
        type = VectorType(_checks.integer(size, "a vector size", 1), buffer.type.element)
        return self._emit("vector.load", [buffer, *buffer._indices(position)], type)

    def vector_slice(self, value: Value, start: int, size: int) -> Value:
        """Elements start .. start + size - 1 of a 1-D vector (a
        vector.shuffle): e.g. the B fragment of one n8 tile out of an
        ldmatrix x4."""
        value = self.value(value, "vector_slice's vector")
        if not isinstance(value.type, VectorType):
            raise TypeError(f"vector_slice takes a vector, not {value.type}")
        start = _checks.integer(start, "vector_slice's start", 0, value.type.size - 1)
        size = _checks.integer(size, "vector_slice's size", 1, value.type.size - start)
        positions = ", ".join(str(start + i) for i in range(size))
        return self._emit("vector.shuffle", [value, value],
                          VectorType(size, value.type.element),
                          {"mask": f"array<i64: {positions}>"})

    def vector_bitcast(self, value: Value, element: Type) -> Value:
        """The bits of a 1-D vector as a vector of `element` (vector.bitcast):
        e.g. 16 bytes loaded as i8 as the f8E4M3FN A fragment of an fp8
        mma_sync. The length scales with the element width."""
        value = self.value(value, "vector_bitcast's vector")
        if not isinstance(value.type, VectorType):
            raise TypeError(f"vector_bitcast takes a vector, not {value.type}")
        if not isinstance(element, Type) or isinstance(element, VectorType):
            raise TypeError(f"vector_bitcast's element is a scalar Type, not {element!r}")
        total = value.type.size * value.type.element.bits
        if total % element.bits:
            raise ValueError(f"vector_bitcast: the {total} bits of {value.type} are no whole "
                             f"number of {element}")
        return self._emit("vector.bitcast", [value],
                          VectorType(total // element.bits, element))

    def vector_element(self, value: Value, position: int) -> Value:
        """Element `position` of a 1-D vector (vector.extract)."""
        value = self.value(value, "vector_element's vector")
        if not isinstance(value.type, VectorType):
            raise TypeError(f"vector_element takes a vector, not {value.type}")
        position = _checks.integer(position, "vector_element's position", 0,
                                   value.type.size - 1)
        return self._emit("vector.extract", [value], value.type.element,
                          {"static_position": f"array<i64: {position}>"})

    def store_vector(self, buffer: Value, position, value: Value) -> None:
        """vector.store of `value` at buffer[position], buffer[position + 1], ..."""
        buffer = self._memref(buffer, "store_vector's buffer")
        value = self.value(value, "the stored vector")
        self._op("vector.store", [value, buffer, *buffer._indices(position)])

    def exchange(self, items: Value, direction: str, strategy: Optional[str] = None) -> Value:
        """warp.exchange (CUB WarpExchange) of a lane's N items (a vector of
        1..128 i8/i16/i32/i64/f16/bf16/f32/f64): direction
        "blocked_to_striped" or "striped_to_blocked"; strategy "shuffle"
        (power-of-two N <= 32), "shared" or None (the compiler's choice).
        Load the items from a memref of vectors: `buf[i]` with
        `buf: memref(vector(8, f32))`."""
        items = self.value(items, "the exchanged items")
        attributes = {"direction": self._enum("exchange_direction", direction,
                                               "exchange direction")}
        if strategy is not None:
            attributes["strategy"] = self._enum("exchange_strategy", strategy,
                                                "exchange strategy")
        return self._emit("warp.exchange", [items], items.type, attributes)

    def scatter(self, items: Value, ranks: Value, striped: bool = False) -> Value:
        """warp.scatter (CUB WarpExchange::ScatterToStriped / ScatterToBlocked):
        item j of each lane goes to warp position ranks[j] (a vector of i32,
        one per item; the ranks a permutation of 0 .. 32*N-1, an item with a
        rank outside them is dropped); returns the items by position,
        `striped` (lane l: positions l, l+32, ...) or blocked (lane l:
        l*N .. l*N+N-1). All 32 lanes of the warp must call it."""
        items = self.value(items, "the scattered items")
        ranks = self.value(ranks, "the items' ranks")
        attributes = {"striped": self._ops.unit()} if _checks.flag(striped, "striped") else {}
        return self._emit("warp.scatter", [items, ranks], items.type, attributes)

    def elect(self, mask=None, leader: bool = False):
        """warp.elect: true in the lowest lane of `mask` (default all 32
        lanes) only; pass k.activemask() from divergent code. With
        `leader=True`, (that flag, the elected lane's number)."""
        if leader:
            return tuple(self._emit_n("warp.elect", self._mask_value(mask), [i1, i32]))
        return self._emit("warp.elect", self._mask_value(mask), i1)

    def _atomic_order(self, scope, ordering) -> dict:
        """The scope and ordering attributes of an atomic, those given."""
        attributes = {}
        if scope is not None:
            attributes["scope"] = self._enum("memory_scope", scope, "memory scope")
        if ordering is not None:
            attributes["ordering"] = self._enum("memory_order", ordering, "memory order")
        return attributes

    def aggregated_atomic(self, kind, buffer: Value, position, value, mask=None,
                          scope=None, ordering=None) -> Value:
        """warp.atomic_rmw: applies `kind` (add, minsi, maxsi, minui, maxui,
        and, or, xor, exch, minnumf, maxnumf) with `value` to
        buffer[position] atomically,
        with one atomic per distinct element in the warp; returns the old
        value each lane would have seen had the lanes done their atomics in
        lane order. `position` is an index or a tuple of indices; `mask`
        defaults to the executing lanes (activemask). add takes i32, i64,
        f16, bf16, f32, f64 and the pairs vector(2, f16) and vector(2, bf16)
        (each half its own sum); exch i16, i32, i64, f16, bf16, f32 and f64
        (16-bit: a compare-and-swap loop, atom.cas.b16); minnumf and
        maxnumf f16, bf16, f32 and f64 (CUDA's fminf/fmaxf: a NaN operand
        ignored, -0.0 below +0.0 on f32 and f64; a loop of atom.cas of the
        float's width); the other kinds i32 and i64. `scope` (cta, cluster, gpu, sys; default gpu) and
        `ordering` (relaxed, acquire, release, acq_rel; default relaxed) are
        PTX atom's, on the group's one atomic."""
        buffer = self._memref(buffer, "aggregated_atomic's buffer")
        element = buffer.type.element
        value = self.coerce(value, element)
        indices = buffer._indices(position)
        mask = self._mask_value(mask)
        return self._emit("warp.atomic_rmw", [value, buffer, *indices, *mask], element,
                          {"kind": self._enum("atomic_kind", kind, "atomic kind"),
                           "operandSegmentSizes": _segment_sizes([value], [buffer], indices,
                                                                 mask),
                           **self._atomic_order(scope, ordering)})

    def lane_atomic(self, kind, buffer: Value, position, value, scope=None,
                    ordering=None) -> Value:
        """warp.lane_atomic_rmw: this lane's own atomic (no aggregation) of
        `kind` with `value` on buffer[position], with PTX atom's `scope` and
        `ordering` (as aggregated_atomic); returns the old value."""
        buffer = self._memref(buffer, "lane_atomic's buffer")
        element = buffer.type.element
        value = self.coerce(value, element)
        return self._emit("warp.lane_atomic_rmw", [value, buffer, *buffer._indices(position)],
                          element, {"kind": self._enum("atomic_kind", kind, "atomic kind"),
                                    **self._atomic_order(scope, ordering)})

    def aggregated_atomic_add(self, buffer: Value, position, value, mask=None) -> Value:
        """aggregated_atomic("add", ...): adds `value` to buffer[position]
        with one atomic per distinct element in the warp."""
        return self.aggregated_atomic("add", buffer, position, value, mask)

    # -- warp matrix multiply (upstream gpu.subgroup_mma_*, PTX wmma) -------
    # Which fragment shapes and element types PTX wmma has is the compiler's
    # to say: upstream's verifiers check that A, B and C fit together, and
    # convert-warp-mma-to-nvvm checks the rest against NVVM's own table at
    # compile time, at the op's (the user's) line.
    def _mma_fragment_type(self, operand: str, element: Type, shape) -> MMAMatrixType:
        if not isinstance(element, Type) or element.is_fragment or \
                isinstance(element, (VectorType, MemRefType)):
            raise TypeError(f"a fragment's element is a scalar type, not {element!r}")
        if isinstance(shape, (str, bytes)) or not hasattr(shape, "__len__") or len(shape) != 2:
            raise TypeError(f"a fragment shape is (rows, cols), not {shape!r}")
        shape = tuple(_checks.integer(d, "a fragment size", 1) for d in shape)
        return MMAMatrixType(shape[0], shape[1], element, operand)

    def _mma_access(self, buffer: Value, position, lead_dimension, cols: int,
                    what: str) -> Tuple[List[Value], int]:
        """The indices and leading dimension of a fragment's access to
        `buffer` at `position` (an index per dimension)."""
        buffer = self.value(buffer, what)
        type = buffer.type
        if not isinstance(type, MemRefType) or len(type.shape) not in (1, 2) or \
                isinstance(type.element, VectorType):
            raise TypeError(f"{what} must be a 1-D or 2-D memref of scalars, not {type}")
        if lead_dimension is None:
            if len(type.shape) != 2 or type.shape[1] < 0:
                raise ValueError(f"give lead_dimension (the row stride in elements): {type} "
                                 f"has no static row length")
            lead_dimension = type.shape[1]
        lead_dimension = _checks.integer(lead_dimension, "lead_dimension", 1)
        per_16_bytes = 16 // (type.element.bits // 8)
        if lead_dimension < cols or lead_dimension % per_16_bytes:
            raise ValueError(f"lead_dimension {lead_dimension} must be at least the fragment's "
                             f"{cols} columns and a multiple of {per_16_bytes} (16 bytes of "
                             f"{type.element}, PTX's rule)")
        self._check_fragment_alignment(buffer)
        return buffer._indices(position), lead_dimension

    def _check_fragment_alignment(self, buffer: Value) -> None:
        if buffer.name in self._shared_align and (self._shared_align[buffer.name] or 0) < 32:
            raise ValueError(f"wmma needs 32-byte aligned fragments: make {buffer.name} with "
                             f"k.shared(..., align=32)")

    def mma_fill(self, value, element: Type = f32, shape=(16, 16)) -> Value:
        """An accumulator fragment (operand "c") with every element `value`:
        gpu.subgroup_mma_constant_matrix. `element` f16 or f32."""
        type = self._mma_fragment_type("c", element, shape)
        value = self.coerce(value, element)
        return self._emit("gpu.subgroup_mma_constant_matrix", [value], type)

    def mma_load(self, buffer: Value, position, operand: str, shape=(16, 16),
                 lead_dimension: Optional[int] = None) -> Value:
        """The warp loads a row-major `shape` tile of `buffer` from
        `position` (an index per dimension of the 1-D or 2-D memref) as an
        MMA fragment: `operand` "a" (rows x k), "b" (k x cols) or "c" (an
        accumulator). `lead_dimension`: the row stride in elements (by
        default the row length of a static 2-D memref), a compile-time
        constant. Every lane must call it (PTX wmma.load.sync.aligned); the
        tile's first element must be 32-byte aligned (k.shared(...,
        align=32) for workgroup memory)."""
        operand = _checks.one_of(operand, "an MMA operand", ("a", "b", "c"))
        buffer = self._memref(buffer, "mma_load's buffer")
        if buffer.type.element == bf16:
            # !gpu.mma_matrix takes no bf16: warp's own ops (vector fragments).
            self._check_warp_mma_tile(shape, lead_dimension, buffer, "mma_load")
            return self.warp_mma_load(buffer, position, operand)
        type = self._mma_fragment_type(operand, buffer.type.element, shape)
        indices, lead = self._mma_access(buffer, position, lead_dimension, type.shape[1],
                                         "mma_load's buffer")
        return self._emit("gpu.subgroup_mma_load_matrix", [buffer, *indices], type,
                          {"leadDimension": self._ops.integer(lead, "index")})

    def mma(self, a: Value, b: Value, c: Value) -> Value:
        """a x b + c on the tensor cores (gpu.subgroup_mma_compute, PTX
        wmma.mma): A m x k, B k x n, accumulator C m x n; f16 inputs into
        f16 or f32, or f32 inputs (multiplied as tf32, sm_80+) into f32.
        Returns the new accumulator."""
        a, b, c = (self.value(v, f"mma's {n}") for v, n in ((a, "a"), (b, "b"), (c, "c")))
        if isinstance(a.type, VectorType):
            # Fragments of warp's own ops (bf16 ones from k.mma_load).
            return self.warp_mma(a, b, c)
        return self._emit("gpu.subgroup_mma_compute", [a, b, c], c.type)

    def mma_store(self, matrix: Value, buffer: Value, position,
                  lead_dimension: Optional[int] = None) -> None:
        """The warp stores an accumulator fragment into `buffer` (row-major)
        from `position`; `lead_dimension` as in mma_load. Every lane must
        call it; 32-byte aligned as for mma_load."""
        matrix = self.value(matrix, "the stored fragment")
        if isinstance(matrix.type, VectorType):
            buffer = self.value(buffer, "mma_store's buffer")
            self._check_warp_mma_tile((16, 16), lead_dimension, buffer, "mma_store")
            return self.warp_mma_store(matrix, buffer, position)
        if not isinstance(matrix.type, MMAMatrixType):
            raise TypeError(f"mma_store stores accumulator (C) fragments, not {matrix.type}")
        buffer = self._memref(buffer, "mma_store's buffer")
        if buffer.type.element != matrix.type.element:  # upstream's verifier lets it through
            raise TypeError(f"mma_store needs a memref of {matrix.type.element}, not "
                            f"{buffer.type}")
        indices, lead = self._mma_access(buffer, position, lead_dimension,
                                         matrix.type.shape[1], "mma_store's buffer")
        self._op("gpu.subgroup_mma_store_matrix", [matrix, buffer, *indices],
                 attributes={"leadDimension": self._ops.integer(lead, "index")})

    # -- warp's own MMA ops (warp.mma_*, PTX wmma; fragments are vectors) ----
    _WARP_MMA_LAYOUTS = ("row", "col")

    def _warp_mma_fragment(self, shape: str, operand: str, element: Type) -> VectorType:
        """The vector type of one lane's `operand` fragment of `element`,
        from the dialect's table (warpMMAFragmentLength)."""
        length = self._ops.L.warpMMAFragmentLength(
            _capi.MlirStringRef.of(shape.encode()), _capi.MlirStringRef.of(operand.encode()),
            self._ops.type(str(element)))
        if not length:
            raise TypeError(f"PTX wmma has no {shape} {operand.upper()} fragment of {element}")
        return vector(length, element)

    def _warp_mma_shape(self, element: Type, operand: str, shape: Optional[str]) -> str:
        """`shape`, or by default m16n16k8 for f32 (tf32) A/B fragments and
        m16n16k16 otherwise."""
        if shape is None:
            return "m16n16k8" if element == f32 and operand != "c" else "m16n16k16"
        return _checks.one_of(shape, "an MMA shape", ("m16n16k16", "m16n16k8"))

    def _warp_mma_buffer(self, buffer: Value, position, what: str) -> List[Value]:
        """The indices of a warp.mma_* access to `buffer` at `position`."""
        buffer = self._memref(buffer, what)
        if len(buffer.type.shape) != 2:  # the ops take a row and a column
            raise TypeError(f"{what} must be a 2-D memref of scalars (its row stride is the "
                            f"leading dimension), not {buffer.type}")
        self._check_fragment_alignment(buffer)
        return buffer._indices(position)

    def _check_warp_mma_tile(self, shape, lead_dimension, buffer: Value, what: str) -> None:
        """k.mma_load/k.mma_store of bf16 (warp's ops): a 16x16 tile whose
        leading dimension is the memref's row stride."""
        if tuple(shape) != (16, 16):
            raise ValueError(f"{what} of bf16: PTX wmma has only 16x16 bf16 fragments "
                             f"(m16n16k16), not {shape}")
        type = buffer.type
        row = type.shape[1] if isinstance(type, MemRefType) and len(type.shape) == 2 else None
        if lead_dimension is not None and lead_dimension != row:
            raise ValueError(f"{what} of bf16 takes the leading dimension from {type}'s row "
                             f"stride; lead_dimension={lead_dimension} differs")

    def _mma_enums(self, **cases: str) -> Dict[str, str]:
        """warp.mma_* attributes: {attribute name: "mnemonic case"}."""
        return {name: f"#warp<{text}>" for name, text in cases.items()}

    def warp_mma_fill(self, value, element: Type = f32) -> Value:
        """An accumulator fragment of warp.mma_compute (vector<8xT>, `element`
        f16 or f32) with every element `value`: an arith.constant splat."""
        return self.constant(value, self._warp_mma_fragment("m16n16k16", "c", element))

    def warp_mma_load(self, buffer: Value, position, operand: str, layout: str = "row",
                      shape: Optional[str] = None) -> Value:
        """warp.mma_load: the warp loads the `operand` ("a", "b", "c") tile
        of `shape` whose top-left element is buffer[position] (a 2-D memref,
        global or workgroup, leading dimension its row stride, static or
        run-time), laid out `layout` ("row"/"col"); each lane gets its
        fragment as a vector (16 f16, 8 bf16 or 4 f32 (tf32) for A/B, 8 f16
        or f32 for C). Elementwise arithmetic on C fragments is valid. Every
        lane must call it; the tile must be 32-byte aligned."""
        operand = _checks.one_of(operand, "an MMA operand", ("a", "b", "c"))
        layout = _checks.one_of(layout, "an MMA layout", self._WARP_MMA_LAYOUTS)
        buffer = self._memref(buffer, "warp_mma_load's buffer")
        element = buffer.type.element
        shape = self._warp_mma_shape(element, operand, shape)
        type = self._warp_mma_fragment(shape, operand, element)
        indices = self._warp_mma_buffer(buffer, position, "warp_mma_load's buffer")
        return self._emit("warp.mma_load", [buffer, *indices], type, self._mma_enums(
            matrix=f"mma_operand {operand}", layout=f"mma_layout {layout}",
            shape=f"mma_shape {shape}"))

    def warp_mma(self, a: Value, b: Value, c: Value, a_layout: str = "row",
                 b_layout: str = "row") -> Value:
        """warp.mma_compute: D = A x B + C on the warp's vector fragments
        (f16 x f16 + f16/f32, bf16 x bf16 + f32 at m16n16k16; tf32 x tf32 +
        f32 at m16n16k8, the shape following from A). `a_layout`/`b_layout`:
        the layouts A and B were loaded with. Returns D (C's type)."""
        a, b, c = (self.value(v, f"warp_mma's {n}") for v, n in ((a, "a"), (b, "b"), (c, "c")))
        a_layout = _checks.one_of(a_layout, "an MMA layout", self._WARP_MMA_LAYOUTS)
        b_layout = _checks.one_of(b_layout, "an MMA layout", self._WARP_MMA_LAYOUTS)
        shape = self._warp_mma_shape(a.type.element, "a", None)
        return self._emit("warp.mma_compute", [a, b, c], c.type, self._mma_enums(
            shape=f"mma_shape {shape}", a_layout=f"mma_layout {a_layout}",
            b_layout=f"mma_layout {b_layout}"))

    def warp_mma_store(self, d: Value, buffer: Value, position, layout: str = "row") -> None:
        """warp.mma_store: the warp stores the 16x16 accumulator tile whose
        fragments the lanes hold in `d` (vector<8xf16> or vector<8xf32>) at
        buffer[position], laid out `layout`. Every lane must call it."""
        d = self.value(d, "the stored fragment")
        layout = _checks.one_of(layout, "an MMA layout", self._WARP_MMA_LAYOUTS)
        indices = self._warp_mma_buffer(buffer, position, "warp_mma_store's buffer")
        self._op("warp.mma_store", [d, buffer, *indices],
                 attributes=self._mma_enums(layout=f"mma_layout {layout}"))

    def mma_sync(self, a: Value, b: Value, c: Value, a_unsigned: bool = False,
                 b_unsigned: bool = False, satfinite: bool = False) -> Value:
        """warp.mma_sync: D = A (16 x k) x B (k x 8) + C (16 x 8) on register
        fragments laid out as warp.mma_sync's description says; k is twice
        A's length (A: vector<k/2 x T>, B: vector<k/4 x T> for T f16, bf16,
        f32 (read as tf32), i8, or Type("f8E4M3FN") / Type("f8E5M2") at k =
        32 on sm_89+, A and B of either fp8 type (vector_bitcast makes them
        from i8 vectors); C: vector<4 x f16/f32/i32>). The i8 flags:
        unsigned A or B, clamping sums. Every lane must call it. Returns D."""
        a, b, c = (self.value(v, f"mma_sync's {n}") for v, n in ((a, "a"), (b, "b"), (c, "c")))
        if not isinstance(a.type, VectorType) or a.type.size not in (2, 4, 8, 16):
            raise TypeError(f"mma_sync's a is one lane's A fragment of an m16n8k4/k8/k16/k32: "
                            f"a vector of 2, 4, 8 or 16 elements, not {a.type}")
        attributes: Dict[str, object] = {
            "shape": f"#warp<mma_sync_shape m16n8k{2 * a.type.size}>"}
        for name, flag in (("a_unsigned", a_unsigned), ("b_unsigned", b_unsigned),
                           ("satfinite", satfinite)):
            if _checks.flag(flag, name):
                attributes[name] = self._ops.unit()
        return self._emit("warp.mma_sync", [a, b, c], c.type, attributes)

    def _matrix_attributes(self, count: int, transpose) -> Dict[str, object]:
        """The count and transpose attributes of a warp.ldmatrix or
        warp.stmatrix."""
        attributes: Dict[str, object] = {"count": f"{count} : i32"}
        if _checks.flag(transpose, "transpose"):
            attributes["transpose"] = self._ops.unit()
        return attributes

    def ldmatrix(self, buffer: Value, position, count: int = 4,
                 transpose: bool = False) -> Value:
        """warp.ldmatrix: the warp loads `count` (1, 2, 4) 8x8 matrices of a
        16-bit type from `buffer` (workgroup memory); this lane names row
        lane % 8 of matrix lane // 8 (8 contiguous elements at
        buffer[position]). Returns the lane's 2 * count elements (row
        lane // 4, columns 2 * (lane % 4) + 0/1 of each matrix; transposed
        with `transpose`). Every lane must call it."""
        buffer = self._memref(buffer, "ldmatrix's buffer")
        indices = buffer._indices(position)
        count = _checks.integer(count, "ldmatrix's count", 1, 4)
        if count == 3:
            raise ValueError("ldmatrix's count must be 1, 2 or 4, got 3")
        return self._emit("warp.ldmatrix", [buffer, *indices],
                          vector(2 * count, buffer.type.element),
                          self._matrix_attributes(count, transpose))

    def stmatrix(self, value: Value, buffer: Value, position, transpose: bool = False) -> None:
        """warp.stmatrix (sm_90): the inverse of ldmatrix; `value` holds the
        lane's 2 * count elements (count = 1, 2, 4 from its length), and this
        lane names where row lane % 8 of matrix lane // 8 goes."""
        value = self.value(value, "stmatrix's value")
        buffer = self._memref(buffer, "stmatrix's buffer")
        indices = buffer._indices(position)
        if not isinstance(value.type, VectorType) or value.type.size not in (2, 4, 8):
            raise TypeError(f"stmatrix's value holds 2 elements of each of 1, 2 or 4 matrices: "
                            f"a vector of 2, 4 or 8 elements, not {value.type}")
        self._op("warp.stmatrix", [value, buffer, *indices],
                 attributes=self._matrix_attributes(value.type.size // 2, transpose))

    @property
    def dynamic_shared_bytes(self) -> int:
        """The dynamic shared memory the kernel's k.dynamic_shared buffers
        need: launch it with shared_bytes=this."""
        return self._dynamic_bytes + (self._dynamic_align - 16 if self._dynamic_bytes else 0)

    def dynamic_shared(self, element: Type, size, align: int = 16) -> Value:
        """A buffer of shape `size` ((rows, cols) or a size) in the block's
        dynamic shared memory (gpu.dynamic_shared_memory and memref.view),
        after the ones made before, its address a multiple of `align` (a
        power of two from 16 to 1024; the base is rounded up at run time).
        Unlike k.shared it may go past 48 KB: launch the kernel with
        shared_bytes=k.dynamic_shared_bytes."""
        shape = tuple(size) if isinstance(size, tuple) else (size,)
        shape = tuple(_checks.integer(d, "a dynamic shared buffer size", 1) for d in shape)
        align = _checks.integer(align, "a dynamic shared buffer alignment", 16, 1024)
        if align & (align - 1):
            raise ValueError(f"a shared buffer alignment is a power of two, not {align}")
        if not isinstance(element, Type) or isinstance(element, (VectorType, MemRefType)) \
                or element.name == "index":
            raise TypeError(f"dynamic_shared takes a scalar element type, not {element!r}")
        base = self._emit("gpu.dynamic_shared_memory", [], MemRefType(i8, (-1,), WORKGROUP_SPACE))
        offset = -(-self._dynamic_bytes // align) * align
        count = 1
        for d in shape:
            count *= d
        self._dynamic_bytes = offset + count * (element.bits // 8)
        self._dynamic_align = max(self._dynamic_align, align)
        shift = self.constant(offset, index)
        if self._dynamic_align > 16:
            address = self._emit("memref.extract_aligned_pointer_as_index", [base], index)
            mask = self._dynamic_align - 1
            shift = shift + ((self._dynamic_align - (address & mask)) & mask)
        return self._emit("memref.view", [base, shift], MemRefType(element, shape, WORKGROUP_SPACE))

    def fence_async_shared(self) -> None:
        """fence.proxy.async.shared::cta: this thread's shared-memory writes
        (stores, completed cp.async) become visible to the async proxy that
        warp.wgmma reads them through (put it before the barrier)."""
        self._op("nvvm.fence.proxy", attributes={"kind": "#nvvm.proxy_kind<async.shared>",
                                                 "space": "#nvvm.shared_space<cta>"})

    def wgmma_descriptor(self, buffer: Value, position, swizzle: int = 128, leading: int = 16,
                         stride: int = 1024) -> Value:
        """warp.wgmma_descriptor: the i64 descriptor of the wgmma operand
        tile at buffer[position] (workgroup memory), its rows `swizzle`
        bytes wide (0 for none, 32, 64, 128) and the byte offsets `leading`
        and `stride` (see the op's description)."""
        buffer = self._memref(buffer, "wgmma_descriptor's buffer")
        indices = buffer._indices(position)
        modes = {0: "none", 32: "b32", 64: "b64", 128: "b128"}
        if swizzle not in modes:
            raise ValueError(f"swizzle is 0, 32, 64 or 128 bytes, not {swizzle!r}")
        return self._emit("warp.wgmma_descriptor", [buffer, *indices], i64, {
            "swizzle": f"#warp<wgmma_swizzle {modes[swizzle]}>",
            "leading": f"{_checks.integer(leading, 'leading', 0)} : i64",
            "stride": f"{_checks.integer(stride, 'stride', 0)} : i64"})

    def wgmma(self, a: Value, b: Value, acc: Value, input: Type = f16,
              a_mn_major: bool = False, b_mn_major: bool = False,
              a_unsigned: bool = False, b_unsigned: bool = False) -> Value:
        """warp.wgmma (sm_90a): the warpgroup's m64 x n x k multiply of the
        `input` tiles behind descriptors a and b (k: 32 bytes of input;
        f16, bf16, f32 read as tf32, Type("f8E4M3FN"), Type("f8E5M2"), i8
        with a_unsigned/b_unsigned for u8) added to acc (vector of n / 2
        f32, i32 for i8), issued asynchronously: fence with k.wgmma_fence()
        before, read the result only after k.wgmma_commit() and
        k.wgmma_wait(). Every thread of the warpgroup must call it."""
        a, b, acc = (self.value(v, f"wgmma's {n}") for v, n in ((a, "a"), (b, "b"), (acc, "acc")))
        attributes: Dict[str, object] = {"input": str(input)}
        for name, flag in (("a_mn_major", a_mn_major), ("b_mn_major", b_mn_major),
                           ("a_unsigned", a_unsigned), ("b_unsigned", b_unsigned)):
            if _checks.flag(flag, name):
                attributes[name] = self._ops.unit()
        return self._emit("warp.wgmma", [a, b, acc], acc.type, attributes)

    def wgmma_fence(self) -> None:
        """wgmma.fence: orders this warpgroup's register and shared-memory
        accesses before the warp.wgmma ops that follow."""
        self._op("nvvm.wgmma.fence.aligned")

    def wgmma_commit(self) -> None:
        """wgmma.commit_group: the warp.wgmma ops issued since the last
        commit form one group."""
        self._op("nvvm.wgmma.commit.group.sync.aligned")

    def wgmma_wait(self, pending: int = 0) -> None:
        """wgmma.wait_group: waits until at most `pending` of this
        warpgroup's committed groups are still running."""
        pending = _checks.integer(pending, "wgmma_wait's pending", 0, 7)
        self._op("nvvm.wgmma.wait.group.sync.aligned", attributes={"group": f"{pending} : i64"})

    _ASYNC_TOKEN = Type("!nvgpu.device.async.token")

    def async_copy(self, src: Value, src_position, dst: Value, dst_position, elements: int,
                   valid=None, bypass_l1: bool = False) -> Value:
        """cp.async (upstream's nvgpu.device_async_copy): this thread starts
        copying `elements` contiguous elements (4, 8 or 16 bytes) from
        src[src_position] (global memory) to dst[dst_position] (workgroup
        memory) and goes on. `valid` (an index, 0..elements): copy only that
        many and zero-fill the rest (ragged edges). `bypass_l1`: cache in L2
        only (16-byte copies). Returns a token for async_commit; the data
        is there after async_wait and a barrier."""
        src = self._memref(src, "async_copy's source")
        dst = self._memref(dst, "async_copy's destination")
        elements = _checks.integer(elements, "async_copy's elements", 1)
        src_indices, dst_indices = src._indices(src_position), dst._indices(dst_position)
        count = [] if valid is None else [self.to_index(valid)]
        attributes: Dict[str, object] = {
            "dstElements": f"{elements} : index",
            "operandSegmentSizes": _segment_sizes([dst], dst_indices, [src], src_indices,
                                                  count)}
        if _checks.flag(bypass_l1, "bypass_l1"):
            attributes["bypassL1"] = self._ops.unit()
        return self._emit("nvgpu.device_async_copy",
                          [dst, *dst_indices, src, *src_indices, *count], self._ASYNC_TOKEN,
                          attributes)

    def async_commit(self, *tokens: Value) -> Value:
        """cp.async.commit_group: the copies of `tokens` (this thread's since
        the last commit) become one group. Returns the group's token."""
        tokens = [self.value(t, "async_commit's token") for t in tokens]
        return self._emit("nvgpu.device_async_create_group", tokens, self._ASYNC_TOKEN)

    def async_wait(self, group: Value, pending: int = 0) -> None:
        """cp.async.wait_group: waits until at most `pending` of this thread's
        committed groups are still in flight (`group`: one of them)."""
        pending = _checks.integer(pending, "async_wait's pending", 0, 7)
        self._op("nvgpu.device_async_wait", [self.value(group, "async_wait's group")],
                 attributes={"numGroups": f"{pending} : i32"})

    # -- TMA and mbarriers (sm_90) -------------------------------------------
    # Upstream's NVVM ops take LLVM pointers; the builder makes them from
    # the memrefs' aligned pointers (llvm.inttoptr of the address), so
    # everything else stays at the memref level.
    _SHARED_POINTER, _GLOBAL_POINTER = Type("!llvm.ptr<3>"), Type("!llvm.ptr")
    _CLUSTER_POINTER = Type("!llvm.ptr<7>")
    def _address(self, buffer: Value, position, what: str) -> Value:
        """The i64 byte address of buffer[position] (a row-major memref of
        static shape; position an index or tuple of indices)."""
        buffer = self._memref(buffer, what)
        indices = buffer._indices(position)
        if any(d < 0 for d in buffer.type.shape[1:]):
            raise TypeError(f"{what} needs static sizes past the first dimension, not "
                            f"{buffer.type}")
        linear = None
        for i, size in enumerate(buffer.type.shape):
            linear = indices[i] if linear is None else linear * size + indices[i]
        base = self._emit("memref.extract_aligned_pointer_as_index", [buffer], index)
        address = base + linear * (buffer.type.element.bits // 8)
        return self._emit("arith.index_castui", [address], i64)

    def _shared_pointer(self, buffer: Value, position, what: str) -> Value:
        """An !llvm.ptr<3> to buffer[position] of a workgroup memref."""
        buffer = self._memref(buffer, what)
        if buffer.type.space != WORKGROUP_SPACE:
            raise TypeError(f"{what} must be in shared (workgroup) memory, not {buffer.type}")
        return self._emit("llvm.inttoptr", [self._address(buffer, position, what)],
                          self._SHARED_POINTER)

    def _barrier_pointer(self, barrier: Value, index_) -> Value:
        barrier = self._memref(barrier, "the mbarrier")
        if barrier.type.element != i64 or len(barrier.type.shape) != 1:
            raise TypeError(f"an mbarrier is a 1-D shared buffer of i64 (k.mbarrier), not "
                            f"{barrier.type}")
        return self._shared_pointer(barrier, index_, "the mbarrier")

    def mbarrier(self, count: int, size: int = 1) -> Value:
        """`size` mbarrier objects (a shared buffer of i64, one per
        barrier), each expecting `count` arrivals (1 .. 2**20 - 1) a phase:
        thread 0 of the block initialises them, fences the initialisation
        (fence.mbarrier_init) and the block synchronises, so every thread
        of the block must call it, outside divergent code, before any use.
        A fresh barrier is in phase 0 with no transactions pending."""
        count = _checks.integer(count, "an mbarrier's count", 1, (1 << 20) - 1)
        size = _checks.integer(size, "the number of mbarriers", 1, 1024)
        bars = self.shared(i64, size, align=8)
        first = ((self.thread_id("x") == 0) & (self.thread_id("y") == 0)
                 & (self.thread_id("z") == 0))
        with self.if_(first):
            expected = self.constant(count, i32)
            for i in range(size):
                self._op("nvvm.mbarrier.init", [self._barrier_pointer(bars, i), expected],
                         attributes={"operandSegmentSizes": "array<i32: 1, 1, 0>"})
            self._op("nvvm.fence.mbarrier.init")
        self.barrier()
        return bars

    def mbarrier_arrive(self, barrier: Value, index=0) -> None:
        """mbarrier.arrive (release, CTA scope) of this thread on mbarrier
        barrier[index]: one of the phase's `count` arrivals."""
        self._op("nvvm.mbarrier.arrive", [self._barrier_pointer(barrier, index)])

    def mbarrier_arrive_expect_tx(self, barrier: Value, bytes_, index=0) -> None:
        """mbarrier.arrive.expect_tx (release, CTA scope): raises barrier
        [index]'s pending transaction count by `bytes_` (an i32 Value or an
        int, 0 .. 2**20 - 1) and arrives; the phase completes once the
        arrivals are in and the asynchronous copies that name the barrier
        (k.tma_load) have delivered that many bytes."""
        if not isinstance(bytes_, Value):
            bytes_ = _checks.integer(bytes_, "expect_tx's bytes", 0, (1 << 20) - 1)
        self._op("nvvm.mbarrier.arrive.expect_tx",
                 [self._barrier_pointer(barrier, index), self.coerce(bytes_, i32)],
                 attributes={"operandSegmentSizes": "array<i32: 1, 1, 0>"})

    def mbarrier_wait(self, barrier: Value, parity, index=0) -> None:
        """Waits (acquire, CTA scope) until the phase of barrier[index]
        whose parity is `parity` (an i32 Value, 0 or 1) has completed: a
        loop of mbarrier.try_wait.parity. A fresh barrier counts its
        phase "-1" (parity 1) as completed, so waiting for parity 1 returns
        at once: a producer's first wait on an `empty` barrier."""
        pointer = self._barrier_pointer(barrier, index)
        hint = self.constant(self.WAIT_SUSPEND_NS, i32)
        self._op("nvvm.mbarrier.try_wait.parity", [pointer, self.coerce(parity, i32), hint])

    # The suspend-time hint of mbarrier_wait's try_wait (nanoseconds): how
    # long the hardware may park the thread before try_wait returns false.
    WAIT_SUSPEND_NS = 1000000

    def tma_load(self, tensor_map: Value, coordinates, dst: Value, position, barrier: Value,
                 index=0) -> None:
        """cp.async.bulk.tensor (TMA, sm_90): copies the box the tensor map
        describes at `coordinates` (i32 Values or ints, innermost
        dimension first, as the tensor map's dimensions) from global memory
        to dst[position] (workgroup memory, aligned as the map's swizzle
        needs: 1024 bytes for the 128-byte swizzle), and completes the
        box's bytes on mbarrier barrier[index] (arm it with
        k.mbarrier_arrive_expect_tx). Elements outside the tensor arrive as
        zeros (and count). `tensor_map`: the map's global address as an
        i64 Value, or a global memref holding it (its aligned pointer taken
        as an index: the pipeline rejects that under
        device_index_bitwidth=32, which would truncate it); see
        warp_mlir.cuda.tensor_map. One thread issues it."""
        tensor_map = self.value(tensor_map, "tma_load's tensor map")
        if isinstance(tensor_map.type, MemRefType):
            if tensor_map.type.space == WORKGROUP_SPACE:
                raise TypeError("tma_load's tensor map lives in global memory, not in "
                                f"{tensor_map.type}")
            zero = (0,) * len(tensor_map.type.shape)
            tensor_map = self._address(tensor_map, zero, "tma_load's tensor map")
        elif tensor_map.type != i64:
            raise TypeError(f"tma_load's tensor map is an i64 address or a global memref, not "
                            f"{tensor_map.type}")
        coordinates = list(coordinates) if isinstance(coordinates, (tuple, list)) \
            else [coordinates]
        if not 1 <= len(coordinates) <= 5:
            raise ValueError(f"a TMA box has 1 to 5 coordinates, not {len(coordinates)}")
        coordinates = [self.cast(c, i32) if isinstance(c, Value) and c.type != i32
                       else self.coerce(c, i32) for c in coordinates]
        map_pointer = self._emit("llvm.inttoptr", [tensor_map], self._GLOBAL_POINTER)
        # The instruction writes shared::cluster memory, which holds this
        # block's shared memory at the same offsets.
        destination = self._emit("llvm.addrspacecast",
                                 [self._shared_pointer(dst, position, "tma_load's destination")],
                                 self._CLUSTER_POINTER)
        self._op("nvvm.cp.async.bulk.tensor.shared.cluster.global",
                 [destination, map_pointer, *coordinates, self._barrier_pointer(barrier, index)],
                 attributes={"operandSegmentSizes": _segment_sizes(
                     [1], [1], coordinates, [1], [], [], [], [])})

    def set_max_registers(self, count: int, increase: bool) -> None:
        """setmaxnreg (sm_90a): every thread of the warpgroup (all must
        call it) raises (`increase`) or lowers its register budget to
        `count` (24 .. 256, a multiple of 8), as a warp-specialised
        kernel's producer gives registers to its consumers."""
        count = _checks.integer(count, "set_max_registers's count", 24, 256)
        if count % 8:
            raise ValueError(f"set_max_registers's count is a multiple of 8, not {count}")
        action = "increase" if _checks.flag(increase, "increase") else "decrease"
        self._op("nvvm.setmaxregister",
                 attributes={"regCount": f"{count} : i32", "action": f"#nvvm<action {action}>"})


class Program:
    """A gpu.module of kernels built in Python, made through MLIR's C API;
    str() gives the MLIR module (with the user's locations), `module()` a
    copy of it as a Module."""

    def __init__(self, name: str = "kernels") -> None:
        self.name = _symbol_name(name, "program name")
        self.kernels: Dict[str, KernelBuilder] = {}
        self.location = user_location()
        self._ops = OpFactory(default_context())
        ops, L = self._ops, self._ops.L
        where = ops.location(self.location.position() if self.location else None)
        self._handle = L.mlirModuleCreateEmpty(where)
        L.mlirOperationSetAttributeByName(self._operation, _capi.MlirStringRef.of(
            b"gpu.container_module"), ops.unit())
        self._body = ops.block([], where)
        gpu_module = ops.create("gpu.module", where, attributes={"sym_name": ops.string(name)},
                                regions=[[self._body]])
        L.mlirBlockAppendOwnedOperation(L.mlirModuleGetBody(self._handle), gpu_module)

    @property
    def _operation(self):
        return self._ops.L.mlirModuleGetOperation(self._handle)

    def kernel(self, **params: Type) -> Callable:
        """Decorator: the function receives the builder, then one Value per
        parameter (in keyword order), and makes the kernel's body. The
        function's name names the kernel: a name PTX can spell, new in this
        program (ValueError otherwise)."""
        _check_params("@kernel", params)  # now, not when the function comes

        def build(function: Callable) -> KernelBuilder:
            if not callable(function):
                raise TypeError(f"@kernel decorates a function, not {function!r}")
            name = _symbol_name(getattr(function, "__name__", None), "kernel name")
            if name in self.kernels:
                raise ValueError(f"kernel {name!r} is already defined in program {self.name!r}")
            builder = KernelBuilder(name, params, _function_location(function), self)
            try:
                function(builder, *builder.args)
                builder._finish()
            except BaseException:
                builder._discard()
                raise
            self.kernels[builder.name] = builder
            return builder
        return build

    def module(self) -> Module:
        """A copy of the program as a Module (in the default context)."""
        L = self._ops.L
        return Module(L.mlirModuleFromOperation(L.mlirOperationClone(self._operation)),
                      self._ops.context)

    def to_mlir(self) -> str:
        return self._ops.print(self._operation) + "\n"

    def __str__(self) -> str:
        return self.to_mlir()

    def __del__(self) -> None:
        _release(self, "mlirModuleDestroy")


# Value's operators, by the Python syntax that calls them.
_OPERATORS = {
    "__add__": "+", "__radd__": "+", "__sub__": "-", "__rsub__": "-", "__mul__": "*",
    "__rmul__": "*", "__truediv__": "/", "__floordiv__": "//", "__mod__": "%",
    "__and__": "&", "__or__": "|", "__xor__": "^", "__lshift__": "<<", "__rshift__": ">>",
    "__neg__": "unary -", "__eq__": "==", "__ne__": "!=", "__lt__": "<", "__le__": "<=",
    "__gt__": ">", "__ge__": ">=", "__getitem__": "x[...]", "__setitem__": "x[...] = v",
}


def _name_calls() -> None:
    """Makes every public KernelBuilder method (including ones added later
    in the class body), Value operator and Loop step name itself in the
    errors raised inside it."""
    for attr, member in list(vars(KernelBuilder).items()):
        if (not attr.startswith("_") and callable(member)
                and not isinstance(member, (staticmethod, classmethod, type))
                and not getattr(member, "_warp_api", False)):
            setattr(KernelBuilder, attr, _api(f"k.{attr}()")(member))
    for attr, symbol in _OPERATORS.items():
        name = symbol if symbol.startswith("x[") else f"operator {symbol}"
        setattr(Value, attr, _api(name)(getattr(Value, attr)))
    Value.__hash__ = object.__hash__
    Loop.__enter__ = _api("k.loop()")(Loop.__enter__)
    Loop.yield_ = _api("loop.yield_()")(Loop.yield_)


_name_calls()
