//===- WarpDialect.cpp - warp dialect, verifiers and folders -------------===//
//
// Verifiers reject every malformed op with a message naming the offending
// value; folders only fire where CUDA's semantics make the answer lane- and
// schedule-independent.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/IR/ShuffleRule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::warp;

#include "WarpDialect/IR/WarpOpsDialect.cpp.inc"
#include "WarpDialect/IR/WarpOpsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "WarpDialect/IR/WarpOpsAttrs.cpp.inc"

void WarpDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "WarpDialect/IR/WarpOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "WarpDialect/IR/WarpOps.cpp.inc"
      >();
}

Operation *WarpDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

bool mlir::warp::isFloatOnlyKind(CombineKind kind) {
  switch (kind) {
  case CombineKind::MinNumF:
  case CombineKind::MaxNumF:
  case CombineKind::MinimumF:
  case CombineKind::MaximumF:
    return true;
  default:
    return false;
  }
}

bool mlir::warp::isIntegerOnlyKind(CombineKind kind) {
  return kind != CombineKind::Add && kind != CombineKind::Mul &&
         !isFloatOnlyKind(kind);
}

/// Kinds with combine(x, x) == x, for which a reduction of a uniform value is
/// the value itself.
static bool isIdempotentKind(CombineKind kind) {
  return kind != CombineKind::Add && kind != CombineKind::Mul &&
         kind != CombineKind::Xor;
}

static bool isValidWidth(int64_t w) {
  return w >= 1 && w <= int64_t(kWarpSize) && llvm::isPowerOf2_64(w);
}

/// The constant member mask of an op: all lanes when the operand is absent,
/// std::nullopt when it is not a constant.
static std::optional<uint32_t> getConstantMask(Value mask) {
  if (!mask)
    return ~uint32_t(0);
  APInt value;
  if (matchPattern(mask, m_ConstantInt(&value)))
    return uint32_t(value.getZExtValue());
  return std::nullopt;
}

static std::string hexMask(uint32_t mask) {
  return "0x" + llvm::utohexstr(mask, /*LowerCase=*/true, /*Width=*/8);
}

static std::optional<int64_t> getConstantI32(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

/// A member mask must name at least one lane: the executing lane is always in
/// it, so an empty constant mask can never be right.
static LogicalResult verifyMemberMask(Operation *op, Value mask) {
  if (std::optional<uint32_t> m = getConstantMask(mask); m && *m == 0)
    return op->emitOpError("member mask is empty; the executing lane must be "
                           "in it");
  return success();
}

/// Checks that a constant mask is a union of whole groups (clusters or
/// segments): a lane whose group partner is outside the mask would read an
/// undefined value.
static LogicalResult verifyMaskCoversGroups(Operation *op, Value mask,
                                            unsigned size, unsigned stride,
                                            StringRef groupName) {
  std::optional<uint32_t> m = getConstantMask(mask);
  if (!m)
    return success();
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(*m & (1u << lane)))
      continue;
    unsigned span = size * stride;
    unsigned base = (lane / span) * span + lane % stride;
    for (unsigned i = 0; i < size; ++i) {
      unsigned peer = base + i * stride;
      if (!(*m & (1u << peer)))
        return op->emitOpError()
               << "member mask " << hexMask(*m) << " splits a " << groupName
               << ": lane " << lane << " is in it but lane " << peer
               << " is not";
    }
  }
  return success();
}

static LogicalResult verifyKindMatchesType(Operation *op, CombineKind kind,
                                           Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isFloatOnlyKind(kind) && !isa<FloatType>(elem))
    return op->emitOpError() << "kind '" << stringifyCombineKind(kind)
                             << "' needs a floating-point value, got " << type;
  if (isIntegerOnlyKind(kind) && !isa<IntegerType>(elem))
    return op->emitOpError() << "kind '" << stringifyCombineKind(kind)
                             << "' needs an integer value, got " << type;
  return success();
}

/// A value every lane of the warp is known to hold: a constant, the warp id,
/// or the result of a full-warp collective that returns one value to all.
static bool isWarpUniform(Value v) {
  if (matchPattern(v, m_Constant()))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  return TypeSwitch<Operation *, bool>(def)
      .Case<WarpIdOp>([](auto) { return true; })
      .Case<BroadcastOp, BallotOp, VoteOp>(
          [](auto op) { return !op.getMask(); })
      .Case<ReduceOp>([](ReduceOp op) {
        return !op.getMask() && op.getClusterSize() == kWarpSize &&
               op.getLanes() == ResultLanes::All;
      })
      .Default([](Operation *) { return false; });
}

//===----------------------------------------------------------------------===//
// SyncWarpOp
//===----------------------------------------------------------------------===//

LogicalResult SyncWarpOp::verify() {
  return verifyMemberMask(*this, getMask());
}

