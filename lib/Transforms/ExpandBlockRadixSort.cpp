//===- ExpandBlockRadixSort.cpp - block radix sort to counting passes -----===//
//
// warp.block_radix_sort becomes a least-significant-digit radix sort, one
// counting pass per `radix_bits` bits of the keys' unsigned images. A pass
// of R bits counts its 2^R digits in 16-bit counters, two to an i32 word:
// digit d is half d >> log2(L) of counter lane d & (L - 1), for L =
// 2^R / 2 lanes (at least one). The pass ranks the items, stably (thread
// order, then item order, within a digit), one of three ways:
//
//   grid ranking (CUB's BlockRadixRank, raking a counter grid): the
//   counters are a workgroup grid of L + 1 lanes x T threads, word (lane,
//   t) at lane * T + t, lane L padding (no digit's, zero when raked).
//   Every thread zeroes its column, then counts its items there in order
//   through the grid's 16-bit halves, each item keeping its half's slot
//   and old value (its thread's earlier items of its digit). A barrier. Thread t rakes words [t (L + 1),
//   (t + 1) (L + 1)) of the flat grid (an odd stride: no bank conflicts),
//   keeps them in registers and sums them; an exclusive warp.block_scan
//   <add> of the i32 sums with the block total; thread t stores its words'
//   exclusive prefixes back, the high halves raised by the total's low half
//   (digits L .. 2L - 1 come after all of 0 .. L - 1). A barrier. An
//   item's rank is its half's prefix (the smaller digits in the block,
//   plus its digit in the threads before) plus its kept count.
//
//   match ranking (CUB's BlockRadixRankMatch), where that grid does not
//   fit but one of a column per warp does, in a block of whole warps with
//   a power-of-two N up to 32: each warp counts its items in its column,
//   the digits warp-striped so that item i of every lane in lane order,
//   for i = 0, 1, ..., is the blocked order, each group of equal digits
//   (a warp.match_any of the digit's bits: a ballot per bit, as CUB's
//   MatchAny) counted at once by its lowest lane; then the raking above
//   over W = T / 32 columns (and
//   for an even W a padding column, so that a lane's words stride by an
//   odd count and the warp's distinct digits' counters fall in distinct
//   banks, as CUB's PADDED_WARPS), thread t raking S words from t S on for
//   C columns (S = ceil((L + 1) C / T), or one more to be odd: CUB's
//   PADDED_RAKING_SEGMENT; the words past the grid zeroed, so that no word
//   is tested against the grid's end), and the ranks back to the blocked
//   arrangement (rankByMatch has the steps).
//
//   register ranking, where neither grid fits the shared memory (the
//   choice is getRadixSortLayout's): each thread's counters in registers
//   (a select per word per item), an exclusive warp.block_scan <add> of
//   the counter words with the block totals; an item's rank is its
//   digit's start in the block, plus the threads before, plus its thread's
//   earlier items of that digit.
//
// Then a barrier, every thread stores its images (and values) at their
// ranks in a workgroup buffer, a barrier, every thread loads its next
// items. Each pass keeps the order of the one before, and the last pass
// leaves the block sorted. The first barrier of the scatter keeps its
// stores apart from the loads of the previous pass (or of the previous sort
// of the kernel) and from the grid's reads of the ranks; the second makes
// the stores visible.
//
// Memory (getRadixSortLayout's choice too): the key buffer, the value
// buffer and the grid separate where they fit the static shared memory;
// else, for the grid ranking, CUB's TempStorage union: one i8 buffer of
// the largest of the three, typed by memref.views at its start, used by
// turns. Each pass then: a barrier (the previous pass's or sort's loads
// are done) before the grid is zeroed, the grid's two barriers, the ranks
// read, a barrier, the keys scattered, a barrier, the keys loaded; with
// values a barrier, the values scattered (at the keys' ranks), a barrier,
// the values loaded.
//
// A tuple of key members (CUB's decomposer) sorts by each member's image
// in turn, least significant first: the last member's passes, then the
// one before, each pass moving every member (one buffer each, or the
// union's turns) and the values.
//
// warp.block_radix_rank is one counting pass without the exchange: the
// same ranking (RadixRanker, which the sort calls per pass), its layout
// from getRadixRankLayout (a grid where one fits, else the registers;
// the match ranking first for warp-striped keys, which it counts as they
// are, where the other two count them through block exchanges).
// With a digit region, the ranking counts the region's i32 (its low R
// bits) instead of an image's bits, the region copied per key where the
// ranking needs that key's digit.
// warp-expand-block-collectives calls this first and then expands the
// block scans made here with the other block ops.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

constexpr llvm::StringLiteral kKeyBufferName = "__warp_block_radix_keys";
constexpr llvm::StringLiteral kValueBufferName = "__warp_block_radix_values";
constexpr llvm::StringLiteral kCounterBufferName =
    "__warp_block_radix_counters";
constexpr llvm::StringLiteral kUnionBufferName = "__warp_block_radix_union";

/// The unsigned image of a key type: an integer of its width.
IntegerType getImageType(Type keyType) {
  return IntegerType::get(keyType.getContext(),
                          keyType.getIntOrFloatBitWidth());
}

/// The i32 arithmetic the ranking and the sort build with.
class RadixArithmetic {
protected:
  RadixArithmetic(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value i32(int64_t v) { return buildI32Constant(b, loc, v); }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value andI(Value l, Value r) { return arith::AndIOp::create(b, loc, l, r); }
  Value shl(Value l, Value r) { return arith::ShLIOp::create(b, loc, l, r); }
  Value shrU(Value l, Value r) { return arith::ShRUIOp::create(b, loc, l, r); }
  Value eq(Value l, Value r) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, l, r);
  }
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }

  OpBuilder &b;
  Location loc;
};

/// Ranks the block's keys by one digit of their images (CUB's
/// BlockRadixRank): the counting pass a warp.block_radix_sort makes per
/// digit and a warp.block_radix_rank makes once, one way or the other as
/// the layout says (the file header has both).
class RadixRanker : RadixArithmetic {
public:
  RadixRanker(OpBuilder &b, Location loc, const RadixSortLayout &layout,
              Value counterBuffer, Value counterHalves, Value thread,
              Value threads, bool barrierFirst)
      : RadixArithmetic(b, loc), layout(layout), counterBuffer(counterBuffer),
        counterHalves(counterHalves), thread(thread), threads(threads),
        column(thread), columns(threads), barrierFirst(barrierFirst) {
    if (layout.algorithm != RadixRankAlgorithm::MatchCounters)
      return;
    // A column per warp: warp t / 32 of the layout's columns (the warps,
    // and for an even count a padding column).
    column = shrU(thread, i32(llvm::Log2_64(kWarpSize)));
    columns = i32(layout.matchColumns);
  }

