//===- WarpDialect.cpp - warp dialect, verifiers and folders -------------===//
//
// Verifiers check each op alone (its attributes and types), never the values
// other ops produce, so no fold can turn valid IR into invalid IR; facts about
// operand values are the lint pass's (warp-lint). Folders only fire where
// CUDA's semantics make the answer lane- and schedule-independent.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/WarpDialect.h"

#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/IR/MemorySpaces.h"
#include "WarpDialect/IR/PlantedBugs.h"
#include "WarpDialect/IR/ShuffleRule.h"
#include "WarpDialect/IR/Uniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::warp;

#include "WarpDialect/IR/WarpOpsDialect.cpp.inc"
#include "WarpDialect/IR/WarpOpsEnums.cpp.inc"
#include "WarpDialect/IR/WarpOpsInterfaces.cpp.inc"

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

uint32_t mlir::warp::getClusterLanePattern(unsigned size, unsigned stride) {
  uint32_t pattern = 0;
  for (unsigned i = 0; i < size; ++i)
    pattern |= 1u << (i * stride);
  return pattern;
}

std::optional<std::pair<unsigned, unsigned>>
mlir::warp::findSplitCluster(uint32_t mask, unsigned size, unsigned stride) {
  unsigned span = size * stride;
  uint32_t pattern = getClusterLanePattern(size, stride);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask & (1u << lane)))
      continue;
    uint32_t missing = (pattern << ((lane / span) * span + lane % stride)) & ~mask;
    if (missing)
      return std::make_pair(lane, unsigned(llvm::countr_zero(missing)));
  }
  return std::nullopt;
}

/// Whether the x extent of the block running `op` is known to be a multiple
/// of 32, so that `threadIdx.x / 32` names the hardware warp.
static bool blockXIsWholeWarps(Operation *op) {
  std::optional<std::array<int64_t, 3>> known = getKnownBlockSize(op);
  return known && (*known)[0] % kWarpSize == 0;
}

/// Whether the block running `op` is known to be whole warps (its thread
/// count a multiple of 32).
static bool blockIsWholeWarps(Operation *op) {
  std::optional<std::array<int64_t, 3>> known = getKnownBlockSize(op);
  return known && ((*known)[0] * (*known)[1] * (*known)[2]) % kWarpSize == 0;
}

/// A value every lane of a *hardware* warp holds: a constant, the linear
/// warp id (hardware warps are formed from the linear thread index), the
/// x warp id when the block's x extent is a multiple of 32, or the result of
/// a full-warp collective that returns one value to all lanes.
static bool isWarpUniform(Value v) {
  if (matchPattern(v, m_Constant()))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto id = dyn_cast<WarpIdOp>(def))
    return id.getLinear() || blockXIsWholeWarps(id);
  return isFullWarpUniformCollective(def);
}

bool mlir::warp::isFullWarpUniformCollective(Operation *op) {
  return TypeSwitch<Operation *, bool>(op)
      .Case<BroadcastOp>([](BroadcastOp op) { return !op.getMask(); })
      .Case<BallotOp, VoteOp>([](auto op) {
        // A tile's ballot or vote differs from tile to tile.
        return !op.getMask() && op.getWidth() == kWarpSize;
      })
      .Case<ReduceOp>([](ReduceOp op) {
        return !op.getMask() && reducesToEveryLane(op);
      })
      .Default([](Operation *) { return false; });
}

bool mlir::warp::reducesToEveryLane(Operation *op) {
  auto reduce = dyn_cast<ReduceOp>(op);
  return reduce && reduce.getClusterSize() == kWarpSize &&
         reduce.getLanes() == ResultLanes::All;
}

//===----------------------------------------------------------------------===//
// ScanStepOp
//===----------------------------------------------------------------------===//

LogicalResult ScanStepOp::verify() {
  if (getMode() != ShuffleMode::Up && getMode() != ShuffleMode::Down)
    return emitOpError("a scan step shuffles 'up' or 'down'");
  if (!getPredicatedScanStep(getKind(), getValue().getType()))
    return emitOpError() << "kind '" << stringifyCombineKind(getKind())
                         << "' has no predicated scan step on "
                         << getValue().getType();
  if (getOffset() >= getWidth())
    return emitOpError() << "offset " << getOffset()
                         << " must be below the width " << getWidth();
  if (getBound() && getWidth() != kWarpSize)
    return emitOpError("a bound needs the whole-warp width 32");
  return success();
}

//===----------------------------------------------------------------------===//
// ShuffleOp
//===----------------------------------------------------------------------===//

void ShuffleOp::build(OpBuilder &builder, OperationState &state,
                      ShuffleMode mode, Value value, Value offset,
                      unsigned width, Value mask) {
  build(builder, state, value.getType(), builder.getI1Type(), mode, value,
        offset, width, /*dynamic_width=*/Value(), /*bound=*/Value(), mask);
}

void ShuffleOp::build(OpBuilder &builder, OperationState &state,
                      ShuffleMode mode, Value value, Value offset, Value bound,
                      Value mask) {
  build(builder, state, value.getType(), builder.getI1Type(), mode, value,
        offset, kWarpSize, /*dynamic_width=*/Value(), bound, mask);
}

/// The offset, then `width 16`, `width %w`, or nothing for the default 32.
static ParseResult
parseOffsetAndWidth(OpAsmParser &parser, OpAsmParser::UnresolvedOperand &offset,
                    std::optional<OpAsmParser::UnresolvedOperand> &dynamicWidth,
                    IntegerAttr &width) {
  if (parser.parseOperand(offset))
    return failure();
  if (failed(parser.parseOptionalKeyword("width")))
    return success();
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
  if (isOperand.has_value()) {
    if (failed(*isOperand))
      return failure();
    dynamicWidth = operand;
    return success();
  }
  int32_t value;
  if (parser.parseInteger(value))
    return failure();
  width = parser.getBuilder().getI32IntegerAttr(value);
  return success();
}

static void printOffsetAndWidth(OpAsmPrinter &printer, ShuffleOp op,
                                Value offset, Value dynamicWidth,
                                IntegerAttr width) {
  printer << offset;
  if (dynamicWidth)
    printer << " width " << dynamicWidth;
  else if (width && width.getInt() != int64_t(kWarpSize))
    printer << " width " << width.getInt();
}

LogicalResult ShuffleOp::verify() {
  if (getDynamicWidth() && getWidth() != kWarpSize)
    return emitOpError("has both a constant and a run-time width");
  if (getBound() &&
      (getStaticWidth() != kWarpSize ||
       (getMode() != ShuffleMode::Up && getMode() != ShuffleMode::Down)))
    return emitOpError("takes a bound only for up and down over the whole "
                       "warp");
  return success();
}

LogicalResult ShuffleOp::fold(FoldAdaptor adaptor,
                              SmallVectorImpl<OpFoldResult> &results) {
  MLIRContext *ctx = getContext();
  auto boolAttr = [&](bool b) {
    return IntegerAttr::get(IntegerType::get(ctx, 1), b);
  };
  // A run-time width that turns out constant becomes the attribute.
  if (std::optional<int64_t> width = getConstantIntValue(getDynamicWidth());
      width && *width >= 1 && *width <= int64_t(kWarpSize) &&
      llvm::isPowerOf2_64(*width)) {
    setWidth(uint32_t(*width));
    getDynamicWidthMutable().clear();
    return success();
  }
  std::optional<int64_t> offset = getConstantIntValue(getOffset());
  // idx never leaves the segment: `valid` is always true.
  if (getMode() == ShuffleMode::Idx &&
      (getStaticWidth() == 1u || isWarpUniform(getValue()))) {
    results.push_back(getValue());
    results.push_back(boolAttr(true));
    return success();
  }
  // Offset 0 (low 5 bits) reads the lane's own value in up, down and xor,
  // whatever the width (idx 0 reads the segment's first lane); a lane past
  // its bound reads its own value too, but is not valid.
  if (offset && (*offset & 31) == 0 && getMode() != ShuffleMode::Idx &&
      !getBound()) {
    results.push_back(getValue());
    results.push_back(boolAttr(true));
    return success();
  }
  return failure();
}

namespace {
/// Where every lane's `result` is its own `value` whichever lane it reads (a
/// uniform value, a one-lane segment that `up`/`down`/`idx` cannot leave, or
/// offset 0 past a bound), uses of `result` take `value`; `valid` still
/// depends on the lane, so the op stays while `valid` is used.
struct ForwardShuffledValue : public OpRewritePattern<ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getResult().use_empty())
      return failure();
    bool ownSegment =
        op.getStaticWidth() == 1u && op.getMode() != ShuffleMode::Xor;
    std::optional<int64_t> offset = getConstantIntValue(op.getOffset());
    bool ownLane = op.getBound() && offset && (*offset & 31) == 0;
    if (!ownSegment && !ownLane && !isWarpUniform(op.getValue()))
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

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  return isWarpUniform(getValue()) ? getValue() : OpFoldResult();
}

OpFoldResult BroadcastFirstOp::fold(FoldAdaptor) {
  return isWarpUniform(getValue()) ? getValue() : OpFoldResult();
}

//===----------------------------------------------------------------------===//
// BallotOp / VoteOp / MatchAllOp / MatchAnyOp
//===----------------------------------------------------------------------===//

OpFoldResult BallotOp::fold(FoldAdaptor adaptor) {
  // ballot(false) is 0. ballot(true) is *not* the mask: lanes of the mask
  // that do not exist (a ragged last warp) or have exited contribute 0.
  auto pred = dyn_cast_if_present<IntegerAttr>(adaptor.getPredicate());
  if (pred && pred.getValue().isZero())
    return IntegerAttr::get(getType(), 0);
  return {};
}

OpFoldResult VoteOp::fold(FoldAdaptor adaptor) {
  auto pred = dyn_cast_if_present<IntegerAttr>(adaptor.getPredicate());
  if (!pred)
    return {};
  if (getKind() == VoteKind::Uni)
    return IntegerAttr::get(getType(), 1);
  return pred;
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

LogicalResult MatchAnyOp::verify() {
  Type type = getValue().getType();
  if (std::optional<uint32_t> bits = getBits()) {
    if (!isa<IntegerType>(type))
      return emitOpError("compares the low `bits` of an integer value, not ")
             << type;
    if (*bits > type.getIntOrFloatBitWidth())
      return emitOpError("compares ")
             << *bits << " bits of a value of " << type.getIntOrFloatBitWidth();
  }
  if (getStrategy() == MatchStrategy::Ballots &&
      (!getBits() || *getBits() > kWarpSize))
    return emitOpError("strategy <ballots> needs `bits` of at most ")
           << kWarpSize << " (one ballot per bit)";
  return success();
}

bool MatchAnyOp::foldLowBitMask() {
  auto andOp = getValue().getDefiningOp<arith::AndIOp>();
  if (!andOp)
    return false;
  for (std::pair<Value, Value> operands :
       {std::pair(andOp.getRhs(), andOp.getLhs()),
        std::pair(andOp.getLhs(), andOp.getRhs())}) {
    APInt lowMask;
    if (!matchPattern(operands.first, m_ConstantInt(&lowMask)) ||
        !lowMask.isMask())
      continue;
    setBits(std::min(lowMask.countTrailingOnes(), getComparedBits()));
    getValueMutable().set(operands.second);
    return true;
  }
  return false;
}

namespace {
/// match_any of `x & (2^N - 1)` compares the low N bits of x: `bits N` says
/// so and lets the lowering count the bits (a radix digit's match).
struct MatchAnyOfLowBits : public OpRewritePattern<MatchAnyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatchAnyOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.startOpModification(op);
    if (!op.foldLowBitMask()) {
      rewriter.cancelOpModification(op);
      return failure();
    }
    rewriter.finalizeOpModification(op);
    return success();
  }
};
} // namespace

void MatchAnyOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<MatchAnyOfLowBits>(context);
}

//===----------------------------------------------------------------------===//
// Combiners (ReduceOp, ScanOp)
//===----------------------------------------------------------------------===//

/// `<kind> %value` or, with a combiner region, `%value0, %value1, ...`.
static ParseResult
parseKindAndValues(OpAsmParser &parser, CombineKindAttr &kind,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values) {
  if (succeeded(parser.parseOptionalLess())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<CombineKind> parsed = symbolizeCombineKind(keyword);
    if (!parsed)
      return parser.emitError(loc)
             << "unknown combine kind '" << keyword << "'";
    kind = CombineKindAttr::get(parser.getContext(), *parsed);
    if (parser.parseGreater())
      return failure();
  }
  return parser.parseOperandList(values);
}

static void printKindAndValues(OpAsmPrinter &printer, Operation *,
                               CombineKindAttr kind, OperandRange values) {
  if (kind)
    printer << "<" << stringifyCombineKind(kind.getValue()) << "> ";
  printer << values;
}

/// The value types (the results have the same), then the combiner.
static ParseResult parseCombiner(OpAsmParser &parser, Region &region);
static void printCombiner(OpAsmPrinter &printer, Region &region);

static ParseResult parseReduceTypes(OpAsmParser &parser,
                                    SmallVectorImpl<Type> &valueTypes,
                                    SmallVectorImpl<Type> &resultTypes,
                                    Region &combiner) {
  if (parser.parseTypeList(valueTypes))
    return failure();
  resultTypes.assign(valueTypes.begin(), valueTypes.end());
  return parseCombiner(parser, combiner);
}

static void printReduceTypes(OpAsmPrinter &printer, Operation *,
                             TypeRange valueTypes, TypeRange,
                             Region &combiner) {
  llvm::interleaveComma(valueTypes, printer);
  printCombiner(printer, combiner);
}

/// The value types, then, when the scan returns segment totals, the same
/// types again: `: t` or `: t, t` for one value, `: t1, t2` or
/// `: t1, t2, t1, t2` for two; then the combiner. `init` takes the value
/// types.
static ParseResult parseScanTypes(
    OpAsmParser &parser, ArrayRef<OpAsmParser::UnresolvedOperand> values,
    ArrayRef<OpAsmParser::UnresolvedOperand> init,
    SmallVectorImpl<Type> &valueTypes, SmallVectorImpl<Type> &initTypes,
    SmallVectorImpl<Type> &resultTypes, Region &combiner) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<Type> types;
  if (parser.parseTypeList(types))
    return failure();
  size_t n = values.size();
  if (types.size() != n && types.size() != 2 * n)
    return parser.emitError(loc)
           << "expected " << n << " types (the values') or " << 2 * n
           << " (the values', then the segment totals'), got " << types.size();
  resultTypes.assign(types.begin(), types.end());
  valueTypes.assign(types.begin(), types.begin() + n);
  // A wrong number of init operands is the verifier's to report; give them
  // types so that parsing gets there.
  for (size_t i = 0; i < init.size(); ++i)
    initTypes.push_back(valueTypes[i % n]);
  return parseCombiner(parser, combiner);
}

static void printScanTypes(OpAsmPrinter &printer, Operation *, OperandRange,
                           OperandRange, TypeRange, TypeRange,
                           TypeRange resultTypes, Region &combiner) {
  llvm::interleaveComma(resultTypes, printer);
  printCombiner(printer, combiner);
}

/// The element types of `types` (vectors of a thread's items).
static SmallVector<Type> getItemTypes(TypeRange types) {
  return llvm::map_to_vector(
      types, [](Type type) { return getElementTypeOrSelf(type); });
}

/// As KindAndValues, then ` items` or nothing: whether each value holds a
/// thread's items (one directive, so that the type directives after it can
/// read the attribute).
static ParseResult
parseKindValuesItems(OpAsmParser &parser, CombineKindAttr &kind,
                     SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
                     UnitAttr &items) {
  if (failed(parseKindAndValues(parser, kind, values)))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("items")))
    items = parser.getBuilder().getUnitAttr();
  return success();
}

static void printKindValuesItems(OpAsmPrinter &printer, Operation *op,
                                 CombineKindAttr kind, OperandRange values,
                                 UnitAttr items) {
  printKindAndValues(printer, op, kind, values);
  if (items)
    printer << " items";
}

/// As ReduceTypes; with `items` the results have the values' element types.
static ParseResult parseBlockReduceTypes(OpAsmParser &parser, UnitAttr items,
                                         SmallVectorImpl<Type> &valueTypes,
                                         SmallVectorImpl<Type> &resultTypes,
                                         Region &combiner) {
  if (failed(parseReduceTypes(parser, valueTypes, resultTypes, combiner)))
    return failure();
  if (items)
    resultTypes.assign(getItemTypes(valueTypes));
  return success();
}

static void printBlockReduceTypes(OpAsmPrinter &printer, Operation *op,
                                  UnitAttr, TypeRange valueTypes,
                                  TypeRange resultTypes, Region &combiner) {
  printReduceTypes(printer, op, valueTypes, resultTypes, combiner);
}

/// As ScanTypes (the totals' types are written out); with `items` init has
/// the values' element types.
static ParseResult parseBlockScanTypes(
    OpAsmParser &parser, UnitAttr items,
    ArrayRef<OpAsmParser::UnresolvedOperand> values,
    ArrayRef<OpAsmParser::UnresolvedOperand> init,
    SmallVectorImpl<Type> &valueTypes, SmallVectorImpl<Type> &initTypes,
    SmallVectorImpl<Type> &resultTypes, Region &combiner) {
  if (failed(parseScanTypes(parser, values, init, valueTypes, initTypes,
                            resultTypes, combiner)))
    return failure();
  if (items)
    for (auto [i, type] : llvm::enumerate(initTypes))
      type = getElementTypeOrSelf(valueTypes[i % valueTypes.size()]);
  return success();
}

static void printBlockScanTypes(OpAsmPrinter &printer, Operation *op, UnitAttr,
                                OperandRange values, OperandRange init,
                                TypeRange valueTypes, TypeRange initTypes,
                                TypeRange resultTypes, Region &combiner) {
  printScanTypes(printer, op, values, init, valueTypes, initTypes, resultTypes,
                 combiner);
}

/// Nothing to read or write: a block scan's `heads` are an i1 per thread,
/// or with `items` a `vector<N x i1>` of the thread's N items.
static ParseResult
parseHeadsType(OpAsmParser &,
               std::optional<OpAsmParser::UnresolvedOperand> heads,
               UnitAttr items, ArrayRef<Type> valueTypes, Type &headsType) {
  if (!heads)
    return success();
  Type i1 = IntegerType::get(valueTypes.front().getContext(), 1);
  auto itemsType = dyn_cast<VectorType>(valueTypes.front());
  headsType = items && itemsType
                  ? Type(VectorType::get(itemsType.getShape(), i1))
                  : i1;
  return success();
}

static void printHeadsType(OpAsmPrinter &, Operation *, Value, UnitAttr,
                           TypeRange, Type) {}

/// Nothing to read or write: a block load's `default` has the items'
/// element type.
static ParseResult
parseDefaultType(OpAsmParser &,
                 std::optional<OpAsmParser::UnresolvedOperand> fill,
                 Type itemsType, Type &fillType) {
  if (fill)
    fillType = getElementTypeOrSelf(itemsType);
  return success();
}

static void printDefaultType(OpAsmPrinter &, Operation *, Value, Type, Type) {
}

/// `T`, the one type of every operand of `operands` (a histogram's even
/// levels: a lower and an upper level per channel), spelled once.
static ParseResult
parseSameTypes(OpAsmParser &parser,
               ArrayRef<OpAsmParser::UnresolvedOperand> operands,
               SmallVectorImpl<Type> &types) {
  Type type;
  if (parser.parseType(type))
    return failure();
  types.assign(operands.size(), type);
  return success();
}

static void printSameTypes(OpAsmPrinter &printer, Operation *, OperandRange,
                           TypeRange types) {
  printer << types.front();
}

/// `combine (%l0: t0, ..., %r0: t0, ...) { ... }` or nothing.
static ParseResult parseCombiner(OpAsmParser &parser, Region &region) {
  if (failed(parser.parseOptionalKeyword("combine")))
    return success();
  SmallVector<OpAsmParser::Argument> arguments;
  if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(region, arguments))
    return failure();
  if (region.empty())
    return parser.emitError(parser.getCurrentLocation(),
                            "the combiner region needs a block");
  return success();
}

static void printCombiner(OpAsmPrinter &printer, Region &region) {
  if (region.empty())
    return;
  printer << " combine (";
  llvm::interleaveComma(region.getArguments(), printer, [&](BlockArgument arg) {
    printer.printRegionArgument(arg);
  });
  printer << ") ";
  printer.printRegion(region, /*printEntryBlockArgs=*/false);
}

/// ` pred(%x: t) { ... }`: a device selection's predicate region.
/// `keyword(%x: t, ...) { ... }`: a region with its arguments, required
/// unless `optional` (then nothing without the keyword).
static ParseResult parseNamedRegion(OpAsmParser &parser, Region &region,
                                    StringRef keyword, bool optional = false) {
  SMLoc loc = parser.getCurrentLocation();
  if (optional && failed(parser.parseOptionalKeyword(keyword)))
    return success();
  SmallVector<OpAsmParser::Argument> arguments;
  if ((!optional && parser.parseKeyword(keyword)) ||
      parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(region, arguments))
    return failure();
  if (region.empty())
    return parser.emitError(loc) << "the " << keyword
                                 << " region needs a block";
  return success();
}

static void printNamedRegion(OpAsmPrinter &printer, Region &region,
                             StringRef keyword) {
  printer << " " << keyword << "(";
  llvm::interleaveComma(region.getArguments(), printer, [&](BlockArgument arg) {
    printer.printRegionArgument(arg);
  });
  printer << ") ";
  printer.printRegion(region, /*printEntryBlockArgs=*/false);
}

static ParseResult parsePredicate(OpAsmParser &parser, Region &region) {
  return parseNamedRegion(parser, region, "pred");
}

static void printPredicate(OpAsmPrinter &printer, Operation *,
                           Region &region) {
  printNamedRegion(printer, region, "pred");
}

/// An optional named region, ` <Keyword>(%a: t, ...) { ... }` or nothing.
template <const char *Keyword>
static ParseResult parseOptionalRegion(OpAsmParser &parser, Region &region) {
  return parseNamedRegion(parser, region, Keyword, /*optional=*/true);
}

template <const char *Keyword>
static void printOptionalRegion(OpAsmPrinter &printer, Operation *,
                                Region &region) {
  if (!region.empty())
    printNamedRegion(printer, region, Keyword);
}

/// A block scan's prefix computed from the block's totals, a scan by
/// key's equality, a radix rank's digit extractor and its early-counts
/// callback.
static constexpr char kPrefixKeyword[] = "prefix", kEqualKeyword[] = "equal",
                      kDigitKeyword[] = "digit", kCountsKeyword[] = "counts";
