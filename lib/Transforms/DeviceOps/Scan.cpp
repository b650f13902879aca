//===- Scan.cpp - device scans as kernels ---------------------------------===//
//
// A scan is one pass over the data with decoupled look-back (Merrill and
// Garland): block b scans tile b (blocks start in index order, which CUB
// relies on too) with warp.block_scan, publishes its total, reads its
// predecessors' published totals and prefixes a window of 32 at a time in
// warp 0 until it meets a prefix, publishes its own prefix and adds it to
// its items; a first kernel clears the tiles' status words. Over tuples
// with a combine region (device_scan_combine) the tiles publish tuples,
// and the window is a warp.reduce of the region with its operands swapped
// (lane 0 reads the nearest tile) over the lanes that count. A scan by key
// (a kind, or a combine region with an optional equal region) scans (head
// seen, value) pairs with the segmented combine, and a tile that holds a
// head publishes its total as its prefix at once, so that look-backs stop
// there. The look-back here serves the selections too (Select.cpp).
//
//===----------------------------------------------------------------------===//

#include "DeviceKernelBuilder.h"

namespace mlir::warp::device_ops {

void DeviceKernelBuilder::buildScanInit(gpu::GPUModuleOp module, bool lastKept) {
  // A thread per status word. Where the kernel after it runs one block or
  // cluster there is no look-back (tile 0 reads no status), and the kernel
  // is not launched (warp.device_skip_before_single).
  int64_t tileItems = statusItems();
  gpu::GPUFuncOp kernel = startKernel(module, "scan_init", tileItems * DeviceTiling::kThreads);
  kernel->setAttr(kSkipBeforeSingleAttrName, b.getUnitAttr());
  Value blockIndex = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  Value tile = arith::AddIOp::create(
      b, arith::MulIOp::create(b, blockIndex, index(DeviceTiling::kThreads)),
      thread);
  Value tiles = arith::CeilDivUIOp::create(b, n, index(tileItems));
  ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tile, tiles), [&] {
    // The whole 8-byte slot: a packed word holds its flag above its value.
    LLVM::StoreOp::create(b, i64(kStatusNone),
                          scratchSlot(i64(0), toI64(tile)),
                          8);
    if (lastKept)
      LLVM::StoreOp::create(b, i64(kNoPosition),
                            scratchSlot(tileStatus(/*counts=*/true).totals, toI64(tile)), 8);
  });
}

DeviceKernelBuilder::TileStatus DeviceKernelBuilder::tileStatus(bool counts) {
  Value tiles = toI64(arith::CeilDivUIOp::create(b, n, index(statusItems())));
  TileStatus status;
  status.types = publishedTypes();
  status.packedCounts = counts && elementBytes > 4;
  status.flagShift = status.packedCounts ? 62 : 32;
  status.words = i64(0);
  // A slot per tile and published value.
  Value arrayBytes = arith::MulIOp::create(b, tiles, i64(8 * status.types.size()));
  status.totals = arith::AddIOp::create(
      b, status.words, arith::MulIOp::create(b, tiles, i64(8)));
  status.prefixes = arith::AddIOp::create(b, status.totals, arrayBytes);
  return status;
}

void DeviceKernelBuilder::publish(const TileStatus &status, Value tile,
                                  int32_t flag, ValueRange values) {
  Value word = scratchSlot(status.words, tile);
  if (status.packed()) {
    // One 64-bit store: the flag and the value become visible together.
    Value value = values.front();
    Value bits = status.packedCounts
                     ? value
                     : arith::ExtUIOp::create(
                           b, b.getI64Type(),
                           arith::BitcastOp::create(
                               b, b.getIntegerType(value.getType().getIntOrFloatBitWidth()),
                               value))
                           .getResult();
    Value packed = arith::OrIOp::create(
        b, bits, i64(int64_t(uint64_t(flag) << status.flagShift)));
    LLVM::StoreOp::create(b, packed, word, 8, /*isVolatile=*/false, false, false,
                          LLVM::AtomicOrdering::monotonic, "device");
    return;
  }
  // Value i of tile t in slot t * width + i of its array.
  Value array = flag == kStatusPrefix ? status.prefixes : status.totals;
  Value first = arith::MulIOp::create(b, tile, i64(values.size()));
  for (auto [i, value] : llvm::enumerate(values))
    LLVM::StoreOp::create(b, value,
                          scratchSlot(array, arith::AddIOp::create(b, first, i64(i))),
                          bytesOf(value.getType()));
  // Release: a reader that sees the flag sees the value stored before it.
  LLVM::StoreOp::create(b, i32(flag), word, 4, /*isVolatile=*/false, false, false,
                        LLVM::AtomicOrdering::release, "device");
}

