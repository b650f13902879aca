//===- GPUToWarp.cpp - upstream gpu subgroup ops to warp ops --------------===//
//
// The adoption path: a frontend that emits upstream `gpu` subgroup ops adds
// `convert-gpu-to-warp` and gets the warp lowering, which handles widths below 32,
// `up` shuffles, subgroup reductions and broadcasts that upstream's NVVM
// lowering gets wrong or rejects.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::warp {
#define GEN_PASS_DEF_CONVERTGPUTOWARPPASS
#include "WarpDialect/Conversion/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

ShuffleMode toWarpShuffleMode(gpu::ShuffleMode mode) {
  switch (mode) {
  case gpu::ShuffleMode::XOR:
    return ShuffleMode::Xor;
  case gpu::ShuffleMode::UP:
    return ShuffleMode::Up;
  case gpu::ShuffleMode::DOWN:
    return ShuffleMode::Down;
  case gpu::ShuffleMode::IDX:
    return ShuffleMode::Idx;
  }
  llvm_unreachable("unknown gpu shuffle mode");
}

CombineKind toWarpCombineKind(gpu::AllReduceOperation op) {
  switch (op) {
  case gpu::AllReduceOperation::ADD:
    return CombineKind::Add;
  case gpu::AllReduceOperation::MUL:
    return CombineKind::Mul;
  case gpu::AllReduceOperation::MINUI:
    return CombineKind::MinUI;
  case gpu::AllReduceOperation::MINSI:
    return CombineKind::MinSI;
  case gpu::AllReduceOperation::MINNUMF:
    return CombineKind::MinNumF;
  case gpu::AllReduceOperation::MAXUI:
    return CombineKind::MaxUI;
  case gpu::AllReduceOperation::MAXSI:
    return CombineKind::MaxSI;
  case gpu::AllReduceOperation::MAXNUMF:
    return CombineKind::MaxNumF;
  case gpu::AllReduceOperation::AND:
    return CombineKind::And;
  case gpu::AllReduceOperation::OR:
    return CombineKind::Or;
  case gpu::AllReduceOperation::XOR:
    return CombineKind::Xor;
  case gpu::AllReduceOperation::MINIMUMF:
    return CombineKind::MinimumF;
  case gpu::AllReduceOperation::MAXIMUMF:
    return CombineKind::MaximumF;
  }
  llvm_unreachable("unknown gpu reduction");
}

/// Whether warp ops can carry `type` (the dialect's payload constraint).
bool isWarpPayload(Type type) {
  auto isScalar = [](Type t) {
    if (t.isIndex() || t.isF16() || t.isBF16() || t.isF32() || t.isF64())
      return true;
    auto intType = dyn_cast<IntegerType>(t);
    return intType && intType.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
  };
  if (auto vectorType = dyn_cast<VectorType>(type))
    return vectorType.getRank() == 1 && !vectorType.isScalable() &&
           isScalar(vectorType.getElementType());
  return isScalar(type);
}

/// gpu.shuffle with a power-of-two width, constant or computed at run time.
/// For the lanes upstream defines (lane < width) CUDA's segment rule reads
/// the same source and gives the same valid bit; the other lanes get CUDA's
/// defined values instead of unspecified ones. A run-time width that is not
/// a power of two is undefined, as in CUDA; a constant one is left to
/// upstream's lowering, which defines it ("the first w lanes").
struct ShuffleToWarp : public OpRewritePattern<gpu::ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getValue().getType();
    if (!isWarpPayload(type))
      return rewriter.notifyMatchFailure(op, "payload type");
    ShuffleMode mode = toWarpShuffleMode(op.getMode());
    Location loc = op.getLoc();
    APInt width;
    ShuffleOp shuffle;
    if (matchPattern(op.getWidth(), m_ConstantInt(&width))) {
      uint64_t w = width.getZExtValue();
      if (w == 0 || w > kWarpSize || !llvm::isPowerOf2_64(w))
        return rewriter.notifyMatchFailure(op, "width is not a power of two");
      shuffle = ShuffleOp::create(rewriter, loc, mode, op.getValue(),
                                  op.getOffset(), unsigned(w),
                                  /*mask=*/Value());
    } else {
      shuffle = ShuffleOp::create(
          rewriter, loc, type, rewriter.getI1Type(), mode, op.getValue(),
          op.getOffset(), kWarpSize, op.getWidth(), /*bound=*/Value(),
          /*mask=*/Value());
    }
    rewriter.replaceOp(op, shuffle->getResults());
    return success();
  }
};

struct SubgroupReduceToWarp : public OpRewritePattern<gpu::SubgroupReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::SubgroupReduceOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getValue().getType();
    if (!isWarpPayload(type) || isa<IndexType>(getElementTypeOrSelf(type)))
      return rewriter.notifyMatchFailure(op, "payload type");
    unsigned size = op.getClusterSize().value_or(kWarpSize);
    unsigned stride = op.getClusterStride();
    if (size * stride > kWarpSize)
      return rewriter.notifyMatchFailure(op, "cluster wider than a warp");
    auto reduce = rewriter.replaceOpWithNewOp<ReduceOp>(
        op, toWarpCombineKind(op.getOp()), op.getValue());
    reduce.setClusterSize(size);
    reduce.setClusterStride(stride);
    return success();
  }
};

