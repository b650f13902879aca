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
#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Networks.h"

#include "WarpDialect/IR/PlantedBugs.h"
#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/RewriteDriver.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPEXPANDCOLLECTIVESPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// The distances of a reduction tree over `span` lanes (or ranks), in units
/// of `unit`: farthest first for a commutative combiner (the documented
/// tree), nearest first otherwise, so that every step combines two adjacent
/// runs of lanes and lane order is kept.
SmallVector<unsigned> treeDistances(unsigned span, unsigned unit,
                                    bool commutative) {
  SmallVector<unsigned> distances;
  for (unsigned distance = span / 2; distance >= unit && distance > 0;
       distance /= 2)
    distances.push_back(distance);
  if (!commutative)
    std::reverse(distances.begin(), distances.end());
  return distances;
}

//===----------------------------------------------------------------------===//
// Strategy selection
//===----------------------------------------------------------------------===//


//===----------------------------------------------------------------------===//
// Reduce
//===----------------------------------------------------------------------===//

/// One `redux.sync` over the mask; narrow integers are widened (sign-extended
/// for the signed kinds) and the result truncated back, which is exact for
/// every redux kind.
Value lowerReduceToRedux(OpBuilder &b, Location loc, CombineKind kind,
                         Value value, Value mask) {
  Value memberMask = buildMemberMaskOrAll(b, loc, mask);
  NVVM::ReduxKind reduxKind = *getCombineKindInfo(kind).redux;
  Type type = value.getType();
  if (type.isF32()) {
    bool propagateNaN =
        kind == CombineKind::MinimumF || kind == CombineKind::MaximumF;
    auto redux = NVVM::ReduxOp::create(b, loc, type, value, reduxKind,
                                       memberMask, /*abs=*/false,
                                       /*nan=*/propagateNaN);
    markConvergent(redux);
    return redux;
  }
  Type i32 = b.getI32Type();
  Value wide = value;
  if (type.getIntOrFloatBitWidth() < 32) {
    bool isSigned = kind == CombineKind::MinSI || kind == CombineKind::MaxSI;
    wide = isSigned ? arith::ExtSIOp::create(b, loc, i32, value).getResult()
                    : arith::ExtUIOp::create(b, loc, i32, value).getResult();
  }
  auto redux = NVVM::ReduxOp::create(b, loc, i32, wide, reduxKind, memberMask,
                                     /*abs=*/false, /*nan=*/false);
  markConvergent(redux);
  Value reduced = redux;
  if (type.getIntOrFloatBitWidth() < 32)
    reduced = arith::TruncIOp::create(b, loc, type, reduced);
  return reduced;
}

/// xor butterfly: every lane of the cluster ends with the result. Without
/// commutativity, lanes `i` and `i ^ d` both combine the lower lane's tuple
/// (left) with the higher lane's, so they hold the same bits.
Tuple lowerReduceToButterfly(OpBuilder &b, Location loc, ReduceOp op,
                             const Combiner &combine) {
  Tuple value(op.getValues());
  unsigned stride = op.getClusterStride();
  Value lane;
  if (!combine.commutative)
    lane = LaneIdOp::create(b, loc, b.getI32Type());
  for (unsigned offset : treeDistances(op.getClusterSize() * stride, stride,
                                       combine.commutative)) {
    Tuple other = shuffleTuple(b, loc, ShuffleMode::Xor, value, offset,
                               kWarpSize, op.getMask())
                      .first;
    if (combine.commutative) {
      value = combine(b, loc, value, other);
      continue;
    }
    Value offsetBit =
        arith::AndIOp::create(b, loc, lane, buildI32Constant(b, loc, offset));
    Value isHigher =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, offsetBit,
                              buildI32Constant(b, loc, 0));
    // Named first: the op order must not depend on the compiler's order of
    // evaluating arguments.
    auto lower = selectTuple(b, loc, isHigher, other, value);
    auto higher = selectTuple(b, loc, isHigher, value, other);
    value = combine(b, loc, lower, higher);
  }
  return value;
}

/// shfl.down tree: the first lane of each cluster ends with the result; the
/// other lanes hold partial values.
Tuple lowerReduceToTree(OpBuilder &b, Location loc, ReduceOp op,
                        const Combiner &combine) {
  Tuple value(op.getValues());
  unsigned stride = op.getClusterStride();
  unsigned span = op.getClusterSize() * stride;
  for (unsigned offset : treeDistances(span, stride, combine.commutative)) {
    Tuple other = shuffleTuple(b, loc, ShuffleMode::Down, value, offset, span,
                               op.getMask())
                      .first;
    value = combine(b, loc, value, other);
  }
  return value;
}

/// Reduction of lanes 0..n-1 only: a shfl.down tree that combines a partner
/// only when it is below n; lane 0 ends with the result.
Tuple lowerPartialReduceToTree(OpBuilder &b, Location loc, ReduceOp op,
                               const Combiner &combine) {
  Tuple value(op.getValues());
  Value lane = LaneIdOp::create(b, loc, b.getI32Type());
  for (unsigned offset : treeDistances(kWarpSize, 1, combine.commutative)) {
    Tuple other = shuffleTuple(b, loc, ShuffleMode::Down, value, offset,
                               kWarpSize, op.getMask())
                      .first;
    Value partner =
        arith::AddIOp::create(b, loc, lane, buildI32Constant(b, loc, offset));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          partner, op.getValidLanes());
    Tuple combined = combine(b, loc, value, other);
    value = selectTuple(b, loc, inRange, combined, value);
  }
  return value;
}


