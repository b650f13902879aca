"""ctypes bindings of libWarpCAPI: warp's C API plus MLIR's IR C API.

Works under any CPython >= 3.9 without compiling anything per version. The
library is found, in order, at $WARP_MLIR_LIBRARY, next to this package
(_lib/libWarpCAPI.so, placed by `cmake --build build --target
warp-python-package`), or in the build tree: lib/ of the build directory
that holds the assembled package (build/python), else build/lib of a source
checkout.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import Optional

_HERE = Path(__file__).resolve().parent


class MlirStringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, text: bytes) -> "MlirStringRef":
        """A ref to `text`, which it keeps alive as long as it lives itself
        (a copy of the struct, such as a field of another struct, does not)."""
        ref = cls(ctypes.cast(ctypes.c_char_p(text), ctypes.c_void_p), len(text))
        ref._text = text
        return ref

    def bytes(self) -> bytes:
        return ctypes.string_at(self.data, self.length) if self.length else b""


def _handle(name: str) -> type:
    return type(name, (ctypes.Structure,), {"_fields_": [("ptr", ctypes.c_void_p)]})


MlirContext = _handle("MlirContext")
MlirDialectRegistry = _handle("MlirDialectRegistry")
MlirModule = _handle("MlirModule")
MlirOperation = _handle("MlirOperation")
MlirLocation = _handle("MlirLocation")
MlirDiagnostic = _handle("MlirDiagnostic")
MlirOpPrintingFlags = _handle("MlirOpPrintingFlags")
MlirPassManager = _handle("MlirPassManager")
MlirOpPassManager = _handle("MlirOpPassManager")
MlirType = _handle("MlirType")
MlirAttribute = _handle("MlirAttribute")
MlirAffineMap = _handle("MlirAffineMap")
MlirIdentifier = _handle("MlirIdentifier")
MlirBlock = _handle("MlirBlock")
MlirRegion = _handle("MlirRegion")
MlirValue = _handle("MlirValue")


class MlirNamedAttribute(ctypes.Structure):
    _fields_ = [("name", MlirIdentifier), ("attribute", MlirAttribute)]


class MlirOperationState(ctypes.Structure):
    """mlir-c's generic operation state (mlir-c/IR.h): made by
    mlirOperationStateGet and filled by mlirOperationStateAdd*, which copy
    the arrays (mlirOperationCreate frees the copies)."""
    _fields_ = [("name", MlirStringRef), ("location", MlirLocation),
                ("nResults", ctypes.c_ssize_t), ("results", ctypes.POINTER(MlirType)),
                ("nOperands", ctypes.c_ssize_t), ("operands", ctypes.POINTER(MlirValue)),
                ("nRegions", ctypes.c_ssize_t), ("regions", ctypes.POINTER(MlirRegion)),
                ("nSuccessors", ctypes.c_ssize_t), ("successors", ctypes.POINTER(MlirBlock)),
                ("nAttributes", ctypes.c_ssize_t),
                ("attributes", ctypes.POINTER(MlirNamedAttribute)),
                ("enableResultTypeInference", ctypes.c_bool)]


class MlirLogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


StringCallback = ctypes.CFUNCTYPE(None, MlirStringRef, ctypes.c_void_p)
# A one-byte struct returns like int8 on the C ABI; ctypes callbacks need it so.
DiagnosticHandler = ctypes.CFUNCTYPE(ctypes.c_int8, MlirDiagnostic, ctypes.c_void_p)
ObjectCallback = ctypes.CFUNCTYPE(None, MlirStringRef, MlirStringRef, ctypes.c_void_p)
UserDataDelete = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
KernelCallback = ctypes.CFUNCTYPE(None, MlirStringRef, ctypes.c_ssize_t,
                                  ctypes.POINTER(MlirType), ctypes.c_void_p)
# MlirWalkResult is a C enum (an int).
OperationWalkCallback = ctypes.CFUNCTYPE(ctypes.c_int, MlirOperation, ctypes.c_void_p)


def library_candidates() -> list:
    candidates = []
    if os.environ.get("WARP_MLIR_LIBRARY"):
        candidates.append(Path(os.environ["WARP_MLIR_LIBRARY"]))
    candidates.append(_HERE / "_lib" / "libWarpCAPI.so")
    candidates += [build / "lib" / "libWarpCAPI.so" for build in build_directories()]
    return candidates


def build_directories() -> list:
    """The build directories this package may sit in or beside: the one that
    assembled it (build/python/warp_mlir), or a source checkout's build/."""
    above = _HERE.parent.parent
    if (above / "CMakeCache.txt").exists():
        return [above]
    return [above / "build"]


