//===- Passes.h - warp dialect transformation passes ------------*- C++ -*-===//
//
// The dialect's expansions (collectives into shuffles, votes, arithmetic and
// workgroup memory, still in warp ops) and their options.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TRANSFORMS_PASSES_H
#define WARPDIALECT_TRANSFORMS_PASSES_H

#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Target/Chip.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

#include <array>

namespace mlir {
class RewritePatternSet;
namespace warp {

/// The reduction strategy a pass or pipeline prefers where an op names none.
enum class StrategyPreference { Auto, Butterfly, Tree, Redux };

/// The command-line spellings of StrategyPreference, shared by the
/// expansion pass and the pipelines.
inline llvm::cl::ValuesClass strategyPreferenceValues() {
  return llvm::cl::values(
      clEnumValN(StrategyPreference::Auto, "auto",
                 "redux.sync where the chip has it, else tree for "
                 "lanes = first and butterfly for lanes = all"),
      clEnumValN(StrategyPreference::Butterfly, "butterfly",
                 "xor shuffles, result in every lane"),
      clEnumValN(StrategyPreference::Tree, "tree",
                 "shfl.down tree, result in the first lane"),
      clEnumValN(StrategyPreference::Redux, "redux",
                 "one redux.sync where legal, auto elsewhere"));
}

/// The strategy a preference forces, std::nullopt for `auto`.
std::optional<ReduceStrategy> getForcedStrategy(StrategyPreference preference);

/// How a scan step tells whether its partner lies in the lane's segment:
/// from the shuffle's valid bit, in a warp.scan_step that the NVVM
/// conversion lowers to CUB's predicated pair (`shfl.sync r|p; @p op`, for
/// the kinds and types getPredicatedScanStep names; other kinds and types,
/// and combiner regions, always take the other test), or from the lane's
/// position in its segment (a test computed before the shuffle returns, and
/// a select). The predicated pair is the shorter code (2 instructions a
/// step, not 3); a lane-tested integer add lets ptxas merge the step's add
/// with an add that follows the scan (IADD3). docs/results/scan-steps-h200.txt
/// has the measurements.
enum class ScanStepPreference { Predicated, FoldLast, LaneTest };

/// The command-line spellings of ScanStepPreference, shared by the
/// expansion pass and the pipelines.
inline llvm::cl::ValuesClass scanStepPreferenceValues() {
  return llvm::cl::values(
      clEnumValN(ScanStepPreference::Predicated, "predicated",
                 "CUB's predicated pair at every step that has one"),
      clEnumValN(ScanStepPreference::FoldLast, "fold-last",
                 "the predicated pair, but a lane test at the last step of "
                 "an integer add, mul, and, or or xor"),
      clEnumValN(ScanStepPreference::LaneTest, "lane-test",
                 "a lane test and a select at every step"));
}

#define GEN_PASS_DECL
#include "WarpDialect/Transforms/Passes.h.inc"

/// How the expansion chooses a reduction strategy when an op names none.
struct ExpandCollectivesOptions {
  Chip chip;
  /// std::nullopt: choose from the chip and type.
  std::optional<ReduceStrategy> strategy;
  ScanStepPreference scanSteps = ScanStepPreference::FoldLast;
};

/// Adds the patterns that expand reduce, scan, broadcast, broadcast_first and
/// compact into shuffles, votes, arithmetic and `nvvm.redux.sync`.
void populateExpandCollectivesPatterns(RewritePatternSet &patterns,
                                       const ExpandCollectivesOptions &options);

/// Adds the patterns that expand `warp.exchange` into shuffles and selects
/// or into stores and loads of the workgroup buffer (ExpandExchange.cpp).
/// The shared strategy needs prepareExchanges to have run on the
/// enclosing gpu.module.
void populateExpandExchangePatterns(RewritePatternSet &patterns);

/// Fixes the strategy of every `warp.exchange` under `root` (attribute
/// `strategy`, decideExchangeStrategy for `chip`), diagnoses what cannot
/// work (the shared strategy outside a gpu.func of a gpu.module under
/// `root`, a buffer over the chip's static shared memory) and adds or grows
/// each gpu.module's workgroup buffer.
LogicalResult prepareExchanges(Operation *root, const Chip &chip);

/// Adds the pattern that expands `warp.merge_sort` into a per-lane sorting
/// network and merge rounds through a workgroup buffer
/// (ExpandMergeSort.cpp); it needs prepareMergeSorts to have run on the
/// enclosing gpu.module.
void populateExpandMergeSortPatterns(RewritePatternSet &patterns);

/// Diagnoses the `warp.merge_sort`s under `root` whose buffer cannot work
/// (outside a gpu.func of a gpu.module under `root`, over the chip's static
/// shared memory) and adds or grows each gpu.module's merge-sort buffer.
LogicalResult prepareMergeSorts(Operation *root, const Chip &chip);

/// Adds the patterns that expand `warp.atomic_rmw` (match_any on the
/// address, a scan over each group, one atomic per group) and, on chips
/// without `elect.sync`, `warp.elect` into a ballot (ExpandAtomics.cpp).
void populateExpandElectAndAtomicPatterns(RewritePatternSet &patterns,
                                          const Chip &chip);

/// Whether the expansion of `op` issues its group's atomic as
/// warp.lane_atomic_rmw (a packed pair, a 16-bit exch, a minnumf or maxnumf
/// of any float, a scope other than gpu or an order other than relaxed)
/// rather than
/// memref.atomic_rmw.
bool usesLaneAtomic(AtomicRMWOp op);

/// Fails, with an error at `op`, where `chip` has no instruction for the
/// atomic the expansion of `op` issues (Chip::checkAtomic).
LogicalResult checkAtomicOnChip(AtomicRMWOp op, const Chip &chip);

/// Widens the odd vector payloads of the combining and block collectives
/// under `root` (warp.reduce, warp.scan, warp.block_reduce, warp.block_scan,
/// warp.block_broadcast): a vector of a number of elements other than a
/// power of two, each of 8 or 16 bits (vector<3xi8>, vector<3xbf16>, ...),
/// becomes the next power of two with zero elements appended, the op's
/// results (and its combiner's arguments) are cut back to the original
/// elements. LLVM's backend legalizes such vectors through the next power
/// of two with the extra elements undefined, which the combines then
/// computed on and which spanned past the end of a scratch buffer's odd
/// slot (PadPayloads.cpp). The expansions call it first.
void padSubwordVectorPayloads(Operation *root);

/// Whether `op` is a warp.block_reduce or warp.block_scan over items per
/// thread (`items`).
bool hasThreadItems(Operation *op);

/// Rewrites every block reduce and scan with `items` under `root` as block
/// ops over one value per thread: each thread folds its items, the block
/// combines the folds, a scan rescans the items from the thread's prefix
/// (ExpandBlockItems.cpp); returns whether there was one.
/// warp-expand-block-collectives calls it first.
bool expandBlockItems(Operation *root);

/// Rewrites every warp.block_scan with `heads` under `root` as a block scan
/// without them over (flag word, values) tuples whose combine region cuts
/// at a head (ExpandBlockSegments.cpp); returns whether there was one.
/// warp-expand-block-collectives calls it before expandBlockItems.
bool expandSegmentedBlockScans(Operation *root);

/// Rewrites every warp.block_load, warp.block_store, warp.load and
/// warp.store under `root` into
/// memref or vector accesses and, where their algorithm transposes,
/// warp.block_exchange or warp.exchange, and every warp.block_histogram
/// into atomics between barriers (ExpandBlockMemory.cpp); returns whether
/// there was one. warp-expand-block-collectives calls it first.
bool expandBlockMemoryOps(Operation *root);

/// Rewrites every warp.block_radix_sort under `module` as counting passes
/// of block scans, workgroup buffers and barriers, and every
/// warp.block_radix_rank as one such pass without the exchange
/// (ExpandBlockRadixSort.cpp); returns whether there was one. warp-expand-block-collectives calls it
/// before it collects the other block ops, so that it expands the scans
/// made here.
bool expandBlockRadixSorts(gpu::GPUModuleOp module);

/// Rewrites every warp.block_merge_sort under `module` as a per-thread
/// sorting network and merge rounds through a workgroup buffer between
/// barriers (ExpandMergeSort.cpp, warp.merge_sort's expansion over the
/// block); returns whether there was one. warp-expand-block-collectives
/// calls it first.
bool expandBlockMergeSorts(gpu::GPUModuleOp module);

/// Rewrites every warp.block_run_length_decode under `module` as a block
/// scan of the run lengths, two workgroup buffers of the runs and a binary
/// search per decoded item (ExpandBlockRunLengthDecode.cpp); returns
/// whether there was one. Called with expandBlockRadixSorts, for the same
/// reason.
bool expandBlockRunLengthDecodes(gpu::GPUModuleOp module);

/// warp-check-convergence on every kernel under `root`: failure where it
/// reported an error (never with `asWarnings`). `record` and
/// `afterExpansion` are the pass's options of those names.
LogicalResult checkConvergence(Operation *root, bool asWarnings,
                               bool wholeWarps, bool record = false,
                               bool afterExpansion = false);

/// Expands every collective under `root` (what `warp-expand-collectives`
/// does); fails with a diagnostic where an op forces a strategy the chip
/// cannot do.
LogicalResult expandCollectives(Operation *root,
                                const ExpandCollectivesOptions &options);

#define GEN_PASS_REGISTRATION
#include "WarpDialect/Transforms/Passes.h.inc"

} // namespace warp
} // namespace mlir

#endif // WARPDIALECT_TRANSFORMS_PASSES_H
