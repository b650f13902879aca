//===- ExpandBlockRunLengthDecode.cpp - run-length decode to a search ----===//
//
// warp.block_run_length_decode becomes: each thread's sum of its run
// lengths (widened to the offset type O), an exclusive warp.block_scan
// <add> of the sums with the block total, the runs' start offsets (with
// `offsets`: the operand itself, and the last run's start as the total); a
// barrier (an earlier decode's reads of the buffers are done); every
// thread stores its runs' values and offsets at slots t*R .. t*R+R-1 of
// two workgroup buffers; a barrier; each decoded position
// p = from + t*D + i finds its run by a binary search of the offsets (the
// number of offsets <= p, less one: the last run that starts at or before
// p, which skips runs of length 0) and reads the run's value and start.
// Past the total, `default` where the op has one.
// warp-expand-block-collectives calls this before it collects the block
// ops, so that it expands the scans made here.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

constexpr llvm::StringLiteral kRunValueBufferName = "__warp_block_run_values";
constexpr llvm::StringLiteral kOffsetBufferName = "__warp_block_run_offsets";

/// Builds one decode's expansion at the op.
class RunLengthDecodeBuilder {
public:
  RunLengthDecodeBuilder(OpBuilder &b, BlockRunLengthDecodeOp op,
                         Value valueBuffer, Value offsetBuffer)
      : b(b), loc(op.getLoc()), op(op), offsetType(op.getFrom().getType()),
        valueBuffer(valueBuffer), offsetBuffer(offsetBuffer) {
    std::tie(thread, threads) = buildBlockThreadAndCount(b, loc, op);
  }

  SmallVector<Value> build() {
    int64_t runs = op.getRunsPerThread();
    // The thread's runs' lengths or starts, widened to O.
    SmallVector<Value> given;
    for (int64_t j = 0; j < runs; ++j) {
      Value length = vector::ExtractOp::create(b, loc, op.getLengths(), j);
      if (length.getType() != offsetType)
        length = arith::ExtUIOp::create(b, loc, offsetType, length);
      given.push_back(length);
    }
    // From lengths: their exclusive scan over the block gives the starts
    // and the total; from offsets, the total is read below.
    Value total;
    SmallVector<Value> starts = given;
    if (!op.getOffsets())
      total = scanLengths(given, starts);
    // The runs in the buffers: slot t R + j.
    gpu::BarrierOp::create(b, loc);
    Value first = mul(thread, i32(runs));
    for (int64_t j = 0; j < runs; ++j) {
      Value slot = index(j == 0 ? first : add(first, i32(j)));
      memref::StoreOp::create(
          b, loc, vector::ExtractOp::create(b, loc, op.getValues(), j),
          valueBuffer, slot);
      memref::StoreOp::create(b, loc, starts[j], offsetBuffer, slot);
    }
    gpu::BarrierOp::create(b, loc);
    // Each position's run: the search needs ceil(log2(n + 1)) halvings of
    // [0, n] for n = B_max R offsets.
    Value blockRuns = mul(threads, i32(runs));
    Value lastRun = arith::SubIOp::create(b, loc, blockRuns, i32(1));
    // From offsets: the last run's start stands for the total.
    if (!total)
      total = memref::LoadOp::create(b, loc, offsetBuffer, index(lastRun));
    int64_t maxRuns = getMaxBlockThreads(op) * runs;
    unsigned steps = llvm::Log2_64_Ceil(uint64_t(maxRuns) + 1);
    int64_t items = op.getItemsPerThread();
    Value base = add(op.getFrom(),
                     toOffset(mul(thread, i32(items))));
    SmallVector<Value> decoded, relative;
    for (int64_t i = 0; i < items; ++i) {
      Value position = i == 0 ? base : add(base, offsetConstant(i));
      Value run = findRun(position, blockRuns, lastRun, steps);
      Value value = memref::LoadOp::create(b, loc, valueBuffer, index(run));
      Value start = memref::LoadOp::create(b, loc, offsetBuffer, index(run));
      if (Value fill = op.getFill()) {
        Value inside = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, position, total);
        value = arith::SelectOp::create(b, loc, inside, value, fill);
      }
      decoded.push_back(value);
      relative.push_back(arith::SubIOp::create(b, loc, position, start));
    }
    SmallVector<Value> results{
        vector::FromElementsOp::create(
            b, loc, cast<VectorType>(op.getDecoded().getType()), decoded),
        total};
    if (Value offsets = op.getRelativeOffsets())
      results.push_back(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(offsets.getType()), relative));
    return results;
  }

