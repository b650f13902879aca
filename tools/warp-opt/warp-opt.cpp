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
#include "WarpDialect/Toolchain/ToolHelp.h"
#include "WarpDialect/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
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

/// Registers warp's passes and pipelines, then runs the driver.
static int runWarpOpt(int argc, char **argv, DialectRegistry &registry) {
  warp::registerWarpPasses();
  warp::registerWarpPipelines();
  int result = 1;
  warp::runOnLargeStack([&] {
    // The stack of pretty-printed frames is per thread: the driver's thread
    // names the command line too.
    llvm::PrettyStackTraceProgram stackTraceProgram(argc, argv);
    result = asMainReturnCode(warpOptMain(argc, argv, registry));
  });
  return result;
}

/// The heading and description of the --help section of warp's passes.
static constexpr llvm::StringLiteral kWarpSection =
    "warp passes and pipelines:\n"
    "The warp dialect's own passes and pass pipelines; upstream's are listed "
    "under \"Compiler passes to run\" above\n";

/// Whether `line` of the pass list in --help starts an entry: a pass or
/// pipeline ("      --name   -   description"), not one of its options
/// (indented further) or the values of an enum option ("    =value").
static bool isPassEntry(StringRef line) {
  return line.starts_with("      --") && !line.starts_with("       ");
}

/// Where the list of passes of --help ends: at the first line, after the
/// list's own headings ("    Passes:", "    Pass Pipelines:"), indented as
/// the general options are.
static bool endsPassList(StringRef line) { return !line.starts_with("   "); }

/// mlir-opt's --help lists every registered pass and pipeline in one option,
/// "Compiler passes to run", and nothing lets a tool filter or group that
/// list. The help is printed by a child process that registers warp's
/// passes and pipelines too, while this process's registry holds only
/// upstream's: each entry of the list whose name this process does not know
/// is warp's, and is moved to a section of its own at the end.
static int printHelp(int argc, char **argv, DialectRegistry &registry) {
  std::optional<warp::CapturedOutput> help = warp::runCapturingStdout(
      [&] { return runWarpOpt(argc, argv, registry); });
  if (!help)
    return runWarpOpt(argc, argv, registry);
  SmallVector<StringRef> lines;
  StringRef(help->text).split(lines, '\n');
  // Lines kept in place, and warp's entries with the heading they were
  // under.
  std::string kept, warpPasses, warpPipelines;
  std::string *warpList = nullptr;
  bool inList = false, inWarpEntry = false;
  for (auto [index, line] : llvm::enumerate(lines)) {
    std::string withNewline =
        (line + (index + 1 < lines.size() ? "\n" : "")).str();
    if (line == "    Passes:" || line == "    Pass Pipelines:") {
      inList = true;
      inWarpEntry = false;
      warpList = line == "    Passes:" ? &warpPasses : &warpPipelines;
      kept += withNewline;
      continue;
    }
    if (inList && endsPassList(line))
      inList = inWarpEntry = false;
    if (inList && isPassEntry(line)) {
      StringRef name = line.ltrim().drop_front(2);
      name = name.take_until([](char c) { return c == ' ' || c == '='; });
      inWarpEntry = !PassInfo::lookup(name) && !PassPipelineInfo::lookup(name);
    }
    (inWarpEntry ? *warpList : kept) += withNewline;
  }
  llvm::outs() << kept;
  if (!warpPasses.empty() || !warpPipelines.empty()) {
    if (!StringRef(kept).ends_with("\n"))
      llvm::outs() << "\n";
    llvm::outs() << "\n" << kWarpSection << "\n";
    if (!warpPasses.empty())
      llvm::outs() << "    Passes:\n" << warpPasses;
    if (!warpPipelines.empty())
      llvm::outs() << "    Pass Pipelines:\n" << warpPipelines;
  }
  llvm::outs().flush();
  return help->status;
}

#ifdef WARP_OPT_STATIC
/// The plugin option `argument` names (`--load-pass-plugin`,
/// `-load-dialect-plugin=...`), or an empty string.
static StringRef pluginOption(StringRef argument) {
  StringRef name = argument.ltrim('-').split('=').first;
  if (argument.starts_with("-") &&
      (name == "load-pass-plugin" || name == "load-dialect-plugin"))
    return name;
  return {};
}
#endif

int main(int argc, char **argv) {
#ifdef WARP_OPT_STATIC
  // This warp-opt has its own copy of LLVM and MLIR; a plugin linked against
  // libMLIR.so would bring a second one (two option and pass registries).
  for (int i = 1; i < argc; ++i) {
    StringRef option = pluginOption(argv[i]);
    if (option.empty())
      continue;
    llvm::errs() << "warp-opt: error: --" << option
                 << " needs warp-opt-dylib: this warp-opt has LLVM and MLIR "
                    "linked in statically, which a plugin built against "
                    "libMLIR.so cannot share (build it with `cmake --build "
                    "build --target warp-opt-dylib`)\n";
    return 1;
  }
#endif
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

  DialectRegistry registry;
  warp::registerWarpDialectsAndExtensions(registry);
  // mlir-opt compatible: every upstream dialect, extension and translation.
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  // Before warp's passes are registered here: printHelp tells them apart by
  // that.
  if (warp::hasHelpFlag(argc, argv))
    return printHelp(argc, argv, registry);
  return runWarpOpt(argc, argv, registry);
}