  /// The ranks in the block of this thread's `images` by bits [shift,
  /// shift + count) (the digit), stable: thread order, then item order,
  /// within a digit.
  SmallVector<Value> rank(ArrayRef<Value> images, unsigned shift,
                          unsigned count) {
    return rankDigits(
        images.size(),
        [&](size_t j) { return digitOf(images[j], shift, count); }, count);
  }

  /// The ranks in the block of this thread's `items` items by their
  /// digits (i32s below 2^count, `digitAt(j)` builds item j's where the
  /// ranking needs it), stable as rank()'s.
  SmallVector<Value> rankDigits(size_t items,
                                function_ref<Value(size_t)> digitAt,
                                unsigned count) {
    if (warpStripedItems &&
        layout.algorithm != RadixRankAlgorithm::MatchCounters &&
        layout.algorithm != RadixRankAlgorithm::MatchEarlyCounts)
      return rankWarpStripedAsBlocked(items, digitAt, count);
    return rankByLayout(items, digitAt, count);
  }

  /// After rank(): the block's items of digits below `digit` (an i32 below
  /// 2^count), uniform. With a grid, a read of its column 0: the next
  /// ranking must not clear it before every thread has read.
  Value digitStart(Value digit) {
    if (layout.algorithm == RadixRankAlgorithm::MatchEarlyCounts)
      return loadCounter(
          add(digit, i32(layout.matchWarps * (int64_t(1) << digitBits))));
    if (usesCounterGrid(layout.algorithm)) {
      int64_t lanes = std::max<int64_t>(1, (int64_t(1) << digitBits) / 2);
      Value lane = lanes == 1 ? i32(0) : andI(digit, i32(lanes - 1));
      Value half = shrU(digit, i32(llvm::Log2_64(lanes)));
      return loadHalf(add(shl(mul(lane, columns), i32(1)), half));
    }
    Value start = digitStarts.front();
    for (auto [d, candidate] : llvm::enumerate(digitStarts))
      if (d > 0)
        start = select(eq(digit, i32(d)), candidate, start);
    return start;
  }

  /// Whether the items are warp-striped (lane l of warp w, of L threads,
  /// holds positions 32 w N + l + L j), not blocked: the ranks are stable
  /// in the order of those positions.
  bool warpStripedItems = false;

  /// The early-counts ranking's callback (CUB's counts_callback): called
  /// with this thread's bins' counts (i32s in rank order, 0 past the
  /// digits) after the counting, before the ranking.
  function_ref<void(ArrayRef<Value>)> onCounts;

private:
  /// The layout's ranking of the items, counted as they are: blocked, or
  /// with the match ranking warp-striped where warpStripedItems says so.
  SmallVector<Value> rankByLayout(size_t items,
                                  function_ref<Value(size_t)> digitAt,
                                  unsigned count) {
    digitBits = count;
    // The grid's words are columns of threads in one ranking and of warps
    // in another of the same module, or a match ranking zeroes words past
    // its grid that another's grid has: the previous ranking's reads of
    // its columns must be done before this one zeroes.
    if (barrierFirst && usesCounterGrid(layout.algorithm))
      gpu::BarrierOp::create(b, loc);
    switch (layout.algorithm) {
    case RadixRankAlgorithm::SharedCounters:
      return rankInGrid(items, digitAt, count);
    case RadixRankAlgorithm::MatchCounters:
      return rankByMatch(items, digitAt, count);
    case RadixRankAlgorithm::MatchEarlyCounts:
      return rankByEarlyCounts(items, digitAt, count);
    case RadixRankAlgorithm::RegisterCounters:
      break;
    }
    return rankInRegisters(items, digitAt, count);
  }

  /// The ranking of warp-striped items where it counts blocked digits
  /// (the grid and the registers): the digits through a
  /// warp.block_exchange <warp_striped_to_blocked>, the ranks back.
  SmallVector<Value>
  rankWarpStripedAsBlocked(size_t items, function_ref<Value(size_t)> digitAt,
                           unsigned count) {
    auto vectorType = VectorType::get({int64_t(items)}, b.getI32Type());
    auto exchange = [&](ArrayRef<Value> values, ExchangeDirection direction) {
      Value exchanged = BlockExchangeOp::create(
          b, loc, vectorType,
          ExchangeDirectionAttr::get(b.getContext(), direction),
          vector::FromElementsOp::create(b, loc, vectorType, values));
      SmallVector<Value> elements;
      for (size_t j = 0; j < items; ++j)
        elements.push_back(vector::ExtractOp::create(b, loc, exchanged, j));
      return elements;
    };
    SmallVector<Value> striped;
    for (size_t j = 0; j < items; ++j)
      striped.push_back(digitAt(j));
    SmallVector<Value> blocked =
        exchange(striped, ExchangeDirection::WarpStripedToBlocked);
    SmallVector<Value> ranks = rankByLayout(
        items, [&](size_t j) { return blocked[j]; }, count);
    return exchange(ranks, ExchangeDirection::BlockedToWarpStriped);
  }

  /// Bits [shift, shift + bits) of an image, as an i32.
  Value digitOf(Value bits, unsigned shift, unsigned count) {
    Type imageType = bits.getType();
    unsigned width = imageType.getIntOrFloatBitWidth();
    auto image = [&](uint64_t v) {
      return arith::ConstantOp::create(b, loc,
                                       b.getIntegerAttr(imageType, v));
    };
    Value shifted = arith::ShRUIOp::create(b, loc, bits, image(shift));
    Value masked = arith::AndIOp::create(
        b, loc, shifted, image(llvm::maskTrailingOnes<uint64_t>(count)));
    if (width < 32)
      return arith::ExtUIOp::create(b, loc, b.getI32Type(), masked);
    if (width > 32)
      return arith::TruncIOp::create(b, loc, b.getI32Type(), masked);
    return masked;
  }

  /// Packed counters: digit d is the (d & 1) half of word d >> 1.
  struct DigitPosition {
    Value word;  // d >> 1
    Value shift; // 16 (d & 1)
  };
  DigitPosition positionOf(Value digit) {
    Value word = arith::ShRUIOp::create(b, loc, digit, i32(1));
    Value half = arith::AndIOp::create(b, loc, digit, i32(1));
    return {word, arith::ShLIOp::create(b, loc, half, i32(4))};
  }
  /// The counter of `at` in `words`: a select per word (the words stay in
  /// registers; a dynamic index would put them in local memory).
  Value counterAt(ArrayRef<Value> words, DigitPosition at) {
    Value word = words.front();
    for (auto [w, candidate] : llvm::enumerate(words.drop_front()))
      word = select(eq(at.word, i32(w + 1)), candidate, word);
    Value shifted = arith::ShRUIOp::create(b, loc, word, at.shift);
    return arith::AndIOp::create(b, loc, shifted, i32(0xffff));
  }
  /// Adds one to the counter of `at`.
  void increment(MutableArrayRef<Value> words, DigitPosition at) {
    Value one = arith::ShLIOp::create(b, loc, i32(1), at.shift);
    if (words.size() == 1) {
      words[0] = add(words[0], one);
      return;
    }
    for (auto [w, word] : llvm::enumerate(words))
      word = add(word, select(eq(at.word, i32(w)), one, i32(0)));
  }

