//===- LaneSets.cpp - which lanes hold what, and reach where --------------===//
//
// Values are evaluated on demand, lane by lane, by folding the arith and
// index ops between the lane and thread ids and the branch conditions or
// member masks that use them: the same folders canonicalization uses, so
// every operation the program can compute on constants is understood.
// The reach of an op is that of its block in the kernel body's CFG (a
// forward fixpoint over the cf branches, on demand per warp), narrowed by
// the scf regions between that block and the op.
//
// This is on-demand evaluation, not MLIR's dataflow framework: the values
// are per lane of each warp of a known block (up to 32 warps of 32 lanes),
// which the framework's lattices would carry as 1024-wide states through
// every op, where the checks need a few masks and the conditions above them.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Analysis/LaneSets.h"

#include "WarpDialect/IR/BlockSize.h"
#include "WarpDialect/IR/Uniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/PostOrderIterator.h"
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
  // A value that depends on itself (through a block argument of a loop) is
  // unknown while it is computed.
  values[key] = LaneValues::varying();
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
    if (owner == kernel.getOperation())
      return merge(argument, warp);
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
      .Case([&](LaneMaskOp mask) {
        return knownLanes(live, [&](unsigned lane) {
          uint32_t below = (uint32_t(1) << lane) - 1, at = uint32_t(1) << lane;
          uint32_t bits = 0;
          switch (mask.getKind()) {
          case LaneMaskKind::Lt:
            bits = below;
            break;
          case LaneMaskKind::Le:
            bits = below | at;
            break;
          case LaneMaskKind::Eq:
            bits = at;
            break;
          case LaneMaskKind::Ge:
            bits = ~below;
            break;
          case LaneMaskKind::Gt:
            bits = ~(below | at);
            break;
          }
          return integer(int32_t(bits));
        });
      })
      .Case<ActiveMaskOp, BallotOp, VoteOp, MatchAnyOp, MatchAllOp, BroadcastOp,
            BroadcastFirstOp, ReduceOp>(
          [&](Operation *op) { return collect(op, result, warp); })
      .Default([&](Operation *op) { return fold(op, result, warp); });
}

/// The lanes of `among` as a value of `type` (i32).
static LaneValues uniformAmong(uint32_t among, Attribute value) {
  return knownLanes(among, [&](unsigned) { return value; });
}

/// Whether every member of `op`, a collective with a member mask, gets the
/// same result.
static bool givesMembersOneValue(Operation *op) {
  if (isa<ReduceOp>(op))
    return reducesToEveryLane(op);
  if (auto ballot = dyn_cast<BallotOp>(op))
    return ballot.getWidth() == kWarpSize;
  if (auto vote = dyn_cast<VoteOp>(op))
    return vote.getWidth() == kWarpSize;
  return !isa<MatchAnyOp>(op);
}