/// `fns.b32`: the lane of the `rank`-th (0-based) set bit of `members`.
Value buildNthMemberLane(OpBuilder &b, Location loc, Value members,
                         Value rank) {
  Value nth = arith::AddIOp::create(b, loc, rank, buildI32Constant(b, loc, 1));
  return buildFindNthSet(b, loc, members, buildI32Constant(b, loc, 0), nth);
}

/// Reduction over the lanes of an arbitrary member mask (CUDA's
/// `__reduce_*_sync(mask, v)`), cluster by cluster. The members of a cluster
/// are ranked from its lowest lane; rank r combines with rank r + d while
/// r + d is below the member count, d = 16, 8, 4, 2, 1 (the tree of
/// lowerPartialReduceToTree over ranks, so a full mask gives the same order
/// as the whole-warp tree; nearest first without commutativity). Every lane
/// reads only member lanes. Returns the tuple of each cluster's lowest
/// member (result) and that lane.
std::pair<Tuple, Value> lowerReduceOverMembers(OpBuilder &b, Location loc,
                                               ReduceOp op,
                                               const Combiner &combine) {
  Type i32 = b.getI32Type();
  unsigned size = op.getClusterSize(), stride = op.getClusterStride();
  auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  Value members = op.getMask();
  if (size != kWarpSize) {
    Value lane = LaneIdOp::create(b, loc, i32);
    // The cluster's first lane: the span's base plus the lane's offset
    // within the stride.
    Value spanBase =
        arith::AndIOp::create(b, loc, lane, cst(~int64_t(size * stride - 1)));
    Value strideOffset = arith::AndIOp::create(b, loc, lane, cst(stride - 1));
    Value first = arith::OrIOp::create(b, loc, spanBase, strideOffset);
    Value cluster = arith::ShLIOp::create(
        b, loc, cst(int32_t(getClusterLanePattern(size, stride))), first);
    members = arith::AndIOp::create(b, loc, members, cluster);
  }
  Value below = LaneMaskOp::create(b, loc, i32, LaneMaskKind::Lt);
  Value rank = math::CtPopOp::create(
      b, loc, arith::AndIOp::create(b, loc, members, below));
  Value count = math::CtPopOp::create(b, loc, members);
  Tuple value(op.getValues());
  for (unsigned distance : treeDistances(size, 1, combine.commutative)) {
    Value partnerRank = arith::AddIOp::create(b, loc, rank, cst(distance));
    Value source = buildNthMemberLane(b, loc, members, partnerRank);
    Tuple other = shuffleTuple(b, loc, ShuffleMode::Idx, value, source,
                               kWarpSize, op.getMask())
                      .first;
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          partnerRank, count);
    Tuple combined = combine(b, loc, value, other);
    value = selectTuple(b, loc, inRange, combined, value);
  }
  Value leader = math::CountTrailingZerosOp::create(b, loc, members);
  return {value, leader};
}

/// Broadcasts the tuple of each cluster's first lane to the whole cluster.
Tuple broadcastFromClusterHead(OpBuilder &b, Location loc, ReduceOp op,
                               ValueRange value) {
  unsigned stride = op.getClusterStride();
  Value head;
  if (stride == 1) {
    head = buildI32Constant(b, loc, 0);
  } else {
    Value lane = LaneIdOp::create(b, loc, b.getI32Type());
    head = arith::AndIOp::create(b, loc, lane,
                                 buildI32Constant(b, loc, stride - 1));
  }
  return shuffleTuple(b, loc, ShuffleMode::Idx, value, head,
                      op.getClusterSize() * stride, op.getMask())
      .first;
}

//===----------------------------------------------------------------------===//
// Scan network (also the segmented reduction's)
//===----------------------------------------------------------------------===//

/// Where a scan's segment ends and begins, per lane. Without heads and
/// valid_lanes the segment is the width segment and the shuffle's own valid
/// bit tells whether a partner is in it (no bounds). Otherwise every lane
/// finds its segment's first lane `start` (the highest head at or below it,
/// at least the width segment's base and the first lane of its run of member
/// lanes) and last lane `end` (one below the next head, at most the width
/// segment's last lane, the last lane of its run of member lanes and the
/// last valid lane) from the ballot of the head flags. Each step's shuffle
/// reads no lane before `start` (after `end`, reversed): its bound.
struct ScanBounds {
  Value start, end;
};


/// The shape of one Kogge-Stone network: segments of `size` lanes (any
/// count in 1..32: groups `[0, size)`, `[size, 2 size)`, ..., the last one
/// shorter when `size` does not divide 32), cut further by segment flags
/// (head flags, or tail flags with `tails`; null for none) and `validLanes`.
struct ScanNetwork {
  /// The power of two at or above the segment size: the network's steps
  /// are the distances below it.
  unsigned width;
  /// The distances the steps take: below `width`, and with a constant
  /// `valid_lanes n` below n's power of two (a lane below n finds no
  /// partner n or more lanes away, and the lanes from n on are not
  /// defined).
  unsigned stepWidth;
  bool reverse;
  Value mask;
  /// Empty when the width segments are the only segments.
  std::optional<ScanBounds> bounds;
  /// The lane's position in its segment, counted from the earlier end (for
  /// more than one lane; DCE drops it where no step tests the lane id).
  std::optional<Value> position;

