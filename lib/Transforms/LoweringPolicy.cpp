//===- LoweringPolicy.cpp - every lowering decision, in one place ---------===//

#include "WarpDialect/Transforms/LoweringPolicy.h"

#include "WarpDialect/IR/CombineKinds.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::warp;

using T = LoweringThresholds;

//===----------------------------------------------------------------------===//
// Warp reductions and scans
//===----------------------------------------------------------------------===//

/// Whether every cluster of `op` lies wholly inside or wholly outside its
/// member mask: always without a mask, and for a constant mask made of whole
/// clusters. Only then may a lane read its cluster partners blindly.
static bool maskIsWholeClusters(ReduceOp op) {
  if (!op.getMask())
    return true;
  std::optional<int64_t> mask = getConstantIntValue(op.getMask());
  return mask && !findSplitCluster(uint32_t(*mask), op.getClusterSize(),
                                   op.getClusterStride());
}

/// Whether one redux.sync on `chip` can do `op`: a kind the chip reduces
/// for the type, over the whole warp.
static bool isReduxLegal(ReduceOp op, const Chip &chip) {
  return op.getKind() && op.getClusterSize() == kWarpSize &&
         chip.supportsRedux(*op.getKind(), op.getValues().front().getType());
}

/// The strategy a reduce lowers with, or failure (with a diagnostic when
/// `emitErrors`) if the op forces one the chip cannot do.
static FailureOr<ReduceStrategy>
decideReduceStrategy(ReduceOp op, const ExpandCollectivesOptions &opts,
                     bool emitErrors) {
  Type type = op.getValues().front().getType();
  bool reduxLegal = isReduxLegal(op, opts.chip);
  // The op's own request is binding: one the chip cannot do is an error,
  // never a backend abort.
  if (std::optional<ReduceStrategy> requested = op.getStrategy()) {
    if (*requested != ReduceStrategy::Redux || reduxLegal)
      return *requested;
    if (emitErrors)
      op.emitOpError() << "strategy 'redux' is not available for " << type
                       << " with kind '" << stringifyCombineKind(*op.getKind())
                       << "' on " << opts.chip.str()
                       << " (redux.sync needs sm_80+ for integers and an "
                          "sm_100a-class chip for f32 min/max)";
    return failure();
  }
  // A pass-wide preference applies where it can and falls back elsewhere.
  if (opts.strategy && (*opts.strategy != ReduceStrategy::Redux || reduxLegal))
    return *opts.strategy;
  if (reduxLegal)
    return ReduceStrategy::Redux;
  return op.getLanes() == ResultLanes::First ? ReduceStrategy::Tree
                                             : ReduceStrategy::Butterfly;
}

FailureOr<ReduceLowering>
mlir::warp::decideReduceLowering(ReduceOp op,
                                 const ExpandCollectivesOptions &options,
                                 bool emitErrors) {
  FailureOr<ReduceStrategy> strategy =
      decideReduceStrategy(op, options, emitErrors);
  if (failed(strategy))
    return failure();
  bool overMembers = !maskIsWholeClusters(op) && !op.getValidLanes() &&
                     *strategy != ReduceStrategy::Redux && !op.getStrategy();
  return ReduceLowering{*strategy, overMembers};
}

/// Whether a scan of `values` by `kind` can take CUB's predicated steps:
/// one value whose kind and type have one (none for a combiner region).
static bool hasPredicatedSteps(std::optional<CombineKind> kind,
                               ValueRange values) {
  return kind && values.size() == 1 &&
         getPredicatedScanStep(*kind, values.front().getType());
}

ScanStepForms
mlir::warp::decideScanStepForms(std::optional<CombineKind> kind,
                                ValueRange values,
                                ScanStepPreference preference) {
  if (!hasPredicatedSteps(kind, values) ||
      preference == ScanStepPreference::LaneTest)
    return {};
  // Where LLVM folds the last step's select before its combine (an integer
  // kind with an identity operand), ptxas can merge that combine with an
  // add after the scan (IADD3).
  bool folds =
      areIntegers(values) && getCombineKindInfo(*kind).foldsLastSelect;
  return {*kind, folds && preference == ScanStepPreference::FoldLast};
}

//===----------------------------------------------------------------------===//
// The decisions written on the ops
//===----------------------------------------------------------------------===//

/// The spelling of an over-members reduction in kLoweringAttrName (the
/// others are the strategies').
static constexpr llvm::StringLiteral kOverMembers = "over_members";

StringRef mlir::warp::stringifyReduceLowering(const ReduceLowering &lowering) {
  if (lowering.overMembers)
    return kOverMembers;
  return stringifyReduceStrategy(lowering.strategy);
}