LaneValues LaneSetAnalysis::collect(Operation *op, unsigned result,
                                    unsigned warp) {
  // With a member mask every member gets one value (a program where some
  // lane of the reach is not a member is reported at the collective, so
  // a finding built on this one is no false alarm); without one, the
  // full-warp collectives that give every lane the same value.
  auto member = dyn_cast<MemberMaskOpInterface>(op);
  Value maskValue = member ? member.getMask() : Value();
  bool uniform =
      maskValue ? givesMembersOneValue(op) : isFullWarpUniformCollective(op);
  LaneValues fallback = uniform ? LaneValues::uniform() : LaneValues::varying();
  std::optional<LaneReach> reach = getReach(op, warp);
  // Lanes that run it at other times may see other values.
  if (!reach || !reach->lanes || reach->atOtherRuns)
    return fallback;
  // Without a mask, broadcast_first and activemask take the lanes that run
  // the op together: all of the reach where they arrive together.
  if (isa<ActiveMaskOp>(op) || (isa<BroadcastFirstOp>(op) && !maskValue)) {
    if (!reach->together)
      return LaneValues::varying();
    // Which lanes exist is known only with the block size.
    if (!isa<ActiveMaskOp>(op) || !block)
      return LaneValues::uniform();
    return uniformAmong(
        reach->lanes,
        IntegerAttr::get(op->getResult(0).getType(), int32_t(reach->lanes)));
  }
  // The members: the mask's lanes, or every lane of the block; which
  // lanes exist is known only with the block size.
  std::optional<uint32_t> members;
  if (block && maskValue) {
    if (auto known = evaluate(maskValue, warp).getUniformInteger(reach->lanes))
      members = uint32_t(known->getZExtValue()) & getLiveLanes(warp);
  } else if (block) {
    members = getLiveLanes(warp);
  }
  if (!members || !isa<BallotOp, VoteOp, MatchAnyOp, MatchAllOp>(op))
    return fallback;
  // A tile's ballot or vote (width < 32) is not evaluated lane by lane.
  if (isa<BallotOp, VoteOp>(op) && !givesMembersOneValue(op))
    return fallback;
  // What each member holds in the operand; a member the value does not
  // reach (a program reported at the collective) leaves it unknown.
  LaneValues operand = evaluate(op->getOperand(0), warp);
  if (!operand.isKnown()) {
    if (!operand.isUniform() || !reach->together)
      return fallback;
    // A value every member shares: match_any and match_all see the members.
    if (isa<MatchAnyOp>(op) || (isa<MatchAllOp>(op) && result == 0))
      return uniformAmong(
          reach->lanes,
          IntegerAttr::get(op->getResult(result).getType(), int32_t(*members)));
    if (isa<MatchAllOp>(op))
      return uniformAmong(reach->lanes,
                          IntegerAttr::get(op->getResult(result).getType(), 1));
    return fallback;
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if ((*members & (1u << lane)) && !operand.lanes[lane])
      return fallback;
  if (!*members)
    return fallback;
  Type type = op->getResult(result).getType();
  auto i32 = [&](uint32_t bits) -> Attribute {
    return IntegerAttr::get(type, int32_t(bits));
  };
  if (auto match = dyn_cast<MatchAnyOp>(op))
    return knownLanes(reach->lanes, [&](unsigned lane) {
      uint32_t same = 0;
      for (unsigned other = 0; other < kWarpSize; ++other)
        if ((*members & (1u << other)) &&
            operand.lanes[other] == operand.lanes[lane])
          same |= 1u << other;
      return i32(same);
    });
  uint32_t trueLanes = operand.getTrueLanes(*members);
  bool same = llvm::all_of(llvm::seq(0u, kWarpSize), [&](unsigned lane) {
    return !(*members & (1u << lane)) ||
           operand.lanes[lane] == operand.lanes[llvm::countr_zero(*members)];
  });
  Attribute value;
  if (isa<BallotOp>(op)) {
    value = i32(trueLanes);
  } else if (auto vote = dyn_cast<VoteOp>(op)) {
    bool holds = false;
    switch (vote.getKind()) {
    case VoteKind::Any:
      holds = trueLanes != 0;
      break;
    case VoteKind::All:
      holds = trueLanes == *members;
      break;
    case VoteKind::Uni:
      holds = trueLanes == 0 || trueLanes == *members;
      break;
    }
    value = IntegerAttr::get(type, holds);
  } else {
    // match_all: the mask and true where every member holds one value.
    value =
        result == 0 ? i32(same ? *members : 0) : IntegerAttr::get(type, same);
  }
  return uniformAmong(reach->lanes, value);
}

/// Whether the analysis computes `op` from its operands' values: pure,
/// region-free arithmetic (its folders compute on constants without
/// touching the IR).
static bool isFoldable(Operation *op) {
  return isa<arith::ArithDialect, index::IndexDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Result `result` of `op` in one lane whose operands hold `operands`:
/// failure where the folder computes nothing, a null attribute where it
/// gives no scalar (poison, a division by zero: not a value to branch on).
static FailureOr<Attribute> foldInLane(Operation *op,
                                       ArrayRef<Attribute> operands,
                                       unsigned result) {
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() <= result)
    return failure();
  if (auto attribute = dyn_cast<Attribute>(results[result]))
    return isa<IntegerAttr, FloatAttr>(attribute) ? attribute : Attribute();
  // A fold to one of the operands (x + 0 is x).
  auto it = llvm::find(op->getOperands(), cast<Value>(results[result]));
  if (it == op->operand_end())
    return failure();
  return operands[std::distance(op->operand_begin(), it)];
}

LaneValues LaneSetAnalysis::fold(Operation *op, unsigned result,
                                 unsigned warp) {
  // Only the arithmetic between ids and conditions.
  if (!isFoldable(op))
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
    FailureOr<Attribute> value = foldInLane(op, attributes, result);
    if (failed(value))
      return allUniform ? LaneValues::uniform() : LaneValues::varying();
    if (!*value)
      return LaneValues::varying();
    folded.lanes[lane] = *value;
  }
  return folded;
}

