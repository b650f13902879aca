//===- ExpandMergeSort.cpp - merge sorts to a merge-path sort -------------===//
//
// warp.merge_sort (CUB's WarpMergeSort, stable) in two phases, and
// warp.block_merge_sort (CUB's BlockMergeSort) the same way with the whole
// block as the group (the block's threads for the lanes, barriers for
// warp.syncwarp, one block-wide buffer for the warps' slices):
//
//   1. Each lane sorts its N items in registers: an odd-even transposition
//      network (N rounds of neighbour compare-exchanges, the odd rounds
//      starting at item 1). A pair swaps only where the second key is
//      strictly before the first, so equal keys never pass each other.
//
//   2. log2(W) merge rounds over this warp's slice of a workgroup buffer
//      (W the logical warp's lanes). In round r the runs of M = N 2^(r-1)
//      items (the sorted items of 2^(r-1) lanes) merge pairwise: lane l,
//      the i-th lane (i = l % 2^r) of its pair of runs A (the lower) and B,
//      makes the merged run's items [i N, i N + N). The lanes store their
//      items at their blocked positions between two warp.syncwarp; a lane
//      then finds its diagonal d = i N on the merge path (how many of its
//      first d items come from A: the least a in [max(0, d - |B|),
//      min(d, |A|)] with B[d - 1 - a] before A[a], a binary search unrolled
//      to ceil(log2(M + 1)) steps) and merges N items from A[a] and B[d -
//      a], taking B's only when it is strictly before A's (stability).
//      Values load at the same positions as their keys and follow them
//      through selects.
//
// The search needs no "lo < hi" guard: once lo == hi a step leaves lo at
// hi or hi + 1, both keep doing so, and the answer is min(lo, hi). Its
// reads stay within [A's first - 1, A's end], the merge's within the two
// runs and one past them; the slice has spare items before (16 bytes,
// which also aligns the lanes' items for vector stores) and after the
// warp's 32 N items, so no access leaves it (a spare item is read but
// never used).
//
// With valid_items n (uniform in each logical warp) only positions < n of
// the group take part: the local network does not swap an invalid item,
// the runs are clamped to the group's first n positions (which always hold
// its valid items: the invalid ones stay in place), a lane's diagonal to
// its pair's valid items, and the merge's loads to the last valid position
// (past it, both runs are done and the lane's outputs are invalid ones).
// At the end the invalid positions take the oob default and their input
// values.
//
// A block of B threads, B not a power of two, merges its last run of a
// round with a shorter one or with none: the runs are clamped to the
// block's B N positions as to the valid ones (the limit is B N without
// valid_items).
//
// A block's rounds wait on barriers, except where a round's pairs of runs
// lie within a warp (the first five, in a block of whole warps with no
// clamped runs): each warp then reads and writes only its part of the
// buffer, and warp.syncwarp orders its lanes' accesses (also before the
// first round that crosses warps: its stores overwrite only what the
// warp's own lanes read). The first round's stores wait on a barrier (an
// earlier sort may still read the buffer).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

constexpr llvm::StringLiteral kBufferName = "__warp_merge_sort_buffer";
constexpr llvm::StringLiteral kBlockBufferName =
    "__warp_block_merge_sort_buffer";
constexpr unsigned kSortBufferAlignment = 16;

Type elementOf(Value vector) {
  return cast<VectorType>(vector.getType()).getElementType();
}

/// Bytes of one warp's slice: the keys' part, then the values'.
uint64_t sliceBytes(MergeSortOp op) {
  unsigned items = kWarpSize * op.getItemsPerLane();
  uint64_t bytes = getMergeSortPartBytes(op.getKeyType(), items);
  if (Value values = op.getValues())
    bytes += getMergeSortPartBytes(elementOf(values), items);
  return bytes;
}

bool needsBuffer(MergeSortOp op) { return op.getWidth() > 1; }

/// What the expansion needs of a warp or a block merge sort.
struct SortSpec {
  Operation *op;
  Value keys, values, validItems, oobDefault;
  Region *compare;
  unsigned items;
  /// The threads that sort together: a logical warp's lanes, or the
  /// block's threads.
  unsigned groupThreads;
  /// Whether the group is the block: the thread's number in the block for
  /// the lane, barriers for warp.syncwarp, one buffer for the block rather
  /// than a slice per warp.
  bool block;
  /// The items one slice of the buffer holds (a warp's, or the block's).
  int64_t sliceItems() const {
    return int64_t(block ? groupThreads : kWarpSize) * items;
  }
};

