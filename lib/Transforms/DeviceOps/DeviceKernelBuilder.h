//===- DeviceKernelBuilder.h - the kernels of device-wide ops ---*- C++ -*-===//
//
// What warp-expand-device-ops (lib/Transforms/ExpandDeviceOps.cpp, the
// pass: host code, scratch and launches) shares with the files that build
// each family's kernels out of warp ops (Reduce.cpp, Scan.cpp, Select.cpp,
// Histogram.cpp, RadixSort.cpp in this directory): the attributes that
// state the launches, the scratch layouts, the tilings, and
// DeviceKernelBuilder, whose methods those files define.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_LIB_TRANSFORMS_DEVICEOPS_DEVICEKERNELBUILDER_H
#define WARP_LIB_TRANSFORMS_DEVICEOPS_DEVICEKERNELBUILDER_H

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Transforms/BlockPositions.h"
#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::warp::device_ops {

/// The attributes that state the launches (Passes.td's description).
constexpr llvm::StringLiteral kGridAttrName = "warp.device_grid";
constexpr llvm::StringLiteral kGridMaxAttrName = "warp.device_grid_max";
constexpr llvm::StringLiteral kGridMinAttrName = "warp.device_grid_min";
constexpr llvm::StringLiteral kGridSingleAttrName = "warp.device_grid_single";
constexpr llvm::StringLiteral kScratchAttrName = "warp.device_scratch";
constexpr llvm::StringLiteral kGridOperandAttrName = "warp.device_grid_operand";
constexpr llvm::StringLiteral kSkipIfSingleAttrName = "warp.device_skip_if_single";
constexpr llvm::StringLiteral kSkipBeforeSingleAttrName = "warp.device_skip_before_single";
constexpr llvm::StringLiteral kResultBufferAttrName = "warp.device_result_buffer";
constexpr llvm::StringLiteral kAloneUpToAttrName = "warp.device_alone_up_to";
constexpr llvm::StringLiteral kAloneOverAttrName = "warp.device_alone_over";

/// Marks `kernel` as the only launch, of one block or cluster, for n in
/// (over, upTo] (from 0 without `over`), and no launch for other n.
inline void setAlone(gpu::GPUFuncOp kernel, int64_t upTo,
                     std::optional<int64_t> over = std::nullopt) {
  Builder b(kernel.getContext());
  kernel->setAttr(kAloneUpToAttrName, b.getI64IntegerAttr(upTo));
  if (over)
    kernel->setAttr(kAloneOverAttrName, b.getI64IntegerAttr(*over));
}

/// A scan tile's status word: nothing published yet, its total, or the
/// combination of every element up to and including the tile.
constexpr int32_t kStatusNone = 0, kStatusTotal = 1, kStatusPrefix = 2;

/// A selection of runs' last kept position of a tile (in the totals'
/// slots, which its packed counts leave free) before the tile has stored
/// it, and where nothing up to the tile is kept (non-trivial runs only).
constexpr int64_t kNoPosition = -1, kNothingKept = -2;

/// The scratch of a scan or selection, in bytes, for T tiles: T status
/// words (8 bytes each) from offset 0, then T totals and T prefixes of a
/// tuple of `width` values (an 8-byte slot each; a single value of up to 4
/// bytes travels in its status word instead).
struct ScanScratch {
  static constexpr int64_t perTile(int64_t width) { return 8 + 2 * 8 * width; }
};

/// What a selection keeps and where the rest goes.
enum class Selection {
  Flagged,    // the flagged elements
  Partition,  // the flagged ones, then the others in reverse at the end
  Unique,     // the first of each run of equal elements
  RunLengths, // unique's, and the length of each run
  NonTrivialRuns, // the position of the first of each run of two or more
};

/// The occupancy hint of a selection's kernel (DeviceTiling), for tiles of
/// `itemBytes`-byte items: none for 1- and 2-byte items, whose 32 or 64
/// items per thread would spill to local memory in the registers left.
inline int64_t selectionMinBlocksPerSM(Selection selection, int64_t itemBytes) {
  if (itemBytes < 4)
    return 0;
  switch (selection) {
  case Selection::Flagged:
    return DeviceTiling::kSelectMinBlocksPerSM;
  case Selection::Partition:
    return DeviceTiling::kPartitionMinBlocksPerSM;
  case Selection::Unique:
    return DeviceTiling::kUniqueMinBlocksPerSM;
  case Selection::RunLengths:
  case Selection::NonTrivialRuns:
    return DeviceTiling::kRunLengthMinBlocksPerSM;
  }
  llvm_unreachable("a selection");
}

/// Whether a selection stages the tile positions of what it keeps (a
/// run-length encoding's heads, a non-trivial run's).
inline bool stagesPositions(Selection selection) {
  return selection == Selection::RunLengths ||
         selection == Selection::NonTrivialRuns;
}

/// The item size that sets a selection's tile (DeviceTiling's items per
/// thread): its element's, but at least 4 bytes for a run-length
/// encoding, whose tile stages an i16 position per item in workgroup
/// memory besides the items: the 64 i8 items per thread of a select tile
/// would need more workgroup memory than a block has, and positions past
/// 2^15 would not fit.
inline int64_t selectionTileBytes(Selection selection, int64_t dataBytes) {
  return stagesPositions(selection) ? std::max<int64_t>(dataBytes, 4)
                                    : dataBytes;
}

/// The bytes of a value of `type` (an integer or float).
inline int64_t bytesOf(Type type) { return type.getIntOrFloatBitWidth() / 8; }

/// The bytes of the widest of `types` (a tuple's elements), which size a
/// tuple op's tiles.
inline int64_t widestBytes(TypeRange types) {
  int64_t widest = 1;
  for (Type type : types)
    widest = std::max<int64_t>(widest, bytesOf(type));
  return widest;
}

/// How a tuple reduction's kernels tile its inputs: the region's types,
/// and tiles of DeviceTiling's items of the widest of them.
struct TupleTiling {
  SmallVector<Type> types;
  int64_t widest, items, tileItems;

  explicit TupleTiling(CombiningOpInterface op)
      : types(op.getCombinedTypes()), widest(widestBytes(types)),
        items(DeviceTiling::itemsPerThread(widest)),
        tileItems(DeviceTiling::tileItems(widest)) {}
};

