"""Compile warp IR to PTX or cubin for a chip."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

from . import _capi, _checks
from .ir import Context, MLIRError, Module, default_context

_FORMATS = {"ptx": "isa", "cubin": "bin", "fatbin": "fatbin"}
_STRATEGIES = ("auto", "butterfly", "tree", "redux")
# The shape of a chip name; the compiler checks the chip against LLVM's list.
_CHIP = re.compile(r"sm_[0-9]+[af]?\Z")


@dataclass
class ArgType:
    """A kernel parameter: a memref (element type and shape, -1 for a
    dynamic size) or a scalar (shape None)."""
    element: str
    shape: Optional[Tuple[int, ...]] = None

    @property
    def is_memref(self) -> bool:
        return self.shape is not None

    def __str__(self) -> str:
        if not self.is_memref:
            return self.element
        dims = "".join(("?" if d < 0 else str(d)) + "x" for d in self.shape)
        return f"memref<{dims}{self.element}>"


@dataclass
class CompiledModule:
    """Device code for one gpu.module: `binary` holds PTX text (format
    "ptx") or cubin/fatbin bytes; `kernels` maps each kernel to its
    parameters, which `launch` checks arguments against."""
    binary: bytes
    format: str
    chip: str
    kernels: Dict[str, List[ArgType]] = field(default_factory=dict)

    @property
    def ptx(self) -> str:
        if self.format != "ptx":
            raise ValueError(f"this module was compiled to {self.format}, not PTX")
        return self.binary.decode("utf-8")


# A kernel's name (bare, or quoted when it is not a bare identifier) and parameters.
_KERNEL = re.compile(r'gpu\.func @([\w.$]+|"(?:[^"\\]|\\.)*")\((.*?)\)'
                     r'(?:\s+workgroup\(.*?\))?\s+kernel', re.S)


def _split_top_level(text: str) -> List[str]:
    """Splits at commas outside <...>."""
    parts, depth, start = [], 0, 0
    for position, char in enumerate(text):
        depth += char == "<"
        depth -= char == ">"
        if char == "," and depth == 0:
            parts.append(text[start:position])
            start = position + 1
    if text[start:].strip():
        parts.append(text[start:])
    return [p.strip() for p in parts]


def parse_type(text: str) -> ArgType:
    """ArgType of an MLIR type string such as "memref<?x32xf32>" or "i32"."""
    text = text.strip()
    if not text.startswith("memref<"):
        return ArgType(text)
    body = _split_top_level(text[len("memref<"):-1])[0]
    dims = []
    while True:
        match = re.match(r"(\?|\d+)x", body)
        if not match:
            break
        dims.append(-1 if match.group(1) == "?" else int(match.group(1)))
        body = body[match.end():]
    return ArgType(body, tuple(dims))


def kernel_signatures(text: str) -> Dict[str, List[ArgType]]:
    """The parameters of every gpu.func kernel in printed MLIR."""
    signatures = {}
    for name, args in _KERNEL.findall(text):
        name = name[1:-1] if name.startswith('"') else name
        types = [arg.split(":", 1)[1] for arg in _split_top_level(args) if ":" in arg]
        signatures[name] = [parse_type(t) for t in types]
    return signatures


def pipeline_options(chip: str = "sm_90", format: str = "ptx", opt_level: int = 3,
                     strategy: str = "auto") -> str:
    """The `warp-lower-to-ptx` option string of compile()'s options, each
    checked first (ValueError): the values are pasted into the string, so a
    chip of "sm_90 ptx-output=FILE" must not get through. `chip` has the
    shape sm_<digits> with an optional a/f suffix (the compiler then checks
    it against LLVM's chips), `format` is ptx, cubin or fatbin, `opt_level`
    an int 0..3 and `strategy` auto, butterfly, tree or redux."""
    if not isinstance(chip, str) or not _CHIP.match(chip):
        raise ValueError(f"chip must look like sm_90, sm_90a or sm_100f, not {chip!r}")
    if not isinstance(format, str) or format not in _FORMATS:
        raise ValueError(f"format must be one of {sorted(_FORMATS)}, not {format!r}")
    opt_level = _checks.integer(opt_level, "opt_level", 0, 3, kind_error=ValueError)
    strategy = _checks.one_of(strategy, "strategy", _STRATEGIES)
    return f"chip={chip} format={_FORMATS[format]} opt-level={opt_level} strategy={strategy}"


# Symbols MLIR prints quoted: names that are not bare identifiers.
_QUOTED_SYMBOL = re.compile(r'@"((?:[^"\\]|\\.)*)"')


def _check_symbol_names(text: str, kernels: Dict[str, List[ArgType]]) -> None:
    """Refuses symbol names PTX cannot spell before LLVM sees them (its
    NVPTX backend aborts the process on some, e.g. "a-b")."""
    names = _QUOTED_SYMBOL.findall(text) + list(kernels)
    for name in names:
        if not _checks.is_ptx_identifier(name):
            raise ValueError(f"symbol @{name!r} is not a valid PTX identifier "
                             f"([A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+, not WARP_SZ)")


def compile(source: Union[str, Module, "Program"], chip: str = "sm_90", format: str = "ptx",
            opt_level: int = 3, strategy: str = "auto",
            context: Optional[Context] = None) -> CompiledModule:
    """Lowers a module with gpu.module kernels (text, a Module, or a
    builder Program's text) through `warp-lower-to-ptx` and returns the
    device code. Raises ValueError for an option or symbol name the
    compiler cannot take (see pipeline_options) and MLIRError with the
    compiler's diagnostics when compilation fails (an unknown chip such as
    sm_95 included)."""
    options = pipeline_options(chip, format, opt_level, strategy)
    if context is not None and not isinstance(context, Context):
        raise TypeError(f"context must be a warp_mlir.Context, not {type(context).__name__}")
    if isinstance(source, Module):
        text, context = source.to_string(), context or source.context
    elif hasattr(source, "to_mlir"):  # a builder Program
        text = source.to_mlir()
    elif isinstance(source, str):
        text = source
    else:
        raise TypeError(f"compile takes MLIR text, a Module or a Program, "
                        f"not {type(source).__name__}")
    module = Module.parse(text, context)
    module.verify()
    printed = module.to_string()
    kernels = kernel_signatures(printed)
    _check_symbol_names(printed, kernels)
    objects: List[bytes] = []
    callback = _capi.ObjectCallback(lambda _name, data, _u: objects.append(data.bytes()))
    module.context.take_diagnostics()
    result = _capi.lib().warpLowerToBinary(
        module.operation, _capi.MlirStringRef.of(options.encode()), callback, None)
    if not result.value:
        raise MLIRError(f"compilation for {chip} failed", module.context.take_diagnostics())
    if len(objects) != 1:
        raise MLIRError(f"expected one gpu.module, found {len(objects)}", [])
    return CompiledModule(objects[0], format, chip, kernels)
