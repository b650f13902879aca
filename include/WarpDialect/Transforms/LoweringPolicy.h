//===- LoweringPolicy.h - every lowering decision, in one place -*- C++ -*-===//
//
// Decide, then lower: how each collective lowers (a warp reduction's
// strategy, the form of each scan step, a block op's algorithm, when an
// exchange goes through shared memory) is decided here, from the op, the
// chip and the pass options, with the measured thresholds in one table.
// The expansions (ExpandCollectives, ExpandBlockCollectives,
// ExpandExchange) only carry the decisions out.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TRANSFORMS_LOWERINGPOLICY_H
#define WARPDIALECT_TRANSFORMS_LOWERINGPOLICY_H

#include "WarpDialect/Transforms/Passes.h"

namespace mlir::warp {

/// The discardable attribute in which warp-select-lowering writes the
/// decision it took for a warp.reduce or warp.scan (a string: see
/// stringifyReduceLowering and stringifyScanStepForms).
inline constexpr llvm::StringLiteral kLoweringAttrName = "warp.lowering";

/// The measured thresholds of the decisions below. Each was measured on
/// the H200; the figures and the scripts that measured them are named.
struct LoweringThresholds {
  /// Up to this many threads (a known_block_size that is not a whole
  /// number of warps) a block scan rakes by default: segments of at most 2
  /// items (see BlockScanOp's description).
  static constexpr int64_t kMaxAutoRakingScanThreads = 64;
  /// Known block sizes where raking is the default for an integer kind
  /// (exact in any combine order, so the choice changes no result): the
  /// range where it was faster than warp scans or reductions
  /// (benchmarks/device/block_probe.py, docs/results/block-probe-h200.txt).
  static constexpr int64_t kMinIntegerRakingScanThreads = 128;
  static constexpr int64_t kMaxIntegerRakingScanThreads = 768;
  static constexpr int64_t kMinIntegerRakingReduceThreads = 224;
  static constexpr int64_t kMaxIntegerRakingReduceThreads = 512;
  /// Above this many items per lane a warp.exchange prefers shared memory
  /// to shuffles.
  static constexpr unsigned kMaxAutoShuffleExchangeItems = 8;
  /// Above this many block ops a kernel calls shared functions for them
  /// (warp-outline-block-collectives): expanded inline, each adds branches
  /// on the same thread and warp values, which LLVM's straight-line
  /// strength reduction and GVN compare pairwise, so compile time grew
  /// with their square (docs/results/compile-scaling.md).
  static constexpr int64_t kMaxInlineBlockOpsPerKernel = 64;
};

/// The tiling of warp-expand-device-ops' kernels: blocks of `kThreads`,
/// each thread holding `kTileBytesPerThread` bytes of a tile (16 items of
/// 4 bytes, 8 of 8: four 16-byte vector loads). A reduction runs a block
/// per tile up to `kReduceMaxBlocks` blocks; past that cap each block
/// folds chunks of `kReduceTilesPerBlock` consecutive tiles, grid-strided
/// (docs/results/device-ops-h200.md: fewer, longer blocks at 2^28
/// elements, a block a tile below), and one block alone up to
/// `kReduceSingleBlockTiles` tiles (then no second kernel); a reduction
/// with a combine region takes chunks of `kReduceTilesPerBlock` tiles a
/// block. A scan tile moves its items with
/// `kScanTileAlgorithm` (coalesced, no barrier: CUB's choice for scans);
/// a look-back waits `kLookBackSettleNs` before its first poll and
/// `kLookBackPollNs` between polls (CUB's sm_90 tuning, which
/// benchmarks/device/gen_kernels.py's scans measured as the best pair).
struct DeviceTiling {
  static constexpr int64_t kThreads = 256;
  static constexpr int64_t kTileBytesPerThread = 64;
  static constexpr int64_t kReduceTilesPerBlock = 4;
  /// An i32 reduction's tile: 128 bytes a thread (1.018-1.022x CUB
  /// against 0.982-0.983x at 64 at 2^24 elements on the H100, level at
  /// 2^28). f32 lost 4 % at 2^28 with it, f64 was level: they keep
  /// kTileBytesPerThread (docs/results/gpu-2026-12-06-twentieth.md).
  static constexpr int64_t kIntReduceTileBytesPerThread = 128;
  static constexpr int64_t kReduceMaxBlocks = 4096;
  static constexpr int64_t kReduceSingleBlockTiles = 4;
  /// A scan's tile (see scanThreadBytes): 128 bytes a thread (32 4-byte
  /// items, the most warp_transpose exchanges). Fewer, longer tiles wait
  /// on fewer look-backs; of 64, 96 and 128 the last was fastest on the
  /// H100 (inclusive i32 and exclusive f32 at 2^24 and 2^28 elements; in
  /// clusters of 2, 4 and 8 too), at 64 registers without spilling
  /// (docs/results/gpu-2026-12-06-twentieth.md).
  static constexpr int64_t kScanTileBytesPerThread = 128;
  static constexpr BlockMemoryAlgorithm kScanTileAlgorithm =
      BlockMemoryAlgorithm::WarpTranspose;
  /// A histogram tile: samples per thread, and the most bins counted in
  /// workgroup memory (i64 counters: 32 KiB).
  static constexpr int64_t kHistogramItemsPerThread = 16;
  static constexpr int64_t kMaxPrivateHistogramBins = 4096;
  /// The grid of a histogram counted in workgroup memory: a block per
  /// `kHistogramTilesPerBlock` tiles (each block clears and flushes its
  /// counters once: with a block per tile that cost was not amortized
  /// between 2^20 and 2^24 samples), at most `kHistogramMaxBlocks`, about
  /// the blocks the largest chip holds at once
  /// (docs/results/device-ops-h200.md).
  static constexpr int64_t kHistogramTilesPerBlock = 8;
  static constexpr int64_t kHistogramMaxBlocks = 1024;
  /// A histogram of fewer tiles than `kHistogramTilesPerBlock` times this
  /// takes more blocks than those tiles a block: a block a tile up to
  /// this many (over 2 to 8 tiles each, a block's tiles would be counted
  /// one after another while most of the chip idles).
  static constexpr int64_t kHistogramMinBlocks = 64;
  /// A block that counted 8-bit sample values adds them to its own copy
  /// of the bins in workgroup memory before the output where the bins are
  /// at most half the values it counted (several values a bin: levels):
  /// one global atomic a bin and block, not one a value. The blocks of a
  /// grid that finish together otherwise queue on the few L2 lines the
  /// bins sit in.
  static bool mergeHistogramValues(int64_t values, int64_t bins) { return 2 * bins <= values; }
  /// A segmented reduction's grid: a block per segment, at most this many
  /// (the blocks then take further segments in turn; any count of
  /// segments, past CUDA's grid limit too), and the loads of a segment a
  /// thread has in flight at once.
  static constexpr int64_t kSegmentedReduceMaxBlocks = 65536;
  static constexpr int64_t kSegmentedReduceItemsPerThread = 4;
  static constexpr int32_t kLookBackSettleNs = 1245;
  static constexpr int32_t kLookBackPollNs = 648;
  /// The blocks per SM that a selection's kernel asks ptxas to fit
  /// (`nvvm.minctasm`, PTX `.minnctapersm`; 0: no hint): ptxas then keeps
  /// its registers to what that many blocks leave, and the more tiles that
  /// are resident hide more of the look-back's latency. Each is the best
  /// of 4 (none), 5 and 6 on the H200 (6 is as many as their workgroup
  /// memory allows there; select spills at 6; the scans gained nothing
  /// from 8): docs/results/device-ops-h200.md. A run-length encoding's
  /// tile stages more, and 5 of its blocks fill the workgroup memory.
  static constexpr int64_t kSelectMinBlocksPerSM = 5;
  static constexpr int64_t kPartitionMinBlocksPerSM = 6;
  static constexpr int64_t kUniqueMinBlocksPerSM = 6;
  static constexpr int64_t kRunLengthMinBlocksPerSM = 5;

