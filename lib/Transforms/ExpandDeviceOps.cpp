//===- ExpandDeviceOps.cpp - device-wide ops to kernels and launches ------===//
//
// warp-expand-device-ops (Passes.td): warp.device_reduce,
// device_segmented_reduce, device_scan, device_select, device_partition
// (and their predicate forms, device_select_if and device_partition_if),
// device_unique, device_run_length_encode, device_non_trivial_runs,
// device_histogram, device_radix_sort (also double-buffered),
// device_segmented_radix_sort (also double-buffered),
// device_reduce_combine and device_scan_combine (also by key) become
// kernels made of warp ops in a gpu.module of their own, and the host code
// that allocates their scratch and launches them. This file is the pass
// and the host code; each family's kernels are built in DeviceOps/
// (Reduce.cpp, Scan.cpp, Select.cpp, Histogram.cpp, RadixSort.cpp, which
// say how each works) by DeviceKernelBuilder (DeviceOps/
// DeviceKernelBuilder.h, with the scratch layouts the host code sizes).
//
//===----------------------------------------------------------------------===//

#include "DeviceOps/DeviceKernelBuilder.h"
#include "WarpDialect/Target/Chip.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPEXPANDDEVICEOPSPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;
using namespace mlir::warp::device_ops;

namespace {

/// A short name of `type` for symbol names (f32, i64).
std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

struct WarpExpandDeviceOpsPass
    : public warp::impl::WarpExpandDeviceOpsPassBase<WarpExpandDeviceOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<Chip> target = Chip::parse(chip);
    if (!target) {
      getOperation()->emitError() << Chip::unknownChipMessage(chip);
      return signalPassFailure();
    }
    oneClusterScans = target->hasClusters();
    modules.clear();
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isDeviceCollective(op))
        ops.push_back(op);
    });
    // The symbol table of each module that gets kernels, built once.
    SymbolTableCollection symbols;
    for (Operation *op : ops)
      expand(op, symbols);
  }

  /// What a radix sort `op` sorts, and `name`, the name of its kernels'
  /// module: for the key and value types, the order and the bits.
  template <typename SortOp>
  static RadixSortConfig radixSortConfig(SortOp op, std::string &name) {
    Type key = op.getKeyType();
    Type value = op.getValuesIn() ? op.getValuesIn().getType().getElementType() : Type();
    RadixSortConfig config{key,
                           value,
                           op.getIsSigned(),
                           op.getDescending(),
                           op.getBeginBitOrDefault(),
                           op.getEndBitOrDefault()};
    name = (Twine("warp_") + op->getName().stripDialect() + "_" + typeName(key) +
            (value ? "_" + typeName(value) : "") + (op.getIsSigned() ? "_signed" : "") +
            (op.getDescending() ? "_descending" : "") +
            (op.getBeginBit() ? "_bits" + Twine(config.begin) + "_" + Twine(config.end)
                              : Twine()))
               .str();
    return config;
  }

  /// The gpu.module of `op`'s kernels, in the module closest around `op`:
  /// the one made for an op alike (by this run or an earlier one: it states
  /// its scratch), else a new one (renamed if the name is taken).
  gpu::GPUModuleOp kernelsOf(Operation *op, SymbolTableCollection &symbols) {
    if (isa<DeviceReduceCombineOp, DeviceScanCombineOp, DeviceSegmentedReduceCombineOp>(op))
      return tupleKernels(cast<CombiningOpInterface>(op), symbols);
    auto reduce = dyn_cast<DeviceReduceOp>(op);
    auto segmented = dyn_cast<DeviceSegmentedReduceOp>(op);
    auto scan = dyn_cast<DeviceScanOp>(op);
    bool partition = isa<DevicePartitionOp, DevicePartitionIfOp>(op);
    auto histogram = dyn_cast<DeviceHistogramOp>(op);
    auto sort = dyn_cast<DeviceRadixSortOp>(op);
    auto segmentedSort = dyn_cast<DeviceSegmentedRadixSortOp>(op);
    bool unique = isa<DeviceUniqueOp>(op);
    auto runs = dyn_cast<DeviceRunLengthEncodeOp>(op);
    auto nonTrivial = dyn_cast<DeviceNonTrivialRunsOp>(op);
    // A select_if's or partition_if's predicate, part of its kernels: no
    // other op shares them.
    Region *predicate = nullptr;
    if (auto selectIf = dyn_cast<DeviceSelectIfOp>(op))
      predicate = &selectIf.getPredicate();
    if (auto partitionIf = dyn_cast<DevicePartitionIfOp>(op))
      predicate = &partitionIf.getPredicate();
    bool select =
        isa<DeviceSelectOp>(op) || partition || unique || runs || nonTrivial || predicate;
    Selection selection = partition    ? Selection::Partition
                          : unique     ? Selection::Unique
                          : runs       ? Selection::RunLengths
                          : nonTrivial ? Selection::NonTrivialRuns
                                       : Selection::Flagged;
    // A histogram's counters go to workgroup memory where their number is
    // static and small enough.
    std::optional<int64_t> privateBins;
    if (histogram) {
      // Every channel's bins (A x K, flat).
      MemRefType binsType = histogram.getOutput().getType();
      if (binsType.hasStaticShape() &&
          binsType.getNumElements() <= DeviceTiling::kMaxPrivateHistogramBins)
        privateBins = binsType.getNumElements();
    }
    Type data = cast<MemRefType>(op->getOperand(0).getType()).getElementType();
    // A selection scans i64 counts of its kept elements.
    int64_t clusterBlocks = 1;
    if (scan && scan.getClusterBlocks())
      clusterBlocks = *scan.getClusterBlocks();
    if (reduce && reduce.getClusterBlocks())
      clusterBlocks = *reduce.getClusterBlocks();
    CombineKind kind = reduce      ? reduce.getKind()
                       : segmented ? segmented.getKind()
                       : scan      ? scan.getKind()
                                   : CombineKind::Add;
    Type element = select ? IntegerType::get(&getContext(), 64) : data;
    std::string name =
        (Twine("warp_device_") +
         op->getName().stripDialect().drop_front(StringRef("device_").size()) +
         (select || histogram ? "" : "_" + stringifyCombineKind(kind).str()) +
         "_" + typeName(data) +
         (scan && scan.getKeys()
              ? "_by_key_" + typeName(scan.getKeys().getType().getElementType())
              : "") +
         (scan && scan.getExclusive() ? "_exclusive" : "") +
         (clusterBlocks > 1 ? "_cluster" + std::to_string(clusterBlocks) : "") +
         (histogram
              ? "_" +
                    typeName(histogram.getOutput().getType().getElementType()) +
                    (privateBins ? "_bins" + std::to_string(*privateBins) : "") +
                    (histogram.getChannels()
                         ? "_channels" + std::to_string(histogram.getChannelCount()) + "x" +
                               std::to_string(histogram.getActiveChannelCount())
                         : "") +
                    (histogram.getIsUnsigned() ? "_unsigned" : "") +
                    (histogram.hasEvenLevels() ? "_even"
                     : histogram.getLevels()   ? "_range"
                                               : "") +
                    (histogram.hasLevels() && histogram.getLevelType() != data
                         ? "_" + typeName(histogram.getLevelType()) +
                               (histogram.getLevelsUnsigned() ? "_unsigned" : "")
                         : "")
              : "") +
         (runs ? "_" + typeName(runs.getCountsOut().getType().getElementType())
               : "") +
         (nonTrivial
              ? "_" +
                    typeName(nonTrivial.getOffsetsOut().getType().getElementType()) +
                    "_" +
                    typeName(nonTrivial.getLengthsOut().getType().getElementType())
              : "") +
         (segmented
              ? "_" +
                    typeName(segmented.getBegin().getType().getElementType()) +
                    "_" +
                    typeName(segmented.getEnd().getType().getElementType()) +
                    (segmented.getInit() ? "_init" : "")
              : ""))
            .str();
    std::optional<RadixSortConfig> sortConfig;
    if (sort) {
      sortConfig = radixSortConfig(sort, name);
      sortConfig->tiles = RadixSortConfig::Tiles::Ranked;
    }
    if (segmentedSort) {
      sortConfig = radixSortConfig(segmentedSort, name);
      // Kernels also for the offsets' types.
      name += "_" + typeName(segmentedSort.getBegin().getType().getElementType()) + "_" +
              typeName(segmentedSort.getEnd().getType().getElementType());
    }
    if (sort && radixSortMaxBlocks > 0) {
      sortConfig->histogramMaxBlocks = radixSortMaxBlocks;
      // A module of its own: its kernels' grids and scratch differ.
      name += "_max_blocks" + std::to_string(radixSortMaxBlocks);
    }
    if (sort && radixSortWideStatusFrom > 0) {
      sortConfig->wideStatusFrom = radixSortWideStatusFrom;
      name += "_wide_status_from" + std::to_string(radixSortWideStatusFrom);
    }
    if ((sort && sort.getDoubleBuffer()) || (segmentedSort && segmentedSort.getDoubleBuffer())) {
      sortConfig->doubleBuffer = true;
      name += "_double_buffer";
    }
    auto top = op->getParentOfType<ModuleOp>();
    top->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                 UnitAttr::get(&getContext()));
    SymbolTable &table = symbols.getSymbolTable(top);
    auto &made = modules[top];
    if (!predicate) {
      if (gpu::GPUModuleOp existing = made.lookup(name))
        return existing;
      if (auto existing = table.lookup<gpu::GPUModuleOp>(name);
          existing && existing->hasAttr(kScratchAttrName))
        return made[name] = existing;
    }
    ImplicitLocOpBuilder b(op->getLoc(), top.getContext());
    b.setInsertionPointToEnd(top.getBody());
    auto module = gpu::GPUModuleOp::create(b, name);
    table.insert(module);
    if (!predicate)
      made[name] = module;
    SmallVector<Type> operandTypes = kernelOperandTypes(op);
    DeviceKernelBuilder kernels(b, kind, element, operandTypes, data);
    int64_t bytes = data.getIntOrFloatBitWidth() / 8;
    // A scan by key's tile holds as many keys as values, sized by the
    // wider of the two.
    if (scan && scan.getKeys()) {
      bytes = std::max<int64_t>(
          bytes, scan.getKeys().getType().getElementType().getIntOrFloatBitWidth() / 8);
      kernels.setTileBytes(bytes);
    }
    if (segmentedSort) {
      kernels.buildSegmentedRadixSort(module, *sortConfig);
      // A buffer of the keys' size, and of the values' from the next 8-byte
      // boundary: at most 8 bytes more; none with doubleBuffer (8 bytes, so
      // that no allocation is empty).
      module->setAttr(kScratchAttrName,
                      sortConfig->doubleBuffer
                          ? b.getDenseI64ArrayAttr({8, 0, 1})
                          : b.getDenseI64ArrayAttr(
                                {16, sortConfig->keyBytes() + sortConfig->valueBytes(), 1}));
    } else if (sort) {
      kernels.buildRadixSort(module, *sortConfig);
      module->setAttr(kScratchAttrName,
                      b.getDenseI64ArrayAttr({sortConfig->binsBytes(),
                                              sortConfig->perTileBytes(),
                                              sortConfig->tileItems()}));
    } else if (histogram) {
      kernels.buildHistogram(module, histogram, privateBins);
      // No scratch: 8 bytes, so that no allocation is empty.
      module->setAttr(kScratchAttrName, b.getDenseI64ArrayAttr({8, 0, 1}));
    } else if (segmented) {
      kernels.buildSegmentedReduce(module);
      // No scratch: 8 bytes, so that no allocation is empty.
      module->setAttr(kScratchAttrName, b.getDenseI64ArrayAttr({8, 0, 1}));
    } else if (reduce) {
      kernels.setThreadBytes(DeviceTiling::reduceThreadBytes(element));
      // In clusters, first: an input that one block folds alone
      // (warp.device_grid_single) is one block's launch, not a cluster's
      // (a cluster's launch takes longer: 5.3 against 4.1 us for 2^12 i32
      // on the H100, docs/results/device-targets-h100-7dc340d.json).
      if (clusterBlocks > 1) {
        gpu::GPUFuncOp oneBlock = kernels.buildReduceTiles(module, "reduce_one_block");
        setAlone(oneBlock, oneBlock->getAttrOfType<IntegerAttr>(kGridSingleAttrName).getInt());
      }
      kernels.setClusterBlocks(clusterBlocks);
      kernels.buildReduceTiles(module);
      kernels.buildReduceFinish(module);
      // One 8-byte partial per block of reduce_tiles (at most one a tile).
      module->setAttr(kScratchAttrName,
                      b.getDenseI64ArrayAttr({0, 8, kernels.tileItemCount()}));
    } else {
      kernels.setClusterBlocks(clusterBlocks);
      if (select)
        kernels.setTileBytes(selectionTileBytes(selection, bytes));
      else
        kernels.setThreadBytes(
            DeviceTiling::scanThreadBytes(bytes, /*byKey=*/bool(scan.getKeys())));
      kernels.setPredicate(predicate);
      // First, so that the host code decides on it first: a scan of a kind
      // of 2 to kOneClusterScanBlocks tiles in one cluster, without
      // scan_init (a cluster's blocks look back at no status); in
      // smaller clusters too, which would take several clusters and a
      // look-back there (clusters of 2 and 4 at 8 tiles of i32: 0.73-0.75x
      // CUB, where one cluster of 8 took 1.12x on the H100,
      // docs/results/device-targets-h100-7dc340d.md).
      if (scan && !scan.getKeys() && clusterBlocks < DeviceTiling::kOneClusterScanBlocks &&
          oneClusterScans) {
        int64_t tile = kernels.tileItemCount();
        kernels.setClusterBlocks(DeviceTiling::kOneClusterScanBlocks);
        gpu::GPUFuncOp oneCluster =
            kernels.buildScan(module, scan.getExclusive(), "scan_one_cluster");
        kernels.setClusterBlocks(clusterBlocks);
        setAlone(oneCluster, tile * DeviceTiling::kOneClusterScanBlocks, /*over=*/tile);
      }
      kernels.buildScanInit(module, /*lastKept=*/runs || nonTrivial);
      if (!select)
        kernels.buildScan(module, scan.getExclusive());
      else
        kernels.buildSelect(module, selection);
      module->setAttr(kScratchAttrName,
                      b.getDenseI64ArrayAttr(
                          {0, ScanScratch::perTile(1), kernels.statusItems()}));
    }
    if (sortConfig && sortConfig->doubleBuffer)
      module->setAttr(kResultBufferAttrName, b.getI32IntegerAttr(sortConfig->resultBuffer()));
    return module;
  }

  /// The kernels of a warp.device_reduce_combine or
  /// warp.device_scan_combine: a module of its own (its region is part of
  /// them), which takes its init values as parameters.
  gpu::GPUModuleOp tupleKernels(CombiningOpInterface op,
                                SymbolTableCollection &symbols) {
    auto scan = dyn_cast<DeviceScanCombineOp>(op.getOperation());
    auto segmented = dyn_cast<DeviceSegmentedReduceCombineOp>(op.getOperation());
    SmallVector<Type> types = op.getCombinedTypes();
    std::string name =
        ("warp_" + op->getName().stripDialect()).str();
    for (Type type : types)
      name += "_" + typeName(type);
    if (segmented)
      name += "_" + typeName(segmented.getBegin().getType().getElementType()) + "_" +
              typeName(segmented.getEnd().getType().getElementType());
    if (scan && scan.getKeys())
      name += "_by_key_" + typeName(scan.getKeyType()) +
              (scan.getEqual().empty() ? "" : "_equal");
    if (scan && !scan.getInit().empty())
      name += "_init";
    if (scan && scan.getExclusive())
      name += "_exclusive";
    auto top = op->getParentOfType<ModuleOp>();
    top->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                 UnitAttr::get(&getContext()));
    ImplicitLocOpBuilder b(op->getLoc(), top.getContext());
    b.setInsertionPointToEnd(top.getBody());
    auto module = gpu::GPUModuleOp::create(b, name);
    symbols.getSymbolTable(top).insert(module);
    SmallVector<Type> operandTypes = kernelOperandTypes(op);
    DeviceKernelBuilder kernels(b, CombineKind::Add, types.front(), operandTypes);
    if (scan) {
      // A tile of tuples, and by key as many keys.
      int64_t tupleBytes = scan.getKeys() ? bytesOf(scan.getKeyType()) : 0;
      for (Type type : types)
        tupleBytes += bytesOf(type);
      int64_t tileBytes = DeviceTiling::tupleScanTileBytes(tupleBytes);
      kernels.setTileBytes(tileBytes);
      kernels.setTupleCombiner(&scan.getCombiner(), types);
      kernels.buildScanInit(module);
      kernels.buildTupleScan(module, scan);
      // A status word and a total and prefix slot per element, per tile.
      module->setAttr(kScratchAttrName,
                      b.getDenseI64ArrayAttr({0, ScanScratch::perTile(types.size()),
                                              DeviceTiling::tileItems(tileBytes)}));
      return module;
    }
    if (segmented) {
      kernels.buildTupleSegmentedReduce(module, segmented);
      // No scratch: 8 bytes, so that no allocation is empty.
      module->setAttr(kScratchAttrName, b.getDenseI64ArrayAttr({8, 0, 1}));
      return module;
    }
    kernels.buildTupleReduce(module, cast<DeviceReduceCombineOp>(op.getOperation()));
    // A partial tuple (an 8-byte slot per element) per chunk.
    module->setAttr(kScratchAttrName,
                    b.getDenseI64ArrayAttr({0, 8 * int64_t(types.size()),
                                            DeviceTiling::reduceChunkItems(widestBytes(types))}));
    return module;
  }

  /// The types of the kernels' operands before (scratch, n): the op's
  /// memrefs as memref<?xT>, a segmented reduction's and a tuple scan's
  /// init and a histogram's even levels as the integers of their bits (so
  /// that any frontend can pass an f16 or bf16 one), a tuple reduction's
  /// init values as they are.
  SmallVector<Type> kernelOperandTypes(Operation *op) {
    SmallVector<Type> types;
    for (Value operand : op->getOperands()) {
      Type type = operand.getType();
      if (auto memref = dyn_cast<MemRefType>(type))
        types.push_back(
            MemRefType::get({ShapedType::kDynamic}, memref.getElementType()));
      else if (isa<DeviceSegmentedReduceOp, DeviceScanCombineOp, DeviceHistogramOp>(op))
        types.push_back(
            IntegerType::get(&getContext(), type.getIntOrFloatBitWidth()));
      else
        types.push_back(type);
    }
    return types;
  }

  /// `memref` as 1-D (a histogram's 2-D bins and levels: their rows one
  /// after the other, which the kernels index).
  static Value flatten(ImplicitLocOpBuilder &b, Value memref) {
    if (cast<MemRefType>(memref.getType()).getRank() == 1)
      return memref;
    return memref::CollapseShapeOp::create(b, memref,
                                           ArrayRef<ReassociationIndices>{{0, 1}});
  }

  /// `memref` as `type` (itself where it has that type).
  static Value castTo(ImplicitLocOpBuilder &b, Type type, Value memref) {
    if (memref.getType() == type)
      return memref;
    return memref::CastOp::create(b, type, memref);
  }

  /// Whether a scan of a few tiles is one launch of one cluster (the
  /// target chip has clusters).
  bool oneClusterScans = false;

  /// The modules this run made or reused, by the module that holds them
  /// and their name.
  DenseMap<Operation *, llvm::StringMap<gpu::GPUModuleOp>> modules;

  /// Replaces `op` with the scratch allocation and the launches its
  /// module states.
  void expand(Operation *op, SymbolTableCollection &symbols) {
    gpu::GPUModuleOp module = kernelsOf(op, symbols);
    ImplicitLocOpBuilder b(op->getLoc(), op);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, value);
    };
    Value n = memref::DimOp::create(b, op->getOperand(0), 0);
    // The op's operands as the kernels take them (kernelOperandTypes).
    SmallVector<Value> arguments;
    for (auto [operand, type] :
         llvm::zip(op->getOperands(), kernelOperandTypes(op))) {
      if (operand.getType() == type)
        arguments.push_back(operand);
      else if (isa<MemRefType>(type))
        arguments.push_back(castTo(b, type, flatten(b, operand)));
      else
        arguments.push_back(arith::BitcastOp::create(b, type, operand));
    }
    Value one = constant(1);
    // `count` blocks: `one` for one.
    auto blocks = [&](int64_t count) { return count > 1 ? constant(count) : one; };
    // max(1, ceil(count / items)), count n by default: an empty input
    // still gets one block.
    auto blocksFor = [&](int64_t items, Value count = Value()) -> Value {
      return arith::MaxUIOp::create(
          b, arith::CeilDivUIOp::create(b, count ? count : n, constant(items)), one);
    };
    ArrayRef<int64_t> rule =
        cast<DenseI64ArrayAttr>(module->getAttr(kScratchAttrName)).asArrayRef();
    Value tiles = blocksFor(rule[2]);
    Value bytes = arith::AddIOp::create(b, constant(rule[0]),
                                        arith::MulIOp::create(b, constant(rule[1]), tiles));
    // One chain of asynchronous GPU work (the host lowering takes gpu.alloc
    // only in this form), waited for at its end as a launch would be.
    Type token = gpu::AsyncTokenType::get(&getContext());
    Value ready = gpu::WaitOp::create(b, token, ValueRange{}).getAsyncToken();
    auto scratchType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    auto alloc = gpu::AllocOp::create(b, scratchType, token, ValueRange{ready},
                                      ValueRange{bytes}, /*symbolOperands=*/ValueRange{},
                                      /*hostShared=*/false);
    ready = alloc.getAsyncToken();
    arguments.push_back(alloc.getMemref());
    arguments.push_back(n);
    // The blocks of `kernel`'s clusters (1 without).
    auto clusterBlocksOf = [](gpu::GPUFuncOp kernel) -> int64_t {
      std::optional<ArrayRef<int32_t>> cluster = kernel.getKnownClusterSize();
      return cluster ? (*cluster)[0] : 1;
    };
    // The blocks of `kernel`'s grid.
    auto gridOf = [&](gpu::GPUFuncOp kernel) -> Value {
      Value grid = one;
      // The elements the grid rules count: n, or operand K's.
      Value count = n;
      if (auto counted = kernel->getAttrOfType<IntegerAttr>(kGridOperandAttrName))
        count = memref::DimOp::create(b, op->getOperand(counted.getInt()), 0);
      if (auto items = kernel->getAttrOfType<IntegerAttr>(kGridAttrName))
        grid = blocksFor(items.getInt(), count);
      if (auto least = kernel->getAttrOfType<DenseI64ArrayAttr>(kGridMinAttrName))
        grid = arith::MaxUIOp::create(
            b, grid,
            arith::MinUIOp::create(b, blocksFor(least[1], count), constant(least[0])));
      if (auto most = kernel->getAttrOfType<IntegerAttr>(kGridMaxAttrName))
        grid = arith::MinUIOp::create(b, grid, constant(most.getInt()));
      if (auto single = kernel->getAttrOfType<IntegerAttr>(kGridSingleAttrName))
        grid = arith::SelectOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::ule, count,
                                  constant(single.getInt())),
            one, grid);
      // A clustered kernel: whole clusters.
      if (int64_t cluster = clusterBlocksOf(kernel); cluster > 1)
        grid = arith::MulIOp::create(
            b, arith::CeilDivUIOp::create(b, grid, constant(cluster)), constant(cluster));
      return grid;
    };
    // A launched kernel's grid and the blocks of its clusters (1 without):
    // its grid is one cluster where it is that many blocks.
    struct Launched {
      Value grid;
      int64_t clusterBlocks = 1;
    };
    // Launches `kernel` after `chain`, which becomes its token, on `grid`
    // where the caller knows it.
    auto launch = [&](gpu::GPUFuncOp kernel, Value &chain, Value grid) -> Launched {
      if (!grid)
        grid = gridOf(kernel);
      ArrayRef<int32_t> block = *kernel.getKnownBlockSize();
      chain = gpu::LaunchFuncOp::create(
                  b, kernel, gpu::KernelDim3{grid, one, one},
                  gpu::KernelDim3{constant(block[0]), constant(block[1]),
                                  constant(block[2])},
                  /*dynamicSharedMemorySize=*/Value(), arguments, token,
                  ValueRange{chain})
                  .getAsyncToken();
      return {grid, clusterBlocksOf(kernel)};
    };
    SmallVector<gpu::GPUFuncOp> kernels(module.getOps<gpu::GPUFuncOp>());
    // The launches of kernels[first...] after `chain`, then the scratch's
    // release and the wait. A kernel that may be skipped after a grid of
    // one block or cluster (warp.device_skip_if_single) or before one
    // (warp.device_skip_before_single) forks them, with branch-on-grid:
    // the rest with it where that grid is more, without it else; each
    // branch keeps its own chain of tokens, so that none leaves its
    // region. A warp.device_alone_up_to kernel forks them on n. `previous`:
    // the kernel launched last; `firstGrid`: kernels[first]'s grid where a
    // fork on it already has it (one block or cluster, in the branch where
    // it is that).
    std::function<void(size_t, Value, Launched, Value)> launchFrom =
        [&](size_t first, Value chain, Launched previous, Value firstGrid) {
          for (size_t i = first; i < kernels.size(); ++i) {
            gpu::GPUFuncOp kernel = kernels[i];
            // A kernel that does all the work for n in (over, upTo]: the
            // only launch there, of one block or cluster, none elsewhere
            // (nor without branches: the others do the work for every n).
            if (auto upTo = kernel->getAttrOfType<IntegerAttr>(kAloneUpToAttrName)) {
              if (!branchOnGrid)
                continue;
              Value alone =
                  arith::CmpIOp::create(b, arith::CmpIPredicate::ule, n, constant(upTo.getInt()));
              if (auto over = kernel->getAttrOfType<IntegerAttr>(kAloneOverAttrName))
                alone = arith::AndIOp::create(
                    b, alone,
                    arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, n,
                                          constant(over.getInt())));
              auto fork = scf::IfOp::create(b, alone, /*withElseRegion=*/true);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(fork.thenBlock()->getTerminator());
              Value launched = chain;
              Launched taken = launch(kernel, launched, blocks(clusterBlocksOf(kernel)));
              launchFrom(kernels.size(), launched, taken, Value());
              b.setInsertionPoint(fork.elseBlock()->getTerminator());
              launchFrom(i + 1, chain, previous, Value());
              return;
            }
            Value known = i == first ? firstGrid : Value();
            // The grid the fork decides on, the most blocks that count as
            // single (one cluster of the kernel before), and the next
            // kernel's grid where that is it.
            Value decisive, next;
            int64_t single = 1;
            if (branchOnGrid && previous.grid && kernel->hasAttr(kSkipIfSingleAttrName)) {
              decisive = previous.grid;
              single = previous.clusterBlocks;
            } else if (branchOnGrid && i + 1 < kernels.size() &&
                       kernel->hasAttr(kSkipBeforeSingleAttrName)) {
              decisive = next = gridOf(kernels[i + 1]);
              single = clusterBlocksOf(kernels[i + 1]);
            }
            if (decisive) {
              Value many =
                  arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, decisive, constant(single));
              auto fork = scf::IfOp::create(b, many, /*withElseRegion=*/true);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(fork.thenBlock()->getTerminator());
              Value launched = chain;
              Launched taken = launch(kernel, launched, known);
              launchFrom(i + 1, launched, taken, next);
              b.setInsertionPoint(fork.elseBlock()->getTerminator());
              launchFrom(i + 1, chain, previous, next ? blocks(single) : Value());
              return;
            }
            previous = launch(kernel, chain, known);
          }
          chain = gpu::DeallocOp::create(b, token, ValueRange{chain}, alloc.getMemref())
                      .getAsyncToken();
          gpu::WaitOp::create(b, Type(), ValueRange{chain});
        };
    launchFrom(0, ready, Launched(), Value());
    // A double-buffered sort's result: the buffer that its module says.
    if (auto resultBuffer = module->getAttrOfType<IntegerAttr>(kResultBufferAttrName))
      op->getResult(0).replaceAllUsesWith(arith::ConstantOp::create(b, resultBuffer));
    op->erase();
  }
};

} // namespace