static constexpr auto parsePrefixRegion = parseOptionalRegion<kPrefixKeyword>;
static constexpr auto printPrefixRegion = printOptionalRegion<kPrefixKeyword>;
static constexpr auto parseEqualRegion = parseOptionalRegion<kEqualKeyword>;
static constexpr auto printEqualRegion = printOptionalRegion<kEqualKeyword>;
static constexpr auto parseDigitRegion = parseOptionalRegion<kDigitKeyword>;
static constexpr auto printDigitRegion = printOptionalRegion<kDigitKeyword>;
static constexpr auto parseCountsRegion = parseOptionalRegion<kCountsKeyword>;
static constexpr auto printCountsRegion = printOptionalRegion<kCountsKeyword>;

/// ` compare(%a: t, %b: t) { ... }`: a merge sort's order.
static ParseResult parseCompare(OpAsmParser &parser, Region &region) {
  return parseNamedRegion(parser, region, "compare");
}

static void printCompare(OpAsmPrinter &printer, Operation *, Region &region) {
  printNamedRegion(printer, region, "compare");
}

/// ` combine (%l0: t0, ..., %r0: t0, ...) { ... }`, required: a device
/// reduction's combiner (the block ops' spelling, which is optional there).
static ParseResult parseDeviceCombiner(OpAsmParser &parser, Region &region) {
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parseCombiner(parser, region)))
    return failure();
  if (region.empty())
    return parser.emitError(loc, "expected a combine region");
  return success();
}

static void printDeviceCombiner(OpAsmPrinter &printer, Operation *,
                                Region &region) {
  printCombiner(printer, region);
}

/// CombiningOpInterface's checks, which every combining op shares: one of
/// kind and region, a kind over one value of a type it takes, a region
/// whose block takes the left and the right tuple and yields one tuple of
/// the value types, and results of the value types (the values' types,
/// repeated for the totals of a scan).
LogicalResult mlir::warp::verifyCombiningOp(Operation *op) {
  auto combining = cast<CombiningOpInterface>(op);
  std::optional<CombineKind> kind = combining.getKind();
  Region &region = combining.getCombiner();
  TypeRange valueTypes = combining.getValues().getTypes();
  TypeRange resultTypes = op->getResultTypes();
  size_t n = valueTypes.size();
  if (n == 0)
    return op->emitOpError("needs at least one value");
  // The element types where the values hold a thread's items (the block
  // ops' verifiers check those vectors).
  SmallVector<Type> combinedTypes = combining.getCombinedTypes();
  bool items = TypeRange(combinedTypes) != valueTypes;
  if (resultTypes.size() % n != 0)
    return op->emitOpError()
           << "has " << resultTypes.size() << " results for " << n << " values";
  // A scan's first n results are per item, of the values' types; the
  // reductions and totals have the combined types.
  bool scan = isa<ScanOp, BlockScanOp>(op);
  for (auto [i, type] : llvm::enumerate(resultTypes)) {
    Type expected = scan && i < n ? valueTypes[i] : combinedTypes[i % n];
    if (type != expected)
      return op->emitOpError()
             << "result #" << i << " has type " << type << ", expected "
             << expected << " (the type of value #" << i % n
             << (items && expected != valueTypes[i % n] ? "'s items" : "")
             << ")";
  }
  valueTypes = combinedTypes;
  if (kind && !region.empty())
    return op->emitOpError(
        "has both a combine kind and a combiner region; give one");
  if (!kind && region.empty())
    return op->emitOpError(
        "needs a combine kind (e.g. <add>) or a combiner region");
  if (kind) {
    if (n != 1)
      return op->emitOpError()
             << "a combine kind takes exactly one value, got " << n
             << " (combine several values with a combiner region)";
    return verifyKindMatchesType(op, *kind, valueTypes.front());
  }
  Block &block = region.front();
  SmallVector<Type> expected(valueTypes.begin(), valueTypes.end());
  expected.append(valueTypes.begin(), valueTypes.end());
  if (TypeRange(block.getArgumentTypes()) != TypeRange(expected)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "combiner region must take " << 2 * n
                              << " arguments (the left values, then the "
                                 "right values) of types (";
    llvm::interleaveComma(expected, diag);
    diag << "), got (";
    llvm::interleaveComma(block.getArgumentTypes(), diag);
    return diag << ")";
  }
  // Ops verify before MLIR checks their regions' terminators, so the block
  // may be empty or end in a non-terminator here.
  auto yield = dyn_cast_or_null<YieldOp>(
      block.mightHaveTerminator() ||
              isBugPlanted(PlantedBug::CombinerEmptyBlock)
          ? block.getTerminator()
          : nullptr);
  if (!yield)
    return op->emitOpError("combiner region must end with warp.yield");
  if (yield.getValues().getTypes() != valueTypes) {
    InFlightDiagnostic diag = yield.emitOpError()
                              << "must yield " << n << " values of types (";
    llvm::interleaveComma(valueTypes, diag);
    diag << "), got (";
    llvm::interleaveComma(yield.getValues().getTypes(), diag);
    return diag << ")";
  }
  return success();
}

