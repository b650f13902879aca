//===- ExpandBlockMemory.cpp - block loads and stores ---------------------===//
//
// The block ops over memory. warp.block_load and warp.block_store (CUB's
// BlockLoad / BlockStore), and their warp-level counterparts warp.load and
// warp.store (WarpLoad / WarpStore), become memref or vector accesses,
// through warp.block_exchange or warp.exchange where their algorithm
// transposes: a tile of B * N items (32 * N for a warp, w * N for each
// logical warp of w lanes), item g of the tile at memref[offset + g].
// warp.block_histogram (CUB's BlockHistogram) becomes atomic adds between
// barriers, after a block radix sort and a shift for its sort algorithm.
// warp-expand-block-collectives calls this first: the exchanges, sorts and
// shifts made here are expanded with the other block ops.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/BlockPositions.h"
#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

/// Whether `Op` moves a warp's tile (warp.load, warp.store) rather than
/// its block's.
template <typename Op>
constexpr bool isWarpTile = std::is_same_v<Op, LoadOp> ||
                            std::is_same_v<Op, StoreOp>;

/// Whether a block op's items are warp-striped (a warp op's `striped`
/// is already over its warp).
template <typename Op>
bool isWarpStriped(Op op) {
  if constexpr (isWarpTile<Op>)
    return false;
  else
    return op.getWarpStriped();
}

/// Where the executing thread's items lie in its group's tile (the block's,
/// or for a warp op its warp's), and how to reach them.
class Tile {
public:
  template <typename Op>
  Tile(OpBuilder &b, Location loc, Op op)
      : b(b), loc(loc), memref(op.getMemref()), offset(op.getOffset()),
        type(cast<VectorType>(op.getItemsType())) {
    if constexpr (isWarpTile<Op>) {
      // The lane's rank in its logical warp of `width` lanes.
      width = op.getWidth();
      lane = arith::IndexCastUIOp::create(
          b, loc, b.getIndexType(), LaneIdOp::create(b, loc, b.getI32Type()));
      if (width != kWarpSize)
        lane = arith::AndIOp::create(b, loc, lane, cst(width - 1));
    } else
      positions.emplace(b, loc, op, type.getNumElements());
    if (Value valid = op.getValid())
      limit = arith::IndexCastOp::create(b, loc, b.getIndexType(), valid);
  }

