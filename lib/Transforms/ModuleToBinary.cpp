//===- ModuleToBinary.cpp - gpu.modules to gpu.binary, in parallel --------===//
//
// Serializes each gpu.module through its target attributes (the
// gpu::TargetAttrInterface that NVVM's target implements), the modules on
// the context's threads. Serialization only reads the IR (each module gets
// an LLVM context of its own), so it runs in parallel; building the
// gpu.binary ops and erasing the modules happens afterwards on this thread.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "WarpDialect/Target/Chip.h"
#include "WarpDialect/Target/FatalErrors.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPMODULETOBINARYPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// One gpu.module's objects, one per target, or none after an error.
using Objects = std::optional<SmallVector<Attribute>>;

/// Serializes `module` for each of its targets. Called on worker threads: it
/// reads the IR and creates attributes (the context is thread-safe for
/// that), and reports errors on the module.
Objects serialize(gpu::GPUModuleOp module, const gpu::TargetOptions &options) {
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets || targets.empty()) {
    module.emitError("the gpu.module has no target attribute to serialize "
                     "it with (nvvm-attach-target adds one)");
    return std::nullopt;
  }
  SmallVector<Attribute> objects;
  for (Attribute attr : targets) {
    auto target = dyn_cast<gpu::TargetAttrInterface>(attr);
    if (!target) {
      module.emitError() << "target " << attr
                         << " cannot serialize a gpu.module";
      return std::nullopt;
    }
    std::optional<SmallVector<char, 0>> bytes =
        target.serializeToObject(module, options);
    if (!bytes) {
      module.emitError() << "serializing the gpu.module for " << attr
                         << " failed";
      return std::nullopt;
    }
    Attribute object = target.createObject(module, *bytes, options);
    if (!object) {
      module.emitError() << "making the object of the gpu.module for " << attr
                         << " failed";
      return std::nullopt;
    }
    objects.push_back(object);
  }
  return objects;
}

/// The kernel parameter space ptxas allows: before PTX 8.1, and from PTX 8.1
/// on (which every chip from sm_70 on accepts).
constexpr uint64_t kParamBytesBeforePtx81 = 4352;
constexpr uint64_t kParamBytesFromPtx81 = 32764;
constexpr unsigned kPtxWithLargeParams = 81;

/// The bytes of .param space `kernel` takes: each parameter at its ABI
/// alignment, as NVPTX lays them out (a byval pointer passes the value).
uint64_t kernelParamBytes(LLVM::LLVMFuncOp kernel, const DataLayout &layout) {
  uint64_t bytes = 0;
  for (auto [index, type] :
       llvm::enumerate(kernel.getFunctionType().getParams())) {
    Type passed = type;
    if (auto byval = kernel.getArgAttrOfType<TypeAttr>(
            index, LLVM::LLVMDialect::getByValAttrName()))
      passed = byval.getValue();
    bytes = llvm::alignTo(bytes, layout.getTypeABIAlignment(passed)) +
            layout.getTypeSize(passed).getFixedValue();
  }
  return bytes;
}

/// The PTX version `features` selects (`+ptxNN`), if it names one.
std::optional<unsigned> ptxVersionOf(StringRef features) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    StringRef digits = part.trim();
    unsigned version;
    if (digits.consume_front("+ptx") && !digits.getAsInteger(10, version))
      return version;
  }
  return std::nullopt;
}

/// `features` selecting PTX `version` instead of the one it names.
std::string withPtxVersion(StringRef features, unsigned version) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string result = "+ptx" + std::to_string(version);
  for (StringRef part : parts)
    if (!part.trim().starts_with("+ptx"))
      result += "," + part.trim().str();
  return result;
}

