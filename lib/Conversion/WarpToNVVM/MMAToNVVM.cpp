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
// It also lowers warp's own MMA ops (warp.mma_load, warp.mma_compute,
// warp.mma_store), whose fragments are plain vectors and which take bf16, to
// calls of LLVM's llvm.nvvm.wmma.* intrinsics: NVVM's wmma ops have no bf16.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Conversion/Passes.h"
#include "WarpDialect/IR/CombineKinds.h"

#include "WarpDialect/IR/MemorySpaces.h"
#include "WarpDialect/IR/WarpDialect.h"
#include "WarpDialect/Target/Chip.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/InlinePTX.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>

namespace mlir::warp {
#define GEN_PASS_DEF_CONVERTWARPMMATONVVMPASS
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

/// Fails, with a diagnostic at `op`, where `chip` is older than sm_`minSm`,
/// the first to have `what` ("PTX wmma with f16 fragments").
LogicalResult checkChip(Operation *op, const Twine &what, unsigned minSm,
                        const Chip &chip) {
  if (chip.smVersion >= minSm)
    return success();
  return op->emitOpError(what)
         << " needs sm_" << minSm << " or newer; the target chip is "
         << chip.str();
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
  if (failed(checkChip(op,
                       "PTX wmma with " +
                           NVVM::stringifyMMATypes(*ptxType) + " fragments",
                       *minSm, chip)))
    return failure();
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
  bool is8BitInteger =
      *aType == NVVM::MMATypes::s8 || *aType == NVVM::MMATypes::u8;
  // PTX has these, but MLIR 22 crashes translating them to LLVM IR.
  if (is8BitInteger && m != n)
    return op.emitOpError("the m")
           << m << "n" << n << "k" << k << " multiply of "
           << NVVM::stringifyMMATypes(*aType)
           << " has no working NVVM lowering; 8-bit integer wmma takes "
              "m16n16k16 here";
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

/// The chip each op lowers for (getLoweringChip), looked up once per
/// gpu.module, so that a module's bad target is reported once, not at
/// every MMA op in it.
/// PTX wmma loads and stores fragments from global or shared memory (or a
/// generic address of them): a gpu.subgroup_mma_load_matrix or
/// store_matrix on another space (private, constant) has no lowering.
LogicalResult checkMemorySpace(Operation *op) {
  Value memref;
  if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op))
    memref = load.getSrcMemref();
  else if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
    memref = store.getDstMemref();
  else
    return success();
  auto type = cast<MemRefType>(memref.getType());
  if (isGlobalOrWorkgroupSpace(type.getMemorySpace()))
    return success();
  return op->emitOpError("PTX wmma moves fragments through global or "
                         "workgroup memory, not ")
         << type;
}

class ChipsByModule {
public:
  std::optional<Chip> get(Operation *op) {
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    auto [it, inserted] = chips.try_emplace(module.getOperation());
    if (inserted) {
      FailureOr<Chip> chip = getLoweringChip(op);
      if (succeeded(chip))
        it->second = *chip;
    }
    return it->second;
  }

private:
  DenseMap<Operation *, std::optional<Chip>> chips;
};