/// What a warp.device_radix_sort sorts: its key and value (null: keys
/// only) types, its order and its bits, and its tile.
struct RadixSortConfig {
  Type key, value;
  bool isSigned, descending;
  unsigned begin, end;
  /// The two buffers of the op (keys_in and keys_out, and the values')
  /// are the passes' only storage (double_buffer).
  bool doubleBuffer = false;
  /// The most blocks of onesweep's histogram kernel.
  int64_t histogramMaxBlocks = DeviceTiling::kRadixSortHistogramMaxBlocks;
  /// The keys from which onesweep's status words are 64 bits wide: its
  /// prefix counts take 31 bits below.
  int64_t wideStatusFrom = int64_t(1) << 31;
  /// What a tile is, which sets its size: sorted with a block radix sort
  /// pass (the segmented sort, whose short segments' sorts share those
  /// buffers), ranked and scattered by its ranks (the device sort's
  /// onesweep), or a whole input of at most a tile sorted over every bit
  /// at once (the device sort's single tile).
  enum class Tiles { Sorted, Ranked, Whole };
  Tiles tiles = Tiles::Sorted;

  static constexpr int64_t kDigits = int64_t(1) << DeviceTiling::kRadixSortPassBits;
  int64_t keyBytes() const { return key.getIntOrFloatBitWidth() / 8; }
  int64_t valueBytes() const { return value ? value.getIntOrFloatBitWidth() / 8 : 0; }
  int64_t itemsPerThread() const {
    if (tiles == Tiles::Whole)
      return DeviceTiling::radixSortSingleTileItemsPerThread(keyBytes(), valueBytes());
    return DeviceTiling::radixSortItemsPerThread(keyBytes(), valueBytes(),
                                                 tiles == Tiles::Ranked);
  }
  int64_t tileItems() const { return itemsPerThread() * DeviceTiling::kThreads; }
  unsigned passes() const {
    return llvm::divideCeil(end - begin, unsigned(DeviceTiling::kRadixSortPassBits));
  }
  /// The first bit and the bits of pass `pass`.
  unsigned shift(unsigned pass) const {
    return begin + pass * DeviceTiling::kRadixSortPassBits;
  }
  unsigned bits(unsigned pass) const {
    return std::min<unsigned>(DeviceTiling::kRadixSortPassBits, end - shift(pass));
  }
  /// Whether pass `pass` writes the op's outputs (else the scratch's
  /// buffers, or with doubleBuffer the inputs): the passes alternate; the
  /// last writes the outputs, or with doubleBuffer the first does.
  bool writesOutputs(unsigned pass) const {
    return (doubleBuffer ? pass : passes() - 1 - pass) % 2 == 0;
  }
  /// The buffer that holds the result: 1 (the outputs), or with
  /// doubleBuffer the one that the last pass writes.
  int32_t resultBuffer() const { return writesOutputs(passes() - 1) ? 1 : 0; }

  /// Onesweep's scratch for T tiles: every pass's digit totals (kDigits
  /// i64 a pass) at 0 and after them a tile ticket a pass (i64; 256-byte
  /// aligned after), then two arrays of the tiles' look-back status
  /// (a word per tile and digit, in 8-byte slots: the words are 32 bits
  /// wide below 2^31 keys), which the passes take by turns, then the
  /// buffers the passes alternate with (none with doubleBuffer): T tiles
  /// of keys, then of values.
  static constexpr int64_t kStatusBytesPerTile = 2 * kDigits * 8;
  int64_t binsBytes() const { return llvm::alignTo(passes() * (kDigits + 1) * 8, 256); }
  /// The bins' element (i64) of pass `pass`'s tile ticket.
  int64_t ticketElement(unsigned pass) const { return passes() * kDigits + pass; }
  int64_t perTileBytes() const {
    return kStatusBytesPerTile +
           (doubleBuffer ? 0 : tileItems() * (keyBytes() + valueBytes()));
  }
};

/// Builds the kernels of one device op (the same for every op alike).
class DeviceKernelBuilder {
public:
  /// Kernels that combine `element` values with `kind`, over tiles of
  /// `data` elements (the element type unless given: a selection's tiles
  /// are of its data, its scan of i64 counts).
  DeviceKernelBuilder(ImplicitLocOpBuilder &b, CombineKind kind, Type element,
                      TypeRange operandTypes, Type data = {})
      : b(b), kind(kind), element(element),
        elementBytes(element.getIntOrFloatBitWidth() / 8),
        dataBytes((data ? data : element).getIntOrFloatBitWidth() / 8),
        tileBytes(dataBytes),
        operandTypes(operandTypes) {}

  /// The kernel `name` of the module, with the (operands..., scratch, n)
  /// signature (the op's memrefs as memref<?xT>); its body is built at
  /// `b`'s insertion point, which is left at the kernel's end (before
  /// gpu.return).
  gpu::GPUFuncOp startKernel(gpu::GPUModuleOp module, StringRef name,
                             std::optional<int64_t> gridItems) {
    MLIRContext *ctx = b.getContext();
    SmallVector<Type> params(operandTypes);
    params.push_back(MemRefType::get({ShapedType::kDynamic}, b.getI8Type()));
    params.push_back(b.getIndexType());
    auto type = FunctionType::get(ctx, params, {});
    b.setInsertionPointToEnd(module.getBody());
    auto kernel = gpu::GPUFuncOp::create(b, name, type);
    kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    kernel.setKnownBlockSizeAttr(
        b.getDenseI32ArrayAttr({int32_t(DeviceTiling::kThreads), 1, 1}));
    if (gridItems)
      kernel->setAttr(kGridAttrName, b.getI64IntegerAttr(*gridItems));
    Block &entry = kernel.getBody().front();
    b.setInsertionPointToEnd(&entry);
    gpu::ReturnOp::create(b);
    b.setInsertionPoint(entry.getTerminator());
    operands.assign(entry.getArguments().begin(),
                    entry.getArguments().begin() + operandTypes.size());
    input = operands.front();
    output = operands.back();
    scratch = entry.getArgument(operandTypes.size());
    n = entry.getArgument(operandTypes.size() + 1);
    thread = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
    return kernel;
  }