private:
  /// The block's exclusive scan of the thread's sum of `lengths`: the
  /// thread's runs' `starts` and the block's total.
  Value scanLengths(ArrayRef<Value> lengths, SmallVector<Value> &starts) {
    Value sum = lengths.front();
    for (Value length : lengths.drop_front())
      sum = add(sum, length);
    MLIRContext *ctx = b.getContext();
    auto scan = BlockScanOp::create(
        b, loc, TypeRange{offsetType, offsetType},
        CombineKindAttr::get(ctx, CombineKind::Add), ValueRange{sum},
        /*items=*/false, /*init=*/ValueRange(), /*exclusive=*/true,
        /*reverse=*/false, /*heads=*/Value(),
        BlockScanAlgorithmAttr::get(ctx, BlockScanAlgorithm::WarpScans),
        /*tile=*/nullptr);
    starts.assign({scan.getScanned()[0]});
    for (Value length : lengths.drop_back())
      starts.push_back(add(starts.back(), length));
    return scan.getTotal()[0];
  }

  Value i32(int64_t v) { return buildI32Constant(b, loc, v); }
  Value offsetConstant(int64_t v) {
    return arith::ConstantOp::create(b, loc,
                                     b.getIntegerAttr(offsetType, v));
  }
  Value add(Value l, Value r) { return arith::AddIOp::create(b, loc, l, r); }
  Value mul(Value l, Value r) { return arith::MulIOp::create(b, loc, l, r); }
  Value index(Value i32Slot) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), i32Slot);
  }
  /// An i32 as an offset (O).
  Value toOffset(Value value) {
    if (offsetType.getIntOrFloatBitWidth() == 32)
      return value;
    return arith::ExtUIOp::create(b, loc, offsetType, value);
  }

  /// The last run (an i32 slot) whose start is at most `position`: the
  /// upper bound of `position` among the block's `blockRuns` starts, less
  /// one (from lengths the first start is 0, so the bound is at least 1;
  /// from offsets a position before the first start takes the first run).
  /// Each step halves [low, high) while it is not empty.
  Value findRun(Value position, Value blockRuns, Value lastRun,
                unsigned steps) {
    Value low = i32(0), high = blockRuns;
    for (unsigned s = 0; s < steps; ++s) {
      Value open = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         low, high);
      Value mid = arith::ShRUIOp::create(b, loc, add(low, high), i32(1));
      mid = arith::MinUIOp::create(b, loc, mid, lastRun);
      Value start = memref::LoadOp::create(b, loc, offsetBuffer, index(mid));
      Value before = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           position, start);
      Value lower = arith::AndIOp::create(b, loc, open, before);
      Value raise = arith::AndIOp::create(
          b, loc, open,
          arith::XOrIOp::create(
              b, loc, before,
              arith::ConstantOp::create(b, loc, b.getBoolAttr(true))));
      high = arith::SelectOp::create(b, loc, lower, mid, high);
      low = arith::SelectOp::create(b, loc, raise, add(mid, i32(1)), low);
    }
    if (op.getOffsets())
      low = arith::MaxUIOp::create(b, loc, low, i32(1));
    return arith::SubIOp::create(b, loc, low, i32(1));
  }

  OpBuilder &b;
  Location loc;
  BlockRunLengthDecodeOp op;
  Type offsetType;
  Value valueBuffer, offsetBuffer;
  Value thread, threads;
};

} // namespace

bool mlir::warp::expandBlockRunLengthDecodes(gpu::GPUModuleOp module) {
  SmallVector<Operation *> decodes;
  module.walk([&](BlockRunLengthDecodeOp op) { decodes.push_back(op); });
  auto valueType = [](BlockRunLengthDecodeOp op) {
    return cast<VectorType>(op.getValues().getType()).getElementType();
  };
  // Per buffer scope (groupByBufferScope), one buffer per value type and
  // per offset type, each sized for the largest decode.
  for (ArrayRef<Operation *> group : groupByBufferScope(module, decodes)) {
    WorkgroupBuffers buffers(module);
    for (Operation *decode : group) {
      auto op = cast<BlockRunLengthDecodeOp>(decode);
      int64_t runs = getMaxBlockThreads(op) * op.getRunsPerThread();
      buffers.reserve(kRunValueBufferName, valueType(op), /*slot=*/0, runs);
      buffers.reserve(kOffsetBufferName, op.getFrom().getType(), /*slot=*/0,
                      runs);
    }
    buffers.allocate();
    for (Operation *decode : group) {
      auto op = cast<BlockRunLengthDecodeOp>(decode);
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value values = WorkgroupBuffers::read(
          b, loc, buffers.lookup(kRunValueBufferName, valueType(op), 0));
      Value offsets = WorkgroupBuffers::read(
          b, loc,
          buffers.lookup(kOffsetBufferName, op.getFrom().getType(), 0));
      RunLengthDecodeBuilder builder(b, op, values, offsets);
      op->replaceAllUsesWith(builder.build());
      op.erase();
    }
  }
  return !decodes.empty();
}
