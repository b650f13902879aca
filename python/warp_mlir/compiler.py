"""Compile warp IR to PTX or cubin for a chip."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

from . import _cache, _capi, _checks
from .builder import Program
from .ir import Context, Diagnostic, MLIRError, Module, issue_warnings

_FORMATS = {"ptx": "isa", "cubin": "bin", "fatbin": "fatbin"}
_STRATEGIES = ("auto", "butterfly", "tree", "redux")
# The shape of a chip name; the compiler checks the chip against LLVM's list.
_CHIP = re.compile(r"sm_[0-9]+[af]?\Z")


@dataclass
class ArgType:
    """A kernel parameter: a memref (element type and shape, -1 for a
    dynamic size) or a scalar (shape None). `identity_layout` is False for
    a memref with a strided or other non-identity layout (launch refuses
    those: it passes row-major arrays)."""
    element: str
    shape: Optional[Tuple[int, ...]] = None
    identity_layout: bool = True

    @property
    def is_memref(self) -> bool:
        return self.shape is not None

    @property
    def is_static(self) -> bool:
        return self.is_memref and all(d >= 0 for d in self.shape)

    def __str__(self) -> str:
        if not self.is_memref:
            return self.element
        dims = "".join(("?" if d < 0 else str(d)) + "x" for d in self.shape)
        return f"memref<{dims}{self.element}>"

    def to_json(self) -> list:
        return [self.element, None if self.shape is None else list(self.shape),
                self.identity_layout]

    @classmethod
    def from_json(cls, data: list) -> "ArgType":
        element, shape, identity = data
        return cls(element, None if shape is None else tuple(shape), identity)


@dataclass
class CompiledModule:
    """Device code for one gpu.module: `binary` holds PTX text (format
    "ptx") or cubin/fatbin bytes; `kernels` maps each kernel to its
    parameters, which `launch` checks arguments against. `bare_pointers`
    says how kernels take memrefs (one pointer each, or the five-field
    descriptor); `from_cache` whether the on-disk cache supplied it;
    `diagnostics` the warnings compilation reported."""
    binary: bytes
    format: str
    chip: str
    kernels: Dict[str, List[ArgType]] = field(default_factory=dict)
    bare_pointers: bool = False
    from_cache: bool = False
    diagnostics: List[Diagnostic] = field(default_factory=list)

    @property
    def ptx(self) -> str:
        if self.format != "ptx":
            raise ValueError(f"this module was compiled to {self.format}, not PTX")
        return self.binary.decode("utf-8")


def _type_text(type) -> str:
    L = _capi.lib()
    return _capi.collect_string(L.mlirTypePrint, type)


def _arg_type(type) -> ArgType:
    """ArgType of an MLIR type, read through the C API."""
    L = _capi.lib()
    if not L.mlirTypeIsAMemRef(type):
        return ArgType(_type_text(type))
    rank = L.mlirShapedTypeGetRank(type)
    shape = tuple(-1 if L.mlirShapedTypeIsDynamicDim(type, d) else L.mlirShapedTypeGetDimSize(type, d)
                  for d in range(rank))
    layout = L.mlirMemRefTypeGetLayout(type)
    identity = bool(L.mlirAttributeIsAAffineMap(layout)
                    and L.mlirAffineMapIsIdentity(L.mlirAffineMapAttrGetValue(layout)))
    return ArgType(_type_text(L.mlirShapedTypeGetElementType(type)), shape, identity)


def _module_of(source: Union[str, Module], context: Optional[Context] = None) -> Module:
    if isinstance(source, Module):
        return source
    module = Module.parse(source, context)
    module.verify()
    return module


def kernel_signatures(source: Union[str, Module]) -> Dict[str, List[ArgType]]:
    """The parameters of every gpu.func kernel of a module (MLIR text or a
    Module), read from the parsed IR (warpForEachKernel)."""
    module = _module_of(source)
    signatures: Dict[str, List[ArgType]] = {}

    def on_kernel(name, count, types, _user_data):
        signatures[name.bytes().decode("utf-8")] = [_arg_type(types[i]) for i in range(count)]

    callback = _capi.KernelCallback(on_kernel)
    _capi.lib().warpForEachKernel(module.operation, callback, None)
    return signatures


def pipeline_options(chip: str = "sm_90", format: str = "ptx", opt_level: int = 3,
                     strategy: str = "auto", bare_pointers: bool = False,
                     device_index_bitwidth: int = 64) -> str:
    """The `warp-lower-to-ptx` option string of compile()'s options, each
    checked first (ValueError): the values are pasted into the string, so a
    chip of "sm_90 ptx-output=FILE" must not get through. `chip` has the
    shape sm_<digits> with an optional a/f suffix (the compiler then checks
    it against LLVM's chips), `format` is ptx, cubin or fatbin, `opt_level`
    an int 0..3, `strategy` auto, butterfly, tree or redux,
    `bare_pointers` a bool (kernels take one pointer per memref:
    `bare-ptr-memref=true`) and `device_index_bitwidth` 64 or 32
    (`device-index-bitwidth=32`: 32-bit index arithmetic in kernels, with
    the same 64-bit kernel parameters)."""
    if not isinstance(chip, str) or not _CHIP.match(chip):
        raise ValueError(f"chip must look like sm_90, sm_90a or sm_100f, not {chip!r}")
    if not isinstance(format, str) or format not in _FORMATS:
        raise ValueError(f"format must be one of {sorted(_FORMATS)}, not {format!r}")
    opt_level = _checks.integer(opt_level, "opt_level", 0, 3, kind_error=ValueError)
    strategy = _checks.one_of(strategy, "strategy", _STRATEGIES)
    if not isinstance(bare_pointers, bool):
        raise TypeError(f"bare_pointers must be a bool, not {type(bare_pointers).__name__}")
    device_index_bitwidth = _checks.integer(device_index_bitwidth, "device_index_bitwidth",
                                            kind_error=ValueError)
    if device_index_bitwidth not in (32, 64):
        raise ValueError(f"device_index_bitwidth must be 32 or 64, got {device_index_bitwidth}")
    options = f"chip={chip} format={_FORMATS[format]} opt-level={opt_level} strategy={strategy}"
    options += " bare-ptr-memref=true" if bare_pointers else ""
    return options + (" device-index-bitwidth=32" if device_index_bitwidth == 32 else "")


def _check_bare_pointers(kernels: Dict[str, List[ArgType]]) -> None:
    """The bare-pointer convention passes only the address of a memref: its
    sizes must be static and its layout the identity."""
    for name, params in kernels.items():
        for position, param in enumerate(params):
            if param.is_memref and not (param.is_static and param.identity_layout):
                raise ValueError(
                    f"bare_pointers=True: kernel {name!r} parameter {position} ({param}) needs "
                    f"a static shape and the identity layout (a bare pointer carries no "
                    f"sizes or strides); use bare_pointers=False for it")


def compile(source: Union[str, Module, Program], chip: str = "sm_90", format: str = "ptx",
            opt_level: int = 3, strategy: str = "auto",
            context: Optional[Context] = None, bare_pointers: bool = False,
            cache: Optional[bool] = None, device_index_bitwidth: int = 64) -> CompiledModule:
    """Lowers a module with gpu.module kernels (text, a Module, or a
    builder Program) through `warp-lower-to-ptx` and returns the
    device code. Raises ValueError for an option or symbol name the
    compiler cannot take (see pipeline_options) and MLIRError with the
    compiler's diagnostics when compilation fails (an unknown chip such as
    sm_95 included); warnings become `MLIRWarning`s at the Python line of
    the op.

    `bare_pointers=True` compiles kernels that take one pointer per memref
    (static shapes only; launch follows). `device_index_bitwidth=32` makes
    the index arithmetic inside kernels 32-bit while the kernels keep their
    64-bit parameters (launch is unchanged): every index argument and memref
    offset, size and stride must then be below 2**31. `cache` (default: on unless
    $WARP_MLIR_CACHE=0) reuses device code from the on-disk cache
    ($WARP_MLIR_CACHE_DIR, default ~/.cache/warp_mlir), keyed by the IR
    text, the options and the compiler's version."""
    options = pipeline_options(chip, format, opt_level, strategy, bare_pointers,
                               device_index_bitwidth)
    if context is not None and not isinstance(context, Context):
        raise TypeError(f"context must be a warp_mlir.Context, not {type(context).__name__}")
    if cache is not None and not isinstance(cache, bool):
        raise TypeError(f"cache must be a bool or None, not {type(cache).__name__}")
    if isinstance(source, Module):
        text, context = source.to_string(debug_info=True), context or source.context
    elif isinstance(source, Program):
        text = source.to_mlir()
        if context is not None and context is not source._ops.context:
            raise ValueError("a Program compiles in the context it was built in; "
                             "leave `context` out")
    elif isinstance(source, str):
        text = source
    else:
        raise TypeError(f"compile takes MLIR text, a Module or a Program, "
                        f"not {type(source).__name__}")
    use_cache = _cache.enabled() if cache is None else cache
    key = None
    if use_cache:
        version = _capi.lib().warpGetVersion().bytes().decode()
        key = _cache.key(text, options, version, _cache.library_identity(_capi.lib_path))
        entry = _cache.load(key)
        if entry is not None:
            meta, binary = entry
            kernels = {name: [ArgType.from_json(p) for p in params]
                       for name, params in meta["kernels"].items()}
            return CompiledModule(binary, format, chip, kernels, bare_pointers, from_cache=True)
    if isinstance(source, Program):
        module = source.module()
        module.verify()
    else:  # the parser has verified it
        module = Module.parse(text, context)
    kernels = kernel_signatures(module)
    if bare_pointers:
        _check_bare_pointers(kernels)
    objects: List[bytes] = []
    callback = _capi.ObjectCallback(lambda _name, data, _u: objects.append(data.bytes()))
    module.context.take_diagnostics()
    result = _capi.lib().warpLowerToBinary(
        module.operation, _capi.MlirStringRef.of(options.encode()), callback, None)
    diagnostics = module.context.take_diagnostics()
    if not result.value:
        raise MLIRError(f"compilation for {chip} failed", diagnostics)
    if len(objects) != 1:
        raise MLIRError(f"expected one gpu.module, found {len(objects)}", [])
    issue_warnings(diagnostics)
    if key is not None:
        _cache.store(key, {"kernels": {n: [p.to_json() for p in ps] for n, ps in kernels.items()}},
                     objects[0])
    return CompiledModule(objects[0], format, chip, kernels, bare_pointers,
                          diagnostics=[d for d in diagnostics if d.severity == "warning"])
