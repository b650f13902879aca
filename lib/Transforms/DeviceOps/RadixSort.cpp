//===- RadixSort.cpp - device radix sorts as kernels ----------------------===//
//
// A radix sort of at most a single tile is one launch of one block that
// sorts it over every bit at once (CUB's single-tile kernel); a longer
// one is CUB's onesweep, least-significant-digit passes of 8 bits: one
// kernel clears the digit totals, one counts every pass's digits
// in a read of the keys (and clears the first pass's look-back status),
// one scans the counts into the digits' starts, then a kernel a pass of a
// block per tile takes its tile from the pass's ticket, loads it
// warp-striped, counts its digits per warp and publishes the counts, ranks
// it by the digit against the warps' offsets (CUB's early-count match
// ranking, BlockRadixRankMatchEarlyCounts), looks back per digit
// (thread d over digit d's status words of the tiles before) for where
// its keys go and scatters it to striped order by the ranks
// (warp.block_scatter), into the outputs or a scratch buffer by turns. A
// segmented radix sort is one kernel of a block per segment: a segment of
// a tile is one block sort; a longer one takes least-significant-digit
// passes within its block (count the segment's digits, scan them, then
// sort each tile by the digit with a warp.block_radix_sort pass and move
// it), by turns into the outputs and a scratch of the keys' size.
//
//===----------------------------------------------------------------------===//

#include "DeviceKernelBuilder.h"

#include "llvm/Support/SaveAndRestore.h"

