//===- Pipelines.cpp - named warp lowering pipelines ----------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"

#include "WarpDialect/Conversion/Passes.h"
#include "WarpDialect/Target/Chip.h"
#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/AsyncToLLVM/AsyncToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/Async/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::warp;

void mlir::warp::buildWarpToNVVMPipeline(OpPassManager &pm,
                                         const WarpPipelineOptions &options) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // Upstream subgroup ops take the warp lowering too (upstream's NVVM
  // lowering rejects subgroup_reduce and mis-encodes narrow shuffles).
  device.addPass(createConvertGPUToWarpPass());
  device.addPass(createWarpExpandBlockCollectivesPass());
  device.addPass(createWarpExpandCollectivesPass(
      WarpExpandCollectivesPassOptions{options.chip, options.strategy}));
  // Every workgroup buffer exists now (the expansions added theirs).
  device.addPass(createWarpCheckSharedMemoryPass());
  device.addPass(createConvertWarpToNVVMPass());
  // Upstream's MMA lowering, run here so that loops carrying fragments reach
  // convert-nvgpu-to-nvvm (which cannot convert them) as LLVM structs.
  device.addPass(
      createWarpConvertMMAToNVVMPass(WarpConvertMMAToNVVMPassOptions{options.chip}));
  // Before NVVM code generation, which can vectorize accesses to shared
  // variables beyond the alignment their PTX declaration states.
  device.addPass(createWarpAlignGPUMemoryPass());
}

/// The async dialect's host lowering, after the GPU ops inside async.execute
/// were lowered (their !gpu.async.token values are LLVM pointers by now):
/// regions to coroutines, reference counting, calls of the async runtime.
static void buildAsyncToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createAsyncToAsyncRuntimePass());
  pm.addPass(createAsyncRuntimeRefCountingPass());
  pm.addPass(createAsyncRuntimeRefCountingOptPass());
  pm.addPass(createConvertAsyncToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// The device half of upstream's NVVM lowering, run on each gpu.module
/// before upstream's pipeline, which then finds nothing left to convert in
/// it. Upstream converts device code between module-wide passes and
/// serializes it right after, leaving no place for the passes that must see
/// the kernels as llvm.funcs: warp-mark-read-only-params (the pointers of
/// read-only, non-aliasing memref arguments) and, with
/// device-index-bitwidth=32, warp-widen-kernel-index-args (the kernel keeps
/// the 64-bit parameters the host lowering passes). At 32 bits upstream's
/// ordering cannot work at all: its module-wide func/arith-to-LLVM passes
/// would convert device code at 64 bits, leaving casts between the two
/// widths that nothing can remove.
static void buildDeviceToLLVMPipeline(OpPassManager &pm,
                                      const WarpPipelineOptions &options) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createConvertNVGPUToNVVMPass());
  device.addPass(createConvertVectorToSCFPass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = options.deviceIndexBitWidth;
  toNVVM.useBarePtrCallConv = options.barePtrMemref;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  device.addPass(createWarpMarkReadOnlyParamsPass());
  if (options.deviceIndexBitWidth == 32)
    device.addPass(createWarpWidenKernelIndexArgsPass());
}

