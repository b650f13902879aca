//===- ExpandBlockRadixSort.cpp - block radix sort to counting passes -----===//
//
// warp.block_radix_sort becomes a least-significant-digit radix sort, one
// counting pass per `radix_bits` bits of the keys' unsigned images:
//
//   digit of each item -> per-thread counters (16 bits, two to an i32 word)
//   -> exclusive warp.block_scan <add> of the counter words with the block
//   totals -> each item's rank (its digit's start in the block, plus the
//   threads before, plus its thread's earlier items of that digit)
//   -> barrier, scatter the images (and values) to their ranks in a
//   workgroup buffer, barrier, every thread loads its next items.
//
// Ranks are stable (thread order, then item order, within a digit), so
// each pass keeps the order of the one before, and the last pass leaves the
// block sorted. The first barrier of a pass keeps its stores apart from the
// loads of the previous pass (or of the previous sort of the kernel); the
// second makes the stores visible. warp-expand-block-collectives calls this
// first and then expands the block scans made here with the other block
// ops.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

constexpr llvm::StringLiteral kKeyBufferName = "__warp_block_radix_keys";
constexpr llvm::StringLiteral kValueBufferName = "__warp_block_radix_values";

/// The unsigned image of a key type: an integer of its width.
IntegerType getImageType(BlockRadixSortOp op) {
  return IntegerType::get(op.getContext(),
                          op.getKeyType().getIntOrFloatBitWidth());
}

/// Builds one radix sort's expansion at the op.
class RadixSortBuilder {
public:
  RadixSortBuilder(OpBuilder &b, BlockRadixSortOp op,
                   const RadixSortLayout &layout, Value keyBuffer,
                   Value valueBuffer)
      : b(b), loc(op.getLoc()), op(op), layout(layout),
        imageType(getImageType(op)), width(imageType.getWidth()),
        items(op.getItemsPerThread()), keyBuffer(keyBuffer),
        valueBuffer(valueBuffer) {
    std::tie(thread, threads) = buildBlockThreadAndCount(b, loc, op);
  }

  /// The sorted keys and, with values, the sorted values.
  SmallVector<Value> build() {
    SmallVector<Value> images, values;
    for (int64_t j = 0; j < items; ++j) {
      images.push_back(
          toImage(vector::ExtractOp::create(b, loc, op.getKeys(), j)));
      if (valueBuffer)
        values.push_back(
            vector::ExtractOp::create(b, loc, op.getValues(), j));
    }
    unsigned begin = op.getBeginBitOrDefault(), end = op.getEndBitOrDefault();
    for (unsigned shift = begin; shift < end; shift += layout.radixBits) {
      unsigned bits = std::min(layout.radixBits, end - shift);
      bool last = shift + bits == end;
      SmallVector<Value> ranks = rankPass(images, shift, bits);
      scatterAndLoad(ranks, images, values, last && op.getStriped());
    }
    SmallVector<Value> keys;
    for (Value image : images)
      keys.push_back(fromImage(image));
    SmallVector<Value> results{vector::FromElementsOp::create(
        b, loc, cast<VectorType>(op.getKeys().getType()), keys)};
    if (valueBuffer)
      results.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(op.getValues().getType()), values));
    return results;
  }

