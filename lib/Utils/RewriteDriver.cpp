//===- RewriteDriver.cpp - Pattern application linear in the IR -----------===//

#include "WarpDialect/Utils/RewriteDriver.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/FoldUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

LogicalResult
mlir::warp::applyPatternsLinearly(Operation *root,
                                  const FrozenRewritePatternSet &patterns,
                                  function_ref<bool(Operation *)> alsoVisit,
                                  bool *changed) {
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  if (root->getNumRegions() == 1)
    config.setScope(&root->getRegion(0));
  if (changed)
    *changed = false;
  for (int64_t round = 0; round < config.getMaxIterations(); ++round) {
    SmallVector<Operation *> ops;
    root->walk([&](Operation *op) {
      if (op != root && (op->getNumRegions() == 0 || alsoVisit(op)))
        ops.push_back(op);
    });
    bool roundChanged = false;
    if (failed(applyOpPatternsGreedily(ops, patterns, config, &roundChanged)))
      return failure();
    if (!roundChanged)
      return success();
    if (changed)
      *changed = true;
    OperationFolder folder(root->getContext());
    root->walk([&](Operation *op) {
      Attribute value;
      if (op != root && matchPattern(op, m_Constant(&value)))
        folder.insertKnownConstant(op, value);
    });
  }
  return failure();
}
