//===- ExpandAtomics.cpp - warp.elect fallback, warp-aggregated atomics ---===//
//
// warp.elect without elect.sync (below sm_90): the lowest lane of the
// ballot of the mask (its lowest set bit), the lane elect.sync elects.
//
// warp.atomic_rmw: lanes with equal addresses form a group (match.any); a
// Kogge-Stone scan of the kind over each group's lanes in rank order (each
// lane finds the member d ranks below with `fns`) gives every lane its
// inclusive prefix; the group's highest lane holds the group's value and
// does the one atomic; a shuffle gives the old value to the group, and
// each lane combines it with its exclusive prefix:
//
//   %old = warp.atomic_rmw <add> %v, %buf[%i] : f32, memref<?xf32>
// becomes
//   %members = warp.activemask : i32
//   %peers = warp.match_any %address mask %members : i64
//   5 x (fns, warp.shuffle <idx>, arith.addf, arith.select)
//   %prefix = warp.shuffle <idx> %inclusive, %previous_member
//   %o = scf.if %is_highest_member { memref.atomic_rmw addf %inclusive ... }
//   %group_old = warp.shuffle <idx> %o, %highest_member
//   %old = %group_old + %prefix   (%group_old in the lowest member)
//
// Integer add subtracts the lane's value instead of the prefix shuffle
// (sums are exact modulo 2^n) and multiplies a constant value by the rank.
// `exch` has no scan: the highest lane exchanges its own value, and each
// other lane returns the value of the member below it. The atomic is
// memref.atomic_rmw (relaxed, gpu scope: CUDA's atomicAdd), or
// warp.lane_atomic_rmw for a packed pair, a 16-bit exch, a float min/max
// (a compare-and-swap loop of atom.cas of the element's width) or another
// scope or order, with
// a warp.syncwarp of the members before a release and after an acquire.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Transforms/Networks.h"

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Utils/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

//===----------------------------------------------------------------------===//
// Elect
//===----------------------------------------------------------------------===//

/// The lowest lane of ballot(true, mask), i.e. of the mask's lanes that
/// exist and have not exited: the lane whose bit is the ballot's lowest set
/// bit (`b & -b`). The ballot waits for the mask's lanes (.sync), so every
/// lane sees the same set, unlike activemask. With the leader's lane as a
/// result: that bit's index, and the flag is `lane == leader`.
struct ExpandElectToBallot final : public OpRewritePattern<ElectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ElectOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value yes =
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
    Value present = BallotOp::create(rewriter, loc, i32, yes, op.getMask());
    if (op.getLeader()) {
      // The ballot holds the lane itself, so it is never 0: its trailing
      // zeros with 0 as poison, which LLVM computes without the branch it
      // puts around math.cttz for a zero operand.
      Value leader = LLVM::CountTrailingZerosOp::create(
          rewriter, loc, i32, present, /*is_zero_poison=*/true);
      Value lane = LaneIdOp::create(rewriter, loc, i32);
      Value isLeader = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, lane, leader);
      rewriter.replaceOp(op, {isLeader, leader});
      return success();
    }
    Value negated = arith::SubIOp::create(
        rewriter, loc, buildI32Constant(rewriter, loc, 0), present);
    Value lowestBit = arith::AndIOp::create(rewriter, loc, present, negated);
    Value ownBit = LaneMaskOp::create(rewriter, loc, i32, LaneMaskKind::Eq);
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, arith::CmpIPredicate::eq,
                                               lowestBit, ownBit);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Warp-aggregated atomic add
//===----------------------------------------------------------------------===//

/// The byte address of `memref[indices]` as i64: what lanes compare to find
/// their group (the memref itself may differ from lane to lane). The byte
/// offset is formed in i64 from the element offset, so that with a 32-bit
/// device index (which holds element offsets, not byte offsets) elements of
/// one memref 4 GiB apart stay apart. The base pointer has the index width:
/// with a 32-bit index only its low half, so lanes adding into different
/// memrefs whose pointers agree modulo 4 GiB would be grouped (a limit of
/// `device-index-bitwidth=32`).
Value buildElementAddress(OpBuilder &b, Location loc, AtomicRMWOp op) {
  Value memref = op.getMemref();
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(op.getIndices(), metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  Type i64 = b.getI64Type();
  Value bytes = arith::ConstantIntOp::create(
      b, loc, i64, getAtomicBitWidth(type.getElementType()) / 8);
  Value offset = arith::MulIOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, i64, linear), bytes);
  Value base = arith::IndexCastUIOp::create(
      b, loc, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
  return arith::AddIOp::create(b, loc, base, offset);
}