//===----------------------------------------------------------------------===//
// ShuffleOp
//===----------------------------------------------------------------------===//

LogicalResult ShuffleOp::verify() {
  int64_t width = getWidth();
  if (!isValidWidth(width))
    return emitOpError() << "width must be a power of two in [1, 32], got "
                         << width;
  if (failed(verifyMemberMask(*this, getMask())))
    return failure();
  std::optional<int64_t> offset = getConstantI32(getOffset());
  if (!offset)
    return success();
  // up/down by `width` or more can never stay in the segment; idx and xor
  // read lanes of the warp (idx takes the lane modulo `width`, as CUDA does).
  bool readsLane =
      getMode() == ShuffleMode::Xor || getMode() == ShuffleMode::Idx;
  int64_t limit = readsLane ? kWarpSize : width;
  if (*offset < 0 || *offset >= limit)
    return emitOpError() << (getMode() == ShuffleMode::Idx ? "source lane "
                                                           : "offset ")
                         << *offset << " is out of range [0, " << limit
                         << ") for mode '" << stringifyShuffleMode(getMode())
                         << "' with width " << width;
  std::optional<uint32_t> mask = getConstantMask(getMask());
  if (!mask)
    return success();
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(*mask & (1u << lane)))
      continue;
    ShuffleSource src = evaluateShuffle(getMode(), lane, *offset, width);
    if (!(*mask & (1u << src.lane)))
      return emitOpError() << "lane " << lane << " reads lane " << src.lane
                           << ", which is outside member mask "
                           << hexMask(*mask);
  }
  return success();
}

LogicalResult ShuffleOp::fold(FoldAdaptor adaptor,
                              SmallVectorImpl<OpFoldResult> &results) {
  MLIRContext *ctx = getContext();
  auto boolAttr = [&](bool b) {
    return IntegerAttr::get(IntegerType::get(ctx, 1), b);
  };
  std::optional<int64_t> offset = getConstantI32(getOffset());
  // idx never leaves the segment: `valid` is always true.
  if (getMode() == ShuffleMode::Idx &&
      (getWidth() == 1 || isWarpUniform(getValue()))) {
    results.push_back(getValue());
    results.push_back(boolAttr(true));
    return success();
  }
  // Offset 0 reads the lane's own value in up, down and xor (idx 0 reads the
  // segment's first lane).
  if (offset && (*offset & 31) == 0 && getMode() != ShuffleMode::Idx) {
    results.push_back(getValue());
    results.push_back(boolAttr(true));
    return success();
  }
  return failure();
}

namespace {
/// Where every lane's `result` is its own `value` whichever lane it reads (a
/// uniform value, or a one-lane segment that `up`/`down`/`idx` cannot leave),
/// uses of `result` take `value`; `valid` still depends on the lane, so the
/// op stays while `valid` is used.
struct ForwardShuffledValue : public OpRewritePattern<ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getResult().use_empty())
      return failure();
    bool ownSegment = op.getWidth() == 1 && op.getMode() != ShuffleMode::Xor;
    if (!ownSegment && !isWarpUniform(op.getValue()))
      return failure();
    rewriter.replaceAllUsesWith(op.getResult(), op.getValue());
    return success();
  }
};
} // namespace

void ShuffleOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ForwardShuffledValue>(context);
}

//===----------------------------------------------------------------------===//
// BroadcastOp / BroadcastFirstOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  if (failed(verifyMemberMask(*this, getMask())))
    return failure();
  std::optional<int64_t> lane = getConstantI32(getLane());
  if (!lane)
    return success();
  if (*lane < 0 || *lane >= int64_t(kWarpSize))
    return emitOpError() << "source lane " << *lane
                         << " is out of range [0, 32)";
  std::optional<uint32_t> mask = getConstantMask(getMask());
  if (mask && !(*mask & (1u << *lane)))
    return emitOpError() << "source lane " << *lane
                         << " is outside member mask " << hexMask(*mask);
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  return isWarpUniform(getValue()) ? getValue() : OpFoldResult();
}

LogicalResult BroadcastFirstOp::verify() {
  return verifyMemberMask(*this, getMask());
}

OpFoldResult BroadcastFirstOp::fold(FoldAdaptor) {
  return isWarpUniform(getValue()) ? getValue() : OpFoldResult();
}

//===----------------------------------------------------------------------===//
// BallotOp / VoteOp / MatchAnyOp / MatchAllOp
//===----------------------------------------------------------------------===//

LogicalResult BallotOp::verify() { return verifyMemberMask(*this, getMask()); }

