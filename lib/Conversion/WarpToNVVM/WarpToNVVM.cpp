//===- WarpToNVVM.cpp - lower primitive warp ops to NVVM ------------------===//
//
// Lowers ids, masks, shuffles, votes, matches, syncwarp and activemask to
// NVVM with CUDA's encodings, one warp op to one NVVM op (warp.scan_step to
// CUB's inline PTX pair), after the in-dialect step that splits shuffle
// payloads into 32-bit words (ShufflePayloads.cpp).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Conversion/Passes.h"

#include "WarpDialect/IR/ShuffleRule.h"
#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/InlinePTX.h"
#include "WarpDialect/IR/BlockSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::warp {
#define GEN_PASS_DEF_CONVERTWARPTONVVMPASS
#include "WarpDialect/Conversion/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

NVVM::ShflKind toNVVMShuffleKind(ShuffleMode mode) {
  switch (mode) {
  case ShuffleMode::Idx:
    return NVVM::ShflKind::idx;
  case ShuffleMode::Xor:
    return NVVM::ShflKind::bfly;
  case ShuffleMode::Up:
    return NVVM::ShflKind::up;
  case ShuffleMode::Down:
    return NVVM::ShflKind::down;
  }
  llvm_unreachable("unknown shuffle mode");
}

/// An i32 constant for `user`, made once per function: at the start of the
/// entry block of the function around `user`, where a later use finds it.
/// Lowering one collective after another needs the same few constants (the
/// all-lanes mask -1 and the clamp operand 31 for each of a reduction's
/// shuffles); a constant per use would be 1,000 ops for a 500-shuffle kernel
/// that every later pass walks until a greedy driver or CSE merges them.
/// Only the leading constants of the entry block are searched (where this
/// puts its own), so a lookup stays short.
Value getFunctionI32Constant(OpBuilder &b, Operation *user, int64_t value) {
  Operation *function =
      user->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!function || function->getNumRegions() == 0 ||
      function->getRegion(0).empty())
    return buildI32Constant(b, user->getLoc(), value);
  Block &entry = function->getRegion(0).front();
  for (Operation &op : entry) {
    auto constant = dyn_cast<arith::ConstantOp>(op);
    if (!constant)
      break;
    auto attr = dyn_cast<IntegerAttr>(constant.getValue());
    if (attr && attr.getType().isInteger(32) && attr.getInt() == value)
      return constant;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&entry);
  return buildI32Constant(b, function->getLoc(), value);
}

/// `mask`, or the all-lanes mask where the op has none.
Value getMemberMaskOrAll(OpBuilder &b, Operation *user, Value mask) {
  return mask ? mask : getFunctionI32Constant(b, user, -1);
}

/// The `c` operand of `shfl.sync` (ShuffleRule.h): a constant for a constant
/// width, `((32 - width) << 8) | clamp` computed at run time otherwise, and
/// the bound itself where there is one (segment mask 0: the whole warp).
Value buildClampOperand(OpBuilder &b, Location loc, ShuffleOp op,
                        Value dynamicWidth, Value bound) {
  if (bound)
    return bound;
  if (std::optional<unsigned> width = op.getStaticWidth())
    return getFunctionI32Constant(b, op,
                                  shuffleClampOperand(op.getMode(), *width));
  Value segmentMask = arith::SubIOp::create(
      b, loc, getFunctionI32Constant(b, op, kWarpSize), dynamicWidth);
  Value shifted = arith::ShLIOp::create(b, loc, segmentMask,
                                        getFunctionI32Constant(b, op, 8));
  // The clamp bits are those of the constant operand for width 32.
  return arith::OrIOp::create(
      b, loc, shifted,
      getFunctionI32Constant(b, op,
                             shuffleClampOperand(op.getMode(), kWarpSize)));
}

/// One i32 or f32 `warp.shuffle` to one `nvvm.shfl.sync` (other payloads
/// were split into words by populateShufflePayloadPatterns).
struct LowerShuffle : public OpConversionPattern<ShuffleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ShuffleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getValue().getType();
    if (!isShuffleWord(type))
      return rewriter.notifyMatchFailure(op, "payload not split into words");
    Location loc = op.getLoc();
    Value mask = getMemberMaskOrAll(rewriter, op, adaptor.getMask());
    Value clamp =
        buildClampOperand(rewriter, loc, op, adaptor.getDynamicWidth(),
                          adaptor.getBound());
    NVVM::ShflKind kind = toNVVMShuffleKind(op.getMode());
    // Ask for the valid bit only when someone reads it.
    if (op.getValid().use_empty()) {
      auto shfl = NVVM::ShflOp::create(
          rewriter, loc, type, mask, adaptor.getValue(), adaptor.getOffset(),
          clamp, kind, /*return_value_and_is_valid=*/UnitAttr());
      markConvergent(shfl);
      // No value for the unused valid bit (a null replacement drops it).
      rewriter.replaceOp(op, {shfl.getResult(), Value()});
      return success();
    }
    auto pairType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), {type, rewriter.getI1Type()});
    auto pair = NVVM::ShflOp::create(rewriter, loc, pairType, mask,
                                     adaptor.getValue(), adaptor.getOffset(),
                                     clamp, kind, rewriter.getUnitAttr());
    markConvergent(pair);
    rewriter.replaceOp(op,
                       {LLVM::ExtractValueOp::create(rewriter, loc, pair, 0),
                        LLVM::ExtractValueOp::create(rewriter, loc, pair, 1)});
    return success();
  }
};

