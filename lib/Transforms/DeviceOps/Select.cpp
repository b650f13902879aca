//===- Select.cpp - device selections as kernels --------------------------===//
//
// A selection is a scan of the tile's kept counts (Scan.cpp's look-back),
// then each kept element written at its count; a run-length encoding also
// stages its heads' positions to write each run's length within its first
// tile, and a light kernel after it adds the lengths of runs that go on
// into later tiles; non-trivial runs keep the heads that are not also
// ends, write each end at its run's rank, and a light kernel after it
// turns the ends into lengths.
//
//===----------------------------------------------------------------------===//

#include "DeviceKernelBuilder.h"

namespace mlir::warp::device_ops {

Value DeviceKernelBuilder::flaggedKeeps(Value flags, Value offset, int64_t items) {
  Value flagItems = loadTile(flags, arith::ConstantIntOp::create(b, 0, 8), offset,
                             items, 1, std::nullopt);
  auto flagsType = cast<VectorType>(flagItems.getType());
  return arith::CmpIOp::create(
      b, arith::CmpIPredicate::ne, flagItems,
      arith::ConstantOp::create(b, DenseElementsAttr::get(flagsType, b.getI8IntegerAttr(0))));
}

Value DeviceKernelBuilder::runHeads(Value source, Value values, Value offset,
                                    int64_t items, Value *tails, Region *equal) {
  Type data = cast<VectorType>(values.getType()).getElementType();
  // `a` and `b` (the earlier first) differ by the type's ==: integers bit
  // for bit, floats unless ordered and equal (a NaN differs from
  // everything); or unless the equal region holds for them.
  auto differs = [&](Value lhs, Value rhs) -> Value {
    if (equal)
      return negate(combineTuples(*equal, lhs, rhs).front());
    if (isa<FloatType>(data))
      return arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, lhs, rhs);
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ne, lhs, rhs);
  };
  // The element before the thread's first: the previous thread's last, or
  // for thread 0 the one before the tile (none before element 0).
  Value last = vector::ExtractOp::create(b, values, items - 1);
  auto shuffle = BlockShuffleOp::create(b, data, b.getI1Type(), BlockShuffleMode::Offset,
                                        last, i32(-1), /*tile=*/nullptr);
  Value atStart = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, offset, index(0));
  Value before = ifElse(
      arith::OrIOp::create(b, shuffle.getValid(), atStart), data,
      [&] { return shuffle.getResult(); },
      [&] {
        return memref::LoadOp::create(b, source,
                                      ValueRange{arith::SubIOp::create(b, offset, index(1))})
            .getResult();
      });
  Value first = toI64(arith::AddIOp::create(b, offset,
                                            arith::MulIOp::create(b, thread, index(items))));
  Value firstOfAll = arith::AndIOp::create(b, atStart, isThreadZero());
  // The element after the thread's last, for the tails: the next thread's
  // first, or for the last thread the one after the tile (none after
  // element n - 1, which ends a run anyway).
  Value after;
  if (tails) {
    auto next = BlockShuffleOp::create(b, data, b.getI1Type(), BlockShuffleMode::Offset,
                                       vector::ExtractOp::create(b, values, 0), i32(1),
                                       /*tile=*/nullptr);
    Value tileEnd = arith::AddIOp::create(b, offset, index(items * DeviceTiling::kThreads));
    Value fromMemory = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tileEnd, n),
        arith::XOrIOp::create(b, next.getValid(), arith::ConstantIntOp::create(b, 1, 1)));
    after = ifElse(
        fromMemory, data,
        [&] { return memref::LoadOp::create(b, source, ValueRange{tileEnd}).getResult(); },
        [&] { return next.getResult(); });
  }
  Value last64 = arith::SubIOp::create(b, toI64(n), i64(1));
  SmallVector<Value> keeps, ends;
  Value previous = before;
  for (int64_t j = 0; j < items; ++j) {
    Value value = vector::ExtractOp::create(b, values, j);
    Value keep = differs(previous, value);
    if (j == 0)
      keep = arith::OrIOp::create(b, keep, firstOfAll);
    Value position = arith::AddIOp::create(b, first, i64(j));
    Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, position, toI64(n));
    keeps.push_back(arith::AndIOp::create(b, keep, inside));
    if (tails) {
      Value following = j + 1 < items ? vector::ExtractOp::create(b, values, j + 1) : after;
      Value end = arith::OrIOp::create(
          b, differs(value, following),
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, position, last64));
      ends.push_back(arith::AndIOp::create(b, end, inside));
    }
    previous = value;
  }
  auto flagsType = VectorType::get({items}, b.getI1Type());
  if (tails)
    *tails = vector::FromElementsOp::create(b, flagsType, ends);
  return vector::FromElementsOp::create(b, flagsType, keeps);
}

