//===- DeviceOps.cpp - warp.device_reduce, warp.device_scan ---------------===//
//
// The verifiers of the host-level device-wide collectives. What they take
// is what warp-expand-device-ops' kernels can read: contiguous 1-D memrefs
// in device memory, outside any kernel.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/IR/WarpDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::warp;

/// What the verifiers call operand `number` of a device op.
static StringRef getOperandName(Operation *op, unsigned number) {
  if (isa<DeviceSelectOp, DevicePartitionOp>(op))
    return std::array<StringRef, 4>{"input", "flags", "output", "count"}[number];
  if (isa<DeviceUniqueOp>(op))
    return std::array<StringRef, 3>{"input", "output", "count"}[number];
  if (isa<DeviceHistogramOp>(op))
    return number == 0 ? "samples" : "bins";
  if (isa<DeviceScanOp>(op))
    return std::array<StringRef, 3>{"input", "output", "keys"}[number];
  return number == 0 ? "input" : "output";
}

/// The checks every device op shares: host code, and memrefs a kernel can
/// take as they are.
static LogicalResult verifyDeviceMemRefs(Operation *op) {
  if (op->getParentOfType<gpu::GPUModuleOp>() ||
      op->getParentOfType<gpu::LaunchOp>())
    return op->emitOpError()
           << "runs in host code (it launches kernels), not inside a "
              "gpu.module or gpu.launch";
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = cast<MemRefType>(operand.get().getType());
    StringRef name = getOperandName(op, operand.getOperandNumber());
    if (!type.getLayout().isIdentity())
      return op->emitOpError() << "needs a contiguous " << name
                               << " (the identity layout), got " << type;
    // Host code passes device memory in the default space (what gpu.alloc
    // gives); the kernels take it so.
    if (type.getMemorySpace())
      return op->emitOpError() << "needs its " << name
                               << " in the default memory space (device memory "
                                  "from gpu.alloc or a frontend), got "
                               << type;
  }
  return success();
}

/// The checks reduce and scan share: the kind's domain, one element type.
static LogicalResult verifyDeviceOp(Operation *op, CombineKind kind,
                                    Value input, Value output) {
  if (failed(verifyDeviceMemRefs(op)))
    return failure();
  auto inputType = cast<MemRefType>(input.getType());
  auto outputType = cast<MemRefType>(output.getType());
  if (inputType.getElementType() != outputType.getElementType())
    return op->emitOpError() << "takes one element type, got "
                             << inputType.getElementType() << " and "
                             << outputType.getElementType();
  return verifyKindMatchesType(op, kind, inputType.getElementType());
}

LogicalResult DeviceReduceOp::verify() {
  if (failed(verifyDeviceOp(*this, getKind(), getInput(), getOutput())))
    return failure();
  if (getOutput().getType().getDimSize(0) == 0)
    return emitOpError() << "writes one element, but its output has none";
  return success();
}

LogicalResult DeviceScanOp::verify() {
  if (failed(verifyDeviceOp(*this, getKind(), getInput(), getOutput())))
    return failure();
  int64_t in = getInput().getType().getDimSize(0);
  int64_t out = getOutput().getType().getDimSize(0);
  if (!ShapedType::isDynamic(in) && !ShapedType::isDynamic(out) && out < in)
    return emitOpError() << "writes " << in << " elements, but its output has "
                         << out;
  if (!getKeys())
    return success();
  // A scan by key: a key per element, read while other tiles write.
  int64_t keys = getKeys().getType().getDimSize(0);
  if (!ShapedType::isDynamic(in) && !ShapedType::isDynamic(keys) && keys < in)
    return emitOpError() << "needs a key per element: " << in << " elements, "
                         << keys << " keys";
  if (getKeys() == getOutput())
    return emitOpError() << "cannot write its keys (a tile reads the key "
                            "before it while the tile before writes)";
  if (getClusterBlocks())
    return emitOpError() << "takes cluster_blocks or keys, not both";
  return success();
}

/// The checks select, partition and unique share: one element type, a flag
/// per element (not unique's), a count; and for a partition an output for
/// every element.
template <typename SelectionOp>
static LogicalResult verifySelection(SelectionOp op, bool everyElement) {
  if (failed(verifyDeviceMemRefs(op)))
    return failure();
  MemRefType input = op.getInput().getType(), output = op.getOutput().getType();
  if (input.getElementType() != output.getElementType())
    return op.emitOpError() << "takes one element type, got "
                            << input.getElementType() << " and "
                            << output.getElementType();
  int64_t in = input.getDimSize(0);
  if constexpr (!std::is_same_v<SelectionOp, DeviceUniqueOp>) {
    int64_t flags = op.getFlags().getType().getDimSize(0);
    if (!ShapedType::isDynamic(in) && !ShapedType::isDynamic(flags) && flags < in)
      return op.emitOpError() << "needs a flag per element: " << in
                              << " elements, " << flags << " flags";
  }
  int64_t out = output.getDimSize(0);
  if (everyElement && !ShapedType::isDynamic(in) && !ShapedType::isDynamic(out) &&
      out < in)
    return op.emitOpError() << "writes " << in << " elements, but its output has "
                            << out;
  if (op.getCount().getType().getDimSize(0) == 0)
    return op.emitOpError() << "writes the count, but its count has no element";
  return success();
}

LogicalResult DeviceSelectOp::verify() {
  return verifySelection(*this, /*everyElement=*/false);
}

LogicalResult DevicePartitionOp::verify() {
  return verifySelection(*this, /*everyElement=*/true);
}

LogicalResult DeviceUniqueOp::verify() {
  return verifySelection(*this, /*everyElement=*/false);
}

LogicalResult DeviceHistogramOp::verify() { return verifyDeviceMemRefs(*this); }
