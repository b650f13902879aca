//===- Passes.h - warp dialect conversion passes ----------------*- C++ -*-===//

#ifndef WARPDIALECT_CONVERSION_PASSES_H
#define WARPDIALECT_CONVERSION_PASSES_H

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace warp {

#define GEN_PASS_DECL
#include "WarpDialect/Conversion/Passes.h.inc"

/// Adds the patterns lowering primitive warp ops (ids, masks, shuffle, ballot,
/// vote, match, syncwarp, activemask) to NVVM, one warp op to its NVVM
/// counterpart. Collectives must have been expanded first
/// (populateExpandCollectivesPatterns). Every convergent op it creates is
/// marked with markConvergent.
void populateWarpToNVVMPatterns(RewritePatternSet &patterns,
                                PatternBenefit benefit = 1);

/// Whether `type` is a payload that one `shfl.sync` moves as it is (i32 or
/// f32, which NVVM's shuffle takes directly).
bool isShuffleWord(Type type);

/// Adds the in-dialect legalization that turns a `warp.shuffle` of any other
/// payload (isShuffleWord) into i32 shuffles, one per 32-bit word
/// (ShufflePayloads.cpp); the NVVM conversion runs it first.
void populateShufflePayloadPatterns(RewritePatternSet &patterns,
                                    PatternBenefit benefit = 1);

/// Adds the patterns rewriting upstream gpu subgroup ops into warp ops.
void populateGPUToWarpPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "WarpDialect/Conversion/Passes.h.inc"

} // namespace warp
} // namespace mlir

#endif // WARPDIALECT_CONVERSION_PASSES_H