FailureOr<ReduceLowering>
mlir::warp::getReduceLowering(ReduceOp op,
                              const ExpandCollectivesOptions &options,
                              bool emitErrors) {
  auto written = op->getAttrOfType<StringAttr>(kLoweringAttrName);
  if (!written)
    return decideReduceLowering(op, options, emitErrors);
  std::optional<ReduceLowering> lowering;
  if (written.getValue() == kOverMembers)
    lowering = ReduceLowering{ReduceStrategy::Tree, /*overMembers=*/true};
  else if (std::optional<ReduceStrategy> strategy =
               symbolizeReduceStrategy(written.getValue()))
    lowering = ReduceLowering{*strategy, /*overMembers=*/false};
  bool legal = lowering && !op.isSegmented() &&
               (lowering->strategy != ReduceStrategy::Redux ||
                isReduxLegal(op, options.chip));
  if (legal)
    return *lowering;
  if (emitErrors)
    op.emitOpError() << "cannot lower as " << kLoweringAttrName << " = "
                     << written << " on " << options.chip.str()
                     << " (warp-select-lowering writes redux, butterfly, "
                        "tree or over_members, redux only where the chip "
                        "can reduce the type with the kind)";
  return failure();
}

/// The spellings of the step forms in kLoweringAttrName.
static constexpr llvm::StringLiteral kLaneTestSteps = "lane_test_steps";
static constexpr llvm::StringLiteral kPredicatedSteps = "predicated_steps";
static constexpr llvm::StringLiteral kPredicatedStepsLaneTestLast =
    "predicated_steps_lane_test_last";

StringRef mlir::warp::stringifyScanStepForms(const ScanStepForms &forms) {
  if (!forms.predicated)
    return kLaneTestSteps;
  return forms.laneTestLast ? kPredicatedStepsLaneTestLast : kPredicatedSteps;
}

FailureOr<ScanStepForms>
mlir::warp::getScanStepForms(Operation *op, std::optional<CombineKind> kind,
                             ValueRange values, ScanStepPreference preference,
                             bool emitErrors) {
  auto written = op->getAttrOfType<StringAttr>(kLoweringAttrName);
  if (!written)
    return decideScanStepForms(kind, values, preference);
  if (written.getValue() == kLaneTestSteps)
    return ScanStepForms{};
  bool laneTestLast = written.getValue() == kPredicatedStepsLaneTestLast;
  if ((laneTestLast || written.getValue() == kPredicatedSteps) &&
      hasPredicatedSteps(kind, values))
    return ScanStepForms{*kind, laneTestLast};
  if (emitErrors)
    op->emitOpError() << "cannot lower as " << kLoweringAttrName << " = "
                      << written
                      << " (warp-select-lowering writes lane_test_steps, "
                         "or predicated_steps[_lane_test_last] where the "
                         "kind has a predicated step on the type)";
  return failure();
}

//===----------------------------------------------------------------------===//
// Block scans and reductions
//===----------------------------------------------------------------------===//

/// The size of a known block of one (whole or partial) warp, whose block
/// ops are that warp's collectives.
std::optional<int64_t> mlir::warp::getKnownOneWarpThreads(Operation *op) {
  std::optional<int64_t> known = getKnownBlockThreads(op);
  if (known && *known <= kWarpSize)
    return known;
  return std::nullopt;
}

/// Whether a block scan is its warp's scan: a kind without init in a known
/// block of one warp.
bool mlir::warp::isOneWarpScan(BlockScanOp op) {
  return op.getKind() && !op.hasPrefix() && getKnownOneWarpThreads(op);
}

/// Whether `op` combines integers with a kind in a known block of `min` to
/// `max` threads.
static bool isIntegerKindInBlockOf(Operation *op, std::optional<CombineKind> kind,
                            ValueRange values, int64_t min, int64_t max) {
  std::optional<int64_t> threads = getKnownBlockThreads(op);
  return kind && threads && *threads >= min && *threads <= max &&
         areIntegers(values);
}

/// The algorithm of a block scan: its own, else raking for small known
/// blocks with a partial warp (but one warp's own scan) and for an integer
/// kind in a known block of 128 to 768 threads, warp scans otherwise (and
/// for a reverse scan).
BlockScanAlgorithm mlir::warp::decideBlockScanAlgorithm(BlockScanOp op) {
  if (std::optional<BlockScanAlgorithm> algorithm = op.getAlgorithm())
    return *algorithm;
  // Only the warp scans have a reverse form; tiles rake only when asked
  // (the raking thresholds are block sizes).
  if (op.getReverse() || op.getTile())
    return BlockScanAlgorithm::WarpScans;
  int64_t threads = getMaxBlockThreads(op);
  bool smallRagged = threads <= T::kMaxAutoRakingScanThreads &&
                     threads % kWarpSize != 0 && !isOneWarpScan(op);
  return smallRagged ||
                 isIntegerKindInBlockOf(op, op.getKind(), op.getValues(),
                                        T::kMinIntegerRakingScanThreads,
                                        T::kMaxIntegerRakingScanThreads)
             ? BlockScanAlgorithm::Raking
             : BlockScanAlgorithm::WarpScans;
}

