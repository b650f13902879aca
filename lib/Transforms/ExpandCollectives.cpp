//===- ExpandCollectives.cpp - reduce/scan/broadcast/compact expansion ----===//
//
// Rewrites the composite warp collectives into primitive warp ops (shuffle,
// ballot, lane masks), arithmetic, and `nvvm.redux.sync` where the chip can
// reduce in one instruction. The combine orders are the ones the ops document:
// reductions are a pairwise tree, farthest pairs first; scans are Kogge-Stone
// with distances 1, 2, 4, ...
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "WarpDialect/Transforms/CombineKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPEXPANDCOLLECTIVESPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// One `warp.shuffle`; returns {value, valid}.
std::pair<Value, Value> shuffle(OpBuilder &b, Location loc, ShuffleMode mode,
                                Value value, Value offset, unsigned width,
                                Value mask) {
  auto op = ShuffleOp::create(b, loc, value.getType(), b.getI1Type(), mode,
                              value, offset, width, mask);
  return {op.getResult(), op.getValid()};
}

std::pair<Value, Value> shuffle(OpBuilder &b, Location loc, ShuffleMode mode,
                                Value value, int64_t offset, unsigned width,
                                Value mask) {
  return shuffle(b, loc, mode, value, buildI32Constant(b, loc, offset), width,
                 mask);
}

//===----------------------------------------------------------------------===//
// Strategy selection
//===----------------------------------------------------------------------===//

/// The strategy a reduce lowers with, or failure (with a diagnostic when
/// `emitErrors`) if the op forces one the chip cannot do.
FailureOr<ReduceStrategy> selectStrategy(ReduceOp op,
                                         const ExpandCollectivesOptions &opts,
                                         bool emitErrors) {
  Type type = op.getValue().getType();
  bool reduxLegal = op.getClusterSize() == kWarpSize &&
                    opts.chip.supportsRedux(op.getKind(), type);
  // The op's own request is binding: one the chip cannot do is an error,
  // never a backend abort.
  if (std::optional<ReduceStrategy> requested = op.getStrategy()) {
    if (*requested != ReduceStrategy::Redux || reduxLegal)
      return *requested;
    if (emitErrors)
      op.emitOpError() << "strategy 'redux' is not available for " << type
                       << " with kind '" << stringifyCombineKind(op.getKind())
                       << "' on " << opts.chip.str()
                       << " (redux.sync needs sm_80+ for integers and an "
                          "sm_100a-class chip for f32 min/max)";
    return failure();
  }
  // A pass-wide preference applies where it can and falls back elsewhere.
  if (opts.strategy && (*opts.strategy != ReduceStrategy::Redux || reduxLegal))
    return *opts.strategy;
  if (reduxLegal)
    return ReduceStrategy::Redux;
  return op.getLanes() == ResultLanes::First ? ReduceStrategy::Tree
                                             : ReduceStrategy::Butterfly;
}

//===----------------------------------------------------------------------===//
// Reduce
//===----------------------------------------------------------------------===//

std::optional<NVVM::ReduxKind> toReduxKind(CombineKind kind) {
  switch (kind) {
  case CombineKind::Add:
    return NVVM::ReduxKind::ADD;
  case CombineKind::And:
    return NVVM::ReduxKind::AND;
  case CombineKind::Or:
    return NVVM::ReduxKind::OR;
  case CombineKind::Xor:
    return NVVM::ReduxKind::XOR;
  case CombineKind::MinSI:
    return NVVM::ReduxKind::MIN;
  case CombineKind::MaxSI:
    return NVVM::ReduxKind::MAX;
  case CombineKind::MinUI:
    return NVVM::ReduxKind::UMIN;
  case CombineKind::MaxUI:
    return NVVM::ReduxKind::UMAX;
  case CombineKind::MinNumF:
  case CombineKind::MinimumF:
    return NVVM::ReduxKind::FMIN;
  case CombineKind::MaxNumF:
  case CombineKind::MaximumF:
    return NVVM::ReduxKind::FMAX;
  case CombineKind::Mul:
    return std::nullopt;
  }
  llvm_unreachable("unknown combine kind");
}

