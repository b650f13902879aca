//===- AllUpstream.cpp - warpRegisterAllUpstream with all of MLIR ---------===//
//
// libWarpCAPI.so links against libMLIR.so, so registering every upstream
// dialect, extension, translation and pass costs it nothing in size.

#include "WarpDialect-c/Warp.h"

#include "mlir/CAPI/IR.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include <mutex>

bool warpRegisterAllUpstream(MlirDialectRegistry registry) {
  mlir::registerAllDialects(*unwrap(registry));
  mlir::registerAllExtensions(*unwrap(registry));
  mlir::registerAllToLLVMIRTranslations(*unwrap(registry));
  static std::once_flag once;
  std::call_once(once, [] { mlir::registerAllPasses(); });
  return true;
}
