//===- Pipelines.cpp - named warp lowering pipelines ----------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"

#include "WarpDialect/Conversion/Passes.h"
#include "WarpDialect/Target/Chip.h"
#include "WarpDialect/Target/LLVMIRTranslation.h"
#include "WarpDialect/Toolchain/Passes.h"
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
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
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
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

using namespace mlir;
using namespace mlir::warp;

/// The NVPTX target of every gpu.module, with upstream's pipeline options:
/// warp-select-lowering reads the chip from it, warp-module-to-binary the
/// rest.
static void addAttachTargetPass(OpPassManager &pm,
                                const WarpPipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  // The PTX version follows from the chip: upstream's default `+ptx60`
  // aborts for every chip newer than sm_70. An unknown chip was already
  // rejected by checkWarpPipelineOptions or the expansion pass.
  if (std::optional<Chip> chip = Chip::parse(options.chip))
    target.features = chip->ptxFeature();
  target.optLevel = options.optLevel;
  target.cmdOptions = options.ptxasOptions;
  // A module's own target for the chip gives way to this one (upstream's
  // pass would add a second).
  pm.addPass(createWarpReconcileTargetsPass(
      WarpReconcileTargetsPassOptions{options.chip}));
  pm.addPass(createGpuNVVMAttachTarget(target));
}

/// The warp passes proper, on one gpu.module: upstream subgroup ops to warp,
/// the expansions, the checks that need them done, and warp ops to NVVM.
static void addWarpDevicePasses(OpPassManager &device,
                                const WarpPipelineOptions &options) {
  // Upstream subgroup ops take the warp lowering too (upstream's NVVM
  // lowering rejects subgroup_reduce and mis-encodes narrow shuffles).
  device.addPass(createConvertGPUToWarpPass());
  // Member masks against the lanes that reach each collective, on the
  // program as written (warnings unless asked for errors).
  WarpCheckConvergencePassOptions convergence;
  convergence.asWarnings = !options.convergenceErrors;
  convergence.record = true;
  device.addPass(createWarpCheckConvergencePass(convergence));
  // Cluster ops become block ops and distributed shared memory accesses.
  device.addPass(createWarpExpandClusterCollectivesPass());
  // Decide, then lower: every decision on the ops, for the module's target,
  // before each level of expansion (the block expansion makes warp ops).
  WarpSelectLoweringPassOptions select{options.strategy, options.scanSteps};
  device.addPass(createWarpSelectLoweringPass(select));
  // Kernels with many block ops call shared functions for them (with the
  // decisions just written), which keeps LLVM's compile time linear.
  device.addPass(createWarpOutlineBlockCollectivesPass());
  device.addPass(createWarpExpandBlockCollectivesPass());
  device.addPass(createWarpSelectLoweringPass(select));
  device.addPass(createWarpExpandCollectivesPass(
      WarpExpandCollectivesPassOptions{options.strategy, options.scanSteps}));
  // The same check on the masks the expansions wrote, in the kernels the
  // first found nothing in: a finding is the compiler's bug.
  convergence.record = false;
  convergence.afterExpansion = true;
  device.addPass(createWarpCheckConvergencePass(convergence));
  // Every workgroup buffer exists now (the expansions added theirs).
  device.addPass(createWarpCheckSharedMemoryPass());
  device.addPass(createConvertWarpToNVVMPass());
  // Upstream's MMA lowering, run here so that loops carrying fragments reach
  // convert-nvgpu-to-nvvm (which cannot convert them) as LLVM structs.
  device.addPass(createConvertWarpMMAToNVVMPass());
  // Before NVVM code generation, which can vectorize accesses to shared
  // variables beyond the alignment their PTX declaration states.
  device.addPass(createWarpAlignGPUMemoryPass());
}

void mlir::warp::buildWarpLowerToNVVMPipeline(
    OpPassManager &pm, const WarpPipelineOptions &options) {
  addAttachTargetPass(pm, options);
  addWarpDevicePasses(pm.nest<gpu::GPUModuleOp>(), options);
}

/// Whether kernels take one pointer per memref argument. host-bare-ptr-memref
/// implies it: gpu-to-llvm's type converter then passes every memref launch
/// operand as a bare pointer, whatever the kernels' own convention is.
static bool usesBarePtrKernels(const WarpPipelineOptions &options) {
  return options.barePtrMemref || options.hostBarePtrMemref;
}

