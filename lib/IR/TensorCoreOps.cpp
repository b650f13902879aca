//===- TensorCoreOps.cpp - warp.mma_sync, warp.ldmatrix, warp.stmatrix ----===//
//
// The verifiers of the register-fragment tensor-core ops and the one table
// of which mma.sync multiplies PTX has (shape x element type x oldest chip),
// which the verifier and the lowering's chip check both ask.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/MemorySpaces.h"
#include "WarpDialect/IR/WarpDialect.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::warp;

int64_t mlir::warp::getMMASyncK(MMASyncShape shape) {
  switch (shape) {
  case MMASyncShape::M16N8K4:
    return 4;
  case MMASyncShape::M16N8K8:
    return 8;
  case MMASyncShape::M16N8K16:
    return 16;
  case MMASyncShape::M16N8K32:
    return 32;
  }
  llvm_unreachable("unknown mma.sync shape");
}

std::optional<unsigned> mlir::warp::getMMASyncMinSm(MMASyncShape shape,
                                                    Type input) {
  // PTX ISA, "Matrix shape" and "Target ISA notes" of mma: m16n8k8 .f16 came
  // with sm_75; the other m16n8 forms here with sm_80.
  int64_t k = getMMASyncK(shape);
  if (input.isF16() && (k == 8 || k == 16))
    return k == 8 ? 75 : 80;
  if (input.isBF16() && (k == 8 || k == 16))
    return 80;
  if (input.isF32() && (k == 4 || k == 8))
    return 80;
  if (input.isInteger(8) && (k == 16 || k == 32))
    return 80;
  // PTX 8.4 brought the fp8 m16n8k32 (sm_89); its m16n8k16 (PTX 8.7) is not
  // offered.
  if (isMMASyncFloat8(input) && k == 32)
    return 89;
  return std::nullopt;
}

bool mlir::warp::isMMASyncFloat8(Type element) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(element);
}

/// "k = 8, 16" for `input`, for a diagnostic.
static std::string listMMASyncShapes(Type input) {
  SmallVector<std::string> shapes;
  for (MMASyncShape shape :
       {MMASyncShape::M16N8K4, MMASyncShape::M16N8K8, MMASyncShape::M16N8K16,
        MMASyncShape::M16N8K32})
    if (getMMASyncMinSm(shape, input))
      shapes.push_back(stringifyMMASyncShape(shape).str());
  return llvm::join(shapes, ", ");
}

LogicalResult MMASyncOp::verify() {
  VectorType a = getA().getType(), b = getB().getType(), c = getC().getType();
  Type input = a.getElementType(), accumulator = c.getElementType();
  // The two fp8 formats mix (PTX takes .atype and .btype apart for them).
  if (b.getElementType() != input &&
      !(isMMASyncFloat8(input) && isMMASyncFloat8(b.getElementType())))
    return emitOpError() << "A and B must have one element type (or both be "
                            "fp8), not "
                         << a << " and " << b;
  StringRef shapeName = stringifyMMASyncShape(getShape());
  if (!getMMASyncMinSm(getShape(), input))
    return emitOpError() << "PTX mma.sync has no " << shapeName
                         << " multiply of " << input << "; it has "
                         << listMMASyncShapes(input) << " for " << input;
  int64_t k = getMMASyncK(getShape());
  auto checkLength = [&](StringRef what, VectorType type,
                         int64_t length) -> LogicalResult {
    if (type.getNumElements() == length)
      return success();
    return emitOpError() << what << " must be "
                         << VectorType::get({length}, type.getElementType())
                         << " (one lane's share of the " << shapeName
                         << " tile), not " << type;
  };
  // A is 16 x k, B k x 8, C 16 x 8, spread over 32 lanes.
  if (failed(checkLength("A", a, 16 * k / 32)) ||
      failed(checkLength("B", b, k * 8 / 32)) ||
      failed(checkLength("C", c, 16 * 8 / 32)))
    return failure();
  bool halfOrSingle = input.isF16() || isMMASyncFloat8(input);
  bool accumulatorOk = input.isInteger(8) ? accumulator.isInteger(32)
                       : halfOrSingle     ? accumulator.isF16() ||
                                            accumulator.isF32()
                                          : accumulator.isF32();
  if (!accumulatorOk)
    return emitOpError() << "a multiply of " << input
                         << " accumulates into "
                         << (input.isInteger(8) ? "i32"
                             : halfOrSingle     ? "f16 or f32"
                                                : "f32")
                         << ", not " << accumulator;
  if (!input.isInteger(8) && (getAUnsigned() || getBUnsigned() ||
                              getSatfinite()))
    return emitOpError() << "a_unsigned, b_unsigned and satfinite apply to "
                            "i8 multiplies only, not "
                         << input;
  return success();
}