struct SubgroupBroadcastToWarp
    : public OpRewritePattern<gpu::SubgroupBroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::SubgroupBroadcastOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getSrc().getType();
    if (!isWarpPayload(type))
      return rewriter.notifyMatchFailure(op, "payload type");
    if (op.getBroadcastType() == gpu::BroadcastType::first_active_lane) {
      rewriter.replaceOpWithNewOp<BroadcastFirstOp>(op, type, op.getSrc(),
                                                    Value());
      return success();
    }
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, type, op.getSrc(),
                                             op.getLane(), Value());
    return success();
  }
};

/// The kind of a reduction region that yields one arith op of its two
/// arguments (in either order: every kind is commutative), as frontends
/// write `gpu.all_reduce %x { ^bb(%a, %b): %r = arith.maxsi %a, %b ... }`.
std::optional<CombineKind> matchSingleOpRegion(Region &region) {
  if (!region.hasOneBlock())
    return std::nullopt;
  Block &body = region.front();
  if (body.getNumArguments() != 2 || !llvm::hasNItems(body, 2))
    return std::nullopt;
  Operation &op = body.front();
  Operation *yield = body.getTerminator();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      yield->getNumOperands() != 1 || yield->getOperand(0) != op.getResult(0))
    return std::nullopt;
  Value a = body.getArgument(0), b = body.getArgument(1);
  if (!((op.getOperand(0) == a && op.getOperand(1) == b) ||
        (op.getOperand(0) == b && op.getOperand(1) == a)))
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<CombineKind>>(&op)
      .Case<arith::AddIOp, arith::AddFOp>([](auto) { return CombineKind::Add; })
      .Case<arith::MulIOp, arith::MulFOp>([](auto) { return CombineKind::Mul; })
      .Case<arith::MinSIOp>([](auto) { return CombineKind::MinSI; })
      .Case<arith::MaxSIOp>([](auto) { return CombineKind::MaxSI; })
      .Case<arith::MinUIOp>([](auto) { return CombineKind::MinUI; })
      .Case<arith::MaxUIOp>([](auto) { return CombineKind::MaxUI; })
      .Case<arith::MinNumFOp>([](auto) { return CombineKind::MinNumF; })
      .Case<arith::MaxNumFOp>([](auto) { return CombineKind::MaxNumF; })
      .Case<arith::MinimumFOp>([](auto) { return CombineKind::MinimumF; })
      .Case<arith::MaximumFOp>([](auto) { return CombineKind::MaximumF; })
      .Case<arith::AndIOp>([](auto) { return CombineKind::And; })
      .Case<arith::OrIOp>([](auto) { return CombineKind::Or; })
      .Case<arith::XOrIOp>([](auto) { return CombineKind::Xor; })
      .Default([](Operation *) { return std::nullopt; });
}

/// A uniform gpu.all_reduce: a block reduce. A named operation, or a region
/// that is one of them, becomes its combine kind; any other one-block region
/// becomes the block reduce's combiner region (gpu.yield -> warp.yield), not
/// declared commutative, so it is applied in the fixed order block_reduce
/// documents. (A region of several blocks stays with upstream's lowering;
/// without `uniform` the op may run in divergent code, where no block-wide
/// barrier may stand, and neither lowering takes it.)
struct AllReduceToWarp : public OpRewritePattern<gpu::AllReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getUniform())
      return rewriter.notifyMatchFailure(op, "not uniform");
    Type type = op.getValue().getType();
    if (!isWarpPayload(type))
      return rewriter.notifyMatchFailure(op, "payload type");
    std::optional<CombineKind> kind;
    if (std::optional<gpu::AllReduceOperation> named = op.getOp())
      kind = toWarpCombineKind(*named);
    else
      kind = matchSingleOpRegion(op.getBody());
    if (kind) {
      rewriter.replaceOpWithNewOp<BlockReduceOp>(op, *kind, op.getValue());
      return success();
    }
    Region &body = op.getBody();
    if (!body.hasOneBlock())
      return rewriter.notifyMatchFailure(op, "reduction region of several blocks");
    auto reduce = BlockReduceOp::create(
        rewriter, op.getLoc(), TypeRange{type}, CombineKindAttr(),
        ValueRange{op.getValue()}, /*commutative=*/false,
        BlockReduceAlgorithmAttr());
    rewriter.inlineRegionBefore(body, reduce.getCombiner(),
                                reduce.getCombiner().end());
    Operation *yield = reduce.getCombiner().front().getTerminator();
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, yield->getOperands());
    rewriter.replaceOp(op, reduce.getResults());
    return success();
  }
};

struct LaneIdToWarp : public OpRewritePattern<gpu::LaneIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::LaneIdOp op,
                                PatternRewriter &rewriter) const override {
    Value lane = LaneIdOp::create(rewriter, op.getLoc(), rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(op, op.getType(), lane);
    return success();
  }
};

struct ConvertGPUToWarpPass
    : public warp::impl::ConvertGPUToWarpPassBase<ConvertGPUToWarpPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGPUToWarpPatterns(patterns);
    bool changed = false;
    if (failed(applyPatternsGreedily(
            getOperation(), std::move(patterns),
            GreedyRewriteConfig().setRegionSimplificationLevel(
                GreedySimplifyRegionLevel::Normal),
            &changed)))
      return signalPassFailure();
    // Programs written with warp ops have nothing to rewrite here; their IR
    // need not be verified again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace

void mlir::warp::populateGPUToWarpPatterns(RewritePatternSet &patterns) {
  patterns.add<ShuffleToWarp, SubgroupReduceToWarp, SubgroupBroadcastToWarp,
               AllReduceToWarp, LaneIdToWarp>(patterns.getContext());
}
