//===- LLVMIRTranslation.h - warp attributes in LLVM IR ---------*- C++ -*-===//
//
// What warp's discardable attributes mean when the LLVM dialect becomes LLVM
// IR: a collective marked by markConvergent (CombineKinds.h) is a convergent
// call.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TARGET_LLVMIRTRANSLATION_H
#define WARPDIALECT_TARGET_LLVMIRTRANSLATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::warp {

/// Registers the warp dialect's LLVM IR translation interface.
void registerWarpDialectTranslation(DialectRegistry &registry);

} // namespace mlir::warp

#endif // WARPDIALECT_TARGET_LLVMIRTRANSLATION_H
