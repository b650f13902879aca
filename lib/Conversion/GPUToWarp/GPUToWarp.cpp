//===- GPUToWarp.cpp - upstream gpu subgroup ops to warp ops --------------===//
//
// The adoption path: a frontend that emits upstream `gpu` subgroup ops adds
// `convert-gpu-to-warp` and gets the warp lowering, which handles widths below 32,
// `up` shuffles, subgroup reductions and broadcasts that upstream's NVVM
// lowering gets wrong or rejects.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Conversion/Passes.h"
#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/IR/PlantedBugs.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/RewriteDriver.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// The old import, kept only for the planted bug GpuShuffleWidthAsSegment:
/// gpu.shuffle's width read as CUDA's segment width (a power of two), which
/// gives other lanes and valid bits than upstream's meaning for any other
/// width (a run-time width of 13, say).
LogicalResult importShuffleAsSegments(gpu::ShuffleOp op,
                                      PatternRewriter &rewriter) {
  ShuffleMode mode = toWarpShuffleMode(op.getMode());
  Location loc = op.getLoc();
  Type type = op.getValue().getType();
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
    shuffle = ShuffleOp::create(rewriter, loc, type, rewriter.getI1Type(), mode,
                                op.getValue(), op.getOffset(), kWarpSize,
                                op.getWidth(), /*bound=*/Value(),
                                /*mask=*/Value());
  }
  rewriter.replaceOp(op, shuffle->getResults());
  return success();
}

/// gpu.shuffle keeps upstream's meaning of `width` for every width 1..32,
/// constant or computed at run time: `width` is the number of participating
/// lanes, lanes 0..width-1, with no segments. With `o` the low 5 bits of the
/// offset (what upstream's NVVM lowering hands to PTX), lane `l < width`
/// reads lane `l ^ o` (xor), `l + o` (down), `l - o` (up) or `o` (idx); the
/// read is valid iff that lane is in 0..width-1, and an invalid lane gets its
/// own value with `valid = false` (as PTX, and upstream's lowering, give it).
/// The member mask is lanes 0..width-1, as in upstream's lowering, so the
/// lanes at and past `width` need not be active; they must not execute the
/// shuffle (a lane outside its member mask is undefined in PTX).
///
///  * A constant power-of-two width: up, down and xor are CUDA's segment
///    shuffle of that width, whose first segment is exactly those lanes (one
///    `shfl.sync`, as before, now with the member mask).
///  * idx with a constant offset and width: the shuffle when the source lane
///    is below the width (valid), else the lane's own value (not valid).
///  * up: the whole warp, which reads only lanes below the executing one.
///  * down: the whole warp with clamp lane `width - 1` (warp.shuffle's
///    `bound`): PTX's own valid bit.
///  * xor and idx otherwise: `valid = source < width`, and an idx shuffle of
///    the whole warp from `valid ? source : lane`, so that no lane reads a
///    lane outside the member mask (an undefined value) and an invalid lane
///    reads its own value.
struct ShuffleToWarp : public OpRewritePattern<gpu::ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getValue().getType();
    if (!isWarpPayload(type))
      return rewriter.notifyMatchFailure(op, "payload type");
    if (isBugPlanted(PlantedBug::GpuShuffleWidthAsSegment))
      return importShuffleAsSegments(op, rewriter);
    ShuffleMode mode = toWarpShuffleMode(op.getMode());
    Location loc = op.getLoc();
    Value value = op.getValue(), offset = op.getOffset(), width = op.getWidth();
    Type i32 = rewriter.getI32Type();
    auto constantI32 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, i32, v);
    };

    std::optional<uint64_t> staticWidth;
    APInt widthValue;
    if (matchPattern(width, m_ConstantInt(&widthValue))) {
      int64_t w = widthValue.getSExtValue();
      if (w < 1 || w > int64_t(kWarpSize))
        return rewriter.notifyMatchFailure(op, "width outside 1..32");
      staticWidth = uint64_t(w);
    }
    std::optional<uint64_t> staticOffset;
    APInt offsetValue;
    if (matchPattern(offset, m_ConstantInt(&offsetValue)))
      staticOffset = offsetValue.getZExtValue() & (kWarpSize - 1);

    // Lanes 0..width-1; none for the whole warp (the default mask).
    Value mask;
    if (staticWidth) {
      if (*staticWidth < kWarpSize)
        mask = constantI32((int64_t(1) << *staticWidth) - 1);
    } else {
      mask = arith::ShRUIOp::create(
          rewriter, loc, constantI32(-1),
          arith::SubIOp::create(rewriter, loc, constantI32(kWarpSize), width));
    }

    // A shuffle that gives upstream's value and valid bit by itself.
    auto replaceWith = [&](ShuffleOp shuffle) {
      rewriter.replaceOp(op, shuffle->getResults());
      return success();
    };
    if (staticWidth && llvm::isPowerOf2_64(*staticWidth) &&
        mode != ShuffleMode::Idx)
      return replaceWith(ShuffleOp::create(rewriter, loc, mode, value, offset,
                                           unsigned(*staticWidth), mask));
    if (staticWidth && staticOffset && mode == ShuffleMode::Idx) {
      if (*staticOffset >= *staticWidth) {
        rewriter.replaceOp(
            op, {value, arith::ConstantIntOp::create(rewriter, loc,
                                                     rewriter.getI1Type(), 0)});
        return success();
      }
      unsigned segment = llvm::isPowerOf2_64(*staticWidth)
                             ? unsigned(*staticWidth)
                             : kWarpSize;
      return replaceWith(
          ShuffleOp::create(rewriter, loc, mode, value, offset, segment, mask));
    }
    if (mode == ShuffleMode::Up)
      return replaceWith(ShuffleOp::create(rewriter, loc, mode, value, offset,
                                           kWarpSize, mask));
    if (mode == ShuffleMode::Down) {
      Value bound = staticWidth ? constantI32(int64_t(*staticWidth) - 1)
                                : arith::SubIOp::create(rewriter, loc, width,
                                                        constantI32(1));
      return replaceWith(
          ShuffleOp::create(rewriter, loc, mode, value, offset, bound, mask));
    }

    // xor and idx: the source lane against the width; an invalid lane reads
    // itself.
    Value lane = LaneIdOp::create(rewriter, loc, i32);
    Value source = staticOffset
                       ? constantI32(*staticOffset)
                       : arith::AndIOp::create(rewriter, loc, offset,
                                               constantI32(kWarpSize - 1))
                             .getResult();
    if (mode == ShuffleMode::Xor)
      source = arith::XOrIOp::create(rewriter, loc, lane, source);
    Value valid = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, source, width);
    Value readLane =
        arith::SelectOp::create(rewriter, loc, valid, source, lane);
    auto shuffle = ShuffleOp::create(rewriter, loc, ShuffleMode::Idx, value,
                                     readLane, kWarpSize, mask);
    rewriter.replaceOp(op, {shuffle.getResult(), valid});
    return success();
  }
};

