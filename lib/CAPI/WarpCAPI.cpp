//===- WarpCAPI.cpp - C API of the warp dialect and its compiler ----------===//
//
// Compiled once for both C API libraries; warpRegisterAllUpstream, the one
// function in which they differ, is in AllUpstream.cpp (libWarpCAPI.so, on
// libMLIR.so) and NoUpstream.cpp (the self-contained library).

#include "WarpDialect-c/Warp.h"

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Toolchain/Passes.h"
#include "WarpDialect/Toolchain/FatalErrors.h"
#include "WarpDialect/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Warp, warp, mlir::warp::WarpDialect)

MlirStringRef warpGetVersion(void) {
  return mlirStringRefCreateFromCString(WARP_VERSION);
}

int warpCombineKindDomains(MlirStringRef kind) {
  std::optional<warp::CombineKind> parsed =
      warp::symbolizeCombineKind(unwrap(kind));
  if (!parsed)
    return 0;
  const warp::CombineKindInfo &info = warp::getCombineKindInfo(*parsed);
  return (info.isFloatOnly() ? 0 : WARP_KIND_INTEGERS) |
         (info.isIntegerOnly() ? 0 : WARP_KIND_FLOATS);
}

bool warpIsPTXIdentifier(MlirStringRef name) {
  return warp::isPTXIdentifier(unwrap(name));
}

intptr_t warpMMAFragmentLength(MlirStringRef shape, MlirStringRef operand,
                               MlirType element) {
  std::optional<warp::MMAShape> parsedShape =
      warp::symbolizeMMAShape(unwrap(shape));
  std::optional<warp::MMAOperand> parsedOperand =
      warp::symbolizeMMAOperand(unwrap(operand));
  if (!parsedShape || !parsedOperand || mlirTypeIsNull(element))
    return 0;
  return warp::getMMAFragmentLength(*parsedShape, *parsedOperand,
                                    unwrap(element))
      .value_or(0);
}

void warpOperationPrint(MlirOperation op, MlirOpPrintingFlags flags,
                        MlirStringCallback callback, void *userData) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  unwrap(op)->print(stream, *unwrap(flags));
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}

void warpRegisterDialects(MlirDialectRegistry registry) {
  warp::registerWarpDialectsAndExtensions(*unwrap(registry));
}

void warpRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    warp::registerWarpPasses();
    warp::registerWarpPipelines();
    registerTransformsPasses();
    registerGPUPasses();
    // The conversions warp-lower-to-ptx is made of, for pipeline strings.
    registerConvertGpuOpsToNVVMOpsPass();
    registerGpuToLLVMConversionPass();
    registerArithToLLVMConversionPass();
    registerConvertControlFlowToLLVMPass();
    registerConvertFuncToLLVMPass();
    registerConvertIndexToLLVMPass();
    registerConvertMathToLLVMPass();
    registerFinalizeMemRefToLLVMConversionPass();
    registerConvertNVVMToLLVMPass();
    registerConvertVectorToLLVMPass();
    registerSCFToControlFlowPass();
    registerReconcileUnrealizedCastsPass();
    registerConvertToLLVMPass();
  });
}

MlirModule warpModuleCreateParse(MlirContext context, MlirStringRef source) {
  OwningOpRef<ModuleOp> module;
  warp::runOnLargeStack([&] {
    module = parseSourceString<ModuleOp>(unwrap(source), unwrap(context));
  });
  return wrap(module.release());
}

MlirLogicalResult warpPassManagerRunOnOp(MlirPassManager passManager,
                                         MlirOperation op) {
  PassManager *pm = unwrap(passManager);
  warp::reportFatalErrorsAsDiagnostics(*pm);
  return wrap(warp::runRecoveringFromFatalErrors(
      [&] { return pm->run(unwrap(op)); }));
}

void warpForEachKernel(MlirOperation moduleRef, WarpKernelCallback callback,
                       void *userData) {
  unwrap(moduleRef)->walk([&](gpu::GPUFuncOp function) {
    if (!function.isKernel())
      return;
    SmallVector<MlirType> types;
    for (Type type : function.getArgumentTypes())
      types.push_back(wrap(type));
    callback(wrap(function.getName()), static_cast<intptr_t>(types.size()),
             types.data(), userData);
  });
}

MlirLogicalResult warpLowerToBinary(MlirOperation moduleRef,
                                    MlirStringRef optionsRef,
                                    WarpObjectCallback callback,
                                    void *userData) {
  Operation *module = unwrap(moduleRef);
  warp::WarpPipelineOptions options;
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(options.parseFromString(unwrap(optionsRef), errorStream))) {
    emitError(module->getLoc())
        << "invalid warp-lower-to-ptx options '" << unwrap(optionsRef)
        << "': " << StringRef(errors).trim()
        << " (expected chip=..., format=isa|bin|fatbin, opt-level=0..3, "
           "strategy=auto|butterfly|tree|redux)";
    return mlirLogicalResultFailure();
  }
  // The objects go to the callback; writing files is warp-opt's business.
  if (!options.ptxOutput.empty()) {
    emitError(module->getLoc())
        << "ptx-output is not an option of warpLowerToBinary: the callback "
           "receives every object";
    return mlirLogicalResultFailure();
  }
  if (std::optional<std::string> problem =
          warp::checkWarpPipelineOptions(options)) {
    emitError(module->getLoc()) << *problem;
    return mlirLogicalResultFailure();
  }
  // The IR is verified before and after the pipeline, not after each of its
  // ~30 passes as warp-opt does (a measurable share of a compile, on the
  // expanded IR); builds with assertions still verify after each pass,
  // which names the pass that broke the IR.
  if (failed(verify(module)))
    return mlirLogicalResultFailure();
  PassManager pm(module->getContext(), module->getName().getStringRef());
#ifdef NDEBUG
  pm.enableVerifier(false);
#endif
  warp::buildWarpLowerToPTXPipeline(pm, options);
  if (mlirLogicalResultIsFailure(warpPassManagerRunOnOp(wrap(&pm), moduleRef)))
    return mlirLogicalResultFailure();
  if (failed(verify(module)))
    return mlirLogicalResultFailure();
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      StringRef bytes = object.getObject().getValue();
      callback(wrap(binary.getSymName()), wrap(bytes), userData);
    }
  });
  return mlirLogicalResultSuccess();
}
