//===- BlockPositions.cpp - where a thread's items lie in its block -------===//

#include "WarpDialect/Transforms/BlockPositions.h"
#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Utils/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::warp;

BlockPositions::BlockPositions(OpBuilder &b, Location loc, Operation *op,
                               int64_t itemsPerThread, Type bufferElement)
    : b(b), loc(loc), n(itemsPerThread) {
  auto [thread32, threads32] = buildBlockThreadAndCount(b, loc, op);
  auto index = [&](Value i32) -> Value {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), i32);
  };
  threadValue = index(thread32);
  threadsValue = index(threads32);
  blockedBase = mul(threadValue, cst(n));
  if (bufferElement)
    padShift =
        cst(llvm::Log2_64(getBlockBufferPaddingPeriod(bufferElement)));
  std::optional<int64_t> known = getKnownBlockThreads(op);
  wholeWarps = known && *known % kWarpSize == 0;
}

Value BlockPositions::cst(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value BlockPositions::add(Value l, Value r) {
  return arith::AddIOp::create(b, loc, l, r);
}
Value BlockPositions::mul(Value l, Value r) {
  return arith::MulIOp::create(b, loc, l, r);
}

Value BlockPositions::count() { return mul(threadsValue, cst(n)); }

Value BlockPositions::position(int64_t j, Arrangement arrangement) {
  switch (arrangement) {
  case Arrangement::Blocked:
    return add(blockedBase, cst(j));
  case Arrangement::Striped:
    return add(threadValue, mul(threadsValue, cst(j)));
  case Arrangement::WarpStriped:
    if (!warpBase) {
      lane = arith::RemUIOp::create(b, loc, threadValue, cst(kWarpSize));
      Value first = arith::SubIOp::create(b, loc, threadValue, lane);
      warpBase = mul(first, cst(n));
      warpThreads =
          wholeWarps
              ? cst(kWarpSize)
              : Value(arith::MinUIOp::create(
                    b, loc, arith::SubIOp::create(b, loc, threadsValue, first),
                    cst(kWarpSize)));
    }
    return add(add(warpBase, lane), mul(warpThreads, cst(j)));
  }
  llvm_unreachable("every arrangement is handled");
}

Value BlockPositions::paddedSlot(Value position) {
  assert(padShift && "a buffer element was given");
  return add(position, arith::ShRUIOp::create(b, loc, position, padShift));
}
