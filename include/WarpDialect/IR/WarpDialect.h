//===- WarpDialect.h - warp dialect -----------------------------*- C++ -*-===//
//
// Public entry point of the warp dialect: the dialect class, its enums and
// attributes, and its operations.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_IR_WARPDIALECT_H
#define WARPDIALECT_IR_WARPDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "WarpDialect/IR/WarpOpsDialect.h.inc"
#include "WarpDialect/IR/WarpOpsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "WarpDialect/IR/WarpOpsAttrs.h.inc"

namespace mlir::warp {

/// The side-effect resource of convergent warp ops: the registers of the other
/// lanes of the warp. Reading it keeps upstream passes from moving a
/// collective across control flow.
struct WarpLanesResource
    : public SideEffects::Resource::Base<WarpLanesResource> {
  llvm::StringRef getName() final { return "WarpLanes"; }
};

/// The discardable attribute that pins a lowered collective to its program
/// point: markConvergent (Utils/Builders.h) sets it, the LLVM IR
/// translation (Target/LLVMIRTranslation.cpp) makes its call convergent.
inline constexpr llvm::StringLiteral kConvergentAttrName = "warp.convergent";

/// Number of lanes in a warp.
inline constexpr unsigned kWarpSize = 32;

/// The lanes of the cluster of `size` lanes `stride` apart that starts at
/// lane 0; the cluster starting at lane `l` is this pattern shifted by `l`.
uint32_t getClusterLanePattern(unsigned size, unsigned stride);

/// The first lane of `mask` whose cluster (of `size` lanes `stride` apart;
/// `stride` 1 for scan segments) is not wholly in `mask`, and a lane of that
/// cluster outside it; std::nullopt when `mask` is a union of whole clusters.
std::optional<std::pair<unsigned, unsigned>>
findSplitCluster(uint32_t mask, unsigned size, unsigned stride);

/// The number of elements of one lane's `operand` fragment of a `shape`
/// warp.mma_* op with `element` elements (C also stands for D), or
/// std::nullopt for a fragment PTX wmma does not have. The table of the
/// warp.mma_* ops: f16 A/B (16) with f16 or f32 C (8) and bf16 A/B (8) with
/// f32 C at m16n16k16, tf32 A/B (f32 elements, 4) with f32 C at m16n16k8.
std::optional<int64_t> getMMAFragmentLength(MMAShape shape, MMAOperand operand,
                                            Type element);

/// Whether PTX wmma multiplies `input` A/B fragments into `accumulator`
/// C/D fragments at `shape` (both fragments as in getMMAFragmentLength).
bool isMMAComputeSupported(MMAShape shape, Type input, Type accumulator);

/// The k of the m16n8k`k` warp.mma_sync `shape`.
int64_t getMMASyncK(MMASyncShape shape);

/// The oldest sm_XX whose PTX mma.sync has the `shape` multiply of `input`
/// A/B elements (f16, bf16, f32 read as tf32, i8, f8E4M3FN, f8E5M2), or
/// std::nullopt where PTX has none (TensorCoreOps.cpp holds the table).
std::optional<unsigned> getMMASyncMinSm(MMASyncShape shape, Type input);

/// Whether `element` is one of the fp8 types warp.mma_sync multiplies
/// (f8E4M3FN, PTX e4m3; f8E5M2, PTX e5m2).
bool isMMASyncFloat8(Type element);

/// Whether `op` is one of warp's tensor-core ops (mma_*, mma_sync, ldmatrix,
/// stmatrix, wgmma*), which convert-warp-mma-to-nvvm lowers rather than
/// convert-warp-to-nvvm.
bool isTensorCoreOp(Operation *op);

/// Whether convert-warp-mma-to-nvvm lowers `op` rather than
/// convert-warp-to-nvvm, because it needs the memref descriptors and the
/// chip: the tensor-core ops and warp.lane_atomic_rmw.
bool isLoweredWithDescriptors(Operation *op);

/// The checks of CombiningOpInterface (WarpDialect.cpp).
LogicalResult verifyCombiningOp(Operation *op);

/// Fails, at the first op of `region` (the `name` region of `op`) that has
/// memory effects, for the regions the expansions copy anywhere
/// (DeviceOps.cpp).
LogicalResult verifyPureRegion(Operation *op, Region &region, StringRef name);

/// Fails where the `name` region of `op` does not take block arguments of
/// the types `arguments` (`wanted` says which, before the first type), end
/// in a warp.yield of one `yielded` (`meaning`: what it tells) or is not
/// pure (DeviceOps.cpp): a radix rank's `digit` (an i32).
LogicalResult verifyScalarRegion(Operation *op, Region &region,
                                 StringRef name, ArrayRef<Type> arguments,
                                 StringRef wanted, Type yielded,
                                 StringRef meaning);

/// verifyScalarRegion with an i1 yielded: a selection's `pred`, a merge
/// sort's `compare`.
LogicalResult verifyBooleanRegion(Operation *op, Region &region,
                                  StringRef name, ArrayRef<Type> arguments,
                                  StringRef wanted, StringRef meaning);

/// The key-order checks the block and device radix sorts share
/// (WarpDialect.cpp): `signed` only on integer keys, `bits begin to end`
/// both or neither, a range 0 <= begin < end <= the key's width.
LogicalResult verifyRadixSortKeyOrder(Operation *op, Type key, bool isSigned,
                                      std::optional<uint32_t> beginBit,
                                      std::optional<uint32_t> endBit);

} // namespace mlir::warp

