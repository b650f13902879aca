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
#include "WarpDialect/Toolchain/FatalErrors.h"
#include "WarpDialect/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
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
    // A pass option LLVM's parser rejects comes back as the text it wrote,
    // which is empty where it printed the error itself (a value an enum
    // option does not name) and ends in a newline otherwise: no empty error
    // after its message, no blank line after the error.
    ScopedDiagnosticHandler tidyOptionErrors(
        pm.getContext(), [](Diagnostic &diag) {
          std::string message = diag.str();
          StringRef trimmed = StringRef(message).trim();
          if (trimmed.empty())
            return success();
          if (trimmed.size() != message.size()) {
            diag = Diagnostic(diag.getLocation(), diag.getSeverity());
            diag << Twine(trimmed);
          }
          return failure();
        });
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
  // A crash prints LLVM's bug report banner and a stack trace, as mlir-opt's
  // does (MlirOptMain installs them only in the overload not used here).
  // Not through llvm::InitLLVM: its llvm_shutdown at exit crashes on the
  // state a backend leaves when a fatal error is recovered from
  // (FatalErrors.h).
  // The banner first, then the trace.
  llvm::PrettyStackTraceProgram stackTraceProgram(argc, argv);
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
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
  warp::runOnLargeStack([&] {
    // The stack of pretty-printed frames is per thread: the driver's thread
    // names the command line too.
    llvm::PrettyStackTraceProgram stackTraceProgram(argc, argv);
    result = asMainReturnCode(warpOptMain(argc, argv, registry));
  });
  return result;
}
