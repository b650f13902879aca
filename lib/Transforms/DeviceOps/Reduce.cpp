//===- Reduce.cpp - device reductions as kernels --------------------------===//
//
// A reduction is CUB's two kernels: a grid of a block per tile, capped,
// each block folding its tile, or past the cap grid-strided chunks of
// consecutive tiles, into one partial (16-byte vector loads,
// warp.block_reduce), then one block folds the partials; a small input is
// one block's. With a combine region (device_reduce_combine) the runs are
// chunks of kReduceTilesPerBlock tiles, one block each, and every fold
// keeps the input order. Where the grid is one block (or one cluster),
// that block (the cluster's first) also writes the result, what the
// second kernel makes of its single partial, and the second kernel is not
// launched (warp.device_skip_if_single: the host code branches on the
// grid); in clusters, an input that one block takes alone is folded by
// reduce_one_block, the same kernel without clusters, launched alone
// (ExpandDeviceOps.cpp). A segmented reduction is one kernel of a block
// per segment (grid-strided past a cap): the threads stride over the
// segment, then warp.block_reduce.
//
//===----------------------------------------------------------------------===//

#include "DeviceKernelBuilder.h"

#include "llvm/Support/SaveAndRestore.h"

namespace mlir::warp::device_ops {

gpu::GPUFuncOp DeviceKernelBuilder::buildReduceTiles(gpu::GPUModuleOp module,
                                                     StringRef name) {
  // Tiles of 16-byte loads: a thread's bytes / 16 per thread, each
  // coalesced across the block.
  int64_t vectorItems = 16 / elementBytes;
  int64_t pieces = threadBytes / 16;
  int64_t tileItems = tileItemCount();
  gpu::GPUFuncOp kernel = startKernel(module, name, tileItems);
  // Only this kernel's loads touch the input while it runs (the output,
  // which overlaps no input, is written by reduce_finish, and by the one
  // block of a grid of one after its last load): it may take the
  // read-only data path.
  kernel.setArgAttr(0, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  kernel.setArgAttr(0, LLVM::LLVMDialect::getReadonlyAttrName(), b.getUnitAttr());
  kernel->setAttr(kGridMaxAttrName, b.getI64IntegerAttr(DeviceTiling::kReduceMaxBlocks));
  kernel->setAttr(kGridSingleAttrName,
                  b.getI64IntegerAttr(DeviceTiling::reduceSingleBlockItems(tileItems)));
  // With a tile a block or fewer (the grid below its cap), block i folds
  // tile i; past the cap the blocks take chunks of kReduceTilesPerBlock
  // consecutive tiles, grid-strided, the chunk's tiles in a loop of fixed
  // trips (which LLVM unrolls: a chunk's loads are in flight together).
  Value blockIndex = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  Value blocks = gpu::GridDimOp::create(b, gpu::Dimension::x);
  Value tiles = arith::CeilDivUIOp::create(b, n, index(tileItems));
  auto vectorType = VectorType::get({vectorItems}, element);
  auto foldTile = [&](Value acc, Value tile) {
    Value items = loadTile(arith::MulIOp::create(b, tile, index(tileItems)),
                           vectorItems, pieces, std::nullopt);
    return combine(acc, items);
  };
  Value pastCap = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, tiles, blocks);
  auto folded = scf::IfOp::create(b, TypeRange{vectorType}, pastCap,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(folded.thenBlock());
    int64_t per = DeviceTiling::kReduceTilesPerBlock;
    Value chunks = arith::CeilDivUIOp::create(b, tiles, index(per));
    auto outer = scf::ForOp::create(b, blockIndex, chunks, blocks, ValueRange{pad(vectorType)});
    b.setInsertionPointToStart(outer.getBody());
    Value base = arith::MulIOp::create(b, outer.getInductionVar(), index(per));
    auto inner = scf::ForOp::create(b, index(0), index(per), index(1),
                                    outer.getRegionIterArgs());
    b.setInsertionPointToStart(inner.getBody());
    scf::YieldOp::create(
        b, foldTile(inner.getRegionIterArgs()[0],
                    arith::AddIOp::create(b, base, inner.getInductionVar())));
    b.setInsertionPointAfter(inner);
    scf::YieldOp::create(b, inner.getResults());
    b.setInsertionPointAfter(outer);
    scf::YieldOp::create(b, outer.getResults());
    b.setInsertionPointToStart(folded.elseBlock());
    scf::YieldOp::create(b, foldTile(pad(vectorType), blockIndex));
  }
  // The thread's vector of its folded items.
  Value threadFold = folded.getResult(0);
  if (clusterBlocks > 1) {
    // A partial per cluster of blocks: the thread folds its vector,
    // warp.cluster_reduce combines the cluster's threads, rank 0's thread
    // 0 writes it, and for a grid of one cluster the result too (below).
    Value rankZero = enterClusters(kernel, blockIndex);
    Value fold = vector::ExtractOp::create(b, threadFold, 0);
    for (int64_t j = 1; j < vectorItems; ++j)
      fold = combine(fold, vector::ExtractOp::create(b, threadFold, j));
    Value partial = ClusterReduceOp::create(b, kind, fold);
    ifThen(arith::AndIOp::create(b, isThreadZero(), rankZero), [&] {
      Value cluster = arith::DivUIOp::create(b, blockIndex, index(clusterBlocks));
      LLVM::StoreOp::create(b, partial, scratchSlot(i64(0), toI64(cluster)), elementBytes);
      writeSingleResult(blocks, partial);
    });
    return kernel;
  }
  Value partial = blockReduce(threadFold, /*items=*/true);
  ifThen(isThreadZero(), [&] {
    LLVM::StoreOp::create(b, partial, scratchSlot(i64(0), toI64(blockIndex)),
                          elementBytes);
    writeSingleResult(blocks, partial);
  });
  return kernel;
}

void DeviceKernelBuilder::writeSingleResult(Value blocks, Value partial) {
  // A grid of one block, or of one cluster (the input fits one chunk),
  // also writes the result, what reduce_finish makes of the one partial
  // (the padding it combines with leaves it as it is), so that
  // reduce_finish may be skipped (warp.device_skip_if_single).
  ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, blocks, index(clusterBlocks)),
         [&] { memref::StoreOp::create(b, reduceResult(partial), output, ValueRange{index(0)}); });
}

