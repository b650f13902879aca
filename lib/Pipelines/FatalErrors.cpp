//===- FatalErrors.cpp - LLVM fatal errors as MLIR diagnostics ------------===//

#include "WarpDialect/Pipelines/FatalErrors.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <mutex>

using namespace mlir;

namespace {
/// A pass being run on this thread and the operation it runs on.
struct RunningPass {
  Pass *pass;
  Operation *op;
};

/// The passes running on this thread, innermost last (a pass adaptor runs
/// the passes nested in it).
thread_local SmallVector<RunningPass, 4> runningPasses;

/// Whether the fatal-error handler reported an error on this thread since
/// the innermost recovery scope began.
thread_local bool fatalErrorReported = false;

struct RecordRunningPasses : public PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *op) override {
    runningPasses.push_back({pass, op});
  }
  void runAfterPass(Pass *, Operation *) override { pop(); }
  void runAfterPassFailed(Pass *, Operation *) override { pop(); }
  static void pop() {
    if (!runningPasses.empty())
      runningPasses.pop_back();
  }
};

/// Emits `message` at the operation of the innermost running pass, or prints
/// it when no pass runs on this thread.
void reportAtRunningPass(const Twine &message) {
  fatalErrorReported = true;
  if (runningPasses.empty()) {
    llvm::errs() << "error: " << message << "\n";
    return;
  }
  RunningPass running = runningPasses.back();
  StringRef name = running.pass->getArgument();
  if (name.empty())
    name = running.pass->getName();
  emitError(running.op->getLoc())
      << message << " (in pass '" << name << "' on '"
      << running.op->getName() << "')";
}

void fatalErrorHandler(void *, const char *reason, bool) {
  reportAtRunningPass(Twine("LLVM fatal error: ") + reason);
  if (llvm::CrashRecoveryContext *context =
          llvm::CrashRecoveryContext::GetCurrent())
    context->HandleExit(1);
  // No recovery scope: end the process as LLVM would, but with status 1 and
  // without the crash banner of abort().
  llvm::sys::RunInterruptHandlers();
  llvm::sys::Process::Exit(1, /*NoCleanup=*/true);
}

void installFatalErrorHandler() {
  static std::once_flag once;
  std::call_once(once,
                 [] { llvm::install_fatal_error_handler(fatalErrorHandler); });
}
} // namespace

void warp::reportFatalErrorsAsDiagnostics(PassManager &pm) {
  installFatalErrorHandler();
  pm.addInstrumentation(std::make_unique<RecordRunningPasses>());
}

LogicalResult
warp::runRecoveringFromFatalErrors(function_ref<LogicalResult()> fn) {
  installFatalErrorHandler();
  static std::once_flag once;
  std::call_once(once, [] { llvm::CrashRecoveryContext::Enable(); });
  size_t depth = runningPasses.size();
  bool outerReported = fatalErrorReported;
  fatalErrorReported = false;
  LogicalResult result = failure();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely([&] { result = fn(); })) {
    // A crash signal rather than a fatal error: nothing was reported yet.
    if (!fatalErrorReported)
      reportAtRunningPass("the compiler crashed");
    result = failure();
  }
  // A recovered run left the passes it interrupted on the stack.
  runningPasses.truncate(depth);
  fatalErrorReported = outerReported;
  return result;
}

void warp::runOnLargeStack(function_ref<void()> fn) {
  constexpr unsigned kStackBytes = 1u << 30;
  llvm::thread worker(std::optional<unsigned>(kStackBytes), [&] { fn(); });
  worker.join();
}
