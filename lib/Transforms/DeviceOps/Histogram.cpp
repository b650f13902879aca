//===- Histogram.cpp - device histograms as kernels -----------------------===//
//
// A histogram clears the bins, then counts each tile
// (warp.block_histogram), in a workgroup copy of the bins where it fits (a
// capped grid of blocks, each over many tiles, adds its copy to the output
// once).
//
//===----------------------------------------------------------------------===//

#include "DeviceKernelBuilder.h"

namespace mlir::warp::device_ops {

namespace {

/// A number's type and, for an integer, whether it reads as unsigned.
struct Numeric {
  Type type;
  bool isUnsigned;
};

/// C++'s `common_type` of two numbers (the usual arithmetic conversions):
/// a float wins over an integer and the wider float over the narrower;
/// integers below 32 bits are promoted to a signed i32, then the wider
/// wins, and of one width the unsigned one. One type is itself.
Numeric commonNumeric(Numeric a, Numeric b) {
  if (a.type == b.type)
    return a;
  auto isFloat = [](Numeric x) { return isa<FloatType>(x.type); };
  unsigned aWidth = a.type.getIntOrFloatBitWidth(), bWidth = b.type.getIntOrFloatBitWidth();
  if (isFloat(a) || isFloat(b)) {
    if (isFloat(a) && isFloat(b))
      return aWidth >= bWidth ? a : b;
    return isFloat(a) ? a : b;
  }
  auto promoted = [](Numeric x) {
    return x.type.getIntOrFloatBitWidth() < 32
               ? Numeric{IntegerType::get(x.type.getContext(), 32), false}
               : x;
  };
  a = promoted(a), b = promoted(b);
  aWidth = a.type.getIntOrFloatBitWidth(), bWidth = b.type.getIntOrFloatBitWidth();
  if (aWidth != bWidth)
    return aWidth > bWidth ? a : b;
  return a.isUnsigned ? a : b;
}

/// `value` (of `from`) as a value of `to`, converted as C++ converts it:
/// integers extended by their own signedness or truncated, integers to
/// floats and floats to floats rounded to nearest, floats to integers
/// truncated toward zero.
Value convertNumeric(ImplicitLocOpBuilder &b, Value value, Numeric from, Numeric to) {
  Type type = to.type;
  if (from.type == type)
    return value;
  unsigned fromWidth = from.type.getIntOrFloatBitWidth(), toWidth = type.getIntOrFloatBitWidth();
  bool fromFloat = isa<FloatType>(from.type), toFloat = isa<FloatType>(type);
  if (fromFloat && toFloat)
    return fromWidth < toWidth ? arith::ExtFOp::create(b, type, value).getResult()
                               : arith::TruncFOp::create(b, type, value).getResult();
  if (toFloat)
    return from.isUnsigned ? arith::UIToFPOp::create(b, type, value).getResult()
                           : arith::SIToFPOp::create(b, type, value).getResult();
  if (fromFloat)
    return to.isUnsigned ? arith::FPToUIOp::create(b, type, value).getResult()
                         : arith::FPToSIOp::create(b, type, value).getResult();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, type, value);
  return from.isUnsigned ? arith::ExtUIOp::create(b, type, value).getResult()
                         : arith::ExtSIOp::create(b, type, value).getResult();
}

} // namespace

