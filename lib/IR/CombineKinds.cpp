//===- CombineKinds.cpp - the one table of the combine kinds --------------===//

#include "WarpDialect/IR/CombineKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::warp;

namespace {
using K = CombineKind;
using V = vector::CombiningKind;
using G = gpu::AllReduceOperation;
using R = NVVM::ReduxKind;
using C = KindConstant;
constexpr std::nullopt_t kNoRedux = std::nullopt;
} // namespace

/// The table, in the order of the CombineKind enum (checked below).
static const CombineKindInfo kCombineKinds[] = {
    // kind, vector, gpu, integer op, float op, idempotent, redux,
    // i32 step, f32 step, folds last select,
    // integer identity, float identity, float padding
    {K::Add, V::ADD, G::ADD, "arith.addi", "arith.addf", false, R::ADD,
     "add.s32", "add.rn.f32", true, C::Zero, C::Zero, C::NegZero},
    {K::Mul, V::MUL, G::MUL, "arith.muli", "arith.mulf", false, kNoRedux,
     "mul.lo.s32", "", true, C::One, C::One, C::One},
    {K::MinSI, V::MINSI, G::MINSI, "arith.minsi", "", true, R::MIN, "min.s32",
     "", false, C::SignedMax, C::Zero, C::Zero},
    {K::MaxSI, V::MAXSI, G::MAXSI, "arith.maxsi", "", true, R::MAX, "max.s32",
     "", false, C::SignedMin, C::Zero, C::Zero},
    {K::MinUI, V::MINUI, G::MINUI, "arith.minui", "", true, R::UMIN,
     "min.u32", "", false, C::AllOnes, C::Zero, C::Zero},
    {K::MaxUI, V::MAXUI, G::MAXUI, "arith.maxui", "", true, R::UMAX,
     "max.u32", "", false, C::Zero, C::Zero, C::Zero},
    {K::MinNumF, V::MINNUMF, G::MINNUMF, "", "arith.minnumf", true, R::FMIN,
     "", "", false, C::Zero, C::PosInf, C::NaN},
    {K::MaxNumF, V::MAXNUMF, G::MAXNUMF, "", "arith.maxnumf", true, R::FMAX,
     "", "", false, C::Zero, C::NegInf, C::NaN},
    {K::MinimumF, V::MINIMUMF, G::MINIMUMF, "", "arith.minimumf", true,
     R::FMIN, "", "", false, C::Zero, C::PosInf, C::PosInf},
    {K::MaximumF, V::MAXIMUMF, G::MAXIMUMF, "", "arith.maximumf", true,
     R::FMAX, "", "", false, C::Zero, C::NegInf, C::NegInf},
    {K::And, V::AND, G::AND, "arith.andi", "", true, R::AND, "and.b32", "",
     true, C::AllOnes, C::Zero, C::Zero},
    {K::Or, V::OR, G::OR, "arith.ori", "", true, R::OR, "or.b32", "", true,
     C::Zero, C::Zero, C::Zero},
    {K::Xor, V::XOR, G::XOR, "arith.xori", "", false, R::XOR, "xor.b32", "",
     true, C::Zero, C::Zero, C::Zero},
};

static_assert(std::size(kCombineKinds) == getMaxEnumValForCombineKind() + 1,
              "one row per combine kind");

/// The row of `kind` in `table`, which lists its enum's kinds in order.
template <typename Row, size_t N, typename Kind>
static const Row &rowOf(const Row (&table)[N], Kind kind) {
  const Row &row = table[static_cast<unsigned>(kind)];
  assert(row.kind == kind && "a kind table is in its enum's order");
  return row;
}

const CombineKindInfo &mlir::warp::getCombineKindInfo(CombineKind kind) {
  return rowOf(kCombineKinds, kind);
}

/// The atomic kinds, in the order of the AtomicKind enum (checked below).
static const AtomicKindInfo kAtomicKinds[] = {
    {AtomicKind::Add, K::Add, arith::AtomicRMWKind::addi,
     arith::AtomicRMWKind::addf},
    {AtomicKind::MinSI, K::MinSI, arith::AtomicRMWKind::mins, std::nullopt},
    {AtomicKind::MaxSI, K::MaxSI, arith::AtomicRMWKind::maxs, std::nullopt},
    {AtomicKind::MinUI, K::MinUI, arith::AtomicRMWKind::minu, std::nullopt},
    {AtomicKind::MaxUI, K::MaxUI, arith::AtomicRMWKind::maxu, std::nullopt},
    {AtomicKind::And, K::And, arith::AtomicRMWKind::andi, std::nullopt},
    {AtomicKind::Or, K::Or, arith::AtomicRMWKind::ori, std::nullopt},
    {AtomicKind::Xor, K::Xor, arith::AtomicRMWKind::xori, std::nullopt},
    {AtomicKind::Exch, std::nullopt, arith::AtomicRMWKind::assign,
     arith::AtomicRMWKind::assign},
    {AtomicKind::MinNumF, K::MinNumF, std::nullopt,
     arith::AtomicRMWKind::minnumf},
    {AtomicKind::MaxNumF, K::MaxNumF, std::nullopt,
     arith::AtomicRMWKind::maxnumf},
};

