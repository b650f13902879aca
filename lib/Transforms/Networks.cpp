//===- Networks.cpp - tuple shuffles and the scan network ----------------===//

#include "WarpDialect/Transforms/Networks.h"

#include "WarpDialect/Utils/Builders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::warp;

/// One warp.shuffle (over the whole warp, reading no lane past `bound`,
/// where there is one); returns {value, valid}.
static std::pair<Value, Value> shuffle(OpBuilder &b, Location loc,
                                       ShuffleMode mode, Value value,
                                       Value offset, unsigned width, Value mask,
                                       Value bound) {
  auto op = bound ? ShuffleOp::create(b, loc, mode, value, offset, bound, mask)
                  : ShuffleOp::create(b, loc, mode, value, offset, width, mask);
  return {op.getResult(), op.getValid()};
}

/// The bit width of a scalar of at most 16 bits (which shares a 32-bit
/// shuffle with its neighbours in a tuple), or 0.
static unsigned getPackableWidth(Type type) {
  if (!type.isIntOrFloat())
    return 0;
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits <= 16 ? bits : 0;
}

std::pair<Tuple, Value> mlir::warp::shuffleTuple(OpBuilder &b, Location loc,
                                                 ShuffleMode mode,
                                                 ValueRange values,
                                                 Value offset, unsigned width,
                                                 Value mask, Value bound) {
  Type i32 = b.getI32Type();
  Tuple results(values.size());
  Value valid;
  for (size_t first = 0; first < values.size();) {
    // The run [first, last) of values that share one word.
    size_t last = first + 1;
    unsigned used = getPackableWidth(values[first].getType());
    while (used && last < values.size()) {
      unsigned bits = getPackableWidth(values[last].getType());
      if (!bits || used + bits > 32)
        break;
      used += bits;
      ++last;
    }
    if (last == first + 1) {
      std::tie(results[first], valid) =
          shuffle(b, loc, mode, values[first], offset, width, mask, bound);
      first = last;
      continue;
    }
    Value word;
    unsigned shift = 0;
    for (size_t k = first; k < last; ++k) {
      Type type = values[k].getType();
      unsigned bits = type.getIntOrFloatBitWidth();
      Value asInt = values[k];
      if (!isa<IntegerType>(type))
        asInt = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), asInt);
      Value part = arith::ExtUIOp::create(b, loc, i32, asInt);
      if (shift)
        part = arith::ShLIOp::create(b, loc, part,
                                     buildI32Constant(b, loc, shift));
      word = word ? arith::OrIOp::create(b, loc, word, part).getResult() : part;
      shift += bits;
    }
    Value moved;
    std::tie(moved, valid) =
        shuffle(b, loc, mode, word, offset, width, mask, bound);
    shift = 0;
    for (size_t k = first; k < last; ++k) {
      Type type = values[k].getType();
      unsigned bits = type.getIntOrFloatBitWidth();
      Value part = moved;
      if (shift)
        part = arith::ShRUIOp::create(b, loc, part,
                                      buildI32Constant(b, loc, shift));
      part = arith::TruncIOp::create(b, loc, b.getIntegerType(bits), part);
      if (!isa<IntegerType>(type))
        part = arith::BitcastOp::create(b, loc, type, part);
      results[k] = part;
      shift += bits;
    }
    first = last;
  }
  return {results, valid};
}

std::pair<Tuple, Value> mlir::warp::shuffleTuple(OpBuilder &b, Location loc,
                                                 ShuffleMode mode,
                                                 ValueRange values,
                                                 int64_t offset, unsigned width,
                                                 Value mask, Value bound) {
  return shuffleTuple(b, loc, mode, values, buildI32Constant(b, loc, offset),
                      width, mask, bound);
}

Tuple mlir::warp::selectTuple(OpBuilder &b, Location loc, Value condition,
                              ValueRange whenTrue, ValueRange whenFalse) {
  Tuple results;
  for (auto [t, f] : llvm::zip_equal(whenTrue, whenFalse))
    results.push_back(arith::SelectOp::create(b, loc, condition, t, f));
  return results;
}

Tuple mlir::warp::buildKoggeStoneScan(
    OpBuilder &b, Location loc, ValueRange values, unsigned span,
    function_ref<ScanPartner(ValueRange own, unsigned distance)> partnerAt,
    function_ref<Tuple(ValueRange partner, ValueRange own)> combine,
    function_ref<std::optional<Tuple>(ValueRange own, unsigned distance)>
        fusedStep) {
  Tuple inclusive(values);
  for (unsigned distance = 1; distance < span; distance *= 2) {
    if (fusedStep)
      if (std::optional<Tuple> fused = fusedStep(inclusive, distance)) {
        inclusive = std::move(*fused);
        continue;
      }
    ScanPartner partner = partnerAt(inclusive, distance);
    Tuple combined = combine(partner.values, inclusive);
    // Keeping the partner's tuple where it does not count (the lane's own
    // there) lets the backend accumulate in the shuffle's destination
    // register (no extra move).
    inclusive = selectTuple(b, loc, partner.counts, combined, partner.values);
  }
  return inclusive;
}
