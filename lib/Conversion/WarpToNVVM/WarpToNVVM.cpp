//===- WarpToNVVM.cpp - lower primitive warp ops to NVVM ------------------===//
//
// Lowers ids, masks, shuffles, votes, matches, syncwarp and activemask to
// NVVM with CUDA's encodings. Shuffles legalize their payload into 32-bit
// words: values of up to 32 bits travel in one `shfl.sync` (narrow integers
// zero-extended, two 16-bit values packed), 64-bit scalars in two, vectors of
// a multiple of 32 bits as that many words, anything else element by element.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Conversion/Passes.h"

#include "WarpDialect/IR/ShuffleRule.h"
#include "WarpDialect/Transforms/CombineKinds.h"
#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::warp {
#define GEN_PASS_DEF_CONVERTWARPTONVVMPASS
#include "WarpDialect/Conversion/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

//===----------------------------------------------------------------------===//
// Payload legalization: any payload <-> 32-bit words
//===----------------------------------------------------------------------===//

unsigned getBitWidth(Type type) {
  if (auto vectorType = dyn_cast<VectorType>(type))
    return vectorType.getNumElements() *
           vectorType.getElementType().getIntOrFloatBitWidth();
  return type.getIntOrFloatBitWidth();
}

/// `type` with its (index) elements as i64: how index payloads travel.
Type withI64Elements(Type type) {
  Type i64 = IntegerType::get(type.getContext(), 64);
  if (auto vectorType = dyn_cast<VectorType>(type))
    return vectorType.clone(i64);
  return i64;
}

/// Vectors that cannot be reinterpreted as whole 32-bit words (i1 elements,
/// or more than 32 bits that are not a multiple of 32) move element by
/// element.
bool movesElementwise(VectorType type) {
  if (type.getElementType().isInteger(1))
    return true;
  unsigned bits = getBitWidth(type);
  return bits > 32 && bits % 32 != 0;
}

void packToWords(OpBuilder &b, Location loc, Value value,
                 SmallVectorImpl<Value> &words);

void packElementwise(OpBuilder &b, Location loc, Value vector,
                     SmallVectorImpl<Value> &words) {
  auto type = cast<VectorType>(vector.getType());
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    Value element = LLVM::ExtractElementOp::create(b, loc, vector,
                                                   buildI32Constant(b, loc, i));
    packToWords(b, loc, element, words);
  }
}

void packToWords(OpBuilder &b, Location loc, Value value,
                 SmallVectorImpl<Value> &words) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  if (getElementTypeOrSelf(type).isIndex()) {
    value = arith::IndexCastOp::create(b, loc, withI64Elements(type), value);
    type = value.getType();
  }
  auto vectorType = dyn_cast<VectorType>(type);
  if (vectorType && movesElementwise(vectorType))
    return packElementwise(b, loc, value, words);
  unsigned bits = getBitWidth(type);
  if (bits <= 32) {
    Type intType = b.getIntegerType(bits);
    Value asInt = value;
    if (vectorType)
      asInt = LLVM::BitcastOp::create(b, loc, intType, value);
    else if (isa<FloatType>(type))
      asInt = arith::BitcastOp::create(b, loc, intType, value);
    if (bits < 32)
      asInt = arith::ExtUIOp::create(b, loc, i32, asInt);
    words.push_back(asInt);
    return;
  }
  // A multiple of 32 bits: reinterpret as <N x i32> and take the words.
  unsigned numWords = bits / 32;
  if (!vectorType) {
    Value asInt = arith::BitcastOp::create(b, loc, b.getI64Type(), value);
    words.push_back(arith::TruncIOp::create(b, loc, i32, asInt));
    Value high = arith::ShRUIOp::create(
        b, loc, asInt,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
    words.push_back(arith::TruncIOp::create(b, loc, i32, high));
    return;
  }
  Value asWords = LLVM::BitcastOp::create(
      b, loc, VectorType::get({int64_t(numWords)}, i32), value);
  for (unsigned i = 0; i < numWords; ++i)
    words.push_back(LLVM::ExtractElementOp::create(
        b, loc, asWords, buildI32Constant(b, loc, i)));
}