/// Reports every MMA op PTX has no wmma for, so that none reaches the
/// conversion as an anonymous "failed to legalize" or the backend as an
/// instruction it cannot select.
LogicalResult checkMMAOps(Operation *root, ChipsByModule &chips) {
  bool ok = true;
  root->walk([&](Operation *op) {
    if (!isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
             gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp,
             gpu::SubgroupMmaElementwiseOp>(op))
      return;
    std::optional<Chip> chip = chips.get(op);
    if (!chip) {
      ok = false;
      return;
    }
    SmallVector<gpu::MMAMatrixType> fragments;
    for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                        op->getResultTypes()))
      if (auto fragment = dyn_cast<gpu::MMAMatrixType>(type))
        fragments.push_back(fragment);
    for (gpu::MMAMatrixType fragment : fragments)
      if (failed(checkFragment(op, fragment, *chip))) {
        ok = false;
        return;
      }
    if (failed(checkMemorySpace(op))) {
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

//===----------------------------------------------------------------------===//
// warp.mma_* to llvm.nvvm.wmma.* intrinsic calls
//===----------------------------------------------------------------------===//

/// The PTX type name of a warp.mma_* fragment: f32 A/B fragments are tf32.
StringRef getWarpPtxType(Type element, MMAOperand operand) {
  if (element.isF16())
    return "f16";
  if (element.isBF16())
    return "bf16";
  return operand == MMAOperand::C ? "f32" : "tf32";
}

/// The register type of a fragment in the intrinsics' signatures: f16 in
/// pairs (`<2 x half>`), bf16 pairs and tf32 in i32, f32 accumulators as
/// they are.
Type getWarpRegisterType(Type element, MMAOperand operand) {
  MLIRContext *context = element.getContext();
  if (element.isF16())
    return VectorType::get({2}, element);
  if (element.isBF16() || operand != MMAOperand::C)
    return IntegerType::get(context, 32);
  return element;
}

/// The oldest chip with the warp.mma_* fragment (Chip's table; m16n16k8 is
/// tf32's, sm_80).
unsigned getWarpMinSm(MMAShape shape, Type element, MMAOperand operand) {
  unsigned minSm =
      *Chip::wmmaMinSmVersion(element, operand == MMAOperand::C);
  return shape == MMAShape::M16N16K8 ? std::max(minSm, 80u) : minSm;
}

/// The fragment registers of `fragment` (a vector<N x T>): bitcast to 32-bit
/// words, then each word to the register type.
SmallVector<Value> unpackFragment(OpBuilder &b, Location loc, Value fragment,
                                  Type registerType) {
  auto type = cast<VectorType>(fragment.getType());
  Type i32 = b.getI32Type();
  Value words = fragment;
  int64_t count = type.getNumElements();
  if (registerType != type.getElementType()) {
    count = count * type.getElementTypeBitWidth() / 32;
    words = LLVM::BitcastOp::create(b, loc, VectorType::get({count}, i32),
                                    fragment);
  }
  SmallVector<Value> registers;
  for (int64_t index = 0; index < count; ++index) {
    Value word = LLVM::ExtractElementOp::create(
        b, loc, words, LLVM::ConstantOp::create(b, loc, i32, index));
    if (word.getType() != registerType)
      word = LLVM::BitcastOp::create(b, loc, registerType, word);
    registers.push_back(word);
  }
  return registers;
}

/// The inverse of unpackFragment: the registers of `registers` (an LLVM
/// struct) as a `type` fragment.
Value packFragment(OpBuilder &b, Location loc, Value registers,
                   VectorType type) {
  auto structType = cast<LLVM::LLVMStructType>(registers.getType());
  Type registerType = structType.getBody().front();
  int64_t count = structType.getBody().size();
  Type i32 = b.getI32Type();
  Type wordType = registerType == type.getElementType() ? registerType : i32;
  Value words =
      LLVM::PoisonOp::create(b, loc, VectorType::get({count}, wordType));
  for (int64_t index = 0; index < count; ++index) {
    Value word = LLVM::ExtractValueOp::create(b, loc, registers, index);
    if (word.getType() != wordType)
      word = LLVM::BitcastOp::create(b, loc, wordType, word);
    words = LLVM::InsertElementOp::create(
        b, loc, words, word, LLVM::ConstantOp::create(b, loc, i32, index));
  }
  if (words.getType() == type)
    return words;
  return LLVM::BitcastOp::create(b, loc, type, words);
}

/// The struct of `count` registers an intrinsic returns for `type`.
LLVM::LLVMStructType getRegisterStruct(VectorType type, MMAOperand operand) {
  Type registerType = getWarpRegisterType(type.getElementType(), operand);
  int64_t bits = isa<VectorType>(registerType) ? 32
                                               : registerType.getIntOrFloatBitWidth();
  int64_t count = type.getNumElements() * type.getElementTypeBitWidth() / bits;
  return LLVM::LLVMStructType::getLiteral(
      type.getContext(), SmallVector<Type>(count, registerType));
}

/// One convergent call of the wmma intrinsic `name` (no result for a null
/// `resultType`).
Value callWmma(ConversionPatternRewriter &rewriter, Location loc,
               Type resultType, const std::string &name, ValueRange arguments) {
  StringAttr intrinsic = rewriter.getStringAttr(name);
  auto call = resultType ? LLVM::CallIntrinsicOp::create(
                               rewriter, loc, resultType, intrinsic, arguments)
                         : LLVM::CallIntrinsicOp::create(rewriter, loc,
                                                         intrinsic, arguments);
  markConvergent(call);
  return resultType ? call.getResult(0) : Value();
}

/// The load and store patterns: operand `MemRefOperand` is the memref and
/// the next two its indices. Computes the element pointer of `memref[i, j]`,
/// the row stride as i32 and the pointer's address-space suffix (`p0`,
/// `p1`, `p3`) of the intrinsic's name, and hands them to rewrite().
template <typename Op, unsigned MemRefOperand>
struct WarpMMAMemoryPattern : public ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename Op::Adaptor;

  virtual void rewrite(Op op, OpAdaptor adaptor, Value pointer, Value stride,
                       StringRef space,
                       ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult
  matchAndRewrite(Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(op->getOperand(MemRefOperand).getType());
    ValueRange operands = adaptor.getOperands();
    Value descriptor = operands[MemRefOperand];
    Value pointer = this->getStridedElementPtr(
        rewriter, loc, type, descriptor,
        {operands[MemRefOperand + 1], operands[MemRefOperand + 2]});
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)type.getStridesAndOffset(strides, offset); // verified strided
    Type i32 = rewriter.getI32Type();
    Value stride;
    if (ShapedType::isDynamic(strides[0]))
      stride = LLVM::TruncOp::create(
          rewriter, loc, i32,
          MemRefDescriptor(descriptor).stride(rewriter, loc, 0));
    else
      stride = LLVM::ConstantOp::create(rewriter, loc, i32, strides[0]);
    unsigned space =
        cast<LLVM::LLVMPointerType>(pointer.getType()).getAddressSpace();
    rewrite(op, adaptor, pointer, stride, "p" + std::to_string(space),
            rewriter);
    return success();
  }
};

/// PTX `atom`'s operation and type for `kind` on `type`: `add.u32`,
/// `add.noftz.f16x2`, `max.s64`, `exch.b32`, ... (verified pairs only).
std::string getAtomOperation(AtomicKind kind, Type type) {
  Type element = getElementTypeOrSelf(type);
  unsigned bits = element.getIntOrFloatBitWidth();
  std::string width = std::to_string(bits);
  if (kind == AtomicKind::Exch)
    return "exch.b" + width;
  if (kind == AtomicKind::Add) {
    if (!isa<FloatType>(element))
      return "add.u" + width;
    // 16-bit adds exist only without flushing subnormals (.noftz).
    std::string name = element.isBF16() ? "bf16" : "f" + width;
    if (bits == 16)
      return "add.noftz." + name + (isa<VectorType>(type) ? "x2" : "");
    return "add." + name;
  }
  switch (kind) {
  case AtomicKind::MinSI:
    return "min.s" + width;
  case AtomicKind::MaxSI:
    return "max.s" + width;
  case AtomicKind::MinUI:
    return "min.u" + width;
  case AtomicKind::MaxUI:
    return "max.u" + width;
  default:
    return stringifyAtomicKind(kind).str() + ".b" + width;
  }
}

/// An atomic that PTX's atom lacks: a 16-bit exch (ptxas: "Arguments
/// mismatch for instruction 'atom'" on atom.exch.b16) and the float min/max
/// of CUDA's fminf/fmaxf (no scalar atom for them: sm_90's f16 and bf16
/// min and max exist only as vectors, which would write the neighbours
/// too, and f32/f64 have none). A compare-and-swap loop of
/// `atom.cas.b<bits>` (16, 32 or 64; b16 needs sm_70, every chip warp
/// accepts) that stores `update(old bits)` (an integer of `bits`) at
/// `pointer` (`address` as an integer). It touches the element alone: a
/// loop on the aligned 32-bit word of a 16-bit element would read past a
/// buffer that ends on its low half and race with the neighbour's atomics.
/// `atom` is the CAS's PTX up to the operation (`atom.relaxed.gpu.global.`),
/// so each attempt carries the op's order and scope. The first guess is a
/// relaxed load; each failed attempt retries with the bits it found (bits,
/// not values: a NaN or a zero of either sign ends the loop). Returns the
/// element's old bits.
Value buildCASLoop(ConversionPatternRewriter &rewriter, Location loc,
                   unsigned bits, Value pointer, Value address, StringRef atom,
                   function_ref<Value(Value)> update) {
  Type word = rewriter.getIntegerType(bits);
  StringRef constraint = bits == 16 ? "h" : bits == 32 ? "r" : "l";
  Value first = LLVM::LoadOp::create(
      rewriter, loc, word, pointer, /*alignment=*/bits / 8,
      /*isVolatile=*/false, /*isNonTemporal=*/false, /*isInvariant=*/false,
      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic);
  auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{word},
                                   ValueRange{first});
  OpBuilder::InsertionGuard guard(rewriter);
  Block *attempt =
      rewriter.createBlock(&loop.getBefore(), {}, TypeRange{word}, {loc});
  Value expected = attempt->getArgument(0);
  Value desired = update(expected);
  InlinePTX ptx(constraint);
  ptx << atom << ("cas.b" + std::to_string(bits)) << " $0, ["
      << ptx.operand(address, "l")
      << "], " << ptx.operand(expected, constraint) << ", "
      << ptx.operand(desired, constraint) << ";";
  Value found = ptx.createConvergent(rewriter, loc, word);
  Value retry = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne,
                                     found, expected);
  scf::ConditionOp::create(rewriter, loc, retry, ValueRange{found});
  Block *again =
      rewriter.createBlock(&loop.getAfter(), {}, TypeRange{word}, {loc});
  scf::YieldOp::create(rewriter, loc, again->getArguments());
  return loop.getResult(0);
}

