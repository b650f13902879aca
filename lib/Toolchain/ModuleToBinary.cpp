//===- ModuleToBinary.cpp - gpu.modules to gpu.binary, in parallel --------===//
//
// Serializes each gpu.module through its target attributes (the
// gpu::TargetAttrInterface that NVVM's target implements), the modules on
// the context's threads. Serialization only reads the IR (each module gets
// an LLVM context of its own), so it runs in parallel; building the
// gpu.binary ops and erasing the modules happens afterwards on this thread.
// PTX text for NVVM targets comes from PTXSerializer below; other formats
// and targets from the target's own serializer.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "WarpDialect/Toolchain/FatalErrors.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPMODULETOBINARYPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// An NVVM target's gpu.module to PTX text: upstream's NVVM serializer for
/// the assembly format (translate, link, optimize at the target's level,
/// NVPTX code generation), except that the bitcode libraries (libdevice,
/// the target's `link` files) are read only for a module that declares a
/// function or global another module could define. Upstream reads
/// libdevice's bitcode for every module, though linking only what is needed
/// adds nothing to a module that declares nothing; most warp kernels call no
/// library, so the read was a fixed cost of every compile.
class PTXSerializer : public NVVM::SerializeGPUModuleBase {
public:
  using SerializeGPUModuleBase::SerializeGPUModuleBase;

  std::optional<SmallVector<std::unique_ptr<llvm::Module>>>
  loadBitcodeFiles(llvm::Module &module) override {
    if (!declaresExternals(module))
      return SmallVector<std::unique_ptr<llvm::Module>>();
    return SerializeGPUModuleBase::loadBitcodeFiles(module);
  }

  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &module) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine)) {
      getOperation().emitError()
          << "no LLVM target machine for " << triple << " (" << chip << ")";
      return failure();
    }
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        module, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    if (isaCallback)
      isaCallback(*ptx);
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }

  /// The data layout of the target machine that generates the code.
  FailureOr<std::string> dataLayout() {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return failure();
    return (*machine)->createDataLayout().getStringRepresentation();
  }

private:
  /// Whether linking a library could add anything to `module`: a function
  /// declared but not defined (intrinsics aside) or an external global.
  static bool declaresExternals(const llvm::Module &module) {
    for (const llvm::Function &function : module)
      if (function.isDeclaration() && !function.isIntrinsic())
        return true;
    for (const llvm::GlobalVariable &global : module.globals())
      if (global.isDeclaration())
        return true;
    return false;
  }
};

/// `module`'s object for `target`.
std::optional<SmallVector<char, 0>>
serializeFor(gpu::GPUModuleOp module, gpu::TargetAttrInterface target,
             const gpu::TargetOptions &options) {
  auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
  if (!nvvm ||
      options.getCompilationTarget() != gpu::CompilationTarget::Assembly)
    return target.serializeToObject(module, options);
  PTXSerializer serializer(*module, nvvm, options);
  PTXSerializer::init();
  return serializer.run();
}

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
        serializeFor(module, target, options);
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

/// Gives each gpu.module with an NVVM target and no data layout of its own
/// the one its code is generated for (`llvm.data_layout`). The translation
/// to LLVM IR aligns a load or store that states no alignment as the
/// module's layout aligns its type at that point, which without one is
/// LLVM's default, i64 aligned to 4 bytes: NVPTX then splits every i64
/// access into two 32-bit ones (the target's own layout, set only after
/// the translation, aligns i64 to 8).
LogicalResult setDataLayouts(ArrayRef<gpu::GPUModuleOp> modules,
                             const gpu::TargetOptions &options) {
  StringRef name = LLVM::LLVMDialect::getDataLayoutAttrName();
  llvm::StringMap<std::string> layouts; // by triple, chip and features
  for (gpu::GPUModuleOp module : modules) {
    if (module->hasAttr(name) || !module.getTargetsAttr())
      continue;
    auto nvvm = llvm::find_if(module.getTargetsAttr(),
                              llvm::IsaPred<NVVM::NVVMTargetAttr>);
    if (nvvm == module.getTargetsAttr().end())
      continue;
    auto target = cast<NVVM::NVVMTargetAttr>(*nvvm);
    std::string key = (target.getTriple() + "/" + target.getChip() + "/" +
                       target.getFeatures())
                          .str();
    auto [it, added] = layouts.try_emplace(key);
    if (added) {
      PTXSerializer::init();
      PTXSerializer serializer(*module, target, options);
      FailureOr<std::string> layout = serializer.dataLayout();
      if (failed(layout))
        return module.emitError() << "no LLVM target machine for " << target;
      it->second = *layout;
    }
    module->setAttr(name, StringAttr::get(module.getContext(), it->second));
  }
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

    // Built before the threads start: a target may ask for the table that
    // holds the modules (upstream's pass builds it lazily, on one thread).
    SymbolTable table(top);
    gpu::TargetOptions options(
        /*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
        /*elfSection=*/{}, format, [&]() -> SymbolTable * { return &table; });
    if (failed(setDataLayouts(modules, options)))
      return signalPassFailure();

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
