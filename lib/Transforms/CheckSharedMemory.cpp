//===- CheckSharedMemory.cpp - static shared memory per kernel ------------===//
//
// The expansions size each workgroup buffer of a gpu.module for its largest
// user and check that buffer alone; this pass adds up what one kernel
// actually reaches (attributions, and the workgroup globals read by it or
// its callees) against the 48 KiB a block can have.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/PlantedBugs.h"
#include "WarpDialect/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
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

/// The bytes one element of `type` takes in an array, as LLVM allocates it
/// (its alloc size: the store size rounded up to the ABI alignment), or
/// std::nullopt for a type with no known layout. Scalars (i1 takes a byte,
/// index its data layout's width, 64 bits by default) and complex numbers
/// take `layout`'s size and alignment. A 1-D vector becomes an LLVM vector,
/// whose elements LLVM packs (<8 x i1> is one byte) and which is naturally
/// aligned: its store size rounded up to a power of two, so vector<3xf32>
/// takes 16 bytes and vector<3xf16> 8. An n-D vector becomes nested arrays
/// of 1-D vectors.
std::optional<uint64_t> elementBytes(Type type, const DataLayout &layout) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable() || vector.getRank() == 0)
      return std::nullopt;
    Type element = vector.getElementType();
    if (!isa<IntegerType, FloatType, IndexType>(element))
      return std::nullopt;
    uint64_t inner = vector.getShape().back();
    uint64_t bits = inner * layout.getTypeSizeInBits(element).getFixedValue();
    uint64_t bytes = llvm::PowerOf2Ceil(llvm::divideCeil(bits, 8));
    return bytes * (vector.getNumElements() / inner);
  }
  if (isa<IntegerType, FloatType, IndexType, ComplexType,
          DataLayoutTypeInterface>(type)) {
    llvm::TypeSize size = layout.getTypeSize(type);
    if (size.isScalable())
      return std::nullopt;
    return llvm::alignTo(
        size.getFixedValue(),
        std::max<uint64_t>(1, layout.getTypeABIAlignment(type)));
  }
  return std::nullopt;
}

/// The bytes `type` occupies as a variable, rounded up to the 16 bytes
/// warp-align-gpu-memory gives it, or std::nullopt when its shape is not
/// static (the verifiers of attributions and globals reject that) or its
/// element type has no known size.
std::optional<uint64_t> variableBytes(MemRefType type,
                                      const DataLayout &layout) {
  if (!type.hasStaticShape())
    return std::nullopt;
  uint64_t bytes;
  if (warp::isBugPlanted(warp::PlantedBug::SharedMemoryVectorElements)) {
    // The old computation (planted for test/Generative): crashes on a
    // vector (or index) element and undercounts i1.
    uint64_t bits = type.getElementTypeBitWidth() * type.getNumElements();
    bytes = llvm::divideCeil(bits, 8);
  } else {
    std::optional<uint64_t> element =
        elementBytes(type.getElementType(), layout);
    if (!element)
      return std::nullopt;
    bytes = *element * type.getNumElements();
  }
  return llvm::alignTo(bytes, warp::kDeviceVariableAlignment);
}

struct WarpCheckSharedMemoryPass
    : warp::impl::WarpCheckSharedMemoryPassBase<WarpCheckSharedMemoryPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SymbolTable symbols(module);
    DataLayout layout = DataLayout::closest(module);
    bool failed = false;
    // A static workgroup variable whose element type has no known size in
    // memory (no data layout: nothing lowers it to LLVM either) is an error
    // at `at`, once per variable.
    DenseSet<void *> unsized;
    auto checkSized = [&](MemRefType type, void *key, Location at) {
      if (warp::isBugPlanted(warp::PlantedBug::SharedMemoryVectorElements) ||
          !type.hasStaticShape() ||
          elementBytes(type.getElementType(), layout) ||
          !unsized.insert(key).second)
        return;
      emitError(at) << "cannot size workgroup memory of type " << type
                    << ": its element type has no known size in memory";
      failed = true;
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
        checkSized(type, attribution.getAsOpaquePointer(),
                   attribution.getLoc());
        if (std::optional<uint64_t> bytes = variableBytes(type, layout))
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
        if (!isWorkgroup(global.getType()))
          continue;
        checkSized(global.getType(), global.getOperation(), global.getLoc());
        if (std::optional<uint64_t> bytes =
                variableBytes(global.getType(), layout))
          parts.push_back({"@" + global.getSymName().str(), *bytes});
      }
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
