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

/// The checks both ops share: host code, the kind's domain, one element
/// type, and memrefs a kernel can take as they are.
static LogicalResult verifyDeviceOp(Operation *op, CombineKind kind,
                                    Value input, Value output) {
  if (op->getParentOfType<gpu::GPUModuleOp>() ||
      op->getParentOfType<gpu::LaunchOp>())
    return op->emitOpError()
           << "runs in host code (it launches kernels), not inside a "
              "gpu.module or gpu.launch";
  auto inputType = cast<MemRefType>(input.getType());
  auto outputType = cast<MemRefType>(output.getType());
  if (inputType.getElementType() != outputType.getElementType())
    return op->emitOpError() << "takes one element type, got "
                             << inputType.getElementType() << " and "
                             << outputType.getElementType();
  if (failed(verifyKindMatchesType(op, kind, inputType.getElementType())))
    return failure();
  for (auto [name, type] : {std::pair<StringRef, MemRefType>{"input", inputType},
                            {"output", outputType}}) {
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
  return success();
}