  int64_t count() const { return type.getNumElements(); }
  Type element() const { return type.getElementType(); }

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }

  /// The tile position of item j of this thread in each arrangement; a
  /// warp's striped one is its warp-striped one, lane l + 32 j (rank r +
  /// w j in a logical warp of w lanes).
  Value blocked(int64_t j) {
    if (positions)
      return positions->position(j, Arrangement::Blocked);
    return add(mul(lane, cst(count())), cst(j));
  }
  Value striped(int64_t j) {
    if (positions)
      return positions->position(j, Arrangement::Striped);
    return add(lane, cst(int64_t(width) * j));
  }

  /// A block op's warp-striped position of item j (lane l of warp w, its
  /// warp of L threads: 32 w N + l + L j).
  Value warpStriped(int64_t j) {
    return positions->position(j, Arrangement::WarpStriped);
  }

  /// The position of item j in the arrangement `algorithm` (transpose or
  /// warp_transpose) accesses memory in: striped over the block for a
  /// block's transpose, over the warp otherwise.
  Value transposedPosition(BlockMemoryAlgorithm algorithm, int64_t j) {
    if (positions && algorithm == BlockMemoryAlgorithm::WarpTranspose)
      return positions->position(j, Arrangement::WarpStriped);
    return striped(j);
  }

  /// `items` exchanged in `direction` by `algorithm`: through
  /// warp.block_exchange for a block's transpose, warp.exchange otherwise.
  Value transposed(BlockMemoryAlgorithm algorithm, ExchangeDirection direction,
                   Value items) {
    auto attr = ExchangeDirectionAttr::get(b.getContext(), direction);
    if (positions && algorithm == BlockMemoryAlgorithm::Transpose)
      return BlockExchangeOp::create(b, loc, type, attr, items);
    return ExchangeOp::create(b, loc, type, attr, items, /*strategy=*/nullptr);
  }

  /// Runs `body` only where tile position `position` is below `valid` (or
  /// always without one), yielding its value or `otherwise`.
  Value guarded(Value position, function_ref<Value()> body, Value otherwise) {
    if (!limit)
      return body();
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     position, limit);
    auto ifOp = scf::IfOp::create(
        b, loc, in,
        [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, body()); },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, otherwise);
        });
    return ifOp.getResult(0);
  }
  void guarded(Value position, function_ref<void()> body) {
    if (!limit)
      return body();
    buildIfThen(b, loc,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, position, limit),
                body);
  }

  /// The items at `positions(j)`, j = 0 .. N-1, out-of-range ones `fill`.
  Value load(function_ref<Value(int64_t)> positions, Value fill) {
    SmallVector<Value> items;
    for (int64_t j = 0; j < count(); ++j) {
      Value position = positions(j);
      items.push_back(guarded(
          position,
          [&]() -> Value {
            return memref::LoadOp::create(b, loc, memref,
                                          ValueRange{add(offset, position)});
          },
          fill));
    }
    return vector::FromElementsOp::create(b, loc, type, items);
  }

  void store(Value items, function_ref<Value(int64_t)> positions) {
    for (int64_t j = 0; j < count(); ++j) {
      Value position = positions(j);
      guarded(position, [&] {
        Value item = vector::ExtractOp::create(b, loc, items, j);
        memref::StoreOp::create(b, loc, item, memref,
                                ValueRange{add(offset, position)});
      });
    }
  }

  /// The items of one vector access: 16 bytes' worth, or all N items
  /// where they are fewer (the verifier's rule: a power of two of bytes, or
  /// a multiple of 16).
  int64_t chunkItems() {
    int64_t bytes = element().getIntOrFloatBitWidth() / 8;
    return std::min<int64_t>(count(), 16 / bytes);
  }
  int64_t chunkBytes() {
    return chunkItems() * (element().getIntOrFloatBitWidth() / 8);
  }

  /// Whether the tile's first item is aligned to a vector access (then
  /// every thread's are: t N items further on, N a multiple of the
  /// access's items).
  Value isVectorAligned() {
    int64_t bytes = element().getIntOrFloatBitWidth() / 8;
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    Value start = add(base, mul(offset, cst(bytes)));
    Value misaligned = arith::RemUIOp::create(b, loc, start, cst(chunkBytes()));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misaligned,
                                 cst(0));
  }

  /// `vectorBody()` where the tile is aligned for vector accesses, else
  /// `scalarBody()` (each yielding values of `types`).
  SmallVector<Value> ifAligned(function_ref<SmallVector<Value>()> vectorBody,
                               function_ref<SmallVector<Value>()> scalarBody,
                               TypeRange types) {
    auto ifOp = scf::IfOp::create(b, loc, types, isVectorAligned(),
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    auto fill = [&](Block *block, function_ref<SmallVector<Value>()> body) {
      b.setInsertionPointToStart(block);
      SmallVector<Value> values = body();
      if (!types.empty())
        scf::YieldOp::create(b, loc, values);
    };
    fill(ifOp.thenBlock(), vectorBody);
    fill(ifOp.elseBlock(), scalarBody);
    return SmallVector<Value>(ifOp.getResults());
  }

  /// The thread's N blocked items with one aligned vector load per chunk,
  /// the chunks concatenated by vector.shuffle (extracting every item and
  /// rebuilding the vector let LLVM split the loads into scalar ones).
  Value loadVectors() {
    auto chunk = VectorType::get({chunkItems()}, element());
    Value items;
    for (int64_t j = 0; j < count(); j += chunkItems()) {
      Value vector = vector::LoadOp::create(
          b, loc, chunk, memref, ValueRange{add(offset, blocked(j))},
          /*nontemporal=*/false, llvm::MaybeAlign(chunkBytes()));
      items = items ? vector::ShuffleOp::create(
                          b, loc, items, vector,
                          llvm::to_vector(llvm::seq<int64_t>(0, j + chunkItems())))
                    : vector;
    }
    return items;
  }

  /// The thread's N blocked items with one aligned vector store per chunk,
  /// each chunk a vector.shuffle of the items.
  void storeVectors(Value items) {
    for (int64_t j = 0; j < count(); j += chunkItems()) {
      Value vector =
          chunkItems() == count()
              ? items
              : vector::ShuffleOp::create(
                    b, loc, items, items,
                    llvm::to_vector(llvm::seq<int64_t>(j, j + chunkItems())));
      vector::StoreOp::create(b, loc, vector, memref,
                              ValueRange{add(offset, blocked(j))},
                              /*nontemporal=*/false,
                              llvm::MaybeAlign(chunkBytes()));
    }
  }

  OpBuilder &b;
  Location loc;
  Value memref, offset;
  VectorType type;
  /// A block op's positions; a warp op's lane (its rank in its logical
  /// warp) and the logical warp's lanes instead.
  std::optional<BlockPositions> positions;
  Value lane;
  unsigned width = kWarpSize;
  Value limit;
};

