//===- ToolHelp.h - --help of the warp tools ---------------------*- C++
//-*-===//
//
// The warp tools print their --help through upstream drivers (MlirOptMain,
// JitRunnerMain) that build the option list inside themselves, so neither
// the overview nor the grouping of what they print can be changed before it
// is printed. These helpers run such a driver in a child process and hand
// its output back to the tool, which rewrites it and prints it.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TOOLCHAIN_TOOLHELP_H
#define WARPDIALECT_TOOLCHAIN_TOOLHELP_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlir {
namespace warp {

/// Whether a command-line argument asks for help (--help, -help-hidden,
/// --help-list, ...).
bool isHelpFlag(StringRef arg);

/// Whether any argument after the program name asks for help.
bool hasHelpFlag(int argc, char **argv);

/// What a child process wrote to its stdout, and how it ended.
struct CapturedOutput {
  std::string text;
  /// The exit status, or 1 where the child did not exit normally.
  int status = 1;
};

/// Runs `body` in a forked child process whose stdout is a pipe, and returns
/// what it wrote there (llvm::outs() and stdio) and the status it exited
/// with (`body`'s result where it returns, the status it passed to exit()
/// where it exits itself). std::nullopt where no child could be started;
/// then `body` has not run.
std::optional<CapturedOutput> runCapturingStdout(function_ref<int()> body);

} // namespace warp
} // namespace mlir

#endif // WARPDIALECT_TOOLCHAIN_TOOLHELP_H