  ScanNetwork(OpBuilder &b, Location loc, unsigned size, bool reverse,
              Value mask, Value flags, bool tails, Value validLanes)
      : width(llvm::PowerOf2Ceil(size)), stepWidth(width), reverse(reverse),
        mask(mask) {
    if (std::optional<int64_t> lanes =
            validLanes ? getConstantIntValue(validLanes) : std::nullopt)
      stepWidth = std::min<unsigned>(
          width, llvm::PowerOf2Ceil(std::max<int64_t>(*lanes, 1)));
    // Segments that are not aligned powers of two need bounds.
    bool logical = size != width;
    if (!flags && !validLanes && !logical) {
      if (width > 1) {
        Value last = buildI32Constant(b, loc, width - 1);
        Value lane = LaneIdOp::create(b, loc, b.getI32Type());
        position = arith::AndIOp::create(b, loc, lane, last);
        if (reverse)
          position = arith::SubIOp::create(b, loc, last, *position);
      }
      return;
    }
    Type i32 = b.getI32Type();
    auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
    Value lane = LaneIdOp::create(b, loc, i32);
    Value start, end;
    if (flags || logical) {
      // The first and the last lane of each `size` segment, as bits.
      uint32_t firsts = 0, lasts = 0;
      for (unsigned base = 0; base < kWarpSize; base += size) {
        firsts |= 1u << base;
        lasts |= 1u << std::min(base + size - 1, kWarpSize - 1);
      }
      // The edges of the member mask bound segments too: each run of
      // consecutive lanes of the mask starts a segment at its first lane
      // (lane i with lane i - 1 outside the mask) and ends one at its last
      // lane (lane i with lane i + 1 outside). The ballot sees no flag
      // outside the mask, so without these boundaries a segment whose
      // neighbour lies outside would reach past the mask's edge and read
      // lanes outside it. As flags, a lane outside the mask is both a head
      // and a tail: `~mask` joins the ballot on each side of the one-lane
      // shift (lane 0's head and lane 31's tail, shifted out, are in
      // `firsts` and `lasts`). Bits outside the mask are harmless: only a
      // member lane's nearest boundary at or below (at or above) it counts.
      // A constant mask folds into the width segments' bits.
      Value outside;
      if (mask && !isBugPlanted(PlantedBug::SegmentsIgnoreMaskEdges)) {
        if (std::optional<int64_t> known = getConstantIntValue(mask)) {
          uint32_t members = uint32_t(*known);
          firsts |= ~(members << 1);
          lasts |= ~(members >> 1);
        } else {
          outside = arith::XOrIOp::create(b, loc, mask, cst(-1));
        }
      }
      // `v | outside`, and `v | outside` with `outside` shifted by one.
      auto orOutside = [&](Value v) -> Value {
        return outside ? arith::OrIOp::create(b, loc, v, outside).getResult()
                       : v;
      };
      auto orShiftedOutside = [&](Value v, bool left) -> Value {
        if (!outside)
          return v;
        Value shifted =
            left ? arith::ShLIOp::create(b, loc, outside, cst(1)).getResult()
                 : arith::ShRUIOp::create(b, loc, outside, cst(1)).getResult();
        return arith::OrIOp::create(b, loc, v, shifted);
      };
      // A head at lane i + 1 is a tail at lane i (CUB's form): a tail at
      // lane 31 and a head at lane 0 change nothing. Without flags (logical
      // warps) only the mask's edges and the segments' ends bound.
      Value headBits, tailBits;
      if (!flags) {
        headBits = orShiftedOutside(cst(0), /*left=*/true);
        tailBits = orShiftedOutside(cst(0), /*left=*/false);
      } else if (tails) {
        Value bits = BallotOp::create(b, loc, i32, flags, mask);
        headBits = arith::ShLIOp::create(b, loc, orOutside(bits), cst(1));
        tailBits = orShiftedOutside(bits, /*left=*/false);
      } else {
        Value bits = BallotOp::create(b, loc, i32, flags, mask);
        headBits = orShiftedOutside(bits, /*left=*/true);
        tailBits = arith::ShRUIOp::create(b, loc, orOutside(bits), cst(1));
      }
      // start = 31 - clz((heads | firsts) & lanemask<le>): the lane's own
      // width segment's first lane is at or below it, so never clz(0).
      Value headsAtOrBelow = arith::AndIOp::create(
          b, loc, arith::OrIOp::create(b, loc, headBits, cst(int32_t(firsts))),
          LaneMaskOp::create(b, loc, i32, LaneMaskKind::Le));
      start = arith::SubIOp::create(
          b, loc, cst(31),
          math::CountLeadingZerosOp::create(b, loc, headsAtOrBelow));
      // end = ctz((tails | lasts) & lanemask<ge>), never of 0 either; the
      // redundant lane-31 bit tells LLVM so (no zero test before the ctz).
      Value tailsAtOrAbove = arith::AndIOp::create(
          b, loc, arith::OrIOp::create(b, loc, tailBits, cst(int32_t(lasts))),
          LaneMaskOp::create(b, loc, i32, LaneMaskKind::Ge));
      end = math::CountTrailingZerosOp::create(
          b, loc,
          arith::OrIOp::create(b, loc, tailsAtOrAbove,
                               cst(int32_t(1u << (kWarpSize - 1)))));
    } else {
      start = arith::AndIOp::create(b, loc, lane, cst(~int64_t(width - 1)));
      end = arith::AddIOp::create(b, loc, start, cst(width - 1));
    }
    if (validLanes)
      end = arith::MinSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, validLanes, cst(1)), end);
    bounds = ScanBounds{start, end};
    position = reverse ? arith::SubIOp::create(b, loc, end, lane)
                       : arith::SubIOp::create(b, loc, lane, start);
  }

  /// The bound of every shuffle towards the earlier end: PTX's clamp lane,
  /// the segment's first (last, reversed) lane; null without bounds.
  Value earlierBound() const {
    if (!bounds)
      return {};
    return reverse ? bounds->end : bounds->start;
  }

  /// The shuffle `distance` lanes towards the earlier end, and whether that
  /// partner is in the segment, from the lane's position: known before the
  /// shuffle returns, so that the combine `valid ? other (op) mine : other`,
  /// which LLVM folds to `other + (valid ? mine : 0)` for integers, waits on
  /// the shuffle only for its combine, not for a select too. With bounds,
  /// the shuffle reads over the whole warp up to the segment's first (last,
  /// reversed) lane.
  std::pair<Tuple, Value> shuffleEarlier(OpBuilder &b, Location loc,
                                         ValueRange value,
                                         unsigned distance) const {
    Tuple other =
        shuffleTuple(b, loc, reverse ? ShuffleMode::Down : ShuffleMode::Up,
                     value, distance, width, mask, earlierBound())
            .first;
    return {other,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, *position,
                                  buildI32Constant(b, loc, distance))};
  }

  /// CUB's predicated step `distance` lanes towards the earlier end
  /// (warp.scan_step): the partner combined in lane order where the
  /// shuffle's valid bit says it lies in the segment.
  Value predicatedStep(OpBuilder &b, Location loc, CombineKind kind,
                       Value value, unsigned distance) const {
    // A bounded step shuffles over the whole warp (see shuffleEarlier).
    Value bound = earlierBound();
    return ScanStepOp::create(b, loc, value.getType(), kind,
                              reverse ? ShuffleMode::Down : ShuffleMode::Up,
                              value, distance, bound ? kWarpSize : width,
                              bound, mask, /*partner_first=*/!reverse);
  }

  /// `earlier (op) later` in scan order, as lanes: the lower lane's tuple
  /// is the left operand in both directions.
  Tuple combineInLaneOrder(OpBuilder &b, Location loc, const Combiner &combine,
                           ValueRange mine, ValueRange other) const {
    return reverse ? combine(b, loc, mine, other)
                   : combine(b, loc, other, mine);
  }

  /// The Kogge-Stone network over the lane's segment, a partner counting
  /// only when it lies in it: every lane's inclusive scan. `tests` says
  /// which steps are predicated (warp.scan_step).
  Tuple inclusiveScan(OpBuilder &b, Location loc, const Combiner &combine,
                      ValueRange values, ScanStepForms tests) const {
    auto partnerAt = [&](ValueRange own, unsigned distance) {
      auto [other, inSegment] = shuffleEarlier(b, loc, own, distance);
      return ScanPartner{other, inSegment};
    };
    auto combineInOrder = [&](ValueRange partner, ValueRange own) {
      return combineInLaneOrder(b, loc, combine, own, partner);
    };
    auto fusedStep = [&](ValueRange own,
                         unsigned distance) -> std::optional<Tuple> {
      bool last = 2 * distance >= stepWidth;
      if (!tests.predicated || (last && tests.laneTestLast))
        return std::nullopt;
      return Tuple{
          predicatedStep(b, loc, *tests.predicated, own.front(), distance)};
    };
    return buildKoggeStoneScan(b, loc, values, stepWidth, partnerAt,
                               combineInOrder, fusedStep);
  }
};

