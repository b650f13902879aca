//===- warp-cuda-runner.cpp - lower, JIT and run a GPU program ------------===//
//
// The role the old mlir-cuda-runner had: takes a host+device MLIR module
// (warp ops in gpu.func or gpu.launch), runs `warp-lower-to-ptx` in process
// when the input is not lowered yet, JIT-compiles the host code and runs the
// entry point. mlir-runner's options (-e, --entry-point-result,
// --shared-libs, -O0..3) apply; the mgpu* runtime, the mlirAsyncRuntime*
// functions and the printMemref* functions are built in and exported from
// the binary, where the JIT finds them (tools/warp-cuda-runner/CMakeLists.txt
// lists them). Programs with async-dialect host code are lowered with the
// pipeline's `async` option. A failing CUDA call is reported and the program
// goes on, as with mlir-runner and upstream's runtime (a device-side assert
// prints the assertion and the failed synchronization, exit status 0);
// --exit-on-cuda-error ends the run with status 1 at the first one.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Runtime/CudaRuntimeWrappers.h"
#include "WarpDialect/Toolchain/FatalErrors.h"
#include "WarpDialect/Toolchain/Passes.h"
#include "WarpDialect/Toolchain/ToolHelp.h"
#include "WarpDialect/Version.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// This tool's own options, listed apart from mlir-runner's under --help.
static llvm::cl::OptionCategory
    clRunnerCategory("warp-cuda-runner options",
                     "Lowering and CUDA runtime options of this runner; the "
                     "general options are mlir-runner's");

static llvm::cl::opt<std::string>
    clChip("chip",
           llvm::cl::desc("GPU chip to compile for (default: the device's, "
                          "else sm_90)"),
           llvm::cl::init(""), llvm::cl::cat(clRunnerCategory));
static llvm::cl::opt<gpu::CompilationTarget>
    clFormat("gpu-format",
             llvm::cl::desc("Device code format (isa: PTX, JIT-compiled by the "
                            "driver)"),
             llvm::cl::init(gpu::CompilationTarget::Assembly),
             warp::compilationTargetValues(), llvm::cl::cat(clRunnerCategory));

static llvm::cl::opt<bool> clKernelBarePtr(
    "kernel-bare-ptr-calling-convention",
    llvm::cl::desc("Kernels take one pointer per memref argument (static "
                   "shapes only); launches pass them so"),
    llvm::cl::init(false), llvm::cl::cat(clRunnerCategory));
static llvm::cl::opt<bool> clHostBarePtr(
    "host-bare-ptr-calling-convention",
    llvm::cl::desc("Host functions take one pointer per memref argument; "
                   "implies --kernel-bare-ptr-calling-convention"),
    llvm::cl::init(false), llvm::cl::cat(clRunnerCategory));
static llvm::cl::opt<std::string> clPtxasOptions(
    "ptxas-options",
    llvm::cl::desc("Extra ptxas options, e.g. --ptxas-options='-v "
                   "--maxrregcount=32' (with --gpu-format=bin or fatbin)"),
    llvm::cl::init(""), llvm::cl::cat(clRunnerCategory));
static llvm::cl::opt<std::string> clDumpPtx(
    "dump-ptx",
    llvm::cl::desc("Write the PTX of every gpu.module the runner builds to "
                   "this file ('-': stdout, DIR/: one file per module)"),
    llvm::cl::value_desc("path"), llvm::cl::init(""),
    llvm::cl::cat(clRunnerCategory));
static llvm::cl::opt<bool> clExitOnCudaError(
    "exit-on-cuda-error",
    llvm::cl::desc("End the run with status 1 at the first failing CUDA call "
                   "(default: report it and go on, as mlir-runner does)"),
    llvm::cl::init(false), llvm::cl::cat(clRunnerCategory));

