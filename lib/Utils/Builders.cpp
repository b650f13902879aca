//===- Builders.cpp - Small IR building helpers of the lowerings ----------===//

#include "WarpDialect/Utils/Builders.h"

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

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

memref::GlobalOp mlir::warp::createWorkgroupBuffer(
    gpu::GPUModuleOp module, StringRef name, Type element, int64_t elements,
    uint64_t alignment, SymbolTable *symbols) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto workgroup = gpu::AddressSpaceAttr::get(module.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto type = MemRefType::get({elements}, element,
                              MemRefLayoutAttrInterface(), workgroup);
  auto global = memref::GlobalOp::create(
      b, module.getLoc(), name, b.getStringAttr("private"), type,
      /*initial_value=*/Attribute(), /*constant=*/false,
      alignment ? b.getI64IntegerAttr(alignment) : IntegerAttr());
  if (symbols)
    symbols->insert(global); // renames it if the name is taken
  return global;
}

void mlir::warp::markConvergent(Operation *op) {
  MLIRContext *ctx = op->getContext();
  op->setAttr(kConvergentAttrName, DistinctAttr::create(UnitAttr::get(ctx)));
}