SmallVector<Value> DeviceKernelBuilder::blockReduceTuples(Region &region, ValueRange values,
                                                         Value validThreads) {
  auto reduce = BlockReduceOp::create(b, values.getTypes(), CombineKindAttr(), values,
                                      /*items=*/false, validThreads, /*commutative=*/false,
                                      ResultLanes::All, BlockReduceAlgorithmAttr(),
                                      /*tile=*/nullptr);
  IRMapping mapping;
  region.cloneInto(&reduce.getCombiner(), mapping);
  return SmallVector<Value>(reduce.getResult());
}

SmallVector<Value> DeviceKernelBuilder::tupleTilePartial(Region &region, TypeRange types,
                                                         Value offset, int64_t items) {
  // The thread's `items` consecutive elements of each input (blocked),
  // zeros past n, which never reach the region.
  SmallVector<Value> loaded;
  for (auto [i, type] : llvm::enumerate(types))
    loaded.push_back(loadTile(operands[i], arith::ConstantOp::create(b, b.getZeroAttr(type)),
                              offset, items, 1, std::nullopt));
  auto itemOf = [&](int64_t j) {
    return llvm::map_to_vector(loaded, [&](Value vector) -> Value {
      return vector::ExtractOp::create(b, vector, j);
    });
  };
  // The thread folds its items before n from the left.
  Value start = arith::AddIOp::create(
      b, offset, arith::MulIOp::create(b, thread, index(items)));
  Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, start, n);
  Value held = arith::SelectOp::create(b, inside, arith::SubIOp::create(b, n, start),
                                       index(0));
  SmallVector<Value> fold = itemOf(0);
  for (int64_t j = 1; j < items; ++j) {
    Value more = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, index(j), held);
    auto step = scf::IfOp::create(b, types, more, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(step.thenBlock());
    scf::YieldOp::create(b, combineTuples(region, fold, itemOf(j)));
    b.setInsertionPointToStart(step.elseBlock());
    scf::YieldOp::create(b, fold);
    fold = SmallVector<Value>(step.getResults());
  }
  // The threads that hold an element: a prefix of the block.
  Value left = arith::MinUIOp::create(b, arith::SubIOp::create(b, n, offset),
                                      index(items * DeviceTiling::kThreads));
  Value threads = arith::IndexCastOp::create(
      b, b.getI32Type(), arith::CeilDivUIOp::create(b, left, index(items)));
  return blockReduceTuples(region, fold, threads);
}