namespace mlir::warp::device_ops {

void DeviceKernelBuilder::buildRadixSort(gpu::GPUModuleOp module,
                                         const RadixSortConfig &sort) {
  buildRadixSingleTile(module, sort);
  buildRadixInit(module, sort);
  buildRadixHistogram(module, sort);
  buildRadixDigitStarts(module, sort);
  for (unsigned pass = 0; pass < sort.passes(); ++pass)
    buildRadixOnesweep(module, sort, pass);
}

DeviceKernelBuilder::OnesweepScratch
DeviceKernelBuilder::onesweepScratch(const RadixSortConfig &sort) {
  OnesweepScratch views;
  views.tiles = arith::MaxUIOp::create(
      b, arith::CeilDivUIOp::create(b, n, index(sort.tileItems())), index(1));
  views.bins = scratchView(b.getI64Type(), index(0),
                           index(sort.passes() * (RadixSortConfig::kDigits + 1)));
  views.status = i64(sort.binsBytes());
  if (sort.doubleBuffer)
    return views;
  Value at = arith::AddIOp::create(
      b, index(sort.binsBytes()),
      arith::MulIOp::create(b, views.tiles, index(RadixSortConfig::kStatusBytesPerTile)));
  Value tileItems = arith::MulIOp::create(b, views.tiles, index(sort.tileItems()));
  views.buffers.keys = scratchView(sort.key, at, tileItems);
  if (sort.value) {
    at = arith::AddIOp::create(
        b, at, arith::MulIOp::create(b, tileItems, index(sort.keyBytes())));
    views.buffers.values = scratchView(sort.value, at, tileItems);
  }
  return views;
}

Value DeviceKernelBuilder::statusWord(const OnesweepScratch &views, unsigned array, Value tile,
                                      Value digit, Type wordType) {
  // Array a at status + a T S (S: an array's bytes a tile), word (t, d)
  // at t * kDigits + d of it.
  int64_t arrayBytesPerTile = RadixSortConfig::kStatusBytesPerTile / 2;
  Value arrayAt = arith::AddIOp::create(
      b, views.status,
      arith::MulIOp::create(b, toI64(views.tiles), i64(array * arrayBytesPerTile)));
  Value word = arith::AddIOp::create(
      b, arith::MulIOp::create(b, toI64(tile), i64(RadixSortConfig::kDigits)), toI64(digit));
  return scratchAt(arith::AddIOp::create(
      b, arrayAt, arith::MulIOp::create(b, word, i64(bytesOf(wordType)))));
}

Value DeviceKernelBuilder::withStatusWords(const RadixSortConfig &sort, Type type,
                                           function_ref<Value(Type)> body) {
  Value wide =
      arith::CmpIOp::create(b, arith::CmpIPredicate::uge, n, index(sort.wideStatusFrom));
  TypeRange types = type ? TypeRange(type) : TypeRange();
  auto which = scf::IfOp::create(b, types, wide, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  for (auto [block, wordType] : {std::pair{which.thenBlock(), b.getI64Type()},
                                 std::pair{which.elseBlock(), b.getI32Type()}}) {
    // Without a result the branches have their terminators already.
    if (type)
      b.setInsertionPointToEnd(block);
    else
      b.setInsertionPoint(block->getTerminator());
    Value result = body(wordType);
    if (type)
      scf::YieldOp::create(b, result);
  }
  return type ? which.getResult(0) : Value();
}

namespace {
/// A status word at its width: 0 (nothing yet), the tile's count + 1 (its
/// aggregate) or the top bit over the keys of the digit up to and
/// including the tile (its prefix, at most n < 2^(width - 1)). Flag and
/// count travel in one store, so relaxed atomics order them.
struct StatusWordCoding {
  ImplicitLocOpBuilder &b;
  Type wordType;
  unsigned width = wordType.getIntOrFloatBitWidth();

  Value constant(uint64_t value) const {
    return arith::ConstantOp::create(b, b.getIntegerAttr(wordType, value));
  }
  Value prefixFlag() const { return constant(uint64_t(1) << (width - 1)); }
  /// An i64 count as a word's count, and back.
  Value narrow(Value count) const {
    return width == 64 ? count : arith::TruncIOp::create(b, wordType, count);
  }
  Value widen(Value word) const {
    return width == 64 ? word
                       : arith::ExtUIOp::create(b, b.getI64Type(), word);
  }
  Value prefix(Value keys) const {
    return arith::OrIOp::create(b, prefixFlag(), narrow(keys));
  }
};
} // namespace

void DeviceKernelBuilder::storeStatusWord(const OnesweepScratch &views, unsigned array,
                                          Value tile, Value word) {
  unsigned width = word.getType().getIntOrFloatBitWidth();
  LLVM::StoreOp::create(b, word, statusWord(views, array, tile, thread, word.getType()),
                        width / 8, /*isVolatile=*/false, false, false,
                        LLVM::AtomicOrdering::monotonic, "device");
}

void DeviceKernelBuilder::publishDigitCount(const RadixSortConfig &sort,
                                            const OnesweepScratch &views, unsigned array,
                                            Value tile, Value count) {
  withStatusWords(sort, Type(), [&](Type wordType) -> Value {
    StatusWordCoding coding{b, wordType};
    // Tile 0's count is its prefix; a later tile's an aggregate until its
    // look-back ends.
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile, index(0));
    storeStatusWord(views, array, tile,
                    arith::SelectOp::create(
                        b, first, coding.prefix(count),
                        arith::AddIOp::create(b, coding.narrow(count), coding.constant(1))));
    return Value();
  });
}

Value DeviceKernelBuilder::lookBackDigit(const RadixSortConfig &sort,
                                         const OnesweepScratch &views, unsigned array,
                                         Value tile, Value count) {
  Type i64Type = b.getI64Type(), i1Type = b.getI1Type();
  return withStatusWords(sort, i64Type, [&](Type wordType) -> Value {
    StatusWordCoding coding{b, wordType};
    unsigned width = coding.width;
    Value prefixFlag = coding.prefixFlag();
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile, index(0));
    Value sum = ifElse(first, i64Type, [&] { return i64(0); }, [&]() -> Value {
      // (tile looked at, keys so far, whether a prefix ended it)
      SmallVector<Type> carried{b.getIndexType(), i64Type, i1Type};
      SmallVector<Location> locations(carried.size(), b.getLoc());
      auto loop = scf::WhileOp::create(
          b, carried,
          ValueRange{arith::SubIOp::create(b, tile, index(1)), i64(0),
                     arith::ConstantIntOp::create(b, 0, 1)});
      OpBuilder::InsertionGuard guard(b);
      Block *check = b.createBlock(&loop.getBefore(), {}, carried, locations);
      scf::ConditionOp::create(b, negate(check->getArgument(2)), check->getArguments());
      Block *step = b.createBlock(&loop.getAfter(), {}, carried, locations);
      Value at = step->getArgument(0), keys = step->getArgument(1);
      // The words of the window's tiles at, at - 1, ... (tile 0's where
      // the window passes it: tile 0 holds a prefix, which ends the walk
      // first), loaded at once, so that a walk past aggregates waits for
      // one load a window rather than a load a tile.
      int64_t window = DeviceTiling::radixLookBackWindow(bool(sort.value));
      SmallVector<Value> words;
      for (int64_t j = 0; j < window; ++j) {
        Value there = j == 0 ? at
                             : arith::SubIOp::create(
                                   b, at, arith::MinUIOp::create(b, at, index(j)));
        words.push_back(LLVM::LoadOp::create(
            b, wordType, statusWord(views, array, there, thread, wordType), width / 8,
            /*isVolatile=*/false, false, false, false, LLVM::AtomicOrdering::monotonic,
            "device"));
      }
      // In order: a word adds its keys (the prefix's below the flag, or
      // the aggregate less one) while no earlier one was empty or a
      // prefix; an empty one stops the window there (it is polled again),
      // a prefix ends the walk.
      Value walking = arith::ConstantIntOp::create(b, 1, 1);
      Value ended = arith::ConstantIntOp::create(b, 0, 1);
      Value added = i64(0), passed = index(0);
      for (Value word : words) {
        Value none =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, word, coding.constant(0));
        Value hasPrefix = arith::CmpIOp::create(
            b, arith::CmpIPredicate::ne, arith::AndIOp::create(b, word, prefixFlag),
            coding.constant(0));
        Value keysThere = arith::SelectOp::create(
            b, hasPrefix, arith::XOrIOp::create(b, word, prefixFlag),
            arith::SubIOp::create(b, word, coding.constant(1)));
        Value takes = arith::AndIOp::create(b, walking, negate(none));
        added = arith::AddIOp::create(
            b, added, arith::SelectOp::create(b, takes, coding.widen(keysThere), i64(0)));
        passed = arith::AddIOp::create(
            b, passed, arith::SelectOp::create(b, takes, index(1), index(0)));
        ended = arith::OrIOp::create(b, ended, arith::AndIOp::create(b, takes, hasPrefix));
        walking = arith::AndIOp::create(b, takes, negate(hasPrefix));
      }
      // Nothing yet at the window's first tile: wait before polling again.
      ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, passed, index(0)),
             [&] { NVVM::NanosleepOp::create(b, i32(DeviceTiling::kLookBackPollNs)); });
      scf::YieldOp::create(b, ValueRange{arith::SubIOp::create(b, at, passed),
                                         arith::AddIOp::create(b, keys, added), ended});
      b.setInsertionPointAfter(loop);
      return loop.getResult(1);
    });
    ifThen(negate(first), [&] {
      storeStatusWord(views, array, tile,
                      coding.prefix(arith::AddIOp::create(b, sum, count)));
    });
    return sum;
  });
}

