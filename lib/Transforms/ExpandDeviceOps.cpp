//===- ExpandDeviceOps.cpp - device-wide ops to kernels and launches ------===//
//
// warp-expand-device-ops (Passes.td): warp.device_reduce,
// device_segmented_reduce, device_scan,
// device_select, device_partition (and their predicate forms, device_select_if
// and device_partition_if), device_unique, device_run_length_encode,
// device_non_trivial_runs, device_histogram, device_radix_sort (also
// double-buffered), device_segmented_radix_sort (also double-buffered),
// device_reduce_combine and device_scan_combine (also by key) become kernels
// made of warp ops
// in a gpu.module of their own, and the host code that allocates their
// scratch and launches them.
//
// A reduction is CUB's two kernels: a grid of a block per tile, capped,
// each block folding its tile, or past the cap grid-strided chunks of
// consecutive tiles, into one partial (16-byte vector loads,
// warp.block_reduce), then one block folds the partials; a small input is
// one block's. With a combine region
// (device_reduce_combine) the runs are chunks of kReduceTilesPerBlock
// tiles, one block each, and every fold keeps the input order. Where the grid is one
// block, that block also writes the result, what the second kernel makes
// of its single partial, and the second kernel is not launched
// (warp.device_skip_if_single: the host code branches on the grid). A segmented
// reduction is one kernel of a block per segment (grid-strided past a
// cap): the threads stride over the segment, then warp.block_reduce. A
// scan is one pass
// over the data with decoupled look-back (Merrill and Garland): block b
// scans tile b (blocks start in index order, which CUB relies on too) with
// warp.block_scan, publishes its total, reads its predecessors' published
// totals and prefixes a window of 32 at a time in warp 0 until it meets a
// prefix, publishes its own prefix and adds it to its items; over tuples
// with a combine region (device_scan_combine) the tiles publish tuples,
// and the window is a warp.reduce of the region with its operands swapped
// (lane 0 reads the nearest tile) over the lanes that count. A scan by key
// (a kind, or a combine region with an optional equal region) scans (head
// seen, value) pairs with the segmented combine, and a tile
// that holds a head publishes its total as its prefix at once, so that
// look-backs stop there. A selection
// is a scan of the tile's kept counts, then each kept element written at
// its count; a run-length encoding also stages its heads' positions to
// write each run's length within its first tile, and a light kernel after
// it adds the lengths of runs that go on into later tiles; non-trivial
// runs keep the heads that are not also ends, write each end at its run's
// rank, and a light kernel after it turns the ends into lengths. A first kernel
// clears the tiles' status words. A histogram
// clears the bins, then counts each tile (warp.block_histogram), in a
// workgroup copy of the bins where it fits (a capped grid of blocks, each
// over many tiles, adds its copy to the output once). A radix sort is
// CUB's onesweep, least-significant-digit passes of 8 bits: one kernel
// clears the digit totals, one counts every pass's digits in a read of the
// keys (and clears the first pass's look-back status), one scans the
// counts into the digits' starts, then a kernel a pass of a block per tile
// loads its tile warp-striped, ranks it by the digit with
// warp.block_radix_rank ... warp_striped (the match ranking, no exchanges;
// its digit prefix gives the tile's digit starts and counts), scatters it
// to striped order by the ranks (warp.block_scatter) and looks back per
// digit (thread d over digit d's status words of the tiles before) for
// where its keys go, into the outputs or a scratch buffer by turns. A
// segmented radix sort is one kernel of a block per segment: a segment of
// a tile is one block sort; a longer one takes least-significant-digit
// passes within its block (count the segment's digits, scan them, then
// sort each tile by the digit with a warp.block_radix_sort pass and move
// it), by turns into the outputs and a scratch of the keys' size.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Transforms/BlockPositions.h"
#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/SaveAndRestore.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPEXPANDDEVICEOPSPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// The attributes that state the launches (Passes.td's description).
constexpr llvm::StringLiteral kGridAttrName = "warp.device_grid";
constexpr llvm::StringLiteral kGridMaxAttrName = "warp.device_grid_max";
constexpr llvm::StringLiteral kGridSingleAttrName = "warp.device_grid_single";
constexpr llvm::StringLiteral kScratchAttrName = "warp.device_scratch";
constexpr llvm::StringLiteral kGridOperandAttrName = "warp.device_grid_operand";
constexpr llvm::StringLiteral kSkipIfSingleAttrName = "warp.device_skip_if_single";
constexpr llvm::StringLiteral kResultBufferAttrName = "warp.device_result_buffer";