/// `fns.b32`: the lane of the `distance`-th member of `peers` below `lane`
/// (`lane` itself is a member), or `lane` when there is none, so that a
/// shuffle from it never reads a lane outside the member set.
Value buildMemberBelow(OpBuilder &b, Location loc, Value peers, Value lane,
                       unsigned distance) {
  // Counting down from `lane`, the first set bit is `lane` itself.
  Value count = buildI32Constant(b, loc, -int64_t(distance) - 1);
  Value found = buildFindNthSet(b, loc, peers, lane, count);
  // Not found is 0xffffffff, above every lane.
  return arith::MinUIOp::create(b, loc, found, lane);
}

struct ExpandAtomicRMW final : public OpRewritePattern<AtomicRMWOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtomicRMWOp op,
                                PatternRewriter &rewriter) const override {
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    Type i32 = b.getI32Type();
    Value value = op.getValue();
    Type type = value.getType();
    const AtomicKindInfo &info = getAtomicKindInfo(op.getKind());
    std::optional<CombineKind> kind = info.combine;
    bool isFloat = isa<FloatType>(getElementTypeOrSelf(type));
    bool isIntegerAdd = kind == CombineKind::Add && !isFloat;
    auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
    auto shuffleFrom = [&](Value v, Value source, Value members) {
      return ShuffleOp::create(b, loc, ShuffleMode::Idx, v, source, kWarpSize,
                               members)
          .getResult();
    };

    Value members = op.getMask() ? op.getMask()
                                 : ActiveMaskOp::create(b, loc, i32).getResult();
    Value peers = MatchAnyOp::create(b, loc, i32,
                                     buildElementAddress(b, loc, op), members);
    Value lane = LaneIdOp::create(b, loc, i32);
    Value below = LaneMaskOp::create(b, loc, i32, LaneMaskKind::Lt);
    Value rank = math::CtPopOp::create(
        b, loc, arith::AndIOp::create(b, loc, peers, below));

    // What the highest member applies: the inclusive prefix of its group,
    // a Kogge-Stone scan over the group's ranks, `earlier op later`; for
    // exch its own value. A constant c needs no scan: an integer add is
    // c * (rank + 1), an idempotent kind (min, max, and, or) c itself.
    bool idempotent = kind && getCombineKindInfo(*kind).idempotent;
    bool constant = matchPattern(value, m_Constant());
    Value inclusive = value;
    Value previousMember;
    if (isIntegerAdd && constant) {
      Value count = arith::AddIOp::create(b, loc, rank, cst(1));
      if (type != i32)
        count = arith::ExtUIOp::create(b, loc, type, count);
      inclusive = arith::MulIOp::create(b, loc, value, count);
    } else if (kind && !(idempotent && constant)) {
      // The scan network over the group's members in lane order: the
      // partner `distance` members below, counting where the rank reaches
      // it (else the lane itself, buildMemberBelow).
      auto partner = [&](ValueRange own, unsigned distance) {
        Value source = buildMemberBelow(b, loc, peers, lane, distance);
        if (distance == 1)
          previousMember = source;
        return shuffleFrom(own.front(), source, members);
      };
      auto partnerAt = [&](ValueRange own, unsigned distance) {
        Value earlier = partner(own, distance);
        Value reaches = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::uge, rank, cst(distance));
        return ScanPartner{{earlier}, reaches};
      };
      auto combine = [&](ValueRange partner, ValueRange own) {
        return Tuple{buildCombine(b, loc, *kind, partner.front(), own.front())};
      };
      // An idempotent kind needs no test: where no member is `distance`
      // below, the partner is the lane itself, and x op x == x.
      auto idempotentStep = [&](ValueRange own,
                                unsigned distance) -> std::optional<Tuple> {
        if (!idempotent)
          return std::nullopt;
        return Tuple{buildCombine(b, loc, *kind, partner(own, distance),
                                  own.front())};
      };
      inclusive = buildKoggeStoneScan(b, loc, inclusive, kWarpSize, partnerAt,
                                      combine, idempotentStep)
                      .front();
    }

    // The group's highest lane holds the group's value and does the atomic.
    Value highest = arith::SubIOp::create(
        b, loc, cst(kWarpSize - 1),
        math::CountLeadingZerosOp::create(b, loc, peers));
    Value isHighest =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, highest);
    // A release orders every member's earlier accesses before the atomic,
    // an acquire the atomic before every member's later ones.
    MemoryOrder order = op.getOrdering();
    bool releases =
        order == MemoryOrder::Release || order == MemoryOrder::AcqRel;
    bool acquires =
        order == MemoryOrder::Acquire || order == MemoryOrder::AcqRel;
    if (releases)
      SyncWarpOp::create(b, loc, members);
    auto atomic = scf::IfOp::create(b, loc, TypeRange{type}, isHighest,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&atomic.getThenRegion().front());
      Value old;
      if (usesLaneAtomic(op))
        old = LaneAtomicRMWOp::create(b, loc, type, op.getKindAttr(), inclusive,
                                      op.getMemref(), op.getIndices(),
                                      op.getScopeAttr(), op.getOrderingAttr());
      else
        old = memref::AtomicRMWOp::create(
            b, loc, type,
            arith::AtomicRMWKindAttr::get(
                b.getContext(), *(isFloat ? info.onFloats : info.onIntegers)),
            inclusive, op.getMemref(), op.getIndices());
      scf::YieldOp::create(b, loc, old);
      b.setInsertionPointToStart(&atomic.getElseRegion().front());
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
      scf::YieldOp::create(b, loc, zero);
    }
    if (acquires)
      SyncWarpOp::create(b, loc, members);
    Value groupOld = shuffleFrom(atomic.getResult(0), highest, members);
    Value result;
    if (isIntegerAdd) {
      // Integer sums are exact modulo 2^n: the exclusive prefix is the
      // inclusive one less the lane's own value.
      Value prefix = arith::SubIOp::create(b, loc, inclusive, value);
      result = arith::AddIOp::create(b, loc, groupOld, prefix);
    } else {
      // What the member below left: its inclusive prefix combined with
      // the old value, or (exch) its value.
      if (!previousMember)
        previousMember = buildMemberBelow(b, loc, peers, lane, 1);
      Value prefix = shuffleFrom(inclusive, previousMember, members);
      Value afterBelow =
          kind ? buildCombine(b, loc, *kind, groupOld, prefix) : prefix;
      Value isLowest =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank, cst(0));
      result = arith::SelectOp::create(b, loc, isLowest, groupOld, afterBelow);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

