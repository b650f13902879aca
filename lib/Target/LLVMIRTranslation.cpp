//===- LLVMIRTranslation.cpp - warp attributes in LLVM IR -----------------===//
//
// The NVVM intrinsics of the lowered collectives are convergent by their
// declarations; inline PTX that synchronizes the warp (the predicated scan
// step, WarpToNVVM.cpp) is not, unless its call says so, as clang marks every
// inline asm call in CUDA code. This interface makes each call that carries
// warp's convergent mark a convergent call, so LLVM never duplicates it into
// paths the lanes take apart, nor moves it across control flow.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Target/LLVMIRTranslation.h"

#include "WarpDialect/IR/WarpDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "llvm/IR/InstrTypes.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

struct WarpLLVMTranslationInterface : public LLVMTranslationDialectInterface {
  using LLVMTranslationDialectInterface::LLVMTranslationDialectInterface;

  LogicalResult
  amendOperation(Operation *, ArrayRef<llvm::Instruction *> instructions,
                 NamedAttribute attribute,
                 LLVM::ModuleTranslation &) const override {
    if (attribute.getName() != kConvergentAttrName)
      return success();
    for (llvm::Instruction *instruction : instructions)
      if (auto *call = dyn_cast<llvm::CallBase>(instruction))
        call->addFnAttr(llvm::Attribute::Convergent);
    return success();
  }
};

} // namespace

void mlir::warp::registerWarpDialectTranslation(DialectRegistry &registry) {
  registry.insert<WarpDialect>();
  registry.addExtension(+[](MLIRContext *, WarpDialect *dialect) {
    dialect->addInterfaces<WarpLLVMTranslationInterface>();
  });
}