std::function<Value(Value, Value)>
DeviceKernelBuilder::histogramBinOf(DeviceHistogramOp op) {
  Numeric sample{op.getElementType(), op.getIsUnsigned()};
  // What the bins are computed in: the levels' type for a range (CUB
  // converts each sample to it), C++'s common type of the two for even
  // levels (the samples' type where the levels have it).
  Numeric level{op.getLevelType(), op.hasUnsignedLevels()};
  Numeric compute = !op.hasLevels()      ? sample
                    : op.hasEvenLevels() ? commonNumeric(level, sample)
                                         : level;
  auto toCompute = [this, sample, compute](Value x) {
    return convertNumeric(b, x, sample, compute);
  };
  Type computeType = compute.type;
  Type i64Type = b.getI64Type();
  Value none = i32(-1);
  int64_t active = op.getActiveChannelCount();
  // A level in the computing type, from the bits the kernel takes it as.
  auto asLevel = [&](Value bits) -> Value {
    Value value = bits.getType() == level.type
                      ? bits
                      : arith::BitcastOp::create(b, level.type, bits).getResult();
    return convertNumeric(b, value, level, compute);
  };
  // Channel `channel`'s one of `perChannel` (the first without channels).
  auto pick = [this](ArrayRef<Value> perChannel, Value channel) -> Value {
    if (!channel)
      return perChannel.front();
    Value picked = perChannel.back();
    for (int64_t a = int64_t(perChannel.size()) - 2; a >= 0; --a)
      picked = arith::SelectOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, channel, index(a)),
          perChannel[a], picked);
    return picked;
  };
  // The bins per channel (the kernel's bins are the channels' rows, flat).
  Value binsPerChannel = memref::DimOp::create(b, output, 0);
  if (active > 1)
    binsPerChannel = arith::DivUIOp::create(b, binsPerChannel, index(active));
  Value bins = arith::IndexCastOp::create(b, i64Type, binsPerChannel);
  if (!op.hasLevels()) {
    // Bin numbers (a channel's samples in a multi-channel histogram).
    return [this, bins, none, i64Type](Value x, Value) -> Value {
      Value wide = x.getType() == i64Type ? x : arith::ExtUIOp::create(b, i64Type, x);
      Value counted = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, wide, bins);
      return arith::SelectOp::create(b, counted,
                                     arith::TruncIOp::create(b, b.getI32Type(), wide), none);
    };
  }
  if (op.getLevels()) {
    // CUB's upper bound: the first level above the sample (NaN: past the
    // last), less one; counted when that is a bin. Channel a's levels are
    // row a: `count` of them from a * count.
    Value levels = operands[2];
    Value count = memref::DimOp::create(b, levels, 0);
    if (active > 1)
      count = arith::DivUIOp::create(b, count, index(active));
    bool isFloat = isa<FloatType>(computeType);
    arith::CmpIPredicate less =
        compute.isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    return [this, levels, count, isFloat, less, none, toCompute](Value sampleValue,
                                                                 Value channel) -> Value {
      Value x = toCompute(sampleValue);
      Type indexType = b.getIndexType();
      Value base = channel ? arith::MulIOp::create(b, channel, count).getResult() : index(0);
      SmallVector<Location> locations(2, b.getLoc());
      auto search = scf::WhileOp::create(b, TypeRange{indexType, indexType},
                                         ValueRange{index(0), count});
      {
        OpBuilder::InsertionGuard guard(b);
        Block *before =
            b.createBlock(&search.getBefore(), {}, {indexType, indexType}, locations);
        Value more = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, before->getArgument(0),
                                           before->getArgument(1));
        scf::ConditionOp::create(b, more, before->getArguments());
        Block *after =
            b.createBlock(&search.getAfter(), {}, {indexType, indexType}, locations);
        Value low = after->getArgument(0), high = after->getArgument(1);
        Value mid = arith::ShRUIOp::create(b, arith::AddIOp::create(b, low, high), index(1));
        Value at = channel ? arith::AddIOp::create(b, base, mid).getResult() : mid;
        Value level = memref::LoadOp::create(b, levels, ValueRange{at});
        Value below = isFloat ? arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, x, level)
                                    .getResult()
                              : arith::CmpIOp::create(b, less, x, level).getResult();
        scf::YieldOp::create(
            b, ValueRange{arith::SelectOp::create(b, below, low,
                                                  arith::AddIOp::create(b, mid, index(1))),
                          arith::SelectOp::create(b, below, mid, high)});
      }
      Value above = search.getResult(0);
      Value counted = arith::AndIOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::uge, above, index(1)),
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, above, count));
      Value bin = arith::IndexCastOp::create(b, b.getI32Type(),
                                             arith::SubIOp::create(b, above, index(1)));
      return arith::SelectOp::create(b, counted, bin, none);
    };
  }
  // Each channel's lower and upper level (operands 2 + 2a and 3 + 2a).
  SmallVector<Value> lowers, uppers;
  for (int64_t a = 0; a < active; ++a) {
    lowers.push_back(asLevel(operands[2 + 2 * a]));
    uppers.push_back(asLevel(operands[3 + 2 * a]));
  }
  if (auto floatType = dyn_cast<FloatType>(computeType)) {
    // CUB's scale, K / (upper - lower), and the bin, both in the samples'
    // type; a sample just below upper whose product rounds to K goes to
    // the last bin.
    SmallVector<Value> scales;
    for (int64_t a = 0; a < active; ++a)
      scales.push_back(arith::DivFOp::create(b, arith::SIToFPOp::create(b, floatType, bins),
                                             arith::SubFOp::create(b, uppers[a], lowers[a])));
    Value last = arith::TruncIOp::create(
        b, b.getI32Type(), arith::SubIOp::create(b, bins, arith::ConstantIntOp::create(b, 1, 64)));
    return [this, lowers, uppers, scales, last, none, pick, toCompute](Value sampleValue,
                                                                        Value channel) -> Value {
      Value x = toCompute(sampleValue);
      Value lower = pick(lowers, channel);
      Value upper = pick(uppers, channel);
      Value scale = pick(scales, channel);
      Value counted = arith::AndIOp::create(
          b, arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, x, lower),
          arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, x, upper));
      Value scaled = arith::MulFOp::create(b, arith::SubFOp::create(b, x, lower), scale);
      // Only counted samples' bins are used: others may not fit an i32.
      Value safe = arith::SelectOp::create(
          b, counted, scaled, arith::ConstantOp::create(b, b.getZeroAttr(scaled.getType())));
      Value bin = arith::MinSIOp::create(
          b, arith::FPToSIOp::create(b, b.getI32Type(), safe), last);
      return arith::SelectOp::create(b, counted, bin, none);
    };
  }
  // Integers, signed or with `unsigned` unsigned: (x - lower) * K /
  // (upper - lower) exactly, at 64 bits (i64 samples: unsigned, as CUB's,
  // which rejects levels where the product may overflow).
  bool isUnsigned = compute.isUnsigned;
  auto wide = [this, i64Type, isUnsigned](Value value) -> Value {
    if (value.getType() == i64Type)
      return value;
    if (isUnsigned)
      return arith::ExtUIOp::create(b, i64Type, value);
    return arith::ExtSIOp::create(b, i64Type, value);
  };
  arith::CmpIPredicate atLeast =
      isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  arith::CmpIPredicate below =
      isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  // At least 1: levels that break the precondition count nothing (no
  // sample is in an empty range), and no division is by zero.
  SmallVector<Value> ranges;
  for (int64_t a = 0; a < active; ++a)
    ranges.push_back(
        arith::MaxUIOp::create(b, arith::SubIOp::create(b, wide(uppers[a]), wide(lowers[a])),
                               arith::ConstantIntOp::create(b, 1, 64)));
  return [this, lowers, uppers, ranges, bins, none, wide, pick, atLeast, below,
          toCompute](Value sampleValue, Value channel) -> Value {
    Value x = toCompute(sampleValue);
    Value lower = pick(lowers, channel);
    Value upper = pick(uppers, channel);
    Value range = pick(ranges, channel);
    Value counted = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, atLeast, x, lower),
        arith::CmpIOp::create(b, below, x, upper));
    Value offset = arith::SubIOp::create(b, wide(x), wide(lower));
    Value bin = arith::DivUIOp::create(b, arith::MulIOp::create(b, offset, bins), range);
    return arith::SelectOp::create(
        b, counted, arith::TruncIOp::create(b, b.getI32Type(), bin), none);
  };
}

