//===- CheckSharedMemory.cpp - static shared memory per kernel ------------===//
//
// The expansions size each workgroup buffer of a gpu.module for its largest
// user and check that buffer alone; this pass adds up what one kernel
// actually reaches (attributions, and the workgroup globals read by it or
// its callees) against the 48 KiB a block can have.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPCHECKSHAREDMEMORYPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

bool isWorkgroup(MemRefType type) {
  return gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type);
}

/// The bytes `type` occupies as a variable, or std::nullopt when its shape
/// is not static (the verifiers of attributions and globals reject that).
std::optional<uint64_t> variableBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  uint64_t bits = type.getElementTypeBitWidth() * type.getNumElements();
  return llvm::alignTo(llvm::divideCeil(bits, 8),
                       warp::kDeviceVariableAlignment);
}

struct WarpCheckSharedMemoryPass
    : warp::impl::WarpCheckSharedMemoryPassBase<WarpCheckSharedMemoryPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SymbolTable symbols(module);
    bool failed = false;
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      // (what, bytes) of each part, then their sum.
      SmallVector<std::pair<std::string, uint64_t>> parts;
      for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
        auto type = dyn_cast<MemRefType>(attribution.getType());
        if (std::optional<uint64_t> bytes =
                type ? variableBytes(type) : std::nullopt)
          parts.push_back({"workgroup attribution #" +
                               std::to_string(attribution.getArgNumber() -
                                              kernel.getNumArguments()),
                           *bytes});
      }
      // The kernel and its callees, transitively; the globals they read.
      llvm::SetVector<Operation *> functions;
      llvm::SetVector<memref::GlobalOp> globals;
      functions.insert(kernel);
      for (unsigned i = 0; i < functions.size(); ++i) {
        functions[i]->walk([&](Operation *op) {
          if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
            if (auto global =
                    symbols.lookup<memref::GlobalOp>(get.getName()))
              globals.insert(global);
          } else if (auto call = dyn_cast<CallOpInterface>(op)) {
            if (auto callee =
                    dyn_cast<SymbolRefAttr>(call.getCallableForCallee()))
              if (Operation *function =
                      symbols.lookup(callee.getLeafReference()))
                functions.insert(function);
          }
        });
      }
      for (memref::GlobalOp global : globals)
        if (isWorkgroup(global.getType()))
          if (std::optional<uint64_t> bytes = variableBytes(global.getType()))
            parts.push_back({"@" + global.getSymName().str(), *bytes});
      uint64_t total = 0;
      for (auto &part : parts)
        total += part.second;
      if (total <= warp::kStaticSharedMemoryBytes)
        continue;
      llvm::sort(parts, [](auto &l, auto &r) {
        return l.second != r.second ? l.second > r.second : l.first < r.first;
      });
      InFlightDiagnostic diag = kernel.emitError()
                                << "kernel '" << kernel.getName() << "' uses "
                                << total
                                << " bytes of static shared memory, more "
                                   "than the "
                                << warp::kStaticSharedMemoryBytes
                                << " a block can have:";
      for (auto &part : parts)
        diag << " " << part.first << " " << part.second << " bytes"
             << (&part == &parts.back() ? "" : ",");
      diag << " (the expansions size each buffer of a gpu.module for its "
              "largest user: give the kernels smaller known_block_size or "
              "exchange fewer items)";
      failed = true;
    }
    if (failed)
      return signalPassFailure();
    // A check: the IR is unchanged, so the pass manager need not verify it
    // again.
    markAllAnalysesPreserved();
  }
};

} // namespace
