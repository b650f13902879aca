//===- ReconcileTargets.cpp - one NVVM target per gpu.module --------------===//
//
// warp-reconcile-targets removes a gpu.module's own NVVM targets for the
// pipeline's chip before the pipeline attaches its own, and rejects one for
// another chip (the pass's description says why).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPRECONCILETARGETSPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

struct WarpReconcileTargetsPass
    : public warp::impl::WarpReconcileTargetsPassBase<
          WarpReconcileTargetsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (chip.empty())
      return;
    bool failed = false;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      ArrayAttr targets = module.getTargetsAttr();
      if (!targets)
        return;
      SmallVector<Attribute> kept;
      for (Attribute attr : targets) {
        auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
        if (!nvvm) {
          kept.push_back(attr);
          continue;
        }
        if (nvvm.getChip() != chip) {
          module.emitError() << "gpu.module @" << module.getName()
                             << " names the target " << attr
                             << ", but the pipeline compiles for chip="
                             << chip << ": remove its target or compile "
                             << "with chip=" << nvvm.getChip();
          failed = true;
        }
      }
      if (kept.size() == targets.size())
        return;
      if (kept.empty())
        module.removeTargetsAttr();
      else
        module.setTargetsAttr(ArrayAttr::get(module.getContext(), kept));
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