void DeviceKernelBuilder::clearStatus(const RadixSortConfig &sort,
                                      const OnesweepScratch &views, unsigned array,
                                      Value tile) {
  withStatusWords(sort, Type(), [&](Type wordType) -> Value {
    LLVM::StoreOp::create(b, arith::ConstantOp::create(b, b.getZeroAttr(wordType)),
                          statusWord(views, array, tile, thread, wordType),
                          bytesOf(wordType));
    return Value();
  });
}

void DeviceKernelBuilder::buildRadixInit(gpu::GPUModuleOp module, const RadixSortConfig &sort) {
  static_assert(DeviceTiling::kThreads == RadixSortConfig::kDigits,
                "onesweep's kernels take a digit a thread");
  // One block clears the digit totals, which the histogram adds to, and
  // the passes' tile tickets.
  startKernel(module, "radix_init", std::nullopt);
  OnesweepScratch views = onesweepScratch(sort);
  for (unsigned pass = 0; pass < sort.passes(); ++pass)
    memref::StoreOp::create(
        b, i64(0), views.bins,
        ValueRange{arith::AddIOp::create(b, thread, index(pass * RadixSortConfig::kDigits))});
  ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(sort.passes())), [&] {
    memref::StoreOp::create(
        b, i64(0), views.bins,
        ValueRange{arith::AddIOp::create(b, thread, index(sort.ticketElement(0)))});
  });
}

void DeviceKernelBuilder::buildRadixSingleTile(gpu::GPUModuleOp module,
                                               const RadixSortConfig &sort) {
  RadixSortConfig whole = sort;
  whole.tiles = RadixSortConfig::Tiles::Whole;
  gpu::GPUFuncOp kernel = startKernel(module, "radix_sort_single_tile", std::nullopt);
  setAlone(kernel, whole.tileItems());
  // From the inputs into the buffers the last pass would write (the
  // outputs, or with doubleBuffer maybe the inputs), loaded blocked (16
  // bytes at once where aligned), which needs no exchange buffer beside
  // the sort's (DeviceTiling::kRadixSortSingleTileBytesPerThread).
  sortWholeTile(whole, index(0), radixBuffers(sort, {}, -1),
                radixBuffers(sort, {}, int(sort.passes()) - 1), BlockMemoryAlgorithm::Vectorize);
}

