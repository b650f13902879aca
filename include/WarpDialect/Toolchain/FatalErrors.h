//===- FatalErrors.h - LLVM fatal errors as MLIR diagnostics ----*- C++ -*-===//
//
// LLVM ends the process on a fatal error (report_fatal_error, e.g. the NVPTX
// backend's "Cannot select"). A compiler driven from a tool, the C API or
// Python must instead report the error at the operation being compiled and,
// in a library, return failure. These helpers do that for every pass manager
// the warp tools and the C API run, and for the threads of warp's own
// parallel passes.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TOOLCHAIN_FATALERRORS_H
#define WARPDIALECT_TOOLCHAIN_FATALERRORS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class Operation;
class PassManager;
namespace warp {

/// How the diagnostic of an LLVM fatal error starts (the reason follows).
inline constexpr llvm::StringLiteral kFatalErrorPrefix = "LLVM fatal error: ";

/// Makes an LLVM fatal error raised while `pm` runs a pass an error
/// diagnostic at the location of the operation the pass runs on, naming the
/// pass (an instrumentation records them per thread). Installs, once per
/// process, the fatal-error handler that emits it. Without a recovery scope
/// (below) the process still ends afterwards, with status 1.
void reportFatalErrorsAsDiagnostics(PassManager &pm);

/// Runs `fn`; an LLVM fatal error (or a crash signal) raised on this thread
/// while it runs returns failure instead of ending the process. The
/// diagnostic has been emitted by then. Memory that `fn` held is leaked and
/// the IR `fn` worked on may be half transformed: callers report failure and
/// should drop that IR.
LogicalResult runRecoveringFromFatalErrors(function_ref<LogicalResult()> fn);

/// Runs `fn`, reporting an LLVM fatal error raised on this thread while it
/// runs at `op`, naming `passName`, as if that pass ran on `op` here: for
/// work a pass does per operation, or hands to another thread (where the
/// pass manager's record of the running pass does not reach). Without a
/// recovery scope on this thread the process still ends afterwards.
void runReportingFatalErrorsAt(Operation *op, StringRef passName,
                               function_ref<void()> fn);

/// runReportingFatalErrorsAt inside a recovery scope (as
/// runRecoveringFromFatalErrors): the error is a diagnostic at `op` and the
/// call returns failure.
LogicalResult runRecoveringFromFatalErrors(Operation *op, StringRef passName,
                                           function_ref<LogicalResult()> fn);

/// Runs `fn` on a thread with a 1 GiB stack (reserved, not committed) and
/// waits for it: MLIR's parser, verifier and printer recurse once per nested
/// region, and the main thread's 8 MiB overflow a few thousand levels down.
void runOnLargeStack(function_ref<void()> fn);

} // namespace warp
} // namespace mlir

#endif // WARPDIALECT_TOOLCHAIN_FATALERRORS_H