/// A scan tile's status word: nothing published yet, its total, or the
/// combination of every element up to and including the tile.
constexpr int32_t kStatusNone = 0, kStatusTotal = 1, kStatusPrefix = 2;

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
int64_t selectionMinBlocksPerSM(Selection selection, int64_t itemBytes) {
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
bool stagesPositions(Selection selection) {
  return selection == Selection::RunLengths ||
         selection == Selection::NonTrivialRuns;
}

/// The item size that sets a selection's tile (DeviceTiling's items per
/// thread): its element's, but at least 4 bytes for a run-length
/// encoding, whose tile stages an i16 position per item in workgroup
/// memory besides the items: the 64 i8 items per thread of a select tile
/// would need more workgroup memory than a block has, and positions past
/// 2^15 would not fit.
int64_t selectionTileBytes(Selection selection, int64_t dataBytes) {
  return stagesPositions(selection) ? std::max<int64_t>(dataBytes, 4)
                                    : dataBytes;
}

/// The bytes of a value of `type` (an integer or float).
int64_t bytesOf(Type type) { return type.getIntOrFloatBitWidth() / 8; }

/// The bytes of the widest of `types` (a tuple's elements), which size a
/// tuple op's tiles.
int64_t widestBytes(TypeRange types) {
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
  /// Whether the tiles are ranked and scattered by their ranks, in tiles
  /// of that path's size (the device sort's onesweep); else each is sorted
  /// with a block radix sort pass (the segmented sort, whose short
  /// segments' sorts share those buffers).
  bool rankTiles = false;

  static constexpr int64_t kDigits = int64_t(1) << DeviceTiling::kRadixSortPassBits;
  int64_t keyBytes() const { return key.getIntOrFloatBitWidth() / 8; }
  int64_t valueBytes() const { return value ? value.getIntOrFloatBitWidth() / 8 : 0; }
  int64_t itemsPerThread() const {
    return DeviceTiling::radixSortItemsPerThread(keyBytes(), valueBytes(), rankTiles);
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
  /// i64 a pass) at 0, then two arrays of the tiles' look-back status
  /// (a word per tile and digit, in 8-byte slots: the words are 32 bits
  /// wide below 2^31 keys), which the passes take by turns, then the
  /// buffers the passes alternate with (none with doubleBuffer): T tiles
  /// of keys, then of values.
  static constexpr int64_t kStatusBytesPerTile = 2 * kDigits * 8;
  int64_t binsBytes() const { return passes() * kDigits * 8; }
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

  void buildReduceTiles(gpu::GPUModuleOp module);
  void buildReduceFinish(gpu::GPUModuleOp module);
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
  void buildScanInit(gpu::GPUModuleOp module);
  /// A scan; by key where the kernel's operands end in the keys.
  void buildScan(gpu::GPUModuleOp module, bool exclusive);
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
  /// The elements of a tile whose look-back status is one word: a tile's,
  /// or a cluster's tiles'.
  int64_t statusItems() const {
    return DeviceTiling::tileItems(tileBytes) * clusterBlocks;
  }
  /// A selection's kernel; its tiles are of selectionTileBytes' items.
  void buildSelect(gpu::GPUModuleOp module, Selection selection);
  /// Makes buildSelect's flagged selection or partition keep the elements
  /// that `region` (a device_select_if's or device_partition_if's `pred`)
  /// holds for, instead of the flagged ones: operands (input, output,
  /// count).
  void setPredicate(Region *region) { predicate = region; }
  /// A run-length encoding's second kernel, after buildSelect's: a thread
  /// per tile adds the tile's leading elements (those before its first
  /// head) to the count of the run they continue.
  void buildRunCarry(gpu::GPUModuleOp module);
  /// A non-trivial runs' second kernel, after buildSelect's: a thread per
  /// run (per two elements) turns the end its run's last element left in
  /// lengths_out into the length, less the run's offset.
  void buildNonTrivialLengths(gpu::GPUModuleOp module);
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
  /// A radix sort's kernels, CUB's onesweep (RadixSortConfig's scratch
  /// layout): a histogram of every pass's digits, then a kernel per pass.
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
  /// after every key.
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
  /// The workgroup arrays of `digits` digits that moveRadixTiles uses:
  /// a tile's digit counters or where each digit's keys start in it
  /// (i32), and where the digit's keys go in the output less their ranks
  /// (i64).
  struct RadixTileMemory {
    Value tileStarts, bases;
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
  /// Clears thread d's status word of digit d of tile `tile` in `array`.
  void clearStatus(const RadixSortConfig &sort, const OnesweepScratch &views,
                   unsigned array, Value tile);
  /// Thread d's look-back for digit d of tile `tile` (index) in status
  /// array `array`: publishes the tile's `count` (i64) of the digit, adds
  /// the counts of the tiles before back to the nearest with a prefix and
  /// publishes the tile's prefix; returns the keys of the digit in the
  /// tiles before (i64).
  Value lookBackDigit(const RadixSortConfig &sort, const OnesweepScratch &views,
                      unsigned array, Value tile, Value count);
  /// A tile ranked by a pass's digit (bits [shift, shift + bits) of the
  /// images) and scattered to rank order (striped): the images and values
  /// so arranged, and thread d's start (i64) and count (i64) of digit d's
  /// keys in the tile (0 past the radix). `beforeScatter` runs in every
  /// thread with its start and count once they are known, before the
  /// scatter (onesweep looks back there, so that its successors' wait
  /// does not include the scatter).
  struct RankedTile {
    Value images, values, start, count;
  };
  /// The keys and values of the tile at element `offset` (index) of
  /// `source`'s (values null where `source` has none: keys only),
  /// blocked or warp-striped.
  std::pair<Value, Value> loadRadixTile(const RadixSortConfig &sort,
                                        std::pair<Value, Value> source, Value offset,
                                        bool warpStriped) {
    auto load = [&](Value from, Type type) -> Value {
      return loadTile(from, arith::ConstantOp::create(b, b.getZeroAttr(type)), offset,
                      sort.itemsPerThread(), 1, std::nullopt, warpStriped);
    };
    return {load(source.first, sort.key),
            source.second ? load(source.second, sort.value) : Value()};
  }
  /// storeSortedTile's place of a key (its image) at `rank` of the tile:
  /// its digit's base (memory.bases, by the digit of image bits [shift,
  /// shift + bits)) plus the rank.
  std::function<Value(Value, Value)> placeByBase(const RadixTileMemory &memory, unsigned shift,
                                                 unsigned bits) {
    Value bases = memory.bases;
    return [this, bases, shift, bits](Value image, Value rank) -> Value {
      Value base = memref::LoadOp::create(b, bases, ValueRange{radixDigit(image, shift, bits)});
      return arith::AddIOp::create(b, arith::IndexCastOp::create(b, b.getIndexType(), base),
                                   rank);
    };
  }
  RankedTile rankRadixTile(const RadixSortConfig &sort, unsigned shift, unsigned bits,
                           Value keys, Value values, Value valid,
                           const RadixTileMemory &memory,
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
    auto algorithmAttr =
        algorithm ? BlockMemoryAlgorithmAttr::get(b.getContext(), *algorithm)
                  : BlockMemoryAlgorithmAttr();
    auto loads = [&](bool checked) {
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
  SmallVector<Value> lookBack(const TileStatus &status, Value tile);
  /// Every thread's exclusive prefix of tile `tile64` (i64) whose block
  /// total is `total`: publishes the total, looks back (warp 0), publishes
  /// the inclusive prefix; for tile 0 `init`, which it combines in front of
  /// its total, or where there is none publishedPadding. Where `headed`
  /// (an i1, a scan by key's tile that holds a segment head) holds, the
  /// total is the tile's inclusive prefix: published as such at once.
  SmallVector<Value> tilePrefix(const TileStatus &status, Value tile64,
                                ValueRange total, Value publishes = Value(),
                                Value headed = Value(), ValueRange init = {});
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
  int64_t clusterBlocks = 1;
  Region *predicate = nullptr;
  SmallVector<Type> operandTypes;
  SmallVector<Value> operands;
  Value input, output, scratch, n, thread;
};

void DeviceKernelBuilder::buildReduceTiles(gpu::GPUModuleOp module) {
  // Tiles of 16-byte loads: kTileBytesPerThread / 16 per thread, each
  // coalesced across the block.
  int64_t vectorItems = 16 / elementBytes;
  int64_t pieces = DeviceTiling::kTileBytesPerThread / 16;
  int64_t tileItems = DeviceTiling::tileItems(elementBytes);
  gpu::GPUFuncOp kernel = startKernel(module, "reduce_tiles", tileItems);
  // Only this kernel's loads touch the input while it runs (the output,
  // which overlaps no input, is written by reduce_finish, and by the one
  // block of a grid of one after its last load): it may take the
  // read-only data path.
  kernel.setArgAttr(0, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  kernel.setArgAttr(0, LLVM::LLVMDialect::getReadonlyAttrName(), b.getUnitAttr());
  kernel->setAttr(kGridMaxAttrName, b.getI64IntegerAttr(DeviceTiling::kReduceMaxBlocks));
  kernel->setAttr(kGridSingleAttrName,
                  b.getI64IntegerAttr(DeviceTiling::reduceSingleBlockItems(elementBytes)));
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
    // 0 writes it.
    Value rankZero = enterClusters(kernel, blockIndex);
    Value fold = vector::ExtractOp::create(b, threadFold, 0);
    for (int64_t j = 1; j < vectorItems; ++j)
      fold = combine(fold, vector::ExtractOp::create(b, threadFold, j));
    Value partial = ClusterReduceOp::create(b, kind, fold);
    ifThen(arith::AndIOp::create(b, isThreadZero(), rankZero), [&] {
      Value cluster = arith::DivUIOp::create(b, blockIndex, index(clusterBlocks));
      LLVM::StoreOp::create(b, partial, scratchSlot(i64(0), toI64(cluster)), elementBytes);
    });
    return;
  }
  Value partial = blockReduce(threadFold, /*items=*/true);
  ifThen(isThreadZero(), [&] {
    LLVM::StoreOp::create(b, partial, scratchSlot(i64(0), toI64(blockIndex)),
                          elementBytes);
    // A grid of one block (the input fits one chunk) also writes the
    // result, what reduce_finish makes of the one partial (the padding it
    // combines with leaves it as it is), so that reduce_finish may be
    // skipped (warp.device_skip_if_single).
    ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, blocks, index(1)), [&] {
      memref::StoreOp::create(b, reduceResult(partial), output, ValueRange{index(0)});
    });
  });
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
  int64_t perBlock = DeviceTiling::tileItems(elementBytes);
  gpu::GPUFuncOp kernel = startKernel(module, "reduce_finish", std::nullopt);
  // A reduce_tiles grid of one block also writes the result (without
  // clusters, whose grid is at least a cluster).
  if (clusterBlocks == 1)
    kernel->setAttr(kSkipIfSingleAttrName, b.getUnitAttr());
  // A partial per block (or cluster) of reduce_tiles: its grid (one block
  // up to reduceSingleBlockItems, else min(ceil(n / perBlock), the cap)),
  // over the cluster's blocks rounded up.
  Value partials = arith::SelectOp::create(
      b,
      arith::CmpIOp::create(b, arith::CmpIPredicate::ule, n,
                            index(DeviceTiling::reduceSingleBlockItems(elementBytes))),
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

void DeviceKernelBuilder::buildScanInit(gpu::GPUModuleOp module) {
  // A thread per status word.
  int64_t tileItems = statusItems();
  startKernel(module, "scan_init", tileItems * DeviceTiling::kThreads);
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
                                                 Value tile) {
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
    // Spin until every lane's tile has published, pausing between polls.
    auto spin = scf::WhileOp::create(b, TypeRange{i64Type}, ValueRange{i64(0)});
    {
      OpBuilder::InsertionGuard spinGuard(b);
      b.createBlock(&spin.getBefore(), {}, {i64Type}, {b.getLoc()});
      Value word = ifElse(exists, i64Type, readWord,
                          [&] { return flagged(kStatusPrefix); });
      Value waiting = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, word,
                                            flagged(kStatusTotal));
      Value anyWaiting = VoteOp::create(b, i1Type, VoteKind::Any, waiting, Value());
      scf::ConditionOp::create(b, anyWaiting, ValueRange{word});
      b.createBlock(&spin.getAfter(), {}, {i64Type}, {b.getLoc()});
      NVVM::NanosleepOp::create(b, i32(DeviceTiling::kLookBackPollNs));
      scf::YieldOp::create(b, ValueRange{i64(0)});
    }
    Value word = spin.getResult(0);
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
    scf::ConditionOp::create(b, negate(found), next);
    Block *after = b.createBlock(&loop.getAfter(), {}, carried, locations);
    scf::YieldOp::create(b, after->getArguments());
  }
  return SmallVector<Value>(loop.getResults().slice(1, width));
}

SmallVector<Value> DeviceKernelBuilder::tilePrefix(const TileStatus &status,
                                                   Value tile64, ValueRange total,
                                                   Value publishes, Value headed,
                                                   ValueRange init) {
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
  SmallVector<Value> before = ifElse(
      looks, status.types,
      [&] {
        // Predecessors are likely still scanning: wait before the first poll.
        NVVM::NanosleepOp::create(b, i32(DeviceTiling::kLookBackSettleNs));
        SmallVector<Value> prefix = lookBack(status, tile64);
        ifThen(headed ? arith::AndIOp::create(b, publishes, negate(headed)).getResult()
                      : publishes,
               [&] {
                 publish(status, tile64, kStatusPrefix, combinePublished(prefix, total));
               });
        return prefix;
      },
      [&] { return init.empty() ? publishedPadding() : SmallVector<Value>(init); });
  return llvm::map_to_vector(before, [&](Value value) -> Value {
    return BlockBroadcastOp::create(b, value, i32(0), /*tile=*/nullptr);
  });
}

void DeviceKernelBuilder::buildScan(gpu::GPUModuleOp module, bool exclusive) {
  int64_t items = DeviceTiling::itemsPerThread(tileBytes);
  int64_t tileItems = DeviceTiling::tileItems(tileBytes);
  gpu::GPUFuncOp kernel = startKernel(module, "scan", tileItems);
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
    return;
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
}

void DeviceKernelBuilder::storeTile(Value result, Value offset, Value target) {
  int64_t tileItems = DeviceTiling::tileItems(tileBytes);
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
  int64_t items = DeviceTiling::itemsPerThread(tileBytes);
  int64_t tileItems = DeviceTiling::tileItems(tileBytes);
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
  Value end = arith::AddIOp::create(b, offset, index(DeviceTiling::tileItems(tileBytes)));
  Value whole = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, end, n);
  return ifElse(whole, keepsType, [&] { return keepsOf(false); },
                [&] { return keepsOf(true); });
}

void DeviceKernelBuilder::buildSelect(gpu::GPUModuleOp module, Selection selection) {
  assert(tileBytes == selectionTileBytes(selection, dataBytes) &&
         "the tiles of setTileBytes(selectionTileBytes(...))");
  int64_t items = DeviceTiling::itemsPerThread(tileBytes);
  int64_t tileItems = DeviceTiling::tileItems(tileBytes);
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
  Value ends;
  Value keeps = unique      ? runHeads(input, values, offset, items,
                                       nonTrivial ? &ends : nullptr)
                : predicate ? predicateKeeps(values, offset, items)
                            : flaggedKeeps(operands[1], offset, items);
  if (nonTrivial) {
    Value ones = arith::ConstantOp::create(
        b, DenseElementsAttr::get(cast<ShapedType>(keeps.getType()), true));
    Value heads = keeps;
    keeps = arith::AndIOp::create(b, heads, arith::XOrIOp::create(b, ends, ones));
    ends = arith::AndIOp::create(b, ends, arith::XOrIOp::create(b, heads, ones));
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
  if (positions) {
    assert(tileItems < (int64_t(1) << 15) && "tile positions fit i16");
    starts = kernel.addWorkgroupAttribution(
        MemRefType::get({tileItems + 1}, positionType, AffineMap(),
                        stageType.getMemorySpace()),
        b.getLoc());
    ifThen(isThreadZero(), [&] {
      memref::StoreOp::create(
          b, arith::TruncIOp::create(b, positionType, valid), starts,
          ValueRange{arith::IndexCastOp::create(b, b.getIndexType(), total)});
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
      // An end: run `prefix + local - 1` (the kept heads before it, less
      // its own) ends after it; the second kernel subtracts the offset.
      ifThen(vector::ExtractOp::create(b, ends, j), [&] {
        Value run = arith::SubIOp::create(
            b, arith::AddIOp::create(b, prefix, local), i64(1));
        Value after = arith::AddIOp::create(
            b, toI64(offset), arith::AddIOp::create(b, firstItem, i64(j + 1)));
        memref::StoreOp::create(b, toCount(after), operands[2],
                                ValueRange{arith::IndexCastOp::create(
                                    b, b.getIndexType(), run)});
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
  gpu::BarrierOp::create(b);
  // Kept slot s goes to prefix + s; rejected slot s (s >= total) to
  // n - valid - (offset - prefix) + s, the rejected ones of the tiles
  // before having taken the places after it.
  Value keptBase = arith::IndexCastOp::create(b, b.getIndexType(), prefix);
  Value copied = partition ? valid : total;
  auto copy = scf::ForOp::create(b, thread, arith::IndexCastOp::create(b, b.getIndexType(), copied),
                                 index(DeviceTiling::kThreads));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(copy.getBody());
    Value i = copy.getInductionVar();
    Value where = arith::AddIOp::create(b, keptBase, i);
    if (partition) {
      Value rejectedBase = arith::IndexCastOp::create(
          b, b.getIndexType(),
          arith::SubIOp::create(
              b, arith::SubIOp::create(b, toI64(n), valid),
              arith::SubIOp::create(b, toI64(offset), prefix)));
      Value isKept = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                           toI64(i), total);
      where = arith::SelectOp::create(b, isKept, where,
                                      arith::AddIOp::create(b, rejectedBase, i));
    }
    if (nonTrivial) {
      // The head's position in the input.
      Value start = arith::ExtUIOp::create(
          b, i64Type, memref::LoadOp::create(b, starts, ValueRange{i}));
      memref::StoreOp::create(b, toCount(arith::AddIOp::create(b, toI64(offset), start), kept),
                              kept, ValueRange{where});
    } else {
      memref::StoreOp::create(b, memref::LoadOp::create(b, stage, ValueRange{i}), kept,
                              ValueRange{where});
    }
    if (runs) {
      Value start = memref::LoadOp::create(b, starts, ValueRange{i});
      Value end = memref::LoadOp::create(
          b, starts, ValueRange{arith::AddIOp::create(b, i, index(1))});
      memref::StoreOp::create(b, toCount(arith::SubIOp::create(b, end, start)), operands[2],
                              ValueRange{where});
    }
  }
  if (runs) {
    // What the carry kernel needs of the tile: its elements before its
    // first head (starts[0]: all of them without a head; none in tile 0,
    // whose first element is a head) and the runs that start before it.
    // The packed counts of a selection leave these two arrays unused.
    ifThen(isThreadZero(), [&] {
      Value leading = arith::ExtUIOp::create(
          b, i64Type, memref::LoadOp::create(b, starts, ValueRange{index(0)}));
      LLVM::StoreOp::create(b, leading, scratchSlot(status.totals, tile64), 8);
      LLVM::StoreOp::create(b, prefix, scratchSlot(status.prefixes, tile64), 8);
    });
  }
  // The last tile knows the count.
  Value tiles = arith::CeilDivUIOp::create(b, n, index(tileItems));
  Value lastTile = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile,
                                         arith::SubIOp::create(b, tiles, index(1)));
  ifThen(arith::AndIOp::create(b, lastTile, isThreadZero()), [&] {
    memref::StoreOp::create(b, combine(prefix, total), count, ValueRange{index(0)});
  });
}

void DeviceKernelBuilder::buildRunCarry(gpu::GPUModuleOp module) {
  // A thread per tile, as scan_init.
  startKernel(module, "run_length_carry", statusItems() * DeviceTiling::kThreads);
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
    Value leading = LLVM::LoadOp::create(b, b.getI64Type(),
                                         scratchSlot(status.totals, tile64), 8);
    // The leading elements continue the last run before the tile (tile 0
    // has none: its first element is a head). Several tiles without a head
    // may add to one run.
    ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ne, leading, i64(0)), [&] {
      Value runsBefore = LLVM::LoadOp::create(b, b.getI64Type(),
                                              scratchSlot(status.prefixes, tile64), 8);
      Value run = arith::IndexCastOp::create(b, b.getIndexType(),
                                             arith::SubIOp::create(b, runsBefore, i64(1)));
      memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, toCount(leading),
                                  operands[2], ValueRange{run});
    });
  });
}

