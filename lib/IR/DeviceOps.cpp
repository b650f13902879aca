//===- DeviceOps.cpp - the verifiers of the warp.device_* ops -------------===//
//
// The verifiers of the host-level device-wide collectives. What they take
// is what warp-expand-device-ops' kernels can read: contiguous 1-D memrefs
// in device memory, outside any kernel.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/IR/WarpDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::warp;

/// What the verifiers call operand `number` of a device op.
static StringRef getOperandName(Operation *op, unsigned number) {
  if (isa<DeviceSelectOp, DevicePartitionOp>(op))
    return std::array<StringRef, 4>{"input", "flags", "output", "count"}[number];
  if (isa<DeviceUniqueOp, DeviceSelectIfOp, DevicePartitionIfOp>(op))
    return std::array<StringRef, 3>{"input", "output", "count"}[number];
  if (isa<DeviceRunLengthEncodeOp>(op))
    return std::array<StringRef, 4>{"input", "unique_out", "counts_out",
                                    "num_runs"}[number];
  if (isa<DeviceNonTrivialRunsOp>(op))
    return std::array<StringRef, 4>{"input", "offsets_out", "lengths_out",
                                    "num_runs"}[number];
  if (isa<DeviceHistogramOp>(op))
    // The only memref past the bins is the levels (lower and upper are
    // scalars).
    return std::array<StringRef, 3>{"samples", "bins", "levels"}[std::min(number, 2u)];
  if (isa<DeviceRadixSortOp>(op))
    return std::array<StringRef, 4>{"keys_in", "keys_out", "values_in",
                                    "values_out"}[number];
  if (isa<DeviceSegmentedRadixSortOp>(op))
    return std::array<StringRef, 6>{"keys_in", "keys_out",  "begin",
                                    "end",     "values_in", "values_out"}[number];
  if (isa<DeviceScanOp>(op))
    return std::array<StringRef, 3>{"input", "output", "keys"}[number];
  if (auto segmented = dyn_cast<DeviceSegmentedReduceCombineOp>(op)) {
    // Memref operands only: the inputs, the outputs, then the offsets.
    unsigned inputs = segmented.getInputs().size();
    unsigned offsets = number - inputs - segmented.getInit().size() -
                       segmented.getOutputs().size();
    return number < inputs ? "inputs"
           : number < op->getNumOperands() - 2
               ? "outputs"
               : std::array<StringRef, 2>{"begin", "end"}[offsets];
  }
  if (auto scan = dyn_cast<DeviceScanCombineOp>(op);
      scan && scan.getKeys() && number + 1 == op->getNumOperands())
    return "keys";
  if (isa<DeviceReduceCombineOp, DeviceScanCombineOp>(op))
    return number < cast<CombiningOpInterface>(op).getValues().size()
               ? "inputs"
               : "outputs";
  if (isa<DeviceSegmentedReduceOp>(op))
    return std::array<StringRef, 5>{"input", "output", "begin", "end",
                                    "init"}[number];
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
    // Scalars (a tuple reduction's init, a segmented reduction's) are host
    // values, not memrefs.
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
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

/// `input` and `output` hold one element type.
static LogicalResult verifyOneElementType(Operation *op, Value input,
                                          Value output) {
  Type in = cast<MemRefType>(input.getType()).getElementType();
  Type out = cast<MemRefType>(output.getType()).getElementType();
  if (in != out)
    return op->emitOpError()
           << "takes one element type, got " << in << " and " << out;
  return success();
}

/// The checks reduce and scan share: the kind's domain, one element type.
static LogicalResult verifyDeviceOp(Operation *op, CombineKind kind,
                                    Value input, Value output) {
  if (failed(verifyDeviceMemRefs(op)))
    return failure();
  if (failed(verifyOneElementType(op, input, output)))
    return failure();
  auto inputType = cast<MemRefType>(input.getType());
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

/// A segmented reduction's offsets: a `begin` and an `end` offset per
/// segment (an output element).
static LogicalResult verifySegmentOffsets(Operation *op, int64_t segments,
                                          Value begin, Value end) {
  for (auto [name, offsets] :
       {std::pair<StringRef, Value>{"begin", begin}, {"end", end}}) {
    int64_t size = cast<MemRefType>(offsets.getType()).getDimSize(0);
    if (!ShapedType::isDynamic(segments) && !ShapedType::isDynamic(size) &&
        size < segments)
      return op->emitOpError() << "reduces " << segments << " segments, but its "
                               << name << " offsets have " << size << " elements";
  }
  return success();
}

LogicalResult DeviceSegmentedReduceOp::verify() {
  if (failed(verifyDeviceOp(*this, getKind(), getInput(), getOutput())))
    return failure();
  Type element = getElementType();
  if (getInit() && getInit().getType() != element)
    return emitOpError() << "takes init of the element type " << element
                         << ", got " << getInit().getType();
  if (failed(verifySegmentOffsets(*this, getOutput().getType().getDimSize(0),
                                  getBegin(), getEnd())))
    return failure();
  Value output = getOutput();
  if (output == getInput() || output == getBegin() || output == getEnd())
    return emitOpError() << "cannot write its input or offsets (other blocks "
                            "read them while one writes its result)";
  return success();
}

/// The checks select, partition, unique and run_length_encode share: one
/// element type in `input` and `output`, a flag per element where there
/// are `flags`, an output for every element where `everyElement` (a
/// partition), an element in `count`.
static LogicalResult verifySelection(Operation *op, Value input, Value flags,
                                     Value output, Value count,
                                     bool everyElement) {
  if (failed(verifyDeviceMemRefs(op)))
    return failure();
  if (failed(verifyOneElementType(op, input, output)))
    return failure();
  auto inputType = cast<MemRefType>(input.getType());
  int64_t in = inputType.getDimSize(0);
  if (flags) {
    int64_t flagCount = cast<MemRefType>(flags.getType()).getDimSize(0);
    if (!ShapedType::isDynamic(in) && !ShapedType::isDynamic(flagCount) &&
        flagCount < in)
      return op->emitOpError() << "needs a flag per element: " << in
                               << " elements, " << flagCount << " flags";
  }
  int64_t out = cast<MemRefType>(output.getType()).getDimSize(0);
  if (everyElement && !ShapedType::isDynamic(in) && !ShapedType::isDynamic(out) &&
      out < in)
    return op->emitOpError() << "writes " << in << " elements, but its output has "
                             << out;
  if (cast<MemRefType>(count.getType()).getDimSize(0) == 0)
    return op->emitOpError()
           << "writes the count, but its "
           << getOperandName(op, op->getNumOperands() - 1) << " has no element";
  return success();
}

LogicalResult DeviceSelectOp::verify() {
  return verifySelection(*this, getInput(), getFlags(), getOutput(), getCount(),
                         /*everyElement=*/false);
}

LogicalResult DevicePartitionOp::verify() {
  return verifySelection(*this, getInput(), getFlags(), getOutput(), getCount(),
                         /*everyElement=*/true);
}

LogicalResult DeviceSelectIfOp::verify() {
  return verifySelection(*this, getInput(), Value(), getOutput(), getCount(),
                         /*everyElement=*/false);
}

LogicalResult DevicePartitionIfOp::verify() {
  return verifySelection(*this, getInput(), Value(), getOutput(), getCount(),
                         /*everyElement=*/true);
}

FailureOr<YieldOp> mlir::warp::getRegionYield(Operation *op, Region &region,
                                              StringRef name) {
  Block &block = region.front();
  if (auto yield = dyn_cast_or_null<YieldOp>(
          block.mightHaveTerminator() ? block.getTerminator() : nullptr))
    return yield;
  return op->emitOpError() << name << " region must end with warp.yield";
}

/// The checks of a region that yields one scalar of `yielded` (after its
/// ops verified): block arguments of the types `arguments` (said as
/// `wanted`, followed by the type), a warp.yield of one `yielded`
/// (`meaning` says what it tells), and only ops that the expansions may
/// copy anywhere: no memory effects (which also keeps out the ops that need
/// the warp's lanes together: they read the lanes resource).
LogicalResult mlir::warp::verifyScalarRegion(Operation *op, Region &region,
                                             StringRef name,
                                             ArrayRef<Type> arguments,
                                             StringRef wanted, Type yielded,
                                             StringRef meaning) {
  Block &block = region.front();
  if (!llvm::equal(block.getArgumentTypes(), arguments)) {
    InFlightDiagnostic diag = op->emitOpError()
                              << name << " region must take " << wanted << " "
                              << arguments.front() << ", got (";
    llvm::interleaveComma(block.getArgumentTypes(), diag);
    return diag << ")";
  }
  FailureOr<YieldOp> yield = getRegionYield(op, region, name);
  if (failed(yield))
    return failure();
  if (yield->getValues().size() != 1 ||
      yield->getValues().front().getType() != yielded) {
    std::string type;
    llvm::raw_string_ostream(type) << yielded;
    InFlightDiagnostic diag = yield->emitOpError()
                              << "must yield one " << type << " (" << meaning
                              << "), got (";
    llvm::interleaveComma(yield->getValues().getTypes(), diag);
    return diag << ")";
  }
  return verifyPureRegion(op, region, name);
}

LogicalResult mlir::warp::verifyBooleanRegion(Operation *op, Region &region,
                                              StringRef name,
                                              ArrayRef<Type> arguments,
                                              StringRef wanted,
                                              StringRef meaning) {
  return verifyScalarRegion(op, region, name, arguments, wanted,
                            IntegerType::get(op->getContext(), 1), meaning);
}

/// A selection's `pred` region: one element in, whether to keep it out.
static LogicalResult verifyPredicate(Operation *op, Region &region,
                                     Type element) {
  return verifyBooleanRegion(op, region, "pred", {element},
                             "one argument of the element type",
                             "whether to keep the element");
}

/// Fails on the first op of `region` (the `name` region of `op`) with
/// memory effects: the kernels copy the region anywhere, per item.
LogicalResult mlir::warp::verifyPureRegion(Operation *op, Region &region,
                                           StringRef name) {
  WalkResult walk = region.walk([&](Operation *inner) {
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(inner)) {
      if (effects.hasNoEffect())
        return WalkResult::advance();
    } else if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
      return WalkResult::advance();
    }
    InFlightDiagnostic diag = inner->emitOpError()
                              << "may not be in the " << name
                              << " region of '"
                              << op->getName()
                              << "': the region must be pure (no memory "
                                 "effects, no ops that need the lanes "
                                 "together)";
    diag.attachNote(op->getLoc()) << "the region of this op";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult DeviceSelectIfOp::verifyRegions() {
  return verifyPredicate(*this, getPredicate(), getElementType());
}

LogicalResult DevicePartitionIfOp::verifyRegions() {
  return verifyPredicate(*this, getPredicate(), getElementType());
}

LogicalResult DeviceUniqueOp::verify() {
  return verifySelection(*this, getInput(), Value(), getOutput(), getCount(),
                         /*everyElement=*/false);
}

LogicalResult DeviceRunLengthEncodeOp::verify() {
  return verifySelection(*this, getInput(), Value(), getUniqueOut(),
                         getNumRuns(), /*everyElement=*/false);
}

LogicalResult DeviceNonTrivialRunsOp::verify() {
  if (failed(verifyDeviceMemRefs(*this)))
    return failure();
  // The second kernel reads the offsets that the first wrote while it
  // writes the lengths.
  if (getOffsetsOut() == getLengthsOut())
    return emitOpError() << "writes its offsets and lengths to one memref";
  if (getNumRuns().getType().getDimSize(0) == 0)
    return emitOpError()
           << "writes the count, but its num_runs has no element";
  return success();
}

LogicalResult DeviceHistogramOp::verify() {
  if (failed(verifyDeviceMemRefs(*this)))
    return failure();
  Type sample = getElementType();
  MemRefType bins = getOutput().getType();
  int64_t active = getActiveChannelCount();
  if (std::optional<uint32_t> channels = getChannels()) {
    int64_t count = int32_t(*channels);
    if (count < 1 || count > kMaxHistogramChannels)
      return emitOpError() << "takes 1 to " << kMaxHistogramChannels
                           << " channels, got " << count;
    if (bins.getRank() != 2)
      return emitOpError() << "with channels counts into 2-D bins (a row "
                              "per active channel), got "
                           << bins;
    if (ShapedType::isDynamic(active) || active < 1 || active > count)
      return emitOpError() << "counts 1 to " << count
                           << " active channels (the bins' rows, static), got "
                           << bins;
  } else if (bins.getRank() != 1) {
    return emitOpError() << "counts into 1-D bins without channels, got "
                         << bins;
  }
  if (getIsUnsigned() && (!hasLevels() || !isa<IntegerType>(sample)))
    return emitOpError() << "compares integer samples with their levels as "
                            "unsigned; 'unsigned' needs levels (even or "
                            "range) and integer samples, got "
                         << sample << (hasLevels() ? "" : " without levels");
  if (getLevelsUnsigned() && !hasLevels())
    return emitOpError() << "reads integer levels of another type than the "
                            "samples as unsigned; 'unsigned_levels' needs "
                            "them, got no levels";
  if (getLevelsUnsigned() &&
      (getLevelType() == sample || !isa<IntegerType>(getLevelType())))
    return emitOpError() << "reads integer levels of another type than the "
                            "samples as unsigned; 'unsigned_levels' needs "
                            "them, got "
                         << getLevelType() << " levels for " << sample
                         << " samples ('unsigned' covers levels of the "
                            "samples' type)";
  if (!hasLevels()) {
    if (!isa<IntegerType>(sample))
      return emitOpError() << "counts " << sample
                           << " samples only with levels (even or range): "
                              "without, each sample is a bin number";
    return success();
  }
  if (hasEvenLevels() && getLevels())
    return emitOpError() << "takes even levels or a range of levels, not both";
  Type level = getLevelType();
  int64_t binCount = getBinsPerChannel();
  if (hasEvenLevels()) {
    if (int64_t(getBounds().size()) != 2 * active)
      return emitOpError() << "takes a lower and an upper level per active "
                              "channel ("
                           << 2 * active << " for " << active
                           << "), got " << getBounds().size();
    // C++'s common_type of the two, in which the bins are computed: none
    // for f16 or bf16 with another type.
    if (level != sample &&
        (isa<Float16Type, BFloat16Type>(level) ||
         isa<Float16Type, BFloat16Type>(sample)))
      return emitOpError() << "computes even bins in the common type of the "
                              "levels and the samples, which "
                           << level << " and " << sample
                           << " do not have (f16 and bf16 levels take "
                              "samples of their own type)";
    return success();
  }
  auto levels = cast<MemRefType>(getLevels().getType());
  if (levels.getRank() != bins.getRank())
    return emitOpError() << "takes " << bins.getRank()
                         << "-D levels, as its bins, got " << levels;
  if (levels.getRank() == 2 && !levels.isDynamicDim(0) &&
      levels.getDimSize(0) != active)
    return emitOpError() << "takes a row of levels per active channel ("
                         << active << "), got " << levels;
  int64_t count = levels.getDimSize(levels.getRank() - 1);
  if (!ShapedType::isDynamic(count) && count < 2)
    return emitOpError() << "takes at least 2 levels (one bin), got " << count;
  if (!ShapedType::isDynamic(count) && !ShapedType::isDynamic(binCount) &&
      count != binCount + 1)
    return emitOpError() << "takes one level more than bins, got " << count
                         << " levels for " << binCount << " bins";
  return success();
}

/// The checks both radix sorts share: one key type, outputs of at least
/// `n` elements apart from the inputs and each other, values with both
/// memrefs or neither, and the key order.
template <typename SortOp>
static LogicalResult verifyDeviceRadixSort(SortOp op) {
  if (failed(verifyDeviceMemRefs(op)))
    return failure();
  Type key = op.getKeyType();
  if (op.getKeysOut().getType().getElementType() != key)
    return op.emitOpError() << "takes one key type, got " << key << " and "
                            << op.getKeysOut().getType().getElementType();
  int64_t n = op.getKeysIn().getType().getDimSize(0);
  // Each of (name, memref) holds at least n elements.
  auto atLeastN = [&](StringRef name, MemRefType type) -> LogicalResult {
    int64_t size = type.getDimSize(0);
    if (!ShapedType::isDynamic(n) && !ShapedType::isDynamic(size) && size < n)
      return op.emitOpError() << "sorts " << n << " keys, but its " << name
                              << " has " << size;
    return success();
  };
  if (failed(atLeastN("keys_out", op.getKeysOut().getType())))
    return failure();
  if (op.getKeysOut() == op.getKeysIn())
    return op.emitOpError()
           << "cannot sort in place: keys_out is keys_in (the passes read one "
              "buffer while they write another)";
  if (bool(op.getValuesIn()) != bool(op.getValuesOut()))
    return op.emitOpError("takes both values_in and values_out or neither");
  if (Value valuesIn = op.getValuesIn()) {
    Value valuesOut = op.getValuesOut();
    auto inType = cast<MemRefType>(valuesIn.getType());
    auto outType = cast<MemRefType>(valuesOut.getType());
    if (inType.getElementType() != outType.getElementType())
      return op.emitOpError() << "takes one value type, got "
                              << inType.getElementType() << " and "
                              << outType.getElementType();
    if (failed(atLeastN("values_in", inType)) ||
        failed(atLeastN("values_out", outType)))
      return failure();
    // A double-buffered sort writes its inputs too.
    if (valuesOut == valuesIn || valuesOut == op.getKeysIn() ||
        valuesOut == op.getKeysOut() || op.getKeysOut() == valuesIn ||
        (op.getDoubleBuffer() && valuesIn == op.getKeysIn()))
      return op.emitOpError()
             << "writes outputs that are not its inputs or each other (the "
                "passes read one buffer while they write another)";
  }
  if (op.getDoubleBuffer() != bool(op.getCurrent()))
    return op.emitOpError() << "returns the i32 of the buffer that holds the "
                               "result with double_buffer, and only then";
  return verifyRadixSortKeyOrder(op, key, op.getIsSigned(), op.getBeginBit(),
                                 op.getEndBit());
}

/// A radix sort's effects: the inputs are read and the outputs written;
/// with double_buffer every buffer is both (the passes go back and forth
/// between them). A segmented sort reads its offsets.
template <typename SortOp>
static void getRadixSortEffects(
    SortOp op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  bool both = op.getDoubleBuffer();
  auto add = [&](OpOperand &operand, bool isInput) {
    if (isInput || both)
      effects.emplace_back(MemoryEffects::Read::get(), &operand);
    if (!isInput || both)
      effects.emplace_back(MemoryEffects::Write::get(), &operand);
  };
  add(op.getKeysInMutable(), /*isInput=*/true);
  add(op.getKeysOutMutable(), /*isInput=*/false);
  if constexpr (std::is_same_v<SortOp, DeviceSegmentedRadixSortOp>) {
    add(op.getBeginMutable(), /*isInput=*/true);
    add(op.getEndMutable(), /*isInput=*/true);
  }
  for (OpOperand &operand : op.getValuesInMutable())
    add(operand, /*isInput=*/true);
  for (OpOperand &operand : op.getValuesOutMutable())
    add(operand, /*isInput=*/false);
}

LogicalResult DeviceRadixSortOp::verify() {
  return verifyDeviceRadixSort(*this);
}

LogicalResult DeviceSegmentedRadixSortOp::verify() {
  if (failed(verifyDeviceRadixSort(*this)))
    return failure();
  // An end offset per segment (a begin offset).
  int64_t segments = getBegin().getType().getDimSize(0);
  int64_t ends = getEnd().getType().getDimSize(0);
  if (!ShapedType::isDynamic(segments) && !ShapedType::isDynamic(ends) &&
      ends < segments)
    return emitOpError() << "sorts " << segments << " segments, but its end "
                         << "offsets have " << ends << " elements";
  // With double_buffer the inputs are written too.
  SmallVector<Value, 4> written{getKeysOut(), getValuesOut()};
  if (getDoubleBuffer())
    written.append({getKeysIn(), getValuesIn()});
  for (Value output : written)
    if (output && (output == getBegin() || output == getEnd()))
      return emitOpError() << "cannot write its offsets (other blocks read "
                              "them while one sorts its segment)";
  return success();
}

void DeviceRadixSortOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getRadixSortEffects(*this, effects);
}

void DeviceSegmentedRadixSortOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getRadixSortEffects(*this, effects);
}

/// The checks the tuple ops (device_reduce_combine, device_scan_combine,
/// device_segmented_reduce_combine) share, once the counts of inputs, outputs and init values are right:
/// output #i and init #i (where there are init values) of input #i's
/// element type, every input with the first one's `n` elements, every
/// output with `outputElements` (`n` where not given: a scan's).
static LogicalResult verifyDeviceTuples(Operation *op, ValueRange inputs,
                                        ValueRange init, ValueRange outputs,
                                        StringRef verb,
                                        std::optional<int64_t> outputElements) {
  if (failed(verifyDeviceMemRefs(op)))
    return failure();
  // What the region combines: the inputs' element types.
  SmallVector<Type> elements = cast<CombiningOpInterface>(op).getCombinedTypes();
  int64_t length = cast<MemRefType>(inputs.front().getType()).getDimSize(0);
  int64_t needed = outputElements.value_or(length);
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto input = cast<MemRefType>(inputs[i].getType());
    auto output = cast<MemRefType>(outputs[i].getType());
    if (output.getElementType() != elements[i])
      return op->emitOpError() << "output #" << i << " has element type "
                               << output.getElementType() << ", expected "
                               << elements[i] << " (input #" << i << "'s)";
    if (!init.empty() && init[i].getType() != elements[i])
      return op->emitOpError() << "init #" << i << " has type "
                               << init[i].getType() << ", expected "
                               << elements[i] << " (input #" << i
                               << "'s element)";
    int64_t size = input.getDimSize(0);
    if (!ShapedType::isDynamic(length) && !ShapedType::isDynamic(size) &&
        size < length)
      return op->emitOpError() << verb << " " << length
                               << " tuples, but input #" << i << " has "
                               << size << " elements";
    int64_t outSize = output.getDimSize(0);
    if (!ShapedType::isDynamic(needed) && !ShapedType::isDynamic(outSize) &&
        outSize < needed)
      return needed == 1
                 ? op->emitOpError() << "writes one element, but output #" << i
                                     << " has none"
                 : op->emitOpError() << "writes " << needed
                                     << " elements, but output #" << i
                                     << " has " << outSize;
  }
  return success();
}

