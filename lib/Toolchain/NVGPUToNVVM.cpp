//===- NVGPUToNVVM.cpp - nvgpu to NVVM at the device index width ----------===//
//
// warp-convert-nvgpu-to-nvvm: upstream's nvgpu-to-NVVM patterns with a type
// converter that takes its index width from the data layout. Upstream's
// convert-nvgpu-to-nvvm builds its converter with the default options (64-bit
// index) whatever the gpu.module's dlti.dl_spec says, so with
// device-index-bitwidth=32 the memref descriptors it makes for cp.async
// disagree with convert-gpu-to-nvvm's and the casts between them survive
// into LLVM translation. Apart from the width (and GPU address spaces
// converted as convert-gpu-to-nvvm converts them), the conversion is
// upstream's: its patterns, and nvgpu's types converted as its pass does.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPCONVERTNVGPUTONVVMPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// nvgpu's own types as LLVM types: tokens as the integers they are
/// dropped as, descriptors as i64 or pointers, barrier groups as memrefs.
void addNVGPUTypeConversions(LLVMTypeConverter &converter) {
  MLIRContext *context = &converter.getContext();
  converter.addConversion([&converter, context](nvgpu::DeviceAsyncTokenType) {
    return converter.convertType(IntegerType::get(context, 32));
  });
  converter.addConversion([&converter, context](nvgpu::MBarrierTokenType) {
    return converter.convertType(IntegerType::get(context, 64));
  });
  converter.addConversion(
      [&converter, context](nvgpu::WarpgroupMatrixDescriptorType) {
        return converter.convertType(IntegerType::get(context, 64));
      });
  converter.addConversion([&converter, context](
                              nvgpu::WarpgroupAccumulatorType type) -> Type {
    VectorType fragment = type.getFragmented();
    return converter.convertType(LLVM::LLVMStructType::getLiteral(
        context, SmallVector<Type>(fragment.getDimSize(0),
                                   fragment.getElementType())));
  });
  converter.addConversion(
      [&converter, context](nvgpu::MBarrierGroupType type) -> Type {
        return converter.convertType(
            nvgpu::getMBarrierMemrefType(context, type));
      });
  converter.addConversion([context](nvgpu::TensorMapDescriptorType) {
    return LLVM::LLVMPointerType::get(context);
  });
}

/// Every type as it is but TMA descriptors, which become pointers.
struct TensorMapPointers : TypeConverter {
  explicit TensorMapPointers(MLIRContext *context) {
    addConversion([](Type type) { return type; });
    addConversion([context](nvgpu::TensorMapDescriptorType) {
      return LLVM::LLVMPointerType::get(context);
    });
    auto cast = [](OpBuilder &builder, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
          .getResult(0);
    };
    addSourceMaterialization(cast);
    addTargetMaterialization(cast);
  }
};

/// A gpu.launch_func passing a TMA descriptor passes its pointer.
struct LaunchWithTensorMapPointers
    : OpConversionPattern<gpu::LaunchFuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::LaunchFuncOp launch, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.modifyOpInPlace(launch, [&] {
      launch.getKernelOperandsMutable().assign(adaptor.getKernelOperands());
    });
    return success();
  }
};

struct WarpConvertNVGPUToNVVMPass
    : public warp::impl::WarpConvertNVGPUToNVVMPassBase<
          WarpConvertNVGPUToNVVMPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();
    const auto &dataLayout = getAnalysis<DataLayoutAnalysis>();
    LowerToLLVMOptions options(context, dataLayout.getAtOrAbove(root));
    LLVMTypeConverter converter(context, options, &dataLayout);
    // GPU address spaces (workgroup memrefs) as NVVM's.
    configureGpuToNVVMTypeConverter(converter);
    addNVGPUTypeConversions(converter);

    RewritePatternSet patterns(context);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*context);
    target.addLegalDialect<LLVM::LLVMDialect, memref::MemRefDialect,
                           NVVM::NVVMDialect>();
    // TMA descriptors cross the kernel boundary as the pointers they lower
    // to: kernels that take one (a gpu.launch that captured one, once
    // outlined) take the pointer, and launches pass it. The kernels' other
    // arguments are left to convert-gpu-to-nvvm, the launches' to
    // gpu-to-llvm.
    TensorMapPointers pointers(context);
    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(
        patterns, pointers);
    patterns.add<LaunchWithTensorMapPointers>(pointers, context);
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>([&](gpu::GPUFuncOp func) {
      return pointers.isSignatureLegal(func.getFunctionType());
    });
    target.addDynamicallyLegalOp<gpu::LaunchFuncOp>(
        [&](gpu::LaunchFuncOp launch) {
          return pointers.isLegal(launch.getKernelOperands().getTypes());
        });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