/// The spec of a warp.merge_sort (`block` false, a group of its width) or
/// a warp.block_merge_sort (`block`, a group of the block's threads).
template <typename SortOp>
SortSpec getSortSpec(SortOp op, unsigned groupThreads, bool block) {
  return {op,
          op.getKeys(),
          op.getValues(),
          op.getValidItems(),
          op.getOobDefault(),
          &op.getCompare(),
          unsigned(cast<VectorType>(op.getKeys().getType()).getNumElements()),
          groupThreads,
          block};
}

/// Builds one merge sort's expansion at the op.
class MergeSortBuilder {
public:
  MergeSortBuilder(OpBuilder &b, const SortSpec &spec)
      : b(b), loc(spec.op->getLoc()), spec(spec), items(spec.items),
        width(spec.groupThreads) {}

  /// The sorted keys and, with values, the sorted values.
  SmallVector<Value> build(memref::GlobalOp buffer) {
    // The lane (the block's thread) and its number in its group.
    Value groupLane;
    if (spec.block) {
      lane = buildBlockThreadAndCount(b, loc, spec.op).first;
      groupLane = lane;
    } else {
      lane = LaneIdOp::create(b, loc, b.getI32Type());
      groupLane = width == kWarpSize ? lane : andI(lane, i32(width - 1));
    }
    bool hasValues = bool(spec.values);
    for (unsigned j = 0; j < items; ++j) {
      keys.push_back(vector::ExtractOp::create(b, loc, spec.keys, int64_t(j)));
      if (hasValues)
        values.push_back(
            vector::ExtractOp::create(b, loc, spec.values, int64_t(j)));
    }
    SmallVector<Value> inputValues = values;
    // With valid_items: which of this lane's positions in its group take
    // part.
    SmallVector<Value> valid;
    if (Value n = spec.validItems) {
      Value first = mul(groupLane, i32(items));
      for (unsigned j = 0; j < items; ++j)
        valid.push_back(cmp(arith::CmpIPredicate::slt,
                            j == 0 ? first : add(first, i32(j)), n));
      // The group's valid positions end at limit (slice positions).
      Value count = maxS(minS(n, i32(width * items)), i32(0));
      limit =
          spec.block ? count : add(sub(mul(lane, i32(items)), first), count);
    } else if (!llvm::isPowerOf2_32(width)) {
      // A block whose last runs are short: its items end the runs.
      limit = i32(int64_t(width) * items);
    }
    sortInLane(valid);
    if (width > 1) {
      buildSlice(buffer);
      for (unsigned runLanes = 1; runLanes < width; runLanes *= 2)
        mergeRound(runLanes);
    }
    if (Value oob = spec.oobDefault) {
      for (unsigned j = 0; j < items; ++j) {
        keys[j] = select(valid[j], keys[j], oob);
        if (hasValues)
          values[j] = select(valid[j], values[j], inputValues[j]);
      }
    }
    // The results: the sorted keys, then the values.
    SmallVector<Value> results;
    ArrayRef<Value> parts[] = {keys, values};
    for (auto [type, elements] : llvm::zip(spec.op->getResultTypes(), parts))
      results.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(type), elements));
    return results;
  }