template <typename Op>
void expandLoad(Op op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Tile tile(b, loc, op);
  Value fill = op.getFill();
  if (!fill)
    fill = arith::ConstantOp::create(b, loc, b.getZeroAttr(tile.element()));
  auto blocked = [&](int64_t j) { return tile.blocked(j); };
  Value items;
  if (op.getStriped()) {
    items = tile.load([&](int64_t j) { return tile.striped(j); }, fill);
  } else if (isWarpStriped(op)) {
    items = tile.load([&](int64_t j) { return tile.warpStriped(j); }, fill);
  } else {
    BlockMemoryAlgorithm algorithm = decideBlockMemoryAlgorithm(op);
    switch (algorithm) {
    case BlockMemoryAlgorithm::Direct:
      items = tile.load(blocked, fill);
      break;
    case BlockMemoryAlgorithm::Vectorize:
      items = tile.ifAligned(
          [&]() -> SmallVector<Value> { return {tile.loadVectors()}; },
          [&]() -> SmallVector<Value> { return {tile.load(blocked, fill)}; },
          tile.type)[0];
      break;
    case BlockMemoryAlgorithm::Transpose:
    case BlockMemoryAlgorithm::WarpTranspose:
      items = tile.transposed(
          algorithm, ExchangeDirection::StripedToBlocked,
          tile.load(
              [&](int64_t j) { return tile.transposedPosition(algorithm, j); },
              fill));
      break;
    }
  }
  op.replaceAllUsesWith(items);
  op.erase();
}

template <typename Op>
void expandStore(Op op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Tile tile(b, loc, op);
  Value items = op.getItems();
  auto blocked = [&](int64_t j) { return tile.blocked(j); };
  if (op.getStriped()) {
    tile.store(items, [&](int64_t j) { return tile.striped(j); });
  } else if (isWarpStriped(op)) {
    tile.store(items, [&](int64_t j) { return tile.warpStriped(j); });
  } else {
    BlockMemoryAlgorithm algorithm = decideBlockMemoryAlgorithm(op);
    switch (algorithm) {
    case BlockMemoryAlgorithm::Direct:
      tile.store(items, blocked);
      break;
    case BlockMemoryAlgorithm::Vectorize:
      tile.ifAligned(
          [&]() -> SmallVector<Value> {
            tile.storeVectors(items);
            return {};
          },
          [&]() -> SmallVector<Value> {
            tile.store(items, blocked);
            return {};
          },
          TypeRange());
      break;
    case BlockMemoryAlgorithm::Transpose:
    case BlockMemoryAlgorithm::WarpTranspose:
      tile.store(
          tile.transposed(algorithm, ExchangeDirection::BlockedToStriped,
                          items),
          [&](int64_t j) { return tile.transposedPosition(algorithm, j); });
      break;
    }
  }
  op.erase();
}

/// CUB's sort histogram's counting (BLOCK_HISTO_SORT): the block's samples
/// sorted (clamped to the bins' static count `K` first where that narrows
/// the sorted bits), each sorted sample's successor from a shift down, and
/// at each run's end `e` (its successor differs, or it is the block's last
/// sample) `+e` to the run's bin and `-e` to the next run's bin: every bin
/// gets its run's end less its start (the first run starts at 0), two
/// atomic adds per run. `add(sample, amount)` adds to a sample's bin.
void countSortedRuns(OpBuilder &b, Location loc, BlockHistogramOp op,
                     Value thread, Value threads, Type counter,
                     function_ref<void(Value, Value)> add) {
  auto items = cast<VectorType>(op.getItems().getType());
  int64_t n = items.getNumElements();
  Type element = items.getElementType();
  unsigned width = element.getIntOrFloatBitWidth();
  Value keys = op.getItems();
  IntegerAttr beginBit, endBit;
  int64_t bins = cast<MemRefType>(op.getBins().getType()).getDimSize(0);
  if (!ShapedType::isDynamic(bins) &&
      (width == 64 || uint64_t(bins) < (uint64_t(1) << width))) {
    // Every sample of K or more becomes K, which no bin counts: bits
    // [0, bit_width(K)) tell the rest apart.
    Value limit = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(items, b.getIntegerAttr(element, bins)));
    keys = arith::MinUIOp::create(b, loc, keys, limit);
    unsigned bits = std::max(1, int(llvm::bit_width(uint64_t(bins))));
    if (bits < width) {
      beginBit = b.getI32IntegerAttr(0);
      endBit = b.getI32IntegerAttr(bits);
    }
  }
  Value sorted =
      BlockRadixSortOp::create(b, loc, TypeRange{items}, Type(),
                               ValueRange{keys}, Value(),
                               /*descending=*/false, /*is_signed=*/false,
                               beginBit, endBit, /*striped=*/false,
                               IntegerAttr(), /*ranking=*/nullptr)
          .getSortedKeys()
          .front();
  Value next = BlockShiftOp::create(b, loc, items, element,
                                    BlockShiftDirection::Down, sorted)
                   .getResult();
  auto cst = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(counter, v));
  };
  // The positions are those of the blocked arrangement: t * N + j.
  Value first = arith::MulIOp::create(
      b, loc,
      arith::IndexCastUIOp::create(b, loc, counter, thread), cst(n));
  Value lastThread = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, thread,
      arith::SubIOp::create(b, loc, threads,
                            arith::ConstantIndexOp::create(b, loc, 1)));
  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (int64_t j = 0; j < n; ++j) {
    Value key = vector::ExtractOp::create(b, loc, sorted, j);
    Value successor = vector::ExtractOp::create(b, loc, next, j);
    Value end = arith::AddIOp::create(b, loc, first, cst(j + 1));
    // Only the last thread's last sample ends the block.
    Value last = j + 1 == n ? lastThread
                            : arith::ConstantIntOp::create(b, loc, 0, 1);
    Value differs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          key, successor);
    Value runEnds = arith::OrIOp::create(b, loc, differs, last);
    buildIfThen(b, loc, runEnds, [&] {
      add(key, end);
      Value notLast = arith::XOrIOp::create(b, loc, last, trueValue);
      buildIfThen(b, loc, notLast, [&] {
        add(successor, arith::SubIOp::create(b, loc, cst(0), end));
      });
    });
  }
}

