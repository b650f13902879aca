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

/// A block or warp load's or store's algorithm, where there is a choice
/// (striped items have one).
template <typename Op>
void selectTileAlgorithm(Op op) {
  if (!op.isStripedArrangement())
    op.setAlgorithm(decideBlockMemoryAlgorithm(op));
}

struct WarpSelectLoweringPass
    : public warp::impl::WarpSelectLoweringPassBase<WarpSelectLoweringPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // Deciding needs the chip named in the IR: no default here.
    FailureOr<std::optional<Chip>> chip = getTargetChip(module);
    if (failed(chip))
      return signalPassFailure();
    if (!*chip) {
      module.emitError("warp-select-lowering needs an #nvvm.target on the "
                       "gpu.module (gpu-nvvm-attach-target) to know the chip");
      return signalPassFailure();
    }
    ExpandCollectivesOptions options{**chip, getForcedStrategy(strategy),
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
        if (reduce.isSegmented()) {
          write(stringifyScanStepForms(decideScanStepForms(
              reduce.getKind(), reduce.getValues(), options.scanSteps)));
          return WalkResult::advance();
        }
        FailureOr<ReduceLowering> lowering =
            decideReduceLowering(reduce, options, /*emitErrors=*/true);
        if (failed(lowering))
          return WalkResult::interrupt();
        write(stringifyReduceLowering(*lowering));
      } else if (auto exchange = dyn_cast<ExchangeOp>(op)) {
        if (exchange.getItemsPerLane() == 1 || exchange.getStrategy())
          return WalkResult::advance();
        FailureOr<ExchangeStrategy> strategy =
            decideExchangeStrategy(exchange, module, **chip);
        if (failed(strategy))
          return WalkResult::interrupt();
        exchange.setStrategy(*strategy);
      } else if (auto blockScan = dyn_cast<BlockScanOp>(op)) {
        blockScan.setAlgorithm(decideBlockScanAlgorithm(blockScan));
      } else if (auto blockReduce = dyn_cast<BlockReduceOp>(op)) {
        blockReduce.setAlgorithm(decideBlockReduceAlgorithm(blockReduce));
      } else if (auto load = dyn_cast<BlockLoadOp>(op)) {
        selectTileAlgorithm(load);
      } else if (auto store = dyn_cast<BlockStoreOp>(op)) {
        selectTileAlgorithm(store);
      } else if (auto load = dyn_cast<LoadOp>(op)) {
        selectTileAlgorithm(load);
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        selectTileAlgorithm(store);
      } else if (auto histogram = dyn_cast<BlockHistogramOp>(op)) {
        histogram.setAlgorithm(decideBlockHistogramAlgorithm(histogram));
      } else if (auto sort = dyn_cast<BlockRadixSortOp>(op)) {
        sort.setRadixBits(decideRadixSortBits(sort));
        sort.setRanking(getRadixSortLayout(sort, *sort.getRadixBits()).algorithm);
      } else if (auto rank = dyn_cast<BlockRadixRankOp>(op)) {
        rank.setRanking(getRadixRankLayout(rank).algorithm);
      } else if (auto match = dyn_cast<MatchAnyOp>(op)) {
        // A radix digit's or bucket's mask: its bits may take ballots.
        if (!match.getStrategy()) {
          match.foldLowBitMask();
          match.setStrategy(match.getStrategyOrDefault());
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