  /// An exclusive warp.block_scan <add> of `value` (an i32 or a vector of
  /// them) with the block total.
  BlockScanOp scanCounters(Value value) {
    MLIRContext *ctx = b.getContext();
    Type type = value.getType();
    return BlockScanOp::create(
        b, loc, TypeRange{type, type},
        CombineKindAttr::get(ctx, CombineKind::Add), ValueRange{value},
        /*items=*/false, /*init=*/ValueRange(), /*exclusive=*/true,
        /*reverse=*/false, /*heads=*/Value(),
        BlockScanAlgorithmAttr::get(ctx, BlockScanAlgorithm::WarpScans),
        /*tile=*/nullptr);
  }

  /// The ranks in the block of this thread's items, by their `count`-bit
  /// digits, stable: the counters in registers.
  SmallVector<Value> rankInRegisters(size_t items,
                                     function_ref<Value(size_t)> digitAt,
                                     unsigned count) {
    int64_t numWords = std::max<int64_t>(1, (int64_t(1) << count) / 2);
    SmallVector<DigitPosition> positions;
    SmallVector<Value> counts(numWords, i32(0));
    for (size_t j = 0; j < items; ++j) {
      positions.push_back(positionOf(digitAt(j)));
      increment(counts, positions.back());
    }
    // The counts of the threads before and of the whole block, per word.
    SmallVector<Value> before, totals;
    int64_t chunk = layout.scanWords;
    auto vectorType = VectorType::get({chunk}, b.getI32Type());
    for (int64_t first = 0; first < numWords; first += chunk) {
      SmallVector<Value> elements;
      for (int64_t w = first; w < first + chunk; ++w)
        elements.push_back(w < numWords ? counts[w] : i32(0));
      Value packed = vector::FromElementsOp::create(b, loc, vectorType,
                                                    elements);
      BlockScanOp scan = scanCounters(packed);
      for (int64_t w = first; w < std::min(first + chunk, numWords); ++w) {
        before.push_back(
            vector::ExtractOp::create(b, loc, scan.getScanned()[0], w - first));
        totals.push_back(
            vector::ExtractOp::create(b, loc, scan.getTotal()[0], w - first));
      }
    }
    // Each digit's first rank: the block's items of the smaller digits.
    // Digit d's next rank in this thread, packed as the counters: its
    // start, plus the threads before; then each item takes it in order.
    SmallVector<Value> next;
    digitStarts.clear();
    Value start = i32(0);
    for (int64_t w = 0; w < numWords; ++w) {
      Value low = arith::AndIOp::create(b, loc, totals[w], i32(0xffff));
      Value high = arith::ShRUIOp::create(b, loc, totals[w], i32(16));
      Value startHigh = add(start, low);
      digitStarts.append({start, startHigh});
      Value starts = arith::OrIOp::create(
          b, loc, start, arith::ShLIOp::create(b, loc, startHigh, i32(16)));
      next.push_back(add(starts, before[w]));
      start = add(startHigh, high);
    }
    SmallVector<Value> ranks;
    for (DigitPosition at : positions) {
      ranks.push_back(counterAt(next, at));
      increment(next, at);
    }
    return ranks;
  }

