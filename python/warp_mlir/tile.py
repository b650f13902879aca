"""Tile-level helpers: what a Triton or CuTe author reaches for first.

Everything here is composed from the public KernelBuilder API (k.loop,
k.cond, k.select, k.reduce, k.scan, k.shuffle, k.atomic_add, Value
operators); no new ops. KernelBuilder inherits TileMixin, so the helpers are
builder methods:

    r = k.row(x, k.global_warp_id(), n, size=1024)   # a row in registers
    e = (r - r.max()).exp()
    (e / e.sum()).store(y)                            # row softmax

* `k.row(buffer, row, n, size, other=0)` -> Tile: a row of up to `size`
  elements held across the warp's 32 lanes; lane l holds columns l, l + 32,
  l + 64, ... (coalesced loads); columns >= n are masked (read as `other`,
  never stored, left out of every reduction).
* Tile: elementwise `+ - * /` (with tiles, kernel values or numbers),
  `exp`, `sqrt`, `rsqrt`, `cast`, `map`; `sum`, `max`, `min`, `argmax`,
  `argmin`, `mean_var` (Welford), `cumsum`, all with the warp's result in
  every lane; `store`, `load` (another buffer at the tile's columns),
  `index`.
* `k.range(lower, upper, step=1, **carry)`: a loop whose carried values are
  attributes, yielded on exit and read as results after the loop.
* `k.row_sum/row_max/row_min(buffer, row, n, fn=None, block=False)`:
  reductions looped over memory for rows longer than a register tile.
* `k.load(buffer, pos, mask=None, other=0)`, `k.store(buffer, pos, value,
  mask=None)`, `k.store_first(buffer, pos, value, scope="warp")`,
  `k.global_warp_id()`, `k.segment_add(out, key, value, valid=None)`,
  and `welford_combine` (a combiner for k.reduce / k.block_reduce).

Errors are raised as TypeError/ValueError naming the call and the user's
line (`k.row() at kernel.py:12: ...`, `tile.argmax() at ...`), as for every
builder call.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from .builder import (MemRefType, Type, Value, VectorType, _api, f32, i1, i32, index)

WARP = 32


def _float_type(type: Type) -> bool:
    return not isinstance(type, (MemRefType, VectorType)) and not type.is_fragment and \
        type.is_float


def _lowest(type: Type):
    """The identity of max over `type`: -inf, or the signed minimum."""
    return float("-inf") if type.is_float else -(1 << (type.bits - 1))


def _highest(type: Type):
    return float("inf") if type.is_float else (1 << (type.bits - 1)) - 1


def _check_scalar(value: Value, what: str) -> None:
    t = value.type
    if isinstance(t, (MemRefType, VectorType)) or t.is_fragment or t == i1:
        raise TypeError(f"{what} must be an integer or float scalar, not {t}")


def _memref(k, buffer, what: str) -> Value:
    buffer = k.value(buffer, what)
    if not isinstance(buffer.type, MemRefType) or len(buffer.type.shape) not in (1, 2) or \
            isinstance(buffer.type.element, VectorType):
        raise TypeError(f"{what} must be a 1-D or 2-D memref of scalars, not {buffer.type}")
    return buffer


def _at(buffer: Value, row: Value, column: Value):
    """The position of column `column` of row `row`: (row, column) in a 2-D
    buffer, row + column (row = the offset of the row's start) in a 1-D one."""
    return (row, column) if len(buffer.type.shape) == 2 else row + column


# -- combiners ------------------------------------------------------------------
def _arg_combiner(largest: bool) -> Callable:
    """(value, index) pairs: the larger (smaller) value wins; NaN beats every
    number (as torch.argmax/argmin and numpy do); ties, NaN against NaN
    included, go to the lower index. Commutative bit for bit, since indices
    are distinct."""
    def combine(left, right):
        (lv, li), (rv, ri) = left, right
        k = lv.builder
        better = (rv > lv) if largest else (rv < lv)
        same = rv == lv
        if lv.type.is_float:
            r_nan, l_nan = rv != rv, lv != lv
            better = better | (r_nan & (lv == lv))
            same = same | (r_nan & l_nan)
        take = better | (same & (ri < li))
        return k.select(take, rv, lv), k.select(take, ri, li)
    return combine


def welford_combine(left, right):
    """Chan et al.'s combination of two Welford states (count, mean, m2),
    each a tuple of float kernel values: the count, mean and sum of squared
    deviations of the union. Empty states (count 0) are the identity. Not
    commutative bit for bit: pass it to k.reduce/k.block_reduce without
    commutative=True. The variance of a state is m2 / count."""
    (na, ma, m2a), (nb, mb, m2b) = left, right
    k = na.builder
    n = na + nb
    share = k.select(n > 0.0, nb / n, 0.0)
    delta = mb - ma
    return n, ma + delta * share, m2a + m2b + delta * delta * na * share


# -- the register tile ----------------------------------------------------------
class Tile:
    """A row of up to `slots * 32` values held in registers across one warp:
    lane l holds columns l, l + 32, ..., l + 32 * (slots - 1), slot s being
    `values[s]`. `valid[s]` (i1, or None when every column is valid) says
    whether the slot's column is below the row's length; invalid slots hold
    a fill value that reductions replace by their identity and `store`
    skips. `columns[s]` is the slot's column (index). `row` is the row the
    tile was loaded from (the default of store/load).

    Every lane of the warp must take part in a reduction or scan: call them
    from converged code (a warp per row, whole warps per block)."""

    def __init__(self, builder, values: Sequence[Value], valid, columns: Sequence[Value],
                 row: Optional[Value]) -> None:
        self.builder = builder
        self.values, self.valid, self.columns, self.row = list(values), valid, list(columns), row

    @property
    def type(self) -> Type:
        return self.values[0].type

    @property
    def slots(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        return f"Tile({self.slots * WARP} x {self.type})"

    def __bool__(self):
        raise TypeError("a tile has no Python truth value")

    def _like(self, values: Sequence[Value], valid="same") -> "Tile":
        return Tile(self.builder, values, self.valid if valid == "same" else valid,
                    self.columns, self.row)

    def _operand(self, other) -> List:
        """`other` per slot: a tile's values, or a kernel value or number
        for every slot."""
        if isinstance(other, Tile):
            if other.builder is not self.builder:
                raise ValueError("the tiles belong to different kernels")
            if other.slots != self.slots:
                raise ValueError(f"tiles of {self.slots * WARP} and {other.slots * WARP} "
                                 f"columns do not combine")
            return other.values
        if isinstance(other, Value):
            self.builder.value(other)
        elif not isinstance(other, (int, float)) or isinstance(other, bool):
            raise TypeError(f"a tile combines with tiles, kernel values and numbers, "
                            f"not {type(other).__name__} ({other!r})")
        return [other] * self.slots

    def _valid_with(self, other):
        if not isinstance(other, Tile) or other.valid is self.valid or other.valid is None:
            return self.valid
        if self.valid is None:
            return other.valid
        return [a & b for a, b in zip(self.valid, other.valid)]

    def _binary(self, other, op: Callable, reverse: bool = False) -> "Tile":
        k = self.builder
        values = []
        for a, b in zip(self.values, self._operand(other)):
            b = k.coerce(b, a.type)
            values.append(op(b, a) if reverse else op(a, b))
        return self._like(values, self._valid_with(other))

    __add__ = lambda s, o: s._binary(o, lambda a, b: a + b)
    __radd__ = lambda s, o: s._binary(o, lambda a, b: a + b, True)
    __sub__ = lambda s, o: s._binary(o, lambda a, b: a - b)
    __rsub__ = lambda s, o: s._binary(o, lambda a, b: a - b, True)
    __mul__ = lambda s, o: s._binary(o, lambda a, b: a * b)
    __rmul__ = lambda s, o: s._binary(o, lambda a, b: a * b, True)
    __truediv__ = lambda s, o: s._binary(o, lambda a, b: a / b)
    __rtruediv__ = lambda s, o: s._binary(o, lambda a, b: a / b, True)

    def __neg__(self) -> "Tile":
        return self._like([-v for v in self.values])

    def map(self, fn: Callable, *others) -> "Tile":
        """fn(value, *other values) per slot (others: tiles, kernel values
        or numbers), e.g. `t.map(lambda v: k.select(v > 0.0, v, 0.0))`."""
        if not callable(fn):
            raise TypeError(f"map takes a function of kernel values, not {fn!r}")
        operands = [self._operand(o) for o in others]
        values = []
        for s, v in enumerate(self.values):
            out = fn(v, *(o[s] for o in operands))
            if not isinstance(out, Value):
                raise TypeError(f"map's function must return a kernel value, not {out!r}")
            values.append(out)
        valid = self.valid
        for o in others:
            valid = self._like(self.values, valid)._valid_with(o)
        return self._like(values, valid)

    def exp(self) -> "Tile":
        return self._like([self.builder.exp(v) for v in self.values])

    def sqrt(self) -> "Tile":
        return self._like([self.builder.sqrt(v) for v in self.values])

    def rsqrt(self) -> "Tile":
        return self._like([self.builder.rsqrt(v) for v in self.values])

    def cast(self, type: Type) -> "Tile":
        return self._like([self.builder.cast(v, type) for v in self.values])

    @property
    def index(self) -> "Tile":
        """The columns as an i32 tile."""
        return self._like([self.builder.cast(c, i32) for c in self.columns])

    # -- reductions and scans over the row --------------------------------
    def _masked(self, fill) -> List[Value]:
        """The slots with invalid ones replaced by `fill`."""
        if self.valid is None:
            return self.values
        k = self.builder
        return [k.select(ok, v, fill) for ok, v in zip(self.valid, self.values)]

    def _fold(self, kind: str, fill, combine: Callable) -> Value:
        values = self._masked(fill)
        acc = values[0]
        for v in values[1:]:
            acc = combine(acc, v)
        return self.builder.reduce(kind, acc)

    def sum(self) -> Value:
        """The sum of the valid columns, in every lane: each lane adds its
        slots in column order, then warp.reduce <add> combines the lanes."""
        return self._fold("add", 0, lambda a, b: a + b)

    def max(self) -> Value:
        """The largest valid column, in every lane. Floats: NaN propagates
        (torch.max; warp.reduce <maximumf>); an empty row gives -inf
        (integers: the type's minimum)."""
        k = self.builder
        kind = "maximumf" if self.type.is_float else "maxsi"
        return self._fold(kind, _lowest(self.type), k.max)

    def min(self) -> Value:
        """The smallest valid column, in every lane (NaN propagates; an empty
        row gives +inf or the type's maximum)."""
        k = self.builder
        kind = "minimumf" if self.type.is_float else "minsi"
        return self._fold(kind, _highest(self.type), k.min)

    def _arg(self, largest: bool) -> Tuple[Value, Value]:
        k = self.builder
        fill = _lowest(self.type) if largest else _highest(self.type)
        none = (1 << 31) - 1
        values = self._masked(fill)
        indices = [k.cast(c, i32) for c in self.columns]
        if self.valid is not None:
            indices = [k.select(ok, i, none) for ok, i in zip(self.valid, indices)]
        combine = _arg_combiner(largest)
        best = (values[0], indices[0])
        for pair in zip(values[1:], indices[1:]):
            best = combine(best, pair)
        value, at = k.reduce(combine, best, commutative=True)
        if self.valid is not None:
            at = k.select(at == none, -1, at)
        return value, at

    def argmax(self) -> Tuple[Value, Value]:
        """(value, column) of the largest valid column, in every lane; the
        column is i32. Ties go to the lowest column, and NaN counts as the
        largest value (the first NaN wins), as torch.argmax and numpy.argmax
        do. An empty row gives (-inf or the type's minimum, -1)."""
        return self._arg(True)

    def argmin(self) -> Tuple[Value, Value]:
        """(value, column) of the smallest valid column, in every lane; ties
        to the lowest column, NaN wins (torch.argmin, numpy.argmin). An empty
        row gives (+inf or the type's maximum, -1)."""
        return self._arg(False)

    def mean_var(self) -> Tuple[Value, Value]:
        """(mean, biased variance) of the valid columns by Welford's method,
        in every lane: each lane folds its slots in column order with
        welford_combine, then warp.reduce with the same combiner (lane
        order kept). Floats only; an empty row gives mean 0 and variance NaN
        (0 / 0)."""
        k = self.builder
        if not self.type.is_float:
            raise TypeError(f"mean_var needs a float tile, not {self.type} (cast it first)")
        one = k.constant(1.0, self.type)
        zero = k.constant(0.0, self.type)
        states = []
        for s, v in enumerate(self.values):
            ok = None if self.valid is None else self.valid[s]
            count = one if ok is None else k.select(ok, one, zero)
            states.append((count, v if ok is None else k.select(ok, v, zero), zero))
        state = states[0]
        for other in states[1:]:
            state = welford_combine(state, other)
        count, mean, m2 = k.reduce(welford_combine, state)
        return mean, m2 / count

    def cumsum(self, exclusive: bool = False) -> "Tile":
        """The running sum over the valid columns in column order (the
        inclusive or exclusive prefix), as a tile: slot by slot, a warp.scan
        <add> of the slot plus the totals of the slots before it."""
        k = self.builder
        values = self._masked(0)
        out, carry = [], None
        for v in values:
            scanned, total = k.scan("add", v, exclusive=exclusive, total=True)
            out.append(scanned if carry is None else scanned + carry)
            carry = total if carry is None else carry + total
        return self._like(out)

    # -- memory --------------------------------------------------------------
    def store(self, buffer: Value, row=None) -> None:
        """Stores the valid columns into `buffer` at row `row` (default: the
        row the tile was loaded from; for a 1-D buffer, the offset of the
        row's start)."""
        k = self.builder
        buffer = _memref(k, buffer, "the buffer stored to")
        row = self._row(row)
        for s, v in enumerate(self.values):
            k.store(buffer, _at(buffer, row, self.columns[s]), v,
                    None if self.valid is None else self.valid[s])

    def load(self, buffer: Value, row=None, other=0) -> "Tile":
        """`buffer` read at this tile's columns (and row, by default): the
        weights of a layernorm, `r.load(w)` for a 1-D `w` reads w[0:n]."""
        k = self.builder
        buffer = _memref(k, buffer, "the buffer loaded from")
        if row is None and len(buffer.type.shape) == 1:
            row = k.to_index(0)
        row = self._row(row)
        values = [k.load(buffer, _at(buffer, row, c), None if self.valid is None
                         else self.valid[s], other) for s, c in enumerate(self.columns)]
        return self._like(values)

    def _row(self, row) -> Value:
        if row is None:
            if self.row is None:
                raise ValueError("this tile has no row of its own: pass row=")
            return self.row
        return self.builder.to_index(row)


# -- carried values ---------------------------------------------------------------
class Carry:
    """A loop carrying named values (KernelBuilder.range): inside the `with`,
    `L.i` is the induction variable and each carried name reads the
    current iteration's value; assign the next value to it. On exit the
    current values are yielded; after the loop the names read the results."""

    _reserved = frozenset({"i", "builder"})

    def __init__(self, builder, lower, upper, step, carry) -> None:
        object.__setattr__(self, "builder", builder)
        object.__setattr__(self, "_names", list(carry))
        init = []
        for name, value in carry.items():
            if name in self._reserved or name.startswith("_"):
                raise ValueError(f"a carried value cannot be named {name!r}")
            init.append(_carried_init(builder, name, value))
        object.__setattr__(self, "_loop", builder.loop(lower, upper, step, init=init))
        object.__setattr__(self, "_current", {})
        object.__setattr__(self, "_inside", False)

    def __enter__(self) -> "Carry":
        entered = self._loop.__enter__()
        if not self._names:
            entered = (entered,)
        object.__setattr__(self, "i", entered[0])
        self._current.update(zip(self._names, entered[1:]))
        object.__setattr__(self, "_inside", True)
        return self

    def __exit__(self, kind, error, traceback):
        object.__setattr__(self, "_inside", False)
        if kind is None:
            self._loop.yield_(*(self._current[n] for n in self._names))
        self._loop.__exit__(kind, error, traceback)
        if kind is None:
            self._current.update(zip(self._names, self._loop.results))
        return False

    def __getattr__(self, name: str):
        current = self.__dict__.get("_current", {})
        if name in current:
            return current[name]
        raise AttributeError(f"the loop carries no value named {name!r}")

    def __setattr__(self, name: str, value) -> None:
        if name not in self._names:
            raise ValueError(f"the loop carries no value named {name!r} (carried: "
                                 f"{', '.join(self._names) or 'none'})")
        if not self._inside:
            raise ValueError(f"{name!r} is carried by the loop: assign it inside the loop")
        old = self._current[name]
        self._current[name] = self.builder.coerce(value, old.type)


def _carried_init(k, name: str, value) -> Value:
    """A carried value's start: a kernel value, a (number, type) pair, or a
    number (float -> f32, int -> i32, as Triton types literals)."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], Type):
        return k.constant(value[0], value[1])
    if isinstance(value, Value):
        return k.value(value, f"carried value {name!r}")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"carried value {name!r} starts from a kernel value, a number or a "
                        f"(number, type) pair, not {value!r}")
    return k.constant(value, f32 if isinstance(value, float) else i32)


# -- the mixin ----------------------------------------------------------------------
class TileMixin:
    """Tile-level helpers of KernelBuilder (see warp_mlir.tile)."""

    def global_warp_id(self) -> Value:
        """The warp's index in a 1-D grid of 1-D blocks, as index:
        (blockIdx.x * blockDim.x + threadIdx.x) / 32 -- Triton's
        tl.program_id(0) for a kernel with a warp per row."""
        return self.global_id() // WARP

    def load(self, buffer: Value, position, mask=None, other=0) -> Value:
        """buffer[position], or where `mask` (i1) is false `other` without
        reading memory (tl.load's mask/other)."""
        buffer = self.value(buffer, "load's buffer")
        if not isinstance(buffer.type, MemRefType):
            raise TypeError(f"load needs a memref, not {buffer.type}")
        if mask is None:
            return buffer[position]
        mask = self.coerce(mask, i1)
        element = buffer.type.element
        other = self.coerce(other, element)
        return self.cond(mask, lambda: buffer[position], lambda: other, element)

    def store(self, buffer: Value, position, value, mask=None) -> None:
        """buffer[position] = value, only where `mask` (i1) is true."""
        buffer = self.value(buffer, "store's buffer")
        if not isinstance(buffer.type, MemRefType):
            raise TypeError(f"store needs a memref, not {buffer.type}")
        if mask is None:
            buffer[position] = value
            return
        with self.if_(self.coerce(mask, i1)):
            buffer[position] = value

    def store_first(self, buffer: Value, position, value, scope: str = "warp") -> None:
        """Stores a value that is the same in every lane (a reduction's
        result) once: from lane 0 of each warp (scope "warp") or from thread
        (0, 0, 0) of the block (scope "block")."""
        if scope == "warp":
            first = self.lane_id() == 0
        elif scope == "block":
            first = (self.thread_id("x") | self.thread_id("y") | self.thread_id("z")) == 0
        else:
            raise ValueError(f"store_first's scope is 'warp' or 'block', not {scope!r}")
        self.store(buffer, position, value, first)

    def row(self, buffer: Value, row, n, size: int, other=0) -> Tile:
        """A register tile of row `row` of `buffer`: columns 0 .. n - 1 (n at
        most `size`, a Python int fixing the slots per lane, like Triton's
        BLOCK), lane l holding l, l + 32, ...; columns >= n are masked and
        read as `other`. A 2-D buffer reads buffer[row, j]; a 1-D one
        buffer[row + j] (`row` is the offset of the row's start). Every lane
        of the warp loads the same row."""
        buffer = _memref(self, buffer, "the row's buffer")
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"size is a Python int (the most columns), not {size!r}")
        if size < 1:
            raise ValueError(f"size must be at least 1, not {size}")
        slots = -(-size // WARP)
        row = self.to_index(row)
        lane = self.cast(self.lane_id(), index)
        columns = [lane if s == 0 else lane + s * WARP for s in range(slots)]
        valid = None
        if not (isinstance(n, int) and not isinstance(n, bool) and n >= slots * WARP):
            n = self.to_index(n)
            valid = [c < n for c in columns]
        return Tile(self, [], valid, columns, row).load(buffer, row, other)

    def range(self, lower, upper, step=1, **carry) -> Carry:
        """A loop with named carried values (scf.for iter_args without
        yield_): `with k.range(lane, n, 32, m=float("-inf"), s=0.0) as L:
        L.m = k.max(L.m, x[L.i])`; after the loop `L.m` is the result.
        A carried value starts from a kernel value, a (number, type) pair,
        or a number (float: f32, int: i32). Its type is fixed: assigning a
        value of another type is a TypeError."""
        return Carry(self, lower, upper, step, carry)

    def _row_fold(self, kind: str, buffer, row, n, fn, block: bool, fill, combine):
        buffer = _memref(self, buffer, "the row's buffer")
        if fn is not None and not callable(fn):
            raise TypeError(f"fn is a function of a kernel value, not {fn!r}")
        row = self.to_index(row)
        if block:
            first, stride = self.thread_id(), self.block_dim()
        else:
            first, stride = self.cast(self.lane_id(), index), WARP
        element = buffer.type.element
        probe_type = element
        with self.range(first, n, stride, acc=(fill, probe_type)) as L:
            x = buffer[_at(buffer, row, L.i)]
            L.acc = combine(L.acc, x if fn is None else fn(x))
        return (self.block_reduce if block else self.reduce)(kind, L.acc)

    def row_sum(self, buffer: Value, row, n, fn: Optional[Callable] = None,
                block: bool = False) -> Value:
        """sum(fn(buffer[row, j]) for j < n) looped over memory (rows of any
        length), in every lane: the warp's lanes (or, with block=True, the
        block's threads) stride over the row, then warp.reduce (block_reduce)
        <add>. `fn` maps an element to a value of the same type."""
        return self._row_fold("add", buffer, row, n, fn, block, 0, lambda a, b: a + b)

    def row_max(self, buffer: Value, row, n, fn: Optional[Callable] = None,
                block: bool = False) -> Value:
        """max(fn(buffer[row, j]) for j < n), as row_sum (NaN propagates)."""
        element = _memref(self, buffer, "the row's buffer").type.element
        kind = "maximumf" if element.is_float else "maxsi"
        return self._row_fold(kind, buffer, row, n, fn, block, _lowest(element), self.max)

    def row_min(self, buffer: Value, row, n, fn: Optional[Callable] = None,
                block: bool = False) -> Value:
        """min(fn(buffer[row, j]) for j < n), as row_sum (NaN propagates)."""
        element = _memref(self, buffer, "the row's buffer").type.element
        kind = "minimumf" if element.is_float else "minsi"
        return self._row_fold(kind, buffer, row, n, fn, block, _highest(element), self.min)

    def segment_add(self, out: Value, key, value, valid=None) -> None:
        """out[key] += value, summed first over each run of equal `key`s in
        consecutive lanes (sorted keys: one atomic per run per warp): a
        segmented warp.reduce <add> with heads where the key changes, then
        an atomic add from each run's first lane. Lanes where `valid` (i1)
        is false add nothing. Every lane of the warp must call it."""
        out = self.value(out, "segment_add's buffer")
        if not isinstance(out.type, MemRefType) or len(out.type.shape) != 1:
            raise TypeError(f"segment_add needs a 1-D memref, not {out.type}")
        key = self.value(key, "segment_add's key")
        if not key.type.is_integer or key.type == i1 or isinstance(key.type, VectorType):
            raise TypeError(f"segment_add's key must be an integer, not {key.type}")
        value = self.coerce(value, out.type.element)
        ok = None if valid is None else self.coerce(valid, i1)
        before, _ = self.shuffle("up", key, 1)
        heads = (self.lane_id() == 0) | (key != before)
        if ok is not None:
            ok_before, _ = self.shuffle("up", ok, 1)
            heads = heads | (ok != ok_before)
            value = self.select(ok, value, 0)
        sums = self.reduce("add", value, heads=heads, lanes="first")
        with self.if_(heads if ok is None else heads & ok):
            self.atomic_add(out, key, sums)


def _name_helpers() -> None:
    """The helpers name themselves in their errors, as builder calls do."""
    for attr, member in list(vars(TileMixin).items()):
        if not attr.startswith("_") and callable(member):
            setattr(TileMixin, attr, _api(f"k.{attr}()")(member))
    for attr, member in list(vars(Tile).items()):
        if not attr.startswith("_") and callable(member):
            setattr(Tile, attr, _api(f"tile.{attr}()")(member))
    symbols = {"__add__": "+", "__radd__": "+", "__sub__": "-", "__rsub__": "-",
               "__mul__": "*", "__rmul__": "*", "__truediv__": "/", "__rtruediv__": "/",
               "__neg__": "unary -"}
    for attr, symbol in symbols.items():
        setattr(Tile, attr, _api(f"tile operator {symbol}")(getattr(Tile, attr)))
    Carry.__enter__ = _api("k.range()")(Carry.__enter__)
    Carry.__exit__ = _api("k.range()")(Carry.__exit__)
    Carry.__setattr__ = _api("loop variable assignment")(Carry.__setattr__)


_name_helpers()
