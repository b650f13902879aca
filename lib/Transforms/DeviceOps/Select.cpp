//===- Select.cpp - device selections as kernels --------------------------===//
//
// A selection is a scan of the tile's kept counts (Scan.cpp's look-back),
// then each kept element written at its count. Selections of runs take the
// same one pass: a run-length encoding also stages its heads' positions and
// writes the length of each run that ends in the tile; the non-trivial
// runs keep the heads that are not also ends and write the length at each
// end. A run that goes on into later tiles is completed by the tile where
// it ends, from its start: each tile stores its last kept position, and
// the look-back names the tile whose position that is.
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

void DeviceKernelBuilder::storePosition(Value position, Value slot) {
  LLVM::StoreOp::create(b, position, slot, 8, /*isVolatile=*/false, false, false,
                        LLVM::AtomicOrdering::monotonic, "device");
}

Value DeviceKernelBuilder::awaitPosition(Value slot) {
  Type i64Type = b.getI64Type();
  return pollUntilReady(
      i64Type,
      [&]() -> Value {
        return LLVM::LoadOp::create(b, i64Type, slot, 8, /*isVolatile=*/false, false, false,
                                    false, LLVM::AtomicOrdering::monotonic, "device");
      },
      [&](Value position) -> Value {
        return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, position, i64(kNoPosition));
      });
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
  Value firstItem = toI64(arith::MulIOp::create(b, thread, index(items)));
  // A selection of runs: the thread of the tile's last kept item stores
  // its position in the input, the start of the run that the tiles after
  // may go on with (the run-length encoding's, or the non-trivial run's
  // open one). Its readers wait for it (scan_init set kNoPosition).
  Value lastKeptSlot = positions ? scratchSlot(status.totals, tile64) : Value();
  if (positions) {
    Value last = i64(-1);
    for (int64_t j = 0; j < items; ++j)
      last = arith::SelectOp::create(b, vector::ExtractOp::create(b, keeps, j), i64(j), last);
    Value holdsLast = arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ne, own, i32(0)),
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                              arith::AddIOp::create(b, scan.getScanned()[0], own),
                              scan.getTotal()[0]));
    ifThen(holdsLast, [&] {
      storePosition(arith::AddIOp::create(b, arith::AddIOp::create(b, toI64(offset), firstItem),
                                          last),
                    lastKeptSlot);
    });
  }
  Value source;
  Value prefix = tilePrefix(status, tile64, total, Value(), Value(), {},
                            positions ? &source : nullptr)
                     .front();

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
  Value tiles = arith::CeilDivUIOp::create(b, n, index(tileItems));
  Value lastTile = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile,
                                         arith::SubIOp::create(b, tiles, index(1)));
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
        // ends in the tile (the tile where a run ends makes the others).
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
        // The run's length where it ends in the tile: all but the last
        // run, which the next tile with a head (or the last tile) ends.
        Value next = arith::AddIOp::create(b, i, index(1));
        ifThen(arith::OrIOp::create(
                   b, lastTile, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, next, keptEnd)),
               [&] {
                 Value start = memref::LoadOp::create(b, starts, ValueRange{i});
                 Value end = memref::LoadOp::create(b, starts, ValueRange{next});
                 memref::StoreOp::create(b, toCount(arith::SubIOp::create(b, end, start)),
                                         operands[2], ValueRange{where});
               });
      }
    });
  }
  if (positions) {
    // Thread 0 of a later tile completes the last run that starts before
    // it, from that run's start (the source tile's last kept position):
    // a run-length encoding's run ends at the tile's first head, or at n
    // in the last tile (starts[0] is the tile's size where it has no
    // head); the non-trivial run open before the tile where it ends in it
    // (stagedEnds[0], 0 where it does not). A tile that keeps nothing
    // passes the position on to the tiles after it.
    Value later = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, tile64, i64(0));
    ifThen(isThreadZero(), [&] {
      Value start = ifElse(
          later, i64Type, [&] { return awaitPosition(scratchSlot(status.totals, source)); },
          [&] { return i64(kNothingKept); });
      ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, total, i64(0)),
             [&] { storePosition(start, lastKeptSlot); });
      // The run is the last one kept before the tile; `end` its end in the
      // tile.
      auto storeLength = [&](Value end) {
        Value run = arith::IndexCastOp::create(b, b.getIndexType(),
                                               arith::SubIOp::create(b, prefix, i64(1)));
        Value at =
            arith::AddIOp::create(b, toI64(offset), arith::ExtUIOp::create(b, i64Type, end));
        memref::StoreOp::create(b, toCount(arith::SubIOp::create(b, at, start)), operands[2],
                                ValueRange{run});
      };
      if (runs) {
        // Tile 0 starts with a head: no run before it.
        ifThen(later, [&] {
          ifThen(arith::OrIOp::create(
                     b, lastTile,
                     arith::CmpIOp::create(b, arith::CmpIPredicate::ne, total, i64(0))),
                 [&] { storeLength(memref::LoadOp::create(b, starts, ValueRange{index(0)})); });
        });
      } else {
        // Tile 0's stagedEnds[0] is 0: its first element is a head.
        Value end = memref::LoadOp::create(b, stagedEnds, ValueRange{index(0)});
        ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ne, end,
                                     arith::ConstantIntOp::create(b, positionType, 0)),
               [&] { storeLength(end); });
      }
    });
  }
  // The last tile knows the count.
  ifThen(arith::AndIOp::create(b, lastTile, isThreadZero()), [&] {
    memref::StoreOp::create(b, combine(prefix, total), count, ValueRange{index(0)});
  });
}

} // namespace mlir::warp::device_ops