  /// Word `slot` (an i32) of the counter grid.
  Value loadCounter(Value slot) {
    Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
    return memref::LoadOp::create(b, loc, counterBuffer, index);
  }
  void storeCounter(Value word, Value slot) {
    Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
    memref::StoreOp::create(b, loc, word, counterBuffer, index);
  }
  /// Half `slot` (an i32) of the counter grid, as an i32.
  Value loadHalf(Value slot) {
    Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
    Value half = memref::LoadOp::create(b, loc, counterHalves, index);
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), half);
  }
  void storeHalf(Value value, Value slot) {
    Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
    memref::StoreOp::create(
        b, loc, arith::TruncIOp::create(b, loc, b.getI16Type(), value),
        counterHalves, index);
  }

  /// The ranks in the block of this thread's items, by their `count`-bit
  /// digits, stable: the counters in the workgroup grid, raked (the file
  /// header has the steps).
  ///
  /// Barriers: a thread reaches other threads' words of the grid only
  /// while it rakes, between this pass's two barriers; before the first
  /// and after the second it reaches only its own column. The first orders
  /// every column's zeroing and counting before the raking, the second the
  /// raking before the columns' reads of their prefixes. A thread zeroes
  /// its column again, in the next pass or in the next sort of the kernel
  /// (one grid serves them all), only after this pass's second barrier
  /// (and the scatter's two), which no thread passes before it is done
  /// raking; and its reads of its prefixes here come before the next first
  /// barrier, which every thread passes before it rakes again. A last pass
  /// of fewer bits rakes fewer lanes, each word of which its owner zeroed
  /// in that pass. In the union the scatters' barriers keep the reads of
  /// the prefixes apart from the stores of the keys, and the barrier
  /// before the zeroing the loads of the items from it.
  SmallVector<Value> rankInGrid(size_t items,
                                function_ref<Value(size_t)> digitAt,
                                unsigned count) {
    int64_t lanes = std::max<int64_t>(1, (int64_t(1) << count) / 2);
    for (int64_t lane = 0; lane <= lanes; ++lane)
      storeCounter(i32(0), columnSlot(i32(lane)));
    // Each item keeps its counter's value (its thread's earlier items of
    // its digit) and adds one to it, through the counter's i16 half: an
    // item then keeps two values (its half's slot and its count) across
    // the raking, not three, as CUB's ranking does.
    SmallVector<Value> halfSlots, earlier;
    for (size_t j = 0; j < items; ++j) {
      Value halfSlot = halfSlotOf(digitAt(j), lanes);
      Value counter = loadHalf(halfSlot);
      storeHalf(add(counter, i32(1)), halfSlot);
      halfSlots.push_back(halfSlot);
      earlier.push_back(counter);
    }
    rakeGrid(lanes);
    SmallVector<Value> ranks;
    for (auto [halfSlot, counted] : llvm::zip_equal(halfSlots, earlier))
      ranks.push_back(add(loadHalf(halfSlot), counted));
    return ranks;
  }

  /// This thread's (or warp's) word of counter lane `lane` of the grid:
  /// lane * columns + column.
  Value columnSlot(Value lane) { return add(mul(lane, columns), column); }

  /// The half of this column that counts `digit` (an i32 below 2 `lanes`):
  /// half digit / lanes of lane digit % lanes.
  Value halfSlotOf(Value digit, int64_t lanes) {
    Value lane = lanes == 1 ? i32(0) : andI(digit, i32(lanes - 1));
    return add(shl(columnSlot(lane), i32(1)),
               shrU(digit, i32(llvm::Log2_64(lanes))));
  }

  /// The grid's counts, `lanes` lanes and the padding lane of `columns`
  /// words, become their exclusive prefixes in the flat order (lane, then
  /// column; the high halves after every low half): a barrier (the counts
  /// are done), thread t rakes the S words from t S on, one scalar
  /// exclusive warp.block_scan of the segment sums, the prefixes stored
  /// back, a barrier (the grid is read after).
  ///
  /// With a column per thread S = lanes + 1 (every thread one segment of
  /// the same length as a column). With a column per warp the grid has
  /// (lanes + 1) C words (C the layout's matchColumns: the W warps' columns
  /// and for an even W a padding column of zeros) for 32 W threads, and S
  /// is getMatchRakeWords': the words past the grid, up to 32 W S, are
  /// zeros of rankByMatch's (no bounds to test per word).
  void rakeGrid(int64_t lanes) {
    gpu::BarrierOp::create(b, loc);
    bool perWarp = layout.algorithm == RadixRankAlgorithm::MatchCounters;
    int64_t segmentWords = perWarp ? matchRakeWords(lanes) : lanes + 1;
    // This thread's segment of the flat grid, kept in registers.
    Value first = mul(thread, i32(segmentWords));
    SmallVector<Value> segmentSlots, segment;
    Value sum;
    for (int64_t i = 0; i < segmentWords; ++i) {
      Value slot = i == 0 ? first : add(first, i32(i));
      segmentSlots.push_back(slot);
      Value word = loadCounter(slot);
      segment.push_back(word);
      sum = i == 0 ? word : add(sum, word);
    }
    // The words before the segment, both halves at once (no half carries:
    // at most 65535 items); the high halves' digits come after every low
    // half's, the block total's low half.
    BlockScanOp scan = scanCounters(sum);
    Value lowTotal = andI(scan.getTotal()[0], i32(0xffff));
    Value prefix = add(scan.getScanned()[0], shl(lowTotal, i32(16)));
    for (int64_t i = 0; i < segmentWords; ++i) {
      storeCounter(prefix, segmentSlots[i]);
      if (i + 1 < segmentWords)
        prefix = add(prefix, segment[i]);
    }
    gpu::BarrierOp::create(b, loc);
  }

  /// The ranks in the block of this thread's items, by bits [shift,
  /// shift + count) of their images, stable: the counters of each warp in
  /// its column of the grid, counted by groups of equal digits (CUB's
  /// BlockRadixRankMatch), then raked as rankInGrid's. Every warp is whole
  /// (the layout's condition).
  ///
  /// The digits go warp-striped (warp.exchange by shuffles; warp-striped
  /// items are already, and their ranks stay so): lane l's
  /// item i is then the warp's item 32 i + l of the blocked order, and
  /// counting item 0 of every lane, then item 1, ... counts the warp's
  /// items in the blocked order. Per item: the lanes of the same digit
  /// (matchDigit) read the column's counter, a warp.syncwarp (every
  /// read before the write), the lowest of them adds the group's size
  /// (one predicated store, no branch around a load and a shuffle of
  /// its result), a warp.syncwarp (the next item's group may have
  /// another leader of the same counter); the item's count in the warp
  /// is the old counter plus the group's lanes below it. The ranks (the
  /// column's prefix plus the count) go back to the blocked arrangement.
  ///
  /// Barriers: as rankInGrid's, but after the raking a warp reads only its
  /// own column (and the digit prefix column 0); its lanes zero it in the
  /// next ranking after a warp.syncwarp that follows every lane's reads.
  /// The raked words past the grid are read and written by the raking
  /// only, between its barriers; the ranking zeroes them before its first
  /// (where another op's grid may reach them, barrierFirst's barrier
  /// comes before).
  SmallVector<Value> rankByMatch(size_t items,
                                 function_ref<Value(size_t)> digitAt,
                                 unsigned count) {
    int64_t lanes = std::max<int64_t>(1, (int64_t(1) << count) / 2);
    int64_t n = items;
    Type i32Type = b.getI32Type();
    auto vectorType = VectorType::get({n}, i32Type);
    auto exchange = [&](Value items, ExchangeDirection direction) {
      return ExchangeOp::create(
          b, loc, vectorType,
          ExchangeDirectionAttr::get(b.getContext(), direction), items,
          ExchangeStrategyAttr::get(b.getContext(), ExchangeStrategy::Shuffle));
    };
    SmallVector<Value> digits;
    for (size_t j = 0; j < items; ++j)
      digits.push_back(digitAt(j));
    Value striped = vector::FromElementsOp::create(b, loc, vectorType, digits);
    if (!warpStripedItems)
      striped = exchange(striped, ExchangeDirection::BlockedToStriped);
    Value lane = LaneIdOp::create(b, loc, i32Type);
    // The previous ranking's reads of this column are done; then its lanes
    // zero it, lane l its lanes l, l + 32, ... (those past the padding lane
    // zero the padding lane).
    SyncWarpOp::create(b, loc, Value());
    auto zeroColumn = [&](Value target) {
      for (int64_t first = 0; first <= lanes; first += kWarpSize) {
        Value counterLane = first == 0 ? lane : add(lane, i32(first));
        Value clamped = arith::MinUIOp::create(b, loc, counterLane, i32(lanes));
        storeCounter(i32(0), add(mul(clamped, columns), target));
      }
    };
    zeroColumn(column);
    // The padding column, which the raking reads (and overwrites): the
    // last warp zeroes it too.
    if (layout.matchColumns != layout.matchWarps)
      buildIfThen(b, loc, eq(column, i32(layout.matchWarps - 1)),
                  [&] { zeroColumn(i32(layout.matchWarps)); });
    // The raked words past the grid (the raking's barrier orders these
    // stores before its reads): thread t those at t, t + T, ... of them.
    int64_t blockThreads = layout.matchWarps * kWarpSize;
    int64_t gridWords = matchGridWords(lanes);
    int64_t tail = matchRakeWords(lanes) * blockThreads - gridWords;
    zeroStrided(Value(), gridWords, thread, blockThreads, tail);
    SyncWarpOp::create(b, loc, Value());
    Value below = LaneMaskOp::create(b, loc, i32Type, LaneMaskKind::Lt);
    SmallVector<Value> halfSlots, counts;
    for (int64_t i = 0; i < n; ++i) {
      Value digit = vector::ExtractOp::create(b, loc, striped, i);
      Value halfSlot = halfSlotOf(digit, lanes);
      halfSlots.push_back(halfSlot);
      counts.push_back(countGroup(
          digit, count, below, [&] { return loadHalf(halfSlot); },
          [&](Value counter) { storeHalf(counter, halfSlot); }));
    }
    rakeGrid(lanes);
    SmallVector<Value> ranks;
    for (auto [halfSlot, counted] : llvm::zip_equal(halfSlots, counts))
      ranks.push_back(add(loadHalf(halfSlot), counted));
    if (warpStripedItems)
      return ranks;
    Value blocked = exchange(
        vector::FromElementsOp::create(b, loc, vectorType, ranks),
        ExchangeDirection::StripedToBlocked);
    SmallVector<Value> result;
    for (int64_t i = 0; i < n; ++i)
      result.push_back(vector::ExtractOp::create(b, loc, blocked, i));
    return result;
  }

  /// The ranks of this thread's warp-striped items by their `count`-bit
  /// digits with early counts (CUB's BlockRadixRankMatchEarlyCounts):
  /// each warp counts its items in its row of the grid (2^count i32 a
  /// warp, workgroup atomics; a warp.syncwarp first: the warp's reads of
  /// its row in a previous ranking are done); after a barrier thread t
  /// takes digits t M .. t M + M - 1 (M = ceil(2^count / T); none past
  /// the digits), sums each digit's column over the warps, one
  /// scalar exclusive block scan of its sum gives its first digit's
  /// start, and it stores each digit's start in the row after the warps'
  /// (digitStart) and each warp's offset (the start plus the digit's
  /// items in the warps before) in that warp's row; after a barrier each
  /// warp ranks its items in position order (item 0 of every lane, then
  /// item 1, ...): the lanes of one digit (warp.match_any) read the
  /// offset, a warp.syncwarp, the lowest of them adds the group's size,
  /// a warp.syncwarp; an item's rank is the offset plus its group's
  /// lanes below it. Whole warps (the verifier's rule).
  SmallVector<Value> rankByEarlyCounts(size_t items,
                                       function_ref<Value(size_t)> digitAt,
                                       unsigned count) {
    int64_t radix = int64_t(1) << count;
    int64_t warps = layout.matchWarps;
    Type i32Type = b.getI32Type();
    Value lane = LaneIdOp::create(b, loc, i32Type);
    Value row = mul(shrU(thread, i32(llvm::Log2_64(kWarpSize))), i32(radix));
    SyncWarpOp::create(b, loc, Value());
    zeroStrided(row, 0, lane, kWarpSize, radix);
    SyncWarpOp::create(b, loc, Value());
    SmallVector<Value> digits;
    for (size_t j = 0; j < items; ++j) {
      digits.push_back(digitAt(j));
      Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                                 add(row, digits.back()));
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, i32(1),
                                  counterBuffer, ValueRange{index});
    }
    gpu::BarrierOp::create(b, loc);
    int64_t perThread = llvm::divideCeil(radix, warps * int64_t(kWarpSize));
    struct Column {
      Value digit, inRange, total;
      SmallVector<Value> warpPrefixes;
    };
    SmallVector<Column> columns;
    Value sum = i32(0);
    for (int64_t m = 0; m < perThread; ++m) {
      Column c;
      c.digit = add(mul(thread, i32(perThread)), i32(m));
      c.inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        c.digit, i32(radix));
      // The column's running sums over the warps; a thread past the
      // digits loads nothing (a stand-in load of another digit's counter
      // would race with that digit's store below, which has no barrier
      // before it when the block is one warp).
      auto sumColumn = [&] {
        SmallVector<Value> sums;
        Value running = i32(0);
        for (int64_t w = 0; w < warps; ++w) {
          running = add(running, loadCounter(add(c.digit, i32(w * radix))));
          sums.push_back(running);
        }
        return sums;
      };
      SmallVector<Value> sums;
      if (radix % (warps * int64_t(kWarpSize)) == 0) {
        sums = sumColumn(); // Every thread's digits are in range.
      } else {
        auto ifOp = scf::IfOp::create(
            b, loc, c.inRange,
            [&](OpBuilder &, Location) {
              scf::YieldOp::create(b, loc, sumColumn());
            },
            [&](OpBuilder &, Location) {
              scf::YieldOp::create(b, loc, SmallVector<Value>(warps, i32(0)));
            });
        sums.assign(ifOp.getResults().begin(), ifOp.getResults().end());
      }
      c.warpPrefixes.push_back(i32(0));
      c.warpPrefixes.append(sums.begin(), sums.end() - 1);
      c.total = sums.back();
      sum = add(sum, c.total);
      columns.push_back(std::move(c));
    }
    if (onCounts)
      onCounts(llvm::map_to_vector(columns, [](const Column &c) { return c.total; }));
    Value start = scanCounters(sum).getScanned()[0];
    for (Column &c : columns) {
      Value digitStart = start;
      buildIfThen(b, loc, c.inRange, [&] {
        storeCounter(digitStart, add(c.digit, i32(warps * radix)));
        for (auto [w, prefix] : llvm::enumerate(c.warpPrefixes))
          storeCounter(add(digitStart, prefix),
                       add(c.digit, i32(int64_t(w) * radix)));
      });
      start = add(start, c.total);
    }
    gpu::BarrierOp::create(b, loc);
    Value below = LaneMaskOp::create(b, loc, i32Type, LaneMaskKind::Lt);
    SmallVector<Value> ranks;
    for (Value digit : digits) {
      Value slot = add(row, digit);
      ranks.push_back(countGroup(
          digit, count, below, [&] { return loadCounter(slot); },
          [&](Value counter) { storeCounter(counter, slot); }));
    }
    return ranks;
  }

  /// Zeroes the grid's words `base` (an i32, or none: 0) + offset + i for
  /// i below `words`: this thread those at i = `index`, index + stride,
  /// ... (index below stride).
  void zeroStrided(Value base, int64_t offset, Value index, int64_t stride,
                   int64_t words) {
    for (int64_t first = 0; first < words; first += stride) {
      Value slot = offset + first == 0 ? index : add(index, i32(offset + first));
      if (base)
        slot = add(slot, base);
      if (first + stride <= words)
        storeCounter(i32(0), slot);
      else
        buildIfThen(b, loc,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          index, i32(words - first)),
                    [&] { storeCounter(i32(0), slot); });
    }
  }

  /// One item's count in its warp by `count`-bit digit `digit`: the
  /// lanes of its digit (matchDigit) read their counter (`load`), a
  /// warp.syncwarp (every read before the write), the lowest of them
  /// stores it plus the group's size (`store`; one predicated store, no
  /// branch around a load and a shuffle of its result), a warp.syncwarp
  /// (the next item's group may have another leader of the same
  /// counter); returns the old counter plus the group's lanes below this
  /// one (`below`: the lanes-below mask).
  Value countGroup(Value digit, unsigned count, Value below,
                   function_ref<Value()> load, function_ref<void(Value)> store) {
    Value peers = matchDigit(digit, count);
    Value lowerPeers = math::CtPopOp::create(b, loc, andI(peers, below));
    Value old = load();
    SyncWarpOp::create(b, loc, Value());
    buildIfThen(b, loc, eq(lowerPeers, i32(0)), [&] {
      store(add(old, math::CtPopOp::create(b, loc, peers)));
    });
    SyncWarpOp::create(b, loc, Value());
    return add(old, lowerPeers);
  }

  /// The match ranking's grid of `lanes` counter lanes and the padding
  /// lane, a word per column each, and the words each of the block's
  /// threads rakes of it (getMatchRakeWords).
  int64_t matchGridWords(int64_t lanes) const {
    return (lanes + 1) * layout.matchColumns;
  }
  int64_t matchRakeWords(int64_t lanes) const {
    return getMatchRakeWords(matchGridWords(lanes),
                             layout.matchWarps * kWarpSize);
  }

  /// The lanes of the warp whose `count`-bit digit equals this lane's: a
  /// warp.match_any of its low bits, which lowers to a ballot per bit, as
  /// CUB's MatchAny (a few ballots issue faster than one match.any).
  Value matchDigit(Value digit, unsigned count) {
    return MatchAnyOp::create(b, loc, b.getI32Type(), digit, Value(),
                              b.getI32IntegerAttr(count), MatchStrategyAttr());
  }

  const RadixSortLayout &layout;
  /// The grid's i32 words, and its i16 halves (the same memory): half 2 w
  /// + h is word w's bits [16 h, 16 h + 16).
  Value counterBuffer, counterHalves;
  Value thread, threads;
  /// The grid's column of this thread and the grid's columns: the thread
  /// and the threads, or with MatchCounters the warp and the warps.
  Value column, columns;
  /// Whether each ranking starts with a barrier: the module's rankings
  /// lay the grid out in columns of threads and in columns of warps.
  bool barrierFirst;
  /// The bits of the last rank()'s digit.
  unsigned digitBits = 0;
  /// With the register counters, after rank(): each digit's first rank.
  SmallVector<Value> digitStarts;
};