/// Whether a scan's kind has an inverse the exclusive form can use: add or
/// xor over integers.
bool isInvertibleOnIntegers(ScanOp op) {
  std::optional<CombineKind> kind = op.getKind();
  return kind && (*kind == CombineKind::Add || *kind == CombineKind::Xor) &&
         areIntegers(op.getValues());
}

/// The step forms of `op`: warp-select-lowering's (checked before the
/// rewrite, by expandCollectives), else the policy's.
ScanStepForms stepFormsOf(Operation *op, std::optional<CombineKind> kind,
                          ValueRange values, ScanStepPreference preference) {
  FailureOr<ScanStepForms> forms =
      getScanStepForms(op, kind, values, preference, /*emitErrors=*/false);
  return succeeded(forms) ? *forms
                          : decideScanStepForms(kind, values, preference);
}

/// The scan: the network, then the exclusive shift, `init` and the segment
/// totals.
Tuple lowerScan(OpBuilder &b, Location loc, ScanOp op,
                ScanStepPreference scanSteps) {
  unsigned width = op.getWidth();
  bool reverse = op.getReverse();
  Combiner combine = Combiner::of(op);
  ScanNetwork network(b, loc, width, reverse, op.getMask(), op.getHeads(),
                      /*tails=*/false, op.getValidLanes());
  Tuple inclusive = network.inclusiveScan(
      b, loc, combine, op.getValues(),
      stepFormsOf(op, op.getKind(), op.getValues(), scanSteps));

  ValueRange init = op.getInit();
  // `init` stands before the segment's first lane (after its last one when
  // reversed), so the lower lane stays on the left.
  auto withInit = [&](ValueRange x) {
    return reverse ? combine(b, loc, x, init) : combine(b, loc, init, x);
  };
  Tuple result = inclusive;
  if (op.getExclusive() && isInvertibleOnIntegers(op)) {
    // The lane's own value taken back out of its inclusive scan (CUB's
    // exclusive sum): no shuffle, exact in two's complement, and the
    // identity 0 in a segment's first position.
    Tuple without;
    for (auto [scanned, own] : llvm::zip(inclusive, op.getValues()))
      without.push_back(
          *op.getKind() == CombineKind::Add
              ? Value(arith::SubIOp::create(b, loc, scanned, own))
              : Value(arith::XOrIOp::create(b, loc, scanned, own)));
    result = init.empty() ? without : withInit(without);
  } else if (op.getExclusive()) {
    Tuple first(init);
    if (init.empty())
      first.push_back(buildCombineIdentity(b, loc, *op.getKind(),
                                           op.getValues().front().getType()));
    result = first;
    // In one-lane segments every lane is a segment's first position.
    if (width > 1) {
      // A select of `first`, not a predicated combine: the lane's position
      // keeps it off the shuffle's path.
      auto [previous, inSegment] =
          network.shuffleEarlier(b, loc, inclusive, 1);
      Tuple shifted = init.empty() ? previous : withInit(previous);
      result = selectTuple(b, loc, inSegment, shifted, first);
    }
  } else if (!init.empty()) {
    result = withInit(inclusive);
  }

  if (!op.getTotal().empty()) {
    // The segment's last position in scan order holds its total.
    Value last = network.bounds
                     ? (reverse ? network.bounds->start : network.bounds->end)
                     : buildI32Constant(b, loc, reverse ? 0 : width - 1);
    // `last` is a lane of the whole warp where segments are not aligned.
    unsigned span = llvm::isPowerOf2_32(width) ? width : kWarpSize;
    Tuple totals = shuffleTuple(b, loc, ShuffleMode::Idx, inclusive, last,
                                span, op.getMask())
                       .first;
    result.append(totals.begin(), totals.end());
  }
  return result;
}