Value DeviceKernelBuilder::predicateKeeps(Value values, Value offset, int64_t items) {
  Type i1Type = b.getI1Type();
  auto keepsType = VectorType::get({items}, i1Type);
  Value first = arith::AddIOp::create(b, offset,
                                      arith::MulIOp::create(b, thread, index(items)));
  auto keepsOf = [&](bool checked) -> Value {
    SmallVector<Value> keeps;
    for (int64_t j = 0; j < items; ++j) {
      Value value = vector::ExtractOp::create(b, values, j);
      auto holds = [&]() -> Value {
        return inlineRegion(b, *predicate, value).front();
      };
      if (!checked) {
        keeps.push_back(holds());
        continue;
      }
      Value inside = arith::CmpIOp::create(
          b, arith::CmpIPredicate::ult, arith::AddIOp::create(b, first, index(j)), n);
      keeps.push_back(ifElse(inside, i1Type, holds, [&]() -> Value {
        return arith::ConstantIntOp::create(b, 0, 1);
      }));
    }
    return vector::FromElementsOp::create(b, keepsType, keeps);
  };
  // A whole tile runs the predicate on every item; the last, partial one
  // only on the items that exist (the padding is no element of the input).
  Value end = arith::AddIOp::create(b, offset, index(tileItemCount()));
  Value whole = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, end, n);
  return ifElse(whole, keepsType, [&] { return keepsOf(false); },
                [&] { return keepsOf(true); });
}

