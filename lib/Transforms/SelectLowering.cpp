//===- SelectLowering.cpp - decide how each collective lowers -------------===//
//
// warp-select-lowering (Passes.td): the decisions of LoweringPolicy.h,
// written on the ops of one gpu.module for the chip of its #nvvm.target.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/LoweringPolicy.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPSELECTLOWERINGPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// The chip of `module`'s #nvvm.target, or failure with a located error.
FailureOr<Chip> getTargetChip(gpu::GPUModuleOp module) {
  std::optional<Chip> chip;
  for (Attribute target : module.getTargetsAttr()
                              ? module.getTargetsAttr().getValue()
                              : ArrayRef<Attribute>()) {
    auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
    if (!nvvm)
      continue;
    std::optional<Chip> parsed = Chip::parse(nvvm.getChip());
    if (!parsed)
      return module.emitError(Chip::unknownChipMessage(nvvm.getChip()));
    if (chip && chip->str() != parsed->str())
      return module.emitError()
             << "warp-select-lowering decides for one chip, but the "
                "gpu.module targets both "
             << chip->str() << " and " << parsed->str();
    chip = parsed;
  }
  if (!chip)
    return module.emitError(
        "warp-select-lowering needs an #nvvm.target on the gpu.module "
        "(gpu-nvvm-attach-target) to know the chip");
  return *chip;
}

struct WarpSelectLoweringPass
    : public warp::impl::WarpSelectLoweringPassBase<WarpSelectLoweringPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    FailureOr<Chip> chip = getTargetChip(module);
    if (failed(chip))
      return signalPassFailure();
    ExpandCollectivesOptions options{*chip, getForcedStrategy(strategy),
                                     scanSteps};
    MLIRContext *ctx = module.getContext();
    WalkResult walk = module.walk([&](Operation *op) {
      // A decision already on the op (an earlier run's, or one a test
      // pins) stands; the expansion checks it.
      if (isa<ScanOp, ReduceOp>(op) && op->hasAttr(kLoweringAttrName))
        return WalkResult::advance();
      auto write = [&](StringRef decision) {
        op->setAttr(kLoweringAttrName, StringAttr::get(ctx, decision));
      };
      if (auto scan = dyn_cast<ScanOp>(op)) {
        write(stringifyScanStepForms(decideScanStepForms(
            scan.getKind(), scan.getValues(), options.scanSteps)));
      } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
        if (reduce.getSegmentFlags()) {
          write(stringifyScanStepForms(decideScanStepForms(
              reduce.getKind(), reduce.getValues(), options.scanSteps)));
          return WalkResult::advance();
        }
        FailureOr<ReduceLowering> lowering =
            decideReduceLowering(reduce, options, /*emitErrors=*/true);
        if (failed(lowering))
          return WalkResult::interrupt();
        write(stringifyReduceLowering(*lowering));
      } else if (auto blockScan = dyn_cast<BlockScanOp>(op)) {
        blockScan.setAlgorithm(decideBlockScanAlgorithm(blockScan));
      } else if (auto blockReduce = dyn_cast<BlockReduceOp>(op)) {
        blockReduce.setAlgorithm(decideBlockReduceAlgorithm(blockReduce));
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
