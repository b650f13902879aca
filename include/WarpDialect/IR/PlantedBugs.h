//===- PlantedBugs.h - known bugs re-introduced on demand -------*- C++ -*-===//
//
// The generative contract tester (test/Generative) must prove that it finds
// the classes of bugs that programs written outside this repository found.
// Each such bug, once fixed, keeps a name here; the fix's code path asks
// isBugPlanted(name) and, when the environment variable WARP_PLANT_BUG lists
// that name (comma-separated), takes the old, wrong path again. Nothing but
// the tester's planted-bug tests sets the variable.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_IR_PLANTEDBUGS_H
#define WARPDIALECT_IR_PLANTEDBUGS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::warp {

/// The bugs that can be planted; their names are what WARP_PLANT_BUG lists.
enum class PlantedBug {
  /// warp-check-shared-memory sized a workgroup memref of vectors through
  /// the element's integer-or-float bit width (a crash).
  SharedMemoryVectorElements,
  /// Segmented reductions and scans under a member mask took segment
  /// boundaries from the flags alone, not from the mask's edges.
  SegmentsIgnoreMaskEdges,
  /// convert-gpu-to-warp imported gpu.shuffle's width as CUDA's segment
  /// width, which differs from upstream's meaning for widths that are not
  /// powers of two.
  GpuShuffleWidthAsSegment,
  /// The combiner verifier read the terminator of a combine region's block
  /// without asking whether the block has one (a crash on an empty
  /// region).
  CombinerEmptyBlock,
  /// The block scan's expansion appended its result types to themselves,
  /// reading freed memory past six values (a crash or garbage types).
  BlockScanSelfAppend,
  /// convert-gpu-to-warp imported every gpu.subgroup_reduce as the
  /// whole-warp warp.reduce, whatever lanes execute it (undefined results
  /// in a ragged last warp or a divergent branch).
  GpuSubgroupReduceWholeWarp,
};

/// The name WARP_PLANT_BUG uses for `bug`.
llvm::StringRef getPlantedBugName(PlantedBug bug);

/// Whether WARP_PLANT_BUG names `bug` (read once per process).
bool isBugPlanted(PlantedBug bug);

} // namespace mlir::warp

#endif // WARPDIALECT_IR_PLANTEDBUGS_H