/// The checks ldmatrix and stmatrix share: a memref in workgroup memory with
/// unit innermost stride, one index per dimension, the fragment's element
/// type and its 2 x count elements.
static LogicalResult verifyMatrixAccess(Operation *op, MemRefType memref,
                                        size_t indices, VectorType fragment,
                                        int64_t count) {
  if (!isWorkgroupMemory(memref))
    return op->emitOpError() << "needs a memref in workgroup memory, not "
                             << memref;
  if (memref.getRank() == 0 ||
      indices != static_cast<size_t>(memref.getRank()))
    return op->emitOpError()
           << "needs one index per dimension of a memref of rank 1 or more ("
           << memref << ", " << indices << " indices)";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return op->emitOpError()
           << "needs a memref whose innermost stride is 1 (a row's 8 "
              "elements are contiguous), not "
           << memref;
  if (memref.getElementType() != fragment.getElementType())
    return op->emitOpError() << "fragment " << fragment << " and memref "
                             << memref << " have different element types";
  if (fragment.getNumElements() != 2 * count)
    return op->emitOpError()
           << "a lane holds 2 elements of each of the " << count
           << " matrices: " << VectorType::get({2 * count},
                                               fragment.getElementType())
           << ", not " << fragment;
  return success();
}

LogicalResult LdMatrixOp::verify() {
  return verifyMatrixAccess(*this, getSrc().getType(), getIndices().size(),
                            getResult().getType(), getCount());
}

LogicalResult StMatrixOp::verify() {
  return verifyMatrixAccess(*this, getDst().getType(), getIndices().size(),
                            getValue().getType(), getCount());
}

bool mlir::warp::isTensorCoreOp(Operation *op) {
  return isa<MMALoadOp, MMAComputeOp, MMAStoreOp, MMASyncOp, LdMatrixOp,
             StMatrixOp, WgmmaDescriptorOp, WgmmaOp>(op);
}

bool mlir::warp::isLoweredWithDescriptors(Operation *op) {
  return isTensorCoreOp(op) || isa<LaneAtomicRMWOp>(op);
}

LogicalResult WgmmaDescriptorOp::verify() {
  MemRefType memref = getBuffer().getType();
  if (!isWorkgroupMemory(memref))
    return emitOpError() << "describes a tile in workgroup memory, not in "
                         << memref;
  if (getIndices().size() != static_cast<size_t>(memref.getRank()))
    return emitOpError() << "needs one index per dimension of " << memref
                         << ", got " << getIndices().size();
  for (auto [name, bytes] : {std::pair<StringRef, int64_t>{"leading",
                                                           getLeading()},
                             {"stride", getStride()}})
    if (bytes < 0 || bytes % 16 != 0 || bytes >= (int64_t(1) << 18))
      return emitOpError() << name
                           << " is a byte offset, a multiple of 16 from 0 "
                              "to 262128, not "
                           << bytes;
  return success();
}

LogicalResult WgmmaOp::verify() {
  Type input = getInput();
  bool isInt = input.isInteger(8);
  bool isSixteenBit = input.isF16() || input.isBF16();
  if (!isSixteenBit && !isInt && !input.isF32() &&
      !isa<Float8E4M3FNType, Float8E5M2Type>(input))
    return emitOpError() << "multiplies f16, bf16, f32 (as tf32), "
                            "f8E4M3FN, f8E5M2 or i8 tiles, not "
                         << input;
  Type accumulator = getAcc().getType().getElementType();
  if (accumulator != (isInt ? Type(IntegerType::get(getContext(), 32))
                            : Type(Float32Type::get(getContext()))))
    return emitOpError() << "a multiply of " << input << " accumulates into "
                         << (isInt ? "i32" : "f32") << ", not "
                         << accumulator;
  int64_t n = getN();
  bool nOk = n >= 8 && n <= 256 && n % 8 == 0 &&
             (!isInt || n <= 24 || n % 16 == 0);
  if (!nOk)
    return emitOpError()
           << "has an m64 x n accumulator of n / 2 per thread for n a "
           << (isInt ? "multiple of 8 up to 24, then of 16 up to 256"
                     : "multiple of 8 from 8 to 256")
           << "; " << getAcc().getType() << " would make n = " << n;
  if (!isSixteenBit && (getAMnMajor() || getBMnMajor()))
    return emitOpError() << "reads " << input
                         << " tiles K-major only (a_mn_major and b_mn_major "
                            "are for 16-bit inputs)";
  if (!isInt && (getAUnsigned() || getBUnsigned()))
    return emitOpError() << "a_unsigned and b_unsigned apply to i8 tiles "
                            "only, not "
                         << input;
  return success();
}