/// CUB's scan step (its inline PTX in WarpScanShfl), one to one:
///   shfl.sync.up.b32 r|p, x, d, c, m;  @p add.s32 r, r, x;
/// (c: the width's clamp constant, or the step's bound), two instructions
/// where a shuffle, a combine and a select would make three.
struct LowerScanStep : public OpConversionPattern<ScanStepOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanStepOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getValue();
    // The verifier allows only kinds and types that have a step.
    StringRef instruction = *getPredicatedScanStep(op.getKind(), x.getType());
    bool isFloat = x.getType().isF32();
    StringRef type = isFloat ? ".f32" : ".b32";
    InlinePTX ptx(isFloat ? "f" : "r");
    std::string value = ptx.operand(x, isFloat ? "f" : "r");
    std::string clamp =
        adaptor.getBound()
            ? ptx.i32(adaptor.getBound())
            : std::to_string(shuffleClampOperand(op.getMode(), op.getWidth()));
    std::string mask =
        adaptor.getMask() ? ptx.i32(adaptor.getMask()) : std::string("-1");
    ptx << "{ .reg .pred p; .reg " << type << " r; shfl.sync."
        << (op.getMode() == ShuffleMode::Up ? "up" : "down") << ".b32 r|p, "
        << value << ", " << Twine(op.getOffset()) << ", " << clamp << ", "
        << mask << "; @p " << instruction << " r, "
        << (op.getPartnerFirst() ? "r, " + value : value + ", r") << "; mov"
        << type << " $0, r; }";
    rewriter.replaceOp(op, ptx.createConvergent(rewriter, op.getLoc(),
                                                x.getType()));
    return success();
  }
};

/// %laneid, or tid.x mod 32 where the kernel's known_block_size makes them
/// equal: CUDA forms warps from consecutive thread numbers x + X (y + Y z),
/// so the lane is tid.x mod 32 when X is a multiple of 32. That is one AND
/// on a register the kernel usually reads anyway (its index), where %laneid
/// is an S2R of its own, which made memory-bound kernels measurably slower
/// on the H200. A one-dimensional ragged block (48 threads) would allow it
/// too, but there LLVM no longer bounded the raking block scan's segment
/// loops by the lane (a slower kernel), so it keeps %laneid.
struct LowerLaneId : public OpConversionPattern<LaneIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LaneIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    std::optional<std::array<int64_t, 3>> known = getKnownBlockSize(op);
    if (!known || (*known)[0] % kWarpSize != 0) {
      rewriter.replaceOpWithNewOp<NVVM::LaneIdOp>(op, i32);
      return success();
    }
    Value thread = NVVM::ThreadIdXOp::create(rewriter, op.getLoc(), i32);
    rewriter.replaceOpWithNewOp<arith::AndIOp>(
        op, thread, getFunctionI32Constant(rewriter, op, kWarpSize - 1));
    return success();
  }
};

struct LowerWarpId : public OpConversionPattern<WarpIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value thread = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    if (op.getLinear()) {
      // ((tid.z * ntid.y) + tid.y) * ntid.x + tid.x
      Value z = NVVM::ThreadIdZOp::create(rewriter, loc, i32);
      Value y = NVVM::ThreadIdYOp::create(rewriter, loc, i32);
      Value dimY = NVVM::BlockDimYOp::create(rewriter, loc, i32);
      Value dimX = NVVM::BlockDimXOp::create(rewriter, loc, i32);
      Value zy = arith::AddIOp::create(
          rewriter, loc, arith::MulIOp::create(rewriter, loc, z, dimY), y);
      thread = arith::AddIOp::create(
          rewriter, loc, arith::MulIOp::create(rewriter, loc, zy, dimX),
          thread);
    }
    rewriter.replaceOpWithNewOp<arith::ShRUIOp>(
        op, thread, getFunctionI32Constant(rewriter, op, 5));
    return success();
  }
};

