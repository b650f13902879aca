//===- ExpandBlockItems.cpp - block ops over items per thread -------------===//
//
// warp.block_reduce and warp.block_scan with `items` (each value a vector of
// the thread's items, blocked) become block ops over one value per thread,
// as CUB builds its ITEMS_PER_THREAD overloads: each thread folds its items
// serially from the left, the block combines the folds, and a scan rescans
// the items serially from the thread's prefix. The block ops made here are
// then expanded like any other (warp-expand-block-collectives calls this
// first).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Transforms/Networks.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

/// The items of one thread: item `j` is the tuple of element `j` of every
/// value.
class ThreadItems {
public:
  ThreadItems(OpBuilder &b, Location loc, CombiningOpInterface op)
      : combiner(Combiner::of(op)), b(b), loc(loc), values(op.getValues()) {
    count = cast<VectorType>(values.front().getType()).getNumElements();
  }

  int64_t size() const { return count; }

  Tuple item(int64_t j) {
    Tuple tuple;
    for (Value value : values)
      tuple.push_back(vector::ExtractOp::create(b, loc, value, j));
    return tuple;
  }

  Tuple combine(ValueRange lhs, ValueRange rhs) {
    return combiner(b, loc, lhs, rhs);
  }

  /// ((i_0 (op) i_1) (op) i_2) ...
  Tuple fold() {
    Tuple acc = item(0);
    for (int64_t j = 1; j < count; ++j)
      acc = combine(acc, item(j));
    return acc;
  }

  /// The vectors of `items[j][i]`, one per value `i`.
  SmallVector<Value> pack(ArrayRef<Tuple> items) {
    SmallVector<Value> vectors;
    for (auto [i, value] : llvm::enumerate(values)) {
      SmallVector<Value> elements;
      for (const Tuple &tuple : items)
        elements.push_back(tuple[i]);
      vectors.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(value.getType()), elements));
    }
    return vectors;
  }

  Combiner combiner;

private:
  OpBuilder &b;
  Location loc;
  ValueRange values;
  int64_t count;
};

/// Gives `into` (a block op just made) a copy of `from`'s combiner region.
void copyCombiner(Region &from, Region &into) {
  IRMapping mapping;
  from.cloneInto(&into, mapping);
}

void expandReduce(BlockReduceOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  ThreadItems items(b, loc, op);
  Tuple fold = items.fold();
  auto reduce = BlockReduceOp::create(
      b, loc, op.getResultTypes(), op.getKindAttr(), fold, /*items=*/false,
      /*valid_threads=*/Value(), op.getCommutative(), op.getThreads(),
      op.getAlgorithmAttr(), op.getTileAttr());
  copyCombiner(op.getCombiner(), reduce.getCombiner());
  op.replaceAllUsesWith(reduce.getResults());
  op.erase();
}

/// Whether the executing thread has no neighbour on the side a scan comes
/// from: thread 0 of its block, or when reversed the last thread (with
/// `tile N`: rank 0 or N - 1 of its tile).
Value buildIsEdgeThread(OpBuilder &b, Location loc, Operation *op,
                        bool reverse) {
  auto [thread, threads] = buildBlockThreadAndCount(b, loc, op);
  if (std::optional<int64_t> n = getTileThreads(op)) {
    thread = arith::AndIOp::create(b, loc, thread,
                                   buildI32Constant(b, loc, *n - 1));
    threads = buildI32Constant(b, loc, *n);
  }
  Value edge = reverse ? arith::SubIOp::create(b, loc, threads,
                                               buildI32Constant(b, loc, 1))
                       : buildI32Constant(b, loc, 0);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, edge);
}

