//===- KernelIndexABI.cpp - 64-bit kernel ABI for 32-bit device index -----===//
//
// Device code lowered with a 32-bit index type takes i32 for every index
// parameter and memref descriptor field, but the host lowering (gpu-to-llvm)
// is 64-bit and passes i64 for them. warp-record-kernel-abi notes each
// kernel's source signature before the lowering; warp-widen-kernel-index-args
// then restores exactly those parameters to i64 and truncates them at entry.
// Which lowered parameter is which part of which source argument
// (getLoweredKernelParams) serves warp-mark-read-only-params too. The other
// facts of the kernel ABI that the pipeline's options set are here as well:
// the index width in the device data layout, and which memref arguments the
// bare-pointer convention can pass.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Toolchain/Passes.h"

#include "WarpDialect/Toolchain/KernelABI.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPRECORDKERNELABIPASS
#define GEN_PASS_DEF_WARPWIDENKERNELINDEXARGSPASS
#define GEN_PASS_DEF_WARPSETDEVICEINDEXBITWIDTHPASS
#define GEN_PASS_DEF_WARPCHECKBAREPTRARGSPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// The attribute holding a kernel's function type from before lowering.
constexpr llvm::StringLiteral kKernelABIAttrName = "warp.kernel_abi";

/// The lowered parameters of a kernel whose source signature is `source`,
/// memrefs as descriptors or, with `barePointers`, as one pointer each.
SmallVector<warp::LoweredKernelParam> layoutParams(FunctionType source,
                                                   bool barePointers) {
  using Role = warp::LoweredKernelParam::Role;
  SmallVector<warp::LoweredKernelParam> params;
  for (auto [i, type] : llvm::enumerate(source.getInputs())) {
    unsigned arg = i;
    auto add = [&](Role role, int64_t count = 1) {
      params.append(count, warp::LoweredKernelParam{arg, role});
    };
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (barePointers) {
        add(Role::BarePointer);
        continue;
      }
      add(Role::AllocatedPointer);
      add(Role::AlignedPointer);
      add(Role::Offset);
      add(Role::Size, memref.getRank());
      add(Role::Stride, memref.getRank());
    } else if (isa<UnrankedMemRefType>(type) && !barePointers) {
      add(Role::UnrankedRank);
      add(Role::UnrankedDescriptor);
    } else {
      add(Role::Value);
    }
  }
  return params;
}

} // namespace

FailureOr<SmallVector<warp::LoweredKernelParam>>
warp::getLoweredKernelParams(LLVM::LLVMFuncOp func, FunctionType source) {
  unsigned count = func.getFunctionType().getNumParams();
  for (bool barePointers : {false, true}) {
    SmallVector<LoweredKernelParam> params = layoutParams(source, barePointers);
    if (params.size() == count)
      return params;
  }
  return func.emitError()
         << "lowered kernel has " << count
         << " parameters, which matches neither calling convention of its "
            "source signature "
         << source;
}

namespace {

/// Whether `type` holds index values in memory (a memref or vector of
/// index, at any depth), whose element size the device index width changes.
bool holdsIndexElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && (isa<IndexType>(shaped.getElementType()) ||
                    holdsIndexElements(shaped.getElementType()));
}

struct WarpRecordKernelABIPass
    : warp::impl::WarpRecordKernelABIPassBase<WarpRecordKernelABIPass> {
  void runOnOperation() override {
    bool anyFailed = false;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
        if (holdsIndexElements(type)) {
          func.emitError() << "kernel parameter " << i << " (" << type
                           << ") holds index elements, whose size differs "
                              "between the 64-bit host and 32-bit device "
                              "index; use i64 or i32 elements";
          anyFailed = true;
        }
      }
      func->setAttr(kKernelABIAttrName, TypeAttr::get(func.getFunctionType()));
    });
    // A 64-bit address does not fit a 32-bit index: the lowering would
    // truncate it (and sign-extend it back) without a word. A workgroup
    // address is an offset into the block's shared memory, which fits.
    getOperation().walk([&](memref::ExtractAlignedPointerAsIndexOp op) {
      if (gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
              cast<MemRefType>(op.getSource().getType())))
        return;
      op.emitOpError("gives a 64-bit device address as an index, which "
                     "device-index-bitwidth=32 would truncate; compile this "
                     "module with device-index-bitwidth=64");
      anyFailed = true;
    });
    if (anyFailed)
      signalPassFailure();
  }
};