#include "WarpDialect/IR/WarpOpsInterfaces.h.inc"

#define GET_OP_CLASSES
#include "WarpDialect/IR/WarpOps.h.inc"

namespace mlir::warp {

/// The warp.yield that ends the `name` region of `op`, or a failure with
/// the diagnostic "`name` region must end with warp.yield" (ops verify
/// before MLIR checks their regions' terminators, so the block may be
/// empty or end in another op; DeviceOps.cpp).
FailureOr<YieldOp> getRegionYield(Operation *op, Region &region, StringRef name);

/// Whether `op` is a block-level collective (`warp.block_*`): every thread
/// of the block takes part, through shared memory and barriers.
inline bool isBlockCollective(Operation *op) {
  return isa<BlockReduceOp, BlockScanOp, BlockBroadcastOp, BlockBallotOp,
             BlockExchangeOp,
             BlockShuffleOp, BlockLoadOp, BlockStoreOp, BlockHistogramOp,
             BlockRadixSortOp, BlockRadixRankOp, BlockRunLengthDecodeOp,
             BlockMergeSortOp, BlockScatterOp, BlockShiftOp>(op);
}

/// Whether `op` is a device-wide collective (`warp.device_*`): host code
/// that warp-expand-device-ops turns into kernel launches.
inline bool isDeviceCollective(Operation *op) {
  return isa<DeviceReduceOp, DeviceSegmentedReduceOp, DeviceScanOp,
             DeviceSelectOp, DevicePartitionOp,
             DeviceSelectIfOp, DevicePartitionIfOp, DeviceUniqueOp,
             DeviceRunLengthEncodeOp, DeviceNonTrivialRunsOp, DeviceHistogramOp,
             DeviceRadixSortOp, DeviceSegmentedRadixSortOp,
             DeviceReduceCombineOp, DeviceScanCombineOp,
             DeviceSegmentedReduceCombineOp>(op);
}

/// Slots per half of a block scratch array (ExpandBlockCollectives.cpp
/// lays them out).
inline constexpr int64_t kBlockScratchSlots = 66;

/// How a warp.block_radix_sort's counting passes rank the items (the
/// `ranking` attribute, RadixRankAlgorithm of WarpBlockOps.td):
///   SharedCounters (`grid`): the counters in a workgroup-memory grid of a
///   column per thread (CUB's BlockRadixRank): counted there, one raking
///   scan of the grid with a scalar block scan.
///   MatchCounters (`match`): a grid of a column per warp (CUB's
///   BlockRadixRankMatch): each warp counts its items in its column, one
///   item of each lane at a time, with warp.match_any (the digits
///   exchanged to the warp-striped arrangement by shuffles, so that this
///   order is the blocked one; whole warps, N a power of two up to 32);
///   then the same raking scan over the smaller grid.
///   RegisterCounters (`registers`): the counters in each thread's
///   registers, ranked with block scans of vectors of counter words.
///   MatchEarlyCounts (`match_early`, warp-striped keys of a
///   warp.block_radix_rank only): CUB's BlockRadixRankMatchEarlyCounts:
///   each warp counts its digits in its row of a grid (a row of 2^R i32
///   a warp, workgroup atomics), the columns become the warps' offsets
///   (one block scan; a last row keeps the digits' starts), and each warp
///   ranks its items once against its row with warp.match_any: the ranks
///   are final at the match, no raking. Never the compiler's choice.
/// Whether `algorithm` counts in a workgroup grid (and rakes it).
inline bool usesCounterGrid(RadixRankAlgorithm algorithm) {
  return algorithm != RadixRankAlgorithm::RegisterCounters;
}

/// The layout of a warp.block_radix_sort's lowering (ExpandBlockRadixSort),
/// shared by the verifier's shared-memory check and the expansion.
struct RadixSortLayout {
  /// Digits per counting pass: 1 .. 8 bits.
  unsigned radixBits;
  /// The ranking: SharedCounters where its workgroup memory fits
  /// kMaxStaticSharedBytes (with separate buffers or in the union), else
  /// MatchCounters where its grid fits beside the buffers, else
  /// RegisterCounters.
  RadixRankAlgorithm algorithm;
  /// With SharedCounters only: the counter grid, the key buffer and the
  /// value buffer are one workgroup buffer of unionBytes bytes (CUB's
  /// TempStorage union), used by turns with barriers between, where the
  /// three separate buffers would not fit and their union does. False:
  /// three buffers, no barriers beyond those of the separate layout.
  bool unionBuffer;
  /// Bytes of the union buffer: the largest of the grid's, the keys' and
  /// the values' (0 without the union).
  int64_t unionBytes;
  /// i32 words of 16-bit counters per thread (or per warp): 2^R / 2, at
  /// least one (with a grid, its counter lanes).
  int64_t counterWords;
  /// i32 words per block scan (a vector<C x i32> payload for
  /// RegisterCounters; 1, a scalar i32, with a grid).
  int64_t scanWords;
  /// Elements (i32) of the counter grid: counterWords + 1 lanes (the last
  /// one padding) of B_max words (MatchCounters: of matchColumns words, a
  /// column per warp, and the zeros after it up to the raked words,
  /// getMatchRakeWords a thread; MatchEarlyCounts: W + 1 rows of 2^R
  /// words, a row per warp and one of the digits' starts); 0 for
  /// RegisterCounters.
  int64_t counterElements;
  /// With MatchCounters: the block's warps W, and the words of a grid lane,
  /// W or, for an even W, W + 1 (a padding column: the lanes then stride
  /// by an odd number of words, so that the counters of a warp's distinct
  /// digits fall in distinct banks, as CUB's PADDED_WARPS). With
  /// MatchEarlyCounts: W alone (its grid has rows, not columns).
  int64_t matchWarps = 0, matchColumns = 0;
  /// Elements of the image (key) buffers, one per key member, and of the
  /// value buffer: B_max * N items and their padding.
  SmallVector<int64_t, 1> keyElements;
  int64_t valueElements;
  /// Bytes of workgroup memory: the buffers (and counter grid, or their
  /// union) and the scans' scratch array (two halves); with a grid each
  /// rounded up to the 16 bytes a workgroup variable is aligned to.
  /// Where nothing fits kMaxStaticSharedBytes, the smallest choice's.
  uint64_t sharedBytes;
};

/// The static shared memory a block can have, in bytes: CUDA's limit
/// without a dynamic-shared-memory opt-in, 48 KiB on every chip (what the
/// radix sort's verifier allows, and Chip::staticSharedMemoryBytes).
inline constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;

/// The radix bits the compiler takes at most where the op has none
/// (LoweringPolicy decides within that).
inline constexpr unsigned kMaxDefaultRadixBits = 4;

/// The most interleaved channels of a warp.device_histogram (CUB's
/// NUM_CHANNELS; images have up to 4).
inline constexpr int64_t kMaxHistogramChannels = 16;

/// The most i32 words of counters one block scan of a radix sort carries.
inline constexpr int64_t kMaxRadixScanWords = 8;

/// Items per padding item in a block-wide buffer of `element`: one per 128
/// bytes (32 banks of 4 bytes).
int64_t getBlockBufferPaddingPeriod(Type element);

/// The layout of `op`'s lowering with `radixBits` bits per pass: of the
/// op's `ranking` where it has one, else the first that fits
/// kMaxStaticSharedBytes of: the counter grid with separate buffers, the
/// counter grid in a union with the buffers, the grid of a column per warp
/// (where canRankByMatch), the register counters (the same choice for the
/// verifier, warp-select-lowering and the expansion); where none fits, the
/// smallest.
RadixSortLayout getRadixSortLayout(BlockRadixSortOp op, unsigned radixBits);

/// The merge sorts' workgroup buffers (warp.merge_sort's per warp,
/// warp.block_merge_sort's per block) hold a part of keys and, with values,
/// one of values, each a run of items with spare elements around it: 16
/// bytes before (at least one element; the merge-path search reads the
/// element before a run, and a thread's items start as aligned as their
/// count allows) and one element after (the merge reads one past a run).
/// The spare elements before the items of a part of `element`s.
int64_t getMergeSortFrontElements(Type element);

/// The elements of a part of `items` items of `element`, spares included.
int64_t getMergeSortPartElements(Type element, int64_t items);

/// The bytes of that part, rounded up to 16 (the next part's alignment).
uint64_t getMergeSortPartBytes(Type element, int64_t items);

/// The words each of `threads` threads rakes of MatchCounters' grid of
/// `gridWords` words: enough for the grid, and odd (CUB's
/// PADDED_RAKING_SEGMENT: the threads' segments then start in distinct
/// banks); the raked words past the grid are zeros.
int64_t getMatchRakeWords(int64_t gridWords, int64_t threads);

/// Whether `op`'s block can rank `itemsPerThread` keys a thread with
/// MatchCounters: a known block of whole warps, a power of two up to 32.
bool canRankByMatch(Operation *op, int64_t itemsPerThread);

/// The layout of `op`'s lowering: one counting pass of getRadixSortLayout's
/// rule with no key or value buffers (the grid where it fits, else the
/// register counters).
RadixSortLayout getRadixRankLayout(BlockRadixRankOp op);

/// The workgroup memory of `op`'s lowering, in bytes: its run values' and
/// run offsets' buffers (B_max * R each) and the lengths' scan's scratch,
/// each aligned to 16 bytes.
uint64_t getRunLengthDecodeBytes(BlockRunLengthDecodeOp op);

} // namespace mlir::warp

#endif // WARPDIALECT_IR_WARPDIALECT_H
