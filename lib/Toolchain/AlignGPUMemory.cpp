//===- AlignGPUMemory.cpp - 16-byte alignment for device variables -------===//
//
// Works around LLVM 22's NVPTX back end, which vectorizes accesses to a
// shared or global variable (raising the alignment it assumes) while the PTX
// declaration keeps the variable's natural alignment: the v2/v4 accesses then
// fault at run time ("misaligned address"). Declaring every such variable
// with 16-byte alignment, the widest vector access, makes both agree.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPALIGNGPUMEMORYPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

bool needsRaise(std::optional<uint64_t> alignment) {
  return !alignment || *alignment < warp::kDeviceVariableAlignment;
}

struct WarpAlignGPUMemoryPass
    : warp::impl::WarpAlignGPUMemoryPassBase<WarpAlignGPUMemoryPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    Builder b(&getContext());
    StringRef alignName = LLVM::LLVMDialect::getAlignAttrName();
    bool changed = false;
    module.walk([&](gpu::GPUFuncOp func) {
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i) {
        auto align = dyn_cast_or_null<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, alignName));
        if (needsRaise(align ? std::optional<uint64_t>(align.getInt())
                             : std::nullopt)) {
          func.setWorkgroupAttributionAttr(
              i, alignName, b.getI64IntegerAttr(warp::kDeviceVariableAlignment));
          changed = true;
        }
      }
    });
    module.walk([&](memref::GlobalOp global) {
      if (needsRaise(global.getAlignment())) {
        global.setAlignment(warp::kDeviceVariableAlignment);
        changed = true;
      }
    });
    module.walk([&](LLVM::GlobalOp global) {
      if (needsRaise(global.getAlignment())) {
        global.setAlignment(warp::kDeviceVariableAlignment);
        changed = true;
      }
    });
    // Kernels without shared memory: the IR need not be verified again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
