//===- BlockSize.h - what a gpu.func's known_block_size says ----*- C++ -*-===//
//
// One reading of `known_block_size` for the verifiers, the expansions and the
// checks that size buffers or fold the block geometry by it.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_IR_BLOCKSIZE_H
#define WARPDIALECT_IR_BLOCKSIZE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>

namespace mlir::warp {

/// The most threads a block can have (CUDA), for what is sized per thread
/// where a gpu.func has no known_block_size.
constexpr int64_t kMaxBlockThreads = 1024;

/// The discardable attribute (`array<i32: x, y, z>`) of a device function
/// into which warp-outline-block-collectives moved a kernel's block op: the
/// block size of the kernels that call it.
inline constexpr llvm::StringLiteral kCallersBlockSizeAttrName =
    "warp.callers_block_size";

/// The x, y, z sizes of the known_block_size of the gpu.func around `op` (or
/// of `op`, a gpu.func), if it has one; in a function of outlined block ops,
/// its callers' (kCallersBlockSizeAttrName).
std::optional<std::array<int64_t, 3>> getKnownBlockSize(Operation *op);

/// The threads of a block of the gpu.func around `op`, from its
/// known_block_size (a size below 1 counts as 1), if it has one.
std::optional<int64_t> getKnownBlockThreads(Operation *op);

/// The most threads a block running `op` can have: its known block's,
/// else (and at most) kMaxBlockThreads.
int64_t getMaxBlockThreads(Operation *op);

/// Tiles of several warps (`tile N` on the block collectives,
/// `warp.tile_sync N`): N a power of two in [kMinTileThreads,
/// kMaxTileThreads], at most kMaxTiles tiles a block (one named barrier
/// each, 1 .. 15; barrier 0 is the block's).
constexpr int64_t kMinTileThreads = 64;
constexpr int64_t kMaxTileThreads = 512;
constexpr int64_t kMaxTiles = 15;

/// The `tile N` of a block collective, if it has one.
std::optional<int64_t> getTileThreads(Operation *op);

/// The threads that run the block collective `op` together: its tile's N,
/// else its known block's.
std::optional<int64_t> getKnownGroupThreads(Operation *op);

/// The most tiles of `tileThreads` a block running `op` can have: its
/// known block's count, else (and at most) kMaxTiles.
int64_t getMaxTiles(Operation *op, int64_t tileThreads);

} // namespace mlir::warp

#endif // WARPDIALECT_IR_BLOCKSIZE_H