void DeviceKernelBuilder::buildTupleReduce(gpu::GPUModuleOp module,
                                           DeviceReduceCombineOp op) {
  Region &region = op.getCombiner();
  TupleTiling tiling(op);
  ArrayRef<Type> types = tiling.types;
  size_t width = types.size();
  int64_t items = tiling.items, tileItems = tiling.tileItems;
  int64_t chunkItems = DeviceTiling::reduceChunkItems(tiling.widest);
  // Partial tuple `index` (i64), element `i`: slot index * width + i.
  auto partialSlot = [&](Value partial, size_t i) {
    return scratchSlot(i64(0), arith::AddIOp::create(
                                   b, arith::MulIOp::create(b, partial, i64(width)),
                                   i64(i)));
  };

  // The kernel's init values and outputs (after startKernel: its operands).
  ValueRange init, outputs;
  auto storeOutputs = [&](ValueRange result) {
    for (size_t i = 0; i < width; ++i)
      memref::StoreOp::create(b, result[i], outputs[i], ValueRange{index(0)});
  };

  // reduce_tiles: block c folds the tiles of chunk c, in order. A grid of
  // one block (n within one chunk, or 0) also writes `init (op) partial`,
  // or `init` for no elements, what reduce_finish makes of a single
  // partial, so that reduce_finish may be skipped
  // (warp.device_skip_if_single).
  startKernel(module, "reduce_tiles", chunkItems);
  init = ValueRange(operands).slice(width, width);
  outputs = ValueRange(operands).slice(2 * width, width);
  Value chunk = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  Value single = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq, gpu::GridDimOp::create(b, gpu::Dimension::x), index(1));
  Value base = arith::MulIOp::create(b, chunk, index(chunkItems));
  auto inside = scf::IfOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, base, n),
      /*withElseRegion=*/true);
  b.setInsertionPoint(inside.elseBlock()->getTerminator());
  ifThen(arith::AndIOp::create(b, single, isThreadZero()), [&] { storeOutputs(init); });
  b.setInsertionPoint(inside.thenBlock()->getTerminator());
  {
    Value tiles = arith::MinUIOp::create(
        b, arith::CeilDivUIOp::create(b, arith::SubIOp::create(b, n, base), index(tileItems)),
        index(DeviceTiling::kReduceTilesPerBlock));
    auto loop = scf::ForOp::create(b, index(1), tiles, index(1),
                                   tupleTilePartial(region, types, base, items));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value offset = arith::AddIOp::create(
          b, base, arith::MulIOp::create(b, loop.getInductionVar(), index(tileItems)));
      SmallVector<Value> partial = tupleTilePartial(region, types, offset, items);
      scf::YieldOp::create(b, combineTuples(region, loop.getRegionIterArgs(), partial));
    }
    ifThen(isThreadZero(), [&] {
      for (size_t i = 0; i < width; ++i)
        LLVM::StoreOp::create(b, loop.getResult(i), partialSlot(toI64(chunk), i),
                              bytesOf(types[i]));
      ifThen(single, [&] { storeOutputs(combineTuples(region, init, loop.getResults())); });
    });
  }
  b.setInsertionPointAfter(inside);

  // reduce_finish: one block folds the chunks' partials, kThreads at a
  // time, in order, then puts init in front.
  gpu::GPUFuncOp finish = startKernel(module, "reduce_finish", std::nullopt);
  finish->setAttr(kSkipIfSingleAttrName, b.getUnitAttr());
  init = ValueRange(operands).slice(width, width);
  outputs = ValueRange(operands).slice(2 * width, width);
  Value empty = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, n, index(0));
  auto whether = scf::IfOp::create(b, empty, /*withElseRegion=*/true);
  b.setInsertionPoint(whether.thenBlock()->getTerminator());
  ifThen(isThreadZero(), [&] { storeOutputs(init); });
  b.setInsertionPoint(whether.elseBlock()->getTerminator());
  Value partials = arith::CeilDivUIOp::create(b, n, index(chunkItems));
  auto group = [&](Value first) {
    Value at = arith::AddIOp::create(b, first, thread);
    Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, at, partials);
    auto load = scf::IfOp::create(b, types, valid, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(load.thenBlock());
      SmallVector<Value> values;
      for (size_t i = 0; i < width; ++i)
        values.push_back(LLVM::LoadOp::create(b, types[i], partialSlot(toI64(at), i),
                                              bytesOf(types[i])));
      scf::YieldOp::create(b, values);
      b.setInsertionPointToStart(load.elseBlock());
      scf::YieldOp::create(b, llvm::map_to_vector(types, [&](Type type) -> Value {
                             return arith::ConstantOp::create(b, b.getZeroAttr(type));
                           }));
    }
    Value count = arith::MinUIOp::create(b, arith::SubIOp::create(b, partials, first),
                                         index(DeviceTiling::kThreads));
    return blockReduceTuples(region, load.getResults(),
                             arith::IndexCastOp::create(b, b.getI32Type(), count));
  };
  auto loop = scf::ForOp::create(b, index(DeviceTiling::kThreads), partials,
                                 index(DeviceTiling::kThreads), group(index(0)));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next = group(loop.getInductionVar());
    scf::YieldOp::create(b, combineTuples(region, loop.getRegionIterArgs(), next));
  }
  SmallVector<Value> result = combineTuples(region, init, loop.getResults());
  ifThen(isThreadZero(), [&] { storeOutputs(result); });
}

