//===- CheckSharedMemory.cpp - static shared memory per kernel ------------===//
//
// The expansions size each workgroup buffer for the largest op of the
// kernels that share it (WorkgroupBuffers.h) and check that buffer alone;
// this pass adds up what one kernel actually reaches (attributions, and
// the workgroup globals read by it or its callees) against the 48 KiB a
// block can have. Workgroup memory that cannot be sized (a dynamic shape,
// an element type without a layout, a size past 64 bits) or that an
// allocation op asks for is an error here: the lowering would otherwise
// turn it into wrong code or no variable at all.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/MemorySpaces.h"
#include "WarpDialect/IR/PlantedBugs.h"
#include "WarpDialect/Toolchain/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPCHECKSHAREDMEMORYPASS
#include "WarpDialect/Toolchain/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;

namespace {

/// `bytes` times the extents of `shape`, or std::nullopt when the product
/// does not fit in 64 bits (a shape's own element count is an int64_t
/// product that could wrap silently).
std::optional<uint64_t> timesExtents(uint64_t bytes, ArrayRef<int64_t> shape) {
  std::optional<uint64_t> product = bytes;
  for (int64_t extent : shape) {
    product = llvm::checkedMulUnsigned(*product, uint64_t(extent));
    if (!product)
      return std::nullopt;
  }
  return product;
}

/// Why a workgroup variable has no size.
enum class Unsized { DynamicShape, UnknownElement, TooLarge };

/// The bytes one element of `type` takes in an array, as LLVM allocates it
/// (its alloc size: the store size rounded up to the ABI alignment), or
/// failure for a type with no known layout. Scalars (i1 takes a byte,
/// index its data layout's width, 64 bits by default) and complex numbers
/// take `layout`'s size and alignment. A 1-D vector becomes an LLVM vector,
/// whose elements LLVM packs (<8 x i1> is one byte) and which is naturally
/// aligned: its store size rounded up to a power of two, so vector<3xf32>
/// takes 16 bytes and vector<3xf16> 8. An n-D vector becomes nested arrays
/// of 1-D vectors. A vector whose size does not fit in 64 bits gives
/// Unsized::TooLarge.
FailureOr<uint64_t> elementBytes(Type type, const DataLayout &layout,
                                 Unsized &why) {
  why = Unsized::UnknownElement;
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable() || vector.getRank() == 0)
      return failure();
    Type element = vector.getElementType();
    if (!isa<IntegerType, FloatType, IndexType>(element))
      return failure();
    why = Unsized::TooLarge;
    std::optional<uint64_t> bits =
        timesExtents(layout.getTypeSizeInBits(element).getFixedValue(),
                     vector.getShape().take_back());
    // PowerOf2Ceil of more than 2^63 bytes would wrap to 0.
    if (!bits || llvm::divideCeil(*bits, 8) > (uint64_t(1) << 63))
      return failure();
    uint64_t bytes = llvm::PowerOf2Ceil(llvm::divideCeil(*bits, 8));
    std::optional<uint64_t> total =
        timesExtents(bytes, vector.getShape().drop_back());
    if (!total)
      return failure();
    return *total;
  }
  if (isa<IntegerType, FloatType, IndexType, ComplexType,
          DataLayoutTypeInterface>(type)) {
    llvm::TypeSize size = layout.getTypeSize(type);
    if (size.isScalable())
      return failure();
    return llvm::alignTo(
        size.getFixedValue(),
        std::max<uint64_t>(1, layout.getTypeABIAlignment(type)));
  }
  return failure();
}

/// The bytes `type` occupies as a variable, rounded up to the 16 bytes
/// warp-align-gpu-memory gives it, or failure with `why` it has no size: a
/// shape that is not static (memref.global's verifier rejects it, a
/// workgroup attribution's does not), an element type with no known size,
/// or a size past 64 bits.
FailureOr<uint64_t> variableBytes(MemRefType type, const DataLayout &layout,
                                  Unsized &why) {
  why = Unsized::DynamicShape;
  if (!type.hasStaticShape())
    return failure();
  uint64_t bytes;
  if (warp::isBugPlanted(warp::PlantedBug::SharedMemoryVectorElements)) {
    // The old computation (planted for test/Generative): crashes on a
    // vector (or index) element and undercounts i1.
    uint64_t bits = type.getElementTypeBitWidth() * type.getNumElements();
    bytes = llvm::divideCeil(bits, 8);
  } else {
    FailureOr<uint64_t> element =
        elementBytes(type.getElementType(), layout, why);
    if (failed(element))
      return failure();
    why = Unsized::TooLarge;
    std::optional<uint64_t> product = timesExtents(*element, type.getShape());
    if (!product)
      return failure();
    bytes = *product;
  }
  why = Unsized::TooLarge;
  if (bytes > std::numeric_limits<uint64_t>::max() -
                  (warp::kDeviceVariableAlignment - 1))
    return failure();
  return llvm::alignTo(bytes, warp::kDeviceVariableAlignment);
}

