//===- warp-cuda-runner.cpp - lower, JIT and run a GPU program ------------===//
//
// The role the old mlir-cuda-runner had: takes a host+device MLIR module
// (warp ops in gpu.func or gpu.launch), runs `warp-lower-to-ptx` in process
// when the input is not lowered yet, JIT-compiles the host code and runs the
// entry point. mlir-runner's options (-e, --entry-point-result,
// --shared-libs, -O0..3) apply; the mgpu* runtime and the printMemref*
// functions are built in and exported from the binary, where the JIT finds
// them (tools/warp-cuda-runner/CMakeLists.txt lists them).
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Version.h"
#include "WarpDialect/Runtime/CudaRuntimeWrappers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::opt<std::string>
    clChip("chip",
           llvm::cl::desc("GPU chip to compile for (default: the device's, "
                          "else sm_90)"),
           llvm::cl::init(""));
static llvm::cl::opt<warp::BinaryFormat> clFormat(
    "gpu-format",
    llvm::cl::desc("Device code format (isa: PTX, JIT-compiled by the "
                   "driver)"),
    llvm::cl::init(warp::BinaryFormat::Isa), warp::binaryFormatValues());

/// Input that still has non-LLVM ops (gpu.launch, warp, arith, ...) needs the
/// pipeline; input that is LLVM dialect plus gpu.binary runs as it is.
static bool needsLowering(Operation *module) {
  bool found = false;
  module->walk([&](Operation *op) {
    if (op == module || isa<gpu::BinaryOp>(op) ||
        isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    found = true;
    return WalkResult::interrupt();
  });
  return found;
}

static LogicalResult lowerAndCheckDevice(Operation *module,
                                         JitRunnerOptions &) {
  std::string why;
  bool haveDevice = warp::runtime::isCudaDeviceAvailable(why);
  if (needsLowering(module)) {
    warp::WarpPipelineOptions options;
    std::string chip = clChip;
    if (chip.empty() && haveDevice)
      chip = warp::runtime::getDefaultDeviceChip();
    options.chip = chip.empty() ? "sm_90" : chip;
    options.format = clFormat.getValue();
    PassManager pm(module->getContext(), module->getName().getStringRef());
    warp::buildWarpLowerToPTXPipeline(pm, options);
    if (failed(pm.run(module)))
      return failure();
  }
  if (!haveDevice) {
    llvm::errs() << "warp-cuda-runner: error: no GPU to run on: " << why
                 << "\n";
    return failure();
  }
  return success();
}

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "warp version " WARP_VERSION "\n"; });
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  DialectRegistry registry;
  warp::registerWarpDialectsAndExtensions(registry);

  JitRunnerConfig config;
  config.mlirTransformer = lowerAndCheckDevice;
  return JitRunnerMain(argc, argv, registry, config);
}