static_assert(std::size(kAtomicKinds) == getMaxEnumValForAtomicKind() + 1,
              "one row per atomic kind");

const AtomicKindInfo &mlir::warp::getAtomicKindInfo(AtomicKind kind) {
  return rowOf(kAtomicKinds, kind);
}

bool mlir::warp::isFloatMinMaxAtomic(AtomicKind kind) {
  return kind == AtomicKind::MinNumF || kind == AtomicKind::MaxNumF;
}

unsigned mlir::warp::getAtomicBitWidth(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementTypeBitWidth() * vector.getNumElements();
  return type.getIntOrFloatBitWidth();
}

ArrayRef<CombineKindInfo> mlir::warp::getCombineKindTable() {
  return kCombineKinds;
}

CombineKind mlir::warp::getCombineKind(gpu::AllReduceOperation operation) {
  for (const CombineKindInfo &info : kCombineKinds)
    if (info.gpuOperation == operation)
      return info.kind;
  llvm_unreachable("every gpu reduction operation has a warp kind");
}

std::optional<CombineKind> mlir::warp::getCombineKindOfArithOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  for (const CombineKindInfo &info : kCombineKinds)
    if (name == info.integerOp || name == info.floatOp)
      return info.kind;
  return std::nullopt;
}

bool mlir::warp::isFloatOnlyKind(CombineKind kind) {
  return getCombineKindInfo(kind).isFloatOnly();
}

bool mlir::warp::isIntegerOnlyKind(CombineKind kind) {
  return getCombineKindInfo(kind).isIntegerOnly();
}

bool mlir::warp::isReduxPayload(CombineKind kind, Type type) {
  const CombineKindInfo &info = getCombineKindInfo(kind);
  if (!info.redux)
    return false;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() <= 32 && !info.isFloatOnly();
  return type.isF32() && info.isFloatOnly();
}

SmallVector<Value, 4>
mlir::warp::buildTupleCombine(OpBuilder &b, Location loc,
                              std::optional<CombineKind> kind, Region *region,
                              ValueRange lhs, ValueRange rhs) {
  if (kind)
    return {buildCombine(b, loc, *kind, lhs.front(), rhs.front())};
  SmallVector<Value, 4> operands(lhs);
  operands.append(rhs.begin(), rhs.end());
  return inlineRegion(b, *region, operands);
}

SmallVector<Value, 4> mlir::warp::inlineRegion(OpBuilder &b, Region &region,
                                               ValueRange arguments) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArguments(), arguments);
  for (Operation &inner : block.without_terminator())
    b.clone(inner, mapping);
  SmallVector<Value, 4> results;
  for (Value yielded : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(yielded));
  return results;
}

Combiner Combiner::of(CombiningOpInterface op) {
  std::optional<CombineKind> kind = op.getKind();
  return Combiner{kind, kind ? nullptr : &op.getCombiner(),
                  op.isCommutative()};
}

Value mlir::warp::buildCombine(OpBuilder &b, Location loc, CombineKind kind,
                               Value lhs, Value rhs) {
  // Upstream builds the arith op with `lhs` as its first operand, which is
  // the order the documented combine orders rely on.
  return vector::makeArithReduction(b, loc,
                                    getCombineKindInfo(kind).vectorKind, lhs,
                                    rhs);
}

/// `constant` at `width` bits.
static llvm::APInt getIntegerConstant(KindConstant constant, unsigned width) {
  switch (constant) {
  case KindConstant::One:
    return llvm::APInt(width, 1);
  case KindConstant::AllOnes:
    return llvm::APInt::getAllOnes(width);
  case KindConstant::SignedMax:
    return llvm::APInt::getSignedMaxValue(width);
  case KindConstant::SignedMin:
    return llvm::APInt::getSignedMinValue(width);
  default:
    return llvm::APInt::getZero(width);
  }
}