LaneValues LaneSetAnalysis::merge(BlockArgument argument, unsigned warp) {
  Block *block = argument.getOwner();
  std::optional<LaneReach> reach = getBlockReach(block, warp);
  // A loop-carried argument the fixpoint takes (or found) to be uniform.
  if (bodyReach[warp].uniformArgs.contains(argument))
    return LaneValues::uniform();
  if (!reach)
    return LaneValues::varying();
  // Lane by lane, the operands of the edges that lane takes in: known
  // where they agree. Every lane holds the same value where the lanes
  // arrive together and every operand is uniform.
  LaneValues known{LaneValues::Kind::Known, {}};
  known.lanes.resize(kWarpSize);
  bool isKnown = true, isUniform = reach->together;
  for (auto it = block->pred_begin(), e = block->pred_end(); it != e; ++it) {
    Block *pred = *it;
    std::optional<LaneReach> from = getBlockReach(pred, warp);
    if (!from)
      return LaneValues::varying();
    std::optional<LaneReach> edge =
        getEdge(pred, *from, it.getSuccessorIndex(), warp);
    auto branch = dyn_cast<BranchOpInterface>(pred->getTerminator());
    if (!edge || !branch)
      return LaneValues::varying();
    if (!edge->lanes)
      continue;
    Value operand = branch.getSuccessorOperands(
        it.getSuccessorIndex())[argument.getArgNumber()];
    if (!operand)
      return LaneValues::varying();
    LaneValues values = evaluate(operand, warp);
    isUniform &= values.isUniform();
    if (!values.isKnown()) {
      isKnown = false;
      continue;
    }
    for (unsigned lane = 0; lane < kWarpSize && isKnown; ++lane) {
      if (!(edge->lanes & (1u << lane)))
        continue;
      Attribute value = values.lanes[lane];
      if (!value || (known.lanes[lane] && known.lanes[lane] != value))
        isKnown = false;
      known.lanes[lane] = value;
    }
  }
  if (isKnown)
    return known;
  return isUniform ? LaneValues::uniform() : LaneValues::varying();
}

/// Whether `value` is the same wherever and whenever a thread of the block
/// computes it: constants, kernel arguments, block and grid ids and sizes,
/// and arithmetic on them (a uniform value in general is only shared by the
/// lanes that compute it together).
static bool isInvariant(Value value, unsigned depth = 0) {
  if (matchPattern(value, m_Constant()))
    return true;
  if (auto argument = dyn_cast<BlockArgument>(value))
    return argument.getOwner()->isEntryBlock() &&
           isa<gpu::GPUFuncOp>(argument.getOwner()->getParentOp());
  Operation *op = value.getDefiningOp();
  if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp>(op))
    return true;
  constexpr unsigned kMaxDepth = 16;
  return depth < kMaxDepth &&
         isa<arith::ArithDialect, index::IndexDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         llvm::all_of(op->getOperands(),
                      [&](Value v) { return isInvariant(v, depth + 1); });
}

