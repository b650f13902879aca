//===- BlockPositions.h - where a thread's items lie in its block -*- C++ -*-===//
//
// The block's B threads (numbered x + X * (y + Y * z)) hold B * N items, N
// per thread; an arrangement says which: blocked (thread t: t N .. t N +
// N - 1), striped (t, t + B, ...) or warp-striped (lane l of warp w, its
// warp of L threads: 32 w N + l + L j). The block exchanges, scatters, loads
// and stores all index by these positions.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TRANSFORMS_BLOCKPOSITIONS_H
#define WARPDIALECT_TRANSFORMS_BLOCKPOSITIONS_H

#include "mlir/IR/Builders.h"

namespace mlir::warp {

/// The arrangements of a block's B * N items.
enum class Arrangement { Blocked, Striped, WarpStriped };

/// The positions of the executing thread's items, as index values built at
/// one op (the block size a constant where the op's gpu.func knows it).
class BlockPositions {
public:
  /// `bufferElement`: the element of the padded buffer `paddedSlot` indexes,
  /// if any.
  BlockPositions(OpBuilder &b, Location loc, Operation *op,
                 int64_t itemsPerThread, Type bufferElement = Type());

  Value cst(int64_t v);
  Value add(Value l, Value r);
  Value mul(Value l, Value r);

  /// The executing thread's number and the block's threads.
  Value thread() const { return threadValue; }
  Value threads() const { return threadsValue; }
  /// B * N, the block's positions.
  Value count();

  /// The position of the thread's item `j` in `arrangement`.
  Value position(int64_t j, Arrangement arrangement);

  /// The slot of `position` in the buffer of `bufferElement`s, padded
  /// against bank conflicts (item g at g + g / P,
  /// getBlockBufferPaddingPeriod).
  Value paddedSlot(Value position);

private:
  OpBuilder &b;
  Location loc;
  int64_t n;
  Value threadValue, threadsValue, blockedBase, padShift;
  /// Built on first use: the lane, the first position of its warp and the
  /// warp's threads (32 where the block is known to be whole warps).
  Value lane, warpBase, warpThreads;
  bool wholeWarps;
};

} // namespace mlir::warp

#endif // WARPDIALECT_TRANSFORMS_BLOCKPOSITIONS_H