/// Whether every thread of the block executes `op`: it stands in the one
/// block of a kernel's body (structured control flow around it, if any,
/// has rejoined), not in a region of another op or a function that a
/// branch may call.
bool runsInEveryThread(Operation *op) {
  auto func = dyn_cast<gpu::GPUFuncOp>(op->getParentOp());
  return func && func.isKernel() && func.getBody().hasOneBlock();
}

/// Whether every thread of the block holds the same `value`: a constant,
/// an argument of a kernel, a block's, grid's or cluster's id or size, or
/// arithmetic of such values (a few levels deep; `false` past them).
bool isBlockUniform(Value value, unsigned depth = 0) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<gpu::GPUFuncOp>(argument.getOwner()->getParentOp());
    return func && func.isKernel() && argument.getOwner()->isEntryBlock();
  }
  Operation *def = value.getDefiningOp();
  if (matchPattern(value, m_Constant()) ||
      isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp, gpu::ClusterIdOp,
          gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp>(
          def))
    return true;
  constexpr unsigned kMaxDepth = 8;
  return depth < kMaxDepth && isa<arith::ArithDialect>(def->getDialect()) &&
         isPure(def) && llvm::all_of(def->getOperands(), [&](Value operand) {
           return isBlockUniform(operand, depth + 1);
         });
}