/// warp.lane_atomic_rmw to one `atom.<sem>.<scope><.space>.<op>.<type>` in
/// inline PTX on the element's pointer (NVVM's atomicrmw drops the scope
/// and order, and has no packed 16-bit add): the value travels as an
/// integer register of its width ("h", "r" or "l"). A 16-bit exch and
/// every minnumf and maxnumf are a loop of
/// `atom.<sem>.<scope><.space>.cas.b<bits>` (buildCASLoop), the min/max the
/// dialect's minnumf/maxnumf (the combine of the group's scan).
struct LowerLaneAtomicRMW : public ConvertOpToLLVMPattern<LaneAtomicRMWOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(LaneAtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getValue().getType();
    unsigned bits = getAtomicBitWidth(type);
    Type word = rewriter.getIntegerType(bits);
    StringRef constraint = bits == 16 ? "h" : bits == 32 ? "r" : "l";
    Value pointer =
        getStridedElementPtr(rewriter, loc, op.getMemref().getType(),
                             adaptor.getMemref(), adaptor.getIndices());
    unsigned space =
        cast<LLVM::LLVMPointerType>(pointer.getType()).getAddressSpace();
    Value address =
        LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), pointer);
    auto toType = [&](Value v, Type to) -> Value {
      return v.getType() == to ? v
                               : LLVM::BitcastOp::create(rewriter, loc, to, v);
    };
    Value value = toType(adaptor.getValue(), word);
    std::string atom =
        ("atom." + stringifyMemoryOrder(op.getOrdering()) + "." +
         stringifyMemoryScope(op.getScope()) +
         (space == unsigned(NVVM::NVVMMemorySpace::Global)   ? ".global."
          : space == unsigned(NVVM::NVVMMemorySpace::Shared) ? ".shared."
                                                             : "."))
            .str();
    AtomicKind kind = op.getKind();
    // A bf16 add without atom.add.noftz.bf16 (below sm_90): atom.cas.b16.
    bool casAdd = false;
    if (kind == AtomicKind::Add && type.isBF16()) {
      FailureOr<Chip> chip = getLoweringChip(op);
      casAdd = failed(chip) || !chip->hasBF16AtomicAdd();
    }
    if ((bits == 16 && kind == AtomicKind::Exch) || casAdd ||
        isFloatMinMaxAtomic(kind)) {
      auto update = [&](Value found) -> Value {
        if (kind == AtomicKind::Exch)
          return value;
        Value combined =
            buildCombine(rewriter, loc, *getAtomicKindInfo(kind).combine,
                         toType(found, type), adaptor.getValue());
        return toType(combined, word);
      };
      Value old =
          buildCASLoop(rewriter, loc, bits, pointer, address, atom, update);
      rewriter.replaceOp(op, toType(old, type));
      return success();
    }
    InlinePTX ptx(constraint);
    ptx << atom << getAtomOperation(op.getKind(), type) << " $0, ["
        << ptx.operand(address, "l") << "], " << ptx.operand(value, constraint)
        << ";";
    rewriter.replaceOp(op,
                       toType(ptx.createConvergent(rewriter, loc, word), type));
    return success();
  }
};