SmallVector<Value> DeviceKernelBuilder::lookBack(const TileStatus &status,
                                                 Value tile, Value *source) {
  Type i64Type = b.getI64Type(), i32Type = b.getI32Type(), i1Type = b.getI1Type();
  TypeRange types = status.types;
  size_t width = types.size();
  Value lane = LaneIdOp::create(b, i32Type);
  Value lane64 = arith::ExtUIOp::create(b, i64Type, lane);
  Value start = arith::SubIOp::create(b, tile, i64(1));
  // The loop carries the window's end and what the windows so far combine
  // to; a tuple also whether there is anything yet (a region has no
  // padding to start from).
  SmallVector<Type> carried{i64Type};
  llvm::append_range(carried, types);
  SmallVector<Value> initial{start};
  llvm::append_range(initial, publishedPadding());
  if (tupleRegion) {
    carried.push_back(i1Type);
    initial.push_back(arith::ConstantIntOp::create(b, 0, 1));
  }
  // A selection's source tile, -1 until a window holds one.
  assert((!source || status.packedCounts) && "a source of a selection's counts");
  if (source) {
    carried.push_back(i64Type);
    initial.push_back(i64(-1));
  }
  SmallVector<Location> locations(carried.size(), b.getLoc());
  auto loop = scf::WhileOp::create(b, carried, initial);
  {
    // Before: read the window [end - 31, end], decide whether to go on.
    OpBuilder::InsertionGuard guard(b);
    Block *before = b.createBlock(&loop.getBefore(), {}, carried, locations);
    Value end = before->getArgument(0);
    ValueRange acc = before->getArguments().slice(1, width);
    Value predecessor = arith::SubIOp::create(b, end, lane64);
    Value exists = arith::CmpIOp::create(b, arith::CmpIPredicate::sge,
                                         predecessor, i64(0));
    Value wordPtr = scratchSlot(status.words, predecessor);
    // The status word with the flag from bit `shift` (and, packed, the
    // value below it); lanes before tile 0 read nothing and count as a
    // prefix of nothing.
    unsigned shift = status.flagShift;
    auto flagged = [&](int32_t flag) { return i64(int64_t(uint64_t(flag) << shift)); };
    auto readWord = [&]() -> Value {
      if (status.packed())
        return LLVM::LoadOp::create(b, i64Type, wordPtr, 8, /*isVolatile=*/false,
                                    false, false, false,
                                    LLVM::AtomicOrdering::monotonic, "device");
      Value flag = LLVM::LoadOp::create(b, i32Type, wordPtr, 4, /*isVolatile=*/false,
                                        false, false, false,
                                        LLVM::AtomicOrdering::acquire, "device");
      return arith::ShLIOp::create(b, arith::ExtUIOp::create(b, i64Type, flag),
                                   i64(shift));
    };
    // Poll until every lane's tile has published.
    Value word = pollUntilReady(
        i64Type,
        [&] { return ifElse(exists, i64Type, readWord, [&] { return flagged(kStatusPrefix); }); },
        [&](Value word) -> Value {
          Value waiting = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, word,
                                                flagged(kStatusTotal));
          return VoteOp::create(b, i1Type, VoteKind::Any, waiting, Value());
        });
    Value flag = arith::TruncIOp::create(
        b, i32Type, arith::ShRUIOp::create(b, word, i64(shift)));
    Value hasPrefix = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, flag,
                                            i32(kStatusPrefix));
    SmallVector<Value> values = ifElse(
        exists, types,
        [&]() -> SmallVector<Value> {
          if (status.packedCounts)
            return {arith::AndIOp::create(
                b, word, i64(int64_t(llvm::maskTrailingOnes<uint64_t>(shift))))};
          if (status.packed()) {
            Type type = types.front();
            return {arith::BitcastOp::create(
                b, type,
                arith::TruncIOp::create(
                    b, b.getIntegerType(type.getIntOrFloatBitWidth()), word))};
          }
          Value array = arith::SelectOp::create(b, hasPrefix, status.prefixes,
                                                status.totals);
          Value first = arith::MulIOp::create(b, predecessor, i64(width));
          SmallVector<Value> loaded;
          for (auto [i, type] : llvm::enumerate(types))
            loaded.push_back(LLVM::LoadOp::create(
                b, type, scratchSlot(array, arith::AddIOp::create(b, first, i64(i))),
                bytesOf(type)));
          return loaded;
        },
        [&] { return publishedPadding(); });
    Value prefixLanes = BallotOp::create(b, i32Type, hasPrefix, Value());
    Value found = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, prefixLanes, i32(0));
    // The lanes up to the nearest tile with a prefix (the lowest lane).
    Value nearest = math::CountTrailingZerosOp::create(b, prefixLanes);
    // The window's tiles come before those already combined.
    SmallVector<Value> next{arith::SubIOp::create(b, end, i64(32))};
    if (!tupleRegion) {
      Value counts = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, lane, nearest);
      Value counted = arith::SelectOp::create(b, counts, values.front(), pad(element));
      Value window = ReduceOp::create(b, kind, counted).getResult()[0];
      next.push_back(combine(window, acc.front()));
    } else {
      // Lanes 0 .. nearest (all 32 without a prefix) count; the region
      // combines them in tile order, lane 0's tile last: with its
      // operands swapped, as warp.reduce keeps lane order.
      Value counted = arith::MinUIOp::create(
          b, arith::AddIOp::create(b, nearest, i32(1)), i32(32));
      auto reduce = ReduceOp::create(
          b, types, CombineKindAttr(), values, counted, /*mask=*/Value(),
          /*heads=*/Value(), /*tails=*/Value(), kWarpSize, 1, ResultLanes::All,
          /*strategy=*/nullptr, /*commutative=*/false);
      {
        OpBuilder::InsertionGuard swapGuard(b);
        SmallVector<Type> arguments(types.begin(), types.end());
        llvm::append_range(arguments, types);
        Block *body = b.createBlock(&reduce.getCombiner(), {}, arguments,
                                    SmallVector<Location>(2 * width, b.getLoc()));
        YieldOp::create(b, combineTuples(*tupleRegion,
                                         body->getArguments().drop_front(width),
                                         body->getArguments().take_front(width)));
      }
      SmallVector<Value> window(reduce.getResult());
      Value started = before->getArguments().back();
      llvm::append_range(next, ifElse(
                                   started, types,
                                   [&] { return combineTuples(*tupleRegion, window, acc); },
                                   [&] { return window; }));
      next.push_back(arith::ConstantIntOp::create(b, 1, 1));
    }
    if (source) {
      // The nearest tile that counts with a prefix or a count other than 0.
      Value nonzero = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, values.front(), i64(0));
      Value counts = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, lane, nearest);
      Value lanes = BallotOp::create(
          b, i32Type, arith::AndIOp::create(b, counts, arith::OrIOp::create(b, hasPrefix, nonzero)),
          Value());
      Value sourceSoFar = before->getArguments().back();
      Value window = arith::SubIOp::create(
          b, end,
          arith::ExtUIOp::create(b, i64Type, math::CountTrailingZerosOp::create(b, lanes)));
      Value open = arith::AndIOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::slt, sourceSoFar, i64(0)),
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, lanes, i32(0)));
      next.push_back(arith::SelectOp::create(b, open, window, sourceSoFar));
    }
    scf::ConditionOp::create(b, negate(found), next);
    Block *after = b.createBlock(&loop.getAfter(), {}, carried, locations);
    scf::YieldOp::create(b, after->getArguments());
  }
  if (source)
    *source = loop.getResults().back();
  return SmallVector<Value>(loop.getResults().slice(1, width));
}

