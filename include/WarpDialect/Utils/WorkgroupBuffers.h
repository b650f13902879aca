//===- WorkgroupBuffers.h - the expansions' workgroup memory ----*- C++ -*-===//
//
// The one allocator of the workgroup memory the expansions add to a
// gpu.module (block scratch and raking buffers, block and warp exchange
// buffers).
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_UTILS_WORKGROUPBUFFERS_H
#define WARPDIALECT_UTILS_WORKGROUPBUFFERS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

#include <tuple>

namespace mlir::warp {

/// The ops of `ops` (in a gpu.module) in groups that may share workgroup
/// buffers, each group in the order of `ops`, the groups in the order of
/// their first op: ops of functions that call one another, directly or
/// through others (a connected part of the module's call graph), form one
/// group. A block gets only the shared memory its kernel reaches, so
/// buffers shared by unrelated kernels would give each the largest
/// kernel's: each group gets buffers of its own (a WorkgroupBuffers each).
SmallVector<SmallVector<Operation *>>
groupByBufferScope(gpu::GPUModuleOp module, ArrayRef<Operation *> ops);

/// Allocates the buffer `name` (i8, `alignment`) of `module` that the
/// warp-level ops `ops` (in its functions) take one slice of per warp.
/// Every op of a buffer scope takes slices of the scope's largest
/// `sliceBytes` (recorded as the op's getWarpSliceBytes): with a slice of
/// its own size each, warp 1's slice of a small op would lie in warp 0's
/// of a larger one, which warp 0 may run at the same time. The buffer holds
/// the most any op's block needs (its known block size's warps, else 32);
/// a failure, with a diagnostic at the op naming `what`, where that passes
/// `sharedLimit` bytes. A buffer `name` an earlier run made (its code has
/// its slices built in) is renamed and left to that code.
LogicalResult
allocateWarpSliceBuffer(gpu::GPUModuleOp module, StringRef name,
                        unsigned alignment, ArrayRef<Operation *> ops,
                        function_ref<uint64_t(Operation *)> sliceBytes,
                        uint64_t sharedLimit, StringRef what);

/// The bytes between two warps' slices for `op`, as allocateWarpSliceBuffer
/// recorded them (none where it did not).
std::optional<uint64_t> getWarpSliceBytes(Operation *op);

/// The workgroup buffers of one gpu.module: private, uninitialized
/// memref.globals of one dimension in `#gpu.address_space<workgroup>` at
/// the start of the module. A buffer is named by its users' `name`, its
/// element type (any, vectors too) and a `slot` that tells apart several
/// buffers of one name and type (e.g. two f32 values of one tuple); its
/// symbol is `name`, or a fresh variant where that is taken. Names are
/// string literals (the allocator keeps the reference). Each buffer
/// holds the largest request made for it: users reserve() what they need,
/// then allocate() creates the buffers in the order of their first request;
/// a user that needs its buffer at once calls getOrCreate().
class WorkgroupBuffers {
public:
  explicit WorkgroupBuffers(gpu::GPUModuleOp module)
      : module(module), symbols(module) {}

  /// Asks for `elements` elements in the buffer (`name`, `element`, `slot`)
  /// aligned to `alignment` bytes (0: the element's natural alignment).
  /// With `growExisting`, a global already named `name` (an earlier run's)
  /// is that buffer, grown to the request, rather than a symbol to avoid.
  void reserve(StringRef name, Type element, unsigned slot, int64_t elements,
               uint64_t alignment = 0, bool growExisting = false);

  /// Creates every reserved buffer that does not exist yet, and grows
  /// those that do to their largest request.
  void allocate();

  /// The buffer, created with `elements` elements where it does not exist
  /// yet.
  memref::GlobalOp getOrCreate(StringRef name, Type element, unsigned slot,
                               int64_t elements, uint64_t alignment = 0);

  /// The buffer, or null where it was not allocated.
  memref::GlobalOp lookup(StringRef name, Type element, unsigned slot) const {
    return buffers.lookup(Key{name, element, slot});
  }

  /// `memref.get_global` of `buffer` at the builder's point.
  static Value read(OpBuilder &builder, Location loc, memref::GlobalOp buffer);

private:
  using Key = std::tuple<StringRef, Type, unsigned>;
  struct Request {
    int64_t elements = 0;
    uint64_t alignment = 0;
    bool growExisting = false;
  };

  memref::GlobalOp create(const Key &key, const Request &request);

  gpu::GPUModuleOp module;
  SymbolTable symbols;
  llvm::MapVector<Key, Request> requests;
  DenseMap<Key, memref::GlobalOp> buffers;
};

} // namespace mlir::warp

#endif // WARPDIALECT_UTILS_WORKGROUPBUFFERS_H
