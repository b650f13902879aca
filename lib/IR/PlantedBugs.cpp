//===- PlantedBugs.cpp - known bugs re-introduced on demand ---------------===//

#include "WarpDialect/IR/PlantedBugs.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdlib>

using namespace mlir;
using llvm::StringRef;

StringRef warp::getPlantedBugName(PlantedBug bug) {
  switch (bug) {
  case PlantedBug::SharedMemoryVectorElements:
    return "shared-memory-vector-elements";
  case PlantedBug::SegmentsIgnoreMaskEdges:
    return "segments-ignore-mask-edges";
  case PlantedBug::GpuShuffleWidthAsSegment:
    return "gpu-shuffle-width-as-segment";
  case PlantedBug::CombinerEmptyBlock:
    return "combiner-empty-block";
  case PlantedBug::BlockScanSelfAppend:
    return "block-scan-self-append";
  case PlantedBug::GpuSubgroupReduceWholeWarp:
    return "gpu-subgroup-reduce-whole-warp";
  }
  return "";
}

bool warp::isBugPlanted(PlantedBug bug) {
  static const std::string planted = [] {
    const char *value = std::getenv("WARP_PLANT_BUG");
    return std::string(value ? value : "");
  }();
  if (planted.empty())
    return false;
  llvm::SmallVector<StringRef> names;
  StringRef(planted).split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return llvm::is_contained(names, getPlantedBugName(bug));
}
