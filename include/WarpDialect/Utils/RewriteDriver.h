//===- RewriteDriver.h - Pattern application linear in the IR --*- C++ -*-===//
//
// The rewrite driver of warp's own rewriting passes (convert-gpu-to-warp,
// warp-expand-collectives).
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_UTILS_REWRITEDRIVER_H
#define WARPDIALECT_UTILS_REWRITEDRIVER_H

#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Support/LLVM.h"

namespace mlir::warp {

/// Applies `patterns` to the ops under `root` until nothing changes, at a
/// cost linear in the IR. applyPatternsGreedily over the whole region would
/// test every op holding a region (an scf.if, say) for dead code each time it
/// comes back to it, a walk of its whole body, and finding the common
/// ancestor of a list of ops tests each op against every enclosing region:
/// both quadratic in the nesting depth. So the driver sees only the ops
/// without regions (the ones that can fold or lose their last use) and those
/// `alsoVisit` names, within `root`'s region; between rounds, the constants
/// are hoisted and merged as the region driver does, which lets the next
/// round fold what they made equal. No block merging either: blocks that
/// differ only in their collectives must stay apart. `changed`, when given,
/// tells whether any pattern applied.
LogicalResult applyPatternsLinearly(Operation *root,
                                    const FrozenRewritePatternSet &patterns,
                                    function_ref<bool(Operation *)> alsoVisit,
                                    bool *changed = nullptr);

} // namespace mlir::warp

#endif // WARPDIALECT_UTILS_REWRITEDRIVER_H
