//===- WarpCAPI.cpp - C API of the warp dialect and its compiler ----------===//

#include "WarpDialect-c/Warp.h"

#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Pipelines/FatalErrors.h"
#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#ifdef WARP_CAPI_ALL_UPSTREAM
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#endif

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Warp, warp, mlir::warp::WarpDialect)

MlirStringRef warpGetVersion(void) {
  return mlirStringRefCreateFromCString(WARP_VERSION);
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

bool warpRegisterAllUpstream(MlirDialectRegistry registry) {
#ifdef WARP_CAPI_ALL_UPSTREAM
  registerAllDialects(*unwrap(registry));
  registerAllExtensions(*unwrap(registry));
  registerAllToLLVMIRTranslations(*unwrap(registry));
  static std::once_flag once;
  std::call_once(once, [] { registerAllPasses(); });
  return true;
#else
  (void)registry;
  return false;
#endif
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

/// Parses and checks the options of warpLowerToBinary into `options`;
/// errors are reported at `module`.
static LogicalResult
parseLowerToBinaryOptions(Operation *module, StringRef text,
                          warp::WarpPipelineOptions &options) {
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(options.parseFromString(text, errorStream))) {
    emitError(module->getLoc())
        << "invalid warp-lower-to-ptx options '" << text
        << "': " << StringRef(errors).trim()
        << " (expected chip=..., format=isa|bin|fatbin, opt-level=0..3, "
           "strategy=auto|butterfly|tree|redux)";
    return failure();
  }
  // The objects go to the callback; writing files is warp-opt's business.
  if (!options.ptxOutput.empty()) {
    emitError(module->getLoc())
        << "ptx-output is not an option of warpLowerToBinary: the callback "
           "receives every object";
    return failure();
  }
  if (std::optional<std::string> problem =
          warp::checkWarpPipelineOptions(options)) {
    emitError(module->getLoc()) << *problem;
    return failure();
  }
  return success();
}

/// A warp-lower-to-ptx pass manager for `module`, with the instrumentation
/// that turns fatal errors into diagnostics; null after reporting bad
/// options.
static std::unique_ptr<PassManager> buildLowerToBinary(Operation *module,
                                                       StringRef text) {
  warp::WarpPipelineOptions options;
  if (failed(parseLowerToBinaryOptions(module, text, options)))
    return nullptr;
  auto pm = std::make_unique<PassManager>(module->getContext(),
                                          module->getName().getStringRef());
  warp::buildWarpLowerToPTXPipeline(*pm, options);
  warp::reportFatalErrorsAsDiagnostics(*pm);
  return pm;
}

/// Runs `pm` on `module` and hands every gpu.binary object to `callback`.
static MlirLogicalResult runLowerToBinary(PassManager &pm, Operation *module,
                                          WarpObjectCallback callback,
                                          void *userData) {
  if (failed(warp::runRecoveringFromFatalErrors(
          [&] { return pm.run(module); })))
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

MlirLogicalResult warpLowerToBinary(MlirOperation moduleRef,
                                    MlirStringRef optionsRef,
                                    WarpObjectCallback callback,
                                    void *userData) {
  Operation *module = unwrap(moduleRef);
  std::unique_ptr<PassManager> pm =
      buildLowerToBinary(module, unwrap(optionsRef));
  if (!pm)
    return mlirLogicalResultFailure();
  return runLowerToBinary(*pm, module, callback, userData);
}

namespace {
/// The pass managers one context's compiles reuse, by root operation name and
/// option string. A pass manager may run again (it initializes its passes
/// once per context), but not on two threads at once: `busy` says one runs.
struct Compiler {
  MLIRContext *context;
  std::mutex mutex;
  bool busy = false;
  llvm::StringMap<std::unique_ptr<PassManager>> pipelines;
};
/// How many option strings a compiler keeps before it starts over.
constexpr size_t kMaxKeptPipelines = 16;
} // namespace

WarpCompiler warpCompilerCreate(MlirContext context) {
  return {new Compiler{unwrap(context), {}, false, {}}};
}

void warpCompilerDestroy(WarpCompiler compiler) {
  delete static_cast<Compiler *>(compiler.ptr);
}

MlirLogicalResult warpCompilerLowerToBinary(WarpCompiler compilerRef,
                                            MlirOperation moduleRef,
                                            MlirStringRef optionsRef,
                                            WarpObjectCallback callback,
                                            void *userData) {
  auto *compiler = static_cast<Compiler *>(compilerRef.ptr);
  Operation *module = unwrap(moduleRef);
  if (!compiler || module->getContext() != compiler->context)
    return warpLowerToBinary(moduleRef, optionsRef, callback, userData);
  std::string key =
      (module->getName().getStringRef() + "\n" + unwrap(optionsRef)).str();
  PassManager *kept = nullptr;
  {
    std::lock_guard<std::mutex> lock(compiler->mutex);
    if (!compiler->busy) {
      auto found = compiler->pipelines.find(key);
      if (found == compiler->pipelines.end()) {
        std::unique_ptr<PassManager> pm =
            buildLowerToBinary(module, unwrap(optionsRef));
        if (!pm)
          return mlirLogicalResultFailure();
        if (compiler->pipelines.size() >= kMaxKeptPipelines)
          compiler->pipelines.clear();
        found = compiler->pipelines.try_emplace(key, std::move(pm)).first;
      }
      kept = found->second.get();
      compiler->busy = true;
    }
  }
  if (!kept)
    return warpLowerToBinary(moduleRef, optionsRef, callback, userData);
  MlirLogicalResult result =
      runLowerToBinary(*kept, module, callback, userData);
  std::lock_guard<std::mutex> lock(compiler->mutex);
  compiler->busy = false;
  return result;
}
