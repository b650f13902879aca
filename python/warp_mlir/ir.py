"""Contexts, modules and diagnostics: parse, print and verify MLIR."""
from __future__ import annotations

import re
import sys
import warnings
from dataclasses import dataclass
from typing import List, Optional, Tuple

from . import _capi

_SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}
_ANCHOR = re.compile(r"^\s*builtin\.module\s*\(")


@dataclass
class Diagnostic:
    """One MLIR diagnostic: severity, printed location and message, and the
    location's file, line and column (read through the C API; for ops the
    Python builder made, the user's call; None for locations without a
    file)."""
    severity: str
    location: str
    message: str
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None

    def __str__(self) -> str:
        where = (f"{self.file}:{self.line}:{self.column}" if self.file is not None
                 else self.location)
        return f"{where}: {self.severity}: {self.message}"


def location_position(location) -> Optional[Tuple[str, int, int]]:
    """(file, line, column) of an MlirLocation: a file location, or the one
    a name, call site (the callee) or fused location (its first) wraps;
    None for an unknown or opaque location."""
    L = _capi.lib()
    for _ in range(64):  # locations nest; a bound keeps a cycle finite
        if L.mlirLocationIsAFileLineColRange(location):
            name = L.mlirIdentifierStr(L.mlirLocationFileLineColRangeGetFilename(location))
            return (name.bytes().decode("utf-8", errors="replace"),
                    L.mlirLocationFileLineColRangeGetStartLine(location),
                    L.mlirLocationFileLineColRangeGetStartColumn(location))
        if L.mlirLocationIsAName(location):
            location = L.mlirLocationNameGetChildLoc(location)
        elif L.mlirLocationIsACallSite(location):
            location = L.mlirLocationCallSiteGetCallee(location)
        elif L.mlirLocationIsAFused(location) and L.mlirLocationFusedGetNumLocations(location):
            parts = (_capi.MlirLocation * L.mlirLocationFusedGetNumLocations(location))()
            L.mlirLocationFusedGetLocations(location, parts)
            location = parts[0]
        else:
            return None
    return None


class MLIRWarning(UserWarning):
    """A warning MLIR reported while compiling (a lint finding, ...), issued
    at the Python line of the op it is about."""


def issue_warnings(diagnostics: List[Diagnostic]) -> None:
    """Reports MLIR's warnings as MLIRWarnings at the file and line of the
    op (for builder kernels, the user's call that made it)."""
    for diagnostic in diagnostics:
        if diagnostic.severity != "warning":
            continue
        if diagnostic.file and diagnostic.file != "-":
            warnings.warn_explicit(diagnostic.message, MLIRWarning, diagnostic.file,
                                   diagnostic.line or 0)
        else:
            warnings.warn(f"{diagnostic.location}: {diagnostic.message}", MLIRWarning,
                          stacklevel=3)


def print_operation(operation, generic: bool = False, debug_info: bool = False,
                    local_scope: bool = False, name_locations: bool = False) -> str:
    """An MlirOperation as text: in generic form, with locations, with
    local scope (locations inline, not as aliases), or with block arguments
    named after their NameLocs (%a), as asked."""
    L = _capi.lib()
    flags = L.mlirOpPrintingFlagsCreate()
    if generic:
        L.mlirOpPrintingFlagsPrintGenericOpForm(flags)
    if debug_info:
        L.mlirOpPrintingFlagsEnableDebugInfo(flags, True, False)
    if local_scope:
        L.mlirOpPrintingFlagsUseLocalScope(flags)
    if name_locations:
        L.mlirOpPrintingFlagsPrintNameLocAsPrefix(flags)
    try:
        return _capi.collect_string(L.warpOperationPrint, operation, flags)
    finally:
        L.mlirOpPrintingFlagsDestroy(flags)


class MLIRError(Exception):
    """Raised when parsing, verification, a pass pipeline or compilation
    fails; `diagnostics` holds everything MLIR reported, with locations."""

    def __init__(self, summary: str, diagnostics: List[Diagnostic]):
        self.summary = summary
        self.diagnostics = list(diagnostics)
        details = "\n".join(str(d) for d in self.diagnostics)
        super().__init__(f"{summary}\n{details}" if details else summary)


