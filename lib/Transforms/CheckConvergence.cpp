//===- CheckConvergence.cpp - member masks against the lanes that reach ---===//
//
// warp-check-convergence (Passes.td), on the lane sets of
// Analysis/LaneSets.h.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "WarpDialect/Analysis/LaneSets.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPCHECKCONVERGENCEPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// Whether `op` without a member mask takes the lanes that execute it
/// (rather than all 32).
bool takesExecutingLanes(Operation *op) {
  return isa<BroadcastFirstOp, AtomicRMWOp>(op);
}

bool isBlockLevel(Operation *op) {
  return isBlockCollective(op) || isa<gpu::BarrierOp, TileSyncOp>(op);
}

/// The threads of the tile a block-level op synchronizes (`tile N`,
/// warp.tile_sync N), if not the whole block.
std::optional<int64_t> getSyncedTile(Operation *op) {
  if (auto sync = dyn_cast<TileSyncOp>(op))
    return int64_t(sync.getSize());
  return getTileThreads(op);
}

/// Whether `op` is a warp collective with no member mask, so of all 32
/// lanes (warp.exchange, the warp.mma_* ops): it reads the other lanes
/// (WarpLanesResource) and is not `activemask`, which waits for no lane.
bool isWholeWarpCollective(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || isa<ActiveMaskOp, MemberMaskOpInterface>(op))
    return false;
  SmallVector<MemoryEffects::EffectInstance> reads;
  effects.getEffectsOnResource(WarpLanesResource::get(), reads);
  return !reads.empty();
}

/// The mark of a kernel a check reported on (option `record`).
constexpr StringLiteral kReportedAttr = "warp.convergence_reported";

class Checker {
public:
  Checker(gpu::GPUFuncOp kernel, bool asWarnings, bool wholeWarps,
          bool afterExpansion)
      : lanes(kernel), kernel(kernel), asWarnings(asWarnings),
        wholeWarps(wholeWarps), afterExpansion(afterExpansion) {}

  /// Whether a finding was reported (as an error or a warning).
  bool reported() const { return anyReported; }

  /// Checks every collective of the kernel; false if an error was emitted.
  bool run() {
    kernel.walk([&](Operation *op) {
      if (auto collective = dyn_cast<MemberMaskOpInterface>(op))
        checkMask(op, collective.getMask());
      else if (isBlockLevel(op))
        checkBlockLevel(op);
      else if (isWholeWarpCollective(op))
        checkMask(op, Value());
    });
    return ok;
  }

private:
  /// The suffix naming `warp` where the block has several.
  std::string inWarp(unsigned warp) {
    if (lanes.getNumWarps() == 1)
      return "";
    return " in warp " + std::to_string(warp) + " of the block";
  }

  /// Notes at the branches that narrowed `reach` and, for a ragged warp,
  /// at the kernel.
  void attachNotes(InFlightDiagnostic &diag, const LaneReach &reach,
                   unsigned warp) {
    for (const LaneReach::Narrowing &narrowing : reach.narrowedBy) {
      Diagnostic &note = diag.attachNote(narrowing.op->getLoc());
      uint32_t taken = narrowing.lanes;
      if (narrowing.lastIteration)
        note << "only lanes " << formatLanes(taken) << inWarp(warp)
             << " run this loop's last iteration; the others run fewer "
                "(its bounds differ between lanes)";
      else if (isa<LoopLikeOpInterface>(narrowing.op))
        note << (taken ? "only lanes " + formatLanes(taken) : "no lane")
             << inWarp(warp) << " run" << (taken ? "" : "s")
             << " an iteration of this loop (its bounds differ between "
                "lanes)";
      else if (taken)
        note << "only lanes " << formatLanes(taken) << inWarp(warp)
             << " take the way through this branch";
      else
        note << "no lane" << inWarp(warp)
             << " takes the way through this branch";
    }
    uint32_t live = lanes.getLiveLanes(warp);
    if (live != ~uint32_t(0)) {
      auto size = *lanes.getBlockSize();
      diag.attachNote(kernel.getLoc())
          << "warp " << warp << " of the block has only lanes "
          << formatLanes(live) << " (known_block_size = " << size[0] << "x"
          << size[1] << "x" << size[2] << ")";
    }
  }

  /// The lanes of `warp` that exist wherever the op runs at all, given the
  /// lanes that `reach` it: every lane of a block whose size the kernel
  /// declares (or, with `whole-warps`, all 32); else, threads being
  /// numbered without gaps and a block possibly as small as the lowest
  /// lane that reaches, the lanes up to that one. Findings among these
  /// lanes hold for every block size at which the op runs.
  uint32_t getExistingLanes(unsigned warp, uint32_t reach) {
    if (lanes.getBlockSize() || wholeWarps)
      return lanes.getLiveLanes(warp);
    if (!reach)
      return 0;
    unsigned lowest = llvm::countr_zero(reach);
    return lowest == 31 ? ~uint32_t(0) : (uint32_t(2) << lowest) - 1;
  }

