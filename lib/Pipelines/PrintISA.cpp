//===- PrintISA.cpp - write the PTX held by gpu.binary ops ----------------===//
//
// `gpu-module-to-binary format=isa` stores PTX as an escaped string inside
// `gpu.binary`; users want the PTX itself, on stdout or in a file.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace {
struct PrintISAPass
    : public PassWrapper<PrintISAPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrintISAPass)

  PrintISAPass() = default;
  PrintISAPass(const PrintISAPass &other) : PassWrapper(other) {}
  explicit PrintISAPass(std::string path) { output = std::move(path); }

  StringRef getArgument() const final { return "warp-print-isa"; }
  StringRef getDescription() const final {
    return "Write the PTX text of every gpu.binary (format=isa) to a file or "
           "stdout";
  }

  void runOnOperation() final {
    std::string text;
    WalkResult walk = getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        if (!object)
          continue;
        if (object.getFormat() != gpu::CompilationTarget::Assembly) {
          binary.emitError("warp-print-isa needs PTX objects: lower with "
                           "format=isa");
          return WalkResult::interrupt();
        }
        text += "// gpu.binary @" + binary.getSymName().str() + "\n";
        text += object.getObject().getValue().str();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output.getValue(), &error);
    if (!file) {
      getOperation().emitError("cannot open PTX output '")
          << output.getValue() << "': " << error;
      return signalPassFailure();
    }
    file->os() << text;
    file->keep();
  }

  Option<std::string> output{*this, "output",
                             llvm::cl::desc("File to write ('-': stdout)"),
                             llvm::cl::init("-")};
};
} // namespace

namespace mlir::warp {
std::unique_ptr<Pass> createPrintISAPass(std::string output) {
  return std::make_unique<PrintISAPass>(std::move(output));
}
void registerPrintISAPass() { PassRegistration<PrintISAPass>(); }
} // namespace mlir::warp