/// Builds one radix sort's expansion at the op.
class RadixSortBuilder : RadixArithmetic {
public:
  /// `keyBuffers`: one per key member.
  RadixSortBuilder(OpBuilder &b, BlockRadixSortOp op,
                   const RadixSortLayout &layout, ArrayRef<Value> keyBuffers,
                   Value valueBuffer, Value counterBuffer,
                   Value counterHalves, bool barrierFirst)
      : RadixArithmetic(b, op.getLoc()), op(op), layout(layout),
        items(op.getItemsPerThread()), keyBuffers(keyBuffers),
        valueBuffer(valueBuffer) {
    std::tie(thread, threads) = buildBlockThreadAndCount(b, loc, op);
    ranker.emplace(b, loc, layout, counterBuffer, counterHalves, thread,
                   threads, barrierFirst);
  }

  /// The sorted keys (each member) and, with values, the sorted values.
  SmallVector<Value> build() {
    SmallVector<Type> keyTypes = op.getKeyTypes();
    size_t members = keyTypes.size();
    SmallVector<SmallVector<Value>> images(members);
    SmallVector<Value> values;
    for (int64_t j = 0; j < items; ++j) {
      for (auto [m, key] : llvm::enumerate(op.getKeys()))
        images[m].push_back(toImage(
            vector::ExtractOp::create(b, loc, key, j), keyTypes[m]));
      if (valueBuffer)
        values.push_back(
            vector::ExtractOp::create(b, loc, op.getValues(), j));
    }
    // Least significant digits first: the last member's passes, then the
    // one before; each pass moves every member and the values (a tuple
    // only ever sorts by all of its members' bits).
    for (size_t m = members; m-- > 0;) {
      unsigned begin = members == 1 ? op.getBeginBitOrDefault() : 0;
      unsigned end = members == 1 ? op.getEndBitOrDefault()
                                  : keyTypes[m].getIntOrFloatBitWidth();
      for (unsigned shift = begin; shift < end; shift += layout.radixBits) {
        unsigned bits = std::min(layout.radixBits, end - shift);
        bool last = m == 0 && shift + bits == end;
        // The union: the previous pass's (or sort's) loads of the buffer
        // are done before this pass zeroes its grid there.
        if (layout.unionBuffer)
          gpu::BarrierOp::create(b, loc);
        SmallVector<Value> ranks = ranker->rank(images[m], shift, bits);
        scatterAndLoad(ranks, images, values, last && op.getStriped());
      }
    }
    SmallVector<Value> results;
    for (auto [m, key] : llvm::enumerate(op.getKeys())) {
      SmallVector<Value> keys;
      for (Value image : images[m])
        keys.push_back(fromImage(image, keyTypes[m]));
      results.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(key.getType()), keys));
    }
    if (valueBuffer)
      results.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(op.getValues().getType()), values));
    return results;
  }

