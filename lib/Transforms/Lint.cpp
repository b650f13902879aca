//===- Lint.cpp - warnings about operand values of collectives ------------===//
//
// What the verifiers deliberately do not check: facts about the values other
// ops produce (constant masks, offsets, lane counts). Each is a warning, never
// an error: the program is legal CUDA, only undefined or useless.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "WarpDialect/Analysis/LaneSets.h"
#include "WarpDialect/IR/ShuffleRule.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPLINTPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// The member mask when it is known: all lanes without one.
std::optional<uint32_t> getConstantMask(MemberMaskOpInterface op) {
  if (!op.getMask())
    return ~uint32_t(0);
  if (std::optional<int64_t> mask = getConstantIntValue(op.getMask()))
    return uint32_t(*mask);
  return std::nullopt;
}

void lintShuffle(ShuffleOp op, uint32_t mask) {
  std::optional<int64_t> offset = getConstantIntValue(op.getOffset());
  std::optional<unsigned> width = op.getStaticWidth();
  // With a bound, which lane a lane reads depends on the bound.
  if (!offset || !width || op.getBound())
    return;
  uint32_t bits = uint32_t(*offset) & 31;
  bool pastSegment =
      (op.getMode() == ShuffleMode::Up || op.getMode() == ShuffleMode::Down) &&
      bits >= *width;
  if (pastSegment) {
    op.emitWarning() << "offset " << *offset << " leaves every segment of "
                     << *width << " lanes: each lane gets its own value back "
                     << "and valid = false";
    return;
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask & (1u << lane)))
      continue;
    ShuffleSource src = evaluateShuffle(op.getMode(), lane, bits, *width);
    if (!(mask & (1u << src.lane))) {
      op.emitWarning() << "lane " << lane << " reads lane " << src.lane
                       << ", which is outside member mask " << formatLanes(mask)
                       << ": it gets an undefined value";
      return;
    }
  }
}

/// A constant `valid_lanes` outside 1..32, whatever the mask.
void lintValidLanes(Operation *op, Value validLanes) {
  if (std::optional<int64_t> n = getConstantIntValue(validLanes);
      n && (*n < 1 || *n > int64_t(kWarpSize)))
    op->emitWarning() << "valid_lanes " << *n
                      << " is outside [1, 32]: the result is undefined";
}

void lintOp(MemberMaskOpInterface op) {
  if (auto reduce = dyn_cast<ReduceOp>(op.getOperation()))
    lintValidLanes(reduce, reduce.getValidLanes());
  if (auto scan = dyn_cast<ScanOp>(op.getOperation()))
    lintValidLanes(scan, scan.getValidLanes());
  std::optional<uint32_t> mask = getConstantMask(op);
  if (!mask)
    return;
  if (*mask == 0) {
    op->emitWarning("member mask is empty: no lane can execute this op (the "
                    "executing lane must be in the mask)");
    return;
  }
  TypeSwitch<Operation *>(op.getOperation())
      .Case([&](ShuffleOp shuffle) { lintShuffle(shuffle, *mask); })
      .Case([&](BroadcastOp broadcast) {
        std::optional<int64_t> lane = getConstantIntValue(broadcast.getLane());
        if (lane && !(*mask & (1u << (uint32_t(*lane) & 31))))
          broadcast.emitWarning()
              << "source lane " << *lane << " (lane " << (uint32_t(*lane) & 31)
              << ") is outside member mask " << formatLanes(*mask)
              << ": every lane gets an undefined value";
      })
      .Case([&](ReduceOp reduce) {
        std::optional<ReduceStrategy> strategy = reduce.getStrategy();
        if (reduce.getValidLanes() || !strategy ||
            *strategy == ReduceStrategy::Redux)
          return;
        if (auto split = findSplitCluster(*mask, reduce.getClusterSize(),
                                          reduce.getClusterStride()))
          reduce.emitWarning()
              << "member mask " << formatLanes(*mask)
              << " splits a cluster (lane " << split->first
              << " is in it but lane " << split->second
              << " is not): the forced '" << stringifyReduceStrategy(*strategy)
              << "' strategy reads that lane, an undefined value";
      })
      .Case([&](ScanOp scan) {
        if (scan.getValidLanes())
          return;
        if (auto split = findSplitCluster(*mask, scan.getWidth(), 1))
          scan.emitWarning()
              << "member mask " << formatLanes(*mask)
              << " splits a segment (lane " << split->first
              << " is in it but lane " << split->second
              << " is not): the scan reads that lane, an undefined value";
      });
}

struct WarpLintPass : public warp::impl::WarpLintPassBase<WarpLintPass> {
  void runOnOperation() override {
    getOperation()->walk([](MemberMaskOpInterface op) { lintOp(op); });
    // The lanes that reach each collective against its mask, as warnings.
    (void)checkConvergence(getOperation(), /*asWarnings=*/true,
                           /*wholeWarps=*/false);
    markAllAnalysesPreserved();
  }
};

} // namespace