bool mlir::warp::usesLaneAtomic(AtomicRMWOp op) {
  // memref.atomic_rmw would leave a 16-bit exch or min/max, and a bf16 add
  // below sm_90, to LLVM's lowering of a 16-bit atomicrmw: a CAS loop over
  // the aligned 32-bit word, which reads and swaps the 2 bytes beside the
  // element (past a buffer's end: out of bounds for compute-sanitizer);
  // warp.lane_atomic_rmw's is atom.add.noftz.bf16 or a loop of atom.cas.b16,
  // as CUDA's atomicAdd(__nv_bfloat16 *).
  Type type = op.getValue().getType();
  return isa<VectorType>(type) ||
         (op.getKind() == AtomicKind::Exch && getAtomicBitWidth(type) == 16) ||
         (op.getKind() == AtomicKind::Add && type.isBF16()) ||
         isFloatMinMaxAtomic(op.getKind()) ||
         op.getScope() != MemoryScope::GPU ||
         op.getOrdering() != MemoryOrder::Relaxed;
}

LogicalResult mlir::warp::checkAtomicOnChip(AtomicRMWOp op, const Chip &chip) {
  // memref.atomic_rmw's lowering has every chip covered (LLVM emits a
  // compare-and-swap loop where atom has no instruction).
  if (!usesLaneAtomic(op))
    return success();
  return chip.checkAtomic(op, op.getKind(), op.getValue().getType(),
                          op.getScope());
}

void mlir::warp::populateExpandElectAndAtomicPatterns(
    RewritePatternSet &patterns, const Chip &chip) {
  patterns.add<ExpandAtomicRMW>(patterns.getContext());
  if (!chip.hasElectSync())
    patterns.add<ExpandElectToBallot>(patterns.getContext());
}