/// A reduction segmented by head or tail flags, or over logical warps (the
/// clusters' ends bound the segments): a reverse scan over the segments
/// leaves each segment's reduction, in lane order, in its first
/// lane; `lanes = all` then reads it from there.
Tuple lowerSegmentedReduce(OpBuilder &b, Location loc, ReduceOp op,
                           ScanStepPreference scanSteps) {
  ScanNetwork network(b, loc, op.getClusterSize(), /*reverse=*/true,
                      op.getMask(), op.getSegmentFlags(),
                      /*tails=*/bool(op.getTails()), op.getValidLanes());
  Tuple suffix = network.inclusiveScan(
      b, loc, Combiner::of(op), op.getValues(),
      stepFormsOf(op, op.getKind(), op.getValues(), scanSteps));
  if (op.getLanes() == ResultLanes::First)
    return suffix;
  return shuffleTuple(b, loc, ShuffleMode::Idx, suffix, network.bounds->start,
                      kWarpSize, op.getMask())
      .first;
}

/// A segmented warp.reduce (head or tail flags, or logical warps): one
/// reverse scan.
struct ExpandSegmentedReduce : public OpRewritePattern<ReduceOp> {
  ExpandSegmentedReduce(MLIRContext *ctx, ScanStepPreference scanSteps)
      : OpRewritePattern(ctx), scanSteps(scanSteps) {}

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.isSegmented())
      return rewriter.notifyMatchFailure(op, "not segmented");
    rewriter.replaceOp(op,
                       lowerSegmentedReduce(rewriter, op.getLoc(), op, scanSteps));
    return success();
  }

  ScanStepPreference scanSteps;
};

