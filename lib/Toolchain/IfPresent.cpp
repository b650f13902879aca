//===- IfPresent.cpp - run a pipeline only where its dialects are ---------===//
//
// warp-if-present: a dynamic pass pipeline guarded by a walk for the
// dialects it rewrites, or for the roots of the patterns it applies, so
// lowerings with nothing to do cost one walk instead of a full pass (and
// the verifier run after it).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPIFPRESENTPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// Whether `root` holds an op of one of `dialects` or a value whose type
/// belongs to one. Registered ops and types are matched by their loaded
/// dialect (a pointer compare); only unregistered ops by name.
bool containsDialect(Operation *root, ArrayRef<std::string> dialects) {
  MLIRContext *context = root->getContext();
  SmallVector<Dialect *, 4> loaded;
  for (const std::string &name : dialects)
    if (Dialect *dialect = context->getLoadedDialect(name))
      loaded.push_back(dialect);
  bool unregistered = context->allowsUnregisteredDialects();
  // Nothing of a dialect that is not loaded exists, unless as an
  // unregistered op.
  if (loaded.empty() && !unregistered)
    return false;
  auto typeInSet = [&](Type type) {
    return llvm::is_contained(loaded, &type.getDialect());
  };
  WalkResult walk = root->walk([&](Operation *op) {
    if (op != root) {
      if (Dialect *dialect = op->getDialect()) {
        if (llvm::is_contained(loaded, dialect))
          return WalkResult::interrupt();
      } else if (unregistered &&
                 llvm::is_contained(dialects,
                                    op->getName().getDialectNamespace())) {
        return WalkResult::interrupt();
      }
    }
    if (llvm::any_of(op->getResultTypes(), typeInSet) ||
        llvm::any_of(op->getOperandTypes(), typeInSet))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(), typeInSet))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Whether an op under `root` (not `root` itself) is one of `roots`.
bool containsOpOf(Operation *root, const DenseSet<OperationName> &roots) {
  if (roots.empty())
    return false;
  return root
      ->walk([&](Operation *op) {
        return op != root && roots.contains(op->getName())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct WarpIfPresentPass
    : public warp::impl::WarpIfPresentPassBase<WarpIfPresentPass> {
  using Base::Base;

  /// The pass as createWarpIfPresentPass(dialects, pass) builds it: the
  /// pipeline is `pass` itself, not its textual form, so it needs no pass
  /// registry (the C API library registers only some passes).
  WarpIfPresentPass(const WarpIfPresentPassOptions &options,
                    std::shared_ptr<const OpPassManager> prototype)
      : Base(options), prototype(std::move(prototype)) {}

  // Each copy (one per thread) runs its own copy of the pipeline: the
  // passes of one pass manager must not run on two ops at once. The copies
  // are made after initialize(), so they take its results along.
  WarpIfPresentPass(const WarpIfPresentPass &other)
      : Base(other), prototype(other.prototype),
        populateRoots(other.populateRoots), roots(other.roots),
        always(other.always) {}

  /// The pass as createWarpIfPatternRootsPass builds it.
  WarpIfPresentPass(const WarpIfPresentPassOptions &options,
                    std::shared_ptr<const OpPassManager> prototype,
                    PatternPopulator populateRoots)
      : Base(options), prototype(std::move(prototype)),
        populateRoots(std::move(populateRoots)) {}

  LogicalResult initialize(MLIRContext *context) override {
    roots.clear();
    always = false;
    // Without dialects or patterns (how the pass built by
    // createWarpIfPatternRootsPass prints), the pipeline runs everywhere.
    if (!populateRoots) {
      always = dialects.empty();
      return success();
    }
    // The ops the patterns can match: a pattern rooted on an interface or a
    // trait is listed for every registered op that has it; one that matches
    // any op makes the pipeline run always.
    RewritePatternSet patterns(context);
    populateRoots(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (const auto &entry : frozen.getOpSpecificNativePatterns())
      roots.insert(entry.first);
    always = !frozen.getMatchAnyOpNativePatterns().empty();
    return success();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    // What the pipeline loads must be loaded before the passes run in
    // parallel.
    if (prototype)
      return prototype->getDependentDialects(registry);
    OpPassManager pm;
    if (succeeded(parsePassPipeline(pipeline, pm, llvm::nulls())))
      pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    if (!always && !containsOpOf(root, roots) &&
        !containsDialect(root, dialects))
      return markAllAnalysesPreserved();
    if (!nested) {
      if (prototype) {
        nested = std::make_unique<OpPassManager>(*prototype);
      } else {
        nested = std::make_unique<OpPassManager>();
        std::string errors;
        llvm::raw_string_ostream errorStream(errors);
        if (failed(parsePassPipeline(pipeline, *nested, errorStream))) {
          nested.reset();
          root->emitError() << "warp-if-present: bad pipeline '" << pipeline
                            << "': " << errors;
          return signalPassFailure();
        }
      }
    }
    if (failed(runPipeline(*nested, root)))
      signalPassFailure();
  }

  /// The pipeline built in C++, shared by the copies; null when it comes
  /// from the `pipeline` option.
  std::shared_ptr<const OpPassManager> prototype;
  /// This copy's pipeline, once it has run.
  std::unique_ptr<OpPassManager> nested;
  /// The patterns whose roots also make the pipeline run (C++ only).
  PatternPopulator populateRoots;
  /// Their roots, as the context registers them.
  DenseSet<OperationName> roots;
  bool always = false;
};

} // namespace

/// `passes` as the pipeline of a warp-if-present and its textual form, which
/// only names the passes in printed pipelines.
static std::shared_ptr<const OpPassManager>
buildPrototype(MutableArrayRef<std::unique_ptr<Pass>> passes,
               WarpIfPresentPassOptions &options) {
  llvm::raw_string_ostream os(options.pipeline);
  llvm::ListSeparator separator(",");
  auto prototype = std::make_shared<OpPassManager>();
  for (std::unique_ptr<Pass> &pass : passes) {
    os << separator;
    pass->printAsTextualPipeline(os);
    prototype->addPass(std::move(pass));
  }
  return prototype;
}

std::unique_ptr<Pass> mlir::warp::createWarpIfPresentPass(
    ArrayRef<StringRef> dialects,
    MutableArrayRef<std::unique_ptr<Pass>> passes) {
  WarpIfPresentPassOptions options;
  for (StringRef dialect : dialects)
    options.dialects.push_back(dialect.str());
  auto prototype = buildPrototype(passes, options);
  return std::make_unique<WarpIfPresentPass>(options, std::move(prototype));
}

std::unique_ptr<Pass>
mlir::warp::createWarpIfPatternRootsPass(PatternPopulator populate,
                                         std::unique_ptr<Pass> pass) {
  WarpIfPresentPassOptions options;
  auto prototype = buildPrototype(MutableArrayRef(&pass, 1), options);
  return std::make_unique<WarpIfPresentPass>(options, std::move(prototype),
                                             std::move(populate));
}

std::unique_ptr<Pass>
mlir::warp::createWarpIfPresentPass(ArrayRef<StringRef> dialects,
                                    std::unique_ptr<Pass> pass) {
  return createWarpIfPresentPass(dialects, MutableArrayRef(&pass, 1));
}