std::optional<LaneReach> LaneSetAnalysis::getEdge(Block *pred,
                                                  const LaneReach &from,
                                                  unsigned succ,
                                                  unsigned warp) {
  Operation *terminator = pred->getTerminator();
  if (isa<cf::BranchOp>(terminator))
    return from;
  // The lanes of `from` whose `take(condition's value)` holds; null where
  // the condition is neither known for each lane nor uniform.
  auto narrow =
      [&](Value conditionValue,
          function_ref<bool(Attribute)> take) -> std::optional<LaneReach> {
    LaneValues condition = evaluate(conditionValue, warp);
    if (!condition.isKnown()) {
      // A condition every lane shares lets all the lanes through, or none
      // (then nothing runs past the edge); where they arrive apart, each
      // group may go its own way.
      if (!condition.isUniform() ||
          (!from.together && !isInvariant(conditionValue)))
        return std::nullopt;
      return from;
    }
    LaneReach edge = from;
    edge.lanes = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if (!(from.lanes & (1u << lane)))
        continue;
      if (!condition.lanes[lane])
        return std::nullopt;
      if (take(condition.lanes[lane]))
        edge.lanes |= 1u << lane;
    }
    if (edge.lanes != from.lanes)
      edge.narrowedBy.push_back({terminator, edge.lanes});
    return edge;
  };
  if (auto branch = dyn_cast<cf::CondBranchOp>(terminator)) {
    // Both successors may be the same block: the edge is the one `succ`
    // names.
    bool onTrue = succ == 0;
    return narrow(branch.getCondition(), [&](Attribute v) {
      return !cast<IntegerAttr>(v).getValue().isZero() == onTrue;
    });
  }
  if (auto branch = dyn_cast<cf::SwitchOp>(terminator)) {
    // Successor 0 is the default, successor i + 1 case i.
    SmallVector<llvm::APInt> cases;
    if (auto values = branch.getCaseValues())
      cases.assign(values->value_begin<llvm::APInt>(),
                   values->value_end<llvm::APInt>());
    return narrow(branch.getFlag(), [&](Attribute v) {
      const llvm::APInt &flag = cast<IntegerAttr>(v).getValue();
      auto it = llvm::find(cases, flag);
      unsigned taken = it == cases.end() ? 0 : 1 + (it - cases.begin());
      return taken == succ;
    });
  }
  return std::nullopt;
}

std::optional<LaneReach> LaneSetAnalysis::getBlockReach(Block *block,
                                                        unsigned warp) {
  if (block->isEntryBlock())
    return LaneReach{getLiveLanes(warp), true, {}};
  if (bodyReach.try_emplace(warp).second)
    computeBodyReach(warp);
  // While the fixpoint runs, the blocks it has not settled are unknown.
  BodyReach &body = bodyReach[warp];
  if (!body.final.contains(block))
    return std::nullopt;
  auto found = body.blocks.find(block);
  if (found == body.blocks.end())
    return LaneReach{0, true, {}};
  return found->second;
}