/// One way of lowering a warp.reduce without segment flags: each pattern
/// below carries out one decision of getReduceLowering (the one
/// warp-select-lowering wrote on the op, else the policy's), and only the
/// pattern of the op's decision applies.
class ReduceLoweringPattern : public OpRewritePattern<ReduceOp> {
public:
  ReduceLoweringPattern(MLIRContext *ctx,
                        const ExpandCollectivesOptions &options)
      : OpRewritePattern(ctx), options(options) {}

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const final {
    if (op.isSegmented())
      return rewriter.notifyMatchFailure(op, "segmented");
    FailureOr<ReduceLowering> lowering =
        getReduceLowering(op, options, /*emitErrors=*/false);
    if (failed(lowering))
      return rewriter.notifyMatchFailure(op, "redux forced where illegal");
    if (!carriesOut(op, *lowering))
      return rewriter.notifyMatchFailure(op, "another decision");
    rewriter.replaceOp(op, lower(rewriter, op, Combiner::of(op)));
    return success();
  }

protected:
  /// Whether this pattern carries out `lowering` of `op`.
  virtual bool carriesOut(ReduceOp op, const ReduceLowering &lowering) const = 0;
  virtual Tuple lower(PatternRewriter &rewriter, ReduceOp op,
                      const Combiner &combine) const = 0;

private:
  ExpandCollectivesOptions options;
};

/// Over the member lanes in rank order (fns finds each partner).
struct ReduceOverMembers : public ReduceLoweringPattern {
  using ReduceLoweringPattern::ReduceLoweringPattern;
  bool carriesOut(ReduceOp, const ReduceLowering &lowering) const override {
    return lowering.overMembers;
  }
  Tuple lower(PatternRewriter &rewriter, ReduceOp op,
              const Combiner &combine) const override {
    Location loc = op.getLoc();
    auto [value, leader] = lowerReduceOverMembers(rewriter, loc, op, combine);
    if (op.getLanes() != ResultLanes::All)
      return value;
    return shuffleTuple(rewriter, loc, ShuffleMode::Idx, value, leader,
                        kWarpSize, op.getMask())
        .first;
  }
};

/// One redux.sync; lanes at or past `valid_lanes` contribute the kind's
/// neutral padding (buildCombinePadding): their values never reach the
/// combiner.
struct ReduceToRedux : public ReduceLoweringPattern {
  using ReduceLoweringPattern::ReduceLoweringPattern;
  bool carriesOut(ReduceOp, const ReduceLowering &lowering) const override {
    return !lowering.overMembers && lowering.strategy == ReduceStrategy::Redux;
  }
  Tuple lower(PatternRewriter &rewriter, ReduceOp op,
              const Combiner &) const override {
    Location loc = op.getLoc();
    Value value = op.getValues().front();
    if (op.getValidLanes()) {
      Value lane = LaneIdOp::create(rewriter, loc, rewriter.getI32Type());
      Value valid = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, lane, op.getValidLanes());
      Value identity =
          buildCombinePadding(rewriter, loc, *op.getKind(), value.getType());
      value = arith::SelectOp::create(rewriter, loc, valid, value, identity);
    }
    return {lowerReduceToRedux(rewriter, loc, *op.getKind(), value,
                               op.getMask())};
  }
};

/// The butterfly: every lane ends with the result.
struct ReduceToButterfly : public ReduceLoweringPattern {
  using ReduceLoweringPattern::ReduceLoweringPattern;
  bool carriesOut(ReduceOp op, const ReduceLowering &lowering) const override {
    return !lowering.overMembers &&
           lowering.strategy == ReduceStrategy::Butterfly &&
           !op.getValidLanes();
  }
  Tuple lower(PatternRewriter &rewriter, ReduceOp op,
              const Combiner &combine) const override {
    return lowerReduceToButterfly(rewriter, op.getLoc(), op, combine);
  }
};

/// The tree: the result in each cluster's first lane, then broadcast from
/// there for `lanes = all`. Also the butterfly's lowering over the first
/// `valid_lanes` lanes, whose partners past them a butterfly would read.
struct ReduceToTree : public ReduceLoweringPattern {
  using ReduceLoweringPattern::ReduceLoweringPattern;
  bool carriesOut(ReduceOp op, const ReduceLowering &lowering) const override {
    return !lowering.overMembers &&
           (lowering.strategy == ReduceStrategy::Tree ||
            (lowering.strategy == ReduceStrategy::Butterfly &&
             op.getValidLanes()));
  }
  Tuple lower(PatternRewriter &rewriter, ReduceOp op,
              const Combiner &combine) const override {
    Tuple result =
        op.getValidLanes()
            ? lowerPartialReduceToTree(rewriter, op.getLoc(), op, combine)
            : lowerReduceToTree(rewriter, op.getLoc(), op, combine);
    if (op.getLanes() != ResultLanes::All)
      return result;
    return broadcastFromClusterHead(rewriter, op.getLoc(), op, result);
  }
};

struct ExpandScan : public OpRewritePattern<ScanOp> {
  ExpandScan(MLIRContext *ctx, ScanStepPreference scanSteps)
      : OpRewritePattern(ctx), scanSteps(scanSteps) {}

  LogicalResult matchAndRewrite(ScanOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, lowerScan(rewriter, op.getLoc(), op, scanSteps));
    return success();
  }

  ScanStepPreference scanSteps;
};

//===----------------------------------------------------------------------===//
// Broadcast, broadcast_first, compact
//===----------------------------------------------------------------------===//

struct ExpandBroadcast : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, ShuffleOp::create(rewriter, op.getLoc(),
                                             ShuffleMode::Idx, op.getValue(),
                                             op.getLane(), kWarpSize,
                                             op.getMask())
                               .getResult());
    return success();
  }
};

