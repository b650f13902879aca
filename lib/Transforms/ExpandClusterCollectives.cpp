//===- ExpandClusterCollectives.cpp - cluster ops to block ops and DSMEM --===//
//
// warp-expand-cluster-collectives (Passes.td): warp.cluster_reduce,
// cluster_scan and cluster_broadcast become a block op for the block's
// part, three workgroup slots per payload type, two cluster barriers and
// loads of other blocks' slots through distributed shared memory:
//
//   the block's part (block_reduce / block_scan total, or the value of the
//   source thread) -> thread 0 (the source thread) parks it in slot 0
//   -> barrier.cluster (arrive.release, wait.acquire): every block's slot 0
//   is written and visible -> thread 0 reads the ranks' slot 0 through
//   `mapa` and folds them from rank 0 up (slot 1: the prefix of the
//   block's rank, slot 2: all ranks) -> barrier.cluster: every remote read
//   is done, and the block's threads see slots 1 and 2 -> every thread
//   reads them.
//
// The second barrier is also what lets the next cluster op of the kernel
// write slot 0 again, and a block exit, with no block still reading its
// slots. A broadcast has every thread read the source's slot 0 directly.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Target/Chip.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::warp {
#define GEN_PASS_DEF_WARPEXPANDCLUSTERCOLLECTIVESPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

constexpr llvm::StringLiteral kSlotsName = "__warp_cluster_slots";
/// Slot 0: the block's part; 1: the prefix of its rank; 2: the cluster's.
constexpr int64_t kSlots = 3;
/// The most blocks of a cluster the ops take: CUDA's limit (sm_90, with
/// the non-portable cluster size allowed).
constexpr int64_t kMaxClusterBlocks = 16;

/// The blocks of the cluster around `op` where its gpu.func states them.
std::optional<int64_t> getKnownClusterBlocks(Operation *op) {
  auto function = op->getParentOfType<gpu::GPUFuncOp>();
  if (!function)
    return std::nullopt;
  std::optional<ArrayRef<int32_t>> size = function.getKnownClusterSize();
  if (!size)
    return std::nullopt;
  int64_t blocks = 1;
  for (int32_t dim : *size)
    blocks *= dim;
  return blocks;
}

/// Builds one cluster op's expansion at the op.
class ClusterBuilder {
public:
  ClusterBuilder(Operation *op, Value slots)
      : b(op->getLoc(), op), slots(slots),
        type(cast<MemRefType>(slots.getType()).getElementType()) {
    std::tie(thread, std::ignore) = buildBlockThreadAndCount(b, b.getLoc(), op);
    rank = NVVM::ClusterId::create(b, b.getI32Type());
    if (std::optional<int64_t> known = getKnownClusterBlocks(op))
      knownBlocks = *known;
    else
      blocks = NVVM::ClusterDim::create(b, b.getI32Type());
  }

