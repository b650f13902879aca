//===- FatalErrors.cpp - LLVM fatal errors as MLIR diagnostics ------------===//

#include "WarpDialect/Toolchain/FatalErrors.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
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
#include <optional>
#include <string>
#include <utility>

using namespace mlir;

namespace {
/// A pass (or a task of one, on a worker thread) being run on this thread:
/// its name and the operation it works on.
struct RunningPass {
  StringRef name;
  Operation *op;
};

/// The passes running on this thread, innermost last (a pass adaptor runs
/// the passes nested in it).
thread_local SmallVector<RunningPass, 4> runningPasses;

/// The fatal error raised on this thread inside a recovery scope, reported
/// once that scope has unwound: emitting a diagnostic from inside the
/// handler, deep in a backend's half-finished state, corrupted the stacks of
/// other threads compiling at the same time.
struct PendingFatalError {
  std::string message;
  std::optional<RunningPass> at;
};
thread_local std::optional<PendingFatalError> pendingFatalError;

struct RecordRunningPasses : public PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *op) override {
    StringRef name = pass->getArgument();
    runningPasses.push_back({name.empty() ? pass->getName() : name, op});
  }
  void runAfterPass(Pass *, Operation *) override { pop(); }
  void runAfterPassFailed(Pass *, Operation *) override { pop(); }
  static void pop() {
    if (!runningPasses.empty())
      runningPasses.pop_back();
  }
};

/// `message`, naming the pass and the operation it ran on.
std::string inPass(const Twine &message, const RunningPass &at) {
  return (message + " (in pass '" + at.name + "' on '" +
          at.op->getName().getStringRef() + "')")
      .str();
}

/// Emits `message` at the operation of `at`, or prints it when no pass runs.
void report(const Twine &message, std::optional<RunningPass> at) {
  if (!at) {
    llvm::errs() << "error: " << message << "\n";
    return;
  }
  emitError(at->op->getLoc()) << inPass(message, *at);
}

/// The innermost pass running on this thread, if any.
std::optional<RunningPass> innermostPass() {
  if (runningPasses.empty())
    return std::nullopt;
  return runningPasses.back();
}

void fatalErrorHandler(void *, const char *reason, bool) {
  std::string message = (Twine(warp::kFatalErrorPrefix) + reason).str();
  if (llvm::CrashRecoveryContext *context =
          llvm::CrashRecoveryContext::GetCurrent()) {
    // Reported by runRecoveringFromFatalErrors once the scope has unwound.
    pendingFatalError = PendingFatalError{std::move(message), innermostPass()};
    context->HandleExit(1);
  }
  // No recovery scope (a thread of a parallel pass, or a tool that ends on
  // the first error): print the error, then end the process as LLVM would,
  // but with status 1 and without the crash banner of abort(). Printed
  // directly: a diagnostic would wait in a parallel pass's ordered
  // diagnostic handler, which never reports once the process has ended.
  // One thread prints and ends the process; the others wait for that.
  static std::mutex exiting;
  exiting.lock();
  std::string line;
  llvm::raw_string_ostream os(line);
  std::optional<RunningPass> at = innermostPass();
  if (at)
    if (auto file = at->op->getLoc()->findInstanceOf<FileLineColLoc>())
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn() << ": ";
  os << "error: " << (at ? inPass(message, *at) : message) << "\n";
  llvm::errs() << line;
  llvm::errs().flush();
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

void warp::runReportingFatalErrorsAt(Operation *op, StringRef passName,
                                     function_ref<void()> fn) {
  runningPasses.push_back({passName, op});
  fn();
  runningPasses.pop_back();
}

LogicalResult
warp::runRecoveringFromFatalErrors(Operation *op, StringRef passName,
                                   function_ref<LogicalResult()> fn) {
  LogicalResult result = failure();
  runReportingFatalErrorsAt(op, passName,
                            [&] { result = runRecoveringFromFatalErrors(fn); });
  return result;
}

LogicalResult
warp::runRecoveringFromFatalErrors(function_ref<LogicalResult()> fn) {
  installFatalErrorHandler();
  static std::once_flag once;
  std::call_once(once, [] { llvm::CrashRecoveryContext::Enable(); });
  size_t depth = runningPasses.size();
  // Left by a recovery scope that is not ours (a host program's own
  // llvm::CrashRecoveryContext), which never reports it.
  pendingFatalError.reset();
  LogicalResult result = failure();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely([&] { result = fn(); })) {
    // A recovered run left the passes it interrupted on the stack.
    std::optional<RunningPass> interrupted = innermostPass();
    runningPasses.truncate(depth);
    if (std::optional<PendingFatalError> fatal =
            std::exchange(pendingFatalError, std::nullopt))
      report(fatal->message, fatal->at);
    else // A crash signal rather than a fatal error.
      report("the compiler crashed", interrupted);
    result = failure();
  }
  return result;
}

void warp::runOnLargeStack(function_ref<void()> fn) {
  constexpr unsigned kStackBytes = 1u << 30;
  llvm::thread worker(std::optional<unsigned>(kStackBytes), [&] { fn(); });
  worker.join();
}
