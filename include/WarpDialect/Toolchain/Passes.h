//===- Passes.h - the NVPTX toolchain around the dialect --------*- C++ -*-===//
//
// The passes that are not about warp ops (Passes.td says what each does) and
// the few facts the toolchain shares with the pipelines and tools.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TOOLCHAIN_PASSES_H
#define WARPDIALECT_TOOLCHAIN_PASSES_H

#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Target/Chip.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

#include <functional>

namespace mlir::warp {

/// The alignment warp-align-gpu-memory gives every device variable: the
/// widest access the NVPTX back end emits (ld/st .v4 of 32-bit values, .v2
/// of 64-bit values).
constexpr uint64_t kDeviceVariableAlignment = 16;

/// The command-line spellings of the output formats (upstream's
/// gpu::CompilationTarget), the one table warp-module-to-binary, the
/// pipelines and warp-cuda-runner read.
inline llvm::cl::ValuesClass compilationTargetValues() {
  return llvm::cl::values(
      clEnumValN(gpu::CompilationTarget::Offload, "llvm",
                 "LLVM bitcode (offloading; warp-module-to-binary only)"),
      clEnumValN(gpu::CompilationTarget::Assembly, "isa", "PTX text"),
      clEnumValN(gpu::CompilationTarget::Binary, "bin", "cubin (runs ptxas)"),
      clEnumValN(gpu::CompilationTarget::Fatbin, "fatbin",
                 "fatbinary (runs ptxas and fatbinary)"));
}

/// Whether `op` is async-dialect code: an async op, or an op with an operand
/// or result of an async type, or a function with one in its signature
/// (CheckLowerable.cpp). Host code like that needs the pipeline's `async`
/// lowering: warp-check-lowerable rejects it without, warp-cuda-runner
/// turns that lowering on when any op of a program is.
bool usesAsyncDialect(Operation *op);

/// warp-if-present running `passes`, in order, where `dialects` occur (its
/// options carry them in textual form, as printed pipelines show them).
std::unique_ptr<Pass>
createWarpIfPresentPass(ArrayRef<StringRef> dialects,
                        MutableArrayRef<std::unique_ptr<Pass>> passes);
/// The same for one pass.
std::unique_ptr<Pass> createWarpIfPresentPass(ArrayRef<StringRef> dialects,
                                              std::unique_ptr<Pass> pass);

/// Adds the patterns of an upstream pass to a set.
using PatternPopulator = std::function<void(RewritePatternSet &)>;
/// warp-if-present running `pass` where an op could be the root of one of
/// the patterns `populate` adds: for upstream passes that apply exactly
/// those patterns (the roots come from upstream's pattern set, not from a
/// list of op names kept here). Its printed form runs `pass` always, which
/// gives the same IR.
std::unique_ptr<Pass> createWarpIfPatternRootsPass(PatternPopulator populate,
                                                   std::unique_ptr<Pass> pass);

#define GEN_PASS_DECL
#include "WarpDialect/Toolchain/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "WarpDialect/Toolchain/Passes.h.inc"

/// Whether `name` can name a symbol in PTX as it is: a letter followed by
/// letters, digits, `_` or `$`, or one of `_ $ %` followed by at least one
/// of those; not `WARP_SZ`. warp-check-lowerable holds symbols to it.
bool isPTXIdentifier(StringRef name);

} // namespace mlir::warp

#endif // WARPDIALECT_TOOLCHAIN_PASSES_H