struct LowerWarpMMALoad : public WarpMMAMemoryPattern<MMALoadOp, 0> {
  using WarpMMAMemoryPattern::WarpMMAMemoryPattern;

  void rewrite(MMALoadOp op, OpAdaptor, Value pointer, Value stride,
               StringRef space,
               ConversionPatternRewriter &rewriter) const override {
    VectorType type = op.getResult().getType();
    std::string name = llvm::formatv(
        "llvm.nvvm.wmma.{0}.load.{1}.{2}.stride.{3}.{4}",
        stringifyMMAShape(op.getShape()), stringifyMMAOperand(op.getMatrix()),
        stringifyMMALayout(op.getLayout()),
        getWarpPtxType(type.getElementType(), op.getMatrix()), space);
    Value registers =
        callWmma(rewriter, op.getLoc(), getRegisterStruct(type, op.getMatrix()),
                 name, {pointer, stride});
    rewriter.replaceOp(op, packFragment(rewriter, op.getLoc(), registers, type));
  }
};

struct LowerWarpMMACompute : public ConvertOpToLLVMPattern<MMAComputeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MMAComputeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType a = op.getA().getType(), c = op.getC().getType();
    Type input = a.getElementType();
    Location loc = op.getLoc();
    // f16 names its D and C types; bf16 and tf32 name the input type.
    StringRef accumulator = getWarpPtxType(c.getElementType(), MMAOperand::C);
    std::string types = input.isF16()
                            ? (accumulator + "." + accumulator).str()
                            : getWarpPtxType(input, MMAOperand::A).str();
    std::string name = llvm::formatv(
        "llvm.nvvm.wmma.{0}.mma.{1}.{2}.{3}", stringifyMMAShape(op.getShape()),
        stringifyMMALayout(op.getALayout()),
        stringifyMMALayout(op.getBLayout()), types);
    Type inputRegister = getWarpRegisterType(input, MMAOperand::A);
    SmallVector<Value> arguments =
        unpackFragment(rewriter, loc, adaptor.getA(), inputRegister);
    llvm::append_range(arguments, unpackFragment(rewriter, loc, adaptor.getB(),
                                                 inputRegister));
    llvm::append_range(
        arguments,
        unpackFragment(rewriter, loc, adaptor.getC(),
                       getWarpRegisterType(c.getElementType(), MMAOperand::C)));
    Value registers = callWmma(rewriter, loc, getRegisterStruct(c, MMAOperand::C),
                               name, arguments);
    rewriter.replaceOp(op, packFragment(rewriter, loc, registers, c));
    return success();
  }
};