void DeviceKernelBuilder::buildRadixHistogram(gpu::GPUModuleOp module,
                                              const RadixSortConfig &sort) {
  int64_t tileItems = sort.tileItems(), digits = RadixSortConfig::kDigits;
  gpu::GPUFuncOp kernel = startKernel(module, "radix_histogram", tileItems);
  int64_t most = sort.histogramMaxBlocks;
  kernel->setAttr(kGridMaxAttrName, b.getI64IntegerAttr(most));
  OnesweepScratch views = onesweepScratch(sort);
  Value counts = workgroupArray(kernel, sort.passes() * digits, b.getI32Type());
  // Block k of G counts tiles [k T / G, (k + 1) T / G).
  Value block = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  Value blocks = arith::MinUIOp::create(b, views.tiles, index(most));
  auto tileAt = [&](Value k) {
    return arith::MulIOp::create(
        b, arith::DivUIOp::create(b, arith::MulIOp::create(b, k, views.tiles), blocks),
        index(tileItems));
  };
  Value first = tileAt(block);
  Value last = tileAt(arith::AddIOp::create(b, block, index(1)));
  auto counter = [&](unsigned pass) {
    return arith::AddIOp::create(b, thread, index(pass * digits));
  };
  for (unsigned pass = 0; pass < sort.passes(); ++pass)
    memref::StoreOp::create(b, i32(0), counts, ValueRange{counter(pass)});
  gpu::BarrierOp::create(b);
  {
    auto loop = scf::ForOp::create(b, first, last, index(tileItems));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value offset = loop.getInductionVar();
    // Warp-striped: coalesced without an exchange (the counts do not
    // depend on the order).
    Value keys =
        loadRadixTile(sort, {operands[0], Value()}, offset, /*warpStriped=*/true).first;
    Value valid = validItems(offset, tileItems);
    wholeOrPartialTile(offset, tileItems, [&](bool whole) {
      for (unsigned pass = 0; pass < sort.passes(); ++pass)
        countRadixDigits(sort, keys, whole ? Value() : valid, counts, sort.shift(pass),
                         sort.bits(pass), Arrangement::WarpStriped, pass * digits);
    });
    // The first pass's status of the tile starts clear.
    clearStatus(sort, views, 0, arith::DivUIOp::create(b, offset, index(tileItems)));
  }
  gpu::BarrierOp::create(b);
  for (unsigned pass = 0; pass < sort.passes(); ++pass) {
    Value count = memref::LoadOp::create(b, counts, ValueRange{counter(pass)});
    ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ne, count, i32(0)), [&] {
      memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi,
                                  arith::ExtUIOp::create(b, b.getI64Type(), count), views.bins,
                                  ValueRange{counter(pass)});
    });
  }
}

void DeviceKernelBuilder::buildRadixDigitStarts(gpu::GPUModuleOp module,
                                                const RadixSortConfig &sort) {
  startKernel(module, "radix_digit_starts", std::nullopt);
  OnesweepScratch views = onesweepScratch(sort);
  for (unsigned pass = 0; pass < sort.passes(); ++pass) {
    Value at = arith::AddIOp::create(b, thread, index(pass * RadixSortConfig::kDigits));
    Value start = exclusiveBlockSum(memref::LoadOp::create(b, views.bins, ValueRange{at}));
    memref::StoreOp::create(b, start, views.bins, ValueRange{at});
    // The next pass's scan reuses the scan's workgroup memory.
    gpu::BarrierOp::create(b);
  }
}

void DeviceKernelBuilder::buildRadixOnesweep(gpu::GPUModuleOp module,
                                             const RadixSortConfig &sort, unsigned pass) {
  int64_t tileItems = sort.tileItems();
  unsigned shift = sort.shift(pass), bits = sort.bits(pass);
  int64_t radix = int64_t(1) << bits;
  gpu::GPUFuncOp kernel =
      startKernel(module, ("radix_onesweep_" + Twine(pass)).str(), tileItems);
  kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(DeviceTiling::kRadixSortMinBlocksPerSM));
  OnesweepScratch views = onesweepScratch(sort);
  std::pair<Value, Value> source = radixBuffers(sort, views.buffers, int(pass) - 1);
  std::pair<Value, Value> dest = radixBuffers(sort, views.buffers, int(pass));
  // Where digit d's keys go in the output less their ranks.
  Value bases = workgroupArray(kernel, radix, b.getI64Type());
  Value inRadix = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(radix));
  // The tile: the pass's next ticket, taken when the block starts (as
  // CUB's onesweep does), so that every tile a look-back waits for has
  // started, whatever order the blocks start in.
  Value ticket = workgroupArray(kernel, 1, b.getI64Type());
  ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, index(0)), [&] {
    Value taken = memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, i64(1), views.bins,
                                              ValueRange{index(sort.ticketElement(pass))});
    memref::StoreOp::create(b, taken, ticket, ValueRange{index(0)});
  });
  gpu::BarrierOp::create(b);
  Value tile = arith::IndexCastOp::create(
      b, b.getIndexType(), memref::LoadOp::create(b, ticket, ValueRange{index(0)}));
  Value offset = arith::MulIOp::create(b, tile, index(tileItems));
  Value keys, values;
  std::tie(keys, values) = loadRadixTile(sort, source, offset, /*warpStriped=*/true);
  Value valid = validItems(offset, tileItems);
  // Where digit d's keys start in the output: the keys of the smaller
  // digits (radix_digit_starts').
  Value digitStart = loadI64If(
      inRadix, views.bins, arith::AddIOp::create(b, thread, index(pass * RadixSortConfig::kDigits)));
  // The tile ranked with CUB's early counts: its keys per digit, counted
  // first, are published at once, so that the successors' look-backs add
  // them up while this tile ranks its keys; this tile's own look-back
  // comes after its ranking (before the scatter, CUB's onesweep's order:
  // a successor waits for this tile's prefix, not for its exchange), when
  // its predecessors have more likely published their prefixes.
  Value whole = isWholeTile(offset, tileItems);
  RankedTile ranked = rankRadixTile(
      sort, shift, bits, keys, values, valid, whole,
      [&](Value count) {
        ifThen(inRadix, [&] {
          // The next pass's status array, used by the pass before,
          // starts clear.
          if (pass + 1 < sort.passes())
            clearStatus(sort, views, (pass + 1) % 2, tile);
          publishDigitCount(sort, views, pass % 2, tile, count);
        });
      },
      [&](Value start, Value count) {
        ifThen(inRadix, [&] {
          Value before = lookBackDigit(sort, views, pass % 2, tile, count);
          // A key of digit d at rank r of the tile goes to base[d] + r.
          Value base =
              arith::SubIOp::create(b, arith::AddIOp::create(b, digitStart, before), start);
          memref::StoreOp::create(b, base, bases, ValueRange{thread});
        });
      });
  // The bases are visible after a barrier (the scatter's own are not
  // promised to every thread).
  gpu::BarrierOp::create(b);
  wholeOrPartialTile(offset, tileItems, [&](bool whole) {
    storeSortedTile(sort, ranked.images, ranked.values, whole ? Value() : valid, dest.first,
                    dest.second, placeByBase(bases, shift, bits));
  });
}