/// A tuple reduction's counts: at least one input, and one output and one
/// init value per input.
static LogicalResult verifyReductionCounts(Operation *op, ValueRange inputs,
                                           ValueRange init, ValueRange outputs) {
  size_t n = inputs.size();
  if (n == 0)
    return op->emitOpError("needs at least one input");
  if (outputs.size() != n || init.size() != n)
    return op->emitOpError() << "takes one output and one init value per input, got "
                             << n << " inputs, " << outputs.size() << " outputs and "
                             << init.size() << " init values";
  return success();
}

LogicalResult DeviceReduceCombineOp::verify() {
  if (failed(verifyReductionCounts(*this, getInputs(), getInit(), getOutputs())))
    return failure();
  return verifyDeviceTuples(*this, getInputs(), getInit(), getOutputs(),
                            "reduces", /*outputElements=*/1);
}

LogicalResult DeviceReduceCombineOp::verifyRegions() {
  return verifyPureRegion(*this, getCombiner(), "combine");
}

LogicalResult DeviceSegmentedReduceCombineOp::verify() {
  if (failed(verifyReductionCounts(*this, getInputs(), getInit(), getOutputs())))
    return failure();
  // A tuple per segment: outputs#0's elements are the segments.
  int64_t segments = cast<MemRefType>(getOutputs().front().getType()).getDimSize(0);
  if (failed(verifyDeviceTuples(*this, getInputs(), getInit(), getOutputs(),
                                "reduces", segments)) ||
      failed(verifySegmentOffsets(*this, segments, getBegin(), getEnd())))
    return failure();
  for (auto [i, output] : llvm::enumerate(getOutputs()))
    if (llvm::is_contained(getInputs(), output) || output == getBegin() ||
        output == getEnd() ||
        llvm::is_contained(getOutputs().take_front(i), output))
      return emitOpError() << "cannot write output #" << i
                           << " to an input, the offsets or another output "
                              "(other blocks read them while one writes its "
                              "result)";
  return success();
}