SmallVector<Value> DeviceKernelBuilder::tilePrefix(const TileStatus &status,
                                                   Value tile64, ValueRange total,
                                                   Value publishes, Value headed,
                                                   ValueRange init, Value *source) {
  Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile64, i64(0));
  if (!publishes)
    publishes = isThreadZero();
  // The total is the inclusive prefix: tile 0's (after init), or a headed
  // tile's.
  Value complete = headed ? arith::OrIOp::create(b, first, headed).getResult() : first;
  // Thread 0 publishes the tile's total, or for tile 0 its prefix.
  ifThen(publishes, [&] {
    auto which = scf::IfOp::create(b, complete, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(which.thenBlock()->getTerminator());
    publish(status, tile64, kStatusPrefix,
            init.empty() ? SmallVector<Value>(total) : combinePublished(init, total));
    b.setInsertionPoint(which.elseBlock()->getTerminator());
    publish(status, tile64, kStatusTotal, total);
  });
  // Warp 0 of every later tile looks back and publishes the tile's prefix.
  Value warpZero = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(32));
  Value looks = arith::AndIOp::create(b, warpZero, negate(first));
  SmallVector<Type> types(status.types);
  if (source)
    types.push_back(b.getI64Type());
  SmallVector<Value> before = ifElse(
      looks, types,
      [&] {
        // Predecessors are likely still scanning: wait before the first poll.
        NVVM::NanosleepOp::create(b, i32(DeviceTiling::kLookBackSettleNs));
        Value nearest;
        SmallVector<Value> prefix = lookBack(status, tile64, source ? &nearest : nullptr);
        ifThen(headed ? arith::AndIOp::create(b, publishes, negate(headed)).getResult()
                      : publishes,
               [&] {
                 publish(status, tile64, kStatusPrefix, combinePublished(prefix, total));
               });
        if (source)
          prefix.push_back(nearest);
        return prefix;
      },
      [&] {
        SmallVector<Value> none = init.empty() ? publishedPadding() : SmallVector<Value>(init);
        if (source)
          none.push_back(i64(-1));
        return none;
      });
  SmallVector<Value> broadcast = llvm::map_to_vector(before, [&](Value value) -> Value {
    return BlockBroadcastOp::create(b, value, i32(0), /*tile=*/nullptr);
  });
  if (source)
    *source = broadcast.pop_back_val();
  return broadcast;
}

