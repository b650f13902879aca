//===- ExpandExchange.cpp - warp.exchange to shuffles or shared memory ----===//
//
// Two lowerings of the blocked <-> striped exchange of N items per lane.
//
// Shuffle (power-of-two N, M = 32 / N): the transposition of Catanzaro et
// al.'s in-register transpose. Step k (0..N-1) of blocked_to_striped: lane
// l, with r = l % N and q = l / N, reads from lane M * ((k + r) % N) + q the
// item that lane offers at step k and keeps it for position (k + r) % N.
// The source s must offer its item (s / M - k) % N: after rotating its items
// left by s / M it is the static position (-k) % N. The receiver stores step
// k's item at the static position k and rotates right by r at the end.
// striped_to_blocked is the same with a = l % N, the source
// N * (l % M) + (k + l / M) % N and the final rotation l / M. Rotations by a
// per-lane amount are barrel shifters of selects over whole vectors (static
// vector.shuffle, then arith.select), so no vector is indexed dynamically and
// nothing goes to local memory: N shuffles per 32-bit word, 2 N log2(N)
// selects per item.
//
//   %s = warp.exchange <blocked_to_striped> %b : vector<4xf32>
// becomes
//   %r0 = vector.shuffle %b, %b [1, 2, 3, 0]  ; %b0 = arith.select %bit0, %r0, %b
//   ...                                        (rotate left by lane / 8)
//   %x0 = vector.extract %b1[0] ; %y0, %_ = warp.shuffle <idx> %x0, %src0
//   ... (4 shuffles)
//   %v = vector.from_elements %y0, %y1, %y2, %y3 ; rotate right by lane % 4
//
// Shared: a workgroup buffer per gpu.module (prepareExchanges), one slice
// per warp, as large as the largest of the exchanges its kernel may run
// for every one of them (allocateWarpSliceBuffer: warps running different
// exchanges never share bytes); syncwarp, N stores, syncwarp, N loads.
// Item i of the slice lives at i + (i / P) * Q (P = 128 bytes / item size,
// Q items = one 4-byte bank, or one item where items are wider), so the
// lanes of a blocked access (stride N) and of a striped access (stride 1)
// fall in distinct banks or share a word. warp.scatter (ScatterToStriped / ScatterToBlocked) uses the
// same buffer and layout: each item stored at its rank, then loaded like an
// exchange's output.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Transforms/LoweringPolicy.h"

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/WorkgroupBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::warp;

namespace {

/// The workgroup buffer every shared-memory exchange of a gpu.module uses.
constexpr llvm::StringLiteral kExchangeBufferName = "__warp_exchange_buffer";
constexpr unsigned kBufferAlignment = 16;

/// The items a warp.exchange or warp.scatter moves (its first operand).
VectorType itemsType(Operation *op) {
  return cast<VectorType>(op->getOperand(0).getType());
}

unsigned itemBytes(VectorType items) {
  return items.getElementType().getIntOrFloatBitWidth() / 8;
}

/// Items between two paddings: 128 bytes (32 banks of 4 bytes).
unsigned paddingPeriod(VectorType items) { return 128 / itemBytes(items); }

/// Items of one padding: one bank's 4 bytes, or one item where an item is
/// wider (so 4- and 8-byte items pad one item, as they always have).
unsigned paddingItems(VectorType items) {
  return std::max(1u, 4 / itemBytes(items));
}

/// Hardware warps of a block of the function: from `known_block_size`,
/// else the most a block can have.
uint64_t warpsPerBlock(gpu::GPUFuncOp func) {
  return llvm::divideCeil(
      warp::getKnownBlockThreads(func).value_or(warp::kMaxBlockThreads),
      kWarpSize);
}

//===----------------------------------------------------------------------===//
// Shuffle strategy
//===----------------------------------------------------------------------===//

/// `items` rotated by a per-lane `amount` (0..N-1): element i of the result
/// is element (i + amount) % N (left) or (i - amount) % N (right) of
/// `items`. One static rotation and one select per bit of the amount.
Value rotateByLaneAmount(OpBuilder &b, Location loc, Value items, Value amount,
                         bool left) {
  auto type = cast<VectorType>(items.getType());
  int64_t n = type.getNumElements();
  for (int64_t step = 1; step < n; step *= 2) {
    SmallVector<int64_t> permutation;
    for (int64_t i = 0; i < n; ++i)
      permutation.push_back(left ? (i + step) % n : (i - step + n) % n);
    Value rotated = vector::ShuffleOp::create(b, loc, items, items, permutation);
    Value bit =
        arith::AndIOp::create(b, loc, amount, buildI32Constant(b, loc, step));
    Value isSet = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit,
                                        buildI32Constant(b, loc, 0));
    items = arith::SelectOp::create(b, loc, isSet, rotated, items);
  }
  return items;
}