class VerificationError(MLIRError, ValueError):
    """Raised by a builder call (k.shuffle(), ...) whose op the compiler's
    verifier refuses: the message is the verifier's diagnostics, located at
    the user's line (`kernel.py:12:9: error: 'warp.shuffle' op ...`). A
    ValueError, as the builder's other refusals are."""

    def __init__(self, call: str, diagnostics: List[Diagnostic]):
        MLIRError.__init__(self, f"{call} failed to verify", diagnostics)
        self.args = ("\n".join(str(d) for d in self.diagnostics) or self.summary,)


def _release(owner, destroy: str) -> None:
    """Destroys owner._handle once; skipped at interpreter exit, when the
    order in which contexts and modules go is not ours to choose."""
    handle = getattr(owner, "_handle", None)
    if handle is not None and handle.ptr and not sys.is_finalizing():
        getattr(_capi.lib(), destroy)(handle)
        owner._handle = None


class Context:
    """An MLIR context with the warp dialect and everything a GPU program
    needs registered; collects diagnostics for MLIRError. With
    all_upstream=True it also gets every upstream dialect and pass (what
    warp-opt has), where the library includes them."""

    def __init__(self, all_upstream: bool = False) -> None:
        L = _capi.lib()
        registry = L.mlirDialectRegistryCreate()
        L.warpRegisterDialects(registry)
        if all_upstream and not L.warpRegisterAllUpstream(registry):
            L.mlirDialectRegistryDestroy(registry)
            raise RuntimeError("this libWarpCAPI (self-contained) has only the dialects and "
                               "passes GPU programs need")
        self._handle = L.mlirContextCreateWithRegistry(registry, False)
        L.mlirDialectRegistryDestroy(registry)
        L.mlirContextLoadAllAvailableDialects(self._handle)
        L.warpRegisterPasses()
        self._diagnostics: List[Diagnostic] = []
        self._handler = _capi.DiagnosticHandler(self._on_diagnostic)
        self._delete = _capi.UserDataDelete(lambda _: None)
        L.mlirContextAttachDiagnosticHandler(self._handle, self._handler, None, self._delete)

    def _on_diagnostic(self, diagnostic, _user_data):
        L = _capi.lib()
        severity = _SEVERITIES.get(L.mlirDiagnosticGetSeverity(diagnostic), "error")
        where = L.mlirDiagnosticGetLocation(diagnostic)
        location = _capi.collect_string(L.mlirLocationPrint, where)
        message = _capi.collect_string(L.mlirDiagnosticPrint, diagnostic)
        self._diagnostics.append(Diagnostic(severity, location, message,
                                            *(location_position(where) or ())))
        return 1  # handled: do not print to stderr

    def take_diagnostics(self) -> List[Diagnostic]:
        """Returns and clears the diagnostics reported so far."""
        taken, self._diagnostics = self._diagnostics, []
        return taken

    def __del__(self) -> None:
        _release(self, "mlirContextDestroy")


_default_context: Optional[Context] = None


def default_context() -> Context:
    global _default_context
    if _default_context is None:
        _default_context = Context()
    return _default_context


# What nests in MLIR text: regions, attribute dictionaries, lists and
# parentheses; strings and comments skipped.
_NESTING_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|[{}\[\]()]')


def _too_deep(text: str, limit: int) -> Optional[int]:
    """The offset of the first bracket nested deeper than `limit`, or None."""
    depth = 0
    for match in _NESTING_TOKENS.finditer(text):
        token = match.group()
        if token in "{[(":
            depth += 1
            if depth > limit:
                return match.start()
        elif token in "}])":
            depth -= 1
    return None