gpu::GPUFuncOp DeviceKernelBuilder::buildScan(gpu::GPUModuleOp module, bool exclusive,
                                              StringRef name) {
  int64_t items = tileItemsPerThread();
  int64_t tileItems = tileItemCount();
  gpu::GPUFuncOp kernel = startKernel(module, name, tileItems);
  auto itemsType = VectorType::get({items}, element);
  TileStatus status = tileStatus(/*counts=*/false);
  Value empty = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, n, index(0));
  Value tile = enterTile(empty);
  Value offset = arith::MulIOp::create(b, tile, index(tileItems));
  Value loaded = loadTile(offset, items, 1, scanTileAlgorithm());
  if (operands.size() == 3) {
    // By key: (input, output, keys); the tile's keys give its heads.
    output = operands[1];
    Value keys = operands[2];
    Type keyType = cast<MemRefType>(keys.getType()).getElementType();
    Value keyItems = loadTile(keys, arith::ConstantOp::create(b, b.getZeroAttr(keyType)),
                              offset, items, 1, std::nullopt);
    Value heads = runHeads(keys, keyItems, offset, items);
    storeTile(scanByKeyTile(status, toI64(tile), loaded, heads, exclusive), offset);
    return kernel;
  }
  Value scanned, total, publishes, leads = isThreadZero();
  Value statusTile = tile;
  if (clusterBlocks == 1) {
    auto scan = BlockScanOp::create(
        b, TypeRange{itemsType, element}, CombineKindAttr::get(b.getContext(), kind),
        loaded, /*items=*/true, ValueRange{}, exclusive, /*reverse=*/false, /*heads=*/Value(),
        BlockScanAlgorithmAttr(), /*tile=*/nullptr);
    scanned = scan.getScanned()[0];
    total = scan.getTotal()[0];
  } else {
    // Tiles in clusters (the block of rank r of cluster q scans tile q C +
    // r); the cluster's thread order is the tiles' order, so a cluster
    // scan of each thread's fold of its items is each thread's exclusive
    // prefix within the cluster.
    leads = arith::AndIOp::create(b, leads, enterClusters(kernel, tile));
    statusTile = arith::DivUIOp::create(b, tile, index(clusterBlocks));
    publishes = leads;
    SmallVector<Value> values;
    for (int64_t j = 0; j < items; ++j)
      values.push_back(vector::ExtractOp::create(b, loaded, j));
    Value fold = values.front();
    for (Value value : ArrayRef(values).drop_front())
      fold = combine(fold, value);
    auto clusterScan = ClusterScanOp::create(b, element, element, kind, fold,
                                             /*exclusive=*/true);
    total = clusterScan.getTotal();
    // The cluster's first thread starts from the padding (its items bit for
    // bit) and, exclusive, gives the identity first.
    Value before = arith::SelectOp::create(b, leads, pad(element), clusterScan.getScanned());
    SmallVector<Value> outs;
    Value acc = before;
    for (int64_t j = 0; j < items; ++j) {
      if (exclusive)
        outs.push_back(j == 0 ? arith::SelectOp::create(
                                    b, leads,
                                    buildCombineIdentity(b, b.getLoc(), kind, element),
                                    clusterScan.getScanned())
                                    .getResult()
                              : acc);
      acc = combine(acc, values[j]);
      if (!exclusive)
        outs.push_back(acc);
    }
    scanned = vector::FromElementsOp::create(b, itemsType, outs);
  }
  Value tile64 = toI64(statusTile);

  Value prefix = tilePrefix(status, tile64, total, publishes).front();
  Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile64, i64(0));
  // The padding of tile 0 leaves its items as they are, bit for bit.
  Value splat = vector::BroadcastOp::create(b, itemsType, prefix);
  Value result = combine(splat, scanned);
  if (exclusive) {
    // Thread 0's first item has nothing before it in the tile: it is the
    // prefix itself, which `prefix (kind) identity` is not for every kind
    // (minnumf of an all-NaN prefix and +inf is +inf, not NaN).
    Value own = vector::InsertOp::create(b, prefix, result, 0);
    Value takesPrefix = arith::AndIOp::create(b, leads, negate(first));
    result = arith::SelectOp::create(b, takesPrefix, own, result);
  }
  storeTile(result, offset);
  return kernel;
}