Value DeviceKernelBuilder::radixTileImages(const RadixSortConfig &sort, Value keys,
                                           Value valid, Arrangement arrangement) {
  auto keysType = cast<VectorType>(keys.getType());
  int64_t items = keysType.getNumElements();
  auto imageType = b.getIntegerType(sort.key.getIntOrFloatBitWidth());
  Value padding = arith::ConstantOp::create(
      b, b.getIntegerAttr(imageType, llvm::maskTrailingOnes<uint64_t>(imageType.getWidth())));
  BlockPositions positions(b, b.getLoc(), b.getInsertionBlock()->getParentOp(), items);
  SmallVector<Value> images;
  for (int64_t j = 0; j < items; ++j) {
    Value image = buildRadixImage(b, b.getLoc(), vector::ExtractOp::create(b, keys, j),
                                  sort.isSigned, sort.descending);
    if (valid)
      image = arith::SelectOp::create(b, tileItemInside(positions, j, arrangement, valid),
                                      image, padding);
    images.push_back(image);
  }
  return vector::FromElementsOp::create(b, VectorType::get({items}, imageType), images);
}

void DeviceKernelBuilder::countRadixDigits(const RadixSortConfig &sort, Value keys,
                                           Value valid, Value counts, unsigned shift,
                                           unsigned bits, Arrangement arrangement,
                                           int64_t firstCounter) {
  int64_t items = cast<VectorType>(keys.getType()).getNumElements();
  BlockPositions positions(b, b.getLoc(), b.getInsertionBlock()->getParentOp(), items);
  for (int64_t j = 0; j < items; ++j) {
    Value inside = valid ? tileItemInside(positions, j, arrangement, valid) : Value();
    ifInside(inside, [&] {
      Value image = buildRadixImage(b, b.getLoc(), vector::ExtractOp::create(b, keys, j),
                                    sort.isSigned, sort.descending);
      Value counter = radixDigit(image, shift, bits);
      if (firstCounter)
        counter = arith::AddIOp::create(b, counter, index(firstCounter));
      memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, i32(1), counts,
                                  ValueRange{counter});
    });
  }
}

BlockRadixSortOp DeviceKernelBuilder::sortRadixTile(const RadixSortConfig &sort, Value keys,
                                                    Value values, Value valid,
                                                    unsigned begin, unsigned end) {
  Value images = radixTileImages(sort, keys, valid);
  auto sorted = BlockRadixSortOp::create(
      b, TypeRange{images.getType()}, values ? values.getType() : Type(), ValueRange{images},
      values, /*descending=*/false,
      /*is_signed=*/false, b.getI32IntegerAttr(begin), b.getI32IntegerAttr(end),
      /*striped=*/true, IntegerAttr(), /*ranking=*/nullptr);
  // A pass's digit in one counting pass (DeviceTiling::kRadixSortTileRanking)
  // where that ranking can run; wider ranges (a whole short segment) are
  // left to the compiler's choice.
  if (end - begin <= unsigned(DeviceTiling::kRadixSortPassBits) &&
      canRankByMatch(sorted, sorted.getItemsPerThread())) {
    sorted.setRadixBitsAttr(b.getI32IntegerAttr(end - begin));
    sorted.setRankingAttr(
        RadixRankAlgorithmAttr::get(b.getContext(), DeviceTiling::kRadixSortTileRanking));
  }
  return sorted;
}