/// warp.lanemask <kind> to the `%lanemask_<kind>` special register.
template <LaneMaskKind Kind, typename NVVMOp>
struct LowerLaneMask : public OpConversionPattern<LaneMaskOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LaneMaskOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() != Kind)
      return failure();
    rewriter.replaceOpWithNewOp<NVVMOp>(op, rewriter.getI32Type());
    return success();
  }
};

struct LowerActiveMask : public OpConversionPattern<ActiveMaskOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ActiveMaskOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // NVVM has no op for it; LLVM's intrinsic is convergent and has side
    // effects, so LLVM neither moves nor merges it.
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, op.getLoc(), rewriter.getI32Type(),
        rewriter.getStringAttr("llvm.nvvm.activemask"), ValueRange());
    markConvergent(call);
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

/// syncwarp to `bar.warp.sync` over its member mask.
struct LowerSyncWarp : public OpConversionPattern<SyncWarpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SyncWarpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lowered = rewriter.replaceOpWithNewOp<NVVM::SyncWarpOp>(
        op, getMemberMaskOrAll(rewriter, op, adaptor.getMask()));
    markConvergent(lowered);
    return success();
  }
};

/// elect to `elect.sync` (sm_90+; the expansion rewrites elect into a
/// ballot for older chips, and both elect the lowest lane of the mask):
/// NVVM's op for the flag alone; with the leader's lane as a result too,
/// one `elect.sync %r|%p` in inline PTX (NVVM's op gives only the flag).
struct LowerElect : public OpConversionPattern<ElectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ElectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value mask = getMemberMaskOrAll(rewriter, op, adaptor.getMask());
    if (!op.getLeader()) {
      auto lowered = rewriter.replaceOpWithNewOp<NVVM::ElectSyncOp>(
          op, op.getResult().getType(), mask);
      markConvergent(lowered);
      return success();
    }
    InlinePTX ptx(ArrayRef<StringRef>{"r", "b"});
    ptx << "elect.sync $0|$1, " << ptx.i32(mask) << ";";
    SmallVector<Value> results = ptx.createConvergent(
        rewriter, op.getLoc(),
        TypeRange{rewriter.getI32Type(), rewriter.getI1Type()});
    rewriter.replaceOp(op, {results[1], results[0]});
    return success();
  }
};

/// ballot (i32 result) and vote (i1 result) of the whole warp: one
/// `vote.sync` (warp-expand-collectives rewrites a tile's into the warp's).
template <typename Op>
struct LowerVoteSync : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getWidth() != kWarpSize)
      return rewriter.notifyMatchFailure(op, "a tile's vote is expanded first");
    NVVM::VoteSyncKind kind = NVVM::VoteSyncKind::ballot;
    if constexpr (std::is_same_v<Op, VoteOp>) {
      kind = NVVM::VoteSyncKind::any;
      if (op.getKind() == VoteKind::All)
        kind = NVVM::VoteSyncKind::all;
      else if (op.getKind() == VoteKind::Uni)
        kind = NVVM::VoteSyncKind::uni;
    }
    auto vote = rewriter.replaceOpWithNewOp<NVVM::VoteSyncOp>(
        op, op.getType(),
        getMemberMaskOrAll(rewriter, op, adaptor.getMask()),
        adaptor.getPredicate(), kind);
    markConvergent(vote);
    return success();
  }
};

/// match.sync compares integers; floats are compared bit for bit.
Value bitsOf(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (!isa<FloatType>(type))
    return value;
  return arith::BitcastOp::create(
      b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
}

/// match_any: one match.sync, of the compared low bits where `bits` is
/// given (in one 32-bit word where they fit); by ballots (the op's strategy
/// or its default, getStrategyOrDefault), CUB's MatchAny one to one, per
/// bit k (an inline block, so that LLVM keeps one test of the bit for the
/// ballot and the complement):
///   and.b32 t, x, 1<<k; setp.ne.u32 p, t, 0;
///   vote.sync.ballot.b32 m, p, mask; @!p not.b32 m, m; and.b32 r, r, m;
/// and, for a member mask that is not the whole warp, the result and-ed with
/// it (the complements set the other lanes' bits).
struct LowerMatchAny : public OpConversionPattern<MatchAnyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatchAnyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    unsigned bits = op.getComparedBits();
    Value value = bitsOf(rewriter, loc, adaptor.getValue());
    if (bits <= kWarpSize && value.getType() != i32)
      value = arith::TruncIOp::create(rewriter, loc, i32, value);
    if (op.getStrategyOrDefault() == MatchStrategy::Ballots) {
      rewriter.replaceOp(op, buildBallots(rewriter, loc, value, bits,
                                          adaptor.getMask()));
      return success();
    }
    unsigned width = value.getType().getIntOrFloatBitWidth();
    if (bits < width)
      value = arith::AndIOp::create(
          rewriter, loc, value,
          arith::ConstantOp::create(
              rewriter, loc,
              rewriter.getIntegerAttr(value.getType(),
                                      APInt::getLowBitsSet(width, bits))));
    auto match = rewriter.replaceOpWithNewOp<NVVM::MatchSyncOp>(
        op, i32, getMemberMaskOrAll(rewriter, op, adaptor.getMask()), value,
        NVVM::MatchSyncKind::any);
    markConvergent(match);
    return success();
  }