/// `constant` in `sem`.
static llvm::APFloat getFloatConstant(KindConstant constant,
                                      const llvm::fltSemantics &sem) {
  switch (constant) {
  case KindConstant::One:
    return llvm::APFloat::getOne(sem);
  case KindConstant::PosInf:
    return llvm::APFloat::getInf(sem, /*Negative=*/false);
  case KindConstant::NegInf:
    return llvm::APFloat::getInf(sem, /*Negative=*/true);
  case KindConstant::NegZero:
    return llvm::APFloat::getZero(sem, /*Negative=*/true);
  case KindConstant::NaN:
    return llvm::APFloat::getNaN(sem);
  default:
    return llvm::APFloat::getZero(sem);
  }
}

/// The identity (or, with `padding`, the padding) of `kind` for `type` as an
/// attribute; for index at 64 bits (see buildCombineIdentity).
static TypedAttr getKindConstantAttr(CombineKind kind, Type type,
                                     bool padding) {
  const CombineKindInfo &info = getCombineKindInfo(kind);
  Type elem = getElementTypeOrSelf(type);
  TypedAttr scalar;
  if (auto floatType = dyn_cast<FloatType>(elem)) {
    KindConstant constant = padding ? info.floatPadding : info.floatIdentity;
    scalar = FloatAttr::get(
        floatType, getFloatConstant(constant, floatType.getFloatSemantics()));
  } else {
    unsigned width = elem.isIndex() ? IndexType::kInternalStorageBitWidth
                                    : elem.getIntOrFloatBitWidth();
    scalar = IntegerAttr::get(
        elem, getIntegerConstant(info.integerIdentity, width));
  }
  if (auto vectorType = dyn_cast<VectorType>(type))
    return DenseElementsAttr::get(vectorType, cast<Attribute>(scalar));
  return scalar;
}

/// For index, whose width is the device's (32 bits with
/// device-index-bitwidth=32), the identity of minsi (the largest signed
/// value) or maxsi (the smallest): -1 >> 1 (logical) and its complement,
/// in the index dialect, whose folders fold only what both widths agree on,
/// so that the value is formed at the width index lowers to (an arith
/// constant of index holds 64 bits, which truncate to -1 and 0). Null for
/// any other kind or type: their identities are the same bits at either
/// width (0, 1, all ones).
static Value buildWidthDependentIdentity(OpBuilder &b, Location loc,
                                         CombineKind kind, Type type) {
  if (!getElementTypeOrSelf(type).isIndex() ||
      (kind != CombineKind::MinSI && kind != CombineKind::MaxSI))
    return {};
  Value allOnes = index::ConstantOp::create(b, loc, -1);
  Value signedMax = index::ShrUOp::create(b, loc, allOnes,
                                          index::ConstantOp::create(b, loc, 1));
  Value scalar = kind == CombineKind::MinSI
                     ? signedMax
                     : index::XOrOp::create(b, loc, signedMax, allOnes);
  if (auto vectorType = dyn_cast<VectorType>(type))
    return vector::BroadcastOp::create(b, loc, vectorType, scalar);
  return scalar;
}

Value mlir::warp::buildCombineIdentity(OpBuilder &b, Location loc,
                                       CombineKind kind, Type type) {
  if (Value identity = buildWidthDependentIdentity(b, loc, kind, type))
    return identity;
  return arith::ConstantOp::create(b, loc, getKindConstantAttr(kind, type, /*padding=*/false));
}

Value mlir::warp::buildCombinePadding(OpBuilder &b, Location loc,
                                      CombineKind kind, Type type) {
  // The integer paddings are the identities.
  if (Value padding = buildWidthDependentIdentity(b, loc, kind, type))
    return padding;
  return arith::ConstantOp::create(b, loc, getKindConstantAttr(kind, type, /*padding=*/true));
}

std::optional<StringRef> mlir::warp::getPredicatedScanStep(CombineKind kind,
                                                          Type type) {
  const CombineKindInfo &info = getCombineKindInfo(kind);
  StringRef step = type.isF32()          ? StringRef(info.f32Step)
                   : type.isInteger(32) ? StringRef(info.i32Step)
                                        : StringRef();
  if (step.empty())
    return std::nullopt;
  return step;
}

bool mlir::warp::areIntegers(ValueRange values) {
  return llvm::all_of(values, [](Value value) {
    return isa<IntegerType>(getElementTypeOrSelf(value.getType()));
  });
}

LogicalResult mlir::warp::verifyKindMatchesType(Operation *op, CombineKind kind,
                                           Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isFloatOnlyKind(kind) && !isa<FloatType>(elem))
    return op->emitOpError() << "kind '" << stringifyCombineKind(kind)
                             << "' needs a floating-point value, got " << type;
  if (isIntegerOnlyKind(kind) && !elem.isIntOrIndex())
    return op->emitOpError() << "kind '" << stringifyCombineKind(kind)
                             << "' needs an integer value, got " << type;
  return success();
}
