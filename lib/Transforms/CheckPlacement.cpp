//===- CheckPlacement.cpp - warp ops belong in device code ----------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPCHECKPLACEMENTPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {
struct WarpCheckPlacementPass
    : public warp::impl::WarpCheckPlacementPassBase<WarpCheckPlacementPass> {
  void runOnOperation() override {
    bool misplaced = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<warp::WarpDialect>(op->getDialect()) ||
          op->getParentOfType<gpu::GPUModuleOp>())
        return;
      op->emitOpError("runs on the GPU but is in host code: put it in a "
                      "gpu.module function or a gpu.launch body");
      misplaced = true;
    });
    if (misplaced)
      signalPassFailure();
  }
};
} // namespace