/// Whether the host passes lowered parameter `param` of a kernel whose
/// source signature is `source` as an index-width integer.
bool holdsIndex(const warp::LoweredKernelParam &param, FunctionType source) {
  using Role = warp::LoweredKernelParam::Role;
  switch (param.role) {
  case Role::Offset:
  case Role::Size:
  case Role::Stride:
  case Role::UnrankedRank:
    return true;
  case Role::Value:
    return isa<IndexType>(source.getInput(param.sourceArg));
  default:
    return false;
  }
}

struct WarpWidenKernelIndexArgsPass
    : warp::impl::WarpWidenKernelIndexArgsPassBase<
          WarpWidenKernelIndexArgsPass> {
  void runOnOperation() override {
    bool anyFailed = false;
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto abi = func->getAttrOfType<TypeAttr>(kKernelABIAttrName);
      if (!abi)
        return;
      func->removeAttr(kKernelABIAttrName);
      if (failed(widen(func, cast<FunctionType>(abi.getValue()))))
        anyFailed = true;
    });
    if (anyFailed)
      signalPassFailure();
  }

  LogicalResult widen(LLVM::LLVMFuncOp func, FunctionType source) {
    FailureOr<SmallVector<warp::LoweredKernelParam>> lowered =
        warp::getLoweredKernelParams(func, source);
    if (failed(lowered))
      return failure();

    LLVM::LLVMFunctionType type = func.getFunctionType();
    OpBuilder b(func.getContext());
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    SmallVector<Type> params(type.getParams());
    for (unsigned i = 0, e = params.size(); i < e; ++i) {
      if (!holdsIndex((*lowered)[i], source) || params[i] == i64)
        continue;
      if (params[i] != i32)
        return func.emitError() << "kernel parameter " << i << " is "
                                << params[i]
                                << " where an index value was expected";
      params[i] = i64;
    }
    func.setFunctionType(LLVM::LLVMFunctionType::get(
        type.getReturnType(), params, type.isVarArg()));
    if (func.isExternal())
      return success();

    Block &entry = func.getBody().front();
    b.setInsertionPointToStart(&entry);
    for (BlockArgument arg : entry.getArguments()) {
      if (arg.getType() != i32 || params[arg.getArgNumber()] != i64)
        continue;
      arg.setType(i64);
      if (arg.use_empty())
        continue;
      auto narrow = LLVM::TruncOp::create(b, arg.getLoc(), i32, arg);
      arg.replaceAllUsesExcept(narrow.getResult(), narrow.getOperation());
    }
    return success();
  }
};

} // namespace

namespace {

struct WarpSetDeviceIndexBitwidthPass
    : warp::impl::WarpSetDeviceIndexBitwidthPassBase<
          WarpSetDeviceIndexBitwidthPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    unsigned bitwidth = this->bitwidth;
    auto indexType = IndexType::get(context);
    SmallVector<DataLayoutEntryInterface> entries;
    if (Attribute existing = module->getAttr(DLTIDialect::kDataLayoutAttrName)) {
      auto spec = dyn_cast<DataLayoutSpecAttr>(existing);
      if (!spec) {
        module.emitError() << "device-index-bitwidth=" << bitwidth
                           << " cannot be added to the data layout "
                           << existing;
        return signalPassFailure();
      }
      for (DataLayoutEntryInterface entry : spec.getEntries()) {
        if (entry.getKey() != DataLayoutEntryKey(indexType)) {
          entries.push_back(entry);
          continue;
        }
        auto width = dyn_cast<IntegerAttr>(entry.getValue());
        if (!width || width.getValue() != bitwidth) {
          module.emitError()
              << "the data layout's index width " << entry.getValue()
              << " contradicts device-index-bitwidth=" << bitwidth;
          return signalPassFailure();
        }
        return;
      }
    }
    entries.push_back(DataLayoutEntryAttr::get(
        indexType, IntegerAttr::get(IntegerType::get(context, 64), bitwidth)));
    module->setAttr(DLTIDialect::kDataLayoutAttrName,
                    DataLayoutSpecAttr::get(context, entries));
  }
};

struct WarpCheckBarePtrArgsPass
    : warp::impl::WarpCheckBarePtrArgsPassBase<WarpCheckBarePtrArgsPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](FunctionOpInterface func) {
      auto check = [&](StringRef what, unsigned index, Type type) {
        auto memref = dyn_cast<BaseMemRefType>(type);
        if (!memref || LLVMTypeConverter::canConvertToBarePtr(memref))
          return;
        func->emitError()
            << what << " #" << index << " of type " << type
            << " cannot be passed as a bare pointer (the bare-pointer "
               "calling convention of bare-ptr-memref and "
               "host-bare-ptr-memref needs memrefs of static shape, strides "
               "and offset)";
        failedAny = true;
      };
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        check("argument", index, type);
      for (auto [index, type] : llvm::enumerate(func.getResultTypes()))
        check("result", index, type);
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
