//===- ReadOnlyArgs.cpp - read-only, non-aliasing memref kernel arguments -===//
//
// `llvm.noalias` + `llvm.readonly` on a memref kernel argument promise that
// while the kernel runs its buffer is only read, and only through that
// argument. NVPTX then loads it through the read-only data path
// (ld.global.nc), but only if the promise sits on the pointer parameter the
// loads are based on. Upstream's lowering cannot put it there for a memref
// descriptor (one argument, several parameters): it drops `llvm.noalias`
// with a warning. So warp-record-read-only-args takes both attributes off
// the gpu.func before the lowering, once it has checked that the kernel
// keeps the promise, and warp-mark-read-only-params puts them back on the
// aligned pointer of the lowered llvm.func (the allocated pointer is never
// dereferenced).
//
// Attributes rather than `!invariant.load` on each load: LLVM splits vector
// loads whose lanes are extracted and drops the metadata doing so, while
// NVPTX decides ld.global.nc from the load's underlying object.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "WarpDialect/Toolchain/KernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPRECORDREADONLYARGSPASS
#define GEN_PASS_DEF_WARPMARKREADONLYPARAMSPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// What a kernel does with the buffer of one of its memref arguments.
struct BufferUse {
  enum class Kind { ReadOnly, Writes, Unknown };
  Kind kind = Kind::ReadOnly;
  /// The op that writes the buffer, or the first one this pass cannot
  /// follow the buffer through.
  Operation *op = nullptr;
  /// Why `op` is not understood (Unknown).
  StringRef why;
};

/// Finds what the kernel does with the buffer `arg` refers to: follows it
/// through every op that yields a memref (views, casts, selects), region
/// control flow, branches and calls of functions defined in the module, and
/// asks each op that takes it for its memory effects. A write or free of the
/// buffer wins over anything not understood.
BufferUse classifyBufferUse(BlockArgument arg, SymbolTableCollection &symbols) {
  SmallVector<Value> worklist{arg};
  DenseSet<Value> seen{arg};
  auto follow = [&](Value value) {
    if (isa<BaseMemRefType>(value.getType()) && seen.insert(value).second)
      worklist.push_back(value);
  };
  // Conservatively, everything a region-carrying op can pass a value to.
  auto followRegionValues = [&](Operation *owner) {
    for (Value result : owner->getResults())
      follow(result);
    for (Region &region : owner->getRegions())
      for (Block &block : region)
        for (BlockArgument blockArg : block.getArguments())
          follow(blockArg);
  };
  std::optional<BufferUse> unknown;
  auto markUnknown = [&](Operation *op, StringRef why) {
    if (!unknown)
      unknown = BufferUse{BufferUse::Kind::Unknown, op, why};
  };

  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();

      if (auto call = dyn_cast<CallOpInterface>(user)) {
        OperandRange args = call.getArgOperands();
        unsigned position = use.getOperandNumber();
        auto callee = dyn_cast_or_null<FunctionOpInterface>(
            call.resolveCallableInTable(&symbols));
        if (args.empty() || position < args.getBeginOperandIndex() || !callee ||
            callee.isExternal()) {
          markUnknown(user, "passes it to a function whose body is not in "
                            "the module");
          continue;
        }
        unsigned index = position - args.getBeginOperandIndex();
        if (index >= callee.getNumArguments()) {
          markUnknown(user, "passes it to a function that takes fewer "
                            "arguments");
          continue;
        }
        follow(callee.getArgument(index));
        // The callee may return it.
        for (Value result : user->getResults())
          follow(result);
        continue;
      }

      if (auto branch = dyn_cast<BranchOpInterface>(user)) {
        if (std::optional<BlockArgument> dest =
                branch.getSuccessorBlockArgument(use.getOperandNumber()))
          follow(*dest);
        else
          markUnknown(user, "branches on it");
        continue;
      }

      if (isa<RegionBranchOpInterface>(user)) {
        followRegionValues(user);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>() &&
          isa_and_nonnull<RegionBranchOpInterface>(user->getParentOp())) {
        followRegionValues(user->getParentOp());
        continue;
      }

      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects) {
        markUnknown(user, "takes it with unknown effects on memory");
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      bool namesBuffer = false, writesOther = false;
      for (const MemoryEffects::EffectInstance &instance : instances) {
        bool modifies = isa<MemoryEffects::Write, MemoryEffects::Free>(
            instance.getEffect());
        if (instance.getValue() == value) {
          namesBuffer = true;
          if (modifies)
            return BufferUse{BufferUse::Kind::Writes, user, {}};
        } else if (modifies) {
          writesOther = true;
        }
      }
      if (writesOther && !namesBuffer)
        markUnknown(user, "takes it and writes memory it does not name");
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
        markUnknown(user, "takes its address as an integer");
      for (Value result : user->getResults())
        follow(result);
    }
  }
  return unknown.value_or(BufferUse{});
}

/// The attribute a kernel carries from warp-record-read-only-args to
/// warp-mark-read-only-params: {args = array<i64: ...> (the source argument
/// numbers), signature = <the source function type>}.
constexpr llvm::StringLiteral kReadOnlyArgsAttrName = "warp.read_only_args";
constexpr llvm::StringLiteral kArgsKey = "args";
constexpr llvm::StringLiteral kSignatureKey = "signature";

