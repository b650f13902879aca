//===- BlockSize.cpp - what a gpu.func's known_block_size says ------------===//
//
// BlockSize.h.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/BlockSize.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

std::optional<std::array<int64_t, 3>>
mlir::warp::getKnownBlockSize(Operation *op) {
  auto func = dyn_cast<gpu::GPUFuncOp>(op);
  if (!func)
    func = op->getParentOfType<gpu::GPUFuncOp>();
  std::optional<ArrayRef<int32_t>> known =
      func ? func.getKnownBlockSize() : std::nullopt;
  if (!func) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!function)
      function = op->getParentOfType<FunctionOpInterface>();
    if (auto callers = function ? function->getAttrOfType<DenseI32ArrayAttr>(
                                      kCallersBlockSizeAttrName)
                                : DenseI32ArrayAttr())
      known = callers.asArrayRef();
  }
  // The attribute's constraint makes it 3 sizes.
  if (!known || known->size() != 3)
    return std::nullopt;
  return std::array<int64_t, 3>{(*known)[0], (*known)[1], (*known)[2]};
}

std::optional<int64_t> mlir::warp::getKnownBlockThreads(Operation *op) {
  std::optional<std::array<int64_t, 3>> known = getKnownBlockSize(op);
  if (!known)
    return std::nullopt;
  int64_t threads = 1;
  for (int64_t size : *known)
    threads *= std::max<int64_t>(size, 1);
  return threads;
}

int64_t mlir::warp::getMaxBlockThreads(Operation *op) {
  return std::min(getKnownBlockThreads(op).value_or(kMaxBlockThreads),
                  kMaxBlockThreads);
}

std::optional<int64_t> mlir::warp::getTileThreads(Operation *op) {
  if (auto tile = op->getAttrOfType<IntegerAttr>("tile"))
    return tile.getInt();
  return std::nullopt;
}

std::optional<int64_t> mlir::warp::getKnownGroupThreads(Operation *op) {
  if (std::optional<int64_t> tile = getTileThreads(op))
    return tile;
  return getKnownBlockThreads(op);
}

int64_t mlir::warp::getMaxTiles(Operation *op, int64_t tileThreads) {
  return std::min(getMaxBlockThreads(op) / tileThreads, kMaxTiles);
}