Value lowerExchangeToShuffles(OpBuilder &b, Location loc, ExchangeOp op) {
  unsigned n = op.getItemsPerLane();
  unsigned m = kWarpSize / n;
  unsigned logN = llvm::Log2_32(n), logM = llvm::Log2_32(m);
  auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  Value lane = LaneIdOp::create(b, loc, b.getI32Type());
  Value laneModN = arith::AndIOp::create(b, loc, lane, cst(n - 1));
  Value laneDivN = arith::ShRUIOp::create(b, loc, lane, cst(logN));
  Value laneModM = arith::AndIOp::create(b, loc, lane, cst(m - 1));
  Value laneDivM = arith::ShRUIOp::create(b, loc, lane, cst(logM));
  bool toStriped = op.getDirection() == ExchangeDirection::BlockedToStriped;
  // What the source offers first comes from its pre-rotation; where the
  // receiver reads and how it rotates at the end, from its own lane.
  Value preRotation = toStriped ? laneDivM : laneModN;
  Value postRotation = toStriped ? laneModN : laneDivM;
  Value offered = rotateByLaneAmount(b, loc, op.getItems(), preRotation,
                                     /*left=*/true);
  SmallVector<Value> received;
  for (unsigned k = 0; k < n; ++k) {
    // The item position the receiver fills at this step, in its rotated
    // frame, and the lane holding it.
    Value position = arith::AndIOp::create(
        b, loc, arith::AddIOp::create(b, loc, postRotation, cst(k)),
        cst(n - 1));
    Value source =
        toStriped
            ? arith::OrIOp::create(
                  b, loc, arith::ShLIOp::create(b, loc, position, cst(logM)),
                  laneDivN)
            : arith::OrIOp::create(
                  b, loc, arith::ShLIOp::create(b, loc, laneModM, cst(logN)),
                  position);
    Value item =
        vector::ExtractOp::create(b, loc, offered, int64_t((n - k) % n));
    received.push_back(ShuffleOp::create(b, loc, ShuffleMode::Idx, item,
                                         source, kWarpSize, /*mask=*/Value())
                           .getResult());
  }
  Value gathered = vector::FromElementsOp::create(
      b, loc, op.getItems().getType(), received);
  return rotateByLaneAmount(b, loc, gathered, postRotation, /*left=*/false);
}

//===----------------------------------------------------------------------===//
// Shared strategy
//===----------------------------------------------------------------------===//

/// `index` (an item index of the slice) padded.
Value buildPaddedIndex(OpBuilder &b, Location loc, VectorType items,
                       Value index) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value padding = arith::ShRUIOp::create(
      b, loc, index, cst(llvm::Log2_32(paddingPeriod(items))));
  if (unsigned q = paddingItems(items); q != 1)
    padding = arith::MulIOp::create(b, loc, padding, cst(q));
  return arith::AddIOp::create(b, loc, index, padding);
}

/// The slice index of item `position` of `lane` in the blocked (or striped)
/// arrangement, padded.
Value buildSliceIndex(OpBuilder &b, Location loc, VectorType items, Value lane,
                      unsigned position, bool blocked) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  unsigned n = items.getNumElements();
  Value index =
      blocked ? arith::AddIOp::create(
                    b, loc, arith::MulIOp::create(b, loc, lane, cst(n)),
                    cst(position))
              : arith::AddIOp::create(b, loc, lane,
                                      cst(int64_t(position) * kWarpSize));
  return buildPaddedIndex(b, loc, items, index);
}