/// The device half of upstream's NVVM lowering (gpu-lower-to-nvvm-pipeline),
/// on one gpu.module, with device code's own index width. Nothing here sees
/// more than one gpu.module: the pass manager runs the gpu.modules of a
/// program in parallel, the host code is left to the host passes, and no
/// module-wide pass converts device code at the host's width (with
/// device-index-bitwidth=32 that would leave casts between the two widths
/// that nothing removes). The kernels are llvm.funcs at the end, where the
/// passes that need them so run.
static void addDeviceToLLVMPasses(OpPassManager &device,
                                  const WarpPipelineOptions &options) {
  unsigned indexBitwidth = options.deviceIndexBitWidth;
  bool barePtrKernels = usesBarePtrKernels(options);
  // Structured and NVGPU ops to what convert-gpu-to-nvvm takes, in
  // upstream's order (nvgpu first: its lowering can make vector and scf ops;
  // nvvm-to-llvm after the others made their NVVM ops). The passes for one
  // dialect run only where it occurs: warp's own output has no nvgpu,
  // vector, scf or affine ops, and each pass would otherwise walk (the
  // greedy ones fold) all of the expanded IR and have it verified again.
  // (warp's wrapper of upstream's nvgpu patterns keeps device code's index
  // width: upstream's pass converts at 64 bits whatever the data layout.)
  device.addPass(
      createWarpIfPresentPass({"nvgpu"}, createWarpConvertNVGPUToNVVMPass()));
  // Then what convert-vector-to-llvm rewrites before converting, which the
  // to-LLVM interface convert-gpu-to-nvvm uses does not: one guard, one
  // walk, for both.
  std::unique_ptr<Pass> vectorPasses[] = {createConvertVectorToSCFPass(),
                                          createWarpLowerVectorOpsPass()};
  device.addPass(createWarpIfPresentPass({"vector"}, vectorPasses));
  // Without rollback bookkeeping: every scf.if splits its block and moves
  // the rest of it, and recording each move for a rollback the patterns
  // never need makes a kernel of many block ops quadratic in memory.
  SCFToControlFlowPassOptions scfToCF;
  scfToCF.allowPatternRollback = false;
  device.addPass(
      createWarpIfPresentPass({"scf"}, createSCFToControlFlowPass(scfToCF)));
  // Both only apply their patterns: they run where an op is a root of one
  // (an NVVM op lowered through inline PTX; a subview, reshape or metadata
  // query of a memref), which kernels of warp ops rarely have.
  device.addPass(createWarpIfPatternRootsPass(
      populateNVVMToLLVMConversionPatterns, createConvertNVVMToLLVMPass()));
  device.addPass(createWarpIfPatternRootsPass(
      memref::populateExpandStridedMetadataPatterns,
      memref::createExpandStridedMetadataPass()));
  device.addPass(createWarpIfPresentPass({"affine"}, createLowerAffinePass()));
  // Device functions before convert-gpu-to-nvvm, which would convert them
  // itself and give each a C-interface wrapper that ends up in the PTX.
  device.addPass(createConvertDeviceFuncToLLVMPass(
      ConvertDeviceFuncToLLVMPassOptions{indexBitwidth, barePtrKernels}));
  // One conversion for the rest: gpu, and through their to-LLVM interfaces
  // arith, cf, index, memref, math (to libdevice calls), vector and ub.
  // Float max/min to LLVM's intrinsics first: convert-gpu-to-nvvm would
  // make them libdevice calls, which need libdevice linked.
  device.addPass(createWarpIfPresentPass({"arith"}, createWarpLowerFloatMinMaxPass()));
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = indexBitwidth;
  toNVVM.useBarePtrCallConv = barePtrKernels;
  // Without rollback bookkeeping, as warp's own conversions: its patterns
  // match or leave the op alone, and recording each rewrite for a rollback
  // is a measurable share of a compile.
  toNVVM.allowPatternRollback = false;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  // Its dynamic shared memory base as PTX's dynamic window.
  device.addPass(createWarpExternDynamicSharedPass());
  // The conversion leaves the address arithmetic of every memref access and
  // a constant per use: folded and shared before LLVM sees them. Blocks are
  // left to LLVM's CFG simplification where it runs (opt-level 1 and up):
  // merging them here as well costs a walk of every region for nothing.
  GreedyRewriteConfig canonicalize;
  if (options.optLevel > 0)
    canonicalize.setRegionSimplificationLevel(
        GreedySimplifyRegionLevel::Disabled);
  device.addPass(createCanonicalizerPass(canonicalize));
  device.addPass(createCSEPass());
  // The math ops convert-gpu-to-nvvm leaves (it lowers those with a
  // libdevice function; ctpop, ctlz, absi, fma, ... stay), which upstream's
  // pipeline converts in gpu-to-llvm, walking the gpu.modules.
  device.addPass(
      createWarpIfPresentPass({"math"}, createConvertMathToLLVMPass()));
  device.addPass(createReconcileUnrealizedCastsPass());
  // The passes that need the kernels as llvm.funcs (upstream's pipeline
  // serializes them right after converting them).
  device.addPass(createWarpMarkReadOnlyParamsPass());
  // The host passes 64-bit index and memref parameters whatever the device
  // computes with (see warp-record-kernel-abi).
  if (indexBitwidth == 32)
    device.addPass(createWarpWidenKernelIndexArgsPass());
}

