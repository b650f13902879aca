//===- AsyncGPUTokensToEvents.cpp - GPU tokens across async.execute -------===//
//
// After gpu-async-region, a !gpu.async.token that an async.execute region
// yields stands for the GPU work queued on that region's stream. Consumers
// (other regions, the host's async.await) must see that work as a CUDA
// event: the producer records it and gives up its stream, a consuming region
// waits for it on a fresh stream, the host synchronizes on it. This pass
// writes that protocol as mgpu* runtime calls before gpu-to-llvm, and retypes
// the crossing values to !async.value<!llvm.ptr> (the event).
//
// Why not upstream: gpu-to-llvm has a pattern for exactly this, but in MLIR 22
// it loses to the async structural type conversion whenever the NVVM dialect
// is loaded (always, in an NVVM pipeline), and the stream is then yielded as
// if it were an event (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::warp {
#define GEN_PASS_DEF_CONVERTASYNCGPUTOKENSTOEVENTSPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// !async.value<!gpu.async.token>
bool isGPUTokenValueType(Type type) {
  auto value = dyn_cast<async::ValueType>(type);
  return value && isa<gpu::AsyncTokenType>(value.getValueType());
}

/// Calls of the mgpu* runtime functions that gpu-to-llvm also declares (the
/// same names and signatures, so the declarations are shared).
class Runtime {
public:
  Runtime(ModuleOp module) : module(module), builder(module.getContext()) {
    ptr = LLVM::LLVMPointerType::get(module.getContext());
  }

  OpBuilder &b() { return builder; }
  Type pointerType() const { return ptr; }

  /// `name(args...)`, each argument a pointer, the result a pointer when
  /// `returnsPointer` (else void).
  FailureOr<LLVM::CallOp> call(Location loc, StringRef name, ValueRange args,
                               bool returnsPointer = false) {
    SmallVector<Type> params(args.size(), ptr);
    Type result = returnsPointer
                      ? ptr
                      : Type(LLVM::LLVMVoidType::get(module.getContext()));
    FailureOr<LLVM::LLVMFuncOp> callee = [&] {
      OpBuilder::InsertionGuard guard(builder);
      return LLVM::lookupOrCreateFn(builder, module, name, params, result);
    }();
    if (failed(callee))
      return failure();
    return LLVM::CallOp::create(builder, loc, *callee, args);
  }

  Value cast(Location loc, Value value, Type to) {
    return UnrealizedConversionCastOp::create(builder, loc, to, value)
        .getResult(0);
  }

private:
  ModuleOp module;
  OpBuilder builder;
  Type ptr;
};

struct ConvertAsyncGPUTokensToEventsPass
    : warp::impl::ConvertAsyncGPUTokensToEventsPassBase<
          ConvertAsyncGPUTokensToEventsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();

    // Every crossing value must come from an async.execute: only there can
    // the producer's stream be turned into an event.
    SmallVector<async::ExecuteOp> executes;
    SmallVector<async::AwaitOp> awaits;
    bool unsupported = false;
    module.walk([&](Operation *op) {
      if (auto execute = dyn_cast<async::ExecuteOp>(op))
        executes.push_back(execute);
      for (Value operand : op->getOperands()) {
        if (!isGPUTokenValueType(operand.getType()))
          continue;
        if (!operand.getDefiningOp<async::ExecuteOp>()) {
          op->emitOpError("uses a !async.value<!gpu.async.token> that no "
                          "async.execute in this module produced; only "
                          "values of async.execute can carry GPU work");
          unsupported = true;
        } else if (auto await = dyn_cast<async::AwaitOp>(op)) {
          awaits.push_back(await);
        } else if (!isa<async::ExecuteOp>(op)) {
          op->emitOpError("passes a !async.value<!gpu.async.token> to an op "
                          "other than async.await or async.execute");
          unsupported = true;
        }
      }
    });
    if (unsupported)
      return signalPassFailure();

    Runtime rt(module);
    OpBuilder &b = rt.b();
    Type ptr = rt.pointerType();
    auto fail = [&](Operation *op) {
      op->emitOpError("cannot declare the CUDA runtime's event functions "
                      "(a symbol of that name has another type)");
      signalPassFailure();
    };

    // Consumers first, while the operand types still say which arguments
    // are tokens: a fresh stream that waits for the producer's event.
    for (async::ExecuteOp execute : executes) {
      Block &body = execute.getBodyRegion().front();
      for (auto [operand, arg] :
           llvm::zip(execute.getBodyOperands(), body.getArguments())) {
        if (!isGPUTokenValueType(operand.getType()))
          continue;
        Location loc = arg.getLoc();
        b.setInsertionPointToStart(&body);
        arg.setType(ptr);
        FailureOr<LLVM::CallOp> stream =
            rt.call(loc, "mgpuStreamCreate", {}, /*returnsPointer=*/true);
        if (failed(stream))
          return fail(execute);
        FailureOr<LLVM::CallOp> wait = rt.call(
            loc, "mgpuStreamWaitEvent", {stream->getResult(), arg});
        FailureOr<LLVM::CallOp> destroy =
            rt.call(loc, "mgpuEventDestroy", {arg});
        if (failed(wait) || failed(destroy))
          return fail(execute);
        Value token = rt.cast(loc, stream->getResult(),
                              gpu::AsyncTokenType::get(&getContext()));
        arg.replaceUsesWithIf(token, [&](OpOperand &use) {
          return use.getOwner() != *wait && use.getOwner() != *destroy;
        });
      }
    }

    // Producers: an event per yielded token (each consumer destroys its
    // own), recorded on the token's stream, which the region then releases.
    for (async::ExecuteOp execute : executes) {
      auto yield = cast<async::YieldOp>(
          execute.getBodyRegion().front().getTerminator());
      // The stream of each distinct token, released after all its events.
      llvm::MapVector<Value, Value> streams;
      b.setInsertionPoint(yield);
      Location loc = yield.getLoc();
      for (OpOperand &operand : yield->getOpOperands()) {
        Value token = operand.get();
        if (!isa<gpu::AsyncTokenType>(token.getType()))
          continue;
        Value &stream = streams[token];
        if (!stream)
          stream = rt.cast(loc, token, ptr);
        FailureOr<LLVM::CallOp> event =
            rt.call(loc, "mgpuEventCreate", {}, /*returnsPointer=*/true);
        if (failed(event) ||
            failed(rt.call(loc, "mgpuEventRecord",
                           {event->getResult(), stream})))
          return fail(execute);
        operand.set(event->getResult());
        execute.getBodyResults()[operand.getOperandNumber()].setType(
            async::ValueType::get(ptr));
      }
      for (auto [token, stream] : streams)
        if (failed(rt.call(loc, "mgpuStreamDestroy", {stream})))
          return fail(execute);
    }

    // Awaits: the event, handed to the gpu.wait that follows as a token
    // (gpu-to-llvm synchronizes on and destroys a token that is not a
    // stream it created).
    for (async::AwaitOp await : awaits) {
      Value result = await.getResult();
      if (!result)
        continue;
      result.setType(ptr);
      b.setInsertionPointAfter(await);
      Value token = rt.cast(await.getLoc(), result,
                            gpu::AsyncTokenType::get(&getContext()));
      result.replaceAllUsesExcept(token, token.getDefiningOp());
    }
  }
};

} // namespace