private:
  /// A key's image and back (buildRadixImage, buildRadixKey); `signed`
  /// orders the integer members.
  bool isSigned(Type keyType) {
    return op.getIsSigned() && isa<IntegerType>(keyType);
  }
  Value toImage(Value key, Type keyType) {
    return buildRadixImage(b, loc, key, isSigned(keyType),
                           op.getDescending());
  }
  Value fromImage(Value bits, Type keyType) {
    return buildRadixKey(b, loc, bits, keyType, isSigned(keyType),
                         op.getDescending());
  }

  /// `slot` (i32) of a buffer of `element`s, past its padding, as an index.
  Value bufferIndex(Value slot, Type element) {
    Value padded = add(
        slot, arith::DivUIOp::create(
                  b, loc, slot, i32(getBlockBufferPaddingPeriod(element))));
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), padded);
  }

  /// Items of this thread that go through a workgroup buffer of
  /// `element`s.
  struct Payload {
    MutableArrayRef<Value> items;
    Value buffer;
    Type element;
  };

  /// Stores each item at its rank and loads this thread's items of the
  /// sorted order: blocked, or striped. The keys and values together, or
  /// with the union one after the other (the values after the keys' loads).
  void scatterAndLoad(ArrayRef<Value> ranks,
                      MutableArrayRef<SmallVector<Value>> images,
                      MutableArrayRef<Value> values, bool striped) {
    SmallVector<Payload> payloads;
    for (auto [member, buffer] : llvm::zip_equal(images, keyBuffers))
      payloads.push_back(
          {member, buffer, member.front().getType()});
    if (valueBuffer)
      payloads.push_back(
          {values, valueBuffer,
           cast<VectorType>(op.getValues().getType()).getElementType()});
    if (!layout.unionBuffer) {
      exchange(ranks, payloads, striped);
      return;
    }
    for (const Payload &payload : payloads)
      exchange(ranks, payload, striped);
  }

  /// A barrier (the buffers' earlier readers are done), the payloads'
  /// items stored at their ranks, a barrier, this thread's items loaded.
  void exchange(ArrayRef<Value> ranks, ArrayRef<Payload> payloads,
                bool striped) {
    gpu::BarrierOp::create(b, loc);
    for (auto [j, rank] : llvm::enumerate(ranks))
      for (const Payload &payload : payloads)
        memref::StoreOp::create(b, loc, payload.items[j], payload.buffer,
                                bufferIndex(rank, payload.element));
    gpu::BarrierOp::create(b, loc);
    Value first = striped ? thread : mul(thread, i32(items));
    Value step = striped ? threads : i32(1);
    for (int64_t j = 0; j < items; ++j) {
      Value slot = j == 0 ? first : add(first, mul(step, i32(j)));
      for (const Payload &payload : payloads)
        payload.items[j] = memref::LoadOp::create(
            b, loc, payload.buffer, bufferIndex(slot, payload.element));
    }
  }

  BlockRadixSortOp op;
  const RadixSortLayout &layout;
  int64_t items;
  SmallVector<Value> keyBuffers;
  Value valueBuffer;
  Value thread, threads;
  std::optional<RadixRanker> ranker;
};

} // namespace

