//===- FitKernelParams.cpp - PTX version for large kernel parameters ------===//
//
// ptxas allows 4,352 bytes of kernel parameters before PTX 8.1 and 32,764
// from 8.1 on. warp-fit-kernel-params raises the PTX version of a
// gpu.module's NVVM targets where one of its kernels needs it, and reports
// the kernels that no version fits, before the module is serialized.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "WarpDialect/Target/Chip.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPFITKERNELPARAMSPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// The kernel parameter space ptxas allows: before PTX 8.1, and from PTX 8.1
/// on (which every chip from sm_70 on accepts).
constexpr uint64_t kParamBytesBeforePtx81 = 4352;
constexpr uint64_t kParamBytesFromPtx81 = 32764;
constexpr unsigned kPtxWithLargeParams = 81;

/// Whether `type` holds fewer elements than any parameter space allows
/// bytes (counting through vectors, arrays and structs): the data layout's
/// size of one that holds more can wrap around (a vector of 2^62 bf16
/// came to an alignment of 0).
bool hasFewElements(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() <= int64_t(kParamBytesFromPtx81) &&
           hasFewElements(vector.getElementType());
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return array.getNumElements() <= kParamBytesFromPtx81 &&
           hasFewElements(array.getElementType());
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return structType.getBody().size() <= kParamBytesFromPtx81 &&
           llvm::all_of(structType.getBody(), hasFewElements);
  return true;
}

/// The bytes of .param space `kernel` takes: each parameter at its ABI
/// alignment, as NVPTX lays them out (a byval pointer passes the value);
/// none for a parameter of too many elements to size.
std::optional<uint64_t> kernelParamBytes(LLVM::LLVMFuncOp kernel,
                                         const DataLayout &layout) {
  uint64_t bytes = 0;
  for (auto [index, type] :
       llvm::enumerate(kernel.getFunctionType().getParams())) {
    Type passed = type;
    if (auto byval = kernel.getArgAttrOfType<TypeAttr>(
            index, LLVM::LLVMDialect::getByValAttrName()))
      passed = byval.getValue();
    if (!hasFewElements(passed))
      return std::nullopt;
    bytes = llvm::alignTo(bytes, layout.getTypeABIAlignment(passed)) +
            layout.getTypeSize(passed).getFixedValue();
  }
  return bytes;
}

/// Kernels whose parameters take more than the PTX version of the module's
/// NVVM targets allows: the module gets PTX 8.1 where that is enough (the
/// version stays the chip's own otherwise, so that older drivers still load
/// the PTX of every other kernel), and an error at the kernel where no
/// version is.
LogicalResult fitKernelParams(gpu::GPUModuleOp module) {
  DataLayout layout(module);
  uint64_t largest = 0;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) &&
        !func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
      continue;
    std::optional<uint64_t> size = kernelParamBytes(func, layout);
    if (!size)
      return func.emitError()
             << "the kernel's parameters take more than the "
             << kParamBytesFromPtx81
             << " bytes PTX allows (pass large data through memory)";
    uint64_t bytes = *size;
    if (bytes > kParamBytesFromPtx81)
      return func.emitError()
             << "the kernel's parameters take " << bytes
             << " bytes; PTX allows at most " << kParamBytesFromPtx81
             << " (pass large data through memory)";
    largest = std::max(largest, bytes);
  }
  if (largest <= kParamBytesBeforePtx81)
    return success();
  warp::raisePtxVersion(module, kPtxWithLargeParams);
  return success();
}

struct WarpFitKernelParamsPass
    : warp::impl::WarpFitKernelParamsPassBase<WarpFitKernelParamsPass> {
  void runOnOperation() override {
    if (failed(fitKernelParams(getOperation())))
      signalPassFailure();
  }
};

} // namespace
