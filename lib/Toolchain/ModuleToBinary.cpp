//===- ModuleToBinary.cpp - gpu.modules to gpu.binary, in parallel --------===//
//
// Serializes each gpu.module through its target attributes (the
// gpu::TargetAttrInterface that NVVM's target implements), the modules on
// the context's threads. Serialization only reads the IR (each module gets
// an LLVM context of its own), so it runs in parallel; building the
// gpu.binary ops and erasing the modules happens afterwards on this thread.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "WarpDialect/Toolchain/FatalErrors.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPMODULETOBINARYPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
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

struct WarpModuleToBinaryPass
    : public warp::impl::WarpModuleToBinaryPassBase<WarpModuleToBinaryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(top.getOps<gpu::GPUModuleOp>());
    if (modules.empty())
      return markAllAnalysesPreserved();

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
