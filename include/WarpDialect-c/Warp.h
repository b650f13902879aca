/*===- Warp.h - C API of the warp dialect and its compiler --------*- C -*-===*\
|*                                                                            *|
|* Register the dialect and everything a GPU program needs, run pipelines,   *|
|* and lower a module to PTX/cubin, from C or any language with a C FFI.     *|
|* Diagnostics reach the handlers attached to the context                    *|
|* (mlirContextAttachDiagnosticHandler).                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef WARPDIALECT_C_WARP_H
#define WARPDIALECT_C_WARP_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Warp, warp);

/// The project's version, e.g. "0.1.0".
MLIR_CAPI_EXPORTED MlirStringRef warpGetVersion(void);

/// The value domains the combine kind named `kind` (its keyword, e.g.
/// "minsi") takes, from the dialect's kind table: a bit set of
/// WARP_KIND_INTEGERS and WARP_KIND_FLOATS, 0 for a name that is no kind.
#define WARP_KIND_INTEGERS 1
#define WARP_KIND_FLOATS 2
MLIR_CAPI_EXPORTED int warpCombineKindDomains(MlirStringRef kind);

/// Whether `name` can name a kernel in PTX as it is (the rule that
/// warp-check-lowerable holds symbols to).
MLIR_CAPI_EXPORTED bool warpIsPTXIdentifier(MlirStringRef name);

/// The number of `element` elements in one lane's fragment of a warp.mma_*
/// op: `shape` "m16n16k16" or "m16n16k8", `operand` "a", "b" or "c" (C
/// also stands for D); 0 for a fragment PTX wmma does not have or a name
/// that is no shape or operand. The dialect's own table (the verifier's).
MLIR_CAPI_EXPORTED intptr_t warpMMAFragmentLength(MlirStringRef shape,
                                                  MlirStringRef operand,
                                                  MlirType element);

/// Prints `op` with `flags` like mlirOperationPrintWithFlags, but into one
/// buffer that goes to `callback` in a single call (mlir-c's printer calls it
/// once per token, which a callback into an interpreter pays for per call).
MLIR_CAPI_EXPORTED void warpOperationPrint(MlirOperation op,
                                           MlirOpPrintingFlags flags,
                                           MlirStringCallback callback,
                                           void *userData);

/// Adds the warp dialect and the upstream dialects, interfaces and LLVM IR
/// translations GPU programs need (the set the runner uses).
MLIR_CAPI_EXPORTED void warpRegisterDialects(MlirDialectRegistry registry);

/// Registers the warp passes and pipelines (`warp-lower-to-ptx`,
/// `warp-lower-to-nvvm`, ...) and the upstream passes those pipelines are
/// made of, so pipeline strings can name them. Idempotent.
MLIR_CAPI_EXPORTED void warpRegisterPasses(void);

/// Adds everything warp-opt has on top: every upstream dialect, extension,
/// translation and pass. Returns false in the self-contained library, which
/// leaves them out to stay small (it has what GPU programs need).
MLIR_CAPI_EXPORTED bool warpRegisterAllUpstream(MlirDialectRegistry registry);

/// Pass pipelines run through mlir-c's pass manager (mlir-c/Pass.h:
/// mlirPassManagerCreateOnOperation, mlirParsePassPipeline with the anchored
/// form "builtin.module(...)"), which this library exports;
/// warpRegisterPasses makes the warp passes and pipelines known. Run them
/// with warpPassManagerRunOnOp below rather than mlirPassManagerRunOnOp.

/// Parses `source` as a module, like mlirModuleCreateParse, on a thread with
/// a 1 GiB stack: MLIR's parser recurses once per nested region, and a few
/// thousand levels overflow a usual thread stack (a crash, not an error).
/// Returns a null module after reporting the parse error as a diagnostic.
MLIR_CAPI_EXPORTED MlirModule warpModuleCreateParse(MlirContext context,
                                                    MlirStringRef source);

/// Runs `passManager` on `op` like mlirPassManagerRunOnOp, except that an
/// LLVM fatal error raised by a pass (e.g. the NVPTX backend's "Cannot
/// select" on hand-written LLVM dialect), or a crash, is reported as an error
/// diagnostic at the operation the pass ran on and returns failure instead of
/// ending the process. After such a failure the IR may be half transformed:
/// drop it. Each call adds an instrumentation to `passManager` (it records
/// the running pass for the error location). (A fatal error on one of MLIR's worker threads, in a pass nested
/// under a parallel pass adaptor, is still reported but ends the process.)
MLIR_CAPI_EXPORTED MlirLogicalResult
warpPassManagerRunOnOp(MlirPassManager passManager, MlirOperation op);

/// Called once per gpu.binary object: the gpu.binary's name and the object's
/// bytes (PTX text for format=isa, a cubin or fatbin otherwise).
typedef void (*WarpObjectCallback)(MlirStringRef binaryName,
                                   MlirStringRef bytes, void *userData);

/// Lowers `module` in place with `warp-lower-to-ptx` configured by `options`
/// (the pipeline's option string, e.g. "chip=sm_90 format=isa"), then hands
/// every object to `callback`. LLVM fatal errors are diagnostics and a failure
/// result, as in warpPassManagerRunOnOp. A release build verifies the IR before
/// and after the pipeline instead of after every pass.
MLIR_CAPI_EXPORTED MlirLogicalResult
warpLowerToBinary(MlirOperation module, MlirStringRef options,
                  WarpObjectCallback callback, void *userData);

/// Called once per kernel: its symbol name and the types of its arguments
/// (valid during the call only).
typedef void (*WarpKernelCallback)(MlirStringRef kernelName,
                                   intptr_t numArguments,
                                   const MlirType *argumentTypes,
                                   void *userData);

/// Calls `callback` for every kernel of `module` (every `gpu.func` with the
/// `kernel` attribute, in every `gpu.module`), in the order of the IR. Read
/// the types with mlir-c/BuiltinTypes.h (mlirTypeIsAMemRef,
/// mlirShapedTypeGetDimSize, ...).
MLIR_CAPI_EXPORTED void warpForEachKernel(MlirOperation module,
                                          WarpKernelCallback callback,
                                          void *userData);

#ifdef __cplusplus
}
#endif

#endif // WARPDIALECT_C_WARP_H