/// One `redux.sync` over the mask; narrow integers are widened (sign-extended
/// for the signed kinds) and the result truncated back, which is exact for
/// every redux kind.
Value lowerReduceToRedux(OpBuilder &b, Location loc, CombineKind kind,
                         Value value, Value mask) {
  Value memberMask = buildMemberMaskOrAll(b, loc, mask);
  NVVM::ReduxKind reduxKind = *toReduxKind(kind);
  Type type = value.getType();
  if (type.isF32()) {
    bool propagateNaN =
        kind == CombineKind::MinimumF || kind == CombineKind::MaximumF;
    return NVVM::ReduxOp::create(b, loc, type, value, reduxKind, memberMask,
                                 /*abs=*/false, /*nan=*/propagateNaN);
  }
  Type i32 = b.getI32Type();
  Value wide = value;
  if (type.getIntOrFloatBitWidth() < 32) {
    bool isSigned = kind == CombineKind::MinSI || kind == CombineKind::MaxSI;
    wide = isSigned ? arith::ExtSIOp::create(b, loc, i32, value).getResult()
                    : arith::ExtUIOp::create(b, loc, i32, value).getResult();
  }
  Value reduced = NVVM::ReduxOp::create(b, loc, i32, wide, reduxKind,
                                        memberMask, false, false);
  if (type.getIntOrFloatBitWidth() < 32)
    reduced = arith::TruncIOp::create(b, loc, type, reduced);
  return reduced;
}

/// xor butterfly: every lane of the cluster ends with the result.
Value lowerReduceToButterfly(OpBuilder &b, Location loc, ReduceOp op) {
  Value value = op.getValue();
  unsigned stride = op.getClusterStride();
  for (unsigned offset = op.getClusterSize() * stride / 2; offset >= stride;
       offset /= 2) {
    Value other = shuffle(b, loc, ShuffleMode::Xor, value, offset, kWarpSize,
                          op.getMask())
                      .first;
    value = buildCombine(b, loc, op.getKind(), value, other);
  }
  return value;
}

/// shfl.down tree: the first lane of each cluster ends with the result; the
/// other lanes hold partial values.
Value lowerReduceToTree(OpBuilder &b, Location loc, ReduceOp op) {
  Value value = op.getValue();
  unsigned stride = op.getClusterStride();
  unsigned span = op.getClusterSize() * stride;
  for (unsigned offset = span / 2; offset >= stride; offset /= 2) {
    Value other =
        shuffle(b, loc, ShuffleMode::Down, value, offset, span, op.getMask())
            .first;
    value = buildCombine(b, loc, op.getKind(), value, other);
  }
  return value;
}

/// Reduction of lanes 0..n-1 only: a shfl.down tree that combines a partner
/// only when it is below n; lane 0 ends with the result.
Value lowerPartialReduceToTree(OpBuilder &b, Location loc, ReduceOp op) {
  Value value = op.getValue();
  Value lane = LaneIdOp::create(b, loc, b.getI32Type());
  for (unsigned offset = kWarpSize / 2; offset >= 1; offset /= 2) {
    Value other = shuffle(b, loc, ShuffleMode::Down, value, offset, kWarpSize,
                          op.getMask())
                      .first;
    Value partner =
        arith::AddIOp::create(b, loc, lane, buildI32Constant(b, loc, offset));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          partner, op.getValidLanes());
    Value combined = buildCombine(b, loc, op.getKind(), value, other);
    value = arith::SelectOp::create(b, loc, inRange, combined, value);
  }
  return value;
}