void LaneSetAnalysis::computeBodyReach(unsigned warp) {
  Region &region = kernel.getBody();
  // Reverse post-order: without back edges, one pass sees every block
  // after its predecessors, which are then settled, and so are the block
  // arguments and conditions there.
  SmallVector<Block *> order;
  for (Block *block : llvm::ReversePostOrderTraversal<Block *>(&region.front()))
    order.push_back(block);
  DenseMap<Block *, unsigned> index;
  for (auto [i, block] : llvm::enumerate(order))
    index[block] = i;
  bool cyclic = llvm::any_of(order, [&](Block *block) {
    return llvm::any_of(block->getPredecessors(), [&](Block *pred) {
      return index.contains(pred) && index[pred] >= index[block];
    });
  });
  // Use bodyReach[warp] afresh each time: evaluating a condition may
  // compute the reach of an op (activemask), which reads this map.
  auto state = [&]() -> BodyReach & { return bodyReach[warp]; };
  state().blocks[&region.front()] = LaneReach{getLiveLanes(warp), true, {}};
  state().final.insert(&region.front());

  auto join = [&](Block *block) -> std::optional<LaneReach> {
    std::optional<LaneReach> result = LaneReach{0, true, {}};
    std::optional<uint32_t> edgeLanes;
    for (auto it = block->pred_begin(), e = block->pred_end(); it != e; ++it) {
      auto found = state().blocks.find(*it);
      if (found == state().blocks.end())
        continue;
      if (!found->second)
        return std::nullopt;
      LaneReach from = *found->second;
      std::optional<LaneReach> edge =
          getEdge(*it, from, it.getSuccessorIndex(), warp);
      if (!edge)
        return std::nullopt;
      // With no lane in, the branch that let none through is the note.
      if (!edge->lanes) {
        if (!edgeLanes && result->narrowedBy.empty())
          result->narrowedBy = edge->narrowedBy;
        continue;
      }
      // Lanes that arrive by edges of different lanes arrive apart.
      if (edgeLanes && *edgeLanes != edge->lanes) {
        result->together = false;
        result->narrowedBy.clear();
      } else if (!edgeLanes) {
        result->narrowedBy = edge->narrowedBy;
      }
      edgeLanes = edge->lanes;
      result->lanes |= edge->lanes;
      result->together &= edge->together;
    }
    return result;
  };

  if (!cyclic) {
    for (Block *block : llvm::drop_begin(order)) {
      std::optional<LaneReach> reach = join(block);
      state().blocks[block] = reach;
      state().final.insert(block);
    }
    return;
  }
  // With loops, grow the lane sets to a fixpoint: each only grows (and
  // `together` only falls), so it ends within 33 rounds a block.
  auto grow = [&]() {
    state().blocks.clear();
    state().blocks[&region.front()] = LaneReach{getLiveLanes(warp), true, {}};
    unsigned rounds = 0, limit = 34 * order.size();
    for (bool changed = true; changed; ++rounds) {
      changed = false;
      if (rounds > limit) {
        for (Block *block : llvm::drop_begin(order))
          state().blocks[block] = std::nullopt;
        return;
      }
      for (Block *block : llvm::drop_begin(order)) {
        std::optional<LaneReach> reach = join(block);
        auto found = state().blocks.find(block);
        bool same = found != state().blocks.end() &&
                    found->second.has_value() == reach.has_value() &&
                    (!reach || (found->second->lanes == reach->lanes &&
                                found->second->together == reach->together));
        if (same)
          continue;
        // A block reached by no lane yet stays out of the map.
        if (found == state().blocks.end() && reach && !reach->lanes)
          continue;
        state().blocks[block] = reach;
        changed = true;
      }
    }
  };
  // Whether the lanes reach `argument`'s block together, each edge in
  // bringing a uniform operand (given the arguments still assumed so).
  auto staysUniform = [&](BlockArgument argument) {
    Block *block = argument.getOwner();
    auto found = state().blocks.find(block);
    if (found == state().blocks.end())
      return true;
    if (!found->second || !found->second->together)
      return false;
    for (auto it = block->pred_begin(), e = block->pred_end(); it != e; ++it) {
      auto from = state().blocks.find(*it);
      if (from == state().blocks.end())
        continue;
      if (!from->second)
        return false;
      std::optional<LaneReach> edge =
          getEdge(*it, *from->second, it.getSuccessorIndex(), warp);
      auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
      if (!edge || !branch)
        return false;
      if (!edge->lanes)
        continue;
      Value operand = branch.getSuccessorOperands(
          it.getSuccessorIndex())[argument.getArgNumber()];
      if (!operand || !evaluate(operand, warp).isUniform())
        return false;
    }
    return true;
  };
  // Loop-carried block arguments (a counter) decide the loops' exits:
  // assume every block argument uniform, grow the fixpoint, drop the
  // assumption where it does not hold and start again (the values computed
  // meanwhile rest on it), until it holds for all that remain. By
  // induction over the run, the arguments left are uniform.
  for (Block *block : llvm::drop_begin(order))
    for (BlockArgument argument : block->getArguments())
      state().uniformArgs.insert(argument);
  for (;;) {
    grow();
    SmallVector<Value> fallen;
    for (Value argument : state().uniformArgs)
      if (!staysUniform(cast<BlockArgument>(argument)))
        fallen.push_back(argument);
    if (fallen.empty())
      break;
    for (Value argument : fallen)
      state().uniformArgs.erase(argument);
    values.clear();
  }
  for (Block *block : order)
    state().final.insert(block);
}

