"""Contexts, modules and diagnostics: parse, print and verify MLIR."""
from __future__ import annotations

import re
import sys
import warnings
from dataclasses import dataclass
from typing import List, Optional

from . import _capi

_SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}
_ANCHOR = re.compile(r"^\s*builtin\.module\s*\(")


# The first file:line:column of a printed location (a callsite or fused
# location names several; the first is the innermost).
_FILE_LINE_COL = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2}|.)")


def _unescape(text: str) -> str:
    """An MLIR string literal's body as text (\\XX hex escapes, \\" and \\\\)."""
    data = bytearray()
    position = 0
    for match in _ESCAPE.finditer(text):
        data += text[position:match.start()].encode("utf-8")
        code = match.group(1)
        data += bytes([int(code, 16)]) if len(code) == 2 else code.encode("utf-8")
        position = match.end()
    data += text[position:].encode("utf-8")
    return data.decode("utf-8", errors="replace")


@dataclass
class Diagnostic:
    """One MLIR diagnostic: severity, source location and message. For ops
    the Python builder made, `file`, `line` and `column` name the user's
    call (None for locations without a file)."""
    severity: str
    location: str
    message: str

    def _position(self):
        match = _FILE_LINE_COL.search(self.location)
        return (_unescape(match.group(1)), int(match.group(2)), int(match.group(3))) \
            if match else (None, None, None)

    @property
    def file(self) -> Optional[str]:
        return self._position()[0]

    @property
    def line(self) -> Optional[int]:
        return self._position()[1]

    @property
    def column(self) -> Optional[int]:
        return self._position()[2]

    def __str__(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"


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


# The loc(...) the builder puts at the end of each line it writes.
_LINE_LOCATION = re.compile(r'loc\(("(?:[^"\\]|\\.)*":\d+:\d+)\)\s*$')


def source_locations(diagnostics: List[Diagnostic], text: str) -> List[Diagnostic]:
    """Diagnostics about positions in `text` (the parser's loc("-":L:C))
    moved to the location written at the end of line L, where the builder
    puts the user's Python line; others unchanged."""
    lines = text.split("\n")
    moved = []
    for diagnostic in diagnostics:
        match = re.match(r'loc\("-":(\d+):(\d+)\)$', diagnostic.location)
        if match and 0 < int(match.group(1)) <= len(lines):
            own = _LINE_LOCATION.search(lines[int(match.group(1)) - 1])
            if own:
                diagnostic = Diagnostic(diagnostic.severity, f"loc({own.group(1)})",
                                        diagnostic.message)
        moved.append(diagnostic)
    return moved


class MLIRError(Exception):
    """Raised when parsing, verification, a pass pipeline or compilation
    fails; `diagnostics` holds everything MLIR reported, with locations."""

    def __init__(self, summary: str, diagnostics: List[Diagnostic]):
        self.summary = summary
        self.diagnostics = list(diagnostics)
        details = "\n".join(str(d) for d in self.diagnostics)
        super().__init__(f"{summary}\n{details}" if details else summary)


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
        location = _capi.collect_string(L.mlirLocationPrint, L.mlirDiagnosticGetLocation(diagnostic))
        message = _capi.collect_string(L.mlirDiagnosticPrint, diagnostic)
        self._diagnostics.append(Diagnostic(severity, location, message))
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
                f"(refused before parsing: MLIR's parser would run out of stack)")])
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
        L = _capi.lib()
        flags = L.mlirOpPrintingFlagsCreate()
        if generic:
            L.mlirOpPrintingFlagsPrintGenericOpForm(flags)
        if debug_info:
            L.mlirOpPrintingFlagsEnableDebugInfo(flags, True, False)
        try:
            return _capi.collect_string(L.mlirOperationPrintWithFlags, self.operation, flags)
        finally:
            L.mlirOpPrintingFlagsDestroy(flags)

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
