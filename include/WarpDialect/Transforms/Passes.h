//===- Passes.h - warp dialect transformation passes ------------*- C++ -*-===//

#ifndef WARPDIALECT_TRANSFORMS_PASSES_H
#define WARPDIALECT_TRANSFORMS_PASSES_H

#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Target/Chip.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace warp {

#define GEN_PASS_DECL
#include "WarpDialect/Transforms/Passes.h.inc"

/// How the expansion chooses a reduction strategy when an op names none.
struct ExpandCollectivesOptions {
  Chip chip;
  /// std::nullopt: choose from the chip and type.
  std::optional<ReduceStrategy> strategy;
};

/// Parses the `chip` and `strategy` pass options; reports an error on
/// `anchor` for an unknown chip or strategy.
FailureOr<ExpandCollectivesOptions>
parseExpandOptions(Operation *anchor, StringRef chip, StringRef strategy);

/// Adds the patterns that expand reduce, scan, broadcast, broadcast_first and
/// compact into shuffles, votes, arithmetic and `nvvm.redux.sync`.
void populateExpandCollectivesPatterns(RewritePatternSet &patterns,
                                       const ExpandCollectivesOptions &options);

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