void DeviceKernelBuilder::storeSortedTile(const RadixSortConfig &sort, Value images,
                                          Value values, Value valid, Value destKeys,
                                          Value destValues,
                                          function_ref<Value(Value, Value)> placeOf) {
  int64_t items = cast<VectorType>(images.getType()).getNumElements();
  for (int64_t j = 0; j < items; ++j) {
    Value rank = arith::AddIOp::create(b, thread, index(j * DeviceTiling::kThreads));
    Value inside =
        valid ? arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                      arith::IndexCastOp::create(b, b.getI32Type(), rank), valid)
                    .getResult()
              : Value();
    ifInside(inside, [&] {
      Value image = vector::ExtractOp::create(b, images, j);
      Value at = placeOf(image, rank);
      memref::StoreOp::create(b,
                              buildRadixKey(b, b.getLoc(), image, sort.key, sort.isSigned,
                                            sort.descending),
                              destKeys, ValueRange{at});
      if (values)
        memref::StoreOp::create(b, vector::ExtractOp::create(b, values, j), destValues,
                                ValueRange{at});
    });
  }
}

void DeviceKernelBuilder::sortWholeTile(const RadixSortConfig &sort, Value first,
                                        std::pair<Value, Value> source,
                                        std::pair<Value, Value> dest,
                                        std::optional<BlockMemoryAlgorithm> load) {
  auto [keys, values] = loadRadixTile(sort, source, first, /*warpStriped=*/false, load);
  Value valid = validItems(first, sort.tileItems());
  BlockRadixSortOp sorted = sortRadixTile(sort, keys, values, valid, sort.begin, sort.end);
  storeSortedTile(sort, sorted.getSortedKeys().front(), sorted.getSortedValues(), valid,
                  dest.first, dest.second,
                  [&](Value, Value rank) { return arith::AddIOp::create(b, first, rank); });
}

void DeviceKernelBuilder::buildSegmentedRadixSort(gpu::GPUModuleOp module,
                                                  const RadixSortConfig &sort) {
  // A block per segment (an offset of begin, operand 2), at most the cap,
  // grid-strided.
  gpu::GPUFuncOp kernel = startKernel(module, "segmented_radix_sort", 1);
  kernel->setAttr(kGridOperandAttrName, b.getI64IntegerAttr(2));
  kernel->setAttr(kGridMaxAttrName,
                  b.getI64IntegerAttr(DeviceTiling::kSegmentedReduceMaxBlocks));
  Value keysIn = operands[0], keysOut = operands[1];
  Value begins = operands[2], ends = operands[3];
  Value valuesIn = sort.value ? operands[4] : Value();
  Value valuesOut = sort.value ? operands[5] : Value();
  // The buffers the long segments' passes alternate with, at the
  // positions of the keys: the scratch's, or with doubleBuffer the inputs.
  Value scratchKeys = keysIn, scratchValues = valuesIn;
  if (!sort.doubleBuffer)
    scratchKeys = scratchView(sort.key, index(0), n);
  if (sort.value && !sort.doubleBuffer) {
    Value keyBytes = arith::MulIOp::create(b, n, index(sort.keyBytes()));
    Value at = arith::MulIOp::create(b, arith::CeilDivUIOp::create(b, keyBytes, index(8)),
                                     index(8));
    scratchValues = scratchView(sort.value, at, n);
  }
  Value counts = workgroupArray(kernel, RadixSortConfig::kDigits, b.getI32Type());
  RadixTileMemory memory = radixTileMemory(kernel, RadixSortConfig::kDigits);
  OpBuilder::InsertionGuard guard(b);
  Segment segment = enterSegments(begins, ends, memref::DimOp::create(b, begins, 0));
  Value first = segment.first, last = segment.last;
  // The tiles' loads and valid keys end at the segment's end.
  llvm::SaveAndRestore<Value> bound(n, last);
  ifThen(segment.nonEmpty, [&] {
    Value length = arith::SubIOp::create(b, last, first);
    Value small =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ule, length, index(sort.tileItems()));
    auto paths = scf::IfOp::create(b, small, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard inner(b);
    // A segment of one tile: one block sort over every bit, written in
    // place, into the buffer that holds the result (with doubleBuffer
    // maybe the inputs: the block has read its whole tile before the
    // sort's first barrier).
    b.setInsertionPoint(paths.thenBlock()->getTerminator());
    std::pair<Value, Value> inputs{keysIn, valuesIn};
    sortWholeTile(sort, first, inputs,
                  sort.resultBuffer() == 1 ? std::pair<Value, Value>{keysOut, valuesOut} : inputs);
    // A longer one: passes from the inputs, by turns into the outputs and
    // the scratch (or the inputs), the last into the result's buffer.
    b.setInsertionPoint(paths.elseBlock()->getTerminator());
    std::pair<Value, Value> source{keysIn, valuesIn};
    for (unsigned pass = 0; pass < sort.passes(); ++pass) {
      std::pair<Value, Value> dest = sort.writesOutputs(pass)
                                         ? std::pair<Value, Value>{keysOut, valuesOut}
                                         : std::pair<Value, Value>{scratchKeys, scratchValues};
      sortSegmentPass(sort, pass, first, last, source, dest, counts, memory);
      source = dest;
    }
  });
}