/// The lanes of the warp that execute `op` together where structured
/// control flow says which, built before `op`: in a kernel's body, the
/// warp's existing lanes (counted from the thread's number); in an arm of
/// an scf.if that stands in such a place (or in such an arm, and so on),
/// the lanes that execute the if whose condition takes that arm (their
/// ballot of it, before the if); in the body of an scf.for whose bounds
/// and step every thread shares (isBlockUniform) that stands in such a
/// place, the lanes that execute the loop (each runs every iteration).
/// Null elsewhere (loops with bounds that may differ between threads,
/// other regions, functions a branch may call).
Value buildStructuredLanes(PatternRewriter &rewriter, Operation *op) {
  Location loc = op->getLoc();
  if (runsInEveryThread(op)) {
    std::optional<int64_t> threads = getKnownBlockThreads(op);
    if (threads && *threads % kWarpSize == 0)
      return arith::ConstantIntOp::create(rewriter, loc, -1, 32);
    auto [thread, count] = buildBlockThreadAndCount(rewriter, loc, op);
    return buildWarpLiveLanes(rewriter, loc, thread, count).second;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op->getParentOp())) {
    if (!isBlockUniform(loop.getLowerBound()) ||
        !isBlockUniform(loop.getUpperBound()) ||
        !isBlockUniform(loop.getStep()))
      return Value();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop);
    return buildStructuredLanes(rewriter, loop);
  }
  auto branch = dyn_cast<scf::IfOp>(op->getParentOp());
  if (!branch)
    return Value();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(branch);
  Value lanes = buildStructuredLanes(rewriter, branch);
  if (!lanes)
    return Value();
  Value taken = BallotOp::create(rewriter, loc, rewriter.getI32Type(),
                                 branch.getCondition(), lanes);
  if (op->getParentRegion() == &branch.getThenRegion())
    return taken;
  Value notTaken = arith::XOrIOp::create(
      rewriter, loc, taken, arith::ConstantIntOp::create(rewriter, loc, -1, 32));
  return arith::AndIOp::create(rewriter, loc, lanes, notTaken);
}

/// The member mask of an imported subgroup op: the lanes that execute it
/// together (upstream's "active lanes"; in a block whose size is not a
/// multiple of 32, the last warp's existing lanes), or none where every
/// lane of every warp is known to execute it: a uniform op in a kernel
/// whose known block size is whole warps, or any op in the body of such
/// a kernel. Where structured control flow says which lanes those are
/// (buildStructuredLanes), they are computed, not read: after or inside a
/// divergent branch independent thread scheduling need not have merged
/// the lanes yet, and `activemask` would leave the late ones out; the
/// shuffle or vote waits for them. Elsewhere `activemask`.
Value buildImportMask(PatternRewriter &rewriter, Operation *op, bool uniform) {
  std::optional<int64_t> threads = getKnownBlockThreads(op);
  bool wholeWarps = threads && *threads % kWarpSize == 0;
  if (wholeWarps && (uniform || runsInEveryThread(op)))
    return Value();
  if (Value lanes = buildStructuredLanes(rewriter, op))
    return lanes;
  return ActiveMaskOp::create(rewriter, op->getLoc(), rewriter.getI32Type());
}

/// gpu.subgroup_reduce: warp.reduce over the executing lanes of each
/// cluster (buildImportMask). A full warp (the mask all ones at run time)
/// takes the whole-warp lowering, any other the member-mask one.
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
    Location loc = op.getLoc();
    auto reduce = [&](Value mask) -> Value {
      auto reduced = ReduceOp::create(rewriter, loc, getCombineKind(op.getOp()),
                                      op.getValue());
      if (mask)
        reduced.getMaskMutable().assign(mask);
      reduced.setClusterSize(size);
      reduced.setClusterStride(stride);
      return reduced.getResult()[0];
    };
    Value mask = buildImportMask(rewriter, op, op.getUniform());
    if (!mask || isBugPlanted(PlantedBug::GpuSubgroupReduceWholeWarp)) {
      rewriter.replaceOp(op, reduce(Value()));
      return success();
    }
    Value full = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, mask,
        arith::ConstantIntOp::create(rewriter, loc, -1, 32));
    auto branch = scf::IfOp::create(rewriter, loc, type, full,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(branch.thenBlock());
    scf::YieldOp::create(rewriter, loc, reduce(Value()));
    rewriter.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(rewriter, loc, reduce(mask));
    rewriter.replaceOp(op, branch.getResults());
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
    rewriter.replaceOpWithNewOp<BroadcastOp>(
        op, type, op.getSrc(), op.getLane(),
        buildImportMask(rewriter, op, /*uniform=*/false));
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
  return getCombineKindOfArithOp(&op);
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
      kind = getCombineKind(*named);
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
        ValueRange{op.getValue()}, /*items=*/false, /*valid_threads=*/Value(),
        /*commutative=*/false, ResultLanes::All, BlockReduceAlgorithmAttr(),
        /*tile=*/nullptr);
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
    if (failed(applyPatternsLinearly(
            getOperation(), std::move(patterns),
            [](Operation *op) { return isa<gpu::AllReduceOp>(op); },
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
