//===- KernelABI.h - a lowered kernel's parameters --------------*- C++ -*-===//
//
// How the parameters of a lowered kernel map back to its source signature,
// for the passes that record or change the kernel ABI (KernelIndexABI.cpp,
// ReadOnlyArgs.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TOOLCHAIN_KERNELABI_H
#define WARPDIALECT_TOOLCHAIN_KERNELABI_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::warp {

/// What one parameter of a lowered kernel (an llvm.func) is in the kernel's
/// source signature: which source argument it comes from, and which part of
/// it. A memref argument of rank r lowers to 3 + 2r parameters (allocated
/// and aligned pointer, offset, r sizes, r strides) or, with the bare-pointer
/// calling convention, to one pointer; an unranked memref to its rank and a
/// pointer to its descriptor; any other argument to one parameter.
struct LoweredKernelParam {
  enum class Role {
    Value,
    AllocatedPointer,
    AlignedPointer,
    Offset,
    Size,
    Stride,
    BarePointer,
    UnrankedRank,
    UnrankedDescriptor
  };
  unsigned sourceArg;
  Role role;
};

/// The parameters of `func`, a kernel lowered from the source signature
/// `source` under either calling convention (told apart by their number;
/// KernelIndexABI.cpp). Emits an error on `func` when neither matches.
FailureOr<SmallVector<LoweredKernelParam>>
getLoweredKernelParams(LLVM::LLVMFuncOp func, FunctionType source);

} // namespace mlir::warp

#endif // WARPDIALECT_TOOLCHAIN_KERNELABI_H