private:
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  Value cmp(arith::CmpIPredicate predicate, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, predicate, l, r);
  }
  /// The i32 arithmetic of positions.
  Value i32(int64_t v) { return buildI32Constant(b, loc, v); }
  template <typename OpT> Value binary(Value l, Value r) {
    return OpT::create(b, loc, l, r).getResult();
  }
  Value add(Value l, Value r) { return binary<arith::AddIOp>(l, r); }
  Value sub(Value l, Value r) { return binary<arith::SubIOp>(l, r); }
  Value mul(Value l, Value r) { return binary<arith::MulIOp>(l, r); }
  Value andI(Value l, Value r) { return binary<arith::AndIOp>(l, r); }
  Value orI(Value l, Value r) { return binary<arith::OrIOp>(l, r); }
  Value minS(Value l, Value r) { return binary<arith::MinSIOp>(l, r); }
  Value maxS(Value l, Value r) { return binary<arith::MaxSIOp>(l, r); }

  /// A copy of the compare region: whether `l` is ordered before `r`.
  Value before(Value l, Value r) {
    Block &block = spec.compare->front();
    IRMapping mapping;
    mapping.map(block.getArgument(0), l);
    mapping.map(block.getArgument(1), r);
    for (Operation &inner : block.without_terminator())
      b.clone(inner, mapping);
    return mapping.lookupOrDefault(
        cast<YieldOp>(block.getTerminator()).getValues().front());
  }

  /// Odd-even transposition sort of the lane's items; with valid_items an
  /// invalid item (`valid` false) never swaps.
  void sortInLane(ArrayRef<Value> valid) {
    for (unsigned round = 0; round < items; ++round)
      for (unsigned j = round & 1; j + 1 < items; j += 2) {
        Value swap = before(keys[j + 1], keys[j]);
        if (!valid.empty())
          swap = andI(swap, valid[j + 1]);
        auto exchange = [&](MutableArrayRef<Value> pair) {
          Value low = select(swap, pair[j + 1], pair[j]);
          pair[j + 1] = select(swap, pair[j], pair[j + 1]);
          pair[j] = low;
        };
        exchange(keys);
        if (!values.empty())
          exchange(values);
      }
  }

  /// This warp's (the block's) parts of the buffer: views of the slice's
  /// keys (and values) with their spare elements.
  void buildSlice(memref::GlobalOp buffer) {
    MemRefType bufferType = buffer.getType();
    Value whole = WorkgroupBuffers::read(b, loc, buffer);
    int64_t sliceItems = spec.sliceItems();
    Type keyType = elementOf(spec.keys);
    Value offset;
    if (spec.block) {
      offset = arith::ConstantIndexOp::create(b, loc, 0);
    } else {
      Value warp = arith::IndexCastUIOp::create(
          b, loc, b.getIndexType(),
          WarpIdOp::create(b, loc, b.getI32Type(), /*linear=*/true));
      // Warp w's slice starts w slices (getWarpSliceBytes) in: the same
      // for every warp merge sort its kernel may run.
      uint64_t stride = getWarpSliceBytes(spec.op).value_or(
          sliceBytes(cast<MergeSortOp>(spec.op)));
      offset = arith::MulIOp::create(
          b, loc, warp, arith::ConstantIndexOp::create(b, loc, stride));
    }
    auto view = [&](Type element, Value byteOffset) -> Value {
      auto type = MemRefType::get(
          {getMergeSortPartElements(element, sliceItems)}, element,
          MemRefLayoutAttrInterface(), bufferType.getMemorySpace());
      return memref::ViewOp::create(b, loc, type, whole, byteOffset,
                                    ValueRange());
    };
    keyPart = view(keyType, offset);
    if (Value values = spec.values)
      valuePart =
          view(elementOf(values),
               arith::AddIOp::create(
                   b, loc, offset,
                   arith::ConstantIndexOp::create(
                       b, loc, getMergeSortPartBytes(keyType, sliceItems))));
  }

  /// The group's threads wait for each other: the warp's lanes, or the
  /// block's threads (only the warp's where `warpOnly`: a round whose
  /// accesses stay in the warp's part of the buffer).
  void synchronize(bool warpOnly = false) {
    if (spec.block && !warpOnly)
      gpu::BarrierOp::create(b, loc);
    else
      SyncWarpOp::create(b, loc, /*mask=*/Value());
  }

  /// Whether a block's merge round of runs of `runLanes` lanes reads and
  /// writes only its warp's part of the buffer: pairs of runs within a
  /// warp, in a block of whole warps whose runs are not clamped (no
  /// valid_items; a power of two of threads), where the search reads
  /// within the pair and the merge's loads are kept before the pair's end.
  bool isWarpRound(unsigned runLanes) const {
    return spec.block && !limit && width % kWarpSize == 0 &&
           2 * runLanes <= kWarpSize;
  }

  /// Item `position` (an i32 in -1 .. 32 N) of a part, as an index.
  Value partIndex(Value part, Value position) {
    Type element = cast<MemRefType>(part.getType()).getElementType();
    return arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        add(position, i32(getMergeSortFrontElements(element))));
  }
  Value load(Value part, Value position) {
    return memref::LoadOp::create(b, loc, part, partIndex(part, position));
  }
  void store(Value item, Value part, Value position) {
    memref::StoreOp::create(b, loc, item, part, partIndex(part, position));
  }

  /// One merge round: runs of `runLanes` lanes' items merge pairwise.
  void mergeRound(unsigned runLanes) {
    unsigned pairLanes = 2 * runLanes;
    int64_t size = int64_t(runLanes) * items;
    // The lane's items go to their blocked positions, once every read of
    // them in the round before (or by an earlier user of the buffer) is
    // done: in a block, only the warp's own reads where that round kept to
    // the warp's part (isWarpRound).
    bool warpRound = isWarpRound(runLanes);
    synchronize(runLanes > 1 && isWarpRound(runLanes / 2));
    Value mine = mul(lane, i32(items));
    for (unsigned j = 0; j < items; ++j) {
      Value position = j == 0 ? mine : add(mine, i32(j));
      store(keys[j], keyPart, position);
      if (valuePart)
        store(values[j], valuePart, position);
    }
    synchronize(warpRound);
    // The pair's runs A = [aBegin, aEnd) and B = [aEnd, bEnd), the lane's
    // diagonal in the merged run, and the search's range [lo, hi].
    Value diagonal = mul(andI(lane, i32(pairLanes - 1)), i32(items));
    Value aBegin = sub(mine, diagonal);
    Value aEnd, bEnd, lo, hi;
    if (limit) {
      aBegin = minS(aBegin, limit);
      aEnd = minS(add(aBegin, i32(size)), limit);
      bEnd = minS(add(aBegin, i32(2 * size)), limit);
      Value aCount = sub(aEnd, aBegin), bCount = sub(bEnd, aEnd);
      diagonal = minS(diagonal, add(aCount, bCount));
      lo = maxS(sub(diagonal, bCount), i32(0));
      hi = minS(diagonal, aCount);
    } else {
      aEnd = add(aBegin, i32(size));
      bEnd = add(aBegin, i32(2 * size));
      lo = maxS(sub(diagonal, i32(size)), i32(0));
      hi = minS(diagonal, i32(size));
    }
    // B's item before the diagonal's A item: aEnd + diagonal - 1 - mid.
    Value bAcross = sub(add(aEnd, diagonal), i32(1));
    unsigned steps = llvm::Log2_64_Ceil(uint64_t(size) + 1);
    for (unsigned step = 0; step < steps; ++step) {
      Value mid = arith::ShRUIOp::create(b, loc, add(lo, hi), i32(1));
      Value a = load(keyPart, add(aBegin, mid));
      Value bKey = load(keyPart, sub(bAcross, mid));
      Value bFirst = before(bKey, a);
      hi = select(bFirst, mid, hi);
      lo = select(bFirst, lo, add(mid, i32(1)));
    }
    Value split = minS(lo, hi);
    // The serial merge of the lane's N items. A load one past B (once B
    // is done; its item is never taken) would read the next warp's part
    // in a warp's round: there it reads B's last item instead.
    Value bLast = warpRound ? sub(bEnd, i32(1)) : Value();
    auto inPair = [&](Value position) {
      return bLast ? minS(position, bLast) : position;
    };
    Value aNext = add(aBegin, split);
    Value bNext = sub(add(aEnd, diagonal), split);
    Value bAt = inPair(bNext);
    Value aKey = load(keyPart, aNext), bKey = load(keyPart, bAt);
    Value aValue, bValue;
    if (valuePart) {
      aValue = load(valuePart, aNext);
      bValue = load(valuePart, bAt);
    }
    for (unsigned j = 0; j < items; ++j) {
      Value bLeft = cmp(arith::CmpIPredicate::slt, bNext, bEnd);
      Value aDone = cmp(arith::CmpIPredicate::sge, aNext, aEnd);
      Value takeB = andI(bLeft, orI(aDone, before(bKey, aKey)));
      keys[j] = select(takeB, bKey, aKey);
      if (valuePart)
        values[j] = select(takeB, bValue, aValue);
      if (j + 1 == items)
        break;
      Value aAfter = add(aNext, i32(1)), bAfter = add(bNext, i32(1));
      Value next = select(takeB, bAfter, aAfter);
      aNext = select(takeB, aNext, aAfter);
      bNext = select(takeB, bAfter, bNext);
      if (limit)
        next = minS(next, limit);
      next = inPair(next);
      Value key = load(keyPart, next);
      bKey = select(takeB, key, bKey);
      aKey = select(takeB, aKey, key);
      if (valuePart) {
        Value value = load(valuePart, next);
        bValue = select(takeB, value, bValue);
        aValue = select(takeB, aValue, value);
      }
    }
  }

  OpBuilder &b;
  Location loc;
  const SortSpec &spec;
  /// N, and the group's threads.
  unsigned items, width;
  /// The lane, or the block's thread.
  Value lane;
  /// With valid_items: the end of the group's valid positions in the
  /// slice; in a block of B threads, B not a power of two, B N.
  Value limit;
  SmallVector<Value> keys, values;
  Value keyPart, valuePart;
};

