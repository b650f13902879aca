//===- Builders.cpp - Small IR building helpers of the lowerings ----------===//

#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/InlinePTX.h"

#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

Value mlir::warp::buildI32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

void mlir::warp::buildIfThen(OpBuilder &b, Location loc, Value condition,
                             function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

/// The constant `value` of the integer type of `like`.
static Value imageConstant(OpBuilder &b, Location loc, Value like,
                           uint64_t value) {
  return arith::ConstantOp::create(b, loc,
                                   b.getIntegerAttr(like.getType(), value));
}

/// `bits` with every bit flipped.
static Value complementImage(OpBuilder &b, Location loc, Value bits) {
  unsigned width = bits.getType().getIntOrFloatBitWidth();
  return arith::XOrIOp::create(
      b, loc, bits,
      imageConstant(b, loc, bits, llvm::maskTrailingOnes<uint64_t>(width)));
}

/// `bits` with the sign bit flipped.
static Value flipSign(OpBuilder &b, Location loc, Value bits) {
  unsigned width = bits.getType().getIntOrFloatBitWidth();
  return arith::XOrIOp::create(
      b, loc, bits, imageConstant(b, loc, bits, uint64_t(1) << (width - 1)));
}

Value mlir::warp::buildRadixImage(OpBuilder &b, Location loc, Value key,
                                  bool isSigned, bool descending) {
  Value bits = key;
  if (isa<FloatType>(key.getType())) {
    bits = arith::BitcastOp::create(
        b, loc, b.getIntegerType(key.getType().getIntOrFloatBitWidth()), key);
    Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           bits, imageConstant(b, loc, bits, 0));
    bits = arith::SelectOp::create(b, loc, negative,
                                   complementImage(b, loc, bits),
                                   flipSign(b, loc, bits));
  } else if (isSigned) {
    bits = flipSign(b, loc, bits);
  }
  return descending ? complementImage(b, loc, bits) : bits;
}

Value mlir::warp::buildRadixKey(OpBuilder &b, Location loc, Value bits,
                                Type keyType, bool isSigned, bool descending) {
  if (descending)
    bits = complementImage(b, loc, bits);
  if (isa<FloatType>(keyType)) {
    // The sign bit of the image is set where the key was non-negative.
    Value wasNonNegative = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, bits, imageConstant(b, loc, bits, 0));
    bits = arith::SelectOp::create(b, loc, wasNonNegative, flipSign(b, loc, bits),
                                   complementImage(b, loc, bits));
    return arith::BitcastOp::create(b, loc, keyType, bits);
  }
  if (isSigned)
    bits = flipSign(b, loc, bits);
  return bits;
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

std::pair<Value, Value> mlir::warp::buildWarpLiveLanes(OpBuilder &b,
                                                       Location loc,
                                                       Value thread,
                                                       Value threads) {
  auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  Value warpStart =
      arith::AndIOp::create(b, loc, thread, cst(~int64_t(kWarpSize - 1)));
  Value live = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, threads, warpStart),
      cst(kWarpSize));
  // (1 << live) - 1, with live = 32 (a poison shift) selected separately.
  Value lowBits = arith::SubIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, cst(1), live), cst(1));
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, live,
                                     cst(kWarpSize));
  return {live, arith::SelectOp::create(b, loc, full, cst(-1), lowBits)};
}

std::pair<Value, Value> mlir::warp::buildBlockThreadAndCount(OpBuilder &b,
                                                          Location loc,
                                                          Operation *op) {
  Type i32 = b.getI32Type();
  auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  std::optional<std::array<int64_t, 3>> known = getKnownBlockSize(op);
  auto tid = [&](gpu::Dimension d) -> Value {
    if (known && (*known)[static_cast<int>(d)] == 1)
      return cst(0);
    return arith::IndexCastUIOp::create(b, loc, i32,
                                        gpu::ThreadIdOp::create(b, loc, d));
  };
  auto bdim = [&](gpu::Dimension d) -> Value {
    if (known)
      return cst((*known)[static_cast<int>(d)]);
    return arith::IndexCastUIOp::create(b, loc, i32,
                                        gpu::BlockDimOp::create(b, loc, d));
  };
  Value tx = tid(gpu::Dimension::x);
  Value ty = tid(gpu::Dimension::y);
  Value tz = tid(gpu::Dimension::z);
  Value bx = bdim(gpu::Dimension::x);
  Value by = bdim(gpu::Dimension::y);
  Value bz = bdim(gpu::Dimension::z);
  auto add = [&](Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); };
  auto mul = [&](Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); };
  return {add(tx, mul(bx, add(ty, mul(by, tz)))), mul(mul(bx, by), bz)};
}