/// Host code to LLVM up to gpu-to-llvm: the passes of upstream's pipeline
/// that have host code to convert, in its order. They run once the
/// gpu.modules are gpu.binary objects, and nested on the host functions
/// (func.func before convert-func-to-llvm, llvm.func after) where they can,
/// so none walks device code. Upstream's convert-nvvm-to-llvm is left out:
/// host code has no NVVM ops.
static void addHostToLLVMPasses(OpPassManager &pm,
                                const WarpPipelineOptions &options) {
  OpPassManager &hostFunc = pm.nest<func::FuncOp>();
  // Host nvgpu ops (TMA descriptors) become driver calls here, and the
  // launches that pass a descriptor pass its pointer.
  hostFunc.addPass(warp::createWarpConvertNVGPUToNVVMPass());
  hostFunc.addPass(createConvertVectorToSCFPass());
  hostFunc.addPass(createSCFToControlFlowPass());
  // Host functions take one pointer per memref argument under
  // host-bare-ptr-memref (warp-check-bare-ptr-args has checked that each
  // can).
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = options.hostBarePtrMemref;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  OpPassManager &hostLLVMFunc = pm.nest<LLVM::LLVMFuncOp>();
  hostLLVMFunc.addPass(memref::createExpandStridedMetadataPass());
  hostLLVMFunc.addPass(createLowerAffinePass());
  hostLLVMFunc.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions indexToLLVM;
  indexToLLVM.indexBitwidth = options.indexBitWidth;
  hostLLVMFunc.addPass(createConvertIndexToLLVMPass(indexToLLVM));
  hostLLVMFunc.addPass(createCanonicalizerPass());
  hostLLVMFunc.addPass(createCSEPass());
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

void mlir::warp::buildWarpLowerToPTXPipeline(
    OpPassManager &pm, const WarpPipelineOptions &options) {
  // Checked before outlining, which would turn impossible launch sizes into
  // errors without a location.
  pm.addPass(createWarpCheckLowerablePass(WarpCheckLowerablePassOptions{
      /*allowAsync=*/options.asyncRuntime, /*chip=*/options.chip}));
  // Device-wide ops become kernels of warp ops and their launches; the
  // kernels then go the way of every other. The async lowering
  // (gpu-async-region, async.execute) takes no branches around launches.
  WarpExpandDeviceOpsPassOptions expandDeviceOps;
  expandDeviceOps.branchOnGrid = !options.asyncRuntime;
  expandDeviceOps.chip = options.chip;
  pm.addPass(createWarpExpandDeviceOpsPass(expandDeviceOps));
  // Kernels written inside gpu.launch must be outlined before the device
  // passes, which run on gpu.module, can see their warp ops. (Upstream's
  // pipeline outlines a second time, when there is nothing left to outline.)
  pm.addPass(createGpuKernelOutliningPass());
  // Attached while the gpu.modules are small: the pass manager verifies the
  // whole module after this pass.
  addAttachTargetPass(pm, options);

  // Device code, one gpu.module at a time, all the way to LLVM.
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // Before the expansions: the data layout says the index width, and the
  // kernel ABI record rejects the program's own pointers in index values
  // (warp.atomic_rmw's address grouping makes one, within the option's
  // documented limit).
  if (options.deviceIndexBitWidth == 32) {
    device.addPass(createWarpSetDeviceIndexBitwidthPass(
        WarpSetDeviceIndexBitwidthPassOptions{32}));
    device.addPass(createWarpRecordKernelABIPass());
  }
  // Also before the expansions, so that a write it rejects is the program's
  // own op (warp.atomic_rmw, not the atomics it expands into).
  device.addPass(createWarpRecordReadOnlyArgsPass());
  if (usesBarePtrKernels(options))
    device.addPass(createWarpCheckBarePtrArgsPass());
  if (options.hostBarePtrMemref)
    pm.addNestedPass<func::FuncOp>(createWarpCheckBarePtrArgsPass());
  addWarpDevicePasses(device, options);
  addDeviceToLLVMPasses(device, options);
  device.addPass(createWarpFitKernelParamsPass());

  // Each gpu.module to a gpu.binary as soon as it is LLVM, before the host
  // passes (upstream serializes after gpu-to-llvm, whose module-wide walk
  // converts what its device lowering left: here the math-to-llvm above).
  // The gpu.modules serialize in parallel (upstream's gpu-module-to-binary
  // takes one after another).
  pm.addPass(createWarpModuleToBinaryPass(
      WarpModuleToBinaryPassOptions{options.format}));

  // Host code.
  if (options.asyncRuntime) {
    pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
    // GPU work that crosses async.execute regions as events (upstream's
    // gpu-to-llvm gets this wrong once NVVM is loaded; see the pass).
    pm.addPass(createConvertAsyncGPUTokensToEventsPass());
  }
  // Synchronous memory ops in the async form gpu-to-llvm converts.
  pm.addPass(createWarpMakeGPUMemoryOpsAsyncPass());
  addHostToLLVMPasses(pm, options);
  // Launches to runtime calls, with the kernels' calling convention.
  GpuToLLVMConversionPassOptions toLLVM;
  toLLVM.hostBarePtrCallConv = options.hostBarePtrMemref;
  toLLVM.kernelBarePtrCallConv = usesBarePtrKernels(options);
  pm.addPass(createGpuToLLVMConversionPass(toLLVM));

  // What upstream's pipeline ends with, on host code alone (the gpu.modules
  // are gpu.binary objects by now): host math ops and the casts between
  // the conversions.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.asyncRuntime)
    buildAsyncToLLVMPipeline(pm);

  if (!options.ptxOutput.empty())
    pm.addPass(createWarpPrintISAPass(
        WarpPrintISAPassOptions{options.ptxOutput.getValue()}));
}

/// The ptxas option in `ptxasOptions` that names an output file, if any:
/// the serializer names ptxas's output itself, and a second one would have
/// ptxas write a file of the user's choosing and the compile fail.
static std::optional<std::string>
findPtxasOutputOption(StringRef ptxasOptions) {
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  SmallVector<const char *> tokens;
  // Split as the NVVM target splits them for ptxas.
  llvm::cl::TokenizeGNUCommandLine(ptxasOptions, saver, tokens);
  for (StringRef token : tokens) {
    StringRef name = token.split('=').first;
    if (name == "-o" || name == "--output-file")
      return token.str();
  }
  return std::nullopt;
}

std::optional<std::string>
mlir::warp::checkWarpPipelineOptions(const WarpPipelineOptions &options) {
  if (!Chip::parse(options.chip))
    return Chip::unknownChipMessage(options.chip);
  if (options.optLevel < 0 || options.optLevel > 3)
    return "opt-level " + std::to_string(options.optLevel) +
           " is outside 0..3";
  if (options.format == gpu::CompilationTarget::Offload)
    return "format=llvm is warp-module-to-binary's alone: the pipelines and "
           "the runner make PTX (isa), a cubin (bin) or a fatbinary (fatbin)";
  if (!options.ptxasOptions.empty() &&
      options.format == gpu::CompilationTarget::Assembly)
    return "ptxas-options='" + options.ptxasOptions.getValue() +
           "' needs format=bin or fatbin: with format=isa no ptxas runs (the "
           "driver compiles the PTX)";
  if (std::optional<std::string> output =
          findPtxasOutputOption(options.ptxasOptions))
    return "ptxas-options='" + options.ptxasOptions.getValue() +
           "' names an output file ('" + *output +
           "'): the pipeline chooses ptxas's output itself";
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
        if (failed(options.parseFromString(text, errorStream))) {
          // LLVM's option parser prints some errors itself (a value an
          // enum option does not name) and leaves nothing here: an empty
          // error would follow its message.
          StringRef message = StringRef(errors).trim();
          if (message.empty())
            return failure();
          return errorHandler(message);
        }
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
      "warp-lower-to-nvvm",
      "Expand warp collectives and lower warp ops to NVVM inside every "
      "gpu.module",
      buildWarpLowerToNVVMPipeline);
  registerCheckedPipeline(
      "warp-lower-to-ptx",
      "Lower a host+device module with warp ops to LLVM with gpu.binary "
      "objects (PTX for format=isa, cubin for bin, fatbin)",
      buildWarpLowerToPTXPipeline);
}

void mlir::warp::registerWarpPasses() {
  registerWarpTransformsPasses();
  registerWarpConversionPasses();
  registerWarpToolchainPasses();
}

void mlir::warp::registerWarpDialectsAndExtensions(DialectRegistry &registry) {
  // Exactly what GPU programs with warp ops need (nvgpu: cp.async, which
  // the tensor-core kernels pipeline with), so the self-contained runner
  // and C API library stay small; warp-opt adds every upstream dialect on
  // top.
  registry.insert<WarpDialect, affine::AffineDialect, arith::ArithDialect,
                  async::AsyncDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, nvgpu::NVGPUDialect, scf::SCFDialect,
                  ub::UBDialect, vector::VectorDialect>();
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
  registerWarpDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}
