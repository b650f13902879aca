//===- Builders.cpp - Small IR building helpers of the lowerings ----------===//

#include "WarpDialect/Utils/Builders.h"

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
  auto fns = LLVM::InlineAsmOp::create(
      b, loc, b.getI32Type(), ValueRange{mask, base, offset},
      "fns.b32 $0, $1, $2, $3;", "=r,r,r,r", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::TailCallKind::None,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  return fns.getResult(0);
}

void mlir::warp::markConvergent(Operation *op) {
  MLIRContext *ctx = op->getContext();
  op->setAttr(kConvergentAttrName, DistinctAttr::create(UnitAttr::get(ctx)));
}