struct WarpCheckSharedMemoryPass
    : warp::impl::WarpCheckSharedMemoryPassBase<WarpCheckSharedMemoryPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    FailureOr<warp::Chip> chip = warp::getLoweringChip(module);
    if (mlir::failed(chip))
      return signalPassFailure();
    const uint64_t limit = chip->staticSharedMemoryBytes();
    SymbolTable symbols(module);
    DataLayout layout = DataLayout::closest(module);
    bool failed = false;
    // Workgroup memory is declared per block, with a size known before the
    // launch: an allocation op cannot ask for it (the lowering would turn
    // memref.alloc into a malloc of global memory and memref.alloca into
    // thread-local stack, then address either as shared memory).
    module.walk([&](Operation *op) {
      for (Value result : op->getResults()) {
        auto type = dyn_cast<MemRefType>(result.getType());
        if (!type || !warp::isWorkgroupMemory(type) ||
            !hasEffect<MemoryEffects::Allocate>(op, result))
          continue;
        op->emitOpError()
            << "cannot allocate workgroup memory (" << type
            << "): declare it as a workgroup attribution of the gpu.func "
               "or a memref.global in the workgroup address space";
        failed = true;
      }
    });
    // The bytes of each workgroup variable, keyed by the attribution or
    // global, or std::nullopt for one that cannot be sized: that is an error
    // at `at`, once per variable (a global may serve several kernels).
    DenseMap<void *, std::optional<uint64_t>> sizes;
    auto sizeOf = [&](MemRefType type, void *key,
                      Location at) -> std::optional<uint64_t> {
      auto [it, inserted] = sizes.try_emplace(key);
      if (!inserted)
        return it->second;
      Unsized why;
      FailureOr<uint64_t> bytes = variableBytes(type, layout, why);
      if (succeeded(bytes))
        return it->second = *bytes;
      if (warp::isBugPlanted(warp::PlantedBug::SharedMemoryVectorElements))
        return std::nullopt;
      InFlightDiagnostic diag = emitError(at)
                                << "cannot size workgroup memory of type "
                                << type << ": ";
      switch (why) {
      case Unsized::DynamicShape:
        diag << "its shape is not static (workgroup memory is allocated "
                "statically, per block)";
        break;
      case Unsized::UnknownElement:
        diag << "its element type has no known size in memory";
        break;
      case Unsized::TooLarge:
        diag << "it takes more bytes than 64 bits can count";
        break;
      }
      failed = true;
      return std::nullopt;
    };
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      // (what, bytes) of each part, then their sum.
      SmallVector<std::pair<std::string, uint64_t>> parts;
      for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
        auto type = dyn_cast<MemRefType>(attribution.getType());
        if (!type)
          continue;
        if (std::optional<uint64_t> bytes =
                sizeOf(type, attribution.getAsOpaquePointer(),
                       attribution.getLoc()))
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
      for (memref::GlobalOp global : globals) {
        if (!warp::isWorkgroupMemory(global.getType()))
          continue;
        if (std::optional<uint64_t> bytes = sizeOf(
                global.getType(), global.getOperation(), global.getLoc()))
          parts.push_back({"@" + global.getSymName().str(), *bytes});
      }
      // std::nullopt once the sum no longer fits in 64 bits.
      std::optional<uint64_t> total = 0;
      for (auto &part : parts)
        if (total)
          total = llvm::checkedAddUnsigned(*total, part.second);
      if (total && *total <= limit)
        continue;
      llvm::sort(parts, [](auto &l, auto &r) {
        return l.second != r.second ? l.second > r.second : l.first < r.first;
      });
      InFlightDiagnostic diag = kernel.emitError()
                                << "kernel '" << kernel.getName() << "' uses "
                                << (total ? std::to_string(*total)
                                          : "2^64 or more")
                                << " bytes of static shared memory, more "
                                   "than the "
                                << limit
                                << " a block can have:";
      for (auto &part : parts)
        diag << " " << part.first << " " << part.second << " bytes"
             << (&part == &parts.back() ? "" : ",");
      diag << " (each buffer is sized for the largest op of the kernels "
              "that share it: give the kernels smaller known_block_size or "
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