/// The checks warp.reduce and warp.block_reduce share beyond the combiner's
/// (CombiningOpInterface): one result per value, `commutative` only on a
/// region.
static LogicalResult verifyReduceLike(Operation *op,
                                      std::optional<CombineKind> kind,
                                      TypeRange valueTypes,
                                      TypeRange resultTypes, bool commutative) {
  if (resultTypes.size() != valueTypes.size())
    return op->emitOpError("has one result per value");
  if (commutative && kind)
    return op->emitOpError("'commutative' applies to a combiner region (every "
                           "combine kind is commutative)");
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

void ReduceOp::build(OpBuilder &builder, OperationState &state,
                     CombineKind kind, Value value) {
  build(builder, state, TypeRange{value.getType()},
        CombineKindAttr::get(builder.getContext(), kind), ValueRange{value},
        /*valid_lanes=*/Value(), /*mask=*/Value(), /*heads=*/Value(),
        /*tails=*/Value(), kWarpSize, 1, ResultLanes::All,
        /*strategy=*/nullptr, /*commutative=*/false);
}

LogicalResult ReduceOp::verify() {
  unsigned size = getClusterSize(), stride = getClusterStride();
  if (size * stride > kWarpSize)
    return emitOpError() << "cluster_size * cluster_stride = " << size * stride
                         << " exceeds the warp size 32";
  if (failed(verifyReduceLike(*this, getKind(), getValues().getTypes(),
                              getResult().getTypes(), getCommutative())))
    return failure();
  if (getValidLanes() && size != kWarpSize)
    return emitOpError("valid_lanes needs the whole-warp cluster "
                       "(cluster_size = 32)");
  if (getHeads() && getTails())
    return emitOpError("takes heads or tails, not both");
  if (hasLogicalWarps()) {
    if (stride != 1)
      return emitOpError() << "cluster_size = " << size
                           << " is not a power of two: logical warps need "
                              "cluster_stride = 1";
    if (getStrategy())
      return emitOpError() << "cluster_size = " << size
                           << " (logical warps) has no strategy: it is a "
                              "segmented scan";
    // Each group reduces over its member lanes only where they are
    // consecutive (the segments end at the mask's edges).
    std::optional<int64_t> mask =
        getMask() ? getConstantIntValue(getMask()) : std::nullopt;
    if (mask) {
      for (unsigned base = 0; base < kWarpSize; base += size) {
        uint32_t group = uint32_t(*mask) >> base;
        if (size < kWarpSize)
          group &= (1u << size) - 1;
        if (group && !llvm::isShiftedMask_32(group))
          return emitOpError()
                 << "member mask 0x" << llvm::utohexstr(uint32_t(*mask))
                 << " has lanes of the logical warp at lane " << base
                 << " that are not consecutive (cluster_size = " << size
                 << " needs each group's member lanes in one run)";
      }
    }
  }
  if (getSegmentFlags()) {
    if (stride != 1)
      return emitOpError("a segmented reduction (heads/tails) needs "
                         "cluster_stride = 1");
    if (getStrategy())
      return emitOpError("a segmented reduction (heads/tails) has no "
                         "strategy: it is a segmented scan");
  }
  if (getStrategy() == ReduceStrategy::Redux) {
    if (!getKind())
      return emitOpError("strategy 'redux' needs a combine kind: redux.sync "
                         "cannot run a combiner region");
    Type type = getValues().front().getType();
    if (!isReduxPayload(*getKind(), type))
      return emitOpError() << "strategy 'redux' cannot reduce " << type
                           << " with kind '" << stringifyCombineKind(*getKind())
                           << "' (redux.sync takes scalar integers of up to 32 "
                              "bits without 'mul', or f32 min/max)";
    if (size != kWarpSize)
      return emitOpError("strategy 'redux' needs the whole-warp cluster "
                         "(cluster_size = 32)");
  }
  return success();
}

LogicalResult ReduceOp::fold(FoldAdaptor,
                             SmallVectorImpl<OpFoldResult> &results) {
  // A one-lane cluster holds its own values (segments lie inside clusters).
  bool own = getClusterSize() == 1 && !getValidLanes();
  // Reducing a uniform value with an idempotent kind gives the value (in
  // every segment too).
  if (!own && getKind() && getCombineKindInfo(*getKind()).idempotent &&
      isWarpUniform(getValues().front()))
    own = true;
  if (!own)
    return failure();
  results.append(getValues().begin(), getValues().end());
  return success();
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

void ScanOp::build(OpBuilder &builder, OperationState &state, CombineKind kind,
                   Value value) {
  build(builder, state, TypeRange{value.getType()},
        CombineKindAttr::get(builder.getContext(), kind), ValueRange{value},
        /*init=*/ValueRange(), /*valid_lanes=*/Value(), /*mask=*/Value(),
        /*heads=*/Value(), /*exclusive=*/false, /*reverse=*/false, kWarpSize);
}

/// The checks warp.scan and warp.block_scan share beyond the combiner's
/// (CombiningOpInterface): the results (the scans, then optionally one
/// `totals` per value), init of the value types, and an init for a region's
/// exclusive scan.
static LogicalResult verifyScanLike(Operation *op,
                                    std::optional<CombineKind> kind,
                                    TypeRange valueTypes, TypeRange resultTypes,
                                    TypeRange initTypes, bool exclusive,
                                    StringRef totals) {
  if (resultTypes.size() > 2 * valueTypes.size())
    return op->emitOpError() << "returns the scans and optionally the "
                             << totals << ", one per value";
  if (!initTypes.empty() && initTypes != valueTypes)
    return op->emitOpError("init has the value's type (one init per value)");
  if (!kind && exclusive && initTypes.empty())
    return op->emitOpError("an exclusive scan with a combiner region needs an "
                           "init: a region has no known identity");
  return success();
}

LogicalResult ScanOp::verify() {
  if (failed(verifyScanLike(*this, getKind(), getValues().getTypes(),
                            getResult().getTypes(), getInit().getTypes(),
                            getExclusive(), "segment totals")))
    return failure();
  if (!getInit().empty() && getHeads())
    return emitOpError("init cannot be combined with segment heads");
  return success();
}

//===----------------------------------------------------------------------===//
// Block-level ops
//===----------------------------------------------------------------------===//

/// The element types of the values with `items`, else their types.
static SmallVector<Type> getCombinedTypesOf(ValueRange values, bool items) {
  return items ? getItemTypes(values.getTypes())
               : SmallVector<Type>(values.getTypes());
}

/// With `items`, every value is a vector of the thread's items, all of one
/// length.
static LogicalResult verifyItems(Operation *op, bool items, ValueRange values) {
  if (!items)
    return success();
  auto first = dyn_cast<VectorType>(values.front().getType());
  if (!first)
    return op->emitOpError()
           << "with 'items' every value is a vector of the thread's items; "
              "got "
           << values.front().getType();
  for (Type type : values.getTypes()) {
    auto vector = dyn_cast<VectorType>(type);
    if (!vector || vector.getShape() != first.getShape())
      return op->emitOpError()
             << "with 'items' every value is a vector of the thread's "
                "items, all of one length; got "
             << type;
  }
  return success();
}

bool BlockReduceOp::isCommutative() {
  return getKind().has_value() || getCommutative();
}

/// Only with a kind: a region keeps thread order.
bool BlockScanOp::isCommutative() { return getKind().has_value(); }

SmallVector<Type> BlockReduceOp::getCombinedTypes() {
  return getCombinedTypesOf(getValues(), getItems());
}

SmallVector<Type> BlockScanOp::getCombinedTypes() {
  return getCombinedTypesOf(getValues(), getItems());
}

void BlockReduceOp::build(OpBuilder &builder, OperationState &state,
                          CombineKind kind, Value value) {
  build(builder, state, TypeRange{value.getType()},
        CombineKindAttr::get(builder.getContext(), kind), ValueRange{value},
        /*items=*/false, /*valid_threads=*/Value(), /*commutative=*/false, ResultLanes::All,
        /*algorithm=*/nullptr, /*tile=*/nullptr);
}

/// A tile of `n` threads at `op` (`tile N`, `warp.tile_sync N`): a power
/// of two from 64 to 512 that divides a known block into at most 15 tiles.
static LogicalResult verifyTileSize(Operation *op, int64_t n) {
  if (n < kMinTileThreads || n > kMaxTileThreads || !llvm::isPowerOf2_64(n))
    return op->emitOpError()
           << "tile must be a power of two from " << kMinTileThreads << " to "
           << kMaxTileThreads << " threads (whole warps; a tile of a warp or "
              "less is a warp op's width or cluster_size), got "
           << n;
  std::optional<int64_t> threads = getKnownBlockThreads(op);
  if (!threads)
    return success();
  if (*threads % n != 0)
    return op->emitOpError() << "tile " << n << " does not divide the block's "
                             << *threads << " threads (known_block_size)";
  if (*threads / n > kMaxTiles)
    return op->emitOpError()
           << "tile " << n << " splits the block's " << *threads
           << " threads into " << *threads / n << " tiles; at most "
           << kMaxTiles << " (a named barrier each, 1 to " << kMaxTiles << ")";
  return success();
}

/// A block reduce's or scan's `tile`: a valid size.
static LogicalResult verifyCombiningTile(Operation *op,
                                         std::optional<uint32_t> tile) {
  return tile ? verifyTileSize(op, *tile) : success();
}

LogicalResult BlockReduceOp::verify() {
  if (failed(verifyReduceLike(*this, getKind(), getValues().getTypes(),
                              getResult().getTypes(), getCommutative())) ||
      failed(verifyItems(*this, getItems(), getValues())) ||
      failed(verifyCombiningTile(*this, getTile())))
    return failure();
  if (getAlgorithm() == BlockReduceAlgorithm::RakingCommutativeOnly &&
      !getKind() && !getCommutative())
    return emitOpError("algorithm 'raking_commutative_only' reorders the "
                       "combines: it needs a kind or a 'commutative' region");
  if (!getValidThreads())
    return success();
  if (getItems())
    return emitOpError("takes 'items' or 'valid_threads', not both");
  if (std::optional<int64_t> n = getConstantIntValue(getValidThreads());
      n && *n < 1)
    return emitOpError() << "valid_threads must be at least 1, got " << *n;
  if (getAlgorithm() == BlockReduceAlgorithm::Raking ||
      getAlgorithm() == BlockReduceAlgorithm::RakingCommutativeOnly)
    return emitOpError("algorithm '")
           << stringifyBlockReduceAlgorithm(*getAlgorithm())
           << "' does not take valid_threads (use 'warp_reductions')";
  return success();
}

LogicalResult BlockBroadcastOp::verify() {
  std::optional<uint32_t> tile = getTile();
  if (!tile)
    return success();
  if (failed(verifyTileSize(*this, *tile)))
    return failure();
  if (std::optional<int64_t> thread = getConstantIntValue(getThread());
      thread && (*thread < 0 || *thread >= *tile))
    return emitOpError() << "thread " << *thread << " is not a rank of a tile of "
                         << *tile << " threads";
  return success();
}

LogicalResult BlockBallotOp::verify() {
  int64_t words = getResult().getType().getNumElements();
  std::optional<uint32_t> tile = getTile();
  if (tile) {
    if (failed(verifyTileSize(*this, *tile)))
      return failure();
    if (words != *tile / kWarpSize)
      return emitOpError() << "result of a tile of " << *tile
                           << " threads must have " << *tile / kWarpSize
                           << " words (one per warp), got " << words;
    return success();
  }
  std::optional<int64_t> threads = getKnownBlockThreads(*this);
  if (!threads)
    return emitOpError(
        "without 'tile' needs the gpu.func's known_block_size (the mask has "
        "a word per warp of the block)");
  int64_t warps = (*threads + kWarpSize - 1) / kWarpSize;
  if (words != warps)
    return emitOpError() << "result must have " << warps
                         << " words (one per warp of the block's " << *threads
                         << " threads), got " << words;
  return success();
}

LogicalResult TileSyncOp::verify() { return verifyTileSize(*this, getSize()); }

LogicalResult BlockShuffleOp::verify() {
  std::optional<uint32_t> tile = getTile();
  return tile ? verifyTileSize(*this, *tile) : success();
}

/// A block scan's prefix region: one argument per value and as many
/// yields, of the combined types; nothing in it that synchronizes the
/// block (it runs in warp 0 alone).
static LogicalResult verifyPrefixRegion(BlockScanOp op) {
  Region &region = op.getPrefix();
  if (!op.getInit().empty())
    return op.emitOpError("takes 'init' or a prefix region, not both");
  if (op.getReverse())
    return op.emitOpError(
        "a prefix region does not take 'reverse' (a prefix stands in front "
        "of the block; give a reverse scan 'init')");
  SmallVector<Type> types = op.getCombinedTypes();
  Block &block = region.front();
  if (TypeRange(block.getArgumentTypes()) != TypeRange(types)) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "prefix region must take " << types.size()
                              << " arguments (the block's totals) of types (";
    llvm::interleaveComma(types, diag);
    diag << "), got (";
    llvm::interleaveComma(block.getArgumentTypes(), diag);
    return diag << ")";
  }
  FailureOr<YieldOp> yield = getRegionYield(op, region, "prefix");
  if (failed(yield))
    return failure();
  if (yield->getValues().getTypes() != TypeRange(types)) {
    InFlightDiagnostic diag = yield->emitOpError()
                              << "must yield the prefix: " << types.size()
                              << " values of types (";
    llvm::interleaveComma(types, diag);
    diag << "), got (";
    llvm::interleaveComma(yield->getValues().getTypes(), diag);
    return diag << ")";
  }
  WalkResult walk = region.walk([&](Operation *inner) {
    if (isa<gpu::BarrierOp>(inner) || isBlockCollective(inner)) {
      inner->emitOpError()
          << "synchronizes the block inside a block scan's prefix region, "
             "which runs in warp 0 alone";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// A segmented block scan's heads: an i1 per thread, or with `items` one
/// per item; segments have no prefix in front and no block total.
static LogicalResult verifyHeads(BlockScanOp op) {
  Value heads = op.getHeads();
  if (!heads)
    return success();
  Type i1 = IntegerType::get(op.getContext(), 1);
  Type expected = i1;
  if (op.getItems())
    expected = VectorType::get(
        cast<VectorType>(op.getValues().front().getType()).getShape(), i1);
  if (heads.getType() != expected)
    return op.emitOpError() << "heads must be " << expected
                            << " (one flag per "
                            << (op.getItems() ? "item" : "thread")
                            << "), got " << heads.getType();
  if (op.hasPrefix())
    return op.emitOpError() << "a segmented scan takes no "
                            << (op.getInit().empty() ? "prefix region" : "init")
                            << " (each segment starts afresh)";
  if (!op.getTotal().empty())
    return op.emitOpError(
        "a segmented scan returns no block totals (a segment's total is its "
        "last inclusive value)");
  return success();
}

LogicalResult BlockScanOp::verify() {
  if (failed(verifyItems(*this, getItems(), getValues())) ||
      failed(verifyCombiningTile(*this, getTile())))
    return failure();
  if (getReverse() && getAlgorithm() == BlockScanAlgorithm::Raking)
    return emitOpError("algorithm 'raking' does not take 'reverse' (use "
                       "'warp_scans')");
  if (!getPrefix().empty() && failed(verifyPrefixRegion(*this)))
    return failure();
  if (failed(verifyHeads(*this)))
    return failure();
  // A prefix region gives an exclusive region scan its first value, as
  // init does.
  SmallVector<Type> combined = getCombinedTypes();
  return verifyScanLike(*this, getKind(), combined, getResult().getTypes(),
                        getPrefix().empty() ? TypeRange(getInit().getTypes())
                                            : TypeRange(combined),
                        getExclusive(), "block totals");
}

/// The checks block and warp loads and stores share: the memref holds the
/// items' element type; `warp_transpose` (block ops only) where the items
/// fit warp.exchange and the kernel's block is a known whole number of
/// warps; `transpose` within warp.block_exchange's types, or for a warp
/// op warp.exchange's items over a whole warp (width 32); `vectorize` over
/// a power-of-two vector of at most 16 bytes, without `valid`; `striped`
/// and `warp_striped` (not both) only `direct`.
template <typename Op>
static LogicalResult verifyBlockMemoryOp(Op op) {
  constexpr bool warpScope =
      std::is_same_v<Op, LoadOp> || std::is_same_v<Op, StoreOp>;
  constexpr bool isLoad =
      std::is_same_v<Op, BlockLoadOp> || std::is_same_v<Op, LoadOp>;
  auto items = cast<VectorType>(op.getItemsType());
  auto memref = cast<MemRefType>(op.getMemref().getType());
  if (memref.getElementType() != items.getElementType())
    return op.emitOpError() << "memref of " << memref.getElementType()
                            << " for items of " << items.getElementType();
  // One tile that the whole block (or warp) shares: global or workgroup
  // memory (constant memory too, to read), not a thread's own.
  bool readOnlySpace =
      isLoad &&
      getNVVMMemorySpace(memref.getMemorySpace()) == NVVM::NVVMMemorySpace::Constant;
  if (!isGlobalOrWorkgroupSpace(memref.getMemorySpace()) && !readOnlySpace)
    return op.emitOpError() << "moves a tile the "
                            << (warpScope ? "warp" : "block")
                            << " shares: a memref in global or workgroup memory"
                            << (isLoad ? " (or constant)" : "")
                            << ", not " << memref;
  if constexpr (!warpScope) {
    if (op.getStriped() && op.getWarpStriped())
      return op.emitOpError("takes 'striped' (over the block) or "
                            "'warp_striped' (over each warp), not both");
  }
  std::optional<BlockMemoryAlgorithm> algorithm = op.getAlgorithm();
  if (!algorithm || *algorithm == BlockMemoryAlgorithm::Direct)
    return success();
  if (op.isStripedArrangement())
    return op.emitOpError() << "striped items take algorithm 'direct' "
                               "(striped accesses are coalesced already), got '"
                            << stringifyBlockMemoryAlgorithm(*algorithm) << "'";
  unsigned bytes = items.getElementTypeBitWidth() / 8;
  int64_t n = items.getNumElements();
  switch (*algorithm) {
  case BlockMemoryAlgorithm::Direct:
    return success();
  case BlockMemoryAlgorithm::Vectorize:
    if (!(llvm::isPowerOf2_64(n * bytes) && n * bytes <= 16) &&
        (n * bytes) % 16 != 0)
      return op.emitOpError()
             << "algorithm 'vectorize' accesses N * sizeof(T) = " << n * bytes
             << " bytes in vectors of 16 (or fewer, a power of two): a "
                "multiple of 16 or a power of two below it";
    if (!memref.getLayout().isIdentity())
      return op.emitOpError("algorithm 'vectorize' needs a memref of the "
                            "identity layout (contiguous items)");
    return success();
  case BlockMemoryAlgorithm::Transpose:
  case BlockMemoryAlgorithm::WarpTranspose:
    if (warpScope && *algorithm == BlockMemoryAlgorithm::WarpTranspose)
      return op.emitOpError("algorithm 'warp_transpose' is for block loads "
                            "and stores (a warp's 'transpose' stays in the "
                            "warp)");
    if constexpr (warpScope) {
      if (op.getWidth() != kWarpSize)
        return op.emitOpError()
               << "algorithm 'transpose' exchanges the items of the whole "
                  "warp (warp.exchange), not of logical warps of width "
               << op.getWidth() << " (use 'direct' or 'vectorize')";
      if (n > ExchangeOp::kMaxItemsPerLane)
        return op.emitOpError()
               << "algorithm 'transpose' exchanges at most "
               << ExchangeOp::kMaxItemsPerLane << " items per lane, got " << n
               << " (use 'direct')";
      return success();
    }
    if (bytes != 4 && bytes != 8)
      return op.emitOpError()
             << "algorithm '" << stringifyBlockMemoryAlgorithm(*algorithm)
             << "' exchanges 4- or 8-byte items, got " << items.getElementType()
             << " (use 'direct')";
    if (*algorithm == BlockMemoryAlgorithm::Transpose)
      return success();
    if (n > kWarpSize)
      return op.emitOpError() << "algorithm 'warp_transpose' exchanges at "
                                 "most 32 items per thread, got "
                              << n;
    std::optional<int64_t> threads = getKnownBlockThreads(op);
    if (!threads || *threads % kWarpSize != 0)
      return op.emitOpError("algorithm 'warp_transpose' needs a "
                            "known_block_size of whole warps on the gpu.func "
                            "(each warp exchanges its own items)");
    return success();
  }
  llvm_unreachable("every algorithm is handled");
}

/// A block or warp load's checks: `default` only with `valid`, of the
/// items' element type; then the loads' and stores' shared ones.
template <typename Op>
static LogicalResult verifyTileLoad(Op op) {
  Value fill = op.getFill();
  if (fill && !op.getValid())
    return op.emitOpError("default is for the items past valid: give valid");
  if (fill && fill.getType() !=
                  cast<VectorType>(op.getItemsType()).getElementType())
    return op.emitOpError() << "default has the items' element type, got "
                            << fill.getType();
  return verifyBlockMemoryOp(op);
}

LogicalResult BlockLoadOp::verify() { return verifyTileLoad(*this); }
LogicalResult BlockStoreOp::verify() { return verifyBlockMemoryOp(*this); }
LogicalResult LoadOp::verify() { return verifyTileLoad(*this); }
LogicalResult StoreOp::verify() { return verifyBlockMemoryOp(*this); }


//===----------------------------------------------------------------------===//
// BlockRadixSortOp
//===----------------------------------------------------------------------===//

/// `keys-type (, values-type)?`: the sorted values have the values' type.
static ParseResult parseRadixSortTypes(OpAsmParser &parser, Type &keyType,
                                       Type &valueType,
                                       Type &sortedValueType) {
  if (parser.parseType(keyType))
    return failure();
  if (failed(parser.parseOptionalComma()))
    return success();
  if (parser.parseType(valueType))
    return failure();
  sortedValueType = valueType;
  return success();
}

static void printRadixSortTypes(OpAsmPrinter &printer, Operation *,
                                Type keyType, Type valueType, Type) {
  printer << keyType;
  if (valueType)
    printer << ", " << valueType;
}

/// `%k` or `(%k0, %k1, ...)`: a radix sort's key, or the members of a
/// tuple of keys (most significant first).
static ParseResult
parseRadixSortKeys(OpAsmParser &parser,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &keys) {
  if (succeeded(parser.parseOptionalLParen()))
    return failure(parser.parseOperandList(keys) || parser.parseRParen());
  return parser.parseOperand(keys.emplace_back());
}

static void printRadixSortKeys(OpAsmPrinter &printer, Operation *,
                               OperandRange keys) {
  if (keys.size() == 1) {
    printer << keys.front();
    return;
  }
  printer << "(";
  printer.printOperands(keys);
  printer << ")";
}

/// `keys-type (, values-type)?`, the keys' types `(t0, t1, ...)` for a
/// tuple: the sorted keys and values have the keys' and values' types.
static ParseResult parseRadixSortKeyTypes(OpAsmParser &parser,
                                          SmallVectorImpl<Type> &keyTypes,
                                          Type &valueType,
                                          SmallVectorImpl<Type> &sortedTypes,
                                          Type &sortedValueType) {
  if (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseTypeList(keyTypes) || parser.parseRParen())
      return failure();
  } else if (parser.parseType(keyTypes.emplace_back())) {
    return failure();
  }
  sortedTypes.append(keyTypes.begin(), keyTypes.end());
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseType(valueType))
      return failure();
    sortedValueType = valueType;
  }
  return success();
}

static void printRadixSortKeyTypes(OpAsmPrinter &printer, Operation *,
                                   TypeRange keyTypes, Type valueType,
                                   TypeRange, Type) {
  if (keyTypes.size() == 1)
    printer << keyTypes.front();
  else {
    printer << "(";
    llvm::interleaveComma(keyTypes, printer);
    printer << ")";
  }
  if (valueType)
    printer << ", " << valueType;
}

int64_t mlir::warp::getBlockBufferPaddingPeriod(Type element) {
  return 128 / std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

/// The layout of a ranking by `radixBits`-bit digits of `threads` x
/// `itemsPerThread` keys: with an exchange of the keys (a radix sort:
/// `keyTypes` its key members', `valueType` where values travel) or
/// without (a radix rank: none, no buffers but the counters'). With
/// `matchFirst` (warp-striped keys, which the match ranking counts without
/// exchanges) the compiler's choice is the match ranking wherever it can
/// run and fits.
static RadixSortLayout
getRadixLayout(int64_t threads, int64_t itemsPerThread, ArrayRef<Type> keyTypes,
               Type valueType, unsigned radixBits, bool canMatch,
               std::optional<RadixRankAlgorithm> ranking, bool matchFirst) {
  RadixSortLayout layout;
  layout.radixBits = radixBits;
  layout.counterWords = std::max<int64_t>(1, (int64_t(1) << radixBits) / 2);
  int64_t items = threads * itemsPerThread;
  auto elements = [&](Type element) {
    return items + (items - 1) / getBlockBufferPaddingPeriod(element);
  };
  auto bytes = [](Type element) {
    return uint64_t(element.getIntOrFloatBitWidth() / 8);
  };
  // Each buffer's bytes, and rounded up to the 16 bytes that
  // warp-align-gpu-memory aligns every workgroup variable to (what
  // warp-check-shared-memory adds up per kernel).
  uint64_t buffers = 0, alignedBuffers = 0;
  auto add = [&](uint64_t size) {
    buffers += size;
    alignedBuffers += llvm::alignTo(size, 16);
  };
  // A buffer of `element`s (none where it is null): its elements and bytes.
  auto buffer = [&](Type element, int64_t &bufferElements) -> uint64_t {
    bufferElements = element ? elements(element) : 0;
    if (!element)
      return 0;
    uint64_t size = bufferElements * bytes(element);
    add(size);
    return size;
  };
  uint64_t keyBytes = 0;
  for (Type keyType : keyTypes)
    keyBytes =
        std::max(keyBytes, buffer(keyType, layout.keyElements.emplace_back()));
  uint64_t valueBytes = buffer(valueType, layout.valueElements);
  // The scans' scratch array: two halves of kBlockScratchSlots slots of
  // `scanWords` i32 words.
  auto scratch = [](int64_t scanWords) {
    return uint64_t(2 * kBlockScratchSlots * scanWords * 4);
  };
  // The counter grid (counterWords lanes and a padding lane of B_max i32
  // words) and a scalar scan, where they fit, aligned; else the grid in a
  // union with the buffers (each of which is used by turns); else the
  // grid of a column per warp beside the buffers; else the register
  // counters, which need less than separate buffers and grid (a scan of
  // one word where the grid has two lanes).
  int64_t grid = (layout.counterWords + 1) * threads;
  uint64_t gridBytes = grid * 4;
  uint64_t withGrid = alignedBuffers + llvm::alignTo(gridBytes, 16) +
                      llvm::alignTo(scratch(1), 16);
  int64_t warps = llvm::divideCeil(threads, kWarpSize);
  int64_t warpColumns = warps | 1;
  int64_t warpGrid = (layout.counterWords + 1) * warpColumns;
  int64_t warpRaked = getMatchRakeWords(warpGrid, threads) * threads;
  uint64_t withWarpGrid = alignedBuffers + llvm::alignTo(warpRaked * 4, 16) +
                          llvm::alignTo(scratch(1), 16);
  uint64_t unionBytes = std::max({keyBytes, valueBytes, gridBytes});
  uint64_t withUnion =
      llvm::alignTo(unionBytes, 16) + llvm::alignTo(scratch(1), 16);
  int64_t registerScanWords = std::min(layout.counterWords, kMaxRadixScanWords);
  uint64_t withRegisters = buffers + scratch(registerScanWords);
  // The layout of `algorithm` with its numbers (a union of `inUnion`
  // bytes where that is not 0).
  auto use = [&](RadixRankAlgorithm algorithm, uint64_t inUnion,
                 int64_t scanWords, int64_t counterElements, uint64_t bytes) {
    layout.algorithm = algorithm;
    layout.unionBuffer = inUnion != 0;
    layout.unionBytes = inUnion;
    layout.scanWords = scanWords;
    layout.counterElements = counterElements;
    layout.sharedBytes = bytes;
    return layout;
  };
  auto useGrid = [&](bool inUnion) {
    return use(RadixRankAlgorithm::SharedCounters, inUnion ? unionBytes : 0, 1,
               grid, inUnion ? withUnion : withGrid);
  };
  auto useMatch = [&] {
    layout.matchWarps = warps;
    layout.matchColumns = warpColumns;
    return use(RadixRankAlgorithm::MatchCounters, 0, 1, warpRaked,
               withWarpGrid);
  };
  auto useRegisters = [&] {
    return use(RadixRankAlgorithm::RegisterCounters, 0, registerScanWords, 0,
               withRegisters);
  };
  // The early counts' grid: a row of the digits a warp and a row of the
  // digits' starts.
  auto useEarlyCounts = [&] {
    layout.matchWarps = warps;
    int64_t rows = (warps + 1) * (int64_t(1) << layout.radixBits);
    return use(RadixRankAlgorithm::MatchEarlyCounts, 0, 1, rows,
               alignedBuffers + llvm::alignTo(rows * 4, 16) +
                   llvm::alignTo(scratch(1), 16));
  };
  // The ranking the op names: that one (the grid beside the buffers where
  // that fits, else in the union); the verifier rejects it where it does
  // not fit or cannot be.
  if (ranking) {
    switch (*ranking) {
    case RadixRankAlgorithm::SharedCounters:
      return useGrid(/*inUnion=*/withGrid > kMaxStaticSharedBytes &&
                     withUnion < withGrid);
    case RadixRankAlgorithm::MatchCounters:
      return useMatch();
    case RadixRankAlgorithm::RegisterCounters:
      return useRegisters();
    case RadixRankAlgorithm::MatchEarlyCounts:
      return useEarlyCounts();
    }
  }
  if (matchFirst && canMatch && withWarpGrid <= kMaxStaticSharedBytes)
    return useMatch();
  if (withGrid <= kMaxStaticSharedBytes)
    return useGrid(/*inUnion=*/false);
  if (withUnion <= kMaxStaticSharedBytes)
    return useGrid(/*inUnion=*/true);
  if (withWarpGrid <= kMaxStaticSharedBytes && canMatch)
    return useMatch();
  if (withRegisters > kMaxStaticSharedBytes && withUnion < withRegisters)
    return useGrid(/*inUnion=*/true);
  return useRegisters();
}

int64_t mlir::warp::getMatchRakeWords(int64_t gridWords, int64_t threads) {
  int64_t words = llvm::divideCeil(gridWords, threads);
  return words % 2 == 0 ? words + 1 : words;
}

bool mlir::warp::canRankByMatch(Operation *op, int64_t itemsPerThread) {
  // The digits go warp-striped by shuffles, which take a power-of-two
  // count of items up to 32 and every lane of the warp.
  return blockIsWholeWarps(op) && llvm::isPowerOf2_64(itemsPerThread) &&
         itemsPerThread <= kWarpSize;
}

int64_t mlir::warp::getMergeSortFrontElements(Type element) {
  return std::max<int64_t>(1, 16 / (element.getIntOrFloatBitWidth() / 8));
}

int64_t mlir::warp::getMergeSortPartElements(Type element, int64_t items) {
  return getMergeSortFrontElements(element) + items + 1;
}

uint64_t mlir::warp::getMergeSortPartBytes(Type element, int64_t items) {
  return llvm::alignTo(getMergeSortPartElements(element, items) *
                           (element.getIntOrFloatBitWidth() / 8),
                       16);
}

RadixSortLayout mlir::warp::getRadixSortLayout(BlockRadixSortOp op,
                                               unsigned radixBits) {
  Value values = op.getValues();
  return getRadixLayout(
      getMaxBlockThreads(op), op.getItemsPerThread(), op.getKeyTypes(),
      values ? cast<VectorType>(values.getType()).getElementType() : Type(),
      radixBits, canRankByMatch(op, op.getItemsPerThread()), op.getRanking(),
      /*matchFirst=*/false);
}

RadixSortLayout mlir::warp::getRadixRankLayout(BlockRadixRankOp op) {
  return getRadixLayout(getMaxBlockThreads(op), op.getItemsPerThread(),
                        /*keyTypes=*/{}, /*valueType=*/Type(),
                        op.getDigitBits(),
                        canRankByMatch(op, op.getItemsPerThread()),
                        op.getRanking(), /*matchFirst=*/op.getWarpStriped());
}

LogicalResult mlir::warp::verifyRadixSortKeyOrder(
    Operation *op, Type key, bool isSigned, std::optional<uint32_t> beginBit,
    std::optional<uint32_t> endBit) {
  if (isSigned && isa<FloatType>(key))
    return op->emitOpError() << "'signed' orders integer keys; " << key
                             << " keys have their own order";
  unsigned width = key.getIntOrFloatBitWidth();
  if (beginBit.has_value() != endBit.has_value())
    return op->emitOpError("takes both bounds of 'bits' or neither");
  if (beginBit) {
    int64_t begin = int32_t(*beginBit), end = int32_t(*endBit);
    if (begin < 0 || begin >= end || end > int64_t(width))
      return op->emitOpError()
             << "bits " << begin << " to " << end
             << " is not a range 0 <= begin < end <= " << width << " of the "
             << key << " keys";
  }
  return success();
}

/// A `ranking = <match>` where the match ranking cannot run: `n` keys a
/// thread of a block not known to be whole warps, or not a power of two up
/// to 32.
static LogicalResult
verifyRadixRanking(Operation *op, std::optional<RadixRankAlgorithm> ranking,
                   int64_t n) {
  if (ranking == RadixRankAlgorithm::MatchEarlyCounts) {
    auto rank = dyn_cast<BlockRadixRankOp>(op);
    if (rank && rank.getWarpStriped() && blockIsWholeWarps(op))
      return success();
    return op->emitOpError()
           << "with ranking = <match_early> ranks the warp_striped keys of a "
              "warp.block_radix_rank in a known block of whole warps (a "
              "thread count that is a multiple of 32)";
  }
  if (ranking != RadixRankAlgorithm::MatchCounters || canRankByMatch(op, n))
    return success();
  return op->emitOpError()
         << "with ranking = <match> needs a known block of whole warps (a "
            "thread count that is a multiple of 32) and a power of two up to "
            "32 keys a thread, got "
         << n;
}

LogicalResult BlockRadixSortOp::verify() {
  if (getKeys().empty())
    return emitOpError("sorts by one key or a tuple of key members, got none");
  int64_t n = getItemsPerThread();
  if (getSortedKeys().getTypes() != getKeys().getTypes())
    return emitOpError("returns the sorted keys with the keys' types");
  for (Value member : getKeys().drop_front())
    if (cast<VectorType>(member.getType()).getNumElements() != n)
      return emitOpError() << "needs as many items per thread in every key "
                              "member; got "
                           << getKeys().front().getType() << " and "
                           << member.getType();
  if (Value values = getValues()) {
    auto type = cast<VectorType>(values.getType());
    if (type.getNumElements() != n)
      return emitOpError() << "needs as many values as keys per thread; got "
                           << getKeys().front().getType() << " and " << type;
    if (!getSortedValues() || getSortedValues().getType() != type)
      return emitOpError("returns the sorted values with the values' type");
  } else if (getSortedValues()) {
    return emitOpError("returns sorted values only where it takes values");
  }
  SmallVector<Type> keys = getKeyTypes();
  if (keys.size() == 1) {
    if (failed(verifyRadixSortKeyOrder(*this, keys.front(), getIsSigned(),
                                       getBeginBit(), getEndBit())))
      return failure();
  } else {
    // A tuple: every member's bits; `signed` for its integer members.
    if (getBeginBit() || getEndBit())
      return emitOpError("takes 'bits' with one key only: a tuple of keys "
                         "sorts by all bits of its members");
    if (getIsSigned() &&
        llvm::none_of(keys, [](Type key) { return isa<IntegerType>(key); }))
      return emitOpError("'signed' orders the integer members of a tuple "
                         "of keys; this one has none");
  }
  std::optional<uint32_t> radixBits = getRadixBits();
  if (radixBits && (int32_t(*radixBits) < 1 || *radixBits > 8))
    return emitOpError() << "radix_bits must be 1 to 8, got "
                         << int32_t(*radixBits);
  if (failed(verifyRadixRanking(*this, getRanking(), n)))
    return failure();
  RadixSortLayout layout =
      getRadixSortLayout(*this, radixBits.value_or(kMaxDefaultRadixBits));
  // 16-bit counters: the block's items must fit them (the buffers below
  // bound them further).
  if (getMaxBlockThreads(*this) * n > 0xffff)
    return emitOpError() << "sorts at most 65535 items per block, got "
                         << getMaxBlockThreads(*this) << " threads x " << n;
  // Over where no layout fits: the smallest one's bytes.
  const uint64_t limit = kMaxStaticSharedBytes;
  if (layout.sharedBytes > limit)
    return emitOpError()
           << "needs " << layout.sharedBytes << " bytes of workgroup memory ("
           << getMaxBlockThreads(*this) << " threads x " << n << " items, "
           << (layout.unionBuffer
                   ? std::string("a counter grid in a union with them")
                   : std::to_string(layout.scanWords) + "-word counter scans")
           << "), more than the " << limit
           << " bytes of static shared memory: give the gpu.func a "
              "(smaller) known_block_size, sort fewer items or use fewer "
              "radix_bits";
  return success();
}

//===----------------------------------------------------------------------===//
// BlockMergeSortOp
//===----------------------------------------------------------------------===//

/// The checks the warp and block merge sorts share: 1 to `maxItems` items
/// per `holder` (lane or thread), a value per key, valid_items and default
/// together, the default of the key type.
static LogicalResult verifyMergeSortOperands(Operation *op, unsigned items,
                                             unsigned maxItems,
                                             StringRef holder, Value values,
                                             Value validItems, Value oob,
                                             Type key) {
  if (items == 0 || items > maxItems)
    return op->emitOpError() << "sorts 1 to " << maxItems << " items per "
                             << holder << ", got " << items;
  if (values) {
    auto type = cast<VectorType>(values.getType());
    if (type.getNumElements() != items)
      return op->emitOpError()
             << "has one value per key: " << items << " keys, "
             << type.getNumElements() << " values per " << holder;
  }
  if (bool(validItems) != bool(oob))
    return op->emitOpError("takes valid_items and default together (CUB's "
                           "valid_items and oob_default)");
  if (oob && oob.getType() != key)
    return op->emitOpError() << "default must have the key type " << key
                             << ", got " << oob.getType();
  return success();
}

/// A merge sort's compare region (after its ops verified): two keys in,
/// one i1 out, pure.
static LogicalResult verifyMergeSortCompare(Operation *op, Region &compare,
                                            Type key) {
  return verifyBooleanRegion(op, compare, "compare", {key, key},
                             "two arguments of the key type",
                             "whether the first key is ordered before the "
                             "second");
}

uint64_t BlockMergeSortOp::getSharedBytes(int64_t threads) {
  int64_t items = threads * getItemsPerThread();
  uint64_t bytes = getMergeSortPartBytes(getKeyType(), items);
  if (Value values = getValues())
    bytes += getMergeSortPartBytes(
        cast<VectorType>(values.getType()).getElementType(), items);
  return bytes;
}

LogicalResult BlockMergeSortOp::verify() {
  unsigned items = getItemsPerThread();
  if (failed(verifyMergeSortOperands(*this, items, kMaxItemsPerThread, "thread",
                                     getValues(), getValidItems(),
                                     getOobDefault(), getKeyType())))
    return failure();
  // The merge rounds are unrolled for the block's thread count.
  std::optional<int64_t> threads = getKnownBlockThreads(*this);
  if (!threads)
    return emitOpError("needs a known_block_size on the gpu.func (CUB's "
                       "BLOCK_DIM_X/Y/Z): the merge rounds follow the "
                       "block's thread count");
  if (*threads > kMaxBlockThreads)
    return emitOpError() << "sorts over at most " << kMaxBlockThreads
                         << " threads, got a known_block_size of " << *threads;
  uint64_t bytes = getSharedBytes(*threads);
  if (bytes > kMaxStaticSharedBytes)
    return emitOpError()
           << "needs " << bytes << " bytes of workgroup memory (" << *threads
           << " threads x " << items << " items), more than the "
           << kMaxStaticSharedBytes
           << " bytes of static shared memory: give the gpu.func a smaller "
              "known_block_size or sort fewer items";
  return success();
}

LogicalResult BlockMergeSortOp::verifyRegions() {
  return verifyMergeSortCompare(*this, getCompare(), getKeyType());
}

//===----------------------------------------------------------------------===//
// BlockRadixRankOp
//===----------------------------------------------------------------------===//

/// The digit bins each of `threads` threads tracks in a radix rank's
/// digit prefix and counts region (CUB's BINS_TRACKED_PER_THREAD).
static int64_t getTrackedBins(BlockRadixRankOp op, int64_t threads) {
  return std::max<int64_t>(1, llvm::divideCeil(int64_t(1) << op.getDigitBits(), threads));
}

LogicalResult BlockRadixRankOp::verify() {
  Type key = getKeyType();
  std::optional<uint32_t> radixBits = getRadixBits();
  if (hasDigitRegion()) {
    // The region gives the digits: no image, no bits of it.
    if (getBeginBit() || getEndBit())
      return emitOpError("takes 'bits' or a digit region, not both (the "
                         "region's digit is the low radix_bits bits of what "
                         "it yields)");
    if (getIsSigned())
      return emitOpError("'signed' orders a key's image; with a digit region "
                         "the region gives the digit");
    if (!radixBits)
      return emitOpError("with a digit region needs radix_bits = R (1 to 8): "
                         "the digit is the low R bits of what the region "
                         "yields");
    if (int32_t(*radixBits) < 1 || *radixBits > 8)
      return emitOpError() << "ranks by a digit of 1 to 8 bits (CUB's "
                              "RADIX_BITS), got radix_bits = "
                           << int32_t(*radixBits);
  } else {
    if (radixBits)
      return emitOpError("takes radix_bits only with a digit region (else "
                         "'bits B0 to B1' gives the digit)");
    if (!getBeginBit())
      return emitOpError("needs 'bits B0 to B1' (the digit's bits of the "
                         "key's image) or a digit region");
    if (!key.isInteger(8) && !key.isInteger(16) && !key.isInteger(32) &&
        !key.isInteger(64) && !key.isF16() && !key.isBF16() && !key.isF32() &&
        !key.isF64())
      return emitOpError() << "ranks i8, i16, i32, i64, f16, bf16, f32 or f64 "
                              "keys by the bits of their image, not "
                           << key << " (a digit region takes any key type)";
    if (failed(verifyRadixSortKeyOrder(*this, key, getIsSigned(),
                                       getBeginBit(), getEndBit())))
      return failure();
    int64_t bits = int64_t(*getEndBit()) - int64_t(*getBeginBit());
    if (bits > 8)
      return emitOpError() << "ranks by a digit of 1 to 8 bits (CUB's "
                              "RADIX_BITS), got bits "
                           << *getBeginBit() << " to " << *getEndBit() << " ("
                           << bits << " bits)";
  }
  int64_t radixBitsCount = getDigitBits();
  int64_t n = getItemsPerThread();
  int64_t maxThreads = getMaxBlockThreads(*this);
  if (maxThreads * n > 0xffff)
    return emitOpError() << "ranks at most 65535 keys per block, got "
                         << maxThreads << " threads x " << n;
  if (Value prefix = getExclusiveDigitPrefix()) {
    int64_t bins = cast<VectorType>(prefix.getType()).getNumElements();
    int64_t digits = int64_t(1) << radixBitsCount;
    if (std::optional<int64_t> threads = getKnownBlockThreads(*this)) {
      int64_t tracked = getTrackedBins(*this, *threads);
      if (bins != tracked)
        return emitOpError()
               << "gives each of the " << *threads << " threads "
               << tracked << " of the " << digits
               << " digit bins (CUB's BINS_TRACKED_PER_THREAD), so the "
                  "exclusive digit prefix is a vector<"
               << tracked << "xi32>, not " << prefix.getType();
    }
  }
  if (failed(verifyRadixRanking(*this, getRanking(), getItemsPerThread())))
    return failure();
  RadixSortLayout layout = getRadixRankLayout(*this);
  if (layout.sharedBytes > kMaxStaticSharedBytes)
    return emitOpError() << "needs " << layout.sharedBytes
                         << " bytes of workgroup memory, more than the "
                         << kMaxStaticSharedBytes
                         << " bytes of static shared memory";
  return success();
}

/// The digit region: a key in, an i32 out (its low R bits the digit), pure.
/// The counts region: with the early-counts ranking, a thread's bins'
/// counts in (a vector of as many i32 as the digit prefix's bins), nothing
/// out.
LogicalResult BlockRadixRankOp::verifyRegions() {
  if (hasDigitRegion() &&
      failed(verifyScalarRegion(*this, getDigit(), "digit", {getKeyType()},
                                "one argument of the key type",
                                IntegerType::get(getContext(), 32),
                                "the digit in its low radix_bits bits")))
    return failure();
  if (getCounts().empty())
    return success();
  if (getRanking() != RadixRankAlgorithm::MatchEarlyCounts)
    return emitOpError("takes a counts region only with ranking = "
                       "<match_early> (CUB's counts callback of "
                       "BlockRadixRankMatchEarlyCounts)");
  // verify() has checked that match_early has a known block.
  int64_t digits = int64_t(1) << getDigitBits();
  int64_t tracked = getTrackedBins(*this, getKnownBlockThreads(*this).value_or(1));
  auto wanted = VectorType::get({tracked}, IntegerType::get(getContext(), 32));
  Block &block = getCounts().front();
  if (block.getNumArguments() != 1 || block.getArgument(0).getType() != wanted) {
    InFlightDiagnostic diag = emitOpError()
                              << "counts region must take one " << wanted
                              << " (a thread's " << tracked << " of the "
                              << digits << " digit bins), got (";
    llvm::interleaveComma(block.getArgumentTypes(), diag);
    return diag << ")";
  }
  FailureOr<YieldOp> yield = getRegionYield(*this, getCounts(), "counts");
  if (failed(yield))
    return failure();
  if (!yield->getValues().empty())
    return yield->emitOpError("yields nothing in a counts region");
  return success();
}

//===----------------------------------------------------------------------===//
// BlockRunLengthDecodeOp
//===----------------------------------------------------------------------===//

uint64_t mlir::warp::getRunLengthDecodeBytes(BlockRunLengthDecodeOp op) {
  uint64_t runs = uint64_t(getMaxBlockThreads(op)) * op.getRunsPerThread();
  Type valueType = cast<VectorType>(op.getValues().getType()).getElementType();
  uint64_t values = runs * (valueType.getIntOrFloatBitWidth() / 8);
  uint64_t offsets = runs * (op.getFrom().getType().getIntOrFloatBitWidth() / 8);
  // The lengths' block scan (items, a scalar of O per slot): two halves of
  // kBlockScratchSlots slots.
  uint64_t scratch = 2 * kBlockScratchSlots *
                     (op.getFrom().getType().getIntOrFloatBitWidth() / 8);
  return llvm::alignTo(values, 16) + llvm::alignTo(offsets, 16) +
         llvm::alignTo(scratch, 16);
}

LogicalResult BlockRunLengthDecodeOp::verify() {
  auto values = cast<VectorType>(getValues().getType());
  auto lengths = cast<VectorType>(getLengths().getType());
  StringRef what = getOffsets() ? "offset" : "length";
  if (values.getNumElements() != lengths.getNumElements())
    return emitOpError() << "needs " << (getOffsets() ? "an " : "a ") << what
                         << " for each run value; got " << values << " and "
                         << lengths;
  Type offset = getFrom().getType();
  if (lengths.getElementType().getIntOrFloatBitWidth() >
      offset.getIntOrFloatBitWidth())
    return emitOpError() << "counts decoded positions in " << offset
                         << ", narrower than the " << lengths.getElementType()
                         << " run " << what << "s";
  if (getOffsets() && getFill())
    return emitOpError("decodes runs from their offsets, which give no "
                       "decoded total for a default to follow (the last run "
                       "has no end)");
  auto decoded = cast<VectorType>(getDecoded().getType());
  if (decoded.getElementType() != values.getElementType())
    return emitOpError() << "decodes items of the run values' type "
                         << values.getElementType() << ", not " << decoded;
  if (Value relative = getRelativeOffsets()) {
    auto type = cast<VectorType>(relative.getType());
    if (type.getNumElements() != decoded.getNumElements() ||
        type.getElementType() != offset)
      return emitOpError() << "returns one relative offset of " << offset
                           << " per decoded item, a "
                           << VectorType::get({decoded.getNumElements()},
                                              offset)
                           << ", not " << type;
  }
  uint64_t bytes = getRunLengthDecodeBytes(*this);
  if (bytes > kMaxStaticSharedBytes)
    return emitOpError() << "needs " << bytes
                         << " bytes of workgroup memory ("
                         << getMaxBlockThreads(*this) << " threads x "
                         << values.getNumElements()
                         << " runs), more than the " << kMaxStaticSharedBytes
                         << " bytes of static shared memory: give the "
                            "gpu.func a (smaller) known_block_size or fewer "
                            "runs per thread";
  return success();
}

static bool isStackAllocation(Value memref);

LogicalResult BlockHistogramOp::verify() {
  // One set of bins for the whole block, which the atomics can reach.
  auto bins = cast<MemRefType>(getBins().getType());
  if (!isGlobalOrWorkgroupSpace(bins.getMemorySpace()))
    return emitOpError() << "counts into workgroup or global memory, not "
                         << bins;
  if (isStackAllocation(getBins()))
    return emitOpError("counts into bins the whole block shares, not a "
                       "stack allocation (private to each thread)");
  if (getAlgorithm() != BlockHistogramAlgorithm::Sort)
    return success();
  // The sort algorithm sorts the samples with warp.block_radix_sort (no
  // values, the compiler's radix bits): that sort's limits.
  auto items = cast<VectorType>(getItems().getType());
  int64_t threads = getMaxBlockThreads(*this), n = items.getNumElements();
  if (threads * n > 0xffff)
    return emitOpError() << "with algorithm = <sort> sorts at most 65535 "
                            "samples per block, got "
                         << threads << " threads x " << n;
  RadixSortLayout layout =
      getRadixLayout(threads, n, items.getElementType(), /*valueType=*/Type(),
                     kMaxDefaultRadixBits, canRankByMatch(*this, n),
                     /*ranking=*/std::nullopt, /*matchFirst=*/false);
  if (layout.sharedBytes > kMaxStaticSharedBytes)
    return emitOpError() << "with algorithm = <sort> needs "
                         << layout.sharedBytes
                         << " bytes of workgroup memory to sort " << threads
                         << " threads x " << n << " samples, more than the "
                         << kMaxStaticSharedBytes
                         << " bytes of static shared memory: give the "
                            "gpu.func a (smaller) known_block_size, fewer "
                            "samples per thread or another algorithm";
  return success();
}

LogicalResult BlockScatterOp::verify() {
  auto ranks = cast<VectorType>(getRanks().getType());
  if (ranks.getNumElements() != getItemsPerThread())
    return emitOpError() << "has one rank per item: " << getItemsPerThread()
                         << " items, " << ranks.getNumElements() << " ranks";
  if (Value flags = getFlags()) {
    auto flagsType = cast<VectorType>(flags.getType());
    if (flagsType.getNumElements() != getItemsPerThread())
      return emitOpError() << "has one flag per item: " << getItemsPerThread()
                           << " items, " << flagsType.getNumElements()
                           << " flags";
  }
  return success();
}

OpFoldResult BlockExchangeOp::fold(FoldAdaptor) {
  // With one item per thread, blocked and striped are the same arrangement.
  return getItemsPerThread() == 1 ? getItems() : OpFoldResult();
}

//===----------------------------------------------------------------------===//
// ExchangeOp / ScatterOp / AtomicRMWOp
//===----------------------------------------------------------------------===//

LogicalResult ExchangeOp::verify() {
  if (getDirection() != ExchangeDirection::BlockedToStriped &&
      getDirection() != ExchangeDirection::StripedToBlocked)
    return emitOpError("exchanges blocked_to_striped or striped_to_blocked "
                       "(a warp's striped arrangement is its warp-striped "
                       "one)");
  unsigned items = getItemsPerLane();
  if (items > kMaxItemsPerLane)
    return emitOpError() << "exchanges at most " << kMaxItemsPerLane
                         << " items per lane, got " << items;
  if (getStrategy() == ExchangeStrategy::Shuffle &&
      (!llvm::isPowerOf2_32(items) || items > kWarpSize))
    return emitOpError() << "strategy 'shuffle' needs a power-of-two number of "
                            "items per lane, at most 32, got "
                         << items << " (use 'shared')";
  return success();
}

LogicalResult ScatterOp::verify() {
  unsigned items = getItemsPerLane();
  if (items > ExchangeOp::kMaxItemsPerLane)
    return emitOpError() << "scatters at most " << ExchangeOp::kMaxItemsPerLane
                         << " items per lane, got " << items;
  auto ranks = cast<VectorType>(getRanks().getType());
  if (ranks.getNumElements() != items)
    return emitOpError() << "has one rank per item: " << items << " items, "
                         << ranks.getNumElements() << " ranks";
  return success();
}

LogicalResult MergeSortOp::verify() {
  return verifyMergeSortOperands(*this, getItemsPerLane(), kMaxItemsPerLane,
                                 "lane", getValues(), getValidItems(),
                                 getOobDefault(), getKeyType());
}

LogicalResult MergeSortOp::verifyRegions() {
  return verifyMergeSortCompare(*this, getCompare(), getKeyType());
}

OpFoldResult ExchangeOp::fold(FoldAdaptor) {
  // With one item per lane, blocked and striped are the same arrangement.
  return getItemsPerLane() == 1 ? getItems() : OpFoldResult();
}

/// Whether `memref` is (a view of) a stack allocation such as
/// `memref.alloca`: thread-private memory even without a memory space.
static bool isStackAllocation(Value memref) {
  // A view chain is acyclic in valid IR, but the op verifier may run on IR
  // whose dominance is not checked yet.
  llvm::SmallPtrSet<Operation *, 4> seen;
  while (Operation *def = memref.getDefiningOp()) {
    if (!seen.insert(def).second)
      return false;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      memref = view.getViewSource();
      continue;
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(def);
    if (!effects)
      return false;
    std::optional<MemoryEffects::EffectInstance> alloc =
        effects.getEffectOnValue<MemoryEffects::Allocate>(memref);
    return alloc && isa<SideEffects::AutomaticAllocationScopeResource>(
                        alloc->getResource());
  }
  return false;
}

/// The checks warp.atomic_rmw and warp.lane_atomic_rmw share: the kind
/// takes the value's type, one index per dimension, memory every lane
/// addresses alike.
static LogicalResult verifyAtomic(Operation *op, AtomicKind kind, Type value,
                                  MemRefType type, size_t numIndices,
                                  Value memref) {
  // PTX's atom has add on every element type it takes here but i16, exch
  // on the 32- and 64-bit ones, the other integer operations on integers
  // only; the lowering builds a 16-bit exch from atom.cas.b16, and minnumf
  // and maxnumf on every float from atom.cas of the float's width.
  Type element = getElementTypeOrSelf(value);
  bool packed = isa<VectorType>(value);
  if (isFloatMinMaxAtomic(kind)) {
    if (packed || !isa<FloatType>(element))
      return op->emitOpError()
             << "kind '" << stringifyAtomicKind(kind)
             << "' needs an f16, bf16, f32 or f64 value, got " << value;
  } else if (element.getIntOrFloatBitWidth() == 16 &&
             !(kind == AtomicKind::Add && !element.isInteger(16)) &&
             !(kind == AtomicKind::Exch && !packed)) {
    return op->emitOpError()
           << "kind '" << stringifyAtomicKind(kind)
           << "' needs an i32, i64, f32 or f64 value (16-bit values take add, "
              "exch, minnumf and maxnumf, i16 exch only, packed pairs add "
              "only), got "
           << value;
  }
  if (isa<FloatType>(element) && !getAtomicKindInfo(kind).onFloats)
    return op->emitOpError() << "kind '" << stringifyAtomicKind(kind)
                             << "' needs an i32 or i64 value, got " << value;
  int64_t rank = type.getRank();
  if (int64_t(numIndices) != rank)
    return op->emitOpError() << "needs " << rank << " indices for " << type
                             << ", got " << numIndices;
  // Lanes are grouped by address: a per-thread address would group lanes
  // that add to different elements.
  if (!isGlobalOrWorkgroupSpace(type.getMemorySpace()))
    return op->emitOpError()
           << "needs a memref in global memory (no memory space, 1 or "
              "#gpu.address_space<global>) or workgroup memory (3 or "
              "#gpu.address_space<workgroup>), not "
           << type;
  if (isStackAllocation(memref))
    return op->emitOpError()
           << "needs a memref in global or workgroup memory, "
              "not a stack allocation (private to each thread)";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  return verifyAtomic(*this, getKind(), getValue().getType(),
                      getMemref().getType(), getIndices().size(), getMemref());
}

LogicalResult LaneAtomicRMWOp::verify() {
  return verifyAtomic(*this, getKind(), getValue().getType(),
                      getMemref().getType(), getIndices().size(), getMemref());
}

//===----------------------------------------------------------------------===//
// MMALoadOp / MMAComputeOp / MMAStoreOp
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::warp::getMMAFragmentLength(MMAShape shape,
                                                        MMAOperand operand,
                                                        Type element) {
  bool isInput = operand != MMAOperand::C;
  switch (shape) {
  case MMAShape::M16N16K16:
    if (isInput && element.isF16())
      return 16;
    if (isInput && element.isBF16())
      return 8;
    if (!isInput && (element.isF16() || element.isF32()))
      return 8;
    return std::nullopt;
  case MMAShape::M16N16K8:
    if (element.isF32())
      return isInput ? 4 : 8;
    return std::nullopt;
  }
  llvm_unreachable("unknown MMA shape");
}

bool mlir::warp::isMMAComputeSupported(MMAShape shape, Type input,
                                       Type accumulator) {
  if (!getMMAFragmentLength(shape, MMAOperand::A, input) ||
      !getMMAFragmentLength(shape, MMAOperand::C, accumulator))
    return false;
  // f16 inputs accumulate into f16 or f32; bf16 and tf32 into f32.
  return input.isF16() || accumulator.isF32();
}

/// "a" -> "A fragment", for diagnostics.
static std::string describeFragment(MMAOperand operand) {
  return stringifyMMAOperand(operand).upper() + " fragment";
}

/// Checks one lane's fragment type against the warp.mma_* table.
static LogicalResult verifyMMAFragment(Operation *op, StringRef what,
                                       VectorType type, MMAShape shape,
                                       MMAOperand operand) {
  Type element = type.getElementType();
  std::optional<int64_t> length = getMMAFragmentLength(shape, operand, element);
  if (!length) {
    MLIRContext *context = op->getContext();
    SmallVector<std::string> known;
    for (Type candidate : {Type(Float16Type::get(context)),
                           Type(BFloat16Type::get(context)),
                           Type(Float32Type::get(context))})
      if (std::optional<int64_t> n =
              getMMAFragmentLength(shape, operand, candidate)) {
        std::string entry;
        llvm::raw_string_ostream os(entry);
        os << "vector<" << *n << "x" << candidate << ">";
        known.push_back(entry);
      }
    return op->emitOpError() << "PTX wmma has no " << stringifyMMAShape(shape)
                             << " " << describeFragment(operand) << " of "
                             << element << " (" << what << " " << type
                             << "); it has " << llvm::join(known, ", ");
  }
  if (type.getNumElements() != *length)
    return op->emitOpError() << what << " must be "
                             << VectorType::get({*length}, element)
                             << ", one lane's "
                             << stringifyMMAShape(shape) << " "
                             << describeFragment(operand) << ", not " << type;
  return success();
}

/// Checks the memref a fragment moves through: global or workgroup memory,
/// unit innermost stride (the row stride is the leading dimension), the
/// fragment's element type.
static LogicalResult verifyMMAMemRef(Operation *op, MemRefType type,
                                     VectorType fragment) {
  if (!isGlobalOrWorkgroupSpace(type.getMemorySpace()))
    return op->emitOpError()
           << "needs a memref in global or workgroup memory, not " << type;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides[1] != 1)
    return op->emitOpError()
           << "needs a memref whose innermost stride is 1 (its row stride is "
              "the leading dimension), not "
           << type;
  if (type.getElementType() != fragment.getElementType())
    return op->emitOpError() << "fragment " << fragment
                             << " and memref " << type
                             << " have different element types";
  return success();
}

LogicalResult MMALoadOp::verify() {
  VectorType fragment = getResult().getType();
  if (failed(verifyMMAFragment(*this, "result", fragment, getShape(),
                               getMatrix())))
    return failure();
  return verifyMMAMemRef(*this, getSrc().getType(), fragment);
}

LogicalResult MMAComputeOp::verify() {
  VectorType a = getA().getType(), c = getC().getType();
  if (failed(verifyMMAFragment(*this, "A/B", a, getShape(), MMAOperand::A)) ||
      failed(verifyMMAFragment(*this, "C", c, getShape(), MMAOperand::C)))
    return failure();
  if (!isMMAComputeSupported(getShape(), a.getElementType(),
                             c.getElementType()))
    return emitOpError() << "PTX wmma has no " << stringifyMMAShape(getShape())
                         << " multiply of " << a.getElementType() << " into "
                         << c.getElementType() << " (only f16 inputs "
                         << "accumulate into f16)";
  return success();
}

LogicalResult MMAStoreOp::verify() {
  VectorType fragment = getValue().getType();
  if (failed(verifyMMAFragment(*this, "value", fragment, getShape(),
                               MMAOperand::C)))
    return failure();
  return verifyMMAMemRef(*this, getDst().getType(), fragment);
}

#define GET_OP_CLASSES
#include "WarpDialect/IR/WarpOps.cpp.inc"