std::optional<SmallVector<llvm::APInt, 32>>
LaneSetAnalysis::getTripCounts(scf::ForOp loop, uint32_t among,
                               unsigned warp) {
  LaneValues lower = evaluate(loop.getLowerBound(), warp);
  LaneValues upper = evaluate(loop.getUpperBound(), warp);
  LaneValues step = evaluate(loop.getStep(), warp);
  if (!lower.isKnown() || !upper.isKnown() || !step.isKnown())
    return std::nullopt;
  bool isUnsigned = loop.getUnsignedCmp();
  // Widened by two bits, so that neither the distance nor the rounding up
  // can wrap.
  Type type = loop.getInductionVar().getType();
  unsigned bits = (isa<IndexType>(type) ? IndexType::kInternalStorageBitWidth
                                        : type.getIntOrFloatBitWidth()) +
                  2;
  SmallVector<llvm::APInt, 32> trips(kWarpSize, llvm::APInt(bits, 0));
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(among & (1u << lane)))
      continue;
    auto lo = dyn_cast_or_null<IntegerAttr>(lower.lanes[lane]);
    auto hi = dyn_cast_or_null<IntegerAttr>(upper.lanes[lane]);
    auto by = dyn_cast_or_null<IntegerAttr>(step.lanes[lane]);
    // A step of zero or less never ends (the op's verifier refuses only
    // constant ones): nothing to conclude.
    if (!lo || !hi || !by || by.getValue().isNonPositive())
      return std::nullopt;
    auto widen = [&](const llvm::APInt &v) {
      return isUnsigned ? v.zextOrTrunc(bits) : v.sextOrTrunc(bits);
    };
    llvm::APInt from = widen(lo.getValue()), to = widen(hi.getValue());
    if (to.sgt(from)) {
      llvm::APInt stride = by.getValue().zextOrTrunc(bits);
      trips[lane] = (to - from + stride - 1).udiv(stride);
    }
  }
  return trips;
}

std::optional<SmallVector<llvm::APInt, 32>>
LaneSetAnalysis::getTripCounts(scf::WhileOp loop, uint32_t among,
                               unsigned warp) {
  // Each lane is run on its own: its loop-carried values go round through
  // the arithmetic of the condition and of the yielded values, folded as
  // above, until the condition fails (or the bound below is passed).
  constexpr unsigned kMaxIterations = 1024;
  SmallVector<llvm::APInt, 32> trips(kWarpSize, llvm::APInt(64, 0));
  SmallVector<LaneValues, 2> inits;
  for (Value init : loop.getInits()) {
    inits.push_back(evaluate(init, warp));
    if (!inits.back().isKnown())
      return std::nullopt;
  }
  scf::ConditionOp condition = loop.getConditionOp();
  scf::YieldOp yield = loop.getYieldOp();
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(among & (1u << lane)))
      continue;
    DenseMap<Value, Attribute> env;
    // The value of `value` in this lane and round; null if not known.
    std::function<Attribute(Value, unsigned)> valueOf =
        [&](Value value, unsigned depth) -> Attribute {
      if (Attribute known = env.lookup(value))
        return known;
      Operation *def = value.getDefiningOp();
      if (!loop->isAncestor(value.getParentRegion()->getParentOp())) {
        LaneValues outside = evaluate(value, warp);
        return outside.isKnown() ? outside.lanes[lane] : Attribute();
      }
      constexpr unsigned kMaxDepth = 64;
      if (!def || !isFoldable(def) || depth > kMaxDepth)
        return {};
      SmallVector<Attribute> operands;
      for (Value operand : def->getOperands()) {
        operands.push_back(valueOf(operand, depth + 1));
        if (!operands.back())
          return {};
      }
      FailureOr<Attribute> result =
          foldInLane(def, operands, cast<OpResult>(value).getResultNumber());
      if (failed(result) || !*result)
        return {};
      env[value] = *result;
      return *result;
    };
    SmallVector<Attribute> carried;
    for (const LaneValues &init : inits)
      carried.push_back(init.lanes[lane]);
    for (unsigned round = 0;; ++round) {
      if (round > kMaxIterations)
        return std::nullopt;
      env.clear();
      for (auto [argument, value] :
           llvm::zip_equal(loop.getBeforeArguments(), carried))
        env[argument] = value;
      auto go = dyn_cast_or_null<IntegerAttr>(
          valueOf(condition.getCondition(), 0));
      if (!go)
        return std::nullopt;
      if (go.getValue().isZero())
        break;
      SmallVector<Attribute> forwarded;
      for (Value value : condition.getArgs())
        forwarded.push_back(valueOf(value, 0));
      env.clear();
      for (auto [argument, value] :
           llvm::zip_equal(loop.getAfterArguments(), forwarded))
        env[argument] = value;
      carried.clear();
      for (Value value : yield.getResults())
        carried.push_back(valueOf(value, 0));
      trips[lane] += 1;
      // A value the condition does not need may stay unknown; the next
      // round fails where the condition does need it.
    }
  }
  return trips;
}