private:
  static Value buildBallots(OpBuilder &b, Location loc, Value value,
                            unsigned bits, Value mask) {
    InlinePTX ptx("r");
    std::string x = ptx.operand(value, "r");
    bool wholeWarp = !mask || getConstantIntValue(mask) == -1;
    std::string members = wholeWarp ? std::string("-1") : ptx.i32(mask);
    ptx << "{ .reg .pred p; .reg .b32 t, m; ";
    for (unsigned bit = 0; bit < bits; ++bit) {
      StringRef agree = bit == 0 ? "$0" : "m";
      ptx << "and.b32 t, " << x << ", 0x" << llvm::utohexstr(1u << bit)
          << "; setp.ne.u32 p, t, 0; vote.sync.ballot.b32 " << agree
          << ", p, " << members << "; @!p not.b32 " << agree << ", "
          << agree << "; ";
      if (bit > 0)
        ptx << "and.b32 $0, $0, m; ";
    }
    if (!wholeWarp)
      ptx << "and.b32 $0, $0, " << members << "; ";
    ptx << "}";
    return ptx.createConvergent(b, loc, b.getI32Type());
  }
};

struct LowerMatchAll : public OpConversionPattern<MatchAllOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatchAllOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto pairType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), {rewriter.getI32Type(), rewriter.getI1Type()});
    auto pair = NVVM::MatchSyncOp::create(
        rewriter, loc, pairType,
        getMemberMaskOrAll(rewriter, op, adaptor.getMask()),
        bitsOf(rewriter, loc, adaptor.getValue()), NVVM::MatchSyncKind::all);
    markConvergent(pair);
    Value mask = LLVM::ExtractValueOp::create(rewriter, loc, pair, 0);
    Value pred = LLVM::ExtractValueOp::create(rewriter, loc, pair, 1);
    rewriter.replaceOp(op, {mask, pred});
    return success();
  }
};

struct ConvertWarpToNVVMPass
    : public warp::impl::ConvertWarpToNVVMPassBase<ConvertWarpToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    // In-dialect first: every shuffle payload becomes i32 words (an f32
    // stays one), so the conversion below is one warp op to one NVVM op. No
    // block merging (see markConvergent).
    RewritePatternSet payloads(&getContext());
    populateShufflePayloadPatterns(payloads);
    SmallVector<Operation *> shuffles;
    getOperation()->walk([&](ShuffleOp op) { shuffles.push_back(op); });
    if (failed(applyOpPatternsGreedily(
            shuffles, std::move(payloads),
            GreedyRewriteConfig()
                .enableFolding(true)
                .setStrictness(GreedyRewriteStrictness::ExistingAndNewOps))))
      return signalPassFailure();

    ConversionTarget target(getContext());
    // The tensor-core ops and lane_atomic_rmw need the memref descriptors
    // and the chip: convert-warp-mma-to-nvvm, which runs next, lowers them.
    target.addDynamicallyLegalDialect<WarpDialect>(isLoweredWithDescriptors);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateWarpToNVVMPatterns(patterns);
    // Collectives (reduce, scan, ...) left here were not expanded: the
    // conversion reports them ("failed to legalize").
    // Each pattern either fails before touching the IR or replaces its op,
    // so nothing needs rolling back; without rollback the driver rewrites
    // in place instead of recording every change.
    ConversionConfig config;
    config.allowPatternRollback = false;
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void mlir::warp::populateWarpToNVVMPatterns(RewritePatternSet &patterns,
                                            PatternBenefit benefit) {
  patterns.add<LowerShuffle, LowerScanStep, LowerLaneId, LowerWarpId,
               LowerLaneMask<LaneMaskKind::Lt, NVVM::LaneMaskLtOp>,
               LowerLaneMask<LaneMaskKind::Le, NVVM::LaneMaskLeOp>,
               LowerLaneMask<LaneMaskKind::Eq, NVVM::LaneMaskEqOp>,
               LowerLaneMask<LaneMaskKind::Ge, NVVM::LaneMaskGeOp>,
               LowerLaneMask<LaneMaskKind::Gt, NVVM::LaneMaskGtOp>,
               LowerActiveMask, LowerSyncWarp,
               LowerElect, LowerVoteSync<BallotOp>,
               LowerVoteSync<VoteOp>, LowerMatchAny, LowerMatchAll>(
      patterns.getContext(), benefit);
}
