//===- CombineKinds.cpp - arithmetic of the reduce/scan kinds -------------===//

#include "WarpDialect/Transforms/CombineKinds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::warp;

Value mlir::warp::buildI32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

Value mlir::warp::buildMemberMaskOrAll(OpBuilder &b, Location loc, Value mask) {
  return mask ? mask : buildI32Constant(b, loc, -1);
}

void mlir::warp::markConvergent(Operation *op) {
  MLIRContext *ctx = op->getContext();
  op->setAttr(kConvergentAttrName, DistinctAttr::create(UnitAttr::get(ctx)));
}

Value mlir::warp::buildCombine(OpBuilder &b, Location loc, CombineKind kind,
                               Value lhs, Value rhs) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case CombineKind::Add:
    return isFloat ? arith::AddFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::AddIOp::create(b, loc, lhs, rhs).getResult();
  case CombineKind::Mul:
    return isFloat ? arith::MulFOp::create(b, loc, lhs, rhs).getResult()
                   : arith::MulIOp::create(b, loc, lhs, rhs).getResult();
  case CombineKind::MinSI:
    return arith::MinSIOp::create(b, loc, lhs, rhs);
  case CombineKind::MaxSI:
    return arith::MaxSIOp::create(b, loc, lhs, rhs);
  case CombineKind::MinUI:
    return arith::MinUIOp::create(b, loc, lhs, rhs);
  case CombineKind::MaxUI:
    return arith::MaxUIOp::create(b, loc, lhs, rhs);
  case CombineKind::MinNumF:
    return arith::MinNumFOp::create(b, loc, lhs, rhs);
  case CombineKind::MaxNumF:
    return arith::MaxNumFOp::create(b, loc, lhs, rhs);
  case CombineKind::MinimumF:
    return arith::MinimumFOp::create(b, loc, lhs, rhs);
  case CombineKind::MaximumF:
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  case CombineKind::And:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case CombineKind::Or:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case CombineKind::Xor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown combine kind");
}

TypedAttr mlir::warp::getCombineIdentity(CombineKind kind, Type type) {
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
    unsigned width = elem.getIntOrFloatBitWidth();
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