DeviceKernelBuilder::RadixTileMemory
DeviceKernelBuilder::radixTileMemory(gpu::GPUFuncOp kernel, int64_t digits) {
  return {workgroupArray(kernel, digits, b.getI32Type()),
          workgroupArray(kernel, digits, b.getI64Type())};
}

Value DeviceKernelBuilder::countDigits(unsigned bits, Value counts,
                                       function_ref<void()> count) {
  Value inRadix =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(int64_t(1) << bits));
  ifThen(inRadix, [&] { memref::StoreOp::create(b, i32(0), counts, ValueRange{thread}); });
  gpu::BarrierOp::create(b);
  count();
  gpu::BarrierOp::create(b);
  return loadI64If(inRadix, counts, thread);
}

Value DeviceKernelBuilder::countRadixTiles(const RadixSortConfig &sort, unsigned shift,
                                           unsigned bits, Value source, Value first,
                                           Value last, Value counts) {
  int64_t tileItems = sort.tileItems();
  return countDigits(bits, counts, [&] {
    auto loop = scf::ForOp::create(b, first, last, index(tileItems));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value offset = loop.getInductionVar();
    // Warp-striped: coalesced without an exchange (the counts do not
    // depend on the order).
    Value keys = loadRadixTile(sort, {source, Value()}, offset, /*warpStriped=*/true).first;
    countRadixDigits(sort, keys, validItems(offset, tileItems), counts, shift, bits,
                     Arrangement::WarpStriped);
  });
}

DeviceKernelBuilder::RankedTile
DeviceKernelBuilder::rankRadixTile(const RadixSortConfig &sort, unsigned shift, unsigned bits,
                                   Value keys, Value values, Value valid, Value whole,
                                   function_ref<void(Value)> counted,
                                   function_ref<void(Value, Value)> beforeScatter) {
  int64_t items = cast<VectorType>(keys.getType()).getNumElements();
  int64_t radix = int64_t(1) << bits;
  Value inRadix = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(radix));
  // The images: the padding past `valid` has the largest digit and ranks
  // after every key (the keys hold the ranks below `valid`).
  auto imagesType =
      VectorType::get({items}, b.getIntegerType(sort.key.getIntOrFloatBitWidth()));
  Value images = ifElse(
      whole, imagesType,
      [&] { return radixTileImages(sort, keys, Value(), Arrangement::WarpStriped); },
      [&] { return radixTileImages(sort, keys, valid, Arrangement::WarpStriped); });
  // CUB's BlockRadixRankMatchEarlyCounts over warp-striped items, with
  // its counts callback: warp.block_radix_rank ranking = <match_early>,
  // whose counts region hands thread d's count of digit d to `counted`
  // before the ranking (the padding counts as the last digit's), and
  // whose digit prefix gives thread d the tile's keys of the smaller
  // digits.
  auto binType = VectorType::get({1}, b.getI32Type());
  // The count leaves the region through the thread's own slot.
  Value countSlot = memref::AllocaOp::create(b, MemRefType::get({}, b.getI64Type()));
  auto rank = BlockRadixRankOp::create(
      b, VectorType::get({items}, b.getI32Type()), binType, images,
      /*descending=*/false, /*is_signed=*/false, b.getI32IntegerAttr(shift),
      b.getI32IntegerAttr(shift + bits), /*radix_bits=*/IntegerAttr(),
      /*warp_striped=*/true,
      RadixRankAlgorithmAttr::get(b.getContext(), RadixRankAlgorithm::MatchEarlyCounts));
  {
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&rank.getCounts(), {}, {binType}, {rank.getLoc()});
    Value total = vector::ExtractOp::create(b, block->getArgument(0), int64_t(0));
    Value padding = arith::SubIOp::create(b, i32(sort.tileItems()), valid);
    Value last = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, index(radix - 1));
    Value count = arith::ExtUIOp::create(
        b, b.getI64Type(),
        arith::SelectOp::create(b, last, arith::SubIOp::create(b, total, padding), total));
    memref::StoreOp::create(b, count, countSlot, ValueRange{});
    counted(count);
    YieldOp::create(b, ValueRange{});
  }
  Value count = memref::LoadOp::create(b, countSlot, ValueRange{});
  Value rankVector = rank.getRanks();
  Value tileStart = vector::ExtractOp::create(b, rank.getExclusiveDigitPrefix(), int64_t(0));
  Value start = arith::SelectOp::create(
      b, inRadix, arith::ExtUIOp::create(b, b.getI64Type(), tileStart), i64(0));
  beforeScatter(start, count);
  // The scatter moves items as 32- or 64-bit integers (narrower ones as
  // their bits zero-extended to i32), so that keys and values as wide
  // share one exchange buffer (DeviceTiling::radixSortItemsPerThread).
  auto scatter = [&](Value items) -> Value {
    auto type = cast<VectorType>(items.getType());
    unsigned width = type.getElementType().getIntOrFloatBitWidth();
    auto bitsType = VectorType::get(type.getShape(), b.getIntegerType(width));
    auto movedType = VectorType::get(type.getShape(), b.getIntegerType(std::max(width, 32u)));
    Value moved = type == bitsType ? items : arith::BitcastOp::create(b, bitsType, items);
    if (movedType != bitsType)
      moved = arith::ExtUIOp::create(b, movedType, moved);
    Value scattered = BlockScatterOp::create(b, movedType, moved, rankVector,
                                             /*flags=*/Value(), /*striped=*/true);
    if (movedType != bitsType)
      scattered = arith::TruncIOp::create(b, bitsType, scattered);
    return type == bitsType ? scattered : arith::BitcastOp::create(b, type, scattered);
  };
  return {scatter(images), values ? scatter(values) : Value(), start};
}