void DeviceKernelBuilder::storeTile(Value result, Value offset, Value target) {
  int64_t tileItems = tileItemCount();
  std::optional<BlockMemoryAlgorithm> algorithm = scanTileAlgorithm(
      bytesOf(cast<VectorType>(result.getType()).getElementType()));
  auto store = [&](Value valid) {
    BlockStoreOp::create(b, result, target ? target : output, offset, valid,
                         /*striped=*/false, /*warp_striped=*/false,
                         algorithm ? BlockMemoryAlgorithmAttr::get(b.getContext(), *algorithm)
                                   : BlockMemoryAlgorithmAttr());
  };
  Value end = arith::AddIOp::create(b, offset, index(tileItems));
  Value whole = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, end, n);
  auto storeIf = scf::IfOp::create(b, whole, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(storeIf.thenBlock()->getTerminator());
    store(Value());
    b.setInsertionPoint(storeIf.elseBlock()->getTerminator());
    store(validItems(offset, tileItems));
  }
}

Value DeviceKernelBuilder::scanByKeyTile(const TileStatus &status, Value tile64,
                                         Value values, Value heads, bool exclusive) {
  auto itemsType = cast<VectorType>(values.getType());
  Type i1 = b.getI1Type();
  // The tile's (head seen, value) pairs, scanned inclusively with the
  // segmented combine (f, a) . (g, b) = (f or g, g ? b : a (kind) b); the
  // totals say whether the tile holds a head and what follows its last.
  auto scan = BlockScanOp::create(
      b, TypeRange{heads.getType(), itemsType, i1, element}, CombineKindAttr(),
      ValueRange{heads, values}, /*items=*/true, ValueRange{}, /*exclusive=*/false,
      /*reverse=*/false, /*heads=*/Value(), BlockScanAlgorithmAttr(), /*tile=*/nullptr);
  {
    OpBuilder::InsertionGuard guard(b);
    Location loc = b.getLoc();
    Block *body = b.createBlock(&scan.getCombiner(), {}, {i1, element, i1, element},
                                {loc, loc, loc, loc});
    Value lhsHead = body->getArgument(0), lhs = body->getArgument(1);
    Value rhsHead = body->getArgument(2), rhs = body->getArgument(3);
    YieldOp::create(b, ValueRange{arith::OrIOp::create(b, lhsHead, rhsHead),
                                  arith::SelectOp::create(b, rhsHead, rhs, combine(lhs, rhs))});
  }
  Value seen = scan.getScanned()[0], scanned = scan.getScanned()[1];
  Value prefix =
      tilePrefix(status, tile64, scan.getTotal()[1], Value(), scan.getTotal()[0]).front();
  // An item after a head of the tile has its segment's value; the others
  // continue the tiles before (tile 0's items all follow its first head).
  Value splat = vector::BroadcastOp::create(b, itemsType, prefix);
  Value inclusive = arith::SelectOp::create(b, seen, scanned, combine(splat, scanned));
  if (!exclusive)
    return inclusive;
  // Exclusive: the inclusive value of the item before (the previous
  // thread's last, or for thread 0 the prefix), the identity at a head.
  return arith::SelectOp::create(b, heads,
                                 buildCombineIdentity(b, b.getLoc(), kind, itemsType),
                                 shiftItems(inclusive, prefix));
}