/// The algorithm of a block reduction: its own, else raking for an integer
/// kind in a known block of the raking range (without valid_threads, which
/// raking does not take), warp reductions otherwise.
BlockReduceAlgorithm mlir::warp::decideBlockReduceAlgorithm(BlockReduceOp op) {
  if (std::optional<BlockReduceAlgorithm> algorithm = op.getAlgorithm())
    return *algorithm;
  // Tiles rake only when asked (the raking thresholds are block sizes).
  if (op.getTile())
    return BlockReduceAlgorithm::WarpReductions;
  return !op.getValidThreads() &&
                 isIntegerKindInBlockOf(op, op.getKind(), op.getValues(),
                                T::kMinIntegerRakingReduceThreads,
                                T::kMaxIntegerRakingReduceThreads)
             ? BlockReduceAlgorithm::Raking
             : BlockReduceAlgorithm::WarpReductions;
}

/// See decideBlockMemoryAlgorithm (LoweringPolicy.h); `op` is the load or
/// store, `valid` its valid operand.
/// The lanes of a warp load's or store's logical warp (32 for the block
/// ops' warps).
static unsigned getTileWidth(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getWidth();
  if (auto store = dyn_cast<StoreOp>(op))
    return store.getWidth();
  return kWarpSize;
}

static BlockMemoryAlgorithm
decideBlockMemory(Operation *op, std::optional<BlockMemoryAlgorithm> own,
                  bool striped, Value valid, VectorType items,
                  MemRefType memref) {
  // A partial tile's `vectorize` is `direct` (vector accesses take no
  // bound), as CUB's guarded BLOCK_LOAD_VECTORIZE loads directly.
  if (own)
    return *own == BlockMemoryAlgorithm::Vectorize && valid ? BlockMemoryAlgorithm::Direct
                                                           : *own;
  int64_t n = items.getNumElements();
  if (striped || n == 1)
    return BlockMemoryAlgorithm::Direct;
  int64_t bytes = items.getElementTypeBitWidth() / 8;
  bool vectors = (llvm::isPowerOf2_64(n * bytes) && n * bytes <= 16) ||
                 (n * bytes) % 16 == 0;
  if (!valid && vectors && memref.getLayout().isIdentity())
    return BlockMemoryAlgorithm::Vectorize;
  if (bytes != 4 && bytes != 8)
    return BlockMemoryAlgorithm::Direct;
  std::optional<int64_t> threads = getKnownBlockThreads(op);
  bool wholeWarps = threads && *threads % kWarpSize == 0;
  // A warp's transpose is warp.exchange, whose items from a ragged warp's
  // missing lanes are undefined: only where every warp is whole, and over
  // the whole warp (not logical warps of fewer lanes).
  if (isa<LoadOp, StoreOp>(op))
    return wholeWarps && n <= ExchangeOp::kMaxItemsPerLane &&
                   getTileWidth(op) == kWarpSize
               ? BlockMemoryAlgorithm::Transpose
               : BlockMemoryAlgorithm::Direct;
  if (wholeWarps && n <= kWarpSize)
    return BlockMemoryAlgorithm::WarpTranspose;
  return BlockMemoryAlgorithm::Transpose;
}

template <typename Op>
static BlockMemoryAlgorithm decideTileMemory(Op op) {
  return decideBlockMemory(op, op.getAlgorithm(), op.isStripedArrangement(),
                           op.getValid(), cast<VectorType>(op.getItemsType()),
                           cast<MemRefType>(op.getMemref().getType()));
}

BlockMemoryAlgorithm mlir::warp::decideBlockMemoryAlgorithm(BlockLoadOp op) {
  return decideTileMemory(op);
}
BlockMemoryAlgorithm mlir::warp::decideBlockMemoryAlgorithm(BlockStoreOp op) {
  return decideTileMemory(op);
}
BlockMemoryAlgorithm mlir::warp::decideBlockMemoryAlgorithm(LoadOp op) {
  return decideTileMemory(op);
}
BlockMemoryAlgorithm mlir::warp::decideBlockMemoryAlgorithm(StoreOp op) {
  return decideTileMemory(op);
}

BlockHistogramAlgorithm
mlir::warp::decideBlockHistogramAlgorithm(BlockHistogramOp op) {
  return op.getAlgorithm().value_or(BlockHistogramAlgorithm::Atomic);
}

