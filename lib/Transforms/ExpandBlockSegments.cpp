//===- ExpandBlockSegments.cpp - segmented block scans as tuple scans -----===//
//
// A warp.block_scan with `heads` becomes a block scan without them over
// (flags, values) tuples: each thread (or item) carries a flag word beside
// its values, and the combine region cuts the combination at a head. The
// scan made here is then expanded like any other, so every algorithm,
// `items`, `reverse` and `tile` form takes heads alike
// (warp-expand-block-collectives calls this first).
//
// The flag word of a run of consecutive positions [i, k):
//  * bit 0: forward, a head somewhere in the run; reverse, a head at i;
//  * bit 1 (reverse only): a head somewhere in (i, k);
//  * bit 2: the empty run, the `init` an exclusive scan puts in front
//    (behind, reversed), which the combine passes over without touching
//    the other side, so no identity is ever combined into a result.
// Forward, a run's value combines the positions from its last head on;
// reversed, from i up to its first head after i. Both combines are
// associative, so the scan's combine order over the tuples is that of the
// op's algorithm, and within a segment the values combine as the kind or
// region does, in thread order.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

enum FlagBits : int64_t { kHead = 1, kLaterHead = 2, kEmpty = 4 };

/// Whether `word & bits` is non-zero.
Value testBits(OpBuilder &b, Location loc, Value word, int64_t bits) {
  Value mask = arith::ConstantIntOp::create(b, loc, bits, 32);
  Value masked = arith::AndIOp::create(b, loc, word, mask);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, masked,
                               arith::ConstantIntOp::create(b, loc, 0, 32));
}

/// Fills `into` with the combine of two runs' (flag word, values...)
/// tuples, `combine` being the op's own over the values; `withEmpty`: a run
/// may be the empty one (an exclusive scan's).
void buildRunCombine(OpBuilder &b, Location loc, Region &into,
                     TypeRange valueTypes, bool reverse, bool withEmpty,
                     const Combiner &combine) {
  OpBuilder::InsertionGuard guard(b);
  Type i32 = b.getI32Type();
  SmallVector<Type> arguments{i32};
  llvm::append_range(arguments, valueTypes);
  arguments.push_back(i32);
  llvm::append_range(arguments, valueTypes);
  Block *body = b.createBlock(&into, {}, arguments,
                              SmallVector<Location>(arguments.size(), loc));
  size_t n = valueTypes.size();
  Value lhsFlags = body->getArgument(0), rhsFlags = body->getArgument(n + 1);
  ValueRange lhs = body->getArguments().slice(1, n);
  ValueRange rhs = body->getArguments().slice(n + 2, n);
  SmallVector<Value, 4> combined = combine(b, loc, lhs, rhs);

  Value flags, cut;
  if (!reverse) {
    // From the right run's head on, its own values.
    flags = arith::OrIOp::create(b, loc, lhsFlags, rhsFlags);
    cut = testBits(b, loc, rhsFlags, kHead);
  } else {
    // The left run's values end at its own later head or at the right
    // run's first position, if that is a head; the right run's heads all
    // lie after the left run's first position.
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    Value shifted = arith::ShRUIOp::create(b, loc, lhsFlags, one);
    Value either = arith::OrIOp::create(b, loc, shifted, rhsFlags);
    cut = testBits(b, loc, either, kHead);
    Value later = arith::SelectOp::create(
        b, loc, testBits(b, loc, either, kHead | kLaterHead),
        arith::ConstantIntOp::create(b, loc, kLaterHead, 32),
        arith::ConstantIntOp::create(b, loc, 0, 32));
    Value first = arith::AndIOp::create(
        b, loc, lhsFlags, arith::ConstantIntOp::create(b, loc, kHead, 32));
    flags = arith::OrIOp::create(b, loc, first, later);
  }
  SmallVector<Value> yielded{flags};
  for (auto [left, right, both] : llvm::zip(lhs, rhs, combined))
    yielded.push_back(
        arith::SelectOp::create(b, loc, cut, reverse ? left : right, both));
  if (!withEmpty) {
    YieldOp::create(b, loc, yielded);
    return;
  }
  // An empty run on either side leaves the other as it is.
  Value lhsEmpty = testBits(b, loc, lhsFlags, kEmpty);
  Value rhsEmpty = testBits(b, loc, rhsFlags, kEmpty);
  // The whole tuples: each side's flag word, then its values.
  ValueRange lhsTuple = body->getArguments().take_front(n + 1);
  ValueRange rhsTuple = body->getArguments().drop_front(n + 1);
  for (auto [i, value] : llvm::enumerate(yielded)) {
    value = arith::SelectOp::create(b, loc, rhsEmpty, lhsTuple[i], value);
    value = arith::SelectOp::create(b, loc, lhsEmpty, rhsTuple[i], value);
  }
  YieldOp::create(b, loc, yielded);
}

void expandSegmentedScan(BlockScanOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  bool reverse = op.getReverse(), exclusive = op.getExclusive();
  Value heads = op.getHeads();
  // The positions' flag words: bit 0 their head.
  Type flagsType = b.getI32Type();
  if (auto vector = dyn_cast<VectorType>(heads.getType()))
    flagsType = vector.clone(flagsType);
  SmallVector<Value> values{arith::ExtUIOp::create(b, loc, flagsType, heads)};
  llvm::append_range(values, op.getValues());
  SmallVector<Type> valueTypes = op.getCombinedTypes();
  // Exclusive (kinds only: a region has no identity and `init` is not taken
  // with heads): the empty run in front, its values never combined.
  SmallVector<Value> init;
  if (exclusive) {
    init.push_back(arith::ConstantIntOp::create(b, loc, kEmpty, 32));
    for (Type type : valueTypes)
      init.push_back(buildCombineIdentity(b, loc, *op.getKind(), type));
  }
  auto scan = BlockScanOp::create(b, loc, ValueRange(values).getTypes(),
                                  CombineKindAttr(), values, op.getItems(),
                                  init, exclusive, reverse, /*heads=*/Value(),
                                  op.getAlgorithmAttr(), op.getTileAttr());
  buildRunCombine(b, loc, scan.getCombiner(), valueTypes, reverse, exclusive,
                  Combiner::of(op));

  SmallVector<Value> results(scan.getScanned().drop_front());
  if (exclusive) {
    // A position whose segment holds nothing before it (a head; reversed,
    // the last of its segment: the next position is a head) gets the
    // identity.
    Value alone = heads;
    if (reverse) {
      Value word = scan.getScanned().front();
      Value bit = arith::ConstantIntOp::create(b, loc, kHead, 32);
      if (auto vector = dyn_cast<VectorType>(flagsType))
        bit = vector::BroadcastOp::create(b, loc, vector, bit);
      alone = arith::TruncIOp::create(b, loc, heads.getType(),
                                      arith::AndIOp::create(b, loc, word, bit));
    }
    for (Value &result : results)
      result = arith::SelectOp::create(
          b, loc, alone,
          buildCombineIdentity(b, loc, *op.getKind(), result.getType()),
          result);
  }
  op.replaceAllUsesWith(results);
  op.erase();
}

} // namespace

bool mlir::warp::expandSegmentedBlockScans(Operation *root) {
  SmallVector<BlockScanOp> scans;
  root->walk([&](BlockScanOp op) {
    if (op.getHeads())
      scans.push_back(op);
  });
  for (BlockScanOp op : scans)
    expandSegmentedScan(op);
  return !scans.empty();
}