void mlir::warp::buildWarpLowerToPTXPipeline(
    OpPassManager &pm, const WarpPipelineOptions &options) {
  // Checked before outlining, which would turn impossible launch sizes into
  // errors without a location.
  pm.addPass(createWarpCheckPlacementPass(
      WarpCheckPlacementPassOptions{/*allowAsync=*/options.asyncRuntime}));
  // Kernels written inside gpu.launch must be outlined before the device
  // passes, which run on gpu.module, can see their warp ops.
  pm.addPass(createGpuKernelOutliningPass());
  // Before the expansions: it rejects the program's own pointers in index
  // values (warp.atomic_add's address grouping makes one, within the
  // option's documented limit).
  if (options.deviceIndexBitWidth == 32)
    pm.addNestedPass<gpu::GPUModuleOp>(createWarpRecordKernelABIPass());
  // Also before the expansions, so that a write it rejects is the program's
  // own op (warp.atomic_add, not the atomics it expands into).
  pm.addNestedPass<gpu::GPUModuleOp>(createWarpRecordReadOnlyArgsPass());
  buildWarpToNVVMPipeline(pm, options);
  buildDeviceToLLVMPipeline(pm, options);

  gpu::GPUToNVVMPipelineOptions upstream;
  upstream.cubinChip = options.chip;
  // The PTX version follows from the chip: upstream's default `+ptx60`
  // aborts for every chip newer than sm_70. An unknown chip was already
  // rejected by checkWarpPipelineOptions or the expansion pass.
  if (std::optional<Chip> chip = Chip::parse(options.chip))
    upstream.cubinFeatures = chip->ptxFeature();
  switch (options.format) {
  case BinaryFormat::Isa:
    upstream.cubinFormat = "isa";
    break;
  case BinaryFormat::Bin:
    upstream.cubinFormat = "bin";
    break;
  case BinaryFormat::Fatbin:
    upstream.cubinFormat = "fatbin";
    break;
  }
  upstream.optLevel = options.optLevel;
  upstream.indexBitWidth = options.indexBitWidth;
  upstream.kernelUseBarePtrCallConv = options.barePtrMemref;
  upstream.hostUseBarePtrCallConv = options.hostBarePtrMemref;
  upstream.cmdOptions = options.ptxasOptions;
  if (options.asyncRuntime) {
    pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
    // GPU work that crosses async.execute regions as events (upstream's
    // gpu-to-llvm gets this wrong once NVVM is loaded; see the pass).
    pm.addPass(createConvertAsyncGPUTokensToEventsPass());
  }
  gpu::buildLowerToNVVMPassPipeline(pm, upstream);
  if (options.asyncRuntime)
    buildAsyncToLLVMPipeline(pm);

  if (!options.ptxOutput.empty())
    pm.addPass(createWarpPrintISAPass(
        WarpPrintISAPassOptions{options.ptxOutput.getValue()}));
}

std::optional<std::string>
mlir::warp::checkWarpPipelineOptions(const WarpPipelineOptions &options) {
  if (!Chip::parse(options.chip))
    return Chip::unknownChipMessage(options.chip);
  if (options.optLevel < 0 || options.optLevel > 3)
    return "opt-level " + std::to_string(options.optLevel) +
           " is outside 0..3";
  if (!options.ptxasOptions.empty() && options.format == BinaryFormat::Isa)
    return "ptxas-options='" + options.ptxasOptions.getValue() +
           "' needs format=bin or fatbin: with format=isa no ptxas runs (the "
           "driver compiles the PTX)";
  if (options.indexBitWidth != 64)
    return "index-bitwidth=" + std::to_string(options.indexBitWidth) +
           " is not supported: device code with narrower indices needs a "
           "kernel ABI that upstream's host lowering (gpu-to-llvm) does not "
           "provide; use 64 (device-index-bitwidth=32 narrows device code "
           "only)";
  if (options.deviceIndexBitWidth != 32 && options.deviceIndexBitWidth != 64)
    return "device-index-bitwidth=" +
           std::to_string(options.deviceIndexBitWidth) +
           " is not supported: use 32 or 64";
  return std::nullopt;
}

/// Registers `name` like PassPipelineRegistration does, but reports bad
/// option values through the error handler instead of building a pipeline
/// that fails (or aborts) later.
static void registerCheckedPipeline(
    StringRef name, StringRef description,
    void (*build)(OpPassManager &, const WarpPipelineOptions &)) {
  registerPassPipeline(
      name, description,
      [build](OpPassManager &pm, StringRef text,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        WarpPipelineOptions options;
        std::string errors;
        llvm::raw_string_ostream errorStream(errors);
        if (failed(options.parseFromString(text, errorStream)))
          return errorHandler(errors);
        if (std::optional<std::string> problem =
                checkWarpPipelineOptions(options))
          return errorHandler(*problem);
        build(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(WarpPipelineOptions());
      });
}

void mlir::warp::registerWarpPipelines() {
  registerCheckedPipeline(
      "warp-to-nvvm",
      "Expand warp collectives and lower warp ops to NVVM inside every "
      "gpu.module",
      buildWarpToNVVMPipeline);
  registerCheckedPipeline(
      "warp-lower-to-ptx",
      "Lower a host+device module with warp ops to LLVM with gpu.binary "
      "objects (PTX for format=isa, cubin for bin, fatbin)",
      buildWarpLowerToPTXPipeline);
}

void mlir::warp::registerWarpPasses() {
  registerWarpTransformsPasses();
  registerWarpConversionPasses();
}

void mlir::warp::registerWarpDialectsAndExtensions(DialectRegistry &registry) {
  // Exactly what GPU programs with warp ops need, so the self-contained
  // runner and C API library stay small; warp-opt adds every upstream
  // dialect on top.
  registry.insert<WarpDialect, affine::AffineDialect, arith::ArithDialect,
                  async::AsyncDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  func::registerInlinerExtension(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}