/// Whether `op` is a block scan or reduction lowered by raking.
bool mlir::warp::isRakingBlockOp(Operation *op) {
  if (auto scan = dyn_cast<BlockScanOp>(op))
    return decideBlockScanAlgorithm(scan) == BlockScanAlgorithm::Raking;
  auto reduce = dyn_cast<BlockReduceOp>(op);
  return reduce &&
         decideBlockReduceAlgorithm(reduce) != BlockReduceAlgorithm::WarpReductions;
}

//===----------------------------------------------------------------------===//
// Warp exchanges
//===----------------------------------------------------------------------===//

/// Whether the exchange buffer can serve `op` (a warp.exchange of strategy
/// 'shared' or a warp.scatter) in `root`: in a gpu.func of a gpu.module
/// under `root`, with a buffer that fits the chip. With `emitErrors`, says
/// why not at the op, `subject` naming what needs the buffer and
/// `alternative` what else to do (if anything).
static bool canUseExchangeBuffer(Operation *op, Operation *root,
                                 const Chip &chip, bool emitErrors,
                                 StringRef subject, StringRef alternative) {
  gpu::GPUModuleOp owner = getExchangeBufferOwner(op);
  if (!owner) {
    if (emitErrors) {
      InFlightDiagnostic diag = op->emitOpError()
                                << subject
                                << "needs the op in a gpu.func of a "
                                   "gpu.module, where its workgroup buffer "
                                   "is allocated";
      if (!alternative.empty())
        diag << " (use " << alternative << ")";
    }
    return false;
  }
  if (!root->isAncestor(owner)) {
    if (emitErrors)
      op->emitOpError() << subject
                        << "adds a workgroup buffer to the gpu.module: run "
                           "the expansion on the gpu.module or above, not "
                           "inside it";
    return false;
  }
  uint64_t bytes = getExchangeSharedBytes(op);
  if (bytes > chip.staticSharedMemoryBytes()) {
    uint64_t slice = getExchangeSliceBytes(
        cast<VectorType>(op->getOperand(0).getType()));
    if (emitErrors) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << subject << "needs " << bytes
          << " bytes of shared memory per block (" << bytes / slice
          << " warps of " << slice << "), more than the "
          << chip.staticSharedMemoryBytes()
          << " of static shared memory: give the gpu.func a smaller "
             "known_block_size";
      if (!alternative.empty())
        diag << " or use " << alternative;
    }
    return false;
  }
  return true;
}

static bool canUseShared(ExchangeOp op, Operation *root, const Chip &chip,
                         bool emitErrors) {
  // Shuffles are the alternative where the item count allows them.
  unsigned items = op.getItemsPerLane();
  bool shuffleOk = llvm::isPowerOf2_32(items) && items <= kWarpSize;
  return canUseExchangeBuffer(op, root, chip, emitErrors,
                              "strategy 'shared' ",
                              shuffleOk ? "strategy 'shuffle'" : "");
}

LogicalResult mlir::warp::checkScatterBuffer(ScatterOp op, Operation *root,
                                             const Chip &chip) {
  return success(canUseExchangeBuffer(op, root, chip, /*emitErrors=*/true,
                                      "", ""));
}

FailureOr<ExchangeStrategy>
mlir::warp::decideExchangeStrategy(ExchangeOp op, Operation *root,
                                   const Chip &chip) {
  unsigned items = op.getItemsPerLane();
  bool shuffleOk = llvm::isPowerOf2_32(items) && items <= kWarpSize;
  if (std::optional<ExchangeStrategy> requested = op.getStrategy()) {
    if (*requested == ExchangeStrategy::Shared &&
        !canUseShared(op, root, chip, /*emitErrors=*/true))
      return failure();
    return *requested;
  }
  if (shuffleOk && items <= T::kMaxAutoShuffleExchangeItems)
    return ExchangeStrategy::Shuffle;
  if (canUseShared(op, root, chip, /*emitErrors=*/!shuffleOk))
    return ExchangeStrategy::Shared;
  if (shuffleOk)
    return ExchangeStrategy::Shuffle;
  return failure();
}

/// The radix bits of a block radix sort: its own, else 4 (CUB's default:
/// 16 digits, eight words of counters in one block scan), or fewer where
/// the sorted bit range is narrower (no pass counts digits that cannot
/// occur).
unsigned mlir::warp::decideRadixSortBits(BlockRadixSortOp op) {
  if (std::optional<uint32_t> bits = op.getRadixBits())
    return *bits;
  unsigned range = op.getEndBitOrDefault() - op.getBeginBitOrDefault();
  return std::min(kMaxDefaultRadixBits, range);
}