struct LowerWarpMMAStore : public WarpMMAMemoryPattern<MMAStoreOp, 1> {
  using WarpMMAMemoryPattern::WarpMMAMemoryPattern;

  void rewrite(MMAStoreOp op, OpAdaptor adaptor, Value pointer, Value stride,
               StringRef space,
               ConversionPatternRewriter &rewriter) const override {
    Type element = op.getValue().getType().getElementType();
    std::string name = llvm::formatv(
        "llvm.nvvm.wmma.{0}.store.d.{1}.stride.{2}.{3}",
        stringifyMMAShape(op.getShape()), stringifyMMALayout(op.getLayout()),
        getWarpPtxType(element, MMAOperand::C), space);
    SmallVector<Value> arguments{pointer};
    llvm::append_range(
        arguments,
        unpackFragment(rewriter, op.getLoc(), adaptor.getValue(),
                       getWarpRegisterType(element, MMAOperand::C)));
    arguments.push_back(stride);
    callWmma(rewriter, op.getLoc(), Type(), name, arguments);
    rewriter.eraseOp(op);
  }
};

/// The PTX type of a warp.mma_sync A/B element: f32 elements are tf32
/// operands, i8 ones s8 or u8 by the op's attribute.
NVVM::MMATypes getMMASyncInputType(Type element, bool isUnsigned) {
  if (isa<Float8E4M3FNType>(element))
    return NVVM::MMATypes::e4m3;
  if (isa<Float8E5M2Type>(element))
    return NVVM::MMATypes::e5m2;
  if (element.isF16())
    return NVVM::MMATypes::f16;
  if (element.isBF16())
    return NVVM::MMATypes::bf16;
  if (element.isF32())
    return NVVM::MMATypes::tf32;
  return isUnsigned ? NVVM::MMATypes::u8 : NVVM::MMATypes::s8;
}

/// The register a warp.mma_sync fragment of `element` travels in (PTX's
/// operand types): f16 pairs as vector<2xf16>, f32 and i32 accumulators as
/// themselves, every other element (tf32 inputs too) packed into i32 words.
Type getMMASyncRegisterType(Type element, bool isAccumulator) {
  if (element.isF16())
    return VectorType::get({2}, element);
  if (isAccumulator && element.isF32())
    return element;
  return IntegerType::get(element.getContext(), 32);
}

