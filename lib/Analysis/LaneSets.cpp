//===- LaneSets.cpp - which lanes hold what, and reach where --------------===//
//
// Values are evaluated on demand, lane by lane, by folding the arith and
// index ops between the lane and thread ids and the branch conditions or
// member masks that use them: the same folders canonicalization uses, so
// every operation the program can compute on constants is understood.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Analysis/LaneSets.h"

#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/Uniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::warp;

std::string mlir::warp::formatLanes(uint32_t lanes) {
  return "0x" + llvm::utohexstr(lanes, /*LowerCase=*/true, /*Width=*/8);
}

bool LaneValues::isUniform() const {
  if (kind == Kind::Uniform)
    return true;
  if (kind != Kind::Known)
    return false;
  Attribute first;
  for (Attribute lane : lanes) {
    if (!lane)
      continue;
    if (first && lane != first)
      return false;
    first = lane;
  }
  return true;
}

uint32_t LaneValues::getTrueLanes(uint32_t among) const {
  uint32_t result = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if ((among & (1u << lane)) && lanes[lane])
      if (auto value = dyn_cast<IntegerAttr>(lanes[lane]))
        if (!value.getValue().isZero())
          result |= 1u << lane;
  return result;
}

std::optional<llvm::APInt> LaneValues::getUniformInteger(uint32_t among) const {
  if (kind != Kind::Known)
    return std::nullopt;
  std::optional<llvm::APInt> result;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(among & (1u << lane)))
      continue;
    auto value = dyn_cast_or_null<IntegerAttr>(lanes[lane]);
    if (!value || (result && *result != value.getValue()))
      return std::nullopt;
    result = value.getValue();
  }
  return result;
}

LaneSetAnalysis::LaneSetAnalysis(gpu::GPUFuncOp kernel)
    : kernel(kernel), block(getKnownBlockSize(kernel)) {
  if (block)
    numWarps = unsigned(llvm::divideCeil(
        (*block)[0] * (*block)[1] * (*block)[2], int64_t(kWarpSize)));
}

uint32_t LaneSetAnalysis::getLiveLanes(unsigned warp) const {
  if (!block)
    return ~uint32_t(0);
  int64_t threads = (*block)[0] * (*block)[1] * (*block)[2];
  int64_t left = threads - int64_t(warp) * kWarpSize;
  return left >= int64_t(kWarpSize) ? ~uint32_t(0) : (uint32_t(1) << left) - 1;
}

int64_t LaneSetAnalysis::getThreadId(int64_t thread, gpu::Dimension dim) const {
  auto [x, y, z] = *block;
  (void)z;
  switch (dim) {
  case gpu::Dimension::x:
    return thread % x;
  case gpu::Dimension::y:
    return (thread / x) % y;
  case gpu::Dimension::z:
    return thread / (x * y);
  }
  llvm_unreachable("unknown dimension");
}

LaneValues LaneSetAnalysis::evaluate(Value value, unsigned warp) {
  auto key = std::make_pair(value, warp);
  auto it = values.find(key);
  if (it != values.end())
    return it->second;
  // The evaluation recurses along the operands; past this depth the value
  // is taken as unknown (a long chain of arithmetic into a condition must
  // not exhaust the stack).
  constexpr unsigned kMaxDepth = 256;
  if (depth >= kMaxDepth)
    return LaneValues::varying();
  ++depth;
  LaneValues computed = compute(value, warp);
  --depth;
  values[key] = computed;
  return computed;
}

/// Every lane of `live` holding `make(lane)`.
static LaneValues knownLanes(uint32_t live,
                             function_ref<Attribute(unsigned)> make) {
  LaneValues result{LaneValues::Kind::Known, {}};
  result.lanes.resize(kWarpSize);
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if (live & (1u << lane))
      result.lanes[lane] = make(lane);
  return result;
}