class Module:
    """A parsed MLIR module (builtin.module).

    Module.parse refuses text nested more than MAX_NESTING brackets deep
    ({, [ or ( outside strings) with an MLIRError: MLIR's parser recurses
    once per level and crashes the process some thousands of levels down.
    """

    MAX_NESTING = 1000

    def __init__(self, handle, context: Context) -> None:
        self._handle = handle
        self.context = context

    @classmethod
    def parse(cls, text: str, context: Optional[Context] = None) -> "Module":
        """Parses `text`; raises MLIRError with the parser's diagnostics."""
        if not isinstance(text, str):
            raise TypeError(f"Module.parse takes MLIR text (str), not {type(text).__name__}")
        if context is not None and not isinstance(context, Context):
            raise TypeError(f"context must be a warp_mlir.Context, not {type(context).__name__}")
        context = context or default_context()
        context.take_diagnostics()
        offset = _too_deep(text, cls.MAX_NESTING)
        if offset is not None:
            line = text.count("\n", 0, offset) + 1
            column = offset - (text.rfind("\n", 0, offset) + 1) + 1
            raise MLIRError("failed to parse MLIR", [Diagnostic(
                "error", f'loc("-":{line}:{column})',
                f"nested more than Module.MAX_NESTING = {cls.MAX_NESTING} levels deep "
                f"(refused before parsing: MLIR's parser would run out of stack)",
                "-", line, column)])
        data = text.encode("utf-8")
        handle = _capi.lib().warpModuleCreateParse(context._handle, _capi.MlirStringRef.of(data))
        if not handle.ptr:
            raise MLIRError("failed to parse MLIR", context.take_diagnostics())
        return cls(handle, context)

    @property
    def operation(self):
        return _capi.lib().mlirModuleGetOperation(self._handle)

    def verify(self) -> None:
        """Raises MLIRError (with locations) when the module is invalid."""
        self.context.take_diagnostics()
        if not _capi.lib().mlirOperationVerify(self.operation):
            raise MLIRError("module failed to verify", self.context.take_diagnostics())

    def to_string(self, generic: bool = False, debug_info: bool = False) -> str:
        """The module's text, in pretty (default) or generic form."""
        return print_operation(self.operation, generic=generic, debug_info=debug_info)

    def __str__(self) -> str:
        return self.to_string()

    def run(self, pipeline: str) -> "Module":
        """Runs a textual pass pipeline in place, e.g.
        "builtin.module(canonicalize)" or "warp-expand-collectives".
        Raises MLIRError when the pipeline does not parse, has invalid
        options, or a pass fails or reports an error; warnings (e.g. of
        "warp-lint") become MLIRWarnings at the op's location."""
        if not isinstance(pipeline, str):
            raise TypeError(f"a pass pipeline is a string, not {type(pipeline).__name__}")
        # mlir-c parses only the anchored form into a pass manager anchored on
        # builtin.module: "builtin.module(...)" (spaces allowed) as it is,
        # anything else wrapped in it.
        if _ANCHOR.match(pipeline):
            text = _ANCHOR.sub("builtin.module(", pipeline, count=1)
        else:
            text = f"builtin.module({pipeline})"
        L = _capi.lib()
        self.context.take_diagnostics()
        pm = L.mlirPassManagerCreateOnOperation(
            self.context._handle, _capi.MlirStringRef.of(b"builtin.module"))
        try:
            errors = []
            callback = _capi.StringCallback(lambda ref, _: errors.append(ref.bytes()))
            parsed = L.mlirParsePassPipeline(L.mlirPassManagerGetAsOpPassManager(pm),
                                             _capi.MlirStringRef.of(text.encode("utf-8")),
                                             callback, None)
            if not parsed.value:
                message = b"".join(errors).decode("utf-8", errors="replace").strip()
                # The parser reports through the callback, without a location.
                diagnostics = self.context.take_diagnostics() + [
                    Diagnostic("error", "pass pipeline", message)]
                raise MLIRError(f"invalid pass pipeline '{pipeline}': {message}",
                                diagnostics)
            result = L.warpPassManagerRunOnOp(pm, self.operation)
        finally:
            L.mlirPassManagerDestroy(pm)
        diagnostics = self.context.take_diagnostics()
        if not result.value or any(d.severity == "error" for d in diagnostics):
            raise MLIRError(f"pass pipeline '{pipeline}' failed", diagnostics)
        issue_warnings(diagnostics)
        return self

    def __del__(self) -> None:
        _release(self, "mlirModuleDestroy")