void DeviceKernelBuilder::buildTupleSegmentedReduce(gpu::GPUModuleOp module,
                                                    DeviceSegmentedReduceCombineOp op) {
  TupleTiling tiling(op);
  size_t width = tiling.types.size();
  // A block per segment (outputs#0's elements), at most the cap,
  // grid-strided.
  gpu::GPUFuncOp kernel = startKernel(module, "segmented_reduce", 1);
  kernel->setAttr(kGridOperandAttrName, b.getI64IntegerAttr(2 * width));
  kernel->setAttr(kGridMaxAttrName,
                  b.getI64IntegerAttr(DeviceTiling::kSegmentedReduceMaxBlocks));
  ValueRange init = ValueRange(operands).slice(width, width);
  ValueRange outputs = ValueRange(operands).slice(2 * width, width);
  OpBuilder::InsertionGuard guard(b);
  Segment bounds = enterSegments(operands[3 * width], operands[3 * width + 1],
                                 memref::DimOp::create(b, outputs.front(), 0));
  // The segment's tiles, from its first element, each folded on the right
  // of what the tiles before it (and init) made; tupleTilePartial's
  // elements end at the segment's end. An empty segment has no tile.
  llvm::SaveAndRestore<Value> segmentEnd(n, bounds.last);
  Region &region = op.getCombiner();
  auto loop =
      scf::ForOp::create(b, bounds.first, bounds.last, index(tiling.tileItems), init);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> partial =
        tupleTilePartial(region, tiling.types, loop.getInductionVar(), tiling.items);
    scf::YieldOp::create(b, combineTuples(region, loop.getRegionIterArgs(), partial));
  }
  ifThen(isThreadZero(), [&] {
    for (size_t i = 0; i < width; ++i)
      memref::StoreOp::create(b, loop.getResult(i), outputs[i],
                              ValueRange{bounds.number});
  });
}