struct WarpRecordReadOnlyArgsPass
    : warp::impl::WarpRecordReadOnlyArgsPassBase<WarpRecordReadOnlyArgsPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    bool anyFailed = false;
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>()) {
      if (kernel.isKernel() && !kernel.isExternal() &&
          failed(recordKernel(kernel, symbols)))
        anyFailed = true;
    }
    if (anyFailed)
      signalPassFailure();
  }

  LogicalResult recordKernel(gpu::GPUFuncOp kernel,
                             SymbolTableCollection &symbols) {
    StringRef noAliasName = LLVM::LLVMDialect::getNoAliasAttrName();
    StringRef readOnlyName = LLVM::LLVMDialect::getReadonlyAttrName();
    // Before anything is taken off: the source signature.
    FunctionType signature = kernel.getFunctionType();
    SmallVector<int64_t> recorded;
    bool anyWrites = false;
    // The function's arguments only: the entry block's arguments go on with
    // the workgroup and private attributions, which have no argument
    // attributes.
    for (BlockArgument arg :
         kernel.getArguments().take_front(kernel.getNumArguments())) {
      unsigned i = arg.getArgNumber();
      if (!isa<MemRefType>(arg.getType()) ||
          !kernel.getArgAttr(i, readOnlyName))
        continue;
      bool noAlias = kernel.getArgAttr(i, noAliasName) != nullptr;
      BufferUse use = classifyBufferUse(arg, symbols);
      switch (use.kind) {
      case BufferUse::Kind::Writes: {
        InFlightDiagnostic diag = use.op->emitOpError()
                                  << "writes to the buffer of argument " << i
                                  << " of kernel @" << kernel.getName()
                                  << ", which is marked llvm.readonly";
        diag.attachNote(kernel.getLoc()) << "the kernel is declared here";
        anyWrites = true;
        continue;
      }
      case BufferUse::Kind::Unknown:
        if (!noAlias)
          continue;
        use.op->emitWarning()
            << "cannot tell whether argument " << i << " of kernel @"
            << kernel.getName()
            << " (llvm.noalias, llvm.readonly) is only read: this op "
            << use.why
            << "; llvm.noalias is dropped, so its loads do not use the "
               "read-only path (ld.global.nc)";
        kernel.removeArgAttr(i, noAliasName);
        continue;
      case BufferUse::Kind::ReadOnly:
        if (!noAlias)
          continue;
        kernel.removeArgAttr(i, noAliasName);
        kernel.removeArgAttr(i, readOnlyName);
        recorded.push_back(i);
        continue;
      }
    }
    if (anyWrites)
      return failure();
    if (recorded.empty())
      return success();
    Builder b(kernel.getContext());
    kernel->setAttr(
        kReadOnlyArgsAttrName,
        b.getDictionaryAttr(
            {b.getNamedAttr(kArgsKey, b.getDenseI64ArrayAttr(recorded)),
             b.getNamedAttr(kSignatureKey, TypeAttr::get(signature))}));
    return success();
  }
};

struct WarpMarkReadOnlyParamsPass
    : warp::impl::WarpMarkReadOnlyParamsPassBase<WarpMarkReadOnlyParamsPass> {
  void runOnOperation() override {
    bool anyFailed = false;
    bool anyRecord = false;
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      Attribute record = func->removeAttr(kReadOnlyArgsAttrName);
      anyRecord |= record != nullptr;
      if (record && failed(mark(func, record)))
        anyFailed = true;
    }
    if (anyFailed)
      return signalPassFailure();
    // No kernel with read-only arguments: the IR need not be verified again.
    if (!anyRecord)
      markAllAnalysesPreserved();
  }

  /// Puts llvm.noalias and llvm.readonly on the pointer that each argument
  /// of `record` lowered to.
  LogicalResult mark(LLVM::LLVMFuncOp func, Attribute record) {
    auto dict = dyn_cast<DictionaryAttr>(record);
    auto args = dict ? dict.getAs<DenseI64ArrayAttr>(kArgsKey) : nullptr;
    auto signatureAttr = dict ? dict.getAs<TypeAttr>(kSignatureKey) : nullptr;
    auto signature = signatureAttr
                         ? dyn_cast<FunctionType>(signatureAttr.getValue())
                         : nullptr;
    auto isMemRefArg = [&](int64_t i) {
      return i >= 0 && i < static_cast<int64_t>(signature.getNumInputs()) &&
             isa<MemRefType>(signature.getInput(i));
    };
    if (!args || !signature || !llvm::all_of(args.asArrayRef(), isMemRefArg))
      return func.emitError()
             << "'" << kReadOnlyArgsAttrName
             << "' must be {args = array<i64: ...>, signature = <function "
                "type>} naming memref arguments of the signature, got "
             << record;

    FailureOr<SmallVector<warp::LoweredKernelParam>> params =
        warp::getLoweredKernelParams(func, signature);
    if (failed(params))
      return failure();
    using Role = warp::LoweredKernelParam::Role;
    Builder b(func.getContext());
    for (auto [i, param] : llvm::enumerate(*params)) {
      if ((param.role != Role::AlignedPointer &&
           param.role != Role::BarePointer) ||
          !llvm::is_contained(args.asArrayRef(), param.sourceArg))
        continue;
      Type type = func.getFunctionType().getParamType(i);
      if (!isa<LLVM::LLVMPointerType>(type))
        return func.emitError() << "parameter " << i << " (" << type
                                << ") of the lowered kernel is not the "
                                   "pointer of memref argument "
                                << param.sourceArg;
      func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                      b.getUnitAttr());
      func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                      b.getUnitAttr());
    }
    return success();
  }
};

} // namespace