/// warp.mma_sync -> nvvm.mma.sync (row.col), the fragments split into and
/// packed back from PTX's 32-bit registers.
struct LowerWarpMMASync : public ConvertOpToLLVMPattern<MMASyncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MMASyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type input = op.getA().getType().getElementType();
    VectorType c = op.getC().getType();
    Type inputRegister = getMMASyncRegisterType(input, false);
    Type accumulatorRegister =
        getMMASyncRegisterType(c.getElementType(), true);
    SmallVector<Value> a =
        unpackFragment(rewriter, loc, adaptor.getA(), inputRegister);
    SmallVector<Value> bRegisters =
        unpackFragment(rewriter, loc, adaptor.getB(), inputRegister);
    SmallVector<Value> acc =
        unpackFragment(rewriter, loc, adaptor.getC(), accumulatorRegister);
    auto resultType = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(acc.size(), accumulatorRegister));
    if (isMMASyncFloat8(input)) {
      // nvvm.mma.sync has no fp8 multiply: LLVM's intrinsic, named by D,
      // A, B and C's PTX types.
      StringRef accumulatorName = c.getElementType().isF16() ? "f16" : "f32";
      Type b = op.getB().getType().getElementType();
      std::string name = llvm::formatv(
          "llvm.nvvm.mma.{0}.row.col.{1}.{2}.{3}.{1}",
          stringifyMMASyncShape(op.getShape()), accumulatorName,
          NVVM::stringifyMMATypes(getMMASyncInputType(input, false)),
          NVVM::stringifyMMATypes(getMMASyncInputType(b, false)));
      SmallVector<Value> operands = llvm::to_vector(llvm::concat<Value>(
          a, bRegisters, acc));
      rewriter.replaceOp(
          op, packFragment(rewriter, loc,
                           callWmma(rewriter, loc, resultType, name, operands),
                           c));
      return success();
    }
    std::optional<NVVM::MMAIntOverflow> overflow;
    if (input.isInteger(8))
      overflow = op.getSatfinite() ? NVVM::MMAIntOverflow::satfinite
                                   : NVVM::MMAIntOverflow::wrapped;
    std::array<NVVM::MMATypes, 2> types = {
        getMMASyncInputType(input, op.getAUnsigned()),
        getMMASyncInputType(input, op.getBUnsigned())};
    std::array<NVVM::MMALayout, 2> layouts = {NVVM::MMALayout::row,
                                              NVVM::MMALayout::col};
    std::array<int64_t, 3> shape = {16, 8, getMMASyncK(op.getShape())};
    auto mma = NVVM::MmaOp::create(rewriter, loc, resultType, a, bRegisters,
                                   acc, shape,
                                   /*b1Op=*/std::nullopt, overflow, types,
                                   layouts);
    rewriter.replaceOp(op, packFragment(rewriter, loc, mma.getResult(), c));
    return success();
  }
};

NVVM::MMALayout getMatrixLayout(bool transpose) {
  return transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row;
}

/// warp.ldmatrix -> nvvm.ldmatrix (m8n8, b16): one i32 (two elements) per
/// matrix, bitcast into the result vector.
struct LowerWarpLdMatrix : public ConvertOpToLLVMPattern<LdMatrixOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(LdMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pointer = getStridedElementPtr(rewriter, loc, op.getSrc().getType(),
                                         adaptor.getSrc(), adaptor.getIndices());
    int64_t count = op.getCount();
    Type i32 = rewriter.getI32Type();
    Type resultType =
        count == 1 ? i32
                   : LLVM::LLVMStructType::getLiteral(
                         getContext(), SmallVector<Type>(count, i32));
    Value loaded = NVVM::LdMatrixOp::create(
        rewriter, loc, resultType, pointer, count,
        getMatrixLayout(op.getTranspose()),
        NVVM::LdStMatrixShapeAttr::get(getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    VectorType type = op.getResult().getType();
    if (count == 1) {
      rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, type, loaded);
      return success();
    }
    rewriter.replaceOp(op, packFragment(rewriter, loc, loaded, type));
    return success();
  }
};

/// warp.stmatrix -> nvvm.stmatrix (m8n8, b16), the fragment split into one
/// i32 per matrix.
struct LowerWarpStMatrix : public ConvertOpToLLVMPattern<StMatrixOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(StMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pointer = getStridedElementPtr(rewriter, loc, op.getDst().getType(),
                                         adaptor.getDst(), adaptor.getIndices());
    SmallVector<Value> words = unpackFragment(rewriter, loc, adaptor.getValue(),
                                              rewriter.getI32Type());
    NVVM::StMatrixOp::create(rewriter, loc, pointer, words,
                             getMatrixLayout(op.getTranspose()),
                             NVVM::LdStMatrixShapeAttr::get(getContext(), 8, 8),
                             NVVM::LdStMatrixEltType::B16);
    rewriter.eraseOp(op);
    return success();
  }
};

/// warp.wgmma_descriptor -> the descriptor's bits: the element's shared
/// address (bits 4-17 at bit 0), leading and stride (bits 4-17 at bits 16
/// and 32), the swizzle mode at bit 62.
struct LowerWarpWgmmaDescriptor
    : public ConvertOpToLLVMPattern<WgmmaDescriptorOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WgmmaDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    Value pointer =
        getStridedElementPtr(rewriter, loc, op.getBuffer().getType(),
                             adaptor.getBuffer(), adaptor.getIndices());
    Value address = LLVM::PtrToIntOp::create(rewriter, loc, i64, pointer);
    auto constant = [&](uint64_t v) {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(v));
    };
    Value start = LLVM::AndOp::create(
        rewriter, loc, LLVM::LShrOp::create(rewriter, loc, address, constant(4)),
        constant(0x3fff));
    uint64_t fields = (uint64_t(op.getLeading()) >> 4) << 16 |
                      (uint64_t(op.getStride()) >> 4) << 32 |
                      uint64_t(op.getSwizzle()) << 62;
    rewriter.replaceOpWithNewOp<LLVM::OrOp>(op, start, constant(fields));
    return success();
  }
};