private:
  Value i32(int64_t v) { return buildI32Constant(b, loc, v); }
  Value image(uint64_t v) {
    return arith::ConstantOp::create(b, loc,
                                     b.getIntegerAttr(imageType, v));
  }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value eq(Value l, Value r) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, l, r);
  }
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  uint64_t allOnes() const { return llvm::maskTrailingOnes<uint64_t>(width); }
  Value signBit() { return image(uint64_t(1) << (width - 1)); }
  Value complement(Value v) {
    return arith::XOrIOp::create(b, loc, v, image(allOnes()));
  }

  /// The key's unsigned image: its bits, the sign bit flipped for signed
  /// integers, every bit of a negative float and the sign bit of a
  /// non-negative one flipped; complemented for a descending sort.
  Value toImage(Value key) {
    Value bits = key;
    if (isa<FloatType>(key.getType())) {
      bits = arith::BitcastOp::create(b, loc, imageType, key);
      Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             bits, image(0));
      bits = select(negative, complement(bits),
                    arith::XOrIOp::create(b, loc, bits, signBit()));
    } else if (op.getIsSigned()) {
      bits = arith::XOrIOp::create(b, loc, bits, signBit());
    }
    return op.getDescending() ? complement(bits) : bits;
  }

  /// The key of an image (toImage's inverse).
  Value fromImage(Value bits) {
    if (op.getDescending())
      bits = complement(bits);
    if (isa<FloatType>(op.getKeyType())) {
      // The sign bit of the image is set where the key was non-negative.
      Value wasNonNegative = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, bits, image(0));
      bits = select(wasNonNegative,
                    arith::XOrIOp::create(b, loc, bits, signBit()),
                    complement(bits));
      return arith::BitcastOp::create(b, loc, op.getKeyType(), bits);
    }
    if (op.getIsSigned())
      bits = arith::XOrIOp::create(b, loc, bits, signBit());
    return bits;
  }

  /// Bits [shift, shift + bits) of an image, as an i32.
  Value digitOf(Value bits, unsigned shift, unsigned count) {
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

  /// The ranks in the block of this thread's items, by bits [shift,
  /// shift + count) of their images, stable.
  SmallVector<Value> rankPass(ArrayRef<Value> images, unsigned shift,
                              unsigned count) {
    int64_t numWords = std::max<int64_t>(1, (int64_t(1) << count) / 2);
    SmallVector<DigitPosition> positions;
    SmallVector<Value> counts(numWords, i32(0));
    for (Value bits : images) {
      positions.push_back(positionOf(digitOf(bits, shift, count)));
      increment(counts, positions.back());
    }
    // The counts of the threads before and of the whole block, per word.
    SmallVector<Value> before, totals;
    int64_t chunk = layout.scanWords;
    auto vectorType = VectorType::get({chunk}, b.getI32Type());
    MLIRContext *ctx = b.getContext();
    for (int64_t first = 0; first < numWords; first += chunk) {
      SmallVector<Value> elements;
      for (int64_t w = first; w < first + chunk; ++w)
        elements.push_back(w < numWords ? counts[w] : i32(0));
      Value packed = vector::FromElementsOp::create(b, loc, vectorType,
                                                    elements);
      auto scan = BlockScanOp::create(
          b, loc, TypeRange{vectorType, vectorType},
          CombineKindAttr::get(ctx, CombineKind::Add), ValueRange{packed},
          /*items=*/false, /*init=*/ValueRange(), /*exclusive=*/true,
          /*reverse=*/false,
          BlockScanAlgorithmAttr::get(ctx, BlockScanAlgorithm::WarpScans));
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
    Value start = i32(0);
    for (int64_t w = 0; w < numWords; ++w) {
      Value low = arith::AndIOp::create(b, loc, totals[w], i32(0xffff));
      Value high = arith::ShRUIOp::create(b, loc, totals[w], i32(16));
      Value startHigh = add(start, low);
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

  /// `slot` (i32) of a buffer of `element`s, past its padding, as an index.
  Value bufferIndex(Value slot, Type element) {
    Value padded = add(
        slot, arith::DivUIOp::create(
                  b, loc, slot, i32(getBlockBufferPaddingPeriod(element))));
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), padded);
  }

  /// Stores each item at its rank and loads this thread's items of the
  /// sorted order: blocked, or striped.
  void scatterAndLoad(ArrayRef<Value> ranks, MutableArrayRef<Value> images,
                      MutableArrayRef<Value> values, bool striped) {
    Type valueType = valueBuffer
                         ? cast<VectorType>(op.getValues().getType())
                               .getElementType()
                         : Type();
    gpu::BarrierOp::create(b, loc);
    for (auto [j, rank] : llvm::enumerate(ranks)) {
      memref::StoreOp::create(b, loc, images[j], keyBuffer,
                              bufferIndex(rank, imageType));
      if (valueBuffer)
        memref::StoreOp::create(b, loc, values[j], valueBuffer,
                                bufferIndex(rank, valueType));
    }
    gpu::BarrierOp::create(b, loc);
    Value first = striped ? thread : mul(thread, i32(items));
    Value step = striped ? threads : i32(1);
    for (int64_t j = 0; j < items; ++j) {
      Value slot = j == 0 ? first : add(first, mul(step, i32(j)));
      images[j] = memref::LoadOp::create(b, loc, keyBuffer,
                                         bufferIndex(slot, imageType));
      if (valueBuffer)
        values[j] = memref::LoadOp::create(b, loc, valueBuffer,
                                           bufferIndex(slot, valueType));
    }
  }

  OpBuilder &b;
  Location loc;
  BlockRadixSortOp op;
  const RadixSortLayout &layout;
  IntegerType imageType;
  unsigned width;
  int64_t items;
  Value keyBuffer, valueBuffer;
  Value thread, threads;
};

} // namespace

bool mlir::warp::expandBlockRadixSorts(gpu::GPUModuleOp module) {
  SmallVector<BlockRadixSortOp> sorts;
  module.walk([&](BlockRadixSortOp op) { sorts.push_back(op); });
  if (sorts.empty())
    return false;
  // The buffers first, each sized for the largest sort of its type.
  WorkgroupBuffers buffers(module);
  SmallVector<RadixSortLayout> layouts;
  for (BlockRadixSortOp op : sorts) {
    layouts.push_back(getRadixSortLayout(op, decideRadixSortBits(op)));
    buffers.reserve(kKeyBufferName, getImageType(op), /*slot=*/0,
                    layouts.back().keyElements);
    if (Value values = op.getValues())
      buffers.reserve(kValueBufferName,
                      cast<VectorType>(values.getType()).getElementType(),
                      /*slot=*/0, layouts.back().valueElements);
  }
  buffers.allocate();
  for (auto [op, layout] : llvm::zip_equal(sorts, layouts)) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value keyBuffer = WorkgroupBuffers::read(
        b, loc, buffers.lookup(kKeyBufferName, getImageType(op), 0));
    Value valueBuffer;
    if (Value values = op.getValues())
      valueBuffer = WorkgroupBuffers::read(
          b, loc,
          buffers.lookup(kValueBufferName,
                         cast<VectorType>(values.getType()).getElementType(),
                         0));
    RadixSortBuilder builder(b, op, layout, keyBuffer, valueBuffer);
    op->replaceAllUsesWith(builder.build());
    op.erase();
  }
  return true;
}
