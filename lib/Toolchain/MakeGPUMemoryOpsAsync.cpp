//===- MakeGPUMemoryOpsAsync.cpp - synchronous GPU memory ops to async ----===//
//
// warp-make-gpu-memory-ops-async (Passes.td): host code's synchronous
// gpu.alloc, gpu.dealloc, gpu.memcpy and gpu.memset become their async form
// between a `gpu.wait async` and a `gpu.wait`, the only form upstream's
// gpu-to-llvm converts.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPMAKEGPUMEMORYOPSASYNCPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// The async form of `op` (a synchronous gpu.alloc, dealloc, memcpy or
/// memset) after `dependency`, built at `b`'s insertion point; returns it.
Operation *createAsync(OpBuilder &b, Operation *op, Value dependency) {
  Location loc = op->getLoc();
  Type token = b.getType<gpu::AsyncTokenType>();
  ValueRange after(dependency);
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return gpu::AllocOp::create(b, loc, alloc.getType(), token, after,
                                alloc.getDynamicSizes(), alloc.getSymbolOperands(),
                                /*hostShared=*/false);
  if (auto dealloc = dyn_cast<gpu::DeallocOp>(op))
    return gpu::DeallocOp::create(b, loc, token, after, dealloc.getMemref());
  if (auto copy = dyn_cast<gpu::MemcpyOp>(op))
    return gpu::MemcpyOp::create(b, loc, token, after, copy.getDst(), copy.getSrc());
  auto set = cast<gpu::MemsetOp>(op);
  return gpu::MemsetOp::create(b, loc, token, after, set.getDst(), set.getValue());
}

struct WarpMakeGPUMemoryOpsAsyncPass
    : public warp::impl::WarpMakeGPUMemoryOpsAsyncPassBase<
          WarpMakeGPUMemoryOpsAsyncPass> {
  void runOnOperation() override {
    SmallVector<gpu::AsyncOpInterface> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (!isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp>(op))
        return WalkResult::advance();
      auto async = cast<gpu::AsyncOpInterface>(op);
      auto alloc = dyn_cast<gpu::AllocOp>(op);
      if (!async.getAsyncToken() && !(alloc && alloc.getHostShared()))
        ops.push_back(async);
      return WalkResult::advance();
    });
    for (gpu::AsyncOpInterface op : ops) {
      OpBuilder b(op);
      Type token = b.getType<gpu::AsyncTokenType>();
      Value ready =
          gpu::WaitOp::create(b, op->getLoc(), token, op.getAsyncDependencies())
              .getAsyncToken();
      Operation *async = createAsync(b, op, ready);
      gpu::WaitOp::create(b, op->getLoc(), Type(),
                          cast<gpu::AsyncOpInterface>(async).getAsyncToken());
      op->replaceAllUsesWith(async->getResults().take_front(op->getNumResults()));
      op->erase();
    }
  }
};

} // namespace