void expandScan(BlockScanOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  ThreadItems items(b, loc, op);
  bool hasInit = op.hasPrefix();
  bool withTotal = !op.getTotal().empty();
  bool reverse = op.getReverse();
  SmallVector<Type> foldTypes = op.getCombinedTypes();
  SmallVector<Type> resultTypes = foldTypes;
  if (withTotal)
    llvm::append_range(resultTypes, foldTypes);

  Tuple fold = items.fold();
  // The thread's prefix: the combination of the items of the threads
  // before it (init in front; when reversed, its suffix: of the threads
  // after it, init at the end), and where it has none (the edge thread
  // without init) a condition to start from its own item instead.
  Tuple prefix;
  Value noPrefix;
  BlockScanOp scan;
  if (op.getKind() || hasInit) {
    scan = BlockScanOp::create(b, loc, resultTypes, op.getKindAttr(), fold,
                               /*items=*/false, op.getInit(),
                               /*exclusive=*/true, reverse, /*heads=*/Value(),
                               op.getAlgorithmAttr(), op.getTileAttr());
    copyCombiner(op.getCombiner(), scan.getCombiner());
    // The prefix region sees the fold's total: every item's.
    copyCombiner(op.getPrefix(), scan.getPrefix());
    prefix.append(scan.getScanned().begin(), scan.getScanned().end());
    if (!hasInit)
      noPrefix = buildIsEdgeThread(b, loc, op, reverse);
  } else {
    // A region without init has no exclusive block scan: the inclusive
    // scan of the thread before (after, reversed).
    scan = BlockScanOp::create(b, loc, resultTypes, op.getKindAttr(), fold,
                               /*items=*/false, ValueRange(),
                               /*exclusive=*/false, reverse, /*heads=*/Value(),
                               op.getAlgorithmAttr(), op.getTileAttr());
    copyCombiner(op.getCombiner(), scan.getCombiner());
    Value distance = arith::ConstantIntOp::create(b, loc, reverse ? 1 : -1, 32);
    for (Value inclusive : scan.getScanned()) {
      auto shuffle = BlockShuffleOp::create(b, loc, inclusive.getType(),
                                            b.getI1Type(),
                                            BlockShuffleMode::Offset,
                                            inclusive, distance,
                                            op.getTileAttr());
      prefix.push_back(shuffle.getResult());
      // The edge thread alone reads outside the block (the same for every
      // value).
      if (!noPrefix)
        noPrefix = arith::XOrIOp::create(
            b, loc, shuffle.getValid(),
            arith::ConstantIntOp::create(b, loc, 1, 1));
    }
  }

  // The rescan, from the prefix's side: item j's inclusive value r_j =
  // r_{j-1} (op) i_j (reversed: i_j (op) r_{j+1}), the prefix standing at
  // r_{-1} (r_N); an exclusive scan gives item j the value before it.
  int64_t count = items.size();
  SmallVector<Tuple> outputs(count);
  Tuple running = prefix;
  for (int64_t step = 0; step < count; ++step) {
    int64_t j = reverse ? count - 1 - step : step;
    Tuple item = items.item(j);
    Tuple next = reverse ? items.combine(item, running)
                         : items.combine(running, item);
    if (step == 0 && noPrefix)
      next = selectTuple(b, loc, noPrefix, item, next);
    outputs[j] = op.getExclusive() ? running : next;
    running = next;
  }
  SmallVector<Value> results = items.pack(outputs);
  if (withTotal)
    llvm::append_range(results, scan.getTotal());
  op.replaceAllUsesWith(results);
  op.erase();
}

} // namespace

bool mlir::warp::hasThreadItems(Operation *op) {
  if (auto reduce = dyn_cast<BlockReduceOp>(op))
    return reduce.getItems();
  auto scan = dyn_cast<BlockScanOp>(op);
  return scan && scan.getItems();
}

bool mlir::warp::expandBlockItems(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (hasThreadItems(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto reduce = dyn_cast<BlockReduceOp>(op))
      expandReduce(reduce);
    else
      expandScan(cast<BlockScanOp>(op));
  }
  return !ops.empty();
}