void DeviceKernelBuilder::buildReduceFinish(gpu::GPUModuleOp module) {
  int64_t perBlock = tileItemCount();
  gpu::GPUFuncOp kernel = startKernel(module, "reduce_finish", std::nullopt);
  // A reduce_tiles grid of one block (or one cluster) also writes the
  // result.
  kernel->setAttr(kSkipIfSingleAttrName, b.getUnitAttr());
  // A partial per block (or cluster) of reduce_tiles: its grid (one block
  // up to reduceSingleBlockItems, else min(ceil(n / perBlock), the cap)),
  // over the cluster's blocks rounded up.
  Value partials = arith::SelectOp::create(
      b,
      arith::CmpIOp::create(b, arith::CmpIPredicate::ule, n,
                            index(DeviceTiling::reduceSingleBlockItems(perBlock))),
      index(1),
      arith::MinUIOp::create(
          b,
          arith::MaxUIOp::create(b, arith::CeilDivUIOp::create(b, n, index(perBlock)),
                                 index(1)),
          index(DeviceTiling::kReduceMaxBlocks)));
  if (clusterBlocks > 1)
    partials = arith::CeilDivUIOp::create(b, partials, index(clusterBlocks));
  auto loop = scf::ForOp::create(b, thread, partials,
                                 index(DeviceTiling::kThreads),
                                 ValueRange{pad(element)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value partial = LLVM::LoadOp::create(
        b, element, scratchSlot(i64(0), toI64(loop.getInductionVar())),
        elementBytes);
    scf::YieldOp::create(b, combine(loop.getRegionIterArgs()[0], partial));
  }
  Value total = blockReduce(loop.getResult(0), /*items=*/false);
  ifThen(isThreadZero(), [&] {
    memref::StoreOp::create(b, reduceResult(total), output, ValueRange{index(0)});
  });
}

void DeviceKernelBuilder::buildSegmentedReduce(gpu::GPUModuleOp module) {
  // A block per output element (segment), at most the cap, grid-strided.
  gpu::GPUFuncOp kernel = startKernel(module, "segmented_reduce", 1);
  kernel->setAttr(kGridOperandAttrName, b.getI64IntegerAttr(1));
  kernel->setAttr(kGridMaxAttrName,
                  b.getI64IntegerAttr(DeviceTiling::kSegmentedReduceMaxBlocks));
  // The kernel writes only the output, which overlaps no input (the op's
  // contract): the input may take the read-only data path.
  kernel.setArgAttr(0, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  kernel.setArgAttr(0, LLVM::LLVMDialect::getReadonlyAttrName(), b.getUnitAttr());
  // The operands end in init, not in the output.
  output = operands[1];
  Value begins = operands[2], ends = operands[3];
  // Without init, the kind's identity.
  Value init = operands.size() > 4
                   ? operands[4]
                   : buildCombineIdentity(b, b.getLoc(), kind, element);
  if (init.getType() != element)
    init = arith::BitcastOp::create(b, element, init);
  OpBuilder::InsertionGuard guard(b);
  Segment bounds = enterSegments(begins, ends, memref::DimOp::create(b, output, 0));
  Value segment = bounds.number, first = bounds.first, last = bounds.last;
  Value nonEmpty = bounds.nonEmpty;
  // Thread t folds elements first + t + k * kThreads, k = 0, 1, ... in
  // order: whole steps of kSegmentedReduceItemsPerThread loads without
  // bounds checks (all in flight at once), then the rest one at a time.
  int64_t unroll = DeviceTiling::kSegmentedReduceItemsPerThread;
  int64_t step = unroll * DeviceTiling::kThreads;
  Value length = arith::SelectOp::create(
      b, nonEmpty, arith::SubIOp::create(b, last, first), index(0));
  Value wholeEnd = arith::AddIOp::create(
      b, first,
      arith::MulIOp::create(
          b, arith::DivUIOp::create(b, length, index(step)), index(step)));
  Value start = arith::AddIOp::create(b, first, thread);
  auto whole = scf::ForOp::create(b, start, wholeEnd, index(step),
                                  ValueRange{pad(element)});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(whole.getBody());
    SmallVector<Value> items;
    for (int64_t k = 0; k < unroll; ++k) {
      Value at = arith::AddIOp::create(b, whole.getInductionVar(),
                                       index(k * DeviceTiling::kThreads));
      items.push_back(memref::LoadOp::create(b, input, ValueRange{at}));
    }
    Value folded = whole.getRegionIterArgs()[0];
    for (Value item : items)
      folded = combine(folded, item);
    scf::YieldOp::create(b, folded);
  }
  auto rest = scf::ForOp::create(
      b, arith::AddIOp::create(b, wholeEnd, thread), last,
      index(DeviceTiling::kThreads), whole.getResults());
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(rest.getBody());
    Value item = memref::LoadOp::create(b, input, ValueRange{rest.getInductionVar()});
    scf::YieldOp::create(b, combine(rest.getRegionIterArgs()[0], item));
  }
  Value total = blockReduce(rest.getResult(0), /*items=*/false);
  ifThen(isThreadZero(), [&] {
    // An empty segment gets init itself (the padding of no items may
    // differ from the identity: -0.0 for a float sum).
    Value result = arith::SelectOp::create(b, nonEmpty, combine(init, total), init);
    memref::StoreOp::create(b, result, output, ValueRange{segment});
  });
}

} // namespace mlir::warp::device_ops
