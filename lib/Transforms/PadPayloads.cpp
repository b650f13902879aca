//===- PadPayloads.cpp - odd sub-word vectors widened to a power of two ---===//
//
// padSubwordVectorPayloads (Passes.h): the combining and block collectives'
// vector payloads of a number of 8- or 16-bit elements other than a power of
// two become the next power of two with zero elements appended, before the
// expansions run.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::warp;

/// The payload type that `type` is widened to (padSubwordVectorPayloads),
/// or null: a vector of N elements of 8 or 16 bits, N not a power of two,
/// becomes one of the next power of two.
static VectorType getPaddedPayloadType(Type type) {
  auto vectorType = dyn_cast<VectorType>(type);
  if (!vectorType || vectorType.getRank() != 1 || vectorType.isScalable())
    return {};
  Type element = vectorType.getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1) ||
      element.getIntOrFloatBitWidth() >= 32)
    return {};
  uint64_t n = vectorType.getNumElements();
  if (llvm::isPowerOf2_64(n))
    return {};
  return VectorType::get({int64_t(llvm::PowerOf2Ceil(n))}, element);
}

/// `value` with zero elements appended up to `padded`'s length.
static Value padPayload(OpBuilder &b, Location loc, Value value,
                        VectorType padded) {
  auto type = cast<VectorType>(value.getType());
  int64_t n = type.getNumElements();
  Value zeros = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  SmallVector<int64_t> positions = llvm::to_vector(llvm::seq<int64_t>(0, n));
  positions.resize(padded.getNumElements(), /*zeros[0]=*/n);
  return vector::ShuffleOp::create(b, loc, value, zeros, positions);
}

/// The first elements of `value` (padded by padPayload), as `type`.
static Value unpadPayload(OpBuilder &b, Location loc, Value value,
                          VectorType type) {
  SmallVector<int64_t> positions =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getNumElements()));
  return vector::ShuffleOp::create(b, loc, value, value, positions);
}

/// Gives `value` (a block argument or result of odd sub-word vector type)
/// its padded type and its other users, from the builder's insertion point,
/// the first elements again.
static void padInPlace(OpBuilder &b, Location loc, Value value) {
  VectorType padded = getPaddedPayloadType(value.getType());
  if (!padded)
    return;
  auto type = cast<VectorType>(value.getType());
  value.setType(padded);
  Value cut = unpadPayload(b, loc, value, type);
  value.replaceAllUsesExcept(cut, cut.getDefiningOp());
}

void mlir::warp::padSubwordVectorPayloads(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<ReduceOp, ScanOp, BlockReduceOp, BlockScanOp, BlockBroadcastOp,
            BlockShuffleOp>(op) &&
        !hasThreadItems(op) &&
        llvm::any_of(op->getResultTypes(), getPaddedPayloadType))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    OpBuilder b(op);
    for (OpOperand &operand : op->getOpOperands())
      if (VectorType padded = getPaddedPayloadType(operand.get().getType()))
        operand.set(padPayload(b, loc, operand.get(), padded));
    // A combiner takes and yields the payload: its arguments are cut back,
    // what it yields padded.
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      Block &entry = region.front();
      b.setInsertionPointToStart(&entry);
      for (BlockArgument argument : entry.getArguments())
        padInPlace(b, loc, argument);
      for (Block &block : region) {
        auto yield =
            block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
        if (!yield)
          continue;
        b.setInsertionPoint(yield);
        for (OpOperand &operand : yield->getOpOperands())
          if (VectorType padded = getPaddedPayloadType(operand.get().getType()))
            operand.set(padPayload(b, loc, operand.get(), padded));
      }
    }
    b.setInsertionPointAfter(op);
    for (OpResult result : op->getResults())
      padInPlace(b, loc, result);
  }
}