/// This warp's slice of the exchange buffer for `op`, typed as `items`'
/// elements: warp w's starts w slices (getWarpSliceBytes) in, the same for
/// every exchange a kernel may run (allocateWarpSliceBuffer).
Value buildWarpSlice(OpBuilder &b, Location loc, Operation *op,
                     VectorType items, memref::GlobalOp buffer) {
  MemRefType bufferType = buffer.getType();
  Value whole = memref::GetGlobalOp::create(b, loc, bufferType,
                                            buffer.getSymName());
  uint64_t slice = getExchangeSliceBytes(items);
  uint64_t stride = getWarpSliceBytes(op).value_or(slice);
  Value warp = arith::IndexCastUIOp::create(
      b, loc, b.getIndexType(),
      WarpIdOp::create(b, loc, b.getI32Type(), /*linear=*/true));
  Value byteShift = arith::MulIOp::create(
      b, loc, warp, arith::ConstantIndexOp::create(b, loc, stride));
  auto sliceType =
      MemRefType::get({int64_t(slice / itemBytes(items))},
                      items.getElementType(), MemRefLayoutAttrInterface(),
                      bufferType.getMemorySpace());
  return memref::ViewOp::create(b, loc, sliceType, whole, byteShift,
                                ValueRange());
}

/// The lane's `N` items loaded from `view`, blocked or striped.
Value loadArranged(OpBuilder &b, Location loc, VectorType items, Value view,
                   Value lane, bool blocked) {
  SmallVector<Value> loaded;
  for (unsigned j = 0; j < items.getNumElements(); ++j)
    loaded.push_back(memref::LoadOp::create(
        b, loc, view, buildSliceIndex(b, loc, items, lane, j, blocked)));
  return vector::FromElementsOp::create(b, loc, items, loaded);
}

Value buildLaneIndex(OpBuilder &b, Location loc) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                      LaneIdOp::create(b, loc, b.getI32Type()));
}

/// The sequence both shared lowerings share: syncwarp (the previous
/// exchange's loads of this warp's slice are done before any lane overwrites
/// it), item j of every lane stored by `store` (given j, the item, the slice
/// and the lane's index), syncwarp (the stores are visible to every lane),
/// the lane's items loaded blocked or striped.
Value exchangeThroughSlice(
    OpBuilder &b, Location loc, Operation *op, memref::GlobalOp buffer,
    bool loadBlocked,
    function_ref<void(unsigned, Value, Value, Value)> store) {
  VectorType items = itemsType(op);
  Value view = buildWarpSlice(b, loc, op, items, buffer);
  Value lane = buildLaneIndex(b, loc);
  SyncWarpOp::create(b, loc, /*mask=*/Value());
  for (unsigned j = 0; j < items.getNumElements(); ++j)
    store(j,
          vector::ExtractOp::create(b, loc, op->getOperand(0), int64_t(j)),
          view, lane);
  SyncWarpOp::create(b, loc, /*mask=*/Value());
  return loadArranged(b, loc, items, view, lane, loadBlocked);
}

Value lowerExchangeThroughShared(OpBuilder &b, Location loc, ExchangeOp op,
                                 memref::GlobalOp buffer) {
  VectorType items = itemsType(op);
  bool writeBlocked = op.getDirection() == ExchangeDirection::BlockedToStriped;
  return exchangeThroughSlice(
      b, loc, op, buffer, /*loadBlocked=*/!writeBlocked,
      [&](unsigned j, Value item, Value view, Value lane) {
        memref::StoreOp::create(
            b, loc, item, view,
            buildSliceIndex(b, loc, items, lane, j, /*blocked=*/writeBlocked));
      });
}

/// The scatter: each item whose rank is a position of the warp (0 .. 32 N -
/// 1, compared unsigned so a negative rank is outside) stored at its rank,
/// the lane's positions loaded striped or blocked.
Value lowerScatterThroughShared(OpBuilder &b, Location loc, ScatterOp op,
                                memref::GlobalOp buffer) {
  VectorType items = itemsType(op);
  Value positions =
      arith::ConstantIndexOp::create(b, loc, kWarpSize * op.getItemsPerLane());
  return exchangeThroughSlice(
      b, loc, op, buffer, /*loadBlocked=*/!op.getStriped(),
      [&](unsigned j, Value item, Value view, Value) {
        Value rank = arith::IndexCastUIOp::create(
            b, loc, b.getIndexType(),
            vector::ExtractOp::create(b, loc, op.getRanks(), int64_t(j)));
        Value inside = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, rank, positions);
        auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        memref::StoreOp::create(b, loc, item, view,
                                buildPaddedIndex(b, loc, items, rank));
      });
}

