//===- Builders.cpp - Small IR building helpers of the lowerings ----------===//

#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/InlinePTX.h"

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

Value mlir::warp::buildI32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

Value mlir::warp::buildMemberMaskOrAll(OpBuilder &b, Location loc, Value mask) {
  return mask ? mask : buildI32Constant(b, loc, -1);
}

Value mlir::warp::buildFindNthSet(OpBuilder &b, Location loc, Value mask,
                                  Value base, Value offset) {
  // Every operand in a register, as NVVM would pass them.
  InlinePTX ptx("r");
  ptx << "fns.b32 $0, " << ptx.operand(mask, "r") << ", "
      << ptx.operand(base, "r") << ", " << ptx.operand(offset, "r") << ";";
  return ptx.create(b, loc, b.getI32Type());
}

void mlir::warp::markConvergent(Operation *op) {
  MLIRContext *ctx = op->getContext();
  op->setAttr(kConvergentAttrName, DistinctAttr::create(UnitAttr::get(ctx)));
}