struct ExpandMergeSort final : public OpRewritePattern<MergeSortOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MergeSortOp op,
                                PatternRewriter &rewriter) const override {
    memref::GlobalOp buffer;
    if (needsBuffer(op)) {
      gpu::GPUModuleOp owner = getExchangeBufferOwner(op);
      buffer = owner ? owner.lookupSymbol<memref::GlobalOp>(kBufferName)
                     : memref::GlobalOp();
      if (!buffer)
        return rewriter.notifyMatchFailure(op, "no workgroup buffer "
                                               "(prepareMergeSorts)");
    }
    SortSpec spec = getSortSpec(op, op.getWidth(), /*block=*/false);
    MergeSortBuilder builder(rewriter, spec);
    rewriter.replaceOp(op, builder.build(buffer));
    return success();
  }
};

} // namespace

LogicalResult mlir::warp::prepareMergeSorts(Operation *root,
                                            const Chip &chip) {
  llvm::MapVector<gpu::GPUModuleOp, SmallVector<Operation *>> users;
  WalkResult walk = root->walk([&](MergeSortOp op) {
    if (!needsBuffer(op))
      return WalkResult::advance();
    gpu::GPUModuleOp owner = getExchangeBufferOwner(op);
    if (!owner) {
      op.emitOpError("needs the op in a gpu.func of a gpu.module, where its "
                     "workgroup buffer is allocated");
      return WalkResult::interrupt();
    }
    if (!root->isAncestor(owner)) {
      op.emitOpError("adds a workgroup buffer to the gpu.module: run the "
                     "expansion on the gpu.module or above, not inside it");
      return WalkResult::interrupt();
    }
    users[owner].push_back(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // One buffer per gpu.module, slices of one size for the warp merge sorts
  // a kernel may run.
  for (auto &[owner, ops] : users)
    if (mlir::failed(allocateWarpSliceBuffer(
            owner, kBufferName, kSortBufferAlignment, ops,
            [](Operation *op) { return sliceBytes(cast<MergeSortOp>(op)); },
            chip.staticSharedMemoryBytes(), "warp merge sort")))
      return failure();
  return success();
}

bool mlir::warp::expandBlockMergeSorts(gpu::GPUModuleOp module) {
  SmallVector<std::pair<BlockMergeSortOp, unsigned>> sorts;
  module.walk([&](BlockMergeSortOp op) {
    // The verifier has required the block size.
    if (std::optional<int64_t> threads = getKnownBlockThreads(op))
      sorts.push_back({op, unsigned(*threads)});
  });
  if (sorts.empty())
    return false;
  // One buffer per buffer scope (groupByBufferScope), sized for its
  // largest sort.
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> threadsOf;
  for (auto [op, threads] : sorts) {
    ops.push_back(op);
    threadsOf[op] = threads;
  }
  DenseMap<Operation *, memref::GlobalOp> bufferOf;
  Type byteType = IntegerType::get(module.getContext(), 8);
  for (ArrayRef<Operation *> group : groupByBufferScope(module, ops)) {
    WorkgroupBuffers buffers(module);
    for (Operation *op : group)
      if (unsigned threads = threadsOf.lookup(op); threads > 1)
        buffers.reserve(kBlockBufferName, byteType, /*slot=*/0,
                        int64_t(cast<BlockMergeSortOp>(op).getSharedBytes(
                            threads)),
                        kSortBufferAlignment);
    buffers.allocate();
    for (Operation *op : group)
      bufferOf[op] = buffers.lookup(kBlockBufferName, byteType, 0);
  }
  for (auto [op, threads] : sorts) {
    OpBuilder b(op);
    SortSpec spec = getSortSpec(op, threads, /*block=*/true);
    MergeSortBuilder builder(b, spec);
    op->replaceAllUsesWith(
        builder.build(bufferOf.lookup(op)));
    op.erase();
  }
  return true;
}

void mlir::warp::populateExpandMergeSortPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandMergeSort>(patterns.getContext());
}
