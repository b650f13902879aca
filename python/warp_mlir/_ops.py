"""Operations made through MLIR's C API: the builder's one way to make IR.

The builder (builder.py) says what an op is (its name, operands, result
types, attributes and regions) and `OpFactory.create` makes it with
mlir-c's generic operation state, in the builder's context, where the
dialects' registered verifiers check it (`OpFactory.verify`). Attributes are
given as MLIR attribute text (`#warp.kind<add>`) or made from Python ints;
an attribute the compiler cannot parse (a kind name that is no kind) is
reported like a verifier error, at the user's call.
"""
from __future__ import annotations

import ctypes
from typing import Dict, List, Optional, Sequence, Tuple

from . import _capi
from .ir import Context, Diagnostic, print_operation


def _ref(text: str) -> _capi.MlirStringRef:
    return _capi.MlirStringRef.of(text.encode("utf-8"))


def _array(kind, items: Sequence):
    return (kind * len(items))(*items) if items else None


class OpFactory:
    """Makes types, attributes, locations, blocks and operations in one
    context; caches the types, attributes and locations it made."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.L = _capi.lib()
        self._types: Dict[str, object] = {}
        self._attributes: Dict[str, object] = {}
        self._locations: Dict[Tuple, object] = {}

    @property
    def _context(self):
        return self.context._handle

    # -- types, attributes, locations ---------------------------------------
    def type(self, text: str):
        """The MlirType of `text` (the builder's own type names)."""
        cached = self._types.get(text)
        if cached is None:
            cached = self.L.mlirTypeParseGet(self._context, _ref(text))
            if not cached.ptr:
                diagnostics = self.context.take_diagnostics()
                raise ValueError(f"not an MLIR type: {text} ({'; '.join(map(str, diagnostics))})")
            self._types[text] = cached
        return cached

    def parse_attribute(self, text: str, where: Optional[Tuple[str, int, int]] = None):
        """(attribute, []) when `text` parses; (None, diagnostics) otherwise,
        the parser's messages placed at `where` (file, line, column)."""
        cached = self._attributes.get(text)
        if cached is not None:
            return cached, []
        self.context.take_diagnostics()
        attribute = self.L.mlirAttributeParseGet(self._context, _ref(text))
        if not attribute.ptr:
            found = self.context.take_diagnostics() or [
                Diagnostic("error", "", f"cannot parse the attribute {text}")]
            if where is not None:
                printed = 'loc("{}":{}:{})'.format(*where)
                found = [Diagnostic(d.severity, printed, d.message, *where) for d in found]
            return None, found
        self._attributes[text] = attribute
        return attribute, []

    def integer(self, value: int, type_text: str):
        return self.L.mlirIntegerAttrGet(self.type(type_text), value)

    def unit(self):
        return self.L.mlirUnitAttrGet(self._context)

    def string(self, text: str):
        return self.L.mlirStringAttrGet(self._context, _ref(text))  # the context copies it

    def location(self, where: Optional[Tuple[str, int, int]], name: Optional[str] = None):
        """A file:line:column location (unknown for None), under `name`
        when given (a NameLoc: the printer then calls the value %name)."""
        key = (where, name)
        cached = self._locations.get(key)
        if cached is None:
            if where is None:
                cached = self.L.mlirLocationUnknownGet(self._context)
            else:
                cached = self.L.mlirLocationFileLineColGet(self._context, _ref(where[0]),
                                                           where[1], where[2])
            if name is not None:
                cached = self.L.mlirLocationNameGet(self._context, _ref(name), cached)
            self._locations[key] = cached
        return cached

    # -- blocks and operations ----------------------------------------------
    def block(self, types: Sequence, location) -> object:
        """A new block (not in any region) with arguments of `types`."""
        return self.L.mlirBlockCreate(len(types), _array(_capi.MlirType, types),
                                      _array(_capi.MlirLocation, [location] * len(types)))

    def create(self, name: str, location, operands: Sequence = (), results: Sequence = (),
               attributes: Optional[Dict[str, object]] = None,
               regions: Sequence[Sequence] = ()):
        """A new operation (not in any block): `operands` MlirValues,
        `results` MlirTypes, `attributes` named MlirAttributes, `regions` a
        list of regions, each a list of blocks (given over to the op)."""
        L = self.L
        named = [_capi.MlirNamedAttribute(L.mlirIdentifierGet(self._context, _ref(key)), value)
                 for key, value in (attributes or {}).items()]
        owned = []
        for blocks in regions:
            region = L.mlirRegionCreate()
            for block in blocks:
                L.mlirRegionAppendOwnedBlock(region, block)
            owned.append(region)
        # mlir-c's state owns malloc'd copies of these arrays, which
        # mlirOperationCreate frees: fill it through its own functions.
        name_ref = _ref(name)  # the state points at these bytes until it is created
        state = L.mlirOperationStateGet(name_ref, location)
        pointer = ctypes.byref(state)
        for add, kind, items in ((L.mlirOperationStateAddResults, _capi.MlirType, results),
                                 (L.mlirOperationStateAddOperands, _capi.MlirValue, operands),
                                 (L.mlirOperationStateAddOwnedRegions, _capi.MlirRegion, owned),
                                 (L.mlirOperationStateAddAttributes, _capi.MlirNamedAttribute,
                                  named)):
            if items:
                add(pointer, len(items), _array(kind, items))
        return L.mlirOperationCreate(ctypes.byref(state))

    def verify(self, operation) -> List[Diagnostic]:
        """The verifier's diagnostics of `operation` (and what it holds);
        empty when it verifies."""
        self.context.take_diagnostics()
        if self.L.mlirOperationVerify(operation):
            return []
        return self.context.take_diagnostics() or [
            Diagnostic("error", "", "the operation failed to verify")]

    def results(self, operation, count: int) -> List[object]:
        return [self.L.mlirOperationGetResult(operation, i) for i in range(count)]

    def region_block(self, operation, index: int):
        return self.L.mlirRegionGetFirstBlock(self.L.mlirOperationGetRegion(operation, index))

    def print(self, operation) -> str:
        """`operation` as text with its locations inline and block arguments
        named after their NameLocs (%a for a kernel's parameter a)."""
        # Local scope: locations inline, not as #loc aliases at the end.
        return print_operation(operation, debug_info=True, local_scope=True,
                               name_locations=True)