/// Broadcasts the value of each cluster's first lane to the whole cluster.
Value broadcastFromClusterHead(OpBuilder &b, Location loc, ReduceOp op,
                               Value value) {
  unsigned stride = op.getClusterStride();
  Value head;
  if (stride == 1) {
    head = buildI32Constant(b, loc, 0);
  } else {
    Value lane = LaneIdOp::create(b, loc, b.getI32Type());
    head = arith::AndIOp::create(b, loc, lane,
                                 buildI32Constant(b, loc, stride - 1));
  }
  return shuffle(b, loc, ShuffleMode::Idx, value, head,
                 op.getClusterSize() * stride, op.getMask())
      .first;
}

struct ExpandReduce : public OpRewritePattern<ReduceOp> {
  ExpandReduce(MLIRContext *ctx, const ExpandCollectivesOptions &options)
      : OpRewritePattern(ctx), options(options) {}

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ReduceStrategy> strategy =
        selectStrategy(op, options, /*emitErrors=*/false);
    if (failed(strategy))
      return rewriter.notifyMatchFailure(op, "redux forced where illegal");
    Location loc = op.getLoc();
    bool allLanes = op.getLanes() == ResultLanes::All;
    Value result;
    if (*strategy == ReduceStrategy::Redux) {
      Value value = op.getValue();
      if (op.getValidLanes()) {
        // Lanes at or past n contribute the identity: their values never
        // reach the combiner.
        Value lane = LaneIdOp::create(rewriter, loc, rewriter.getI32Type());
        Value valid = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ult, lane, op.getValidLanes());
        Value identity = arith::ConstantOp::create(
            rewriter, loc, getCombineIdentity(op.getKind(), value.getType()));
        value = arith::SelectOp::create(rewriter, loc, valid, value, identity);
      }
      result =
          lowerReduceToRedux(rewriter, loc, op.getKind(), value, op.getMask());
    } else if (op.getValidLanes()) {
      result = lowerPartialReduceToTree(rewriter, loc, op);
      if (allLanes)
        result = broadcastFromClusterHead(rewriter, loc, op, result);
    } else if (*strategy == ReduceStrategy::Butterfly) {
      result = lowerReduceToButterfly(rewriter, loc, op);
    } else {
      result = lowerReduceToTree(rewriter, loc, op);
      if (allLanes)
        result = broadcastFromClusterHead(rewriter, loc, op, result);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  ExpandCollectivesOptions options;
};

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

