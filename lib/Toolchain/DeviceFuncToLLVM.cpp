//===- DeviceFuncToLLVM.cpp - func ops in a gpu.module to LLVM ------------===//
//
// The func part of convert-gpu-to-nvvm, run before it: that pass asks for a
// C-interface wrapper for every func.func of the gpu.module before converting
// it, which for a function defined there is a second function that stays in
// the PTX although nothing calls it. Upstream's convert-func-to-llvm, which
// would avoid that, runs on a whole builtin.module and at the host's index
// width.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::warp {
#define GEN_PASS_DEF_CONVERTDEVICEFUNCTOLLVMPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

struct ConvertDeviceFuncToLLVMPass
    : public warp::impl::ConvertDeviceFuncToLLVMPassBase<
          ConvertDeviceFuncToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // Without functions the IR stays as it is (and unverified again).
    if (module.getOps<func::FuncOp>().empty())
      return markAllAnalysesPreserved();
    // The type converter convert-gpu-to-nvvm builds, so that the functions
    // and their callers agree with what it converts next.
    LowerToLLVMOptions options(&getContext(),
                               DataLayout(cast<DataLayoutOpInterface>(
                                   module.getOperation())));
    if (indexBitwidth != 0)
      options.overrideIndexBitwidth(indexBitwidth);
    options.useBarePtrCallConv = useBarePtrCallConv;
    LLVMTypeConverter converter(&getContext(), options);
    configureGpuToNVVMTypeConverter(converter);
    // A function declared without a body is called through its C interface
    // (`_mlir_ciface_<name>`, a pointer to each memref descriptor), as
    // convert-gpu-to-nvvm has it: the convention of the library that defines
    // it. Functions defined here get no wrapper.
    for (auto function : module.getOps<func::FuncOp>())
      if (function.isExternal())
        function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                          UnitAttr::get(&getContext()));
    // What upstream's conversion drops: `no_inline` (LLVM's noinline) and
    // private visibility (internal linkage, a `.func` without `.visible`).
    DenseSet<StringAttr> noInline, internal;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.getNoInline())
        noInline.insert(function.getSymNameAttr());
      if (function.isPrivate() && !function.isExternal())
        internal.insert(function.getSymNameAttr());
    }
    RewritePatternSet patterns(&getContext());
    populateFuncToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(getContext());
    // A function that cannot be converted (a dynamic memref with bare
    // pointers) is an error here, not an llvm.call of a func.func later.
    target.addIllegalDialect<func::FuncDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      if (noInline.contains(function.getSymNameAttr()))
        function.setNoInline(true);
      if (internal.contains(function.getSymNameAttr())) {
        function.setLinkage(LLVM::Linkage::Internal);
        function->removeAttr(SymbolTable::getVisibilityAttrName());
      }
    }
  }
};

} // namespace