/// Rebuilds a value of `type` from the words packToWords produced, consuming
/// them from `words` front to back.
Value unpackFromWords(OpBuilder &b, Location loc, Type type,
                      ArrayRef<Value> &words) {
  Type i32 = b.getI32Type();
  if (getElementTypeOrSelf(type).isIndex()) {
    Value wide = unpackFromWords(b, loc, withI64Elements(type), words);
    return arith::IndexCastOp::create(b, loc, type, wide);
  }
  auto vectorType = dyn_cast<VectorType>(type);
  if (vectorType && movesElementwise(vectorType)) {
    Value vector = LLVM::PoisonOp::create(b, loc, vectorType);
    for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i) {
      Value element =
          unpackFromWords(b, loc, vectorType.getElementType(), words);
      vector = LLVM::InsertElementOp::create(b, loc, vector, element,
                                             buildI32Constant(b, loc, i));
    }
    return vector;
  }
  unsigned bits = getBitWidth(type);
  if (bits <= 32) {
    Value word = words.front();
    words = words.drop_front();
    Type intType = b.getIntegerType(bits);
    Value asInt = word;
    if (bits < 32)
      asInt = arith::TruncIOp::create(b, loc, intType, word);
    if (vectorType)
      return LLVM::BitcastOp::create(b, loc, type, asInt);
    if (isa<FloatType>(type))
      return arith::BitcastOp::create(b, loc, type, asInt);
    return asInt;
  }
  unsigned numWords = bits / 32;
  ArrayRef<Value> mine = words.take_front(numWords);
  words = words.drop_front(numWords);
  if (!vectorType) {
    Type i64 = b.getI64Type();
    Value low = arith::ExtUIOp::create(b, loc, i64, mine[0]);
    Value high = arith::ExtUIOp::create(b, loc, i64, mine[1]);
    Value shifted = arith::ShLIOp::create(
        b, loc, high,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
    Value joined = arith::OrIOp::create(b, loc, low, shifted);
    if (isa<FloatType>(type))
      return arith::BitcastOp::create(b, loc, type, joined);
    return joined;
  }
  auto wordsType = VectorType::get({int64_t(numWords)}, i32);
  Value asWords = LLVM::PoisonOp::create(b, loc, wordsType);
  for (unsigned i = 0; i < numWords; ++i)
    asWords = LLVM::InsertElementOp::create(b, loc, asWords, mine[i],
                                            buildI32Constant(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, type, asWords);
}

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

/// The `c` operand of `shfl.sync` (ShuffleRule.h): a constant for a constant
/// width, `((32 - width) << 8) | clamp` computed at run time otherwise.
Value buildClampOperand(OpBuilder &b, Location loc, ShuffleOp op,
                        Value dynamicWidth) {
  if (std::optional<unsigned> width = op.getStaticWidth())
    return buildI32Constant(b, loc, shuffleClampOperand(op.getMode(), *width));
  Value segmentMask = arith::SubIOp::create(
      b, loc, buildI32Constant(b, loc, kWarpSize), dynamicWidth);
  Value shifted = arith::ShLIOp::create(b, loc, segmentMask,
                                        buildI32Constant(b, loc, 8));
  // The clamp bits are those of the constant operand for width 32.
  return arith::OrIOp::create(
      b, loc, shifted,
      buildI32Constant(b, loc, shuffleClampOperand(op.getMode(), kWarpSize)));
}

struct LowerShuffle : public OpConversionPattern<ShuffleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ShuffleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type i1 = rewriter.getI1Type();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), {i32, i1});
    Value mask = buildMemberMaskOrAll(rewriter, loc, adaptor.getMask());
    Value clamp = buildClampOperand(rewriter, loc, op, adaptor.getDynamicWidth());

    SmallVector<Value> words;
    packToWords(rewriter, loc, adaptor.getValue(), words);
    SmallVector<Value> moved;
    Value valid;
    // Ask for the valid bit only when someone reads it, and only once: every
    // word reads the same source lane.
    bool wantValid = !op.getValid().use_empty();
    NVVM::ShflKind kind = toNVVMShuffleKind(op.getMode());
    for (Value word : words) {
      if (wantValid && !valid) {
        auto pair = NVVM::ShflOp::create(rewriter, loc, resultType, mask, word,
                                         adaptor.getOffset(), clamp, kind,
                                         rewriter.getUnitAttr());
        markConvergent(pair);
        moved.push_back(LLVM::ExtractValueOp::create(rewriter, loc, pair, 0));
        valid = LLVM::ExtractValueOp::create(rewriter, loc, pair, 1);
        continue;
      }
      auto shfl = NVVM::ShflOp::create(rewriter, loc, i32, mask, word,
                                       adaptor.getOffset(), clamp, kind,
                                       /*return_value_and_is_valid=*/
                                       UnitAttr());
      markConvergent(shfl);
      moved.push_back(shfl);
    }
    if (!valid) // Unused: any value will do.
      valid =
          arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
    ArrayRef<Value> remaining = moved;
    Value result =
        unpackFromWords(rewriter, loc, op.getValue().getType(), remaining);
    rewriter.replaceOp(op, {result, valid});
    return success();
  }
};

