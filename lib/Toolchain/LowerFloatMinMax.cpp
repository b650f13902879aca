//===- LowerFloatMinMax.cpp - maxnumf/minnumf to LLVM intrinsics ----------===//
//
// warp-lower-float-min-max: convert-gpu-to-nvvm turns arith.maxnumf and
// arith.minnumf into calls of libdevice's __nv_fmax(f) / __nv_fmin(f), which
// then resolve only where the serializer finds and links libdevice.bc; a
// toolchain without it (a self-contained runner on a host whose CUDA it
// does not find) fails in ptxas with "Unresolved extern function". LLVM's
// llvm.maxnum / llvm.minnum have the same semantics (a NaN operand is
// ignored) and NVPTX selects them to max/min, the instructions libdevice's
// functions are made of, so this pass rewrites the arith ops to them first.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPLOWERFLOATMINMAXPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

template <typename IntrinsicOp>
void replace(Operation *op) {
  OpBuilder b(op);
  Value result = IntrinsicOp::create(b, op->getLoc(), op->getOperand(0), op->getOperand(1));
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

struct WarpLowerFloatMinMaxPass
    : public warp::impl::WarpLowerFloatMinMaxPassBase<WarpLowerFloatMinMaxPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (isa<arith::MaxNumFOp>(op))
        replace<LLVM::MaxNumOp>(op);
      else
        replace<LLVM::MinNumOp>(op);
    }
  }
};

} // namespace