/// PTX's name of a warp.wgmma input type.
NVVM::WGMMATypes getWgmmaInputType(Type input, bool isUnsigned) {
  if (input.isF16())
    return NVVM::WGMMATypes::f16;
  if (input.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (input.isF32())
    return NVVM::WGMMATypes::tf32;
  if (isa<Float8E4M3FNType>(input))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(input))
    return NVVM::WGMMATypes::e5m2;
  return isUnsigned ? NVVM::WGMMATypes::u8 : NVVM::WGMMATypes::s8;
}

/// warp.wgmma -> nvvm.wgmma.mma_async, the accumulator vector moved into
/// and out of the struct of f32 (or, for i8 inputs, i32) registers it
/// takes.
struct LowerWarpWgmma : public ConvertOpToLLVMPattern<WgmmaOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WgmmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    Type element = op.getAcc().getType().getElementType();
    SmallVector<Value> acc =
        unpackFragment(rewriter, loc, adaptor.getAcc(), element);
    auto structType = LLVM::LLVMStructType::getLiteral(
        context, SmallVector<Type>(acc.size(), element));
    Value inouts = LLVM::PoisonOp::create(rewriter, loc, structType);
    for (auto [index, value] : llvm::enumerate(acc))
      inouts = LLVM::InsertValueOp::create(rewriter, loc, inouts, value,
                                           index);
    auto inputType = [&](bool isUnsigned) {
      return NVVM::WGMMATypesAttr::get(
          context, getWgmmaInputType(op.getInput(), isUnsigned));
    };
    bool isInt = element.isInteger(32);
    auto layout = [&](bool mnMajor, NVVM::MMALayout kMajor,
                      NVVM::MMALayout transposed) {
      return NVVM::MMALayoutAttr::get(context, mnMajor ? transposed : kMajor);
    };
    auto one = NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one);
    auto mma = NVVM::WgmmaMmaAsyncOp::create(
        rewriter, loc, structType, inouts, adaptor.getA(), adaptor.getB(),
        NVVM::MMAShapeAttr::get(context, 64, op.getN(), op.getK()),
        inputType(op.getAUnsigned()), inputType(op.getBUnsigned()),
        NVVM::WGMMATypesAttr::get(context, isInt ? NVVM::WGMMATypes::s32
                                                 : NVVM::WGMMATypes::f32),
        NVVM::WGMMAScaleOutAttr::get(context, NVVM::WGMMAScaleOut::one), one,
        one,
        layout(op.getAMnMajor(), NVVM::MMALayout::row, NVVM::MMALayout::col),
        layout(op.getBMnMajor(), NVVM::MMALayout::col, NVVM::MMALayout::row),
        isInt ? NVVM::MMAIntOverflowAttr::get(context,
                                              NVVM::MMAIntOverflow::wrapped)
              : nullptr);
    rewriter.replaceOp(op, packFragment(rewriter, loc, mma.getResult(),
                                        op.getResult().getType()));
    return success();
  }
};

