//===- OutlineBlockCollectives.cpp - many block ops to shared calls -------===//
//
// warp-outline-block-collectives (Passes.td): the block ops of a kernel
// that holds more than a threshold of them become calls of private,
// no_inline functions of the gpu.module, one per kind of op (alike in
// name, attributes, types and region, in kernels of one block size).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPOUTLINEBLOCKCOLLECTIVESPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// Ops alike up to their operands (and locations): one function serves
/// them all.
struct AlikeOps : public llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op),
        /*hashOperands=*/OperationEquivalence::ignoreHashValue,
        /*hashResults=*/OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *lhs, const Operation *rhs) {
    if (lhs == rhs)
      return true;
    if (lhs == getTombstoneKey() || lhs == getEmptyKey() ||
        rhs == getTombstoneKey() || rhs == getEmptyKey())
      return false;
    auto *left = const_cast<Operation *>(lhs);
    auto *right = const_cast<Operation *>(rhs);
    if (TypeRange(left->getOperandTypes()) != right->getOperandTypes())
      return false;
    return OperationEquivalence::isEquivalentTo(
        left, right, OperationEquivalence::ignoreValueEquivalence,
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
  }
};

struct WarpOutlineBlockCollectivesPass
    : public warp::impl::WarpOutlineBlockCollectivesPassBase<
          WarpOutlineBlockCollectivesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    int64_t limit = maxInline >= 0
                        ? int64_t(maxInline)
                        : LoweringThresholds::kMaxInlineBlockOpsPerKernel;
    SymbolTable symbols(module);
    // The functions made so far, by the callers' block size (none: unknown)
    // and the op they hold.
    DenseMap<Attribute, DenseMap<Operation *, func::FuncOp, AlikeOps>> made;
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      SmallVector<Operation *> blockOps;
      kernel.walk([&](Operation *op) {
        if (isBlockCollective(op))
          blockOps.push_back(op);
      });
      if (int64_t(blockOps.size()) <= limit)
        continue;
      Attribute blockSize = kernel.getKnownBlockSizeAttr();
      auto &functions = made[blockSize];
      for (Operation *op : blockOps) {
        // A region that reads values from around the op cannot move.
        bool closed = llvm::all_of(op->getRegions(), [](Region &region) {
          llvm::SetVector<Value> outside;
          getUsedValuesDefinedAbove(region, outside);
          return outside.empty();
        });
        if (!closed)
          continue;
        // Keyed by the function's own copy of the op, which outlives it.
        func::FuncOp function = functions.lookup(op);
        if (!function) {
          function = outline(op, blockSize, symbols);
          functions[&function.getBody().front().front()] = function;
        }
        OpBuilder builder(op);
        auto call = func::CallOp::create(builder, op->getLoc(), function,
                                         op->getOperands());
        op->replaceAllUsesWith(call.getResults());
        op->erase();
      }
    }
  }

  /// A private, no_inline function of the module holding a copy of `op`
  /// over its arguments.
  func::FuncOp outline(Operation *op, Attribute blockSize,
                       SymbolTable &symbols) {
    OpBuilder builder(op->getContext());
    builder.setInsertionPoint(op->getParentOfType<gpu::GPUFuncOp>());
    auto type = builder.getFunctionType(op->getOperandTypes(),
                                        op->getResultTypes());
    std::string name = "__warp_" + op->getName().stripDialect().str();
    auto function = func::FuncOp::create(builder, op->getLoc(), name, type);
    symbols.insert(function);
    function.setPrivate();
    function.setNoInline(true);
    if (blockSize)
      function->setAttr(kCallersBlockSizeAttrName, blockSize);
    Block *body = function.addEntryBlock();
    builder.setInsertionPointToStart(body);
    // Operand i becomes argument i, by position: the same value twice is
    // two arguments (an op alike may pass two different ones).
    Operation *copy = builder.clone(*op);
    for (auto [index, argument] : llvm::enumerate(body->getArguments()))
      copy->setOperand(index, argument);
    func::ReturnOp::create(builder, op->getLoc(), copy->getResults());
    return function;
  }
};

} // namespace
