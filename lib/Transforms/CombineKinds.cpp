//===- CombineKinds.cpp - arithmetic of the reduce/scan kinds -------------===//

#include "WarpDialect/Transforms/CombineKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::warp;

Value mlir::warp::buildI32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

Value mlir::warp::buildMemberMaskOrAll(OpBuilder &b, Location loc, Value mask) {
  return mask ? mask : buildI32Constant(b, loc, -1);
}

SmallVector<Value, 4>
mlir::warp::buildTupleCombine(OpBuilder &b, Location loc,
                              std::optional<CombineKind> kind, Region *region,
                              ValueRange lhs, ValueRange rhs) {
  if (kind)
    return {buildCombine(b, loc, *kind, lhs.front(), rhs.front())};
  Block &block = region->front();
  IRMapping mapping;
  mapping.map(block.getArguments().take_front(lhs.size()), lhs);
  mapping.map(block.getArguments().drop_front(lhs.size()), rhs);
  for (Operation &inner : block.without_terminator())
    b.clone(inner, mapping);
  SmallVector<Value, 4> results;
  for (Value yielded : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(yielded));
  return results;
}

void mlir::warp::markConvergent(Operation *op) {
  MLIRContext *ctx = op->getContext();
  op->setAttr(kConvergentAttrName, DistinctAttr::create(UnitAttr::get(ctx)));
}

/// The upstream combining kind of each warp kind: the same 13 operations.
static vector::CombiningKind toCombiningKind(CombineKind kind) {
  switch (kind) {
  case CombineKind::Add:
    return vector::CombiningKind::ADD;
  case CombineKind::Mul:
    return vector::CombiningKind::MUL;
  case CombineKind::MinSI:
    return vector::CombiningKind::MINSI;
  case CombineKind::MaxSI:
    return vector::CombiningKind::MAXSI;
  case CombineKind::MinUI:
    return vector::CombiningKind::MINUI;
  case CombineKind::MaxUI:
    return vector::CombiningKind::MAXUI;
  case CombineKind::MinNumF:
    return vector::CombiningKind::MINNUMF;
  case CombineKind::MaxNumF:
    return vector::CombiningKind::MAXNUMF;
  case CombineKind::MinimumF:
    return vector::CombiningKind::MINIMUMF;
  case CombineKind::MaximumF:
    return vector::CombiningKind::MAXIMUMF;
  case CombineKind::And:
    return vector::CombiningKind::AND;
  case CombineKind::Or:
    return vector::CombiningKind::OR;
  case CombineKind::Xor:
    return vector::CombiningKind::XOR;
  }
  llvm_unreachable("unknown combine kind");
}

Value mlir::warp::buildCombine(OpBuilder &b, Location loc, CombineKind kind,
                               Value lhs, Value rhs) {
  // Upstream builds the arith op with `lhs` as its first operand, which is
  // the order the documented combine orders rely on.
  return vector::makeArithReduction(b, loc, toCombiningKind(kind), lhs, rhs);
}

/// The identity as an attribute; for index at 64 bits (see
/// buildCombineIdentity).
static TypedAttr getCombineIdentity(CombineKind kind, Type type) {
  Type elem = getElementTypeOrSelf(type);
  TypedAttr scalar;
  if (auto floatType = dyn_cast<FloatType>(elem)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    llvm::APFloat value = llvm::APFloat::getZero(sem);
    switch (kind) {
    case CombineKind::Mul:
      value = llvm::APFloat::getOne(sem);
      break;
    case CombineKind::MinNumF:
    case CombineKind::MinimumF:
      value = llvm::APFloat::getInf(sem, /*Negative=*/false);
      break;
    case CombineKind::MaxNumF:
    case CombineKind::MaximumF:
      value = llvm::APFloat::getInf(sem, /*Negative=*/true);
      break;
    default:
      break;
    }
    scalar = FloatAttr::get(floatType, value);
  } else {
    unsigned width = elem.isIndex() ? IndexType::kInternalStorageBitWidth
                                    : elem.getIntOrFloatBitWidth();
    llvm::APInt value = llvm::APInt::getZero(width);
    switch (kind) {
    case CombineKind::Mul:
      value = llvm::APInt(width, 1);
      break;
    case CombineKind::And:
    case CombineKind::MinUI:
      value = llvm::APInt::getAllOnes(width);
      break;
    case CombineKind::MinSI:
      value = llvm::APInt::getSignedMaxValue(width);
      break;
    case CombineKind::MaxSI:
      value = llvm::APInt::getSignedMinValue(width);
      break;
    default:
      break;
    }
    scalar = IntegerAttr::get(elem, value);
  }
  if (auto vectorType = dyn_cast<VectorType>(type))
    return DenseElementsAttr::get(vectorType, cast<Attribute>(scalar));
  return scalar;
}

/// The padding as an attribute; for index at 64 bits (see
/// buildCombinePadding).
static TypedAttr getCombinePadding(CombineKind kind, Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!floatType || (kind != CombineKind::Add && kind != CombineKind::MinNumF &&
                     kind != CombineKind::MaxNumF))
    return getCombineIdentity(kind, type);
  const llvm::fltSemantics &sem = floatType.getFloatSemantics();
  llvm::APFloat value = kind == CombineKind::Add
                            ? llvm::APFloat::getZero(sem, /*Negative=*/true)
                            : llvm::APFloat::getNaN(sem);
  TypedAttr scalar = FloatAttr::get(floatType, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return DenseElementsAttr::get(vector, scalar);
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
  return arith::ConstantOp::create(b, loc, getCombineIdentity(kind, type));
}

Value mlir::warp::buildCombinePadding(OpBuilder &b, Location loc,
                                      CombineKind kind, Type type) {
  // The integer paddings are the identities.
  if (Value padding = buildWidthDependentIdentity(b, loc, kind, type))
    return padding;
  return arith::ConstantOp::create(b, loc, getCombinePadding(kind, type));
}

std::optional<StringRef> mlir::warp::getPredicatedScanStep(CombineKind kind,
                                                          Type type) {
  if (type.isF32())
    return kind == CombineKind::Add ? std::optional<StringRef>("add.rn.f32")
                                    : std::nullopt;
  if (!type.isInteger(32))
    return std::nullopt;
  static constexpr std::pair<CombineKind, const char *> kI32Steps[] = {
      {CombineKind::Add, "add.s32"},   {CombineKind::Mul, "mul.lo.s32"},
      {CombineKind::MinSI, "min.s32"}, {CombineKind::MaxSI, "max.s32"},
      {CombineKind::MinUI, "min.u32"}, {CombineKind::MaxUI, "max.u32"},
      {CombineKind::And, "and.b32"},   {CombineKind::Or, "or.b32"},
      {CombineKind::Xor, "xor.b32"}};
  for (auto [stepKind, instruction] : kI32Steps)
    if (stepKind == kind)
      return StringRef(instruction);
  return std::nullopt;
}

bool mlir::warp::areIntegers(ValueRange values) {
  return llvm::all_of(values, [](Value value) {
    return isa<IntegerType>(getElementTypeOrSelf(value.getType()));
  });
}
