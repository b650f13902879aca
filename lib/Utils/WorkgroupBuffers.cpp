//===- WorkgroupBuffers.cpp - the expansions' workgroup memory -----------===//

#include "WarpDialect/Utils/WorkgroupBuffers.h"

#include "WarpDialect/IR/BlockSize.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::warp;

SmallVector<SmallVector<Operation *>>
mlir::warp::groupByBufferScope(gpu::GPUModuleOp module,
                               ArrayRef<Operation *> ops) {
  if (ops.empty())
    return {};
  // Functions that call one another, in one class.
  SymbolTable symbols(module);
  llvm::EquivalenceClasses<Operation *> scopes;
  for (Operation &function : module.getBody()->getOperations()) {
    scopes.insert(&function);
    function.walk([&](CallOpInterface call) {
      auto callee = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
      if (!callee)
        return;
      if (Operation *target = symbols.lookup(callee.getLeafReference()))
        scopes.unionSets(&function, target);
    });
  }
  SmallVector<SmallVector<Operation *>> groups;
  DenseMap<Operation *, unsigned> groupOf;
  for (Operation *op : ops) {
    // The op of the module's body that holds `op` (its function).
    Operation *function = module.getBody()->findAncestorOpInBlock(*op);
    Operation *leader = function ? scopes.getLeaderValue(function) : nullptr;
    auto [it, inserted] = groupOf.try_emplace(leader, groups.size());
    if (inserted)
      groups.emplace_back();
    groups[it->second].push_back(op);
  }
  return groups;
}

void WorkgroupBuffers::reserve(StringRef name, Type element, unsigned slot,
                               int64_t elements, uint64_t alignment,
                               bool growExisting) {
  Request &request = requests[Key{name, element, slot}];
  request.elements = std::max(request.elements, elements);
  request.alignment = std::max(request.alignment, alignment);
  request.growExisting |= growExisting;
}

void WorkgroupBuffers::allocate() {
  for (auto &[key, request] : requests) {
    memref::GlobalOp &buffer = buffers[key];
    if (!buffer && request.growExisting)
      buffer = module.lookupSymbol<memref::GlobalOp>(std::get<0>(key));
    if (!buffer) {
      buffer = create(key, request);
      continue;
    }
    MemRefType type = buffer.getType();
    if (type.getNumElements() < request.elements)
      buffer.setType(MemRefType::get({request.elements},
                                     type.getElementType(),
                                     MemRefLayoutAttrInterface(),
                                     type.getMemorySpace()));
  }
}

memref::GlobalOp WorkgroupBuffers::getOrCreate(StringRef name, Type element,
                                               unsigned slot, int64_t elements,
                                               uint64_t alignment) {
  Key key{name, element, slot};
  memref::GlobalOp &buffer = buffers[key];
  if (!buffer)
    buffer = create(key, Request{elements, alignment});
  return buffer;
}

Value WorkgroupBuffers::read(OpBuilder &b, Location loc,
                             memref::GlobalOp buffer) {
  return memref::GetGlobalOp::create(b, loc, buffer.getType(),
                                     buffer.getSymName());
}

memref::GlobalOp WorkgroupBuffers::create(const Key &key,
                                          const Request &request) {
  auto [name, element, slot] = key;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto workgroup = gpu::AddressSpaceAttr::get(module.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto type = MemRefType::get({request.elements}, element,
                              MemRefLayoutAttrInterface(), workgroup);
  auto global = memref::GlobalOp::create(
      b, module.getLoc(), name, b.getStringAttr("private"), type,
      /*initial_value=*/Attribute(), /*constant=*/false,
      request.alignment ? b.getI64IntegerAttr(request.alignment)
                        : IntegerAttr());
  symbols.insert(global); // renames it if the name is taken
  return global;
}

namespace {
/// The attribute of allocateWarpSliceBuffer's ops and buffers: the bytes
/// between two warps' slices.
constexpr llvm::StringLiteral kWarpSliceBytesAttrName = "warp.slice_bytes";
} // namespace

LogicalResult mlir::warp::allocateWarpSliceBuffer(
    gpu::GPUModuleOp module, StringRef name, unsigned alignment,
    ArrayRef<Operation *> ops, function_ref<uint64_t(Operation *)> sliceBytes,
    uint64_t sharedLimit, StringRef what) {
  if (auto existing = module.lookupSymbol<memref::GlobalOp>(name)) {
    SymbolTable table(module);
    if (failed(table.renameToUnique(existing, {})))
      return existing.emitOpError("cannot be renamed");
  }
  Type i64 = IntegerType::get(module.getContext(), 64);
  uint64_t bytes = 0, largest = 0;
  for (ArrayRef<Operation *> scope : groupByBufferScope(module, ops)) {
    uint64_t slice = 0;
    for (Operation *op : scope)
      slice = std::max(slice, sliceBytes(op));
    for (Operation *op : scope) {
      int64_t threads =
          getKnownBlockThreads(op->getParentOfType<gpu::GPUFuncOp>())
              .value_or(kMaxBlockThreads);
      uint64_t needed = llvm::divideCeil(threads, kWarpSize) * slice;
      if (needed > sharedLimit)
        return op->emitOpError()
               << "needs " << needed << " bytes of shared memory per block ("
               << needed / slice << " warps of " << slice << ", the largest "
               << what << " its kernel may run), more than the "
               << sharedLimit
               << " of static shared memory: give the gpu.func a smaller "
                  "known_block_size";
      op->setAttr(kWarpSliceBytesAttrName, IntegerAttr::get(i64, slice));
      bytes = std::max(bytes, needed);
    }
    largest = std::max(largest, slice);
  }
  WorkgroupBuffers buffers(module);
  Type i8 = IntegerType::get(module.getContext(), 8);
  buffers.reserve(name, i8, /*slot=*/0, int64_t(bytes), alignment);
  buffers.allocate();
  buffers.lookup(name, i8, /*slot=*/0)
      ->setAttr(kWarpSliceBytesAttrName, IntegerAttr::get(i64, largest));
  return success();
}

std::optional<uint64_t> mlir::warp::getWarpSliceBytes(Operation *op) {
  if (auto bytes = op->getAttrOfType<IntegerAttr>(kWarpSliceBytesAttrName))
    return bytes.getInt();
  return std::nullopt;
}