struct ExpandBroadcastFirst : public OpRewritePattern<BroadcastFirstOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastFirstOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A member mask names lanes that all execute the op (as for every
    // collective), so it is the member set as given. `activemask` would only
    // read the lanes that happen to run together at that instant: under
    // independent thread scheduling a subset of the mask, whose leader is
    // another lane. Without a mask the members are, by definition, the lanes
    // that execute the op together.
    Value members = op.getMask();
    if (!members)
      members = ActiveMaskOp::create(rewriter, loc, rewriter.getI32Type());
    Value leader = math::CountTrailingZerosOp::create(rewriter, loc, members);
    rewriter.replaceOp(op, ShuffleOp::create(rewriter, loc, ShuffleMode::Idx,
                                             op.getValue(), leader, kWarpSize,
                                             members)
                               .getResult());
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

/// A tile's ballot or vote (`width w` < 32, cooperative groups'
/// `tiled_partition<w>`): the warp's ballot over the same mask, cut to the
/// executing lane's tile, whose first lane is `lane & -w`:
///
///   %b = warp.ballot %p mask %m : i32
///   ballot:  (%b >> first) & (2^w - 1)
///   any:     (%b & tile) != 0            (tile = (2^w - 1) << first)
///   all:     (ballot(!%p) & tile) == 0
///   uni:     not (some lane of the tile true and some false)
template <typename Op>
struct ExpandTileVote final : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    unsigned width = op.getWidth();
    if (width == kWarpSize)
      return failure();
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto cst = [&](int64_t v) { return buildI32Constant(rewriter, loc, v); };
    Value lane = LaneIdOp::create(rewriter, loc, i32);
    Value first = arith::AndIOp::create(rewriter, loc, lane,
                                        cst(~int64_t(width - 1)));
    Value low = cst((int64_t(1) << width) - 1);
    auto ballotOf = [&](Value predicate) -> Value {
      return BallotOp::create(rewriter, loc, i32, predicate, op.getMask());
    };
    if constexpr (std::is_same_v<Op, BallotOp>) {
      Value shifted = arith::ShRUIOp::create(
          rewriter, loc, ballotOf(op.getPredicate()), first);
      rewriter.replaceOpWithNewOp<arith::AndIOp>(op, shifted, low);
      return success();
    } else {
      Value tile = arith::ShLIOp::create(rewriter, loc, low, first);
      // Whether some lane of the tile has a bit in the ballot of `p`.
      auto someLane = [&](Value predicate) -> Value {
        Value bits = arith::AndIOp::create(rewriter, loc, ballotOf(predicate),
                                           tile);
        return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                     bits, cst(0));
      };
      auto notOf = [&](Value v) -> Value {
        Value yes = arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getBoolAttr(true));
        return arith::XOrIOp::create(rewriter, loc, v, yes);
      };
      Value predicate = op.getPredicate();
      Value result;
      switch (op.getKind()) {
      case VoteKind::Any:
        result = someLane(predicate);
        break;
      case VoteKind::All:
        result = notOf(someLane(notOf(predicate)));
        break;
      case VoteKind::Uni:
        result = notOf(arith::AndIOp::create(rewriter, loc, someLane(predicate),
                                             someLane(notOf(predicate))));
        break;
      }
      rewriter.replaceOp(op, result);
      return success();
    }
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
    Operation *root = getOperation();
    auto expand = [&](Operation *scope) {
      FailureOr<Chip> chip = getLoweringChip(scope);
      return failed(chip) ||
             failed(expandCollectives(
                 scope, ExpandCollectivesOptions{
                            *chip, getForcedStrategy(strategy), scanSteps}));
    };
    // Each gpu.module lowers for the chip of its own target; code outside
    // every gpu.module for the default chip.
    if (!isa<gpu::GPUModuleOp>(root) &&
        !root->getParentOfType<gpu::GPUModuleOp>()) {
      SmallVector<gpu::GPUModuleOp> modules;
      root->walk<WalkOrder::PreOrder>([&](gpu::GPUModuleOp module) {
        modules.push_back(module);
        return WalkResult::skip();
      });
      for (gpu::GPUModuleOp module : modules)
        if (expand(module))
          return signalPassFailure();
    }
    if (expand(root))
      signalPassFailure();
  }
};

/// How many copies of its combine region the expansion of `op` (a reduce or
/// a scan) makes: one per shuffle step, and one for a scan's `init`.
uint64_t getCombinerCopies(Operation *op) {
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return llvm::Log2_32_Ceil(reduce.getClusterSize());
  auto scan = cast<ScanOp>(op);
  return llvm::Log2_32_Ceil(scan.getWidth()) + (scan.getInit().empty() ? 0 : 1);
}