/// Scan segmented by head flags. Every lane finds its segment's first lane
/// (`start`: the highest head at or below it, at least the width segment's
/// base) and last lane (`end`: one below the next head, at most the width
/// segment's last lane) from one ballot; Kogge-Stone then combines a partner
/// only inside [start, end]. Without heads this is exactly the plain scan.
SmallVector<Value> lowerSegmentedScan(PatternRewriter &b, Location loc,
                                      ScanOp op) {
  Type i32 = b.getI32Type();
  unsigned width = op.getWidth();
  CombineKind kind = op.getKind();
  bool reverse = op.getReverse();
  auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  auto cmp = [&](arith::CmpIPredicate pred, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, pred, lhs, rhs).getResult();
  };

  Value lane = LaneIdOp::create(b, loc, i32);
  Value segmentBase =
      arith::AndIOp::create(b, loc, lane, cst(~int64_t(width - 1)));
  Value segmentLast =
      arith::AddIOp::create(b, loc, segmentBase, cst(width - 1));
  Value heads = BallotOp::create(b, loc, i32, op.getHeads(), op.getMask());
  // start = max(31 - clz(heads & lanemask<le>), segmentBase); clz(0) = 32.
  Value headsAtOrBelow = arith::AndIOp::create(
      b, loc, heads, LaneMaskOp::create(b, loc, i32, LaneMaskKind::Le));
  Value topHead = arith::SubIOp::create(
      b, loc, cst(31),
      math::CountLeadingZerosOp::create(b, loc, headsAtOrBelow));
  Value start = arith::MaxSIOp::create(b, loc, topHead, segmentBase);
  // end = min(ctz(heads & lanemask<gt>) - 1, segmentLast); ctz(0) = 32.
  Value headsAbove = arith::AndIOp::create(
      b, loc, heads, LaneMaskOp::create(b, loc, i32, LaneMaskKind::Gt));
  Value nextHead = math::CountTrailingZerosOp::create(b, loc, headsAbove);
  Value end = arith::MinSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, nextHead, cst(1)), segmentLast);

  ShuffleMode towardsEarlier = reverse ? ShuffleMode::Down : ShuffleMode::Up;
  // How many lanes before this one (in scan order) share its segment; the
  // partner `distance` away is in the segment iff distance <= reach.
  Value reach = reverse ? arith::SubIOp::create(b, loc, end, lane)
                        : arith::SubIOp::create(b, loc, lane, start);
  auto partnerInSegment = [&](unsigned distance) {
    return cmp(arith::CmpIPredicate::sle, cst(distance), reach);
  };

  Value inclusive = op.getValue();
  for (unsigned distance = 1; distance < width; distance *= 2) {
    Value other = shuffle(b, loc, towardsEarlier, inclusive, distance, width,
                          op.getMask())
                      .first;
    Value combined = reverse ? buildCombine(b, loc, kind, inclusive, other)
                             : buildCombine(b, loc, kind, other, inclusive);
    inclusive = arith::SelectOp::create(b, loc, partnerInSegment(distance),
                                        combined, inclusive);
  }

  Value result = inclusive;
  if (op.getExclusive()) {
    Value identity = arith::ConstantOp::create(
        b, loc, getCombineIdentity(kind, op.getValue().getType()));
    result = identity;
    if (width > 1) {
      Value previous =
          shuffle(b, loc, towardsEarlier, inclusive, 1, width, op.getMask())
              .first;
      result = arith::SelectOp::create(b, loc, partnerInSegment(1), previous,
                                       identity);
    }
  }
  SmallVector<Value> results{result};
  if (op.getTotal())
    results.push_back(shuffle(b, loc, ShuffleMode::Idx, inclusive,
                              reverse ? start : end, width, op.getMask())
                          .first);
  return results;
}

struct ExpandScan : public OpRewritePattern<ScanOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScanOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getHeads()) {
      rewriter.replaceOp(op, lowerSegmentedScan(rewriter, op.getLoc(), op));
      return success();
    }
    Location loc = op.getLoc();
    unsigned width = op.getWidth();
    CombineKind kind = op.getKind();
    bool reverse = op.getReverse();
    ShuffleMode towardsEarlier = reverse ? ShuffleMode::Down : ShuffleMode::Up;
    // `earlier (op) later` in scan order, whichever way the scan runs.
    auto combineInOrder = [&](Value earlier, Value later) {
      return buildCombine(rewriter, loc, kind, earlier, later);
    };

    // Kogge-Stone: the shuffle's valid bit is exactly "the partner is inside
    // the segment", so lanes outside never reach the combiner.
    Value inclusive = op.getValue();
    for (unsigned distance = 1; distance < width; distance *= 2) {
      auto [other, valid] = shuffle(rewriter, loc, towardsEarlier, inclusive,
                                    distance, width, op.getMask());
      Value combined = reverse ? combineInOrder(inclusive, other)
                               : combineInOrder(other, inclusive);
      // Where the shuffle is not valid it returned this lane's own value, so
      // `other` equals `inclusive` there; keeping `other` lets the backend
      // accumulate in the shuffle's destination register (no extra move).
      inclusive =
          arith::SelectOp::create(rewriter, loc, valid, combined, other);
    }

    Value result = inclusive;
    Value init = op.getInit();
    if (op.getExclusive()) {
      Value first = init
                        ? init
                        : arith::ConstantOp::create(
                              rewriter, loc,
                              getCombineIdentity(kind, op.getValue().getType()))
                              .getResult();
      result = first;
      // In one-lane segments every lane is a segment's first position.
      if (width > 1) {
        auto [previous, valid] = shuffle(rewriter, loc, towardsEarlier,
                                         inclusive, 1, width, op.getMask());
        Value shifted = init ? combineInOrder(init, previous) : previous;
        result = arith::SelectOp::create(rewriter, loc, valid, shifted, first);
      }
    } else if (init) {
      result = combineInOrder(init, inclusive);
    }

    SmallVector<Value> results{result};
    if (op.getTotal()) {
      int64_t lastPosition = reverse ? 0 : width - 1;
      results.push_back(shuffle(rewriter, loc, ShuffleMode::Idx, inclusive,
                                lastPosition, width, op.getMask())
                            .first);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Broadcast, broadcast_first, compact
//===----------------------------------------------------------------------===//

struct ExpandBroadcast : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, shuffle(rewriter, op.getLoc(), ShuffleMode::Idx,
                                   op.getValue(), op.getLane(), kWarpSize,
                                   op.getMask())
                               .first);
    return success();
  }
};

