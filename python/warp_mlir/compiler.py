"""Compile warp IR to PTX or cubin for a chip."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

from . import _capi
from .ir import Context, MLIRError, Module, default_context

_FORMATS = {"ptx": "isa", "cubin": "bin", "fatbin": "fatbin"}


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


_KERNEL = re.compile(r"gpu\.func @(\w+)\((.*?)\)(?:\s+workgroup\(.*?\))?\s+kernel", re.S)


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
        types = [arg.split(":", 1)[1] for arg in _split_top_level(args) if ":" in arg]
        signatures[name] = [parse_type(t) for t in types]
    return signatures


def compile(source: Union[str, Module, "Program"], chip: str = "sm_90", format: str = "ptx",
            opt_level: int = 3, strategy: str = "auto",
            context: Optional[Context] = None) -> CompiledModule:
    """Lowers a module with gpu.module kernels (text, a Module, or a
    builder Program's text) through `warp-lower-to-ptx` and returns the
    device code. Raises MLIRError with the compiler's diagnostics."""
    if format not in _FORMATS:
        raise ValueError(f"format must be one of {sorted(_FORMATS)}, not {format!r}")
    if isinstance(source, Module):
        text, context = source.to_string(), context or source.context
    elif hasattr(source, "to_mlir"):  # a builder Program
        text = source.to_mlir()
    else:
        text = source
    module = Module.parse(text, context)
    module.verify()
    kernels = kernel_signatures(module.to_string())
    options = f"chip={chip} format={_FORMATS[format]} opt-level={opt_level} strategy={strategy}"
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