  gpu::GPUFuncOp buildReduceTiles(gpu::GPUModuleOp module, StringRef name = "reduce_tiles");
  void buildReduceFinish(gpu::GPUModuleOp module);
  /// reduce_tiles' writer of the result where its grid of `blocks` is one
  /// block or cluster: what reduce_finish makes of the one `partial`.
  void writeSingleResult(Value blocks, Value partial);
  /// A warp.device_reduce_combine's kernels (operands: the inputs, the
  /// init values, the outputs): reduce_tiles folds each chunk of tiles
  /// into a partial tuple, reduce_finish folds the partials and `init`.
  /// Both keep the input order, so the region need only be associative.
  void buildTupleReduce(gpu::GPUModuleOp module, DeviceReduceCombineOp op);
  /// A segmented reduction's kernel: operands (input, output, begin, end),
  /// then init's bits where the op has an init.
  void buildSegmentedReduce(gpu::GPUModuleOp module);
  /// A warp.device_segmented_reduce_combine's kernel (operands: the
  /// inputs, the init values, the outputs, begin, end): a block per
  /// segment folds its tiles in order from `init`, as buildTupleReduce's
  /// blocks fold theirs.
  void buildTupleSegmentedReduce(gpu::GPUModuleOp module,
                                 DeviceSegmentedReduceCombineOp op);
  /// The kernel that clears the tiles' status words before a scan or a
  /// selection; for a selection of runs (`lastKept`) also each tile's last
  /// kept position (buildSelect), to kNoPosition.
  void buildScanInit(gpu::GPUModuleOp module, bool lastKept = false);
  /// A scan (the kernel `name`); by key where the kernel's operands end in
  /// the keys.
  gpu::GPUFuncOp buildScan(gpu::GPUModuleOp module, bool exclusive, StringRef name = "scan");
  /// A warp.device_scan_combine's scan kernel (operands: the inputs, the
  /// init values' bits, the outputs), after buildScanInit; the tiles
  /// publish tuples (setTupleCombiner). Keeps the input order, so the
  /// region need only be associative.
  void buildTupleScan(gpu::GPUModuleOp module, DeviceScanCombineOp op);
  /// Makes the scans' tiles publish and combine tuples of `types` with
  /// `region` (a device_scan_combine's) instead of one element with the
  /// kind.
  void setTupleCombiner(Region *region, TypeRange types) {
    tupleRegion = region;
    tupleTypes.assign(types.begin(), types.end());
  }
  /// Stores a scan's tile `result` (the thread's items) at `offset` of
  /// `target` (the output where not given).
  void storeTile(Value result, Value offset, Value target = Value());
  /// Scans in thread-block clusters of `blocks` blocks: a look-back step
  /// (a status word) per cluster of tiles rather than per tile.
  void setClusterBlocks(int64_t blocks) { clusterBlocks = blocks; }
  /// Tiles of DeviceTiling's items of `bytes` bytes (a selection's
  /// selectionTileBytes, a scan by key's wider of values and keys), for
  /// every kernel built after.
  void setTileBytes(int64_t bytes) { tileBytes = bytes; }
  /// Tiles of which a thread holds `bytes` (DeviceTiling's
  /// kTileBytesPerThread unless set), for every kernel built after.
  void setThreadBytes(int64_t bytes) { threadBytes = bytes; }
  /// The items a thread holds of a tile, and a tile's items.
  int64_t tileItemsPerThread() const {
    return DeviceTiling::itemsPerThread(tileBytes, threadBytes);
  }
  int64_t tileItemCount() const { return DeviceTiling::tileItems(tileBytes, threadBytes); }
  /// The elements of a tile whose look-back status is one word: a tile's,
  /// or a cluster's tiles'.
  int64_t statusItems() const { return tileItemCount() * clusterBlocks; }
  /// A selection's kernel; its tiles are of selectionTileBytes' items.
  /// Runs (a run-length encoding, the non-trivial runs) take one pass:
  /// each tile stores its last kept position for the tiles after it, and
  /// the tile where a run that starts earlier ends writes its length.
  void buildSelect(gpu::GPUModuleOp module, Selection selection);
  /// A selection of runs' last kept position (i64) to `slot` (a pointer
  /// into the scratch), and from it once stored (kNoPosition until then).
  void storePosition(Value position, Value slot);
  Value awaitPosition(Value slot);
  /// Makes buildSelect's flagged selection or partition keep the elements
  /// that `region` (a device_select_if's or device_partition_if's `pred`)
  /// holds for, instead of the flagged ones: operands (input, output,
  /// count).
  void setPredicate(Region *region) { predicate = region; }
  /// `histogram`'s kernels: into `bins` bins counted in workgroup memory
  /// first, or straight into the output where `bins` is not given.
  void buildHistogram(gpu::GPUModuleOp module, DeviceHistogramOp histogram,
                      std::optional<int64_t> bins);
  /// A histogram's bin of `sample` in `channel` (an index below the
  /// active channels; null without channels) as an i32, -1 where it is not
  /// counted: by `op`'s levels, even (the kernel's operands from 2, a lower
  /// and an upper level per channel) or a range (operand 2, a row of
  /// levels per channel), or without levels the sample itself where it is
  /// below the bins per channel. Call after the kernel's start.
  std::function<Value(Value, Value)> histogramBinOf(DeviceHistogramOp op);
  /// A radix sort's kernels: radix_sort_single_tile, which sorts an input
  /// of at most a single tile alone (warp.device_alone_up_to), then CUB's
  /// onesweep (RadixSortConfig's scratch layout): a histogram of every
  /// pass's digits, then a kernel per pass.
  void buildRadixSort(gpu::GPUModuleOp module, const RadixSortConfig &sort);
  /// A segmented radix sort's kernel: operands (keys_in, keys_out, begin,
  /// end, values_in, values_out), a block per segment; its scratch is one
  /// buffer of the keys' size (and one of the values', from the next
  /// 8-byte boundary).
  void buildSegmentedRadixSort(gpu::GPUModuleOp module, const RadixSortConfig &sort);

private:
  /// The radix images (vector<N x iW>) of the thread's `keys` (a vector of
  /// N) of a tile whose first `valid` (i32) keys, in `arrangement`
  /// (blocked or warp-striped), are keys: all ones past them, which sort
  /// after every key (`valid` null: a whole tile, every item a key).
  Value radixTileImages(const RadixSortConfig &sort, Value keys, Value valid,
                        Arrangement arrangement = Arrangement::Blocked);
  /// Counts each of the thread's `keys` (in `arrangement`) of the tile's
  /// first `valid` (every key where null) by its digit (image bits
  /// [shift, shift + bits)) in `counts` (workgroup i32 counters, a
  /// workgroup atomic each, from counter `firstCounter`).
  void countRadixDigits(const RadixSortConfig &sort, Value keys, Value valid, Value counts,
                        unsigned shift, unsigned bits,
                        Arrangement arrangement = Arrangement::Blocked,
                        int64_t firstCounter = 0);
  /// Whether the thread's item j (of a tile in `arrangement`, at the
  /// positions of the block ops: BlockPositions) is among the tile's
  /// first `valid` (i32).
  Value tileItemInside(BlockPositions &positions, int64_t j, Arrangement arrangement,
                       Value valid) {
    Value position =
        arith::IndexCastOp::create(b, b.getI32Type(), positions.position(j, arrangement));
    return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, position, valid);
  }
  /// The tile's images (radixTileImages) and `values` (may be null) sorted
  /// by image bits [begin, end), striped: thread t gets ranks t, t + B, ...
  BlockRadixSortOp sortRadixTile(const RadixSortConfig &sort, Value keys, Value values,
                                 Value valid, unsigned begin, unsigned end);
  /// Stores the keys (from their `images`) and `values` (may be null) of
  /// a sorted tile, striped (thread t holds ranks t, t + B, ...), of the
  /// ranks below `valid` (every rank where null) at `placeOf(image, rank)`
  /// (an index) of `destKeys` and `destValues`.
  void storeSortedTile(const RadixSortConfig &sort, Value images, Value values, Value valid,
                       Value destKeys, Value destValues,
                       function_ref<Value(Value, Value)> placeOf);
  /// Sorts the keys (and values) of `source` from element `first` (index)
  /// up to `n`, at most a tile, with one block radix sort over every bit,
  /// into `dest` at the same positions (may be `source`: the block has
  /// read its whole tile before the sort's first barrier), loaded by
  /// `load` (the block load's own choice by default).
  void sortWholeTile(const RadixSortConfig &sort, Value first, std::pair<Value, Value> source,
                     std::pair<Value, Value> dest,
                     std::optional<BlockMemoryAlgorithm> load = std::nullopt);
  /// A segment of a segmented op: its number, its bounds [first, last)
  /// (index), and whether it holds anything (first < last).
  struct Segment {
    Value number, first, last, nonEmpty;
  };
  /// Enters the loop of a block over its segments, blockIdx.x, + gridDim.x,
  /// ... below `segments` (b is left in its body; the caller restores its
  /// insertion point), and returns the segment, its bounds read (signed)
  /// from `begins` and `ends`.
  Segment enterSegments(Value begins, Value ends, Value segments) {
    Value blockIndex = gpu::BlockIdOp::create(b, gpu::Dimension::x);
    Value blocks = gpu::GridDimOp::create(b, gpu::Dimension::x);
    auto loop = scf::ForOp::create(b, blockIndex, segments, blocks);
    b.setInsertionPointToStart(loop.getBody());
    Value number = loop.getInductionVar();
    auto offset = [&](Value offsets) -> Value {
      Value value = memref::LoadOp::create(b, offsets, ValueRange{number});
      return arith::IndexCastOp::create(b, b.getIndexType(), value);
    };
    Value first = offset(begins);
    Value last = offset(ends);
    return {number, first, last,
            arith::CmpIOp::create(b, arith::CmpIPredicate::slt, first, last)};
  }
  /// The integer at `at` of `memref` as an i64 (zero-extended where
  /// narrower), where `inside`; 0 elsewhere (no load).
  Value loadI64If(Value inside, Value memref, Value at) {
    return ifElse(
        inside, b.getI64Type(),
        [&]() -> Value {
          Value loaded = memref::LoadOp::create(b, memref, ValueRange{at});
          if (loaded.getType() == b.getI64Type())
            return loaded;
          return arith::ExtUIOp::create(b, b.getI64Type(), loaded);
        },
        [&] { return i64(0); });
  }
  /// The block's exclusive sum of the threads' `value`s (i64), in thread
  /// order.
  Value exclusiveBlockSum(Value value) {
    return BlockScanOp::create(b, TypeRange{value.getType()},
                               CombineKindAttr::get(b.getContext(), CombineKind::Add), value,
                               /*items=*/false, ValueRange{}, /*exclusive=*/true,
                               /*reverse=*/false, /*heads=*/Value(), BlockScanAlgorithmAttr(), /*tile=*/nullptr)
        .getScanned()[0];
  }
  /// Workgroup memory of `size` elements of `type` for `kernel`.
  Value workgroupArray(gpu::GPUFuncOp kernel, int64_t size, Type type) {
    auto memrefType = MemRefType::get(
        {size}, type, AffineMap(),
        gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
    return kernel.addWorkgroupAttribution(memrefType, b.getLoc());
  }
  /// The workgroup arrays of `digits` digits that moveRadixTiles uses: a
  /// tile's digit counters (i32), and where the digit's keys go in the
  /// output less their ranks (i64).
  struct RadixTileMemory {
    Value counts, bases;
  };
  RadixTileMemory radixTileMemory(gpu::GPUFuncOp kernel, int64_t digits);
  /// Thread d's count (i64; 0 for d past the radix) of the keys of digit d
  /// (bits [shift, shift + bits) of their images) that `count` adds to the
  /// workgroup counters `counts`, which it clears first.
  Value countDigits(unsigned bits, Value counts, function_ref<void()> count);
  /// countDigits of the keys in the tiles of `source` at element offsets
  /// first, first + a tile, ... below `last` (index).
  Value countRadixTiles(const RadixSortConfig &sort, unsigned shift, unsigned bits,
                        Value source, Value first, Value last, Value counts);
  /// Moves those tiles' keys (and values) from `source` to `dest`, tile by
  /// tile in order, each sorted stably by the digit (striped, so that the
  /// stores of a digit's keys are consecutive): a key goes to `start`
  /// (thread d's: the i64 position where digit d's keys of these tiles
  /// begin) plus its rank among them. Each tile is counted by atomics and
  /// sorted with one warp.block_radix_sort pass, whose buffers the
  /// segmented sort's kernel shares with its short segments' sorts.
  void moveRadixTiles(const RadixSortConfig &sort, unsigned shift, unsigned bits,
                      std::pair<Value, Value> source, std::pair<Value, Value> dest,
                      Value first, Value last, Value start, const RadixTileMemory &memory);
  /// One least-significant-digit pass of a segmented radix sort over the
  /// long segment [first, last) (index) from the `source` keys and values
  /// to `dest`'s, at the same positions; `counts` the segment's digit
  /// counters.
  void sortSegmentPass(const RadixSortConfig &sort, unsigned pass, Value first, Value last,
                       std::pair<Value, Value> source, std::pair<Value, Value> dest,
                       Value counts, const RadixTileMemory &memory);
  /// A typed view of `count` elements of `type` at byte `offset` (index)
  /// of the scratch.
  Value scratchView(Type type, Value offset, Value count) {
    return memref::ViewOp::create(b, MemRefType::get({ShapedType::kDynamic}, type),
                                  scratch, offset, ValueRange{count});
  }
  /// The scratch's buffers of keys and values that a radix sort's passes
  /// alternate with (none with doubleBuffer; no values for keys only).
  struct RadixScratchViews {
    Value keys, values;
  };
  /// Onesweep's kernels: radix_init (one block) clears the digit totals,
  /// radix_histogram (a capped grid) counts every pass's digits of the
  /// input at once and clears the first pass's status array,
  /// radix_digit_starts scans the totals, and radix_onesweep_<pass> moves
  /// each tile (a block per tile).
  void buildRadixInit(gpu::GPUModuleOp module, const RadixSortConfig &sort);
  /// radix_sort_single_tile (one block): sortWholeTile of the whole input,
  /// into the buffer that holds the result.
  void buildRadixSingleTile(gpu::GPUModuleOp module, const RadixSortConfig &sort);
  void buildRadixHistogram(gpu::GPUModuleOp module, const RadixSortConfig &sort);
  /// radix_digit_starts (one block): each pass's totals become the digits'
  /// starts (an exclusive scan over the digits), in place.
  void buildRadixDigitStarts(gpu::GPUModuleOp module, const RadixSortConfig &sort);
  void buildRadixOnesweep(gpu::GPUModuleOp module, const RadixSortConfig &sort,
                          unsigned pass);
  /// Onesweep's scratch: its tiles (at least one), every pass's digit
  /// totals (i64, [pass][digit]), the byte offset of the status arrays
  /// (i64) and the buffers.
  struct OnesweepScratch {
    Value tiles, bins, status;
    RadixScratchViews buffers;
  };
  OnesweepScratch onesweepScratch(const RadixSortConfig &sort);
  /// The pointer to digit `digit`'s status word (of `wordType`, i32 or
  /// i64) of tile `tile` (index) in status array `array` (0 or 1).
  Value statusWord(const OnesweepScratch &views, unsigned array, Value tile, Value digit,
                   Type wordType);
  /// What `body` builds with the status words' type: i32 below
  /// `sort.wideStatusFrom` keys, else i64 (a word holds a flag above a
  /// count of up to n keys); its result, of `type` (none where null).
  Value withStatusWords(const RadixSortConfig &sort, Type type,
                        function_ref<Value(Type)> body);
  /// Stores `word` (of the status words' type) as thread d's status word
  /// of digit d of tile `tile` in `array`, a relaxed atomic store.
  void storeStatusWord(const OnesweepScratch &views, unsigned array, Value tile, Value word);
  /// Clears thread d's status word of digit d of tile `tile` in `array`.
  void clearStatus(const RadixSortConfig &sort, const OnesweepScratch &views,
                   unsigned array, Value tile);
  /// Publishes thread d's `count` (i64) of digit d's keys in tile `tile`
  /// (index) in status array `array`: tile 0's as its prefix, a later
  /// tile's as its aggregate, which its successors' look-backs add up
  /// while this tile still ranks its keys (CUB's early counts).
  void publishDigitCount(const RadixSortConfig &sort, const OnesweepScratch &views,
                         unsigned array, Value tile, Value count);
  /// Thread d's look-back for digit d of tile `tile` after
  /// publishDigitCount: adds the counts of the tiles before back to the
  /// nearest with a prefix and publishes the tile's prefix (its `count`
  /// added); returns the keys of the digit in the tiles before (i64).
  Value lookBackDigit(const RadixSortConfig &sort, const OnesweepScratch &views,
                      unsigned array, Value tile, Value count);
  /// A tile ranked by a pass's digit (bits [shift, shift + bits) of the
  /// images) and scattered to rank order (striped): the images and values
  /// so arranged, and thread d's start (i64) of digit d's keys in the
  /// tile (0 past the radix). The ranking is CUB's early-count match
  /// ranking (warp.block_radix_rank ranking = <match_early>): `counted`
  /// runs in every thread, in the op's counts region, with its count
  /// (i64) of digit d's keys in the tile as soon as the counts are known,
  /// before the ranking (values it makes stay in the region);
  /// `beforeScatter` with its start and that count once the start is
  /// known, before the scatter (onesweep looks back there, so that its
  /// successors' wait does not include the scatter).
  struct RankedTile {
    Value images, values, start;
  };
  /// The keys and values of the tile at element `offset` (index) of
  /// `source`'s (values null where `source` has none: keys only),
  /// blocked or warp-striped.
  std::pair<Value, Value>
  loadRadixTile(const RadixSortConfig &sort, std::pair<Value, Value> source, Value offset,
                bool warpStriped, std::optional<BlockMemoryAlgorithm> algorithm = std::nullopt) {
    auto load = [&](Value from, Type type) -> Value {
      return loadTile(from, arith::ConstantOp::create(b, b.getZeroAttr(type)), offset,
                      sort.itemsPerThread(), 1, algorithm, warpStriped);
    };
    return {load(source.first, sort.key),
            source.second ? load(source.second, sort.value) : Value()};
  }
  /// storeSortedTile's place of a key (its image) at `rank` of the tile:
  /// its digit's base (workgroup i64 `bases`, by the digit of image bits
  /// [shift, shift + bits)) plus the rank.
  std::function<Value(Value, Value)> placeByBase(Value bases, unsigned shift, unsigned bits) {
    return [this, bases, shift, bits](Value image, Value rank) -> Value {
      Value base = memref::LoadOp::create(b, bases, ValueRange{radixDigit(image, shift, bits)});
      return arith::AddIOp::create(b, arith::IndexCastOp::create(b, b.getIndexType(), base),
                                   rank);
    };
  }
  /// `whole` (i1) says the tile is whole: its images need no padding.
  RankedTile rankRadixTile(const RadixSortConfig &sort, unsigned shift, unsigned bits,
                           Value keys, Value values, Value valid, Value whole,
                           function_ref<void(Value)> counted,
                           function_ref<void(Value, Value)> beforeScatter);
  /// The keys and values (null for keys only) that pass `pass` of a radix
  /// sort writes, or, for pass -1, the op's inputs: what pass `pass + 1`
  /// reads.
  std::pair<Value, Value> radixBuffers(const RadixSortConfig &sort,
                                       const RadixScratchViews &views, int pass) {
    Value values = sort.value ? operands[2] : Value();
    if (pass < 0)
      return {operands[0], values};
    if (sort.writesOutputs(pass))
      return {operands[1], sort.value ? operands[3] : Value()};
    if (sort.doubleBuffer)
      return {operands[0], values};
    return {views.keys, views.values};
  }
  /// A radix sort pass's digit of `image` (bits [shift, shift + bits)), as
  /// an index.
  Value radixDigit(Value image, unsigned shift, unsigned bits) {
    Type type = image.getType();
    Value shifted = arith::ShRUIOp::create(
        b, image, arith::ConstantOp::create(b, b.getIntegerAttr(type, shift)));
    Value digit = arith::AndIOp::create(
        b, shifted,
        arith::ConstantOp::create(
            b, b.getIntegerAttr(type, llvm::maskTrailingOnes<uint64_t>(bits))));
    return arith::IndexCastUIOp::create(b, b.getIndexType(), digit);
  }

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, value);
  }
  Value i32(int64_t value) { return arith::ConstantIntOp::create(b, value, 32); }
  Value i64(int64_t value) { return arith::ConstantIntOp::create(b, value, 64); }
  Value toI64(Value v) {
    return arith::IndexCastOp::create(b, b.getI64Type(), v);
  }
  /// An integer length as a run-length encoding's counts_out element
  /// (operand 2: i32 or i64), or as the element of `target` (an integer
  /// memref) where given.
  Value toCount(Value length, Value target = Value()) {
    auto type = cast<MemRefType>((target ? target : operands[2]).getType())
                    .getElementType();
    unsigned from = length.getType().getIntOrFloatBitWidth();
    unsigned to = type.getIntOrFloatBitWidth();
    if (from == to)
      return length;
    if (from < to)
      return arith::ExtUIOp::create(b, type, length);
    return arith::TruncIOp::create(b, type, length);
  }
  Value pad(Type type) { return buildCombinePadding(b, b.getLoc(), kind, type); }
  /// The block's reduction of `value` (each thread's vector of `items`
  /// folded first), in thread 0.
  Value blockReduce(Value value, bool items) {
    return BlockReduceOp::create(b, TypeRange{element},
                                 CombineKindAttr::get(b.getContext(), kind),
                                 value, items, Value(), /*commutative=*/false,
                                 ResultLanes::First, BlockReduceAlgorithmAttr(),
                                 /*tile=*/nullptr)
        .getResult()[0];
  }
  Value combine(Value lhs, Value rhs) {
    return buildCombine(b, b.getLoc(), kind, lhs, rhs);
  }
  /// A reduction's result from the combination `total` of its partials:
  /// the identity for an empty input (whose partial is the padding, which
  /// may differ from it: -0.0 for a float sum).
  Value reduceResult(Value total) {
    Value empty = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, n, index(0));
    return arith::SelectOp::create(
        b, empty, buildCombineIdentity(b, b.getLoc(), kind, element), total);
  }
  /// A value of `type` computed only where `cond` holds (`then` builds it),
  /// `otherwise` elsewhere.
  Value ifElse(Value cond, Type type, function_ref<Value()> then,
               function_ref<Value()> otherwise) {
    return ifElse(cond, TypeRange{type}, [&] { return SmallVector<Value>{then()}; },
                  [&] { return SmallVector<Value>{otherwise()}; })
        .front();
  }
  /// The same for a tuple of `types`.
  SmallVector<Value> ifElse(Value cond, TypeRange types,
                            function_ref<SmallVector<Value>()> then,
                            function_ref<SmallVector<Value>()> otherwise) {
    auto ifOp = scf::IfOp::create(b, types, cond, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, then());
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, otherwise());
    return SmallVector<Value>(ifOp.getResults());
  }
  /// Runs `body` only where `cond` holds.
  void ifThen(Value cond, function_ref<void()> body) {
    buildIfThen(b, b.getLoc(), cond, body);
  }
  /// The same, or unconditionally where `cond` is null.
  void ifInside(Value cond, function_ref<void()> body) {
    if (cond)
      ifThen(cond, body);
    else
      body();
  }
  /// Reads with `read` until `waiting` of what it read is false, pausing
  /// DeviceTiling::kLookBackPollNs between reads (a look-back's wait for
  /// what earlier tiles publish); the last value read.
  Value pollUntilReady(Type type, function_ref<Value()> read,
                       function_ref<Value(Value)> waiting) {
    auto poll = scf::WhileOp::create(b, TypeRange{type}, ValueRange{});
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&poll.getBefore());
    Value value = read();
    scf::ConditionOp::create(b, waiting(value), ValueRange{value});
    b.createBlock(&poll.getAfter(), {}, {type}, {b.getLoc()});
    NVVM::NanosleepOp::create(b, i32(DeviceTiling::kLookBackPollNs));
    scf::YieldOp::create(b, ValueRange{});
    return poll.getResult(0);
  }
  /// Whether the `items` elements from `offset` (index) all lie below n.
  Value isWholeTile(Value offset, int64_t items) {
    Value end = arith::AddIOp::create(b, offset, index(items));
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ule, end, n);
  }
  /// `body(true)` where the tile of `tileItems` elements at `offset`
  /// (index) lies wholly below n, else `body(false)`: the whole tiles'
  /// code without per-item bounds checks.
  void wholeOrPartialTile(Value offset, int64_t tileItems, function_ref<void(bool)> body) {
    auto which = scf::IfOp::create(b, isWholeTile(offset, tileItems), /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(which.thenBlock()->getTerminator());
    body(true);
    b.setInsertionPoint(which.elseBlock()->getTerminator());
    body(false);
  }
  /// How a scan tile moves its items of `bytes` bytes: DeviceTiling's
  /// choice for the 4- and 8-byte items it exchanges, the policy's
  /// (warp-select-lowering) for narrower ones.
  static std::optional<BlockMemoryAlgorithm> scanTileAlgorithm(int64_t bytes) {
    if (bytes == 4 || bytes == 8)
      return DeviceTiling::kScanTileAlgorithm;
    return std::nullopt;
  }
  /// The same for the data's items.
  std::optional<BlockMemoryAlgorithm> scanTileAlgorithm() const {
    return scanTileAlgorithm(dataBytes);
  }
  /// The logical negation of an i1.
  Value negate(Value cond) {
    return arith::XOrIOp::create(b, cond, arith::ConstantIntOp::create(b, 1, 1));
  }
  /// Leaves `b` inside `if (!empty)` (a launch over nothing, one block for
  /// n = 0, has no tile) and returns the block's tile number (its index).
  Value enterTile(Value empty) {
    auto nonEmpty = scf::IfOp::create(b, negate(empty), /*withElseRegion=*/false);
    b.setInsertionPoint(nonEmpty.thenBlock()->getTerminator());
    return gpu::BlockIdOp::create(b, gpu::Dimension::x);
  }
  Value isThreadZero() {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, index(0));
  }
  /// Makes `kernel` run in clusters of `clusterBlocks` blocks (a 1-D grid:
  /// blocks q C .. q C + C - 1 are cluster q) and returns whether `block`
  /// (its index) is its cluster's rank 0.
  Value enterClusters(gpu::GPUFuncOp kernel, Value block) {
    kernel.setKnownClusterSizeAttr(
        b.getDenseI32ArrayAttr({int32_t(clusterBlocks), 1, 1}));
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                 arith::RemUIOp::create(b, block, index(clusterBlocks)),
                                 index(0));
  }

  /// The global pointer `bytes` (i64) into the scratch buffer.
  Value scratchAt(Value bytes) {
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 1);
    Value base = toI64(memref::ExtractAlignedPointerAsIndexOp::create(b, scratch));
    Value address = arith::AddIOp::create(b, base, bytes);
    return LLVM::IntToPtrOp::create(b, ptrType, address);
  }
  /// Element `slot` (i64) of the array of 8-byte slots at `arrayBytes`.
  Value scratchSlot(Value arrayBytes, Value slot) {
    return scratchAt(arith::AddIOp::create(
        b, arrayBytes, arith::MulIOp::create(b, slot, i64(8))));
  }

  /// Thread's items of the `n` input elements from `offset` (index): a
  /// tile of `pieces` consecutive loads of `count` items per thread
  /// (blocked within each), combined into one vector when `fold`, else
  /// the first piece. Loads without bounds checks where the whole tile is
  /// in bounds, so that all of them can be in flight at once; elsewhere
  /// the elements past `n` are the padding.
  Value loadTile(Value offset, int64_t count, int64_t pieces,
                 std::optional<BlockMemoryAlgorithm> algorithm) {
    return loadTile(input, pad(element), offset, count, pieces, algorithm);
  }
  /// The same from `source`, with `fill` past `n`; `warpStriped` loads
  /// each piece warp-striped instead of blocked (no algorithm then).
  Value loadTile(Value source, Value fill, Value offset, int64_t count,
                 int64_t pieces, std::optional<BlockMemoryAlgorithm> algorithm,
                 bool warpStriped = false) {
    auto type = VectorType::get({count}, fill.getType());
    int64_t piece = count * DeviceTiling::kThreads;
    auto loads = [&](bool checked) {
      auto algorithmAttr = algorithm
                               ? BlockMemoryAlgorithmAttr::get(b.getContext(), *algorithm)
                               : BlockMemoryAlgorithmAttr();
      Value folded;
      for (int64_t i = 0; i < pieces; ++i) {
        Value at = arith::AddIOp::create(b, offset, index(i * piece));
        Value items =
            checked ? BlockLoadOp::create(b, type, source, at, validItems(at, piece),
                                          fill, /*striped=*/false, warpStriped,
                                          algorithmAttr)
                          .getResult()
                    : BlockLoadOp::create(b, type, source, at, Value(), Value(),
                                          /*striped=*/false, warpStriped, algorithmAttr)
                          .getResult();
        folded = folded ? combine(folded, items) : items;
      }
      return folded;
    };
    return ifElse(isWholeTile(offset, piece * pieces), type, [&] { return loads(false); },
                  [&] { return loads(true); });
  }
  /// min(max(n - offset, 0), chunk) as an i32 (`valid` of a partial tile).
  Value validItems(Value offset, int64_t chunk) {
    Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, offset, n);
    Value left = arith::SelectOp::create(
        b, inside, arith::SubIOp::create(b, n, offset), index(0));
    Value valid = arith::MinUIOp::create(b, left, index(chunk));
    return arith::IndexCastOp::create(b, b.getI32Type(), valid);
  }

  /// Where a scan's tiles publish (byte offsets into the scratch): a
  /// status word per tile and, for 8-byte elements, the published values
  /// in two arrays. Values of up to 4 bytes are packed into the status
  /// word below its flag (bit 32 up) instead, and so are a selection's
  /// counts (below bit 62: no count reaches 2^62), so that a reader gets
  /// flag and value in one load.
  struct TileStatus {
    Value words, totals, prefixes;
    /// What a tile publishes: one element, or a tuple's (publishedTypes).
    SmallVector<Type> types;
    /// The flag's first bit in the status word.
    unsigned flagShift;
    bool packedCounts;
    bool packed() const {
      return packedCounts ||
             (types.size() == 1 && types.front().getIntOrFloatBitWidth() <= 32);
    }
  };
  /// What the scans' tiles publish and combine: the tuple's types, or the
  /// one element.
  SmallVector<Type> publishedTypes() const {
    return tupleRegion ? tupleTypes : SmallVector<Type>{element};
  }
  /// `lhs (op) rhs` of what tiles publish: the tuple's region or the kind.
  SmallVector<Value> combinePublished(ValueRange lhs, ValueRange rhs) {
    if (tupleRegion)
      return combineTuples(*tupleRegion, lhs, rhs);
    return {combine(lhs.front(), rhs.front())};
  }
  /// A placeholder of what tiles publish where nothing counts: the kind's
  /// padding (which leaves any value as it is), or zeros for a tuple
  /// (which never reach its region).
  SmallVector<Value> publishedPadding() {
    if (!tupleRegion)
      return {pad(element)};
    return llvm::map_to_vector(tupleTypes, [&](Type type) -> Value {
      return arith::ConstantOp::create(b, b.getZeroAttr(type));
    });
  }
  /// The thread's `inclusive` items (a vector) one item later across the
  /// block: item j gets item j - 1, item 0 the previous thread's last item
  /// (warp.block_shuffle), thread 0's item 0 `first`. An exclusive scan's
  /// items from its inclusive ones.
  Value shiftItems(Value inclusive, Value first);
  /// The thread's keep flags (vector<N x i1>) of the tile at `offset`:
  /// the `flags` memref's non-zero bytes (a unique's are runHeads').
  Value flaggedKeeps(Value flags, Value offset, int64_t items);
  /// The heads of the runs of equal elements among the thread's `values`
  /// (vector<N x i1>) of the tile at `offset` of `source`: each item that
  /// differs from the element before it, and element 0 (items past n are
  /// none). A unique's keeps, a scan by key's segment heads. Where `tails`
  /// is given, it gets the runs' ends alike: each item that differs from
  /// the element after it, and element n - 1. An `equal` region (two
  /// elements, the earlier first, yielding an i1) says which are equal in
  /// place of the type's ==.
  Value runHeads(Value source, Value values, Value offset, int64_t items,
                 Value *tails = nullptr, Region *equal = nullptr);
  /// The keep flags by the predicate region: a copy of it per item, run
  /// only on the items before n.
  Value predicateKeeps(Value values, Value offset, int64_t items);
  /// The status of a scan's tiles; `counts` for a selection's.
  TileStatus tileStatus(bool counts);
  /// Makes `values` (publishedTypes) visible as tile `tile`'s total or
  /// prefix (`flag`).
  void publish(const TileStatus &status, Value tile, int32_t flag,
               ValueRange values);
  /// The exclusive prefix of tile `tile` (i64, > 0), computed by the 32
  /// lanes of warp 0 (every lane gets it): windows of 32 predecessors,
  /// each lane spinning until its tile has published, until a window holds
  /// a tile with a prefix; the tiles up to the nearest such one count, in
  /// order (a tuple's region is never given a tile that does not count).
  /// Where `source` is given (a selection's counts), it gets the nearest
  /// of the tiles that count with a prefix or a count other than 0: the
  /// one whose last kept element is the last one before tile `tile`.
  SmallVector<Value> lookBack(const TileStatus &status, Value tile,
                              Value *source = nullptr);
  /// Every thread's exclusive prefix of tile `tile64` (i64) whose block
  /// total is `total`: publishes the total, looks back (warp 0), publishes
  /// the inclusive prefix; for tile 0 `init`, which it combines in front of
  /// its total, or where there is none publishedPadding. Where `headed`
  /// (an i1, a scan by key's tile that holds a segment head) holds, the
  /// total is the tile's inclusive prefix: published as such at once.
  /// `source`, where given, gets lookBack's source in every thread (-1 for
  /// tile 0).
  SmallVector<Value> tilePrefix(const TileStatus &status, Value tile64,
                                ValueRange total, Value publishes = Value(),
                                Value headed = Value(), ValueRange init = {},
                                Value *source = nullptr);
  /// A scan by key's tile: the thread's `values` (vector) scanned in
  /// segments that start at its `heads` (vector of i1), with the prefix of
  /// the tiles before, inclusive or `exclusive`.
  Value scanByKeyTile(const TileStatus &status, Value tile64, Value values,
                      Value heads, bool exclusive);
  /// scanByKeyTile over tuples: the thread's `values` (a vector per
  /// element of the tuple) scanned with `region` in segments that start at
  /// its `heads`, with the prefix of the tiles before and `init` (may be
  /// empty; needed for `exclusive`) in front of every segment.
  SmallVector<Value> tupleScanByKeyTile(const TileStatus &status, Value tile64,
                                        Region &region, ValueRange values, Value heads,
                                        ValueRange init, bool exclusive);

  /// A tuple reduction's helpers: `lhs (op) rhs` by `region`; the tuple
  /// `values` (every thread's) reduced over the block's first
  /// `validThreads` threads in thread order; the block's partial of the
  /// tile at `offset` (some elements of which are before n).
  SmallVector<Value> combineTuples(Region &region, ValueRange lhs, ValueRange rhs) {
    return llvm::to_vector(buildTupleCombine(b, b.getLoc(), std::nullopt, &region, lhs, rhs));
  }
  SmallVector<Value> blockReduceTuples(Region &region, ValueRange values,
                                       Value validThreads);
  SmallVector<Value> tupleTilePartial(Region &region, TypeRange types, Value offset,
                                      int64_t items);

  ImplicitLocOpBuilder &b;
  CombineKind kind;
  Type element;
  /// A tuple scan's region and types (setTupleCombiner), or none.
  Region *tupleRegion = nullptr;
  SmallVector<Type> tupleTypes;
  int64_t elementBytes, dataBytes;
  /// The item size that sets the tiles (items per thread): the data's,
  /// selectionTileBytes' for a selection, or a scan by key's wider of
  /// values and keys (as many keys as values a thread).
  int64_t tileBytes;
  int64_t threadBytes = DeviceTiling::kTileBytesPerThread;
  int64_t clusterBlocks = 1;
  Region *predicate = nullptr;
  SmallVector<Type> operandTypes;
  SmallVector<Value> operands;
  Value input, output, scratch, n, thread;
};

} // namespace mlir::warp::device_ops

#endif // WARP_LIB_TRANSFORMS_DEVICEOPS_DEVICEKERNELBUILDER_H