  /// A scan (of a kind, without keys or clusters) of more than one tile
  /// and at most this many is one launch of one cluster of as many blocks,
  /// where the target has clusters: one cluster looks back at no status
  /// word, so no scan_init launch clears them first (5.8-6.1 us against
  /// 8.2-8.8 us for 2 to 8 tiles of i32 on the H100:
  /// docs/results/cluster-scan-one-cluster-h100-2026-12-07.md). 8: the
  /// most blocks a portable cluster has.
  static constexpr int64_t kOneClusterScanBlocks = 8;

  /// A device radix sort's tile: bytes of keys and values a thread holds
  /// (its warp.block_radix_sort's buffers must fit the workgroup memory
  /// beside its counter grid), and the digit bits of a pass.
  static constexpr int64_t kRadixSortBytesPerThread = 32;
  /// The same where onesweep ranks its tiles and scatters them by rank
  /// (no sort buffers beside the counters), keys only and pairs: a larger
  /// tile makes a digit's run of keys in a tile longer, so that fewer of
  /// its writes fill DRAM sectors partly, and takes fewer tickets and
  /// look-backs. Keys: 128 (32 4-byte keys; of 16, 20, 24, 28 and 32 the
  /// last was fastest on the H100, and 128 registers hold it without
  /// spilling). Pairs: 96 (24 pairs; the fastest of 16, 20, 24 and 28,
  /// which spills), where keys and values (each moved as at least 4
  /// bytes) are as wide and share one exchange buffer; else 64, so that
  /// their two buffers fit the 48 KiB of static workgroup memory.
  /// docs/results/device-ops-bench-h100-onesweep-early-counts.txt.
  static constexpr int64_t kRadixSortRankedKeyBytesPerThread = 128;
  static constexpr int64_t kRadixSortRankedPairBytesPerThread = 96;
  static constexpr int64_t kRadixSortRankedMixedPairBytesPerThread = 64;
  /// A device radix sort of at most one such tile is one block's
  /// warp.block_radix_sort over every bit, one launch instead of
  /// onesweep's passes (CUB's single-tile kernel): 64 bytes a thread of
  /// the wider of keys and values, each as at least 4 bytes (16 of up to
  /// 4 bytes, 4096 a block, keys or pairs). The tile is loaded straight
  /// into the threads' items, so that the sort's key and value buffers and
  /// its counters alone share the 48 KiB of static workgroup memory (an
  /// exchange buffer for the loads took pairs to 60 KiB).
  static constexpr int64_t kRadixSortSingleTileBytesPerThread = 64;
  static constexpr int64_t kRadixSortPassBits = 8;
  /// Onesweep's histogram kernel (every pass's digits counted in one
  /// read of the keys): a block per tile up to this many, each then over
  /// an even share of the tiles, so that the blocks' global atomics on
  /// the totals stay few.
  static constexpr int64_t kRadixSortHistogramMaxBlocks = 1024;
  /// The status words of the tiles before that a radix sort's look-back
  /// loads at once, per digit: a walk back over tiles that published only
  /// their counts then waits for one load a window instead of one a tile.
  /// Keys only: 4 (best of 1, 4 and 8 on the H100 at 16 keys a thread,
  /// and of 2, 4 and 8 at 32; 8 spills). Pairs: 1 (better than 4 at 24),
  /// since their longer tiles wait less and the window's extra loads cost
  /// them at 2^28 keys, where the status arrays outgrow the L2
  /// (docs/results/gpu-h100-2026-12-06-eighteenth.md).
  static int64_t radixLookBackWindow(bool pairs) { return pairs ? 1 : 4; }
  /// The blocks per SM a radix sort's onesweep kernel asks ptxas to fit
  /// (`nvvm.minctasm`): two of 256 threads give it 128 registers, which
  /// its ranked tiles take without spilling (three, 80 registers, spill
  /// tiles of more than 16 keys: ptxas 13.0, sm_90).
  static constexpr int64_t kRadixSortMinBlocksPerSM = 2;
  /// A pass's tile is ranked by its whole digit at once with this ranking
  /// (CUB's onesweep ranks its 8-bit digits with BlockRadixRankMatch; the
  /// compiler's default would take two 4-bit counter-grid passes).
  static constexpr RadixRankAlgorithm kRadixSortTileRanking =
      RadixRankAlgorithm::MatchCounters;
  /// Items per thread of a radix sort tile of `keyBytes`-byte keys and
  /// `valueBytes`-byte values (0: keys only): `ranked` (onesweep's tiles)
  /// as many as 4-byte items where they are narrower (the scatter moves
  /// them as 4 bytes).
  static int64_t radixSortItemsPerThread(int64_t keyBytes, int64_t valueBytes,
                                         bool ranked) {
    if (ranked) {
      int64_t keyWidth = std::max<int64_t>(4, keyBytes);
      int64_t valueWidth = std::max<int64_t>(4, valueBytes);
      int64_t bytes = !valueBytes                ? kRadixSortRankedKeyBytesPerThread
                      : keyWidth == valueWidth ? kRadixSortRankedPairBytesPerThread
                                               : kRadixSortRankedMixedPairBytesPerThread;
      return bytes / std::max(keyWidth, valueWidth);
    }
    return kRadixSortBytesPerThread / std::max(keyBytes, valueBytes);
  }
  /// Items per thread of a device radix sort's single tile.
  static int64_t radixSortSingleTileItemsPerThread(int64_t keyBytes, int64_t valueBytes) {
    return kRadixSortSingleTileBytesPerThread / std::max({int64_t(4), keyBytes, valueBytes});
  }