def load_first(candidates: list, missing: str):
    """The first of `candidates` that exists, loaded, and its path; else
    ImportError with `missing` and the paths looked at."""
    for path in candidates:
        if path.exists():
            return ctypes.CDLL(str(path)), str(path)
    raise ImportError(missing + "; looked at: " + ", ".join(map(str, candidates)))


_lib: Optional[ctypes.CDLL] = None
# The file _lib was loaded from (the compile cache keys on it).
lib_path: Optional[str] = None


def lib() -> ctypes.CDLL:
    """The loaded library, with every prototype declared."""
    global _lib, lib_path
    if _lib is not None:
        return _lib
    _lib, lib_path = load_first(library_candidates(), "warp_mlir: cannot find libWarpCAPI.so "
                                "(set WARP_MLIR_LIBRARY or build the project)")
    L = _lib
    proto = [
        ("warpGetVersion", MlirStringRef, []),
        ("warpCombineKindDomains", ctypes.c_int, [MlirStringRef]),
        ("warpRegisterDialects", None, [MlirDialectRegistry]),
        ("warpRegisterPasses", None, []),
        ("warpRegisterAllUpstream", ctypes.c_bool, [MlirDialectRegistry]),
        ("warpLowerToBinary", MlirLogicalResult,
         [MlirOperation, MlirStringRef, ObjectCallback, ctypes.c_void_p]),
        ("warpForEachKernel", None, [MlirOperation, KernelCallback, ctypes.c_void_p]),
        ("mlirDialectRegistryCreate", MlirDialectRegistry, []),
        ("mlirDialectRegistryDestroy", None, [MlirDialectRegistry]),
        ("mlirContextCreateWithRegistry", MlirContext, [MlirDialectRegistry, ctypes.c_bool]),
        ("mlirContextLoadAllAvailableDialects", None, [MlirContext]),
        ("mlirContextDestroy", None, [MlirContext]),
        ("mlirContextAttachDiagnosticHandler", ctypes.c_uint64,
         [MlirContext, DiagnosticHandler, ctypes.c_void_p, UserDataDelete]),
        ("mlirDiagnosticPrint", None, [MlirDiagnostic, StringCallback, ctypes.c_void_p]),
        ("mlirDiagnosticGetLocation", MlirLocation, [MlirDiagnostic]),
        ("mlirDiagnosticGetSeverity", ctypes.c_int, [MlirDiagnostic]),
        ("mlirLocationPrint", None, [MlirLocation, StringCallback, ctypes.c_void_p]),
        ("warpModuleCreateParse", MlirModule, [MlirContext, MlirStringRef]),
        ("mlirModuleGetOperation", MlirOperation, [MlirModule]),
        ("mlirModuleDestroy", None, [MlirModule]),
        ("mlirOperationVerify", ctypes.c_bool, [MlirOperation]),
        ("mlirOperationPrintWithFlags", None,
         [MlirOperation, MlirOpPrintingFlags, StringCallback, ctypes.c_void_p]),
        ("mlirOpPrintingFlagsCreate", MlirOpPrintingFlags, []),
        ("mlirPassManagerCreateOnOperation", MlirPassManager, [MlirContext, MlirStringRef]),
        ("mlirPassManagerGetAsOpPassManager", MlirOpPassManager, [MlirPassManager]),
        ("mlirParsePassPipeline", MlirLogicalResult,
         [MlirOpPassManager, MlirStringRef, StringCallback, ctypes.c_void_p]),
        ("warpPassManagerRunOnOp", MlirLogicalResult, [MlirPassManager, MlirOperation]),
        ("mlirPassManagerDestroy", None, [MlirPassManager]),
        ("mlirOpPrintingFlagsDestroy", None, [MlirOpPrintingFlags]),
        ("mlirOpPrintingFlagsPrintGenericOpForm", None, [MlirOpPrintingFlags]),
        ("mlirOpPrintingFlagsEnableDebugInfo", None, [MlirOpPrintingFlags, ctypes.c_bool, ctypes.c_bool]),
        # Types of kernel arguments and symbol names, read from the IR.
        ("mlirTypePrint", None, [MlirType, StringCallback, ctypes.c_void_p]),
        ("mlirTypeIsAMemRef", ctypes.c_bool, [MlirType]),
        ("mlirShapedTypeGetElementType", MlirType, [MlirType]),
        ("mlirShapedTypeGetRank", ctypes.c_int64, [MlirType]),
        ("mlirShapedTypeIsDynamicDim", ctypes.c_bool, [MlirType, ctypes.c_ssize_t]),
        ("mlirShapedTypeGetDimSize", ctypes.c_int64, [MlirType, ctypes.c_ssize_t]),
        ("mlirMemRefTypeGetLayout", MlirAttribute, [MlirType]),
        ("mlirAttributeIsAAffineMap", ctypes.c_bool, [MlirAttribute]),
        ("mlirAffineMapAttrGetValue", MlirAffineMap, [MlirAttribute]),
        ("mlirAffineMapIsIdentity", ctypes.c_bool, [MlirAffineMap]),
        ("mlirOperationWalk", None,
         [MlirOperation, OperationWalkCallback, ctypes.c_void_p, ctypes.c_int]),
        ("mlirOperationGetAttributeByName", MlirAttribute, [MlirOperation, MlirStringRef]),
        ("mlirAttributeIsAString", ctypes.c_bool, [MlirAttribute]),
        ("mlirStringAttrGetValue", MlirStringRef, [MlirAttribute]),
        # Launch plans of device-wide ops (warp_mlir.device).
        ("mlirOperationGetName", MlirIdentifier, [MlirOperation]),
        ("mlirAttributeIsADenseI64Array", ctypes.c_bool, [MlirAttribute]),
        ("mlirDenseArrayGetNumElements", ctypes.c_ssize_t, [MlirAttribute]),
        ("mlirDenseI64ArrayGetElement", ctypes.c_int64, [MlirAttribute, ctypes.c_ssize_t]),
        ("mlirDenseI32ArrayGetElement", ctypes.c_int32, [MlirAttribute, ctypes.c_ssize_t]),
        ("mlirIntegerAttrGetValueInt", ctypes.c_int64, [MlirAttribute]),
        # Building IR (the Python builder) and reading locations.
        ("warpIsPTXIdentifier", ctypes.c_bool, [MlirStringRef]),
        ("warpOperationPrint", None,
         [MlirOperation, MlirOpPrintingFlags, StringCallback, ctypes.c_void_p]),
        ("warpMMAFragmentLength", ctypes.c_ssize_t, [MlirStringRef, MlirStringRef, MlirType]),
        ("mlirTypeParseGet", MlirType, [MlirContext, MlirStringRef]),
        ("mlirAttributeParseGet", MlirAttribute, [MlirContext, MlirStringRef]),
        ("mlirIntegerAttrGet", MlirAttribute, [MlirType, ctypes.c_int64]),
        ("mlirUnitAttrGet", MlirAttribute, [MlirContext]),
        ("mlirStringAttrGet", MlirAttribute, [MlirContext, MlirStringRef]),
        ("mlirIdentifierGet", MlirIdentifier, [MlirContext, MlirStringRef]),
        ("mlirIdentifierStr", MlirStringRef, [MlirIdentifier]),
        ("mlirLocationFileLineColGet", MlirLocation,
         [MlirContext, MlirStringRef, ctypes.c_uint, ctypes.c_uint]),
        ("mlirLocationUnknownGet", MlirLocation, [MlirContext]),
        ("mlirLocationNameGet", MlirLocation, [MlirContext, MlirStringRef, MlirLocation]),
        ("mlirLocationIsAFileLineColRange", ctypes.c_bool, [MlirLocation]),
        ("mlirLocationFileLineColRangeGetFilename", MlirIdentifier, [MlirLocation]),
        ("mlirLocationFileLineColRangeGetStartLine", ctypes.c_int, [MlirLocation]),
        ("mlirLocationFileLineColRangeGetStartColumn", ctypes.c_int, [MlirLocation]),
        ("mlirLocationIsAName", ctypes.c_bool, [MlirLocation]),
        ("mlirLocationNameGetChildLoc", MlirLocation, [MlirLocation]),
        ("mlirLocationIsACallSite", ctypes.c_bool, [MlirLocation]),
        ("mlirLocationCallSiteGetCallee", MlirLocation, [MlirLocation]),
        ("mlirLocationIsAFused", ctypes.c_bool, [MlirLocation]),
        ("mlirLocationFusedGetNumLocations", ctypes.c_uint, [MlirLocation]),
        ("mlirLocationFusedGetLocations", None, [MlirLocation, ctypes.POINTER(MlirLocation)]),
        ("mlirOperationStateGet", MlirOperationState, [MlirStringRef, MlirLocation]),
        ("mlirOperationStateAddResults", None,
         [ctypes.POINTER(MlirOperationState), ctypes.c_ssize_t, ctypes.POINTER(MlirType)]),
        ("mlirOperationStateAddOperands", None,
         [ctypes.POINTER(MlirOperationState), ctypes.c_ssize_t, ctypes.POINTER(MlirValue)]),
        ("mlirOperationStateAddOwnedRegions", None,
         [ctypes.POINTER(MlirOperationState), ctypes.c_ssize_t, ctypes.POINTER(MlirRegion)]),
        ("mlirOperationStateAddAttributes", None,
         [ctypes.POINTER(MlirOperationState), ctypes.c_ssize_t,
          ctypes.POINTER(MlirNamedAttribute)]),
        ("mlirOperationCreate", MlirOperation, [ctypes.POINTER(MlirOperationState)]),
        ("mlirOperationDestroy", None, [MlirOperation]),
        ("mlirOperationClone", MlirOperation, [MlirOperation]),
        ("mlirOperationGetResult", MlirValue, [MlirOperation, ctypes.c_ssize_t]),
        ("mlirOperationGetRegion", MlirRegion, [MlirOperation, ctypes.c_ssize_t]),
        ("mlirOperationSetAttributeByName", None, [MlirOperation, MlirStringRef, MlirAttribute]),
        ("mlirRegionCreate", MlirRegion, []),
        ("mlirRegionTakeBody", None, [MlirRegion, MlirRegion]),
        ("mlirRegionAppendOwnedBlock", None, [MlirRegion, MlirBlock]),
        ("mlirRegionGetFirstBlock", MlirBlock, [MlirRegion]),
        ("mlirBlockCreate", MlirBlock,
         [ctypes.c_ssize_t, ctypes.POINTER(MlirType), ctypes.POINTER(MlirLocation)]),
        ("mlirBlockDestroy", None, [MlirBlock]),
        ("mlirBlockGetArgument", MlirValue, [MlirBlock, ctypes.c_ssize_t]),
        ("mlirBlockAddArgument", MlirValue, [MlirBlock, MlirType, MlirLocation]),
        ("mlirBlockAppendOwnedOperation", None, [MlirBlock, MlirOperation]),
        ("mlirModuleCreateEmpty", MlirModule, [MlirLocation]),
        ("mlirModuleGetBody", MlirBlock, [MlirModule]),
        ("mlirModuleFromOperation", MlirModule, [MlirOperation]),
        ("mlirOpPrintingFlagsPrintNameLocAsPrefix", None, [MlirOpPrintingFlags]),
        ("mlirOpPrintingFlagsUseLocalScope", None, [MlirOpPrintingFlags]),
    ]
    for name, restype, argtypes in proto:
        function = getattr(L, name)
        function.restype = restype
        function.argtypes = argtypes
    return L


def collect_string(call, *args) -> str:
    """Runs an MLIR print-style call and returns what it printed."""
    chunks = []
    callback = StringCallback(lambda ref, _: chunks.append(ref.bytes()))
    call(*args, callback, None)
    return b"".join(chunks).decode("utf-8", errors="replace")
