//===- PrintISA.cpp - write the PTX held by gpu.binary ops ----------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPPRINTISAPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {
struct WarpPrintISAPass
    : public warp::impl::WarpPrintISAPassBase<WarpPrintISAPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string text;
    WalkResult walk = getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
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
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      getOperation().emitError("cannot open PTX output '")
          << output << "': " << error;
      return signalPassFailure();
    }
    file->os() << text;
    file->keep();
  }
};
} // namespace
