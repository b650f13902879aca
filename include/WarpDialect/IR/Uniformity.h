//===- Uniformity.h - collectives whose result every lane shares -*- C++ -*-===//
//
// One answer to "does this collective give every lane of the warp the same
// value", for the folders (WarpDialect.cpp) and the lane-set analysis
// (Analysis/LaneSets.h).
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_IR_UNIFORMITY_H
#define WARPDIALECT_IR_UNIFORMITY_H

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::warp {

/// Whether `op` is a full-warp collective that returns one value to all 32
/// lanes: a broadcast, ballot or vote without a mask, or a reduction
/// without a mask over the whole warp with the result in every lane.
bool isFullWarpUniformCollective(Operation *op);

/// Whether `op`, a warp.reduce, combines whole warps (cluster size 32) and
/// returns the result to every lane: all its members then get one value.
bool reducesToEveryLane(Operation *op);

} // namespace mlir::warp

#endif // WARPDIALECT_IR_UNIFORMITY_H