void DeviceKernelBuilder::moveRadixTiles(const RadixSortConfig &sort, unsigned shift,
                                         unsigned bits, std::pair<Value, Value> source,
                                         std::pair<Value, Value> dest, Value first, Value last,
                                         Value start, const RadixTileMemory &memory) {
  int64_t tileItems = sort.tileItems();
  int64_t radix = int64_t(1) << bits;
  Value inRadix = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(radix));
  auto loop = scf::ForOp::create(b, first, last, index(tileItems), ValueRange{start});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value offset = loop.getInductionVar();
  Value keys, values;
  std::tie(keys, values) = loadRadixTile(sort, source, offset, /*warpStriped=*/false);
  Value valid = validItems(offset, tileItems);
  // Thread d carries digit d's start past the tiles before.
  Value running = loop.getRegionIterArgs().front();
  // The tile's keys per digit counted (thread d's count of digit d, i64;
  // 0 past the radix), and of the smaller digits.
  Value tileCount = countDigits(bits, memory.counts, [&] {
    countRadixDigits(sort, keys, valid, memory.counts, shift, bits);
  });
  Value tileStart = exclusiveBlockSum(tileCount);
  ifThen(inRadix, [&] {
    memref::StoreOp::create(b, arith::SubIOp::create(b, running, tileStart), memory.bases,
                            ValueRange{thread});
  });
  // The tile in rank order, striped (a digit's keys land in consecutive
  // threads, so that its stores coalesce).
  auto sorted = sortRadixTile(sort, keys, values, valid, shift, shift + bits);
  // The bases are in workgroup memory (the sort may hold no barrier that
  // every thread passes after their stores).
  gpu::BarrierOp::create(b);
  storeSortedTile(sort, sorted.getSortedKeys().front(), sorted.getSortedValues(), valid,
                  dest.first, dest.second, placeByBase(memory.bases, shift, bits));
  // The next tile rewrites the counts, starts and bases.
  gpu::BarrierOp::create(b);
  scf::YieldOp::create(b, ValueRange{arith::AddIOp::create(b, running, tileCount)});
}

void DeviceKernelBuilder::sortSegmentPass(const RadixSortConfig &sort, unsigned pass,
                                          Value first, Value last,
                                          std::pair<Value, Value> source,
                                          std::pair<Value, Value> dest, Value counts,
                                          const RadixTileMemory &memory) {
  unsigned shift = sort.shift(pass), bits = sort.bits(pass);
  // The segment's keys per digit, then where each digit's start (the
  // segment's first position plus its keys of the smaller digits). The
  // barrier first: the previous pass's readers of the counters and its
  // writes to `source` are done.
  gpu::BarrierOp::create(b);
  Value count = countRadixTiles(sort, shift, bits, source.first, first, last, counts);
  Value start = arith::AddIOp::create(
      b, exclusiveBlockSum(count), arith::IndexCastOp::create(b, b.getI64Type(), first));
  moveRadixTiles(sort, shift, bits, source, dest, first, last, start, memory);
}

} // namespace mlir::warp::device_ops
