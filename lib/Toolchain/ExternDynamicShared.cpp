//===- ExternDynamicShared.cpp - the dynamic shared base as .extern -------===//
//
// Upstream's lowering of gpu.dynamic_shared_memory declares the base of the
// dynamic window as an internal zero-length workgroup global, which NVPTX
// prints as a one-byte static variable among the kernel's static ones. An
// external declaration is PTX's dynamic window (`.extern .shared ... []`),
// placed after every static variable.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPEXTERNDYNAMICSHAREDPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// Whether `global` is a dynamic shared memory base: a zero-length array in
/// the workgroup (shared) address space.
bool isDynamicSharedBase(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return array && array.getNumElements() == 0 &&
         global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared;
}

struct WarpExternDynamicSharedPass
    : warp::impl::WarpExternDynamicSharedPassBase<WarpExternDynamicSharedPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>())
      if (isDynamicSharedBase(global) && global.getLinkage() != LLVM::Linkage::External)
        global.setLinkage(LLVM::Linkage::External);
  }
};

} // namespace