void DeviceKernelBuilder::buildNonTrivialLengths(gpu::GPUModuleOp module) {
  // A thread per two elements: at least one per run of two or more.
  startKernel(module, "non_trivial_lengths", 2 * DeviceTiling::kThreads);
  Value run = arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, gpu::BlockIdOp::create(b, gpu::Dimension::x),
                            index(DeviceTiling::kThreads)),
      thread);
  Value runs = memref::LoadOp::create(b, operands[3], ValueRange{index(0)});
  ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::ult, toI64(run), runs), [&] {
    // The end (the position after the run's last element) less the
    // offset, in the lengths' type: both wrap alike there.
    Value end = memref::LoadOp::create(b, operands[2], ValueRange{run});
    Value start = toCount(memref::LoadOp::create(b, operands[1], ValueRange{run}));
    memref::StoreOp::create(b, arith::SubIOp::create(b, end, start), operands[2],
                            ValueRange{run});
  });
}

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
  auto binAt = [&](Value sample, Value position) -> Value {
    if (!multi)
      return binOf(sample, Value());
    Value channel = arith::RemUIOp::create(b, position, index(channels));
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
      Value start = arith::AddIOp::create(b, offset,
                                          arith::MulIOp::create(b, thread, index(items)));
      for (int64_t j = 0; j < items; ++j)
        binned = vector::InsertOp::create(
            b,
            binAt(vector::ExtractOp::create(b, samples, j),
                  multi ? arith::AddIOp::create(b, start, index(j)).getResult() : Value()),
            binned, j);
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
  // 8-bit samples whose bin needs levels or a channel (CUB's byte-sample
  // path): the block counts each channel's 256 sample values instead, and
  // the flush gives each value its bin once, not each sample (a binary
  // search of the levels, or the even levels' arithmetic, per sample).
  // The bin depends on the value alone, so the counts are the same.
  bool byValue = binOf && sampleWidth == 8;
  int64_t localCounters = byValue ? 256 * channels : *privateBins;
  auto shared = MemRefType::get(
      {localCounters}, counter, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  Value local = kernel.addWorkgroupAttribution(shared, b.getLoc());
  auto eachBin = [&](function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, thread, index(localCounters),
                                   index(DeviceTiling::kThreads));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  };
  eachBin([&](Value bin) {
    memref::StoreOp::create(b, arith::ConstantOp::create(b, b.getZeroAttr(counter)), local,
                            ValueRange{bin});
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
  auto widen = [&](Value sample, Value position) -> Value {
    if (byValue) {
      // The value's counter in its channel's 256.
      Value value = arith::ExtUIOp::create(b, b.getI32Type(), sample);
      if (!multi)
        return value;
      Value channel = arith::IndexCastOp::create(
          b, b.getI32Type(), arith::RemUIOp::create(b, position, index(channels)));
      return arith::AddIOp::create(b, arith::MulIOp::create(b, channel, i32(256)), value);
    }
    if (binOf)
      return binAt(sample, position);
    if (width == sampleWidth)
      return sample;
    return arith::ExtUIOp::create(b, b.getIntegerType(width), sample);
  };
  // The thread's samples from position `first`, its first `valid` ones
  // where given.
  auto count = [&](Value samples, Value valid, Value first) {
    for (int64_t j = 0; j < items; ++j) {
      Value sample = widen(vector::ExtractOp::create(b, samples, j),
                           multi ? arith::AddIOp::create(b, first, index(j)).getResult()
                                 : Value());
      countOne(sample, valid ? arith::CmpIOp::create(b, arith::CmpIPredicate::slt, i32(j), valid)
                                   .getResult()
                             : Value());
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
    countOne(widen(memref::LoadOp::create(b, input, ValueRange{thread}), thread), Value());
  });
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
    count(vector::LoadOp::create(b, type, input, ValueRange{first}, /*nontemporal=*/false,
                                 llvm::MaybeAlign(16)),
          Value(), first);
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
  eachBin([&](Value slot) {
    Value counted = memref::LoadOp::create(b, local, ValueRange{slot});
    Value none = arith::ConstantOp::create(b, b.getZeroAttr(counter));
    Value any = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, counted, none);
    if (!byValue) {
      ifThen(any, [&] {
        memref::AtomicRMWOp::create(b, arith::AtomicRMWKind::addi, counted, output,
                                    ValueRange{slot});
      });
      return;
    }
    // Slot c * 256 + v: value v of channel c, counted in the bin binAt
    // gives the sample v at a position of channel c.
    ifThen(any, [&] {
      Value value = arith::TruncIOp::create(
          b, sampleType, arith::IndexCastUIOp::create(b, b.getI32Type(), slot));
      Value bin = binAt(value, multi ? arith::DivUIOp::create(b, slot, index(256)).getResult()
                                     : Value());
      ifThen(arith::CmpIOp::create(b, arith::CmpIPredicate::sge, bin, i32(0)), [&] {
        memref::AtomicRMWOp::create(
            b, arith::AtomicRMWKind::addi, counted, output,
            ValueRange{arith::IndexCastUIOp::create(b, b.getIndexType(), bin)});
      });
    });
  });
}

void DeviceKernelBuilder::buildRadixSort(gpu::GPUModuleOp module,
                                         const RadixSortConfig &sort) {
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
                           index(sort.passes() * RadixSortConfig::kDigits));
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

Value DeviceKernelBuilder::lookBackDigit(const RadixSortConfig &sort,
                                         const OnesweepScratch &views, unsigned array,
                                         Value tile, Value count) {
  Type i64Type = b.getI64Type(), i1Type = b.getI1Type();
  return withStatusWords(sort, i64Type, [&](Type wordType) -> Value {
    unsigned width = wordType.getIntOrFloatBitWidth();
    // A word: 0 (nothing yet), the tile's count + 1 (its aggregate) or
    // the top bit over the keys of the digit up to and including the tile
    // (its prefix, at most n < 2^(width - 1)). Flag and count travel in
    // one store, so relaxed atomics order them.
    auto constant = [&](uint64_t value) -> Value {
      return arith::ConstantOp::create(b, b.getIntegerAttr(wordType, value));
    };
    Value prefixFlag = constant(uint64_t(1) << (width - 1));
    auto narrow = [&](Value value) -> Value {
      return width == 64 ? value : arith::TruncIOp::create(b, wordType, value).getResult();
    };
    auto widen = [&](Value value) -> Value {
      return width == 64 ? value : arith::ExtUIOp::create(b, i64Type, value).getResult();
    };
    auto store = [&](Value word, Value at) {
      LLVM::StoreOp::create(b, word, statusWord(views, array, at, thread, wordType),
                            width / 8, /*isVolatile=*/false, false, false,
                            LLVM::AtomicOrdering::monotonic, "device");
    };
    Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tile, index(0));
    // Tile 0's count is its prefix; a later tile's an aggregate until its
    // look-back ends.
    store(arith::SelectOp::create(b, first, arith::OrIOp::create(b, prefixFlag, narrow(count)),
                                  arith::AddIOp::create(b, narrow(count), constant(1))),
          tile);
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
      Value word = LLVM::LoadOp::create(b, wordType,
                                        statusWord(views, array, at, thread, wordType),
                                        width / 8, /*isVolatile=*/false, false, false, false,
                                        LLVM::AtomicOrdering::monotonic, "device");
      Value none = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, word, constant(0));
      Value hasPrefix = arith::CmpIOp::create(
          b, arith::CmpIPredicate::ne, arith::AndIOp::create(b, word, prefixFlag), constant(0));
      // Its keys: the prefix's below the flag, or the aggregate less one.
      Value keysThere = arith::SelectOp::create(
          b, hasPrefix, arith::XOrIOp::create(b, word, prefixFlag),
          arith::SubIOp::create(b, word, constant(1)));
      Value added = arith::SelectOp::create(b, none, i64(0), widen(keysThere));
      ifThen(none, [&] { NVVM::NanosleepOp::create(b, i32(DeviceTiling::kLookBackPollNs)); });
      // An aggregate moves on to the tile before; nothing yet polls again.
      Value moves = negate(arith::OrIOp::create(b, none, hasPrefix));
      Value nextAt = arith::SelectOp::create(b, moves, arith::SubIOp::create(b, at, index(1)), at);
      scf::YieldOp::create(
          b, ValueRange{nextAt, arith::AddIOp::create(b, keys, added), hasPrefix});
      b.setInsertionPointAfter(loop);
      return loop.getResult(1);
    });
    ifThen(negate(first), [&] {
      store(arith::OrIOp::create(b, prefixFlag, narrow(arith::AddIOp::create(b, sum, count))),
            tile);
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
  // One block clears the digit totals, which the histogram adds to.
  startKernel(module, "radix_init", std::nullopt);
  OnesweepScratch views = onesweepScratch(sort);
  for (unsigned pass = 0; pass < sort.passes(); ++pass)
    memref::StoreOp::create(
        b, i64(0), views.bins,
        ValueRange{arith::AddIOp::create(b, thread, index(pass * RadixSortConfig::kDigits))});
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
                  b.getI32IntegerAttr(sort.value ? DeviceTiling::kRadixSortMinBlocksPerSM
                                             : DeviceTiling::kRadixSortKeysMinBlocksPerSM));
  OnesweepScratch views = onesweepScratch(sort);
  std::pair<Value, Value> source = radixBuffers(sort, views.buffers, int(pass) - 1);
  std::pair<Value, Value> dest = radixBuffers(sort, views.buffers, int(pass));
  RadixTileMemory memory = radixTileMemory(kernel, radix);
  Value inRadix = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(radix));
  // Tile blockIdx.x: blocks start in index order (as CUB's onesweep
  // relies on), so the tiles a look-back waits for have started.
  Value tile = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  Value offset = arith::MulIOp::create(b, tile, index(tileItems));
  auto [keys, values] = loadRadixTile(sort, source, offset, /*warpStriped=*/true);
  Value valid = validItems(offset, tileItems);
  // Where digit d's keys start in the output: the keys of the smaller
  // digits (radix_digit_starts').
  Value digitStart = loadI64If(
      inRadix, views.bins, arith::AddIOp::create(b, thread, index(pass * RadixSortConfig::kDigits)));
  // The look-back as soon as the tile's counts are known, before the
  // scatter (CUB's onesweep's order): a successor waits for this tile's
  // prefix, not for its exchange.
  RankedTile ranked = rankRadixTile(
      sort, shift, bits, keys, values, valid, memory, [&](Value start, Value count) {
        ifThen(inRadix, [&] {
          // The next pass's status array, used by the pass before, starts
          // clear.
          if (pass + 1 < sort.passes())
            clearStatus(sort, views, (pass + 1) % 2, tile);
          Value before = lookBackDigit(sort, views, pass % 2, tile, count);
          // A key of digit d at rank r of the tile goes to base[d] + r.
          Value base =
              arith::SubIOp::create(b, arith::AddIOp::create(b, digitStart, before), start);
          memref::StoreOp::create(b, base, memory.bases, ValueRange{thread});
        });
      });
  // The bases are visible after a barrier (the scatter's own are not
  // promised to every thread).
  gpu::BarrierOp::create(b);
  wholeOrPartialTile(offset, tileItems, [&](bool whole) {
    storeSortedTile(sort, ranked.images, ranked.values, whole ? Value() : valid, dest.first,
                    dest.second, placeByBase(memory, shift, bits));
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
    Value inside = tileItemInside(positions, j, arrangement, valid);
    Value image = buildRadixImage(b, b.getLoc(), vector::ExtractOp::create(b, keys, j),
                                  sort.isSigned, sort.descending);
    images.push_back(arith::SelectOp::create(b, inside, image, padding));
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
    bool intoOutputs = sort.resultBuffer() == 1;
    Value keys = loadTile(keysIn, arith::ConstantOp::create(b, b.getZeroAttr(sort.key)),
                          first, sort.itemsPerThread(), 1, std::nullopt);
    Value values;
    if (sort.value)
      values = loadTile(valuesIn, arith::ConstantOp::create(b, b.getZeroAttr(sort.value)),
                        first, sort.itemsPerThread(), 1, std::nullopt);
    Value valid = validItems(first, sort.tileItems());
    auto sorted = sortRadixTile(sort, keys, values, valid, sort.begin, sort.end);
    storeSortedTile(sort, sorted.getSortedKeys().front(), sorted.getSortedValues(), valid,
                    intoOutputs ? keysOut : keysIn,
                    intoOutputs ? valuesOut : valuesIn, [&](Value, Value rank) {
                      return arith::AddIOp::create(b, first, rank);
                    });
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
                                   Value keys, Value values, Value valid,
                                   const RadixTileMemory &memory,
                                   function_ref<void(Value, Value)> beforeScatter) {
  int64_t items = cast<VectorType>(keys.getType()).getNumElements();
  int64_t radix = int64_t(1) << bits;
  Value inRadix = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, index(radix));
  // Each key's rank in the tile by the digit, and thread d's digit start
  // in the tile (the keys of the smaller digits): the padding past
  // `valid` has the largest digit and ranks after every key.
  Value images = radixTileImages(sort, keys, valid, Arrangement::WarpStriped);
  auto ranksType = VectorType::get({items}, b.getI32Type());
  auto binsType = VectorType::get({1}, b.getI32Type());
  auto rank = BlockRadixRankOp::create(
      b, TypeRange{ranksType, binsType}, images, /*descending=*/false, /*is_signed=*/false,
      b.getI32IntegerAttr(shift), b.getI32IntegerAttr(shift + bits), /*radix_bits=*/nullptr,
      /*warp_striped=*/true, /*ranking=*/nullptr);
  Value tileStart = vector::ExtractOp::create(b, rank.getExclusiveDigitPrefix(), 0);
  Value start = arith::SelectOp::create(
      b, inRadix, arith::ExtUIOp::create(b, b.getI64Type(), tileStart), i64(0));
  // Thread d's start for thread d - 1; a barrier makes it visible.
  ifThen(inRadix, [&] {
    memref::StoreOp::create(b, tileStart, memory.tileStarts, ValueRange{thread});
  });
  gpu::BarrierOp::create(b);
  // The next digit's start less its own (the last digit's: the valid
  // keys less its start).
  Value next = arith::AddIOp::create(b, thread, index(1));
  Value nextStart = ifElse(
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, next, index(radix)), b.getI32Type(),
      [&]() -> Value { return memref::LoadOp::create(b, memory.tileStarts, ValueRange{next}); },
      [&] { return valid; });
  Value count = arith::SelectOp::create(
      b, inRadix,
      arith::ExtUIOp::create(b, b.getI64Type(), arith::SubIOp::create(b, nextStart, tileStart)),
      i64(0));
  beforeScatter(start, count);
  // The scatter moves items of 4 or 8 bytes: narrower ones as their bits
  // zero-extended to i32.
  auto scatter = [&](Value items) -> Value {
    auto type = cast<VectorType>(items.getType());
    Type element = type.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    if (width >= 32)
      return BlockScatterOp::create(b, type, items, rank.getRanks(), /*flags=*/Value(),
                                    /*striped=*/true);
    auto bitsType = VectorType::get(type.getShape(), b.getIntegerType(width));
    auto wideType = VectorType::get(type.getShape(), b.getI32Type());
    Value wide = arith::ExtUIOp::create(b, wideType,
                                        arith::BitcastOp::create(b, bitsType, items));
    Value scattered = BlockScatterOp::create(b, wideType, wide, rank.getRanks(),
                                             /*flags=*/Value(), /*striped=*/true);
    return arith::BitcastOp::create(b, type,
                                    arith::TruncIOp::create(b, bitsType, scattered));
  };
  return {scatter(images), values ? scatter(values) : Value(), start, count};
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
  Value tileCount = countDigits(bits, memory.tileStarts, [&] {
    countRadixDigits(sort, keys, valid, memory.tileStarts, shift, bits);
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
                  dest.first, dest.second, placeByBase(memory, shift, bits));
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
      sortConfig->rankTiles = true;
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
    int64_t tileItems =
        DeviceTiling::tileItems(select ? selectionTileBytes(selection, bytes) : bytes);
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
      kernels.setClusterBlocks(clusterBlocks);
      kernels.buildReduceTiles(module);
      kernels.buildReduceFinish(module);
      // One 8-byte partial per block of reduce_tiles (at most one a tile).
      module->setAttr(kScratchAttrName,
                      b.getDenseI64ArrayAttr({0, 8, DeviceTiling::tileItems(bytes)}));
    } else {
      kernels.setClusterBlocks(clusterBlocks);
      if (select)
        kernels.setTileBytes(selectionTileBytes(selection, bytes));
      kernels.setPredicate(predicate);
      kernels.buildScanInit(module);
      if (!select) {
        kernels.buildScan(module, scan.getExclusive());
      } else {
        kernels.buildSelect(module, selection);
        if (runs)
          kernels.buildRunCarry(module);
        if (nonTrivial)
          kernels.buildNonTrivialLengths(module);
      }
      module->setAttr(kScratchAttrName,
                      b.getDenseI64ArrayAttr(
                          {0, ScanScratch::perTile(1), tileItems * clusterBlocks}));
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
    // Launches `kernel` after `chain`, which becomes its token, and returns
    // its grid.
    auto launch = [&](gpu::GPUFuncOp kernel, Value &chain) -> Value {
      Value grid = one;
      // The elements the grid rules count: n, or operand K's.
      Value count = n;
      if (auto counted = kernel->getAttrOfType<IntegerAttr>(kGridOperandAttrName))
        count = memref::DimOp::create(b, op->getOperand(counted.getInt()), 0);
      if (auto items = kernel->getAttrOfType<IntegerAttr>(kGridAttrName))
        grid = blocksFor(items.getInt(), count);
      if (auto most = kernel->getAttrOfType<IntegerAttr>(kGridMaxAttrName))
        grid = arith::MinUIOp::create(b, grid, constant(most.getInt()));
      if (auto single = kernel->getAttrOfType<IntegerAttr>(kGridSingleAttrName))
        grid = arith::SelectOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::ule, count,
                                  constant(single.getInt())),
            one, grid);
      // A clustered kernel: whole clusters.
      if (std::optional<ArrayRef<int32_t>> cluster = kernel.getKnownClusterSize())
        grid = arith::MulIOp::create(
            b, arith::CeilDivUIOp::create(b, grid, constant((*cluster)[0])),
            constant((*cluster)[0]));
      ArrayRef<int32_t> block = *kernel.getKnownBlockSize();
      chain = gpu::LaunchFuncOp::create(
                  b, kernel, gpu::KernelDim3{grid, one, one},
                  gpu::KernelDim3{constant(block[0]), constant(block[1]),
                                  constant(block[2])},
                  /*dynamicSharedMemorySize=*/Value(), arguments, token,
                  ValueRange{chain})
                  .getAsyncToken();
      return grid;
    };
    SmallVector<gpu::GPUFuncOp> kernels(module.getOps<gpu::GPUFuncOp>());
    // The launches of kernels[first...] after `chain`, then the scratch's
    // release and the wait. A kernel that may be skipped after a grid of
    // one (warp.device_skip_if_single) forks them, with branch-on-grid:
    // the rest with it where the kernel before ran more blocks, without it
    // else; each branch keeps its own chain of tokens, so that none leaves
    // its region.
    std::function<void(size_t, Value, Value)> launchFrom =
        [&](size_t first, Value chain, Value previousGrid) {
          for (size_t i = first; i < kernels.size(); ++i) {
            gpu::GPUFuncOp kernel = kernels[i];
            if (branchOnGrid && previousGrid && kernel->hasAttr(kSkipIfSingleAttrName)) {
              Value many =
                  arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, previousGrid, one);
              auto fork = scf::IfOp::create(b, many, /*withElseRegion=*/true);
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(fork.thenBlock()->getTerminator());
              Value launched = chain;
              Value grid = launch(kernel, launched);
              launchFrom(i + 1, launched, grid);
              b.setInsertionPoint(fork.elseBlock()->getTerminator());
              launchFrom(i + 1, chain, previousGrid);
              return;
            }
            previousGrid = launch(kernel, chain);
          }
          chain = gpu::DeallocOp::create(b, token, ValueRange{chain}, alloc.getMemref())
                      .getAsyncToken();
          gpu::WaitOp::create(b, Type(), ValueRange{chain});
        };
    launchFrom(0, ready, Value());
    // A double-buffered sort's result: the buffer that its module says.
    if (auto resultBuffer = module->getAttrOfType<IntegerAttr>(kResultBufferAttrName))
      op->getResult(0).replaceAllUsesWith(arith::ConstantOp::create(b, resultBuffer));
    op->erase();
  }
};

} // namespace