struct LowerLaneId : public OpConversionPattern<LaneIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LaneIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::LaneIdOp>(op, rewriter.getI32Type());
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
        op, thread, buildI32Constant(rewriter, loc, 5));
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

struct LowerSyncWarp : public OpConversionPattern<SyncWarpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SyncWarpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto sync = rewriter.replaceOpWithNewOp<NVVM::SyncWarpOp>(
        op, buildMemberMaskOrAll(rewriter, op.getLoc(), adaptor.getMask()));
    markConvergent(sync);
    return success();
  }
};

/// ballot (i32 result) and vote (i1 result): one `vote.sync`.
template <typename Op>
struct LowerVoteSync : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
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
        buildMemberMaskOrAll(rewriter, op.getLoc(), adaptor.getMask()),
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

struct LowerMatchAny : public OpConversionPattern<MatchAnyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatchAnyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto match = rewriter.replaceOpWithNewOp<NVVM::MatchSyncOp>(
        op, rewriter.getI32Type(),
        buildMemberMaskOrAll(rewriter, loc, adaptor.getMask()),
        bitsOf(rewriter, loc, adaptor.getValue()), NVVM::MatchSyncKind::any);
    markConvergent(match);
    return success();
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
        buildMemberMaskOrAll(rewriter, loc, adaptor.getMask()),
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
    ConversionTarget target(getContext());
    target.addIllegalDialect<WarpDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateWarpToNVVMPatterns(patterns);
    // Collectives (reduce, scan, ...) left here were not expanded: the
    // conversion reports them ("failed to legalize").
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::warp::populateWarpToNVVMPatterns(RewritePatternSet &patterns,
                                            PatternBenefit benefit) {
  patterns.add<LowerShuffle, LowerLaneId, LowerWarpId,
               LowerLaneMask<LaneMaskKind::Lt, NVVM::LaneMaskLtOp>,
               LowerLaneMask<LaneMaskKind::Le, NVVM::LaneMaskLeOp>,
               LowerLaneMask<LaneMaskKind::Eq, NVVM::LaneMaskEqOp>,
               LowerLaneMask<LaneMaskKind::Ge, NVVM::LaneMaskGeOp>,
               LowerLaneMask<LaneMaskKind::Gt, NVVM::LaneMaskGtOp>,
               LowerActiveMask, LowerSyncWarp, LowerVoteSync<BallotOp>,
               LowerVoteSync<VoteOp>, LowerMatchAny, LowerMatchAll>(
      patterns.getContext(), benefit);
}
