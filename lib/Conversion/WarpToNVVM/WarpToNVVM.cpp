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
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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

/// Vectors that cannot be reinterpreted as whole 32-bit words (i1/index
/// elements, or more than 32 bits that are not a multiple of 32) move
/// element by element.
bool movesElementwise(VectorType type) {
  Type elem = type.getElementType();
  if (elem.isIndex() || elem.isInteger(1))
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
  if (type.isIndex()) {
    value = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
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
  if (type.isIndex()) {
    Value wide = unpackFromWords(b, loc, b.getI64Type(), words);
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

struct LowerShuffle : public OpRewritePattern<ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type i1 = rewriter.getI1Type();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), {i32, i1});
    Value mask = buildMemberMaskOrAll(rewriter, loc, op.getMask());
    Value clamp = buildI32Constant(
        rewriter, loc, shuffleClampOperand(op.getMode(), op.getWidth()));

    SmallVector<Value> words;
    packToWords(rewriter, loc, op.getValue(), words);
    SmallVector<Value> moved;
    Value valid;
    // Ask for the valid bit only when someone reads it, and only once: every
    // word reads the same source lane.
    bool wantValid = !op.getValid().use_empty();
    for (Value word : words) {
      NVVM::ShflKind kind = toNVVMShuffleKind(op.getMode());
      if (wantValid && !valid) {
        Value pair = NVVM::ShflOp::create(rewriter, loc, resultType, mask, word,
                                          op.getOffset(), clamp, kind,
                                          rewriter.getUnitAttr());
        moved.push_back(LLVM::ExtractValueOp::create(rewriter, loc, pair, 0));
        valid = LLVM::ExtractValueOp::create(rewriter, loc, pair, 1);
        continue;
      }
      moved.push_back(NVVM::ShflOp::create(rewriter, loc, i32, mask, word,
                                           op.getOffset(), clamp, kind,
                                           /*return_value_and_is_valid=*/
                                           UnitAttr()));
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

struct LowerLaneId : public OpRewritePattern<LaneIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LaneIdOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::LaneIdOp>(op, rewriter.getI32Type());
    return success();
  }
};

struct LowerWarpId : public OpRewritePattern<WarpIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WarpIdOp op,
                                PatternRewriter &rewriter) const override {
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

struct LowerLaneMask : public OpRewritePattern<LaneMaskOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LaneMaskOp op,
                                PatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    switch (op.getKind()) {
    case LaneMaskKind::Lt:
      rewriter.replaceOpWithNewOp<NVVM::LaneMaskLtOp>(op, i32);
      break;
    case LaneMaskKind::Le:
      rewriter.replaceOpWithNewOp<NVVM::LaneMaskLeOp>(op, i32);
      break;
    case LaneMaskKind::Eq:
      rewriter.replaceOpWithNewOp<NVVM::LaneMaskEqOp>(op, i32);
      break;
    case LaneMaskKind::Ge:
      rewriter.replaceOpWithNewOp<NVVM::LaneMaskGeOp>(op, i32);
      break;
    case LaneMaskKind::Gt:
      rewriter.replaceOpWithNewOp<NVVM::LaneMaskGtOp>(op, i32);
      break;
    }
    return success();
  }
};

struct LowerActiveMask : public OpRewritePattern<ActiveMaskOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ActiveMaskOp op,
                                PatternRewriter &rewriter) const override {
    // NVVM has no op for it; the asm has side effects so LLVM keeps it where
    // it is (convergence at this point is what it reports).
    auto asmOp = LLVM::InlineAsmOp::create(
        rewriter, op.getLoc(), rewriter.getI32Type(), ValueRange(),
        "activemask.b32 $0;", "=r", /*has_side_effects=*/true,
        /*is_align_stack=*/false, LLVM::TailCallKind::None,
        /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
    rewriter.replaceOp(op, asmOp.getResult(0));
    return success();
  }
};

struct LowerSyncWarp : public OpRewritePattern<SyncWarpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SyncWarpOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::SyncWarpOp>(
        op, buildMemberMaskOrAll(rewriter, op.getLoc(), op.getMask()));
    return success();
  }
};

struct LowerBallot : public OpRewritePattern<BallotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BallotOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::VoteSyncOp>(
        op, rewriter.getI32Type(),
        buildMemberMaskOrAll(rewriter, op.getLoc(), op.getMask()),
        op.getPredicate(), NVVM::VoteSyncKind::ballot);
    return success();
  }
};

struct LowerVote : public OpRewritePattern<VoteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(VoteOp op,
                                PatternRewriter &rewriter) const override {
    NVVM::VoteSyncKind kind = NVVM::VoteSyncKind::any;
    if (op.getKind() == VoteKind::All)
      kind = NVVM::VoteSyncKind::all;
    else if (op.getKind() == VoteKind::Uni)
      kind = NVVM::VoteSyncKind::uni;
    rewriter.replaceOpWithNewOp<NVVM::VoteSyncOp>(
        op, rewriter.getI1Type(),
        buildMemberMaskOrAll(rewriter, op.getLoc(), op.getMask()),
        op.getPredicate(), kind);
    return success();
  }
};

struct LowerMatchAny : public OpRewritePattern<MatchAnyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatchAnyOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::MatchSyncOp>(
        op, rewriter.getI32Type(),
        buildMemberMaskOrAll(rewriter, op.getLoc(), op.getMask()),
        op.getValue(), NVVM::MatchSyncKind::any);
    return success();
  }
};

struct LowerMatchAll : public OpRewritePattern<MatchAllOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatchAllOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto pairType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), {rewriter.getI32Type(), rewriter.getI1Type()});
    Value pair = NVVM::MatchSyncOp::create(
        rewriter, loc, pairType,
        buildMemberMaskOrAll(rewriter, loc, op.getMask()), op.getValue(),
        NVVM::MatchSyncKind::all);
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
    FailureOr<ExpandCollectivesOptions> options =
        parseExpandOptions(getOperation(), chip, "auto");
    if (failed(options))
      return signalPassFailure();
    // Match needs sm_70+: every chip we accept has it.
    if (failed(expandCollectives(getOperation(), *options)))
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateWarpToNVVMPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // Anything left (e.g. a forced redux the chip cannot do) is an error.
    WalkResult walk = getOperation()->walk([&](Operation *op) {
      if (!isa<WarpDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitOpError("could not be lowered to NVVM for ") << chip.getValue();
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::warp::populateWarpToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerShuffle, LowerLaneId, LowerWarpId, LowerLaneMask,
               LowerActiveMask, LowerSyncWarp, LowerBallot, LowerVote,
               LowerMatchAny, LowerMatchAll>(patterns.getContext());
}