LaneValues LaneSetAnalysis::compute(Value value, unsigned warp) {
  uint32_t live = getLiveLanes(warp);
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant))) {
    // Scalars are evaluated; other constants (vectors) are only uniform.
    if (!isa<IntegerAttr, FloatAttr>(constant))
      return LaneValues::uniform();
    return knownLanes(live, [&](unsigned) { return constant; });
  }
  auto integer = [&](int64_t v) -> Attribute {
    return IntegerAttr::get(value.getType(), v);
  };

  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    // Kernel arguments are the same in every thread.
    if (owner == kernel.getOperation() && argument.getOwner()->isEntryBlock())
      return LaneValues::uniform();
    // The induction variable of a loop whose bounds every lane shares.
    if (auto loop = dyn_cast<scf::ForOp>(owner))
      if (argument == loop.getInductionVar() &&
          evaluate(loop.getLowerBound(), warp).isUniform() &&
          evaluate(loop.getUpperBound(), warp).isUniform() &&
          evaluate(loop.getStep(), warp).isUniform())
        return LaneValues::uniform();
    return LaneValues::varying();
  }

  Operation *op = value.getDefiningOp();
  unsigned result = cast<OpResult>(value).getResultNumber();
  return TypeSwitch<Operation *, LaneValues>(op)
      .Case<LaneIdOp, gpu::LaneIdOp>([&](Operation *) {
        return knownLanes(live, [&](unsigned lane) { return integer(lane); });
      })
      .Case([&](gpu::ThreadIdOp id) {
        if (!block)
          return LaneValues::varying();
        return knownLanes(live, [&](unsigned lane) {
          return integer(
              getThreadId(int64_t(warp) * kWarpSize + lane, id.getDimension()));
        });
      })
      .Case([&](gpu::BlockDimOp dim) {
        if (!block)
          return LaneValues::uniform();
        int64_t extent = (*block)[unsigned(dim.getDimension())];
        return knownLanes(live, [&](unsigned) { return integer(extent); });
      })
      .Case<gpu::BlockIdOp, gpu::GridDimOp>(
          [](Operation *) { return LaneValues::uniform(); })
      .Case([&](WarpIdOp id) {
        if (!block)
          return id.getLinear() ? LaneValues::uniform() : LaneValues::varying();
        return knownLanes(live, [&](unsigned lane) {
          int64_t thread = int64_t(warp) * kWarpSize + lane;
          return integer(id.getLinear()
                             ? thread / kWarpSize
                             : getThreadId(thread, gpu::Dimension::x) /
                                   kWarpSize);
        });
      })
      .Default([&](Operation *op) {
        // Full-warp collectives that give every lane the same value.
        if (isFullWarpUniformCollective(op))
          return LaneValues::uniform();
        return fold(op, result, warp);
      });
}

LaneValues LaneSetAnalysis::fold(Operation *op, unsigned result,
                                 unsigned warp) {
  // Only the pure, region-free arithmetic between ids and conditions: its
  // folders compute on constants without touching the IR.
  if (!isa<arith::ArithDialect, index::IndexDialect>(op->getDialect()) ||
      op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return LaneValues::varying();
  SmallVector<LaneValues, 2> operands;
  bool allKnown = true, allUniform = true;
  for (Value operand : op->getOperands()) {
    operands.push_back(evaluate(operand, warp));
    allKnown &= operands.back().isKnown();
    allUniform &= operands.back().isUniform();
  }
  if (!allKnown)
    return allUniform ? LaneValues::uniform() : LaneValues::varying();
  LaneValues folded{LaneValues::Kind::Known, {}};
  folded.lanes.resize(kWarpSize);
  uint32_t live = getLiveLanes(warp);
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(live & (1u << lane)))
      continue;
    SmallVector<Attribute> attributes;
    for (const LaneValues &operand : operands)
      attributes.push_back(operand.lanes[lane]);
    SmallVector<OpFoldResult> results;
    if (failed(op->fold(attributes, results)) || results.size() <= result)
      return allUniform ? LaneValues::uniform() : LaneValues::varying();
    OpFoldResult lanesResult = results[result];
    if (auto attribute = dyn_cast<Attribute>(lanesResult)) {
      // Poison (a division by zero) and the like: not a value to branch on.
      if (!isa<IntegerAttr, FloatAttr>(attribute))
        return LaneValues::varying();
      folded.lanes[lane] = attribute;
      continue;
    }
    // A fold to one of the operands (x + 0 is x).
    auto it = llvm::find(op->getOperands(), cast<Value>(lanesResult));
    if (it == op->operand_end())
      return allUniform ? LaneValues::uniform() : LaneValues::varying();
    folded.lanes[lane] =
        operands[std::distance(op->operand_begin(), it)].lanes[lane];
  }
  return folded;
}

std::optional<LaneReach> LaneSetAnalysis::getReach(Operation *op,
                                                   unsigned warp) {
  // The regions from the kernel's body down to `op`'s, outermost first.
  SmallVector<Region *> regions;
  for (Operation *child = op;;) {
    Region *region = child->getParentRegion();
    Operation *parent = region->getParentOp();
    // Before its first branch every lane that entered the kernel runs.
    if (parent == kernel.getOperation()) {
      if (!child->getBlock()->isEntryBlock())
        return std::nullopt;
      break;
    }
    if (!parent || !region->hasOneBlock())
      return std::nullopt;
    regions.push_back(region);
    child = parent;
  }
  LaneReach reach{getLiveLanes(warp), {}};
  for (Region *region : llvm::reverse(regions)) {
    Operation *parent = region->getParentOp();
    if (auto branch = dyn_cast<scf::IfOp>(parent)) {
      LaneValues condition = evaluate(branch.getCondition(), warp);
      // A condition every lane shares but whose value is unknown lets
      // all the lanes through, or none (then nothing runs the op).
      if (!condition.isKnown()) {
        if (!condition.isUniform())
          return std::nullopt;
        continue;
      }
      uint32_t taken = condition.getTrueLanes(reach.lanes);
      if (region == &branch.getElseRegion())
        taken = reach.lanes & ~taken;
      if (taken != reach.lanes)
        reach.narrowedBy.push_back({branch, taken});
      reach.lanes = taken;
    } else if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      // Every lane runs the same iterations only with shared bounds.
      if (!evaluate(loop.getLowerBound(), warp).isUniform() ||
          !evaluate(loop.getUpperBound(), warp).isUniform() ||
          !evaluate(loop.getStep(), warp).isUniform())
        return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  return reach;
}