/// A typed view of `elements` `element`s at the start of an i8 buffer
/// (the union's, or the counter grid's).
static Value buildUnionView(OpBuilder &b, Location loc, Value whole,
                            Type element, int64_t elements) {
  auto type =
      MemRefType::get({elements}, element, MemRefLayoutAttrInterface(),
                      cast<MemRefType>(whole.getType()).getMemorySpace());
  return memref::ViewOp::create(b, loc, type, whole,
                                arith::ConstantIndexOp::create(b, loc, 0),
                                ValueRange());
}

/// The counter grid's bytes, seen as i32 words and as i16 halves.
static std::pair<Value, Value> viewCounterGrid(OpBuilder &b, Location loc,
                                               Value bytes,
                                               int64_t elements) {
  return {buildUnionView(b, loc, bytes, b.getI32Type(), elements),
          buildUnionView(b, loc, bytes, b.getI16Type(), 2 * elements)};
}

/// A warp.block_radix_rank: its keys' images ranked by its digit, and
/// with the digit prefix each of this thread's bins' start (a barrier
/// after reading it from the grid: the next ranking clears thread 0's
/// column, where the starts are).
static SmallVector<Value> buildRadixRank(OpBuilder &b, BlockRadixRankOp op,
                                         const RadixSortLayout &layout,
                                         Value counterBytes,
                                         bool barrierFirst) {
  Location loc = op.getLoc();
  Value counterBuffer, counterHalves;
  if (counterBytes)
    std::tie(counterBuffer, counterHalves) =
        viewCounterGrid(b, loc, counterBytes, layout.counterElements);
  auto [thread, threads] = buildBlockThreadAndCount(b, loc, op);
  RadixRanker ranker(b, loc, layout, counterBuffer, counterHalves, thread,
                     threads, barrierFirst);
  ranker.warpStripedItems = op.getWarpStriped();
  auto constant = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  // The counts region's copy, once, where the early-counts ranking has
  // the counts.
  auto counts = [&](ArrayRef<Value> bins) {
    Region &region = op.getCounts();
    auto type = cast<VectorType>(region.getArgument(0).getType());
    inlineRegion(b, region, vector::FromElementsOp::create(b, loc, type, bins).getResult());
  };
  if (!op.getCounts().empty())
    ranker.onCounts = counts;
  unsigned radixBits = op.getDigitBits();
  SmallVector<Value> ranks;
  if (op.hasDigitRegion()) {
    // The region's copy per key; its low R bits, complemented within them
    // where `descending` (the largest digit first, as the images').
    int64_t mask = (int64_t(1) << radixBits) - 1;
    auto digitAt = [&](size_t j) -> Value {
      Value key = vector::ExtractOp::create(b, loc, op.getKeys(), j);
      Value yielded = inlineRegion(b, op.getDigit(), key).front();
      Value digit = arith::AndIOp::create(b, loc, yielded, constant(mask));
      if (op.getDescending())
        digit = arith::XOrIOp::create(b, loc, digit, constant(mask));
      return digit;
    };
    ranks = ranker.rankDigits(op.getItemsPerThread(), digitAt, radixBits);
  } else {
    SmallVector<Value> images;
    for (int64_t j = 0; j < op.getItemsPerThread(); ++j)
      images.push_back(buildRadixImage(
          b, loc, vector::ExtractOp::create(b, loc, op.getKeys(), j),
          op.getIsSigned(), op.getDescending()));
    ranks = ranker.rank(images, *op.getBeginBit(), radixBits);
  }
  SmallVector<Value> results{vector::FromElementsOp::create(
      b, loc, cast<VectorType>(op.getRanks().getType()), ranks)};
  Value prefix = op.getExclusiveDigitPrefix();
  if (!prefix)
    return results;
  // Thread t's bins t M .. t M + M - 1; a bin's digit in the images is
  // complemented with `descending` (the images are); bins past the digits
  // get 0.
  auto prefixType = cast<VectorType>(prefix.getType());
  int64_t perThread = prefixType.getNumElements();
  int64_t digits = int64_t(1) << radixBits;
  Value first = arith::MulIOp::create(b, loc, thread, constant(perThread));
  SmallVector<Value> bins;
  for (int64_t j = 0; j < perThread; ++j) {
    Value bin =
        j == 0 ? first : arith::AddIOp::create(b, loc, first, constant(j));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          bin, constant(digits));
    Value digit = op.getDescending()
                      ? arith::SubIOp::create(b, loc, constant(digits - 1), bin)
                      : bin;
    digit = arith::SelectOp::create(b, loc, inRange, digit, constant(0));
    bins.push_back(arith::SelectOp::create(
        b, loc, inRange, ranker.digitStart(digit), constant(0)));
  }
  if (counterBytes)
    gpu::BarrierOp::create(b, loc);
  results.push_back(vector::FromElementsOp::create(b, loc, prefixType, bins));
  return results;
}