Value DeviceKernelBuilder::shiftItems(Value inclusive, Value first) {
  auto type = cast<VectorType>(inclusive.getType());
  int64_t items = type.getNumElements();
  Value last = vector::ExtractOp::create(b, inclusive, items - 1);
  auto shuffle = BlockShuffleOp::create(b, type.getElementType(), b.getI1Type(),
                                        BlockShuffleMode::Offset, last, i32(-1),
                                        /*tile=*/nullptr);
  SmallVector<Value> outs{
      arith::SelectOp::create(b, shuffle.getValid(), shuffle.getResult(), first)};
  for (int64_t j = 0; j + 1 < items; ++j)
    outs.push_back(vector::ExtractOp::create(b, inclusive, j));
  return vector::FromElementsOp::create(b, type, outs);
}

SmallVector<Value> DeviceKernelBuilder::tupleScanByKeyTile(const TileStatus &status,
                                                          Value tile64, Region &region,
                                                          ValueRange values, Value heads,
                                                          ValueRange init, bool exclusive) {
  size_t width = values.size();
  int64_t items = cast<VectorType>(heads.getType()).getNumElements();
  SmallVector<Type> types = llvm::map_to_vector(values, [](Value value) -> Type {
    return cast<VectorType>(value.getType()).getElementType();
  });
  SmallVector<Type> itemTypes(values.getTypes());
  Type i1 = b.getI1Type();
  // (head seen, tuple) pairs with the segmented combine (f, a) . (g, b) =
  // (f or g, g ? b : a (op) b), as scanByKeyTile's; the totals say whether
  // the tile holds a head and what follows its last.
  SmallVector<Type> scanTypes{heads.getType()};
  llvm::append_range(scanTypes, itemTypes);
  scanTypes.push_back(i1);
  llvm::append_range(scanTypes, types);
  SmallVector<Value> scanned{heads};
  llvm::append_range(scanned, values);
  auto scan = BlockScanOp::create(b, scanTypes, CombineKindAttr(), scanned, /*items=*/true,
                                  ValueRange{}, /*exclusive=*/false, /*reverse=*/false, /*heads=*/Value(),
                                  BlockScanAlgorithmAttr(), /*tile=*/nullptr);
  {
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Type> arguments{i1};
    llvm::append_range(arguments, types);
    arguments.push_back(i1);
    llvm::append_range(arguments, types);
    Block *body = b.createBlock(&scan.getCombiner(), {}, arguments,
                                SmallVector<Location>(arguments.size(), b.getLoc()));
    ValueRange lhs = body->getArguments().slice(1, width);
    ValueRange rhs = body->getArguments().slice(width + 2, width);
    Value lhsHead = body->getArgument(0), rhsHead = body->getArgument(width + 1);
    SmallVector<Value> yielded{arith::OrIOp::create(b, lhsHead, rhsHead)};
    for (auto [right, combined] : llvm::zip(rhs, combineTuples(region, lhs, rhs)))
      yielded.push_back(arith::SelectOp::create(b, rhsHead, right, combined));
    YieldOp::create(b, yielded);
  }
  Value seen = scan.getScanned()[0];
  ValueRange segment = scan.getScanned().drop_front();
  SmallVector<Value> prefix = tilePrefix(status, tile64, scan.getTotal().drop_front(), Value(),
                                         scan.getTotal()[0]);
  // Item j's value from its segment's start: its own where a head of the
  // tile comes before it, else the prefix in front (only in later tiles:
  // tile 0's items all follow its first head, and its prefix is padding,
  // which never reaches the region); then init in front.
  SmallVector<SmallVector<Value>> columns(width);
  for (int64_t j = 0; j < items; ++j) {
    SmallVector<Value> item = llvm::map_to_vector(
        segment, [&](Value vector) -> Value { return vector::ExtractOp::create(b, vector, j); });
    SmallVector<Value> inclusive =
        ifElse(vector::ExtractOp::create(b, seen, j), types, [&] { return item; },
               [&] { return combineTuples(region, prefix, item); });
    if (!init.empty())
      inclusive = combineTuples(region, init, inclusive);
    for (auto [column, value] : llvm::zip(columns, inclusive))
      column.push_back(value);
  }
  SmallVector<Value> result;
  for (auto [type, column] : llvm::zip(itemTypes, columns))
    result.push_back(vector::FromElementsOp::create(b, cast<VectorType>(type), column));
  if (!exclusive)
    return result;
  // Exclusive (with init): the inclusive value of the item before (the
  // previous thread's last, or for thread 0 the tile's prefix with init in
  // front), init at a head.
  Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile64, i64(0));
  SmallVector<Value> before = ifElse(
      first, types, [&] { return SmallVector<Value>(init); },
      [&] { return combineTuples(region, init, prefix); });
  for (size_t i = 0; i < width; ++i)
    result[i] = arith::SelectOp::create(
        b, heads, vector::BroadcastOp::create(b, itemTypes[i], init[i]),
        shiftItems(result[i], before[i]));
  return result;
}

