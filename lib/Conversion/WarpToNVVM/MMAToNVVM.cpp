//===- MMAToNVVM.cpp - gpu.subgroup_mma_* to NVVM wmma, through loops -----===//
//
// Upstream lowers the gpu.subgroup_mma_* ops to nvvm.wmma.* inside
// convert-gpu-to-nvvm, but its pipeline runs convert-nvgpu-to-nvvm first,
// whose structural scf conversion uses a type converter that does not know
// !gpu.mma_matrix: a loop carrying an accumulator fails to legalize. This
// pass lowers the MMA ops earlier, on device code, with upstream's patterns,
// and converts the fragments that scf and cf ops carry with upstream's
// structural type conversions, so every later pass sees LLVM structs.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Conversion/Passes.h"

#include "WarpDialect/Target/Chip.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>

namespace mlir::warp {
#define GEN_PASS_DEF_WARPCONVERTMMATONVVMPASS
#include "WarpDialect/Conversion/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

/// The shapes (m, n, k) of PTX's wmma instructions; which element types each
/// takes is NVVM's table (the getIntrinsicID functions), asked below.
constexpr std::array<std::array<int, 3>, 7> kWmmaShapes = {{{16, 16, 16},
                                                            {32, 8, 16},
                                                            {8, 32, 16},
                                                            {16, 16, 8},
                                                            {8, 8, 4},
                                                            {8, 8, 32},
                                                            {8, 8, 128}}};

/// The PTX type of a fragment, as upstream's lowering picks it: f32 A/B
/// fragments are tf32 operands, f32 C/D fragments f32 accumulators.
std::optional<NVVM::MMATypes> getPtxType(gpu::MMAMatrixType type) {
  Type element = type.getElementType();
  if (element.isF16())
    return NVVM::MMATypes::f16;
  if (element.isF32())
    return type.getOperand() == "COp" ? NVVM::MMATypes::f32
                                      : NVVM::MMATypes::tf32;
  if (element.isF64())
    return NVVM::MMATypes::f64;
  if (element.isSignedInteger(8))
    return NVVM::MMATypes::s8;
  if (element.isUnsignedInteger(8))
    return NVVM::MMATypes::u8;
  if (element.isInteger(32))
    return NVVM::MMATypes::s32;
  return std::nullopt;
}

NVVM::MMAFrag getFragment(gpu::MMAMatrixType type) {
  if (type.getOperand() == "AOp")
    return NVVM::MMAFrag::a;
  if (type.getOperand() == "BOp")
    return NVVM::MMAFrag::b;
  return NVVM::MMAFrag::c;
}

/// The (rows, columns) of the `frag` fragment of an m x n x k wmma.
std::array<int, 2> fragmentShape(std::array<int, 3> mnk, NVVM::MMAFrag frag) {
  auto [m, n, k] = mnk;
  switch (frag) {
  case NVVM::MMAFrag::a:
    return {m, k};
  case NVVM::MMAFrag::b:
    return {k, n};
  case NVVM::MMAFrag::c:
    return {m, n};
  }
  llvm_unreachable("unknown fragment");
}

/// Whether PTX can load (and, for accumulators, store) `type` as a fragment
/// of the m x n x k wmma.
bool hasWmmaFragment(std::array<int, 3> mnk, NVVM::MMATypes ptxType,
                     NVVM::MMAFrag frag) {
  auto [m, n, k] = mnk;
  return NVVM::WMMALoadOp::getIntrinsicID(m, n, k, NVVM::MMALayout::row,
                                          ptxType, frag) != 0;
}

/// "16x8 (m16n16k8)" or "16x16 (m16n16k16, m16n16k8), ...": the fragments of
/// `ptxType` that PTX has and the wmma shapes they belong to, for a
/// diagnostic.
std::string listFragmentShapes(NVVM::MMATypes ptxType, NVVM::MMAFrag frag) {
  llvm::MapVector<std::pair<int, int>, SmallVector<std::string>> shapes;
  for (std::array<int, 3> mnk : kWmmaShapes) {
    if (!hasWmmaFragment(mnk, ptxType, frag))
      continue;
    std::array<int, 2> shape = fragmentShape(mnk, frag);
    shapes[{shape[0], shape[1]}].push_back(llvm::formatv(
        "m{0}n{1}k{2}", mnk[0], mnk[1], mnk[2]));
  }
  if (shapes.empty())
    return "none";
  std::string list;
  llvm::raw_string_ostream os(list);
  llvm::ListSeparator separator(", ");
  for (const auto &[shape, names] : shapes)
    os << separator << shape.first << "x" << shape.second << " ("
       << llvm::join(names, ", ") << ")";
  return list;
}

/// Checks one fragment type against PTX's table and the chip.
LogicalResult checkFragment(Operation *op, gpu::MMAMatrixType type,
                            const Chip &chip) {
  std::optional<NVVM::MMATypes> ptxType = getPtxType(type);
  bool isAccumulator = type.getOperand() == "COp";
  std::optional<unsigned> minSm =
      Chip::wmmaMinSmVersion(type.getElementType(), isAccumulator);
  if (!ptxType || !minSm)
    return op->emitOpError("PTX wmma takes no fragment of ") << type;
  if (chip.smVersion < *minSm)
    return op->emitOpError("PTX wmma with ")
           << NVVM::stringifyMMATypes(*ptxType) << " fragments needs sm_"
           << *minSm << " or newer; the target chip is " << chip.str();
  NVVM::MMAFrag frag = getFragment(type);
  ArrayRef<int64_t> shape = type.getShape();
  bool found = llvm::any_of(kWmmaShapes, [&](std::array<int, 3> mnk) {
    std::array<int, 2> fragShape = fragmentShape(mnk, frag);
    return fragShape[0] == shape[0] && fragShape[1] == shape[1] &&
           hasWmmaFragment(mnk, *ptxType, frag);
  });
  if (!found)
    return op->emitOpError("PTX wmma has no ")
           << shape[0] << "x" << shape[1] << " "
           << NVVM::stringifyMMAFrag(frag).upper() << " fragment of "
           << NVVM::stringifyMMATypes(*ptxType) << " (" << type
           << "); it has " << listFragmentShapes(*ptxType, frag);
  return success();
}

/// Checks that PTX has the m x n x k wmma.mma a compute op asks for.
LogicalResult checkCompute(gpu::SubgroupMmaComputeOp op) {
  gpu::MMAMatrixType a = op.getOpA().getType();
  gpu::MMAMatrixType c = op.getOpC().getType();
  std::optional<NVVM::MMATypes> aType = getPtxType(a);
  std::optional<NVVM::MMATypes> cType = getPtxType(c);
  if (!aType || !cType)
    return failure(); // checkFragment reported it
  int m = c.getShape()[0], n = c.getShape()[1], k = a.getShape()[1];
  if (NVVM::WMMAMmaOp::getIntrinsicID(m, n, k, NVVM::MMALayout::row,
                                      NVVM::MMALayout::row, *aType,
                                      *cType) != 0)
    return success();
  return op.emitOpError("PTX wmma has no m")
         << m << "n" << n << "k" << k << " multiply of "
         << NVVM::stringifyMMATypes(*aType) << " into "
         << NVVM::stringifyMMATypes(*cType);
}

/// Checks that upstream's NVVM lowering handles the elementwise kind: MLIR
/// 22's lowers addf, mulf, divf, maxf and minf, and crashes (an unreachable
/// switch default) on subf, extf, negatef and the integer kinds.
LogicalResult checkElementwise(gpu::SubgroupMmaElementwiseOp op) {
  switch (op.getOpType()) {
  case gpu::MMAElementwiseOp::ADDF:
  case gpu::MMAElementwiseOp::MULF:
  case gpu::MMAElementwiseOp::DIVF:
  case gpu::MMAElementwiseOp::MAXF:
  case gpu::MMAElementwiseOp::MINF:
    return success();
  default:
    return op.emitOpError("'")
           << gpu::stringifyMMAElementwiseOp(op.getOpType())
           << "' has no NVVM lowering (upstream lowers addf, mulf, divf, maxf "
              "and minf on fragments)";
  }
}

/// Reports every MMA op PTX has no wmma for, so that none reaches the
/// conversion as an anonymous "failed to legalize" or the backend as an
/// instruction it cannot select.
LogicalResult checkMMAOps(Operation *root, const Chip &chip) {
  bool ok = true;
  root->walk([&](Operation *op) {
    if (!isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
             gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp,
             gpu::SubgroupMmaElementwiseOp>(op))
      return;
    SmallVector<gpu::MMAMatrixType> fragments;
    for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                        op->getResultTypes()))
      if (auto fragment = dyn_cast<gpu::MMAMatrixType>(type))
        fragments.push_back(fragment);
    for (gpu::MMAMatrixType fragment : fragments)
      if (failed(checkFragment(op, fragment, chip))) {
        ok = false;
        return;
      }
    if (auto compute = dyn_cast<gpu::SubgroupMmaComputeOp>(op))
      ok &= succeeded(checkCompute(compute));
    if (auto elementwise = dyn_cast<gpu::SubgroupMmaElementwiseOp>(op))
      ok &= succeeded(checkElementwise(elementwise));
  });
  return success(ok);
}

