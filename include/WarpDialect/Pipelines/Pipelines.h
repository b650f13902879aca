//===- Pipelines.h - named warp lowering pipelines --------------*- C++ -*-===//
//
// The pipelines live in the library so warp-opt, the runner, the C API and
// Python all build exactly the same pass sequence.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_PIPELINES_PIPELINES_H
#define WARPDIALECT_PIPELINES_PIPELINES_H

#include "WarpDialect/Toolchain/Passes.h"
#include "WarpDialect/Transforms/Passes.h"
#include "mlir/Pass/PassOptions.h"
#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
namespace warp {

/// Options shared by the warp pipelines.
struct WarpPipelineOptions : public PassPipelineOptions<WarpPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target chip: sm_70 or newer, as LLVM's NVPTX backend "
                     "names it (sm_90, sm_90a, sm_100f, ...)"),
      llvm::cl::init(kDefaultChipName.str())};
  PassOptions::Option<StrategyPreference> strategy{
      *this, "strategy",
      llvm::cl::desc("Reduction strategy where an op names none"),
      llvm::cl::init(StrategyPreference::Auto), strategyPreferenceValues()};
  PassOptions::Option<ScanStepPreference> scanSteps{
      *this, "scan-steps",
      llvm::cl::desc("How a scan step tests its partner (a lever for "
                     "benchmarks)"),
      llvm::cl::init(ScanStepPreference::FoldLast),
      scanStepPreferenceValues()};
  PassOptions::Option<gpu::CompilationTarget> format{
      *this, "format", llvm::cl::desc("Device code format"),
      llvm::cl::init(gpu::CompilationTarget::Fatbin), compilationTargetValues()};
  PassOptions::Option<bool> convergenceErrors{
      *this, "convergence-errors",
      llvm::cl::desc("Report warp-check-convergence's deadlocks as errors "
                     "(by default every finding is a warning)"),
      llvm::cl::init(false)};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("NVPTX optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> indexBitWidth{
      *this, "index-bitwidth",
      llvm::cl::desc("Index bitwidth on host and device (upstream's host "
                     "lowering supports only 64 today)"),
      llvm::cl::init(64)};
  PassOptions::Option<int64_t> deviceIndexBitWidth{
      *this, "device-index-bitwidth",
      llvm::cl::desc("Index bitwidth inside gpu.module code (32 or 64; "
                     "warp-lower-to-ptx only). With 32 the kernel ABI stays "
                     "64-bit (index arguments and memref offsets, sizes and "
                     "strides are i64 parameters, truncated at entry) and "
                     "all device index arithmetic is 32-bit: every index "
                     "value and memref offset, size and stride on the "
                     "device must fit in 31 bits"),
      llvm::cl::init(64)};
  PassOptions::Option<bool> barePtrMemref{
      *this, "bare-ptr-memref",
      llvm::cl::desc("Kernels take one pointer per memref argument "
                     "(upstream's bare-pointer calling convention: static "
                     "shapes and identity layouts only) and host launches "
                     "pass them so"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> hostBarePtrMemref{
      *this, "host-bare-ptr-memref",
      llvm::cl::desc("Host functions take one pointer per memref argument; "
                     "implies bare-ptr-memref (launches then pass bare "
                     "pointers, which only bare-pointer kernels take)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> ptxasOptions{
      *this, "ptxas-options",
      llvm::cl::desc("Extra ptxas options for format=bin|fatbin, e.g. "
                     "ptxas-options='-v --maxrregcount=32' (not -o or "
                     "--output-file: the pipeline names the output)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> asyncRuntime{
      *this, "async",
      llvm::cl::desc("Lower async-dialect host code (async.execute, "
                     "async.await, !async.token): GPU ops in it become "
                     "asynchronous (gpu-async-region) and the async ops "
                     "calls of the mlirAsyncRuntime* functions"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> ptxOutput{
      *this, "ptx-output",
      llvm::cl::desc("Also write the PTX of every gpu.module to this file "
                     "('-' for stdout); empty for none"),
      llvm::cl::init("")};
};

/// What is wrong with `options` (an unknown chip, an opt-level outside 0..3,
/// an index bitwidth other than 64, a device index bitwidth other than 32
/// or 64, ptxas options without ptxas or naming an output file), or
/// std::nullopt. The registered
/// pipelines and the C API report it as a diagnostic before building.
std::optional<std::string>
checkWarpPipelineOptions(const WarpPipelineOptions &options);

/// Device-side lowering of every warp op to NVVM (expansion + conversion),
/// nested on each gpu.module.
void buildWarpLowerToNVVMPipeline(OpPassManager &pm,
                             const WarpPipelineOptions &options);

/// The full lowering of a host+device module: warp ops and the surrounding
/// gpu/arith/memref/scf/cf code of each gpu.module (nested, so gpu.modules
/// lower in parallel) to LLVM and on to `gpu.binary` ops holding PTX
/// (`format=isa`), cubin or fatbin, then the host side (`gpu-to-llvm`).
void buildWarpLowerToPTXPipeline(OpPassManager &pm,
                                 const WarpPipelineOptions &options);

/// Registers `warp-lower-to-nvvm` and `warp-lower-to-ptx` with the pass
/// registry.
void registerWarpPipelines();

/// Registers every warp pass (transforms, conversions, printing).
void registerWarpPasses();

/// Adds the warp dialect and the upstream dialects a GPU program uses (func,
/// async, arith, math, memref, scf, cf, vector, index, affine, ub, gpu, nvvm,
/// llvm)
/// with their to-LLVM interfaces, the NVVM target and the LLVM IR
/// translations the lowering needs.
void registerWarpDialectsAndExtensions(DialectRegistry &registry);

} // namespace warp
} // namespace mlir

#endif // WARPDIALECT_PIPELINES_PIPELINES_H