  Value i32(int64_t value) { return buildI32Constant(b, b.getLoc(), value); }
  Value index(int64_t value) { return arith::ConstantIndexOp::create(b, value); }
  Value eq(Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lhs, rhs);
  }
  Value isThreadZero() { return eq(thread, i32(0)); }

  /// Runs `body` only where `cond` holds.
  void ifThen(Value cond, function_ref<void()> body) {
    buildIfThen(b, b.getLoc(), cond, body);
  }

  void store(Value value, int64_t slot) {
    memref::StoreOp::create(b, value, slots, ValueRange{index(slot)});
  }
  Value load(int64_t slot) {
    return memref::LoadOp::create(b, slots, ValueRange{index(slot)});
  }
  /// Slot 0 (a block's part) of the block of rank `of` (i32), read
  /// through distributed shared memory.
  Value loadRemote(Value of) {
    MLIRContext *ctx = b.getContext();
    auto shared = LLVM::LLVMPointerType::get(
        ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    auto cluster = LLVM::LLVMPointerType::get(
        ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value base = arith::IndexCastOp::create(
        b, b.getI64Type(), memref::ExtractAlignedPointerAsIndexOp::create(b, slots));
    Value local = LLVM::IntToPtrOp::create(b, shared, base);
    Value remote = NVVM::MapaOp::create(b, cluster, local, of);
    return LLVM::LoadOp::create(b, type, remote,
                                type.getIntOrFloatBitWidth() / 8);
  }
  /// Every thread of the cluster arrives, then waits for all: the writes
  /// before it (to any block's shared memory) are visible after it.
  void clusterBarrier() {
    UnitAttr aligned = b.getUnitAttr();
    NVVM::ClusterArriveOp::create(b, aligned);
    NVVM::ClusterWaitOp::create(b, aligned);
  }

  /// The ranks' slot 0 folded from rank 0 up: over the ranks below
  /// `before` (i32; where given) and over all of them, each rank's slot read
  /// once.
  std::pair<Value, Value> foldRanks(CombineKind kind, Value before) {
    Value first = loadRemote(i32(0));
    auto step = [&](Value r, Value prefix, Value total) -> std::pair<Value, Value> {
      Value value = loadRemote(r);
      Value sum = buildCombine(b, b.getLoc(), kind, total, value);
      if (before)
        prefix = arith::SelectOp::create(
            b, arith::CmpIOp::create(b, arith::CmpIPredicate::slt, r, before),
            buildCombine(b, b.getLoc(), kind, prefix, value), prefix);
      return {prefix, sum};
    };
    if (knownBlocks) {
      Value prefix = first, total = first;
      for (int64_t r = 1; r < *knownBlocks; ++r)
        std::tie(prefix, total) = step(i32(r), prefix, total);
      return {prefix, total};
    }
    auto loop = scf::ForOp::create(b, i32(1), blocks, i32(1), ValueRange{first, first});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    auto [prefix, total] = step(loop.getInductionVar(), loop.getRegionIterArgs()[0],
                                loop.getRegionIterArgs()[1]);
    scf::YieldOp::create(b, ValueRange{prefix, total});
    return {loop.getResult(0), loop.getResult(1)};
  }
  Value expand(ClusterReduceOp reduce) {
    CombineKind kind = reduce.getKind();
    Value part = BlockReduceOp::create(
                     b, TypeRange{type}, reduce.getKindAttr(), reduce.getValue(),
                     /*items=*/false, /*valid_threads=*/Value(),
                     /*commutative=*/false, ResultLanes::First,
                     BlockReduceAlgorithmAttr(), /*tile=*/nullptr)
                     .getResult()[0];
    ifThen(isThreadZero(), [&] { store(part, 0); });
    clusterBarrier();
    ifThen(isThreadZero(), [&] { store(foldRanks(kind, Value()).second, 2); });
    clusterBarrier();
    return load(2);
  }

  std::pair<Value, Value> expand(ClusterScanOp scan) {
    CombineKind kind = scan.getKind();
    auto blockScan = BlockScanOp::create(
        b, TypeRange{type, type}, scan.getKindAttr(), ValueRange{scan.getValue()},
        /*items=*/false, /*init=*/ValueRange(), scan.getExclusive(),
        /*reverse=*/false, /*heads=*/Value(), BlockScanAlgorithmAttr(),
        /*tile=*/nullptr);
    Value own = blockScan.getScanned()[0];
    ifThen(isThreadZero(), [&] { store(blockScan.getTotal()[0], 0); });
    clusterBarrier();
    ifThen(isThreadZero(), [&] {
      // The ranks before this block's (rank 0 takes rank 0's: it does not
      // use its prefix), and all of them for the cluster's total.
      auto [prefix, total] = foldRanks(kind, rank);
      store(prefix, 1);
      store(total, 2);
    });
    clusterBarrier();
    Value prefix = load(1);
    Value first = eq(rank, i32(0));
    Value combined = buildCombine(b, b.getLoc(), kind, prefix, own);
    if (scan.getExclusive()) {
      // Thread 0 of a later block has nothing before it in its block: the
      // prefix itself (`prefix (op) identity` is not that for every kind:
      // minnumf of an all-NaN prefix and +inf is +inf).
      combined = arith::SelectOp::create(b, isThreadZero(), prefix, combined);
    }
    // Rank 0 keeps its block scan bit for bit.
    Value scanned = arith::SelectOp::create(b, first, own, combined);
    return {scanned, load(2)};
  }

  Value expand(ClusterBroadcastOp broadcast) {
    Value source = arith::AndIOp::create(b, eq(rank, broadcast.getBlock()),
                                         eq(thread, broadcast.getThread()));
    ifThen(source, [&] { store(broadcast.getValue(), 0); });
    clusterBarrier();
    Value value = loadRemote(broadcast.getBlock());
    clusterBarrier();
    return value;
  }

private:
  ImplicitLocOpBuilder b;
  Value slots;
  Type type;
  Value thread, rank, blocks;
  std::optional<int64_t> knownBlocks;
};

bool isClusterCollective(Operation *op) {
  return isa<ClusterReduceOp, ClusterScanOp, ClusterBroadcastOp>(op);
}

struct WarpExpandClusterCollectivesPass
    : public warp::impl::WarpExpandClusterCollectivesPassBase<
          WarpExpandClusterCollectivesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isClusterCollective(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    FailureOr<Chip> chip = getLoweringChip(module);
    if (failed(chip))
      return signalPassFailure();
    bool failedAny = false;
    for (Operation *op : ops) {
      if (!chip->hasClusters()) {
        op->emitOpError() << "needs thread-block clusters, sm_90 or newer; the "
                             "target chip is "
                          << chip->str();
        failedAny = true;
        continue;
      }
      std::optional<int64_t> known = getKnownClusterBlocks(op);
      if (known && *known > kMaxClusterBlocks) {
        op->emitOpError() << "takes clusters of at most " << kMaxClusterBlocks
                          << " blocks; the gpu.func's known_cluster_size has "
                          << *known;
        failedAny = true;
      }
    }
    if (failedAny)
      return signalPassFailure();
    WorkgroupBuffers buffers(module);
    for (Operation *op : ops)
      buffers.reserve(kSlotsName, op->getOperand(0).getType(), /*slot=*/0, kSlots);
    buffers.allocate();
    for (Operation *op : ops) {
      OpBuilder at(op);
      Value slots = WorkgroupBuffers::read(
          at, op->getLoc(), buffers.lookup(kSlotsName, op->getOperand(0).getType(), 0));
      ClusterBuilder builder(op, slots);
      SmallVector<Value> results;
      if (auto reduce = dyn_cast<ClusterReduceOp>(op))
        results.push_back(builder.expand(reduce));
      else if (auto scan = dyn_cast<ClusterScanOp>(op)) {
        auto [scanned, total] = builder.expand(scan);
        results = {scanned, total};
      } else
        results.push_back(builder.expand(cast<ClusterBroadcastOp>(op)));
      op->replaceAllUsesWith(results);
      op->erase();
    }
  }
};

} // namespace
