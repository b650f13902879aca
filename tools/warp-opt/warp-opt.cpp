//===- warp-opt.cpp - mlir-opt with the warp dialect ----------------------===//
//
// An mlir-opt compatible driver: the warp dialect, its passes and pipelines,
// plus the upstream dialects and passes a GPU program needs.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Pipelines/Pipelines.h"
#include "WarpDialect/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/thread.h"

/// The driver thread's stack.
static constexpr unsigned kDriverStackBytes = 1u << 30;

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "warp version " WARP_VERSION "\n"; });
  mlir::registerAllPasses();
  mlir::warp::registerWarpPasses();
  mlir::warp::registerWarpPipelines();

  mlir::DialectRegistry registry;
  mlir::warp::registerWarpDialectsAndExtensions(registry);
  // mlir-opt compatible: every upstream dialect, extension and translation.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  // MLIR's parser, verifier and printer recurse once per nested region: on
  // the main thread's 8 MiB stack a few thousand nested regions overflow it.
  // A large stack (reserved, not committed) turns that into ~100x deeper IR.
  int result = 1;
  llvm::thread driver(std::optional<unsigned>(kDriverStackBytes), [&] {
    result = mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, "warp optimizer and lowering driver\n", registry));
  });
  driver.join();
  return result;
}