/// Checks every warp tensor-core op against its chip (the verifiers checked
/// the rest).
LogicalResult checkWarpMMAOps(Operation *root, ChipsByModule &chips) {
  bool ok = true;
  root->walk([&](Operation *op) {
    auto require = [&](const Twine &what, unsigned minSm) {
      std::optional<Chip> chip = chips.get(op);
      ok &= chip.has_value() && succeeded(checkChip(op, what, minSm, *chip));
    };
    if (auto mma = dyn_cast<MMASyncOp>(op)) {
      MMASyncShape mmaShape = mma.getShape();
      Type input = mma.getA().getType().getElementType();
      NVVM::MMATypes ptxType = getMMASyncInputType(input, mma.getAUnsigned());
      return require("PTX mma.sync." + stringifyMMASyncShape(mmaShape) + "." +
                         NVVM::stringifyMMATypes(ptxType),
                     *getMMASyncMinSm(mmaShape, input));
    }
    if (auto atomic = dyn_cast<LaneAtomicRMWOp>(op)) {
      std::optional<Chip> chip = chips.get(op);
      ok &= chip.has_value() &&
            succeeded(chip->checkAtomic(op, atomic.getKind(),
                                        atomic.getValue().getType(),
                                        atomic.getScope()));
      return;
    }
    if (isa<LdMatrixOp>(op))
      return require("PTX ldmatrix", 75);
    if (isa<StMatrixOp>(op))
      return require("PTX stmatrix", 90);
    if (auto wgmma = dyn_cast<WgmmaOp>(op)) {
      std::optional<Chip> chip = chips.get(op);
      if (!chip || chip->smVersion != 90 ||
          chip->variant != Chip::Variant::ArchSpecific) {
        ok = false;
        if (chip)
          op->emitOpError("PTX wgmma.mma_async needs sm_90a; the target "
                          "chip is ")
              << chip->str();
        return;
      }
      // s8 x u8 came with PTX 8.4; the chip's PTX is older.
      constexpr unsigned kMixedIntegerPtx = 84;
      if (wgmma.getAUnsigned() != wgmma.getBUnsigned() &&
          chip->minPtxVersion() < kMixedIntegerPtx) {
        ok = false;
        op->emitOpError("multiplies s8 by u8, which PTX wgmma has from ISA "
                        "8.4 on; the pipeline targets ")
            << chip->str() << " with PTX " << chip->minPtxVersion() / 10 << "."
            << chip->minPtxVersion() % 10
            << ": give a_unsigned and b_unsigned the same value";
      }
      return;
    }
    if (isa<WgmmaDescriptorOp>(op))
      return;
    Type element;
    MMAShape shape;
    MMAOperand operand = MMAOperand::C;
    if (auto load = dyn_cast<MMALoadOp>(op)) {
      element = load.getResult().getType().getElementType();
      shape = load.getShape();
      operand = load.getMatrix();
    } else if (auto compute = dyn_cast<MMAComputeOp>(op)) {
      element = compute.getA().getType().getElementType();
      shape = compute.getShape();
      operand = MMAOperand::A;
    } else if (auto store = dyn_cast<MMAStoreOp>(op)) {
      element = store.getValue().getType().getElementType();
      shape = store.getShape();
    } else {
      return;
    }
    require("PTX wmma with " + getWarpPtxType(element, operand) + " fragments",
            getWarpMinSm(shape, element, operand));
  });
  return success(ok);
}

/// PTX has fp8 mma.sync from ISA 8.4 on (f16 accumulators from 8.7), newer
/// than sm_89's and sm_90's own: the gpu.module of each fp8 warp.mma_sync
/// gets that version (LLVM's backend would abort on an older one). A pass
/// run inside the module cannot change it: an error there.
LogicalResult raisePtxVersionForFloat8(Operation *root) {
  constexpr unsigned kFloat8Ptx = 84, kFloat8HalfAccumulatorPtx = 87;
  WalkResult result = root->walk([&](MMASyncOp op) {
    if (!isMMASyncFloat8(op.getA().getType().getElementType()))
      return WalkResult::advance();
    unsigned version = op.getC().getType().getElementType().isF16()
                           ? kFloat8HalfAccumulatorPtx
                           : kFloat8Ptx;
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    if (!module)
      return WalkResult::advance();
    if (module != root && !root->isProperAncestor(module)) {
      op.emitOpError() << "needs PTX " << version / 10 << "." << version % 10
                       << " or newer, which only a pass on the enclosing "
                          "gpu.module can select: run "
                          "convert-warp-mma-to-nvvm on it";
      return WalkResult::interrupt();
    }
    raisePtxVersion(module, version);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct ConvertWarpMMAToNVVMPass
    : public warp::impl::ConvertWarpMMAToNVVMPassBase<
          ConvertWarpMMAToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    bool hasMMA = false;
    root->walk([&](Operation *op) {
      hasMMA |=
          (isa<gpu::GPUDialect>(op->getDialect()) &&
           op->getName().getStringRef().starts_with("gpu.subgroup_mma_")) ||
          isLoweredWithDescriptors(op);
    });
    // Nothing to lower leaves the IR as it is (and unverified again).
    if (!hasMMA)
      return markAllAnalysesPreserved();
    ChipsByModule chips;
    if (failed(checkMMAOps(root, chips)) ||
        failed(checkWarpMMAOps(root, chips)) ||
        failed(raisePtxVersionForFloat8(root)))
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
    conversionTarget.addDynamicallyLegalDialect<WarpDialect>(
        [](Operation *op) { return !isLoweredWithDescriptors(op); });
    populateGpuWMMAToNVVMConversionPatterns(llvmConverter, patterns);
    patterns.add<LowerWarpMMALoad, LowerWarpMMACompute, LowerWarpMMAStore,
                 LowerWarpMMASync, LowerWarpLdMatrix, LowerWarpStMatrix,
                 LowerWarpWgmmaDescriptor, LowerWarpWgmma, LowerLaneAtomicRMW>(
        llvmConverter);
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