void DeviceKernelBuilder::buildSelect(gpu::GPUModuleOp module, Selection selection) {
  assert(tileBytes == selectionTileBytes(selection, dataBytes) &&
         "the tiles of setTileBytes(selectionTileBytes(...))");
  int64_t items = tileItemsPerThread();
  int64_t tileItems = tileItemCount();
  bool partition = selection == Selection::Partition;
  bool runs = selection == Selection::RunLengths;
  bool nonTrivial = selection == Selection::NonTrivialRuns;
  bool positions = stagesPositions(selection);
  // A run-length encoding keeps what unique keeps: each run's head; the
  // non-trivial runs the heads that are not also ends.
  bool unique = selection == Selection::Unique || positions;
  gpu::GPUFuncOp kernel = startKernel(module,
                                      partition    ? "partition"
                                      : runs       ? "run_length_encode"
                                      : nonTrivial ? "non_trivial_runs"
                                      : unique     ? "unique"
                                                   : "select",
                                      tileItems);
  if (int64_t blocks = selectionMinBlocksPerSM(selection, tileBytes))
    kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    b.getI32IntegerAttr(blocks));
  // (input, flags, output, count), unique's and a predicate's (input,
  // output, count), a run-length encoding's (input, unique_out,
  // counts_out, num_runs), or the non-trivial runs' (input, offsets_out,
  // lengths_out, num_runs).
  Value kept = operands[unique || predicate ? 1 : 2], count = operands.back();
  Type data = cast<MemRefType>(input.getType()).getElementType();
  Type i64Type = b.getI64Type();
  TileStatus status = tileStatus(/*counts=*/true);
  Value empty = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, n, index(0));
  // Nothing to select: the one block says so.
  ifThen(arith::AndIOp::create(b, empty, isThreadZero()), [&] {
    memref::StoreOp::create(b, i64(0), count, ValueRange{index(0)});
  });
  Value tile = enterTile(empty);
  Value tile64 = toI64(tile);
  Value offset = arith::MulIOp::create(b, tile, index(tileItems));
  Value values = loadTile(input, arith::ConstantOp::create(b, b.getZeroAttr(data)),
                          offset, items, 1, scanTileAlgorithm());
  // The non-trivial runs' ends that are not heads: the r-th ends the
  // r-th run kept.
  Value ends, heads, tails;
  Value keeps = unique      ? runHeads(input, values, offset, items,
                                       nonTrivial ? &tails : nullptr)
                : predicate ? predicateKeeps(values, offset, items)
                            : flaggedKeeps(operands[1], offset, items);
  if (nonTrivial) {
    Value ones = arith::ConstantOp::create(
        b, DenseElementsAttr::get(cast<ShapedType>(keeps.getType()), true));
    heads = keeps;
    keeps = arith::AndIOp::create(b, heads, arith::XOrIOp::create(b, tails, ones));
    ends = arith::AndIOp::create(b, tails, arith::XOrIOp::create(b, heads, ones));
  }
  // The thread's kept count, then the tile's counts before each thread
  // (a tile's counts fit 32 bits; the tiles' prefixes are 64-bit).
  Type i32Type = b.getI32Type();
  Value ones = arith::ExtUIOp::create(b, VectorType::get({items}, i32Type), keeps);
  Value own = vector::ReductionOp::create(b, vector::CombiningKind::ADD, ones);
  auto scan = BlockScanOp::create(
      b, TypeRange{i32Type, i32Type}, CombineKindAttr::get(b.getContext(), kind), own,
      /*items=*/false, ValueRange{}, /*exclusive=*/true, /*reverse=*/false, /*heads=*/Value(),
      BlockScanAlgorithmAttr(), /*tile=*/nullptr);
  Value before = arith::ExtUIOp::create(b, i64Type, scan.getScanned()[0]);
  Value total = arith::ExtUIOp::create(b, i64Type, scan.getTotal()[0]);
  Value prefix = tilePrefix(status, tile64, total).front();

  // The tile's items gather in workgroup memory, then consecutive threads
  // copy them out (coalesced stores, as CUB's selection does): the kept
  // ones in their order from slot 0; for a partition, the rejected ones
  // from the tile's last valid slot down, in the order in which they go
  // to the output's end.
  auto stageType = MemRefType::get(
      {tileItems}, data, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  // The non-trivial runs write positions, not items: nothing to stage.
  Value stage =
      nonTrivial ? Value() : kernel.addWorkgroupAttribution(stageType, b.getLoc());
  Value valid = toI64(arith::MinUIOp::create(b, arith::SubIOp::create(b, n, offset),
                                             index(tileItems)));
  // A run-length encoding also stages each head's position in the tile at
  // its run's slot, and the tile's end after the last: run s of the tile
  // is starts[s + 1] - starts[s] long within it. Positions up to the
  // tile's size fit 16 bits (selectionTileBytes keeps tiles that small).
  Value starts;
  Type positionType = b.getI16Type();
  auto positionsType = MemRefType::get({tileItems + 1}, positionType, AffineMap(),
                                       stageType.getMemorySpace());
  if (positions) {
    assert(tileItems < (int64_t(1) << 15) && "tile positions fit i16");
    starts = kernel.addWorkgroupAttribution(positionsType, b.getLoc());
    ifThen(isThreadZero(), [&] {
      memref::StoreOp::create(
          b, arith::TruncIOp::create(b, positionType, valid), starts,
          ValueRange{arith::IndexCastOp::create(b, b.getIndexType(), total)});
    });
  }
  // The non-trivial runs also stage each run's end (the position after
  // its last element in the tile) at slot r + 1 for the tile's run r, and
  // at slot 0 the end of the run open from the tiles before, 0 where the
  // run does not end in the tile. Exactly one thread writes each slot
  // that is read: the run's last element's, else the tile's first
  // element's (a head: no run open before) or its last one's (no end).
  Value stagedEnds;
  if (nonTrivial) {
    stagedEnds = kernel.addWorkgroupAttribution(positionsType, b.getLoc());
    ifThen(arith::AndIOp::create(b, isThreadZero(), vector::ExtractOp::create(b, heads, 0)),
           [&] {
             memref::StoreOp::create(b, arith::ConstantIntOp::create(b, positionType, 0),
                                     stagedEnds, ValueRange{index(0)});
           });
  }
  Value local = before;
  Value firstItem = toI64(arith::MulIOp::create(b, thread, index(items)));
  for (int64_t j = 0; j < items; ++j) {
    Value keep = vector::ExtractOp::create(b, keeps, j);
    Value value = vector::ExtractOp::create(b, values, j);
    Value slot = local;
    Value store = keep;
    if (partition) {
      // Item p of the tile, the q-th rejected one (q = p - kept before
      // it), goes to slot valid - 1 - q; items past n nowhere.
      Value p = arith::AddIOp::create(b, firstItem, i64(j));
      Value q = arith::SubIOp::create(b, p, local);
      slot = arith::SelectOp::create(
          b, keep, local, arith::SubIOp::create(b, arith::SubIOp::create(b, valid, i64(1)), q));
      store = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, p, valid);
    }
    if (nonTrivial) {
      // An end: the tile's run `local - 1` (the kept heads before it, less
      // its own; -1 the run open before the tile) ends after it.
      ifThen(vector::ExtractOp::create(b, ends, j), [&] {
        memref::StoreOp::create(
            b,
            arith::TruncIOp::create(b, positionType,
                                    arith::AddIOp::create(b, firstItem, i64(j + 1))),
            stagedEnds, ValueRange{arith::IndexCastOp::create(b, b.getIndexType(), local)});
      });
    }
    ifThen(store, [&] {
      Value at = arith::IndexCastOp::create(b, b.getIndexType(), slot);
      if (stage)
        memref::StoreOp::create(b, value, stage, ValueRange{at});
      if (positions)
        memref::StoreOp::create(
            b,
            arith::TruncIOp::create(b, positionType, arith::AddIOp::create(b, firstItem, i64(j))),
            starts, ValueRange{at});
    });
    local = arith::AddIOp::create(b, local, arith::ExtUIOp::create(b, i64Type, keep));
  }
  if (nonTrivial) {
    // The tile's last element, no end: its run goes on in the next tile.
    Value lastThread = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread,
                                             index(DeviceTiling::kThreads - 1));
    Value whole = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, valid, i64(tileItems));
    Value open = arith::XOrIOp::create(b, vector::ExtractOp::create(b, tails, items - 1),
                                       arith::ConstantIntOp::create(b, 1, 1));
    ifThen(arith::AndIOp::create(b, arith::AndIOp::create(b, lastThread, whole), open), [&] {
      memref::StoreOp::create(b, arith::ConstantIntOp::create(b, positionType, 0), stagedEnds,
                              ValueRange{arith::IndexCastOp::create(b, b.getIndexType(), local)});
    });
  }
  gpu::BarrierOp::create(b);
  Value keptBase = arith::IndexCastOp::create(b, b.getIndexType(), prefix);
  // Consecutive threads copy slots [from, to) to base + slot. Each warp's
  // stores fill whole 128-byte lines: the rounds start on a line of the
  // output (by its address, so any base or view), the threads before
  // `from` sitting out the first, instead of every warp's 128 bytes
  // straddling a fifth sector. The first output's lines decide; a second
  // one (the runs' lengths) is as aligned where its base is.
  Type outType = cast<MemRefType>(kept.getType()).getElementType();
  int64_t outBytes =
      outType.isIntOrFloat() ? std::max<int64_t>(1, outType.getIntOrFloatBitWidth() / 8) : 0;
  bool toLines = outBytes && outBytes < 128 && 128 % outBytes == 0;
  Value outStart =
      toLines ? memref::ExtractAlignedPointerAsIndexOp::create(b, b.getLoc(), kept) : Value();
  auto copySlots = [&](Value from, Value to, Value base,
                       function_ref<void(Value slot, Value where)> body) {
    Value lower = arith::AddIOp::create(b, from, thread);
    if (toLines) {
      // Slot `from`'s byte in its line (mod 2^32 with 32-bit indices: the
      // same), in slots.
      Value address = arith::AddIOp::create(
          b, outStart,
          arith::MulIOp::create(b, arith::AddIOp::create(b, base, from), index(outBytes)));
      Value first = arith::SubIOp::create(
          b, lower,
          arith::DivUIOp::create(b, arith::RemUIOp::create(b, address, index(128)),
                                 index(outBytes)));
      // The first round, where slots before `from` sit out, on its own:
      // the warps meet again before the others.
      ifThen(arith::AndIOp::create(
                 b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, first, from),
                 arith::CmpIOp::create(b, arith::CmpIPredicate::slt, first, to)),
             [&] { body(first, arith::AddIOp::create(b, base, first)); });
      lower = arith::AddIOp::create(b, first, index(DeviceTiling::kThreads));
    }
    auto copy = scf::ForOp::create(b, lower, to, index(DeviceTiling::kThreads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(copy.getBody());
    Value slot = copy.getInductionVar();
    body(slot, arith::AddIOp::create(b, base, slot));
  };
  auto copyStaged = [&](Value slot, Value where) {
    memref::StoreOp::create(b, memref::LoadOp::create(b, stage, ValueRange{slot}), kept,
                            ValueRange{where});
  };
  Value keptEnd = arith::IndexCastOp::create(b, b.getIndexType(), total);
  if (partition) {
    // Kept slot s goes to prefix + s; rejected slot s (s >= total) to
    // n - valid - (offset - prefix) + s, the rejected ones of the tiles
    // before having taken the places after it.
    Value rejectedBase = arith::IndexCastOp::create(
        b, b.getIndexType(),
        arith::SubIOp::create(b, arith::SubIOp::create(b, toI64(n), valid),
                              arith::SubIOp::create(b, toI64(offset), prefix)));
    copySlots(index(0), keptEnd, keptBase, copyStaged);
    copySlots(keptEnd, arith::IndexCastOp::create(b, b.getIndexType(), valid), rejectedBase,
              copyStaged);
  } else {
    copySlots(index(0), keptEnd, keptBase, [&](Value i, Value where) {
      if (nonTrivial) {
        // The head's position in the input, and the length where the run
        // ends in the tile (a later tile's carry makes the others).
        Value start = arith::ExtUIOp::create(
            b, i64Type, memref::LoadOp::create(b, starts, ValueRange{i}));
        memref::StoreOp::create(b, toCount(arith::AddIOp::create(b, toI64(offset), start), kept),
                                kept, ValueRange{where});
        Value end = arith::ExtUIOp::create(
            b, i64Type,
            memref::LoadOp::create(b, stagedEnds,
                                   ValueRange{arith::AddIOp::create(b, i, index(1))}));
        ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ne, end, i64(0)), [&] {
          memref::StoreOp::create(b, toCount(arith::SubIOp::create(b, end, start)),
                                  operands[2], ValueRange{where});
        });
      } else {
        copyStaged(i, where);
      }
      if (runs) {
        Value start = memref::LoadOp::create(b, starts, ValueRange{i});
        Value end = memref::LoadOp::create(
            b, starts, ValueRange{arith::AddIOp::create(b, i, index(1))});
        memref::StoreOp::create(b, toCount(arith::SubIOp::create(b, end, start)), operands[2],
                                ValueRange{where});
      }
    });
  }
  if (positions) {
    // What the carry kernel needs of the tile (the packed counts of a
    // selection leave these two arrays unused), with the runs that start
    // before it: for a run-length encoding its elements before its first
    // head (starts[0]: all of them without a head; none in tile 0, whose
    // first element is a head); for the non-trivial runs the end in the
    // input of the run open before it, 0 where that does not end in it.
    ifThen(isThreadZero(), [&] {
      Value carried;
      if (runs) {
        carried = arith::ExtUIOp::create(
            b, i64Type, memref::LoadOp::create(b, starts, ValueRange{index(0)}));
      } else {
        Value end = arith::ExtUIOp::create(
            b, i64Type, memref::LoadOp::create(b, stagedEnds, ValueRange{index(0)}));
        carried = arith::SelectOp::create(
            b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, end, i64(0)), end,
            arith::AddIOp::create(b, toI64(offset), end));
      }
      LLVM::StoreOp::create(b, carried, scratchSlot(status.totals, tile64), 8);
      LLVM::StoreOp::create(b, prefix, scratchSlot(status.prefixes, tile64), 8);
    });
  }
  Value tiles = arith::CeilDivUIOp::create(b, n, index(tileItems));
  // The last tile knows the count.
  Value lastTile = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile,
                                         arith::SubIOp::create(b, tiles, index(1)));
  ifThen(arith::AndIOp::create(b, lastTile, isThreadZero()), [&] {
    memref::StoreOp::create(b, combine(prefix, total), count, ValueRange{index(0)});
  });
}