/// Refuses a reduce or scan whose expansion would be out of proportion to
/// its input. The expansion copies a combine region once per shuffle step,
/// so every collective nested in a combine region multiplies the code of
/// what it holds, and a few levels would take more time and memory than any
/// compile should. The estimate counts each op once and each combine region
/// once per copy, plus the ops of each step (a shuffle and its operands);
/// it is computed bottom-up in one walk.
LogicalResult checkExpansionSize(Operation *root) {
  // Ops one step needs besides the combine region.
  constexpr uint64_t kStepOps = 4;
  // Any collective may expand to this many ops, and to this many times its
  // input: enough for two levels of nesting, not for three (unless tiny).
  constexpr uint64_t kMinBudget = 8192;
  constexpr uint64_t kMaxGrowth = 64;
  // For each op whose nested ops have been seen: their estimated expansion
  // and their number now.
  DenseMap<Operation *, std::pair<uint64_t, uint64_t>> nested;
  WalkResult walk = root->walk([&](Operation *op) {
    if (op == root)
      return WalkResult::advance();
    auto [nestedExpanded, nestedSize] = nested.lookup(op);
    nested.erase(op);
    uint64_t size = llvm::SaturatingAdd<uint64_t>(1, nestedSize);
    uint64_t expanded = llvm::SaturatingAdd<uint64_t>(1, nestedExpanded);
    if (isa<ReduceOp, ScanOp>(op) && !op->getRegion(0).empty()) {
      uint64_t copies = getCombinerCopies(op);
      expanded = llvm::SaturatingAdd<uint64_t>(
          1, llvm::SaturatingMultiply<uint64_t>(
                 copies, llvm::SaturatingAdd(nestedExpanded, kStepOps)));
      uint64_t budget = std::max(
          kMinBudget, llvm::SaturatingMultiply<uint64_t>(kMaxGrowth, size));
      if (expanded > budget) {
        InFlightDiagnostic diag = op->emitOpError();
        diag << "would expand to about " << expanded << " operations from "
             << size
             << ": the expansion copies the combine region once per shuffle "
                "step ("
             << copies
             << " here), so each collective nested in a combine region "
                "multiplies the code it holds; compute the nested collectives "
                "outside the combine region, or nest fewer of them";
        op->getRegion(0).walk<WalkOrder::PreOrder>([&](Operation *inner) {
          if (!isa<ReduceOp, ScanOp>(inner))
            return WalkResult::advance();
          diag.attachNote(inner->getLoc()) << "nested collective here";
          return WalkResult::interrupt();
        });
        return WalkResult::interrupt();
      }
    }
    auto &parent = nested[op->getParentOp()];
    parent.first = llvm::SaturatingAdd(parent.first, expanded);
    parent.second = llvm::SaturatingAdd(parent.second, size);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

} // namespace

LogicalResult
mlir::warp::expandCollectives(Operation *root,
                              const ExpandCollectivesOptions &options) {
  // Diagnose forced strategies the chip cannot do, and decisions written
  // on the ops that cannot be carried out, before rewriting anything.
  WalkResult walk = root->walk([&](Operation *op) {
    LogicalResult checked = success();
    if (auto scan = dyn_cast<ScanOp>(op))
      checked = getScanStepForms(scan, scan.getKind(), scan.getValues(),
                                 options.scanSteps, /*emitErrors=*/true);
    else if (auto reduce = dyn_cast<ReduceOp>(op))
      checked = reduce.isSegmented()
                    ? LogicalResult(getScanStepForms(
                          reduce, reduce.getKind(), reduce.getValues(),
                          options.scanSteps, /*emitErrors=*/true))
                    : LogicalResult(getReduceLowering(reduce, options,
                                                      /*emitErrors=*/true));
    else if (auto atomic = dyn_cast<AtomicRMWOp>(op))
      checked = checkAtomicOnChip(atomic, options.chip);
    return failed(checked) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (failed(checkExpansionSize(root)))
    return failure();
  if (failed(prepareExchanges(root, options.chip)) ||
      failed(prepareMergeSorts(root, options.chip)))
    return failure();
  padSubwordVectorPayloads(root);
  RewritePatternSet patterns(root->getContext());
  populateExpandCollectivesPatterns(patterns, options);
  return applyPatternsLinearly(root, std::move(patterns), [](Operation *op) {
    return isa<WarpDialect>(op->getDialect());
  });
}

std::optional<ReduceStrategy>
mlir::warp::getForcedStrategy(StrategyPreference preference) {
  switch (preference) {
  case StrategyPreference::Auto:
    return std::nullopt;
  case StrategyPreference::Butterfly:
    return ReduceStrategy::Butterfly;
  case StrategyPreference::Tree:
    return ReduceStrategy::Tree;
  case StrategyPreference::Redux:
    return ReduceStrategy::Redux;
  }
  llvm_unreachable("unknown strategy preference");
}

void mlir::warp::populateExpandCollectivesPatterns(
    RewritePatternSet &patterns, const ExpandCollectivesOptions &options) {
  patterns.add<ExpandSegmentedReduce>(patterns.getContext(),
                                      options.scanSteps);
  patterns.add<ReduceOverMembers, ReduceToRedux, ReduceToButterfly,
               ReduceToTree>(patterns.getContext(), options);
  patterns.add<ExpandScan>(patterns.getContext(), options.scanSteps);
  patterns.add<ExpandBroadcast, ExpandBroadcastFirst, ExpandCompact,
               ExpandTileVote<BallotOp>, ExpandTileVote<VoteOp>>(
      patterns.getContext());
  populateExpandExchangePatterns(patterns);
  populateExpandMergeSortPatterns(patterns);
  populateExpandElectAndAtomicPatterns(patterns, options.chip);
}