/// CUB's block histogram: a barrier, the counters zeroed (each thread
/// every B-th one from its own) and a barrier unless the op accumulates,
/// then the counting: one atomic add per sample below the bins' count
/// (atomic, warp_aggregated), or the sorted runs' (sort); a barrier.
void expandHistogram(BlockHistogramOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto [thread32, threads32] = buildBlockThreadAndCount(b, loc, op);
  auto index = [&](Value i32) -> Value {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), i32);
  };
  Value thread = index(thread32), threads = index(threads32);
  Value bins = op.getBins();
  Type counter = cast<MemRefType>(bins.getType()).getElementType();
  Value count = memref::DimOp::create(b, loc, bins, 0);
  gpu::BarrierOp::create(b, loc);
  if (!op.getAccumulate()) {
    auto zeroing = scf::ForOp::create(b, loc, thread, count, threads);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(zeroing.getBody());
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(counter));
      memref::StoreOp::create(b, loc, zero, bins,
                              ValueRange{zeroing.getInductionVar()});
    }
    gpu::BarrierOp::create(b, loc);
  }
  BlockHistogramAlgorithm algorithm = decideBlockHistogramAlgorithm(op);
  auto items = cast<VectorType>(op.getItems().getType());
  // Adds `amount` to the bin of `sample` where it is one (below the
  // count): the sample as an unsigned bin number (zero-extended).
  auto add = [&](Value sample, Value amount) {
    if (items.getElementTypeBitWidth() < 64)
      sample = arith::ExtUIOp::create(b, loc, b.getI64Type(), sample);
    Value bin = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), sample);
    Value counted = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          bin, count);
    buildIfThen(b, loc, counted, [&] {
      if (algorithm == BlockHistogramAlgorithm::WarpAggregated)
        AtomicRMWOp::create(
            b, loc, counter,
            AtomicKindAttr::get(b.getContext(), AtomicKind::Add), amount, bins,
            ValueRange{bin}, /*mask=*/Value());
      else
        memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, amount,
                                    bins, ValueRange{bin});
    });
  };
  if (algorithm == BlockHistogramAlgorithm::Sort) {
    countSortedRuns(b, loc, op, thread, threads, counter, add);
  } else {
    Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(counter));
    for (int64_t j = 0; j < items.getNumElements(); ++j)
      add(vector::ExtractOp::create(b, loc, op.getItems(), j), one);
  }
  gpu::BarrierOp::create(b, loc);
  op.erase();
}

} // namespace

bool mlir::warp::expandBlockMemoryOps(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<BlockLoadOp, BlockStoreOp, LoadOp, StoreOp, BlockHistogramOp>(
            op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto load = dyn_cast<BlockLoadOp>(op))
      expandLoad(load);
    else if (auto store = dyn_cast<BlockStoreOp>(op))
      expandStore(store);
    else if (auto load = dyn_cast<LoadOp>(op))
      expandLoad(load);
    else if (auto store = dyn_cast<StoreOp>(op))
      expandStore(store);
    else
      expandHistogram(cast<BlockHistogramOp>(op));
  }
  return !ops.empty();
}