OpFoldResult BallotOp::fold(FoldAdaptor adaptor) {
  // ballot(false) is 0. ballot(true) is *not* the mask: lanes of the mask
  // that do not exist (a ragged last warp) or have exited contribute 0.
  auto pred = dyn_cast_if_present<IntegerAttr>(adaptor.getPredicate());
  if (pred && pred.getValue().isZero())
    return IntegerAttr::get(getType(), 0);
  return {};
}

LogicalResult VoteOp::verify() { return verifyMemberMask(*this, getMask()); }

OpFoldResult VoteOp::fold(FoldAdaptor adaptor) {
  auto pred = dyn_cast_if_present<IntegerAttr>(adaptor.getPredicate());
  if (!pred)
    return {};
  if (getKind() == VoteKind::Uni)
    return IntegerAttr::get(getType(), 1);
  return pred;
}

LogicalResult MatchAnyOp::verify() {
  return verifyMemberMask(*this, getMask());
}

LogicalResult MatchAllOp::verify() {
  return verifyMemberMask(*this, getMask());
}

namespace {
/// match_all of a value every lane holds succeeds: `pred` is true. The mask
/// result stays (it names the lanes that exist and have not exited).
struct MatchAllOfUniform : public OpRewritePattern<MatchAllOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatchAllOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getPred().use_empty() || !isWarpUniform(op.getValue()))
      return failure();
    Value isTrue = arith::ConstantOp::create(rewriter, op.getLoc(),
                                             rewriter.getBoolAttr(true));
    rewriter.replaceAllUsesWith(op.getPred(), isTrue);
    return success();
  }
};
} // namespace

void MatchAllOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<MatchAllOfUniform>(context);
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  unsigned size = getClusterSize(), stride = getClusterStride();
  if (!isValidWidth(getClusterSize()))
    return emitOpError() << "cluster_size must be a power of two in [1, 32], "
                            "got "
                         << getClusterSize();
  if (!isValidWidth(getClusterStride()))
    return emitOpError() << "cluster_stride must be a power of two in [1, 32]"
                            ", got "
                         << getClusterStride();
  if (size * stride > kWarpSize)
    return emitOpError() << "cluster_size * cluster_stride = " << size * stride
                         << " exceeds the warp size 32";
  if (failed(verifyKindMatchesType(*this, getKind(), getValue().getType())) ||
      failed(verifyMemberMask(*this, getMask())))
    return failure();
  if (getValidLanes()) {
    if (size != kWarpSize)
      return emitOpError("valid_lanes needs the whole-warp cluster "
                         "(cluster_size = 32)");
    if (std::optional<int64_t> n = getConstantI32(getValidLanes());
        n && (*n < 1 || *n > int64_t(kWarpSize)))
      return emitOpError() << "valid_lanes " << *n
                           << " is out of range [1, 32]";
  } else if (failed(verifyMaskCoversGroups(*this, getMask(), size, stride,
                                           "cluster"))) {
    return failure();
  }
  if (getStrategy() == ReduceStrategy::Redux) {
    Type type = getValue().getType();
    bool intOk = isa<IntegerType>(type) && type.getIntOrFloatBitWidth() <= 32 &&
                 getKind() != CombineKind::Mul;
    bool floatOk = type.isF32() && isFloatOnlyKind(getKind());
    if (!intOk && !floatOk)
      return emitOpError() << "strategy 'redux' cannot reduce " << type
                           << " with kind '" << stringifyCombineKind(getKind())
                           << "' (redux.sync takes scalar integers of up to 32 "
                              "bits without 'mul', or f32 min/max)";
    if (size != kWarpSize)
      return emitOpError("strategy 'redux' needs the whole-warp cluster "
                         "(cluster_size = 32)");
  }
  return success();
}

OpFoldResult ReduceOp::fold(FoldAdaptor) {
  // A one-lane cluster holds its own value.
  if (getClusterSize() == 1 && !getValidLanes())
    return getValue();
  if (isIdempotentKind(getKind()) && isWarpUniform(getValue()))
    return getValue();
  return {};
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  if (!isValidWidth(getWidth()))
    return emitOpError() << "width must be a power of two in [1, 32], got "
                         << getWidth();
  if (failed(verifyKindMatchesType(*this, getKind(), getValue().getType())) ||
      failed(verifyMemberMask(*this, getMask())) ||
      failed(
          verifyMaskCoversGroups(*this, getMask(), getWidth(), 1, "segment")))
    return failure();
  if (getInit() && getHeads())
    return emitOpError("init cannot be combined with segment heads");
  if (getTotal() && getTotal().getType() != getValue().getType())
    return emitOpError() << "total type " << getTotal().getType()
                         << " differs from the value type "
                         << getValue().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// CompactOp
//===----------------------------------------------------------------------===//

LogicalResult CompactOp::verify() { return verifyMemberMask(*this, getMask()); }

#define GET_OP_CLASSES
#include "WarpDialect/IR/WarpOps.cpp.inc"