struct WarpConvertMMAToNVVMPass
    : public warp::impl::WarpConvertMMAToNVVMPassBase<
          WarpConvertMMAToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    std::optional<Chip> target = Chip::parse(chip);
    if (!target) {
      mlir::emitError(root->getLoc(), Chip::unknownChipMessage(chip));
      return signalPassFailure();
    }
    bool hasMMA = false;
    root->walk([&](Operation *op) {
      hasMMA |= isa<gpu::GPUDialect>(op->getDialect()) &&
                op->getName().getStringRef().starts_with(
                    "gpu.subgroup_mma_");
    });
    if (!hasMMA)
      return;
    if (failed(checkMMAOps(root, *target)))
      return signalPassFailure();

    MLIRContext *context = &getContext();
    // The MMA patterns need the full LLVM type converter (memref
    // descriptors, indices, GPU address spaces, fragments) ...
    const auto &dataLayout = getAnalysis<DataLayoutAnalysis>();
    LowerToLLVMOptions options(context, dataLayout.getAtOrAbove(root));
    LLVMTypeConverter llvmConverter(context, options, &dataLayout);
    configureGpuToNVVMTypeConverter(llvmConverter);
    // ... but control flow only needs its fragments converted: index loops
    // and memref values stay for the passes that own them.
    TypeConverter fragmentConverter;
    fragmentConverter.addConversion([](Type type) { return type; });
    fragmentConverter.addConversion([](gpu::MMAMatrixType type) -> Type {
      return convertMMAToLLVMType(type);
    });

    RewritePatternSet patterns(context);
    ConversionTarget conversionTarget(*context);
    conversionTarget.markUnknownOpDynamicallyLegal(
        [](Operation *) { return true; });
    conversionTarget.addIllegalOp<
        gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
        gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp,
        gpu::SubgroupMmaElementwiseOp>();
    populateGpuWMMAToNVVMConversionPatterns(llvmConverter, patterns);
    scf::populateSCFStructuralTypeConversionsAndLegality(
        fragmentConverter, patterns, conversionTarget);
    cf::populateCFStructuralTypeConversionsAndLegality(
        fragmentConverter, patterns, conversionTarget);
    if (failed(applyPartialConversion(root, conversionTarget,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