  InFlightDiagnostic report(Operation *op, bool error) {
    anyReported = true;
    reportedAt.insert(op->getLoc());
    InFlightDiagnostic diag =
        error && !asWarnings ? op->emitError() : op->emitWarning();
    if (error && !asWarnings)
      ok = false;
    // The op the expansion made carries the location of the one it
    // expanded, which the check before it found nothing wrong in.
    if (afterExpansion)
      diag.attachNote(op->getLoc())
          << "found in the '" << op->getName()
          << "' that warp-expand-collectives made here; the check before "
             "the expansion reported nothing in this kernel, so the "
             "expansion's mask is suspect (a compiler bug)";
    return diag;
  }

  /// Checks the members of `op`: the lanes of `maskValue`, or all 32.
  void checkMask(Operation *op, Value maskValue) {
    // The ops an expansion made carry the location of the one it expanded:
    // one finding there is enough.
    if (afterExpansion && reportedAt.contains(op->getLoc()))
      return;
    if (!maskValue && takesExecutingLanes(op))
      return;
    for (unsigned warp = 0; warp < lanes.getNumWarps(); ++warp) {
      std::optional<LaneReach> reach = lanes.getReach(op, warp);
      if (!reach || !reach->lanes)
        continue;
      uint32_t mask = ~uint32_t(0);
      if (maskValue) {
        std::optional<llvm::APInt> known =
            lanes.evaluate(maskValue, warp)
                .getUniformInteger(reach->lanes | reach->atOtherRuns);
        if (!known)
          continue;
        mask = uint32_t(known->getZExtValue());
      }
      // Lanes a ragged warp does not have are not waited for (CUDA kernels
      // with full masks in such warps run; the GPU suite has them): only
      // lanes known to exist count.
      uint32_t existing = getExistingLanes(warp, reach->lanes);
      if (uint32_t absent = mask & ~reach->lanes & existing) {
        InFlightDiagnostic diag = report(op, /*error=*/true);
        diag << "member mask " << formatLanes(mask) << " names lanes "
             << formatLanes(absent) << " that cannot reach this op"
             << inWarp(warp)
             << ": the collective waits for every lane of its mask and "
                "never completes";
        attachNotes(diag, *reach, warp);
        return;
      }
      // Lanes that run it in other runs (earlier iterations) are
      // executing lanes too.
      if (uint32_t outside =
              (reach->lanes | reach->atOtherRuns) & ~mask & existing) {
        InFlightDiagnostic diag = report(op, /*error=*/false);
        diag << "lanes " << formatLanes(outside) << inWarp(warp)
             << " reach this op but are not in its member mask "
             << formatLanes(mask)
             << ": a lane that executes a collective must be in its mask";
        attachNotes(diag, *reach, warp);
        return;
      }
    }
  }

  void checkBlockLevel(Operation *op) {
    // The threads that reach the op, warp by warp: all of each or none, in
    // the whole block or (`tile N`) in each tile of N / 32 warps.
    std::optional<int64_t> tile = getSyncedTile(op);
    unsigned tileWarps = tile ? std::max<int64_t>(*tile / kWarpSize, 1) : 0;
    std::optional<bool> all;
    for (unsigned warp = 0; warp < lanes.getNumWarps(); ++warp) {
      if (tile && warp % tileWarps == 0)
        all.reset();
      std::optional<LaneReach> reach = lanes.getReach(op, warp);
      if (!reach)
        return;
      uint32_t live = getExistingLanes(warp, reach->lanes);
      bool partial = reach->lanes && reach->lanes != (reach->lanes | live);
      bool allHere = reach->lanes == live;
      if (partial || (all && *all != allHere)) {
        InFlightDiagnostic diag = report(op, /*error=*/false);
        diag << "not every thread of the " << (tile ? "tile" : "block")
             << " reaches this block-level op ("
             << (partial ? "lanes " + formatLanes(reach->lanes) + inWarp(warp)
                         : std::string("warp ") + std::to_string(warp) +
                               (allHere ? " reaches it" : " does not"))
             << "): the threads that reach it wait at its barrier for the "
                "others";
        attachNotes(diag, *reach, warp);
        return;
      }
      all = allHere;
    }
  }

  LaneSetAnalysis lanes;
  gpu::GPUFuncOp kernel;
  bool asWarnings, wholeWarps, afterExpansion;
  bool ok = true, anyReported = false;
  DenseSet<Location> reportedAt;
};

struct WarpCheckConvergencePass
    : public warp::impl::WarpCheckConvergencePassBase<
          WarpCheckConvergencePass> {
  using Base::Base;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    if (failed(checkConvergence(getOperation(), asWarnings, wholeWarps, record,
                                afterExpansion)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::warp::checkConvergence(Operation *root, bool asWarnings,
                                           bool wholeWarps, bool record,
                                           bool afterExpansion) {
  bool ok = true;
  root->walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel())
      return;
    // After the expansion, a kernel already reported on is not reported on
    // again (its findings are the program's, found before).
    if (afterExpansion && func->removeAttr(kReportedAttr))
      return;
    Checker checker(func, asWarnings, wholeWarps, afterExpansion);
    ok &= checker.run();
    if (record && checker.reported())
      func->setAttr(kReportedAttr, UnitAttr::get(func.getContext()));
  });
  return success(ok);
}