/// Expands the sorts and rankings of one buffer scope (groupByBufferScope)
/// through buffers of their own.
static void expandBufferScope(gpu::GPUModuleOp module,
                              MutableArrayRef<BlockRadixSortOp> sorts,
                              MutableArrayRef<BlockRadixRankOp> rankings) {
  // The buffers first, each sized for the largest sort of its type; the
  // union's bytes for the largest sort with the union; the counter grid
  // for the largest ranking or sort that counts in it.
  WorkgroupBuffers buffers(module);
  MLIRContext *ctx = module.getContext();
  Type byteType = IntegerType::get(ctx, 8);
  auto reserveGrid = [&](const RadixSortLayout &layout) {
    if (usesCounterGrid(layout.algorithm))
      buffers.reserve(kCounterBufferName, byteType, /*slot=*/0,
                      layout.counterElements * 4, /*alignment=*/16);
  };
  SmallVector<RadixSortLayout> layouts, rankLayouts;
  // The slot of each key member's buffer: members of one image type take
  // one buffer each.
  auto keySlots = [](BlockRadixSortOp op) {
    SmallVector<std::pair<IntegerType, unsigned>> slots;
    DenseMap<Type, unsigned> taken;
    for (Type key : op.getKeyTypes()) {
      IntegerType image = getImageType(key);
      slots.push_back({image, taken[image]++});
    }
    return slots;
  };
  for (BlockRadixSortOp op : sorts) {
    layouts.push_back(getRadixSortLayout(op, decideRadixSortBits(op)));
    const RadixSortLayout &layout = layouts.back();
    if (layout.unionBuffer) {
      buffers.reserve(kUnionBufferName, byteType, /*slot=*/0, layout.unionBytes,
                      /*alignment=*/16);
      continue;
    }
    for (auto [slot, elements] :
         llvm::zip_equal(keySlots(op), layout.keyElements))
      buffers.reserve(kKeyBufferName, slot.first, slot.second, elements);
    if (Value values = op.getValues())
      buffers.reserve(kValueBufferName,
                      cast<VectorType>(values.getType()).getElementType(),
                      /*slot=*/0, layout.valueElements);
    reserveGrid(layout);
  }
  for (BlockRadixRankOp op : rankings) {
    rankLayouts.push_back(getRadixRankLayout(op));
    reserveGrid(rankLayouts.back());
  }
  buffers.allocate();
  // The counter grid in columns of threads for some rankings and of warps
  // for others, or of warps for several ops (a match ranking zeroes the
  // raked words past its grid, which another op's larger grid has in other
  // warps' columns): each ranking then starts with a barrier (RadixRanker).
  auto usesGrid = [](const RadixSortLayout &layout, RadixRankAlgorithm a) {
    return layout.algorithm == a && !layout.unionBuffer;
  };
  auto countUses = [&](RadixRankAlgorithm a) {
    return llvm::count_if(layouts, [&](auto &l) { return usesGrid(l, a); }) +
           llvm::count_if(rankLayouts, [&](auto &l) { return usesGrid(l, a); });
  };
  int64_t gridRankings = countUses(RadixRankAlgorithm::SharedCounters);
  int64_t matchRankings = countUses(RadixRankAlgorithm::MatchCounters) +
                          countUses(RadixRankAlgorithm::MatchEarlyCounts);
  bool barrierFirst = matchRankings > 0 && gridRankings + matchRankings > 1;
  auto readGrid = [&](OpBuilder &b, Location loc) {
    return WorkgroupBuffers::read(
        b, loc, buffers.lookup(kCounterBufferName, byteType, 0));
  };
  for (auto [op, layout] : llvm::zip_equal(sorts, layouts)) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type valueType =
        op.getValues()
            ? cast<VectorType>(op.getValues().getType()).getElementType()
            : Type();
    SmallVector<Value> keyBuffers;
    Value valueBuffer, counterBuffer, counterHalves;
    if (layout.unionBuffer) {
      Value whole = WorkgroupBuffers::read(
          b, loc, buffers.lookup(kUnionBufferName, byteType, 0));
      for (auto [slot, elements] :
           llvm::zip_equal(keySlots(op), layout.keyElements))
        keyBuffers.push_back(
            buildUnionView(b, loc, whole, slot.first, elements));
      if (valueType)
        valueBuffer =
            buildUnionView(b, loc, whole, valueType, layout.valueElements);
      std::tie(counterBuffer, counterHalves) =
          viewCounterGrid(b, loc, whole, layout.counterElements);
    } else {
      for (auto [image, slot] : keySlots(op))
        keyBuffers.push_back(WorkgroupBuffers::read(
            b, loc, buffers.lookup(kKeyBufferName, image, slot)));
      if (valueType)
        valueBuffer = WorkgroupBuffers::read(
            b, loc, buffers.lookup(kValueBufferName, valueType, 0));
      if (usesCounterGrid(layout.algorithm))
        std::tie(counterBuffer, counterHalves) =
            viewCounterGrid(b, loc, readGrid(b, loc), layout.counterElements);
    }
    RadixSortBuilder builder(b, op, layout, keyBuffers, valueBuffer,
                             counterBuffer, counterHalves, barrierFirst);
    op->replaceAllUsesWith(builder.build());
    op.erase();
  }
  for (auto [op, layout] : llvm::zip_equal(rankings, rankLayouts)) {
    OpBuilder b(op);
    Value counterBytes = usesCounterGrid(layout.algorithm)
                             ? readGrid(b, op.getLoc())
                             : Value();
    op->replaceAllUsesWith(
        buildRadixRank(b, op, layout, counterBytes, barrierFirst));
    op.erase();
  }
}

bool mlir::warp::expandBlockRadixSorts(gpu::GPUModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<BlockRadixSortOp, BlockRadixRankOp>(op))
      ops.push_back(op);
  });
  for (ArrayRef<Operation *> group : groupByBufferScope(module, ops)) {
    SmallVector<BlockRadixSortOp> sorts;
    SmallVector<BlockRadixRankOp> rankings;
    for (Operation *op : group) {
      if (auto sort = dyn_cast<BlockRadixSortOp>(op))
        sorts.push_back(sort);
      else
        rankings.push_back(cast<BlockRadixRankOp>(op));
    }
    expandBufferScope(module, sorts, rankings);
  }
  return !ops.empty();
}