/// Whether the program uses the async dialect (ops, types or signatures),
/// which needs the pipeline's async lowering.
static bool programUsesAsyncDialect(Operation *module) {
  return module
      ->walk([](Operation *op) {
        return warp::usesAsyncDialect(op) ? WalkResult::interrupt()
                                          : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Writes the PTX of every gpu.module: the pipeline prints it on the way
/// (format=isa), or a copy of the module is lowered to PTX for the purpose
/// (bin/fatbin hold machine code; ptxas compiles the same PTX).
static LogicalResult dumpPtx(Operation *module,
                             const warp::WarpPipelineOptions &options) {
  OwningOpRef<Operation *> copy(module->clone());
  warp::WarpPipelineOptions toPtx;
  toPtx.chip = options.chip.getValue();
  toPtx.format = gpu::CompilationTarget::Assembly;
  toPtx.optLevel = options.optLevel.getValue();
  toPtx.strategy = options.strategy.getValue();
  toPtx.barePtrMemref = options.barePtrMemref.getValue();
  toPtx.hostBarePtrMemref = options.hostBarePtrMemref.getValue();
  toPtx.asyncRuntime = options.asyncRuntime.getValue();
  toPtx.ptxOutput = clDumpPtx.getValue();
  PassManager pm(module->getContext(), module->getName().getStringRef());
  warp::reportFatalErrorsAsDiagnostics(pm);
  warp::buildWarpLowerToPTXPipeline(pm, toPtx);
  return pm.run(copy.get());
}

/// Async programs run coroutines on the runtime's worker threads, which may
/// still be in JIT'd code after the entry point's last await returned; the
/// entry point becomes a wrapper that calls it, then waits for the workers
/// (warpAsyncRuntimeDrain), so the JIT never frees code a thread is in.
static void drainAsyncWorkersAfter(ModuleOp module, StringRef entryName) {
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(entryName);
  if (!entry || entry.isExternal() ||
      !module.lookupSymbol("mlirAsyncRuntimeExecute"))
    return;
  MLIRContext *context = module.getContext();
  Location loc = entry.getLoc();
  OpBuilder b(context);
  b.setInsertionPointToStart(module.getBody());
  auto drain = LLVM::LLVMFuncOp::create(
      b, loc, "warpAsyncRuntimeDrain",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {}));
  // References by name (a _mlir_ciface_ wrapper) reach the new entry, of the
  // same type.
  entry.setSymName((entryName + "__warp_async_body").str());
  b.setInsertionPointAfter(entry);
  auto wrapper =
      LLVM::LLVMFuncOp::create(b, loc, entryName, entry.getFunctionType());
  Block *body = wrapper.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  auto call = LLVM::CallOp::create(b, loc, entry, body->getArguments());
  LLVM::CallOp::create(b, loc, drain, ValueRange{});
  LLVM::ReturnOp::create(b, loc, call.getResults());
}

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
                                         JitRunnerOptions &jitOptions) {
  std::string why;
  bool haveDevice = warp::runtime::isCudaDeviceAvailable(why);
  if (needsLowering(module)) {
    warp::WarpPipelineOptions options;
    std::string chip = clChip;
    if (chip.empty() && haveDevice)
      chip = warp::runtime::getDefaultDeviceChip();
    options.chip = chip.empty() ? "sm_90" : chip;
    options.format = clFormat.getValue();
    options.barePtrMemref = clKernelBarePtr.getValue();
    options.hostBarePtrMemref = clHostBarePtr.getValue();
    options.ptxasOptions = clPtxasOptions.getValue();
    options.asyncRuntime = programUsesAsyncDialect(module);
    if (std::optional<std::string> problem =
            warp::checkWarpPipelineOptions(options))
      return module->emitError() << *problem;
    bool dumpOnTheWay = options.format == gpu::CompilationTarget::Assembly;
    if (!clDumpPtx.empty()) {
      if (dumpOnTheWay)
        options.ptxOutput = clDumpPtx.getValue();
      else if (failed(dumpPtx(module, options)))
        return failure();
    }
    PassManager pm(module->getContext(), module->getName().getStringRef());
    // An LLVM fatal error (hand-written LLVM dialect NVPTX cannot select) is
    // an error at the op whose pass raised it, and exit status 1.
    warp::reportFatalErrorsAsDiagnostics(pm);
    warp::buildWarpLowerToPTXPipeline(pm, options);
    if (failed(pm.run(module)))
      return failure();
  } else if (!clDumpPtx.empty()) {
    // Already lowered: the PTX is there only if it was built with format=isa.
    PassManager pm(module->getContext(), module->getName().getStringRef());
    pm.addPass(warp::createWarpPrintISAPass(
        warp::WarpPrintISAPassOptions{clDumpPtx.getValue()}));
    if (failed(pm.run(module)))
      return failure();
  }
  if (auto moduleOp = dyn_cast<ModuleOp>(module))
    drainAsyncWorkersAfter(moduleOp, jitOptions.mainFuncName);
  warp::runtime::setExitOnCudaError(clExitOnCudaError);
  if (!haveDevice) {
    llvm::errs() << "warp-cuda-runner: error: no GPU to run on: " << why
                 << "\n";
    return failure();
  }
  return success();
}

/// The overview --help prints for this tool.
static constexpr llvm::StringLiteral kOverview =
    "warp-cuda-runner: lowers a host+device MLIR module with warp ops "
    "(warp-lower-to-ptx), JIT-compiles its host code and runs the entry point, "
    "its kernels on the GPU";

/// JitRunnerMain parses the command line with mlir-runner's overview ("MLIR
/// CPU execution driver") and declares its options inside itself, so no
/// overview of ours can reach its --help. It runs in a child process whose
/// stdout is a pipe, and the help comes out here with this tool's overview.
static int printHelp(int argc, char **argv, const DialectRegistry &registry,
                     JitRunnerConfig config) {
  std::optional<warp::CapturedOutput> help = warp::runCapturingStdout(
      [&] { return JitRunnerMain(argc, argv, registry, config); });
  if (!help)
    return JitRunnerMain(argc, argv, registry, config);
  StringRef text = help->text;
  StringRef theirs = "OVERVIEW: MLIR CPU execution driver";
  if (text.consume_front(theirs))
    llvm::outs() << "OVERVIEW: " << kOverview;
  llvm::outs() << text;
  llvm::outs().flush();
  return help->status;
}

int main(int argc, char **argv) {
  // A crash prints LLVM's bug report banner and a stack trace, as LLVM's
  // tools do (JitRunnerMain installs neither). Not through llvm::InitLLVM:
  // its llvm_shutdown at exit crashes on the state a backend leaves when a
  // fatal error is recovered from (FatalErrors.h).
  // The banner first, then the trace.
  llvm::PrettyStackTraceProgram stackTraceProgram(argc, argv);
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "warp version " WARP_VERSION "\n"; });
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  DialectRegistry registry;
  warp::registerWarpDialectsAndExtensions(registry);

  // Without an -O flag mlir-runner runs no LLVM passes at all, and the
  // coroutines of async programs then fail in code generation; -O0 (LLVM's
  // O0 pipeline: coroutine lowering, always-inline) is the default here.
  std::vector<char *> args(argv, argv + argc);
  static char defaultOptLevel[] = "-O0";
  if (llvm::none_of(args, [](StringRef arg) {
        return arg == "-O0" || arg == "-O1" || arg == "-O2" || arg == "-O3" ||
               arg == "--O0" || arg == "--O1" || arg == "--O2" || arg == "--O3";
      }))
    // First, so no option before it takes it for its value.
    args.insert(args.begin() + 1, defaultOptLevel);

  JitRunnerConfig config;
  config.mlirTransformer = lowerAndCheckDevice;
  if (warp::hasHelpFlag(static_cast<int>(args.size()), args.data()))
    return printHelp(static_cast<int>(args.size()), args.data(), registry,
                     config);
  return JitRunnerMain(static_cast<int>(args.size()), args.data(), registry,
                       config);
}