  /// Items per thread of a tile of `elementBytes`-byte elements, a thread
  /// holding `threadBytes` of them.
  static int64_t itemsPerThread(int64_t elementBytes,
                                int64_t threadBytes = kTileBytesPerThread) {
    return threadBytes / elementBytes;
  }
  /// Items of such a tile.
  static int64_t tileItems(int64_t elementBytes,
                           int64_t threadBytes = kTileBytesPerThread) {
    return itemsPerThread(elementBytes, threadBytes) * kThreads;
  }
  /// The bytes a thread holds of a scan's tile: kScanTileBytesPerThread
  /// for a scan with a kind of 4- or 8-byte elements, in clusters or not,
  /// kTileBytesPerThread for a scan `byKey` (128 was slower: its tile
  /// holds the keys too) and for narrower elements (not measured).
  static int64_t scanThreadBytes(int64_t elementBytes, bool byKey) {
    return !byKey && elementBytes >= 4 ? kScanTileBytesPerThread : kTileBytesPerThread;
  }
  /// The item size that sets the tile of a scan over tuples of
  /// `tupleBytes` bytes (warp.device_scan_combine): the tuple's, rounded up
  /// to a power of two, at most a thread's bytes (one tuple a thread), so
  /// that a thread holds about kTileBytesPerThread of tuples.
  static int64_t tupleScanTileBytes(int64_t tupleBytes) {
    return std::min<int64_t>(llvm::PowerOf2Ceil(tupleBytes), kTileBytesPerThread);
  }
  /// Items of a combine-region reduction's chunk (a block's tiles).
  static int64_t reduceChunkItems(int64_t elementBytes) {
    return tileItems(elementBytes) * kReduceTilesPerBlock;
  }
  /// The most items a reduction of tiles of `tileItems` folds in one
  /// block alone.
  static int64_t reduceSingleBlockItems(int64_t tileItems) {
    return tileItems * kReduceSingleBlockTiles;
  }
  /// The bytes a thread holds of a reduction's tile (a kind's):
  /// kIntReduceTileBytesPerThread for 4-byte integers, kTileBytesPerThread
  /// for the rest.
  static int64_t reduceThreadBytes(Type element) {
    return element.isInteger(32) ? kIntReduceTileBytesPerThread : kTileBytesPerThread;
  }
};

/// The layout of a warp.exchange's shared strategy and of a warp.scatter
/// (ExpandExchange.cpp): the bytes of one warp's slice of the workgroup
/// buffer for `items` (a lane's items), the bytes a block needs for all its
/// warps for `op` (a warp.exchange or warp.scatter), and the gpu.module that
/// holds the buffer (null outside a gpu.func of a gpu.module).
uint64_t getExchangeSliceBytes(VectorType items);
uint64_t getExchangeSharedBytes(Operation *op);
gpu::GPUModuleOp getExchangeBufferOwner(Operation *op);

/// The strategy of `op` (of more than one item per lane) when the expansion
/// runs on `root` for `chip`: its own, checked; else shuffles for few items,
/// shared memory where it can work (in a gpu.func of a gpu.module under
/// `root`, within the chip's static shared memory), shuffles where the
/// item count allows; failure, with a located error, when nothing can.
FailureOr<ExchangeStrategy> decideExchangeStrategy(ExchangeOp op,
                                                   Operation *root,
                                                   const Chip &chip);

/// Whether the exchange buffer can serve the warp.scatter `op` when the
/// expansion runs on `root` for `chip` (as the shared strategy of
/// decideExchangeStrategy); failure, with a located error, when not.
LogicalResult checkScatterBuffer(ScatterOp op, Operation *root,
                                 const Chip &chip);

/// How a warp.reduce without segment flags lowers.
struct ReduceLowering {
  ReduceStrategy strategy;
  /// Over the member lanes in rank order (fns finds each partner): a mask
  /// that may split clusters, where the op forces no strategy (a forced
  /// butterfly or tree is the user's promise that it does not).
  bool overMembers;
};

/// The lowering of `op` on `options.chip`, or failure (with a diagnostic
/// when `emitErrors`) if the op forces a strategy the chip cannot do. The
/// op's own strategy is binding; a pass-wide preference applies where it
/// can; else redux.sync where legal, a tree for `lanes = first`, a
/// butterfly for `lanes = all`.
FailureOr<ReduceLowering> decideReduceLowering(
    ReduceOp op, const ExpandCollectivesOptions &options, bool emitErrors);

/// The lowering of `op`: the one warp-select-lowering wrote on it, checked
/// against the op and the chip (a located error with `emitErrors`, and
/// failure, where it cannot be carried out), else decideReduceLowering.
FailureOr<ReduceLowering> getReduceLowering(
    ReduceOp op, const ExpandCollectivesOptions &options, bool emitErrors);

/// The spelling of `lowering` in kLoweringAttrName: "redux", "butterfly",
/// "tree" or "over_members".
StringRef stringifyReduceLowering(const ReduceLowering &lowering);

/// Which steps of a scan network are warp.scan_step ops (CUB's predicated
/// pairs, which test the partner with the shuffle's valid bit) rather than a
/// shuffle, a combine and a select on the lane's position.
struct ScanStepForms {
  /// The kind of the predicated steps; none: every step tests the position.
  std::optional<CombineKind> predicated;
  /// The last step tests the lane's position even so.
  bool laneTestLast = false;
};

/// The step forms of a scan or segmented reduction of `values` by `kind`
/// (none for a combiner region) under `preference`.
ScanStepForms decideScanStepForms(std::optional<CombineKind> kind,
                                  ValueRange values,
                                  ScanStepPreference preference);

/// The step forms of `op` (a warp.scan, or a warp.reduce with segment
/// flags) over `values` by `kind`: the ones warp-select-lowering wrote on
/// it, checked (a located error with `emitErrors`, and failure, where the
/// kind and type have no predicated step), else decideScanStepForms.
FailureOr<ScanStepForms> getScanStepForms(Operation *op,
                                          std::optional<CombineKind> kind,
                                          ValueRange values,
                                          ScanStepPreference preference,
                                          bool emitErrors);

/// The spelling of `forms` in kLoweringAttrName: "lane_test_steps",
/// "predicated_steps" or "predicated_steps_lane_test_last".
StringRef stringifyScanStepForms(const ScanStepForms &forms);

/// A block scan's algorithm: its own, else raking for small known blocks
/// with a partial warp (but one warp's own scan) and for an integer kind in
/// a known block of the measured range, warp scans otherwise.
BlockScanAlgorithm decideBlockScanAlgorithm(BlockScanOp op);

/// A block reduction's algorithm: its own, else raking for an integer kind
/// in a known block of the measured range, warp reductions otherwise.
BlockReduceAlgorithm decideBlockReduceAlgorithm(BlockReduceOp op);

/// A block load's or store's algorithm: its own (`direct` for a partial
/// tile's `vectorize`: vector accesses take no bound), else for blocked items
/// `vectorize` where the verifier allows it, `warp_transpose` in a known
/// block of whole warps, `transpose` for 4- and 8-byte items, `direct`
/// otherwise (and always for striped items or one item per thread). A
/// warp load's or store's the same, `transpose` (warp.exchange) in place
/// of the block's two, in a known block of whole warps only.
BlockMemoryAlgorithm decideBlockMemoryAlgorithm(BlockLoadOp op);
BlockMemoryAlgorithm decideBlockMemoryAlgorithm(BlockStoreOp op);
BlockMemoryAlgorithm decideBlockMemoryAlgorithm(LoadOp op);
BlockMemoryAlgorithm decideBlockMemoryAlgorithm(StoreOp op);

/// A block histogram's algorithm: its own, else atomic (one atomic per
/// sample; the warp-aggregated form pays only where samples repeat within
/// a warp, which nothing in the IR says).
BlockHistogramAlgorithm decideBlockHistogramAlgorithm(BlockHistogramOp op);

/// The bits per counting pass of a block radix sort: its own radix_bits,
/// else at most kMaxDefaultRadixBits, no more than the sorted bit range.
unsigned decideRadixSortBits(BlockRadixSortOp op);

/// Whether `op` is a block scan or reduction that rakes.
bool isRakingBlockOp(Operation *op);

/// The size of a known block of one (whole or partial) warp, whose block
/// ops are that warp's collectives.
std::optional<int64_t> getKnownOneWarpThreads(Operation *op);

/// Whether a block scan is its warp's scan: a kind without a prefix (init
/// or region) in a known block of one warp.
bool isOneWarpScan(BlockScanOp op);

} // namespace mlir::warp

#endif // WARPDIALECT_TRANSFORMS_LOWERINGPOLICY_H
