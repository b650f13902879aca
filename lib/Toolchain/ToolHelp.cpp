//===- ToolHelp.cpp - --help of the warp tools ----------------------------===//

#include "WarpDialect/Toolchain/ToolHelp.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;

bool warp::isHelpFlag(StringRef arg) {
  if (!arg.starts_with("-"))
    return false;
  arg = arg.ltrim('-');
  return arg == "help" || arg.starts_with("help-");
}

bool warp::hasHelpFlag(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (isHelpFlag(argv[i]))
      return true;
  return false;
}

std::optional<warp::CapturedOutput>
warp::runCapturingStdout(function_ref<int()> body) {
  int fds[2];
  if (pipe(fds) != 0)
    return std::nullopt;
  llvm::outs().flush();
  fflush(stdout);
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return std::nullopt;
  }
  if (child == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    close(fds[1]);
    int status = body();
    llvm::outs().flush();
    fflush(stdout);
    _exit(status);
  }
  close(fds[1]);
  CapturedOutput captured;
  char chunk[4096];
  for (ssize_t n; (n = read(fds[0], chunk, sizeof(chunk))) > 0;)
    captured.text.append(chunk, n);
  close(fds[0]);
  int status = 0;
  if (waitpid(child, &status, 0) != child)
    return captured;
  captured.status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  return captured;
}
