//===- LaneSets.h - which lanes hold what, and reach where ------*- C++ -*-===//
//
// The lane-set analysis behind warp-check-convergence: for each warp of a
// kernel's block, the value every lane holds in a value (where it follows
// from the lane and thread ids, the block size and constants, or from the
// lanes a ballot, vote, match or activemask saw) and the lanes that can
// reach an op through structured control flow (scf) and the branches of the
// kernel body's CFG (cf). Where it cannot tell, it says so; the checks stay
// silent there.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_ANALYSIS_LANESETS_H
#define WARPDIALECT_ANALYSIS_LANESETS_H

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::warp {

/// What the lanes of one warp hold in a value.
struct LaneValues {
  enum class Kind {
    /// Lanes may hold different values, unknown here.
    Varying,
    /// Every lane holds the same value, unknown here.
    Uniform,
    /// Each lane's value is known (`lanes`; null for a lane that does not
    /// exist).
    Known,
  };
  Kind kind = Kind::Varying;
  SmallVector<Attribute, 32> lanes;

  static LaneValues varying() { return {}; }
  static LaneValues uniform() { return {Kind::Uniform, {}}; }
  bool isKnown() const { return kind == Kind::Known; }
  /// Whether every lane holds the same value (Uniform, or Known alike).
  bool isUniform() const;
  /// The lanes, among `lanes`, whose known i1 value is true.
  uint32_t getTrueLanes(uint32_t lanes) const;
  /// The one integer the lanes of `lanes` hold, if they hold one.
  std::optional<llvm::APInt> getUniformInteger(uint32_t lanes) const;
};

/// `lanes` as diagnostics write a set of lanes: `0x` and eight hex digits.
std::string formatLanes(uint32_t lanes);

/// The lanes of one warp that reach an op, and the branches on the way that
/// let only some of them through (each with the lanes it let through).
struct LaneReach {
  uint32_t lanes = 0;
  /// Whether, each time the op runs, all of `lanes` run it together: no
  /// join on the way where lanes arrive from different branches (what
  /// `activemask` returns there, and what keeps a merged value uniform).
  bool together = true;
  struct Narrowing {
    Operation *op;
    uint32_t lanes;
    /// Whether `op` is a loop whose bounds differ between lanes and `lanes`
    /// those that run its last iteration (else those that go through).
    bool lastIteration = false;
  };
  SmallVector<Narrowing, 2> narrowedBy;
  /// The lanes that run the op only at other times than `lanes` do: where
  /// it lies in loops whose trip counts differ between lanes, `lanes` are
  /// those of one run (the last iteration of such a loop) and these the
  /// lanes that have left that loop by then.
  uint32_t atOtherRuns = 0;
};

/// The lane sets of one kernel. The warps of its block come from
/// `known_block_size` (warp w holds the linear threads 32w..32w+31 that
/// exist); without it there is one warp of 32 lanes whose thread ids are
/// unknown.
class LaneSetAnalysis {
public:
  explicit LaneSetAnalysis(gpu::GPUFuncOp kernel);

  unsigned getNumWarps() const { return numWarps; }
  /// The lanes of `warp` that exist (a ragged last warp has fewer).
  uint32_t getLiveLanes(unsigned warp) const;
  /// The block size, where the kernel declares it.
  std::optional<std::array<int64_t, 3>> getBlockSize() const { return block; }

  /// What the lanes of `warp` hold in `value` (Varying where the operands
  /// it depends on lie deeper than the analysis follows).
  LaneValues evaluate(Value value, unsigned warp);

  /// The lanes of `warp` that reach `op`, or std::nullopt where the
  /// control flow above it is not one the analysis follows (branches other
  /// than cf's, loops with lane-dependent bounds or exits, branches on
  /// values it cannot evaluate per lane).
  std::optional<LaneReach> getReach(Operation *op, unsigned warp);

private:
  /// The reach of each block of the kernel body's CFG for one warp: the
  /// union over the edges into a block of its predecessor's reach, narrowed
  /// by the branch's condition lane by lane, iterated to a fixpoint where
  /// the CFG has cycles. A block without an entry is reached by no lane
  /// (yet); std::nullopt where the analysis gives up.
  struct BodyReach {
    DenseMap<Block *, std::optional<LaneReach>> blocks;
    /// The blocks whose reach no longer changes.
    llvm::SmallPtrSet<Block *, 8> final;
    /// In a CFG with loops, the block arguments every lane reaching them
    /// holds alike (assumed while the fixpoint runs, then proven).
    llvm::DenseSet<Value> uniformArgs;
  };
  std::optional<LaneReach> getBlockReach(Block *block, unsigned warp);
  void computeBodyReach(unsigned warp);
  /// How many iterations of `loop` each lane of `among` runs, where its
  /// bounds are known lane by lane (widened so that no count wraps).
  std::optional<SmallVector<llvm::APInt, 32>>
  getTripCounts(scf::ForOp loop, uint32_t among, unsigned warp);
  /// How many times each lane of `among` runs the body of `loop`, where its
  /// loop-carried values are known lane by lane and each round computes
  /// them by arithmetic the analysis folds (at most 1024 rounds).
  std::optional<SmallVector<llvm::APInt, 32>>
  getTripCounts(scf::WhileOp loop, uint32_t among, unsigned warp);
  /// The lanes of `from` (the reach of `pred`) that take `pred`'s
  /// terminator to its successor `succ`.
  std::optional<LaneReach> getEdge(Block *pred, const LaneReach &from,
                                   unsigned succ, unsigned warp);
  LaneValues compute(Value value, unsigned warp);
  LaneValues fold(Operation *op, unsigned result, unsigned warp);
  /// A block argument of the kernel body: the operands of the edges in.
  LaneValues merge(BlockArgument argument, unsigned warp);
  /// A collective's result from the lanes of its members.
  LaneValues collect(Operation *op, unsigned result, unsigned warp);
  /// Thread `t`'s id along dimension `dim` in the declared block.
  int64_t getThreadId(int64_t thread, gpu::Dimension dim) const;

  gpu::GPUFuncOp kernel;
  std::optional<std::array<int64_t, 3>> block;
  unsigned numWarps = 1;
  /// How deep the evaluation of an operand chain is now.
  unsigned depth = 0;
  DenseMap<std::pair<Value, unsigned>, LaneValues> values;
  DenseMap<unsigned, BodyReach> bodyReach;
};

} // namespace mlir::warp

#endif // WARPDIALECT_ANALYSIS_LANESETS_H