struct ExpandBroadcastFirst : public OpRewritePattern<BroadcastFirstOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastFirstOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value members = ActiveMaskOp::create(rewriter, loc, rewriter.getI32Type());
    if (op.getMask())
      members = arith::AndIOp::create(rewriter, loc, members, op.getMask());
    Value leader = math::CountTrailingZerosOp::create(rewriter, loc, members);
    rewriter.replaceOp(op, shuffle(rewriter, loc, ShuffleMode::Idx,
                                   op.getValue(), leader, kWarpSize, members)
                               .first);
    return success();
  }
};

struct ExpandCompact : public OpRewritePattern<CompactOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CompactOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value bits =
        BallotOp::create(rewriter, loc, i32, op.getPredicate(), op.getMask());
    Value below = LaneMaskOp::create(rewriter, loc, i32, LaneMaskKind::Lt);
    Value bitsBelow = arith::AndIOp::create(rewriter, loc, bits, below);
    Value offset = math::CtPopOp::create(rewriter, loc, bitsBelow);
    Value count = math::CtPopOp::create(rewriter, loc, bits);
    rewriter.replaceOp(op, {offset, count});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct WarpExpandCollectivesPass
    : public warp::impl::WarpExpandCollectivesPassBase<
          WarpExpandCollectivesPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<ExpandCollectivesOptions> options =
        parseExpandOptions(getOperation(), chip, strategy);
    if (failed(options) || failed(expandCollectives(getOperation(), *options)))
      return signalPassFailure();
  }
};

} // namespace

LogicalResult
mlir::warp::expandCollectives(Operation *root,
                              const ExpandCollectivesOptions &options) {
  // Diagnose forced strategies the chip cannot do before rewriting anything.
  WalkResult walk = root->walk([&](ReduceOp op) {
    return failed(selectStrategy(op, options, /*emitErrors=*/true))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  RewritePatternSet patterns(root->getContext());
  populateExpandCollectivesPatterns(patterns, options);
  return applyPatternsGreedily(root, std::move(patterns));
}

FailureOr<ExpandCollectivesOptions>
mlir::warp::parseExpandOptions(Operation *anchor, StringRef chipName,
                               StringRef strategyName) {
  ExpandCollectivesOptions options;
  std::optional<Chip> chip = Chip::parse(chipName);
  if (!chip)
    return mlir::emitError(anchor->getLoc())
           << "unknown chip '" << chipName
           << "': expected sm_NN or sm_NNa with NN >= 70";
  options.chip = *chip;
  if (strategyName != "auto") {
    options.strategy = symbolizeReduceStrategy(strategyName);
    if (!options.strategy)
      return mlir::emitError(anchor->getLoc())
             << "unknown reduction strategy '" << strategyName
             << "': expected auto, butterfly, tree or redux";
  }
  return options;
}

void mlir::warp::populateExpandCollectivesPatterns(
    RewritePatternSet &patterns, const ExpandCollectivesOptions &options) {
  patterns.add<ExpandReduce>(patterns.getContext(), options);
  patterns
      .add<ExpandScan, ExpandBroadcast, ExpandBroadcastFirst, ExpandCompact>(
          patterns.getContext());
}
