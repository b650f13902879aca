//===- warp-opt.cpp - mlir-opt with the warp dialect ----------------------===//
//
// An mlir-opt compatible driver: the warp dialect, its passes and pipelines,
// plus the upstream dialects and passes a GPU program needs. Two differences
// from mlir-opt: it runs on a thread with a large stack (deeply nested IR
// parses instead of overflowing the stack), and an LLVM fatal error inside
// a pass (say the NVPTX backend's "Cannot select" on hand-written LLVM
// dialect) is an error diagnostic at the operation the pass runs on, with
// exit status 1, instead of an abort.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Target/FatalErrors.h"
#include "WarpDialect/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

/// MlirOptMain with mlir-opt's command line, plus the fatal-error
/// instrumentation on every pass manager it builds.
static LogicalResult warpOptMain(int argc, char **argv,
                                 DialectRegistry &registry) {
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "warp optimizer and lowering driver\n", registry);
  MlirOptMainConfig cliConfig = MlirOptMainConfig::createFromCLOptions();
  if (cliConfig.shouldShowDialects() || cliConfig.shouldListPasses())
    return MlirOptMain(argc, argv, inputFilename, outputFilename, registry);

  MlirOptMainConfig config = cliConfig;
  config.setPassPipelineSetupFn([cliConfig](PassManager &pm) {
    warp::reportFatalErrorsAsDiagnostics(pm);
    return cliConfig.setupPassPipeline(pm);
  });
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "warp version " WARP_VERSION "\n"; });
  registerAllPasses();
  warp::registerWarpPasses();
  warp::registerWarpPipelines();

  DialectRegistry registry;
  warp::registerWarpDialectsAndExtensions(registry);
  // mlir-opt compatible: every upstream dialect, extension and translation.
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  int result = 1;
  warp::runOnLargeStack(
      [&] { result = asMainReturnCode(warpOptMain(argc, argv, registry)); });
  return result;
}