LogicalResult DeviceSegmentedReduceCombineOp::verifyRegions() {
  return verifyPureRegion(*this, getCombiner(), "combine");
}

LogicalResult DeviceScanCombineOp::verify() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError("needs at least one input");
  if (getOutputs().size() != n)
    return emitOpError() << "takes one output per input, got " << n
                         << " inputs and " << getOutputs().size() << " outputs";
  if (!getInit().empty() && getInit().size() != n)
    return emitOpError() << "takes one init value per input or none, got " << n
                         << " inputs and " << getInit().size()
                         << " init values";
  if (getExclusive() && getInit().empty())
    return emitOpError("exclusive needs init (a combine region has no "
                       "identity for the first output)");
  // Each output is written once, by its own tile stores.
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      if (getOutputs()[i] == getOutputs()[j])
        return emitOpError() << "writes outputs #" << j << " and #" << i
                             << " to one memref";
  if (failed(verifyDeviceTuples(*this, getInputs(), getInit(), getOutputs(),
                                "scans", std::nullopt)))
    return failure();
  if (!getKeys()) {
    if (!getEqual().empty())
      return emitOpError("takes an equal region only with keys (it compares "
                         "neighbouring keys)");
    return success();
  }
  int64_t length = cast<MemRefType>(getInputs().front().getType()).getDimSize(0);
  int64_t keys = getKeys().getType().getDimSize(0);
  if (!ShapedType::isDynamic(length) && !ShapedType::isDynamic(keys) &&
      keys < length)
    return emitOpError() << "scans " << length << " tuples, but its keys have "
                         << keys << " elements";
  if (llvm::is_contained(getOutputs(), getKeys()))
    return emitOpError("cannot write its keys (a tile reads the key before it "
                       "while others write)");
  return success();
}

LogicalResult DeviceScanCombineOp::verifyRegions() {
  if (failed(verifyPureRegion(*this, getCombiner(), "combine")))
    return failure();
  if (getEqual().empty())
    return success();
  Type key = getKeyType();
  return verifyBooleanRegion(*this, getEqual(), "equal", {key, key},
                             "two arguments of the key type",
                             "whether the two keys are in one segment");
}