/// Kernels whose parameters take more than the PTX version of the module's
/// NVVM targets allows: the module gets PTX 8.1 where that is enough (the
/// version stays the chip's own otherwise, so that older drivers still load
/// the PTX of every other kernel), and an error at the kernel where no
/// version is.
LogicalResult fitKernelParams(gpu::GPUModuleOp module) {
  DataLayout layout(module);
  uint64_t largest = 0;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) &&
        !func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
      continue;
    uint64_t bytes = kernelParamBytes(func, layout);
    if (bytes > kParamBytesFromPtx81)
      return func.emitError()
             << "the kernel's parameters take " << bytes
             << " bytes; PTX allows at most " << kParamBytesFromPtx81
             << " (pass large data through memory)";
    largest = std::max(largest, bytes);
  }
  if (largest <= kParamBytesBeforePtx81)
    return success();
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets)
    return success();
  SmallVector<Attribute> fitted(targets.begin(), targets.end());
  bool changed = false;
  for (Attribute &attr : fitted) {
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
    if (!target)
      continue;
    // Without a version named, LLVM takes the chip's lowest.
    std::optional<unsigned> version = ptxVersionOf(target.getFeatures());
    if (!version)
      if (std::optional<warp::Chip> chip = warp::Chip::parse(target.getChip()))
        version = chip->minPtxVersion();
    if (!version || *version >= kPtxWithLargeParams)
      continue;
    attr = NVVM::NVVMTargetAttr::get(
        target.getContext(), target.getO(), target.getTriple(),
        target.getChip(),
        withPtxVersion(target.getFeatures(), kPtxWithLargeParams),
        target.getFlags(), target.getLink(), target.getVerifyTarget());
    changed = true;
  }
  if (changed)
    module.setTargetsAttr(ArrayAttr::get(module.getContext(), fitted));
  return success();
}

struct WarpModuleToBinaryPass
    : public warp::impl::WarpModuleToBinaryPassBase<WarpModuleToBinaryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(top.getOps<gpu::GPUModuleOp>());
    if (modules.empty())
      return markAllAnalysesPreserved();

    // Before the threads start: it may change the modules' targets.
    bool paramsFit = true;
    for (gpu::GPUModuleOp module : modules)
      paramsFit &= succeeded(fitKernelParams(module));
    if (!paramsFit)
      return signalPassFailure();

    // Built before the threads start: a target may ask for the table that
    // holds the modules (upstream's pass builds it lazily, on one thread).
    SymbolTable table(top);
    gpu::TargetOptions options(
        /*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
        /*elfSection=*/{}, format, [&]() -> SymbolTable * { return &table; });

    // One module at a time on this thread where the context has no threads
    // (the C API's) or there is one module: an LLVM fatal error in one
    // module's code generation (NVPTX's "Cannot select") is then an error
    // at that module and the next module still compiles. On the context's
    // threads, diagnostics come in module order whatever thread reports
    // them; a fatal error there ends the process after printing it
    // (FatalErrors.h): recovering on one thread while others go on
    // generating code corrupted their stacks.
    MLIRContext *ctx = &getContext();
    SmallVector<Objects> results(modules.size());
    if (!ctx->isMultithreadingEnabled() || modules.size() == 1) {
      for (size_t i = 0; i < modules.size(); ++i)
        if (failed(warp::runRecoveringFromFatalErrors(
                modules[i], getArgument(), [&] {
                  results[i] = serialize(modules[i], options);
                  return success();
                })))
          results[i] = std::nullopt;
    } else {
      ParallelDiagnosticHandler diagnostics(ctx);
      parallelFor(ctx, 0, modules.size(), [&](size_t i) {
        diagnostics.setOrderIDForThread(i);
        warp::runReportingFatalErrorsAt(modules[i], getArgument(), [&] {
          results[i] = serialize(modules[i], options);
        });
        diagnostics.eraseOrderIDForThread();
      });
    }
    if (llvm::any_of(results, [](const Objects &r) { return !r; }))
      return signalPassFailure();

    OpBuilder builder(ctx);
    for (auto [module, objects] : llvm::zip_equal(modules, results)) {
      builder.setInsertionPointAfter(module);
      auto handler =
          dyn_cast_or_null<gpu::OffloadingLLVMTranslationAttrInterface>(
              module.getOffloadingHandlerAttr());
      gpu::BinaryOp::create(builder, module.getLoc(), module.getName(), handler,
                            builder.getArrayAttr(*objects));
      module->erase();
    }
  }
};

} // namespace