/// The module's exchange buffer, where prepareExchanges made it.
memref::GlobalOp lookupExchangeBuffer(Operation *op) {
  gpu::GPUModuleOp owner = getExchangeBufferOwner(op);
  return owner ? owner.lookupSymbol<memref::GlobalOp>(kExchangeBufferName)
               : memref::GlobalOp();
}

struct ExpandExchange final : public OpRewritePattern<ExchangeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ExchangeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getItemsPerLane() == 1) {
      rewriter.replaceOp(op, op.getItems());
      return success();
    }
    std::optional<ExchangeStrategy> strategy = op.getStrategy();
    if (!strategy)
      return rewriter.notifyMatchFailure(op, "strategy not chosen yet "
                                             "(prepareExchanges)");
    Location loc = op.getLoc();
    if (*strategy == ExchangeStrategy::Shuffle) {
      rewriter.replaceOp(op, lowerExchangeToShuffles(rewriter, loc, op));
      return success();
    }
    memref::GlobalOp buffer = lookupExchangeBuffer(op);
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "no workgroup buffer");
    rewriter.replaceOp(op, lowerExchangeThroughShared(rewriter, loc, op, buffer));
    return success();
  }
};

struct ExpandScatter final : public OpRewritePattern<ScatterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterOp op,
                                PatternRewriter &rewriter) const override {
    memref::GlobalOp buffer = lookupExchangeBuffer(op);
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "no workgroup buffer "
                                             "(prepareExchanges)");
    rewriter.replaceOp(
        op, lowerScatterThroughShared(rewriter, op.getLoc(), op, buffer));
    return success();
  }
};

} // namespace

uint64_t mlir::warp::getExchangeSliceBytes(VectorType items) {
  uint64_t count = kWarpSize * items.getNumElements();
  uint64_t padded =
      count + (count - 1) / paddingPeriod(items) * paddingItems(items);
  return llvm::alignTo(padded * itemBytes(items), kBufferAlignment);
}

gpu::GPUModuleOp mlir::warp::getExchangeBufferOwner(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  return func ? func->getParentOfType<gpu::GPUModuleOp>() : nullptr;
}

uint64_t mlir::warp::getExchangeSharedBytes(Operation *op) {
  return warpsPerBlock(op->getParentOfType<gpu::GPUFuncOp>()) *
         getExchangeSliceBytes(itemsType(op));
}

LogicalResult mlir::warp::prepareExchanges(Operation *root, const Chip &chip) {
  // Per gpu.module: the exchanges through its buffer.
  llvm::MapVector<gpu::GPUModuleOp, SmallVector<Operation *>> users;
  bool failed = false;
  root->walk([&](Operation *op) {
    if (auto scatter = dyn_cast<ScatterOp>(op)) {
      if (mlir::failed(checkScatterBuffer(scatter, root, chip))) {
        failed = true;
        return;
      }
    } else if (auto exchange = dyn_cast<ExchangeOp>(op)) {
      if (exchange.getItemsPerLane() == 1)
        return;
      FailureOr<ExchangeStrategy> strategy =
          decideExchangeStrategy(exchange, root, chip);
      if (mlir::failed(strategy)) {
        failed = true;
        return;
      }
      exchange.setStrategy(*strategy);
      if (*strategy != ExchangeStrategy::Shared)
        return;
    } else {
      return;
    }
    users[getExchangeBufferOwner(op)].push_back(op);
  });
  if (failed)
    return failure();
  // One buffer per gpu.module for all its warp exchanges (the pattern finds
  // it by name), slices of one size for the exchanges a kernel may run.
  for (auto &[owner, ops] : users)
    if (mlir::failed(allocateWarpSliceBuffer(
            owner, kExchangeBufferName, kBufferAlignment, ops,
            [](Operation *op) { return getExchangeSliceBytes(itemsType(op)); },
            chip.staticSharedMemoryBytes(), "warp exchange")))
      return failure();
  return success();
}

void mlir::warp::populateExpandExchangePatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandExchange, ExpandScatter>(patterns.getContext());
}