void DeviceKernelBuilder::buildTupleScan(gpu::GPUModuleOp module,
                                         DeviceScanCombineOp op) {
  Region &region = op.getCombiner();
  SmallVector<Type> types = op.getCombinedTypes();
  assert(tupleRegion == &region && "the tiles publish the op's tuples");
  size_t width = types.size();
  bool exclusive = op.getExclusive();
  int64_t items = tileItemsPerThread();
  int64_t tileItems = tileItemCount();
  startKernel(module, "scan", tileItems);
  // (inputs..., init bits..., outputs..., keys).
  ValueRange inputs = ValueRange(operands).take_front(width);
  ValueRange outputs = ValueRange(operands).slice(width + op.getInit().size(), width);
  SmallVector<Value> init;
  for (auto [bits, type] :
       llvm::zip(ValueRange(operands).slice(width, op.getInit().size()), types))
    init.push_back(bits.getType() == type ? bits
                                          : arith::BitcastOp::create(b, type, bits).getResult());
  TileStatus status = tileStatus(/*counts=*/false);
  Value empty = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, n, index(0));
  Value tile = enterTile(empty);
  Value tile64 = toI64(tile);
  Value offset = arith::MulIOp::create(b, tile, index(tileItems));
  // The ragged last tile is padded with copies of x_{n-1}, so that the
  // region only meets input tuples and its own results (the padding comes
  // after every valid item: no valid item's scan includes it).
  Value ragged = arith::CmpIOp::create(
      b, arith::CmpIPredicate::ugt, arith::AddIOp::create(b, offset, index(tileItems)), n);
  Value last = arith::SubIOp::create(b, n, index(1));
  SmallVector<Value> loaded;
  for (size_t i = 0; i < width; ++i) {
    Value input = inputs[i];
    Type type = types[i];
    Value fill = ifElse(
        ragged, type,
        [&]() -> Value { return memref::LoadOp::create(b, input, ValueRange{last}); },
        [&]() -> Value { return arith::ConstantOp::create(b, b.getZeroAttr(type)); });
    loaded.push_back(
        loadTile(input, fill, offset, items, 1, scanTileAlgorithm(bytesOf(type))));
  }
  SmallVector<Type> itemTypes = llvm::map_to_vector(
      types, [&](Type type) -> Type { return VectorType::get({items}, type); });
  if (op.getKeys()) {
    Value keys = operands.back();
    Type keyType = op.getKeyType();
    Value keyItems = loadTile(keys, arith::ConstantOp::create(b, b.getZeroAttr(keyType)),
                              offset, items, 1, std::nullopt);
    Region *equal = op.getEqual().empty() ? nullptr : &op.getEqual();
    Value heads = runHeads(keys, keyItems, offset, items, /*tails=*/nullptr, equal);
    SmallVector<Value> result =
        tupleScanByKeyTile(status, tile64, region, loaded, heads, init, exclusive);
    for (size_t i = 0; i < width; ++i)
      storeTile(result[i], offset, outputs[i]);
    return;
  }
  // The tile's inclusive scan and its total, in thread order.
  SmallVector<Type> scanTypes = itemTypes;
  llvm::append_range(scanTypes, types);
  auto scan = BlockScanOp::create(b, scanTypes, CombineKindAttr(), loaded, /*items=*/true,
                                  ValueRange{}, /*exclusive=*/false, /*reverse=*/false, /*heads=*/Value(),
                                  BlockScanAlgorithmAttr(), /*tile=*/nullptr);
  IRMapping mapping;
  region.cloneInto(&scan.getCombiner(), mapping);
  SmallVector<Value> scanned(scan.getScanned());
  SmallVector<Value> prefix =
      tilePrefix(status, tile64, scan.getTotal(), Value(), Value(), init);
  // Each item with the prefix in front (tile 0 without init has none).
  auto withPrefix = [&]() -> SmallVector<Value> {
    SmallVector<SmallVector<Value>> columns(width);
    for (int64_t j = 0; j < items; ++j) {
      SmallVector<Value> item = llvm::map_to_vector(scanned, [&](Value vector) -> Value {
        return vector::ExtractOp::create(b, vector, j);
      });
      for (auto [column, value] : llvm::zip(columns, combineTuples(region, prefix, item)))
        column.push_back(value);
    }
    SmallVector<Value> result;
    for (auto [type, column] : llvm::zip(itemTypes, columns))
      result.push_back(vector::FromElementsOp::create(b, cast<VectorType>(type), column));
    return result;
  };
  SmallVector<Value> result;
  if (!init.empty()) {
    result = withPrefix();
  } else {
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile64, i64(0));
    result = ifElse(first, itemTypes, [&] { return scanned; }, withPrefix);
  }
  // Exclusive (always with init): each item gets the inclusive value of
  // the one before, the tile's first the prefix.
  for (size_t i = 0; i < width; ++i) {
    if (exclusive)
      result[i] = shiftItems(result[i], prefix[i]);
    storeTile(result[i], offset, outputs[i]);
  }
}

} // namespace mlir::warp::device_ops