void DeviceKernelBuilder::buildHistogram(gpu::GPUModuleOp module, DeviceHistogramOp histogram,
                                         std::optional<int64_t> privateBins) {
  // One block clears the counters.
  startKernel(module, "histogram_init", std::nullopt);
  // The bins are operand 1 (levels may follow them).
  output = operands[1];
  Type counter = cast<MemRefType>(output.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(counter));
  {
    Value bins = memref::DimOp::create(b, output, 0);
    auto loop = scf::ForOp::create(b, thread, bins, index(DeviceTiling::kThreads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    memref::StoreOp::create(b, zero, output, ValueRange{loop.getInductionVar()});
  }

  int64_t items = DeviceTiling::kHistogramItemsPerThread;
  int64_t tileItems = items * DeviceTiling::kThreads;
  gpu::GPUFuncOp kernel = startKernel(module, "histogram", tileItems);
  output = operands[1];
  Type sampleType = cast<MemRefType>(input.getType()).getElementType();
  unsigned sampleWidth = sampleType.getIntOrFloatBitWidth();
  Value sampleZero = arith::ConstantOp::create(b, b.getZeroAttr(sampleType));
  // Channels: only whole pixels count (n rounded down to C's multiple),
  // and the sample at position p is channel p mod C's.
  int64_t channels = histogram ? histogram.getChannelCount() : 1;
  bool multi = histogram && histogram.getChannels();
  if (channels > 1)
    n = arith::SubIOp::create(b, n, arith::RemUIOp::create(b, n, index(channels)));
  // With levels or channels, each sample is first given its i32 bin (-1:
  // none): a channel's bin at its row of the flat bins.
  std::function<Value(Value, Value)> binOf;
  if (histogram && (histogram.hasLevels() || multi))
    binOf = histogramBinOf(histogram);
  // A channel's row of the flat bins: its bins, once for the kernel.
  int64_t active = histogram ? histogram.getActiveChannelCount() : 1;
  Value row = multi ? arith::DivUIOp::create(b, memref::DimOp::create(b, output, 0),
                                             index(active))
                          .getResult()
                    : Value();
  auto binAt = [&](Value sample, Value channel) -> Value {
    if (!multi)
      return binOf(sample, Value());
    // The levels of a channel that is not counted are never read.
    Value bin = binOf(sample, arith::MinUIOp::create(b, channel, index(active - 1)));
    Value flat = arith::AddIOp::create(
        b, arith::IndexCastOp::create(b, b.getI32Type(), arith::MulIOp::create(b, channel, row)),
        bin);
    Value counted = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, bin, i32(0)),
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, channel, index(active)));
    return arith::SelectOp::create(b, counted, flat, i32(-1));
  };
  // The channels of a thread's items from position `first` (null without
  // channels): first's channel once, then item j's a step of j mod C on,
  // less C past the last.
  auto channelsFrom = [&](Value first) {
    SmallVector<Value> result(items);
    if (!multi)
      return result;
    Value base = arith::RemUIOp::create(b, first, index(channels));
    for (int64_t j = 0; j < items; ++j) {
      int64_t step = j % channels;
      if (step == 0) {
        result[j] = base;
        continue;
      }
      Value next = arith::AddIOp::create(b, base, index(step));
      result[j] = arith::SelectOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::uge, next, index(channels)),
          arith::SubIOp::create(b, next, index(channels)), next);
    }
    return result;
  };
  // Samples are counted at 32 bits at least: past n, in a block_histogram,
  // a sample no bin counts is all ones (every 8- or 16-bit value may name
  // a bin).
  unsigned width = binOf ? 32u : std::max(sampleWidth, 32u);
  Value block = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  if (!privateBins) {
    // A block per tile, every sample an atomic add to the output.
    Value offset = arith::MulIOp::create(b, block, index(tileItems));
    Value samples = loadTile(input, sampleZero, offset, items, 1, std::nullopt);
    auto wide = VectorType::get({items}, b.getIntegerType(width));
    if (binOf) {
      Value binned = arith::ConstantOp::create(
          b, DenseElementsAttr::get(wide, b.getIntegerAttr(wide.getElementType(), -1)));
      SmallVector<Value> channelOf = channelsFrom(
          arith::AddIOp::create(b, offset, arith::MulIOp::create(b, thread, index(items))));
      for (int64_t j = 0; j < items; ++j)
        binned = vector::InsertOp::create(
            b, binAt(vector::ExtractOp::create(b, samples, j), channelOf[j]), binned, j);
      samples = binned;
    } else if (width != sampleWidth) {
      samples = arith::ExtUIOp::create(b, wide, samples);
    }
    auto positionsType = VectorType::get({items}, b.getIndexType());
    Value steps = arith::ConstantOp::create(
        b, DenseElementsAttr::get(positionsType,
                                  llvm::to_vector(llvm::map_range(
                                      llvm::seq<int64_t>(0, items), [&](int64_t j) {
                                        return Attribute(b.getIndexAttr(j));
                                      }))));
    Value first = arith::AddIOp::create(b, offset,
                                        arith::MulIOp::create(b, thread, index(items)));
    Value positions =
        arith::AddIOp::create(b, vector::BroadcastOp::create(b, positionsType, first), steps);
    Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, positions,
                                         vector::BroadcastOp::create(b, positionsType, n));
    Value nothing = arith::ConstantOp::create(
        b, DenseElementsAttr::get(wide, b.getIntegerAttr(wide.getElementType(), -1)));
    BlockHistogramOp::create(b, arith::SelectOp::create(b, inside, samples, nothing), output,
                             b.getUnitAttr(), BlockHistogramAlgorithmAttr());
    return;
  }
  // The block's own counters in workgroup memory over its tiles
  // (grid-strided: a capped grid walks them all), one workgroup atomic add
  // per sample and no barrier between tiles, then an atomic add to the
  // output per non-zero counter: a block's worth of global atomics per
  // resident block, not per tile (CUB's privatized histogram).
  kernel->setAttr(kGridAttrName,
                  b.getI64IntegerAttr(DeviceTiling::kHistogramTilesPerBlock * tileItems));
  kernel->setAttr(kGridMaxAttrName, b.getI64IntegerAttr(DeviceTiling::kHistogramMaxBlocks));
  kernel->setAttr(kGridMinAttrName,
                  b.getDenseI64ArrayAttr({DeviceTiling::kHistogramMinBlocks, tileItems}));
  // 8-bit samples whose bin needs levels or a channel (CUB's byte-sample
  // path): the block counts each channel's 256 sample values instead, and
  // the flush gives each value its bin once, not each sample (a binary
  // search of the levels, or the even levels' arithmetic, per sample).
  // The bin depends on the value alone, so the counts are the same. Only
  // the active channels are counted.
  bool byValue = binOf && sampleWidth == 8;
  int64_t localCounters = byValue ? 256 * active : *privateBins;
  bool someInactive = multi && active < channels;
  auto shared = MemRefType::get(
      {localCounters}, counter, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  Value local = kernel.addWorkgroupAttribution(shared, b.getLoc());
  // Counted by value into fewer bins: the block's bins too, in workgroup
  // memory, that its values' counts go to before the output.
  Value merged;
  if (byValue && DeviceTiling::mergeHistogramValues(localCounters, *privateBins))
    merged = kernel.addWorkgroupAttribution(
        MemRefType::get({*privateBins}, counter, AffineMap(), shared.getMemorySpace()),
        b.getLoc());
  // `body` on each of a block's `size` counters, the threads in turn.
  auto each = [&](int64_t size, function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, thread, index(size), index(DeviceTiling::kThreads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  };
  Value noCount = arith::ConstantOp::create(b, b.getZeroAttr(counter));
  for (Value counters : {local, merged})
    if (counters)
      each(cast<MemRefType>(counters.getType()).getNumElements(), [&](Value slot) {
        memref::StoreOp::create(b, noCount, counters, ValueRange{slot});
      });
  gpu::BarrierOp::create(b);
  auto type = VectorType::get({items}, sampleType);
  Value one = arith::ConstantOp::create(b, b.getIntegerAttr(counter, 1));
  // Every sample below the bins (and, with `valid`, the thread's first
  // `valid` ones) counted. Samples too narrow to reach past the bins need
  // no check.
  bool allCount = byValue || (!binOf && sampleWidth < 63 &&
                              (int64_t(1) << sampleWidth) <= *privateBins);
  // One sample (iK, K = `width`) counted where it names a bin and, when
  // given, `inside` holds.
  auto countOne = [&](Value sample, Value inside) {
    Value counts = allCount ? Value()
                            : arith::CmpIOp::create(
                                  b, arith::CmpIPredicate::ult, sample,
                                  arith::ConstantOp::create(
                                      b, b.getIntegerAttr(sample.getType(), *privateBins)));
    if (inside)
      counts = counts ? arith::AndIOp::create(b, counts, inside).getResult() : inside;
    Value at = arith::IndexCastUIOp::create(b, b.getIndexType(), sample);
    auto add = [&] {
      memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, one, local, ValueRange{at});
    };
    if (counts)
      ifThen(counts, add);
    else
      add();
  };
  // A sample of `channel` (null without channels) as its counter.
  auto widen = [&](Value sample, Value channel) -> Value {
    if (byValue) {
      // The value's counter in its channel's 256.
      Value value = arith::ExtUIOp::create(b, b.getI32Type(), sample);
      if (!multi)
        return value;
      Value row = arith::IndexCastOp::create(b, b.getI32Type(), channel);
      return arith::AddIOp::create(b, arith::MulIOp::create(b, row, i32(256)), value);
    }
    if (binOf)
      return binAt(sample, channel);
    if (width == sampleWidth)
      return sample;
    return arith::ExtUIOp::create(b, b.getIntegerType(width), sample);
  };
  // Whether a sample of `channel` is counted by value: where some channels
  // are not, where its channel is active (null: always).
  auto activeChannel = [&](Value channel) -> Value {
    if (!byValue || !someInactive)
      return Value();
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, channel, index(active));
  };
  auto both = [&](Value x, Value y) -> Value {
    return !x ? y : !y ? x : arith::AndIOp::create(b, x, y).getResult();
  };
  // The thread's samples from position `first`, its first `valid` ones
  // where given; where `phase` is given, first's channel: then each
  // item's channel is a constant, and the samples of inactive channels
  // counted by value are not looked at.
  auto count = [&](Value samples, Value valid, Value first,
                   std::optional<int64_t> phase = std::nullopt) {
    SmallVector<Value> channelOf = phase ? SmallVector<Value>(items) : channelsFrom(first);
    for (int64_t j = 0; j < items; ++j) {
      if (phase) {
        int64_t channel = (*phase + j) % channels;
        if (byValue && channel >= active)
          continue;
        channelOf[j] = index(channel);
      }
      Value sample = widen(vector::ExtractOp::create(b, samples, j), channelOf[j]);
      Value inside = valid ? arith::CmpIOp::create(b, arith::CmpIPredicate::slt, i32(j), valid)
                                 .getResult()
                           : Value();
      countOne(sample, both(inside, phase ? Value() : activeChannel(channelOf[j])));
    }
  };
  // The tiles start `head` samples in, at a 16-byte boundary of the input
  // (its elements are naturally aligned), so that a whole tile is read with
  // aligned vector loads and no unaligned fallback, which LLVM would merge
  // with them into byte loads. Block 0 counts the head.
  int64_t sampleBytes = sampleWidth / 8;
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, input);
  Value skew = arith::AndIOp::create(b, arith::SubIOp::create(b, index(0), address), index(15));
  Value head = arith::MinUIOp::create(b, arith::DivUIOp::create(b, skew, index(sampleBytes)), n);
  Value inHead = arith::AndIOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, block, index(0)),
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, head));
  ifThen(inHead, [&] {
    Value channel = multi ? arith::RemUIOp::create(b, thread, index(channels)).getResult()
                          : Value();
    countOne(widen(memref::LoadOp::create(b, input, ValueRange{thread}), channel),
             activeChannel(channel));
  });
  // Where channels divide a thread's items (and so a tile's), every
  // thread of every whole tile starts at the head's channel: at channel 0
  // (an input whose start is 16-byte aligned has no head), with constant
  // channels.
  Value atChannelZero;
  if (multi && items % channels == 0)
    atChannelZero = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                          arith::RemUIOp::create(b, head, index(channels)),
                                          index(0));
  Value blocks = gpu::GridDimOp::create(b, gpu::Dimension::x);
  Value tiles = arith::CeilDivUIOp::create(b, arith::SubIOp::create(b, n, head),
                                           index(tileItems));
  auto walk = scf::ForOp::create(b, block, tiles, blocks);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(walk.getBody());
    Value offset = arith::AddIOp::create(
        b, head, arith::MulIOp::create(b, walk.getInductionVar(), index(tileItems)));
    Value whole = arith::CmpIOp::create(
        b, arith::CmpIPredicate::ule, arith::AddIOp::create(b, offset, index(tileItems)), n);
    auto split = scf::IfOp::create(b, whole, /*withElseRegion=*/true);
    b.setInsertionPoint(split.thenBlock()->getTerminator());
    Value first = arith::AddIOp::create(b, offset,
                                        arith::MulIOp::create(b, thread, index(items)));
    Value loaded = vector::LoadOp::create(b, type, input, ValueRange{first},
                                          /*nontemporal=*/false, llvm::MaybeAlign(16));
    if (atChannelZero) {
      auto phased = scf::IfOp::create(b, atChannelZero, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard phaseGuard(b);
      b.setInsertionPoint(phased.thenBlock()->getTerminator());
      count(loaded, Value(), first, /*phase=*/0);
      b.setInsertionPoint(phased.elseBlock()->getTerminator());
      count(loaded, Value(), first);
    } else {
      count(loaded, Value(), first);
    }
    // The last tile: the thread's items past n are not counted.
    b.setInsertionPoint(split.elseBlock()->getTerminator());
    Value valid = validItems(offset, tileItems);
    Value own = arith::SubIOp::create(
        b, valid,
        arith::IndexCastOp::create(b, b.getI32Type(),
                                   arith::MulIOp::create(b, thread, index(items))));
    count(BlockLoadOp::create(b, type, input, offset, valid, sampleZero, /*striped=*/false,
                              /*warp_striped=*/false, BlockMemoryAlgorithmAttr()),
          own,
          arith::AddIOp::create(b, offset, arith::MulIOp::create(b, thread, index(items))));
  }
  gpu::BarrierOp::create(b);
  // The non-zero counters of `counters` added to `to` at their slots (or
  // where `placeOf` puts them; -1: nowhere).
  auto flush = [&](Value counters, Value to, function_ref<Value(Value)> placeOf) {
    each(cast<MemRefType>(counters.getType()).getNumElements(), [&](Value slot) {
      Value counted = memref::LoadOp::create(b, counters, ValueRange{slot});
      ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ne, counted, noCount), [&] {
        if (!placeOf) {
          memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, counted, to,
                                      ValueRange{slot});
          return;
        }
        Value bin = placeOf(slot);
        ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::sge, bin, i32(0)), [&] {
          memref::AtomicRMWOp::create(
              b, arith::AtomicRMWKind::addi, counted, to,
              ValueRange{arith::IndexCastUIOp::create(b, b.getIndexType(), bin)});
        });
      });
    });
  };
  if (!byValue) {
    flush(local, output, nullptr);
    return;
  }
  // Slot c * 256 + v: value v of channel c, counted in the bin binAt gives
  // the sample v of channel c.
  auto binOfValue = [&](Value slot) -> Value {
    Value value = arith::TruncIOp::create(
        b, sampleType, arith::IndexCastUIOp::create(b, b.getI32Type(), slot));
    return binAt(value,
                 multi ? arith::DivUIOp::create(b, slot, index(256)).getResult() : Value());
  };
  if (!merged) {
    flush(local, output, binOfValue);
    return;
  }
  flush(local, merged, binOfValue);
  gpu::BarrierOp::create(b);
  flush(merged, output, nullptr);
}

} // namespace mlir::warp::device_ops