std::optional<LaneReach> LaneSetAnalysis::getReach(Operation *op,
                                                   unsigned warp) {
  // The regions from the kernel's body down to `op`'s, outermost first.
  SmallVector<Region *> regions;
  Block *bodyBlock = nullptr;
  for (Operation *child = op;;) {
    Region *region = child->getParentRegion();
    Operation *parent = region->getParentOp();
    if (parent == kernel.getOperation()) {
      bodyBlock = child->getBlock();
      break;
    }
    if (!parent || !region->hasOneBlock())
      return std::nullopt;
    regions.push_back(region);
    child = parent;
  }
  // The lanes that reach the block of the kernel's body it lies in.
  std::optional<LaneReach> start = getBlockReach(bodyBlock, warp);
  if (!start)
    return std::nullopt;
  LaneReach reach = *start;
  // The loops on the way whose bounds differ between lanes, with each
  // lane's trip count.
  SmallVector<std::pair<Operation *, SmallVector<llvm::APInt, 32>>, 1> ragged;
  // A lane that runs no iteration of `loop` does not get through; which run
  // of the body the others share is settled below, once every branch has
  // narrowed them.
  auto enter = [&](Operation *loop, SmallVector<llvm::APInt, 32> trips) {
    uint32_t entered = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if ((reach.lanes & (1u << lane)) && !trips[lane].isZero())
        entered |= 1u << lane;
    if (entered != reach.lanes)
      reach.narrowedBy.push_back({loop, entered});
    reach.lanes = entered;
    ragged.push_back({loop, std::move(trips)});
  };
  for (Region *region : llvm::reverse(regions)) {
    Operation *parent = region->getParentOp();
    if (auto branch = dyn_cast<scf::IfOp>(parent)) {
      LaneValues condition = evaluate(branch.getCondition(), warp);
      // A condition every lane shares but whose value is unknown lets
      // all the lanes through, or none (then nothing runs the op).
      if (!condition.isKnown()) {
        if (!condition.isUniform() ||
            (!reach.together && !isInvariant(branch.getCondition())))
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
      // Every lane runs the same iterations with shared bounds, where they
      // arrive together.
      if (evaluate(loop.getLowerBound(), warp).isUniform() &&
          evaluate(loop.getUpperBound(), warp).isUniform() &&
          evaluate(loop.getStep(), warp).isUniform() &&
          (reach.together ||
           llvm::all_of(loop->getOperands().take_front(3),
                        [&](Value v) { return isInvariant(v); })))
        continue;
      // Bounds known lane by lane.
      std::optional<SmallVector<llvm::APInt, 32>> trips =
          getTripCounts(loop, reach.lanes, warp);
      if (!trips)
        return std::nullopt;
      enter(loop, std::move(*trips));
    } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      // Each lane's count of runs of the body, where its loop-carried
      // values can be followed lane by lane; the condition runs once more.
      std::optional<SmallVector<llvm::APInt, 32>> trips =
          getTripCounts(loop, reach.lanes, warp);
      if (!trips)
        return std::nullopt;
      if (region == &loop.getBefore())
        for (llvm::APInt &count : *trips)
          count += 1;
      enter(loop, std::move(*trips));
    } else {
      return std::nullopt;
    }
  }
  // Where trip counts differ, the lanes that reach the op do not all run it
  // each time: the last iteration of the outermost such loop (the others
  // in their first) is run by those with the most iterations, while the
  // rest have left that loop.
  for (auto &[loop, trips] : ragged) {
    std::optional<llvm::APInt> most;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if ((reach.lanes & (1u << lane)) && (!most || trips[lane].ugt(*most)))
        most = trips[lane];
    uint32_t last = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if ((reach.lanes & (1u << lane)) && trips[lane] == *most)
        last |= 1u << lane;
    if (!most || last == reach.lanes)
      continue;
    reach.narrowedBy.push_back({loop, last, /*lastIteration=*/true});
    reach.atOtherRuns = reach.lanes & ~last;
    reach.lanes = last;
    break;
  }
  return reach;
}