void DeviceKernelBuilder::buildRunCarry(gpu::GPUModuleOp module, Selection selection) {
  // A thread per tile, as scan_init. After a grid of one tile there is
  // nothing to carry (tile 0 starts with a head), and the kernel is not
  // launched (warp.device_skip_if_single).
  bool runs = selection == Selection::RunLengths;
  assert((runs || selection == Selection::NonTrivialRuns) && "a selection of runs");
  gpu::GPUFuncOp kernel =
      startKernel(module, runs ? "run_length_carry" : "non_trivial_carry",
                  statusItems() * DeviceTiling::kThreads);
  kernel->setAttr(kSkipIfSingleAttrName, b.getUnitAttr());
  TileStatus status = tileStatus(/*counts=*/true);
  Value tile = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, gpu::BlockIdOp::create(b, gpu::Dimension::x),
                            index(DeviceTiling::kThreads)),
      thread);
  Value tiles = arith::CeilDivUIOp::create(b, n, index(statusItems()));
  Value exists = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tile, tiles);
  ifThen(exists, [&] {
    Value tile64 = toI64(tile);
    Value carried = LLVM::LoadOp::create(b, b.getI64Type(),
                                         scratchSlot(status.totals, tile64), 8);
    // What the tile carries belongs to the last run that starts before it.
    ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ne, carried, i64(0)), [&] {
      Value runsBefore = LLVM::LoadOp::create(b, b.getI64Type(),
                                              scratchSlot(status.prefixes, tile64), 8);
      Value run = arith::IndexCastOp::create(b, b.getIndexType(),
                                             arith::SubIOp::create(b, runsBefore, i64(1)));
      if (runs) {
        // The tile's leading elements continue that run: several tiles
        // without a head may add to it.
        memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, toCount(carried),
                                    operands[2], ValueRange{run});
        return;
      }
      // That run ends in the tile, at `carried`: its length is that less
      // its offset, in the lengths' type (both wrap alike there).
      Value start = toCount(memref::LoadOp::create(b, operands[1], ValueRange{run}));
      memref::StoreOp::create(b, arith::SubIOp::create(b, toCount(carried), start),
                              operands[2], ValueRange{run});
    });
  });
}

} // namespace mlir::warp::device_ops
