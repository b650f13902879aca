//===- ExpandBlockCollectives.cpp - block ops to warp ops + shared memory -===//
//
// Every block op follows one plan: each warp works on its live lanes (a
// ragged last warp passes valid_lanes and the member mask of exactly its
// lanes), lane 0 of each warp parks the warp's value in a workgroup-memory
// scratch array, a barrier, warp 0 combines the parked values and parks its
// result, a barrier, every thread reads what it needs. The scratch array is
// one memref.global per payload type (per buffer key: a tuple's second
// value of one type takes a second array) and buffer scope (every buffer
// here is: the kernels that call a common function share theirs, the
// others have their own, groupByBufferScope), in halves of
//
//   slots 0..31   one per warp: the warps' partials, totals or ballots
//   slot  32      the block's reduction / total
//   slot  33      block_broadcast's value
//   slots 34..65  one per warp: block_scan's prefixes
//
// Consecutive block ops must not overwrite slots that the previous one still
// reads after its last barrier. Two schemes keep them apart:
//
// * Alternating halves (a kernel that calls no function, the common case):
//   the scratch array has two halves, and the block ops that use it take
//   them in turn, by a phase each thread keeps in a private variable (every
//   thread runs the same block ops in the same order, so the phases agree;
//   LLVM promotes the variable to a register, carried through loops). Op k
//   writes half k % 2, whose last reader, op k - 2, finished before every
//   thread reached op k - 1's (last) barrier, which op k's writer has
//   passed. So no op needs a barrier before its first write: one barrier
//   for block_broadcast and a folded block_scan (CUB's one per call, where
//   CUB's callers double-buffer its temp storage themselves).
// * One half (device functions, whose callers' block ops are unknown, and
//   kernels that call them): every slot a block op reads after its last
//   barrier is written by the next block op only after that op's first
//   barrier; block_broadcast and the folded block_scan, which write before
//   a barrier of their own, start with one. The prefixes have slots of
//   their own because the lanes of a warp read their prefix after the last
//   barrier while lane 0 may already park the warp's value of the next
//   block op: no barrier separates the two, and the warp collective in
//   between orders no memory (racecheck reports such a pair as a hazard).
//
// Block ops with `tile N` run the same plan in each tile of N threads as in
// a block of N, their barriers the tile's named barrier (bar.sync 1 + tile,
// N). A tile's barrier waits for no thread outside the tile, so the tiles
// never touch slots another tile or the whole block may use: the scratch
// arrays get 66 slots per tile after the halves, apart for each tile size,
// and the tiled ops take the one-half scheme in them (they never flip the
// phase: one tile's ops need not be another's). Tiled block shuffles have
// an exchange buffer of their own per tile size, and tiled raking ops
// raking buffers of their own per tile size, a group of slots per tile (its
// threads' slots, padded, and its total's), used as a block's.
//
// A raking block_scan parks every thread's values in raking buffers of its
// own (a slot per thread of the scope's largest block, padded against bank
// conflicts where the segments have an even length, the last one for the
// total):
// a thread writes its slot before the first barrier and reads it after the
// last, warp 0 touches the others only in between. A raking reduction whose
// result only thread 0 needs (`threads = <first>`) skips the last barrier
// where the kernel alternates halves: warp 0 still reads the others' slots
// after the first, so the raking buffers of such a kernel have two halves,
// which its untiled raking ops take in turn with the other block ops (the
// argument of the alternating halves above).
//
// warp.block_exchange has a buffer of its own per element type,
// @__warp_block_exchange, sized before any expansion for the largest
// exchange of the scope (B_max * N items, padded): barrier, N stores,
// barrier, N loads. Only block exchanges use it, and each starts with a
// barrier, so the loads of one are done before the next one's stores.
//
//===----------------------------------------------------------------------===//

#include "WarpDialect/IR/CombineKinds.h"
#include "WarpDialect/IR/PlantedBugs.h"
#include "WarpDialect/Utils/Builders.h"
#include "WarpDialect/Utils/WorkgroupBuffers.h"
#include "WarpDialect/Transforms/BlockPositions.h"
#include "WarpDialect/Transforms/Passes.h"
#include "WarpDialect/Transforms/LoweringPolicy.h"
#include "WarpDialect/Transforms/Networks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <map>

namespace mlir::warp {
#define GEN_PASS_DEF_WARPEXPANDBLOCKCOLLECTIVESPASS
#include "WarpDialect/Transforms/Passes.h.inc"
} // namespace mlir::warp

using namespace mlir;
using namespace mlir::warp;

namespace {

constexpr int64_t kTotalSlot = 32;
constexpr int64_t kBroadcastSlot = 33;
constexpr int64_t kFirstPrefixSlot = 34;
/// Slots per half of a scratch array.
constexpr int64_t kScratchSlots = kFirstPrefixSlot + 32;
static_assert(kScratchSlots == kBlockScratchSlots,
              "the radix sort's shared-memory check counts these slots");

constexpr llvm::StringLiteral kBlockExchangeBufferName = "__warp_block_exchange";
constexpr llvm::StringLiteral kTileExchangeBufferName =
    "__warp_block_tile_exchange";
constexpr llvm::StringLiteral kRakeBufferName = "__warp_block_rake";
constexpr llvm::StringLiteral kTileRakeBufferName = "__warp_block_tile_rake";
constexpr llvm::StringLiteral kScratchBufferName = "__warp_block_scratch";


/// Items per padding item in a block exchange buffer of `element`: one per
/// 128 bytes (32 banks of 4 bytes).
int64_t exchangePaddingPeriod(Type element) {
  return getBlockBufferPaddingPeriod(element);
}

/// Elements of the exchange buffer a block exchange or scatter `op` of
/// `items` per thread needs: B_max * N items and their padding.
int64_t exchangeBufferElements(Operation *op, VectorType items) {
  int64_t count = getMaxBlockThreads(op) * items.getNumElements();
  return count + (count - 1) / exchangePaddingPeriod(items.getElementType());
}

/// The segment length S of a raking op's buffer that is padded with one
/// slot after every S: a known block (or a tile) of more than one warp
/// whose segments have an even length. Lane l's segment then starts at
/// l (S + 1), an odd stride, so warp 0's lanes walk their segments without
/// bank conflicts (unpadded, a stride of S = 8 words puts 8 lanes on each
/// bank; CUB pads its raking grid the same way).
std::optional<int64_t> getRakingPadding(Operation *op) {
  // Raking in strides of a warp reads consecutive slots: no padding.
  if (auto reduce = dyn_cast<BlockReduceOp>(op))
    if (reduce.getAlgorithm() == BlockReduceAlgorithm::RakingCommutativeOnly)
      return std::nullopt;
  std::optional<int64_t> threads = getKnownGroupThreads(op);
  if (!threads || *threads <= kWarpSize)
    return std::nullopt;
  int64_t length = llvm::divideCeil(*threads, kWarpSize);
  if (length % 2 != 0)
    return std::nullopt;
  return length;
}

/// Slots of a raking op's buffer for one block (B_max threads) or one tile
/// (`tile N`): a slot per thread, the padding, and the total's slot.
int64_t getRakingGroupSlots(Operation *op) {
  int64_t threads = getTileThreads(op).value_or(getMaxBlockThreads(op));
  std::optional<int64_t> padding = getRakingPadding(op);
  return threads + (padding ? (threads - 1) / *padding : 0) + 1;
}

/// Slots of a raking op's buffer: one group's (getRakingGroupSlots), or
/// with `tile N` one group per tile of the largest block, tile i's from
/// i times a group's.
int64_t getRakingSlots(Operation *op) {
  int64_t slots = getRakingGroupSlots(op);
  if (std::optional<int64_t> n = getTileThreads(op))
    return slots * getMaxTiles(op, *n);
  return slots;
}

/// Where the executing thread sits in its block, as i32 values.
struct BlockGeometry {
  Value thread;   // x + X * (y + Y * z): the hardware's numbering
  Value threads;  // X * Y * Z
  Value lane;     // thread % 32 (the hardware's %laneid)
  Value warp;     // thread / 32
  Value numWarps; // ceil(threads / 32)
  Value live;     // lanes of this warp that exist: min(threads - 32 warp, 32)
  Value mask;     // the member mask of exactly those lanes
  // An op with `tile N`: the tile's index, thread / N in the block; the
  // fields above are then the tile's, as in a block of N threads.
  Value tile;
  std::optional<int64_t> tileThreads;
};

/// `i32` (a non-negative i32) as an index.
Value buildIndex(OpBuilder &b, Location loc, Value i32) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), i32);
}

/// ceil(`threads` / 32), the warps of that many threads, in unsigned
/// arithmetic (threads + 31 fits in 32 unsigned bits for any non-negative
/// i32).
Value buildWarpCount(OpBuilder &b, Location loc, Value threads) {
  Value rounded = arith::AddIOp::create(b, loc, threads,
                                        buildI32Constant(b, loc, kWarpSize - 1));
  return arith::ShRUIOp::create(b, loc, rounded, buildI32Constant(b, loc, 5));
}

/// The geometry at `op`; in a known block of whole warps every warp is
/// known to be whole (live = 32, mask = -1), and in a known block of one
/// warp so are its lanes.
BlockGeometry buildGeometry(OpBuilder &b, Location loc, Operation *op) {
  auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  std::optional<int64_t> known = getKnownBlockThreads(op);
  BlockGeometry g;
  std::tie(g.thread, g.threads) = buildBlockThreadAndCount(b, loc, op);
  // A tile of N threads (whole warps, N a power of two): the thread's rank
  // in it is the low bits of its number, the tile the high ones.
  if (std::optional<int64_t> n = getTileThreads(op)) {
    g.tileThreads = n;
    g.tile = arith::ShRUIOp::create(b, loc, g.thread, cst(llvm::Log2_64(*n)));
    g.thread = arith::AndIOp::create(b, loc, g.thread, cst(*n - 1));
    g.threads = cst(*n);
    g.lane = arith::AndIOp::create(b, loc, g.thread, cst(kWarpSize - 1));
    g.warp = arith::ShRUIOp::create(b, loc, g.thread, cst(5));
    g.numWarps = cst(*n / kWarpSize);
    g.live = cst(kWarpSize);
    g.mask = cst(-1);
    return g;
  }
  // A known block's counts as constants: the expansions after this one
  // read them (a warp scan over the warps' totals takes only the steps
  // that their count needs).
  if (known)
    g.threads = cst(*known);
  Value threads = g.threads;
  // CUDA forms warps from consecutive thread numbers, so the lane is the
  // number mod 32: one AND where reading %laneid is an S2R of its own (it
  // made block reductions measurably slower on the H200). Not in a known
  // ragged block: there LLVM no longer bounded the raking segments' loops
  // by it, which made a small raking block scan several times longer and
  // slower (docs/results/README.md).
  if (known && *known % kWarpSize != 0)
    g.lane = LaneIdOp::create(b, loc, b.getI32Type());
  else
    g.lane = arith::AndIOp::create(b, loc, g.thread, cst(kWarpSize - 1));
  g.warp = arith::ShRUIOp::create(b, loc, g.thread, cst(5));
  g.numWarps = known ? cst(llvm::divideCeil(*known, kWarpSize))
                     : buildWarpCount(b, loc, threads);
  if (known && *known % kWarpSize == 0) {
    g.live = cst(kWarpSize);
    g.mask = cst(-1);
    return g;
  }
  if (known && *known < kWarpSize) {
    g.warp = cst(0);
    g.live = cst(*known);
    g.mask = cst(static_cast<int32_t>(llvm::maskTrailingOnes<uint32_t>(*known)));
    return g;
  }
  std::tie(g.live, g.mask) = buildWarpLiveLanes(b, loc, g.thread, threads);
  return g;
}

/// The barrier of the tile `tile` (its index in the block) of `threads`
/// threads: the named barrier 1 + tile, counting the tile's threads
/// (barrier 0 is the whole block's, gpu.barrier's).
void buildTileBarrier(OpBuilder &b, Location loc, Value tile,
                      int64_t threads) {
  Value id =
      arith::AddIOp::create(b, loc, tile, buildI32Constant(b, loc, 1));
  NVVM::BarrierOp::create(b, loc, Type(), id,
                          buildI32Constant(b, loc, threads),
                          /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
}

/// warp.tile_sync N: the barrier of the executing thread's tile.
void expandTileSync(TileSyncOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t n = op.getSize();
  Value thread = buildBlockThreadAndCount(b, loc, op).first;
  Value tile = arith::ShRUIOp::create(b, loc, thread,
                                      buildI32Constant(b, loc, llvm::Log2_64(n)));
  buildTileBarrier(b, loc, tile, n);
  op.erase();
}

/// The buffer keys of a tuple: each value's type and how many values of that
/// type come before it, so that two values of one type (a Welford triple)
/// travel through distinct buffers.
using BufferKey = std::pair<Type, unsigned>;
SmallVector<BufferKey> getBufferKeys(TypeRange types) {
  DenseMap<Type, unsigned> seen;
  SmallVector<BufferKey> keys;
  for (Type type : types)
    keys.push_back({type, seen[type]++});
  return keys;
}

/// The workgroup-memory arrays of one buffer scope (groupByBufferScope):
/// the scratch arrays and raking buffers (one per buffer key) and the
/// block exchange buffers (one per element type).
class Scratch {
public:
  explicit Scratch(gpu::GPUModuleOp module) : buffers(module) {}

  /// Gives the scratch arrays two halves (before the first get).
  void useTwoHalves() { halves = 2; }

  /// Gives the scratch arrays slots for `count` tiles of `threads` after
  /// the halves (before the first get): tile i's start at
  /// getTileSlots(threads) + i * kScratchSlots. Each tile size has slots of
  /// its own: a tile's barrier does not wait for the threads of a larger
  /// tile around it (or of the smaller ones in it), which may still read
  /// slots of their own tile's last op.
  void useTiles(int64_t threads, int64_t count) {
    int64_t &tiles = tileCounts[threads];
    tiles = std::max(tiles, count);
  }

  /// The first slot of the part of the scratch arrays of the tiles of
  /// `threads`.
  int64_t getTileSlots(int64_t threads) const {
    int64_t first = halves * kScratchSlots;
    for (auto [size, count] : tileCounts)
      if (size < threads)
        first += count * kScratchSlots;
    return first;
  }

  /// The scratch arrays of a tuple of `types`, created on first use.
  Tuple get(OpBuilder &b, Location loc, TypeRange types) {
    Tuple result;
    for (auto [type, slot] : getBufferKeys(types))
      result.push_back(WorkgroupBuffers::read(
          b, loc,
          buffers.getOrCreate(kScratchBufferName, type, slot,
                              getTileSlots(kMaxTileThreads + 1))));
    return result;
  }

  /// The raking buffers of the raking op `op` over a tuple of `types` and,
  /// per buffer, the slot of the total: the last one of the group (the
  /// block's half, or with `tile` the tile, whose group of slots the op's
  /// BlockBuilder then places), past every thread's slot.
  std::pair<Tuple, SmallVector<int64_t>>
  getRakeBuffers(OpBuilder &b, Location loc, Operation *op, TypeRange types) {
    std::pair<Tuple, SmallVector<int64_t>> result;
    for (auto [type, slot] : getBufferKeys(types)) {
      auto [name, key] = getRakeBufferKey(op, slot);
      memref::GlobalOp global = buffers.lookup(name, type, key);
      result.first.push_back(WorkgroupBuffers::read(b, loc, global));
      result.second.push_back(getTileThreads(op) ? getRakingGroupSlots(op) - 1
                                                 : rakeHalfSlots - 1);
    }
    return result;
  }

  /// Creates the raking buffers, one per buffer key: a slot per thread of
  /// the largest block of a raking scan or reduction, its padding, and one
  /// for the block total, twice with `twoHalves` (the untiled raking ops
  /// then alternate halves of getRakeHalfSlots). Tiled raking ops have
  /// buffers of their own, one per tile size, for the reason of useTiles.
  void prepareRakeBuffers(ArrayRef<Operation *> blockOps, bool twoHalves) {
    for (Operation *op : blockOps)
      if (isRakingBlockOp(op) && !getTileThreads(op))
        rakeHalfSlots = std::max(rakeHalfSlots, getRakingGroupSlots(op));
    for (Operation *op : blockOps) {
      if (!isRakingBlockOp(op))
        continue;
      int64_t slots = getTileThreads(op) ? getRakingSlots(op)
                                         : rakeHalfSlots * (twoHalves ? 2 : 1);
      for (auto [type, slot] : getBufferKeys(
               cast<CombiningOpInterface>(op).getValues().getTypes())) {
        auto [name, key] = getRakeBufferKey(op, slot);
        buffers.reserve(name, type, key, slots);
      }
    }
    buffers.allocate();
  }

  /// The slots of one half of the untiled raking buffers: the largest
  /// group of the scope's untiled raking ops.
  int64_t getRakeHalfSlots() const { return rakeHalfSlots; }

  /// The name and key of the raking buffer of the `slot`th value of its
  /// type in the raking op `op`: a tiled op's per tile size.
  static std::pair<StringRef, unsigned> getRakeBufferKey(Operation *op,
                                                         unsigned slot) {
    if (std::optional<int64_t> n = getTileThreads(op))
      return {kTileRakeBufferName,
              slot * kTileSizeKeys + getTileBufferSlot(*n)};
    return {kRakeBufferName, slot};
  }

  /// The block exchange buffer of `element` (see prepareExchangeBuffers),
  /// also a block shuffle's of its payload type; a tiled block shuffle's
  /// own (`tile`).
  Value getExchangeBuffer(OpBuilder &b, Location loc, Type element,
                          std::optional<uint32_t> tile = std::nullopt) {
    return WorkgroupBuffers::read(
        b, loc,
        tile ? buffers.lookup(kTileExchangeBufferName, element,
                              getTileBufferSlot(*tile))
             : buffers.lookup(kBlockExchangeBufferName, element, /*slot=*/0));
  }

  /// The buffer key of the tiled shuffles' buffers of `threads`: one per
  /// tile size, for the reason of useTiles.
  static unsigned getTileBufferSlot(uint32_t threads) {
    return llvm::Log2_32(threads);
  }
  /// Keys getTileBufferSlot gives (log2 of at most kMaxTileThreads).
  static constexpr unsigned kTileSizeKeys = 16;
  static_assert(kMaxTileThreads < (int64_t(1) << kTileSizeKeys));

  /// Creates the block exchange buffers, one per element type sized for the
  /// largest exchange, block shuffle (a slot per thread of its payload type)
  /// or block shift (a slot per thread of its element type); failure (with
  /// a diagnostic at the op) where an exchange's cannot fit in the chip's
  /// static shared memory.
  LogicalResult prepareExchangeBuffers(ArrayRef<Operation *> blockOps,
                                       const Chip &chip) {
    const uint64_t limit = chip.staticSharedMemoryBytes();
    for (Operation *op : blockOps) {
      if (auto shuffle = dyn_cast<BlockShuffleOp>(op)) {
        std::optional<uint32_t> tile = shuffle.getTile();
        buffers.reserve(tile ? kTileExchangeBufferName
                             : kBlockExchangeBufferName,
                        shuffle.getValue().getType(),
                        tile ? getTileBufferSlot(*tile) : 0,
                        getMaxBlockThreads(shuffle));
      }
      if (auto shift = dyn_cast<BlockShiftOp>(op))
        buffers.reserve(kBlockExchangeBufferName, shift.getEdge().getType(),
                        /*slot=*/0, getMaxBlockThreads(shift));
      if (!isa<BlockExchangeOp, BlockScatterOp>(op))
        continue;
      // Both take their items as operand 0.
      auto items = cast<VectorType>(op->getOperand(0).getType());
      Type element = items.getElementType();
      int64_t needed = exchangeBufferElements(op, items);
      uint64_t bytes = needed * (element.getIntOrFloatBitWidth() / 8);
      if (bytes > limit)
        return op->emitOpError()
               << "needs a workgroup buffer of " << bytes << " bytes ("
               << getMaxBlockThreads(op) << " threads x "
               << items.getNumElements() << " items of " << element
               << ", padded), more than the " << limit
               << " bytes of static shared memory: give the gpu.func a "
                  "(smaller) known_block_size or exchange fewer items";
      buffers.reserve(kBlockExchangeBufferName, element, /*slot=*/0, needed);
    }
    buffers.allocate();
    return success();
  }

private:
  WorkgroupBuffers buffers;
  int64_t halves = 1;
  int64_t rakeHalfSlots = 0;
  std::map<int64_t, int64_t> tileCounts;
};

/// Emits the block op expansions at one op's position, over a tuple of
/// values, each with a buffer of its own.
class BlockBuilder {
public:
  /// `half`: the first slot of the scratch half this op uses where block
  /// ops alternate halves, else null (and the op's buffers are used whole).
  BlockBuilder(OpBuilder &b, Location loc, Operation *op,
               Combiner combiner, function_ref<Tuple()> getBuffers,
               Value half = Value())
      : b(b), loc(loc), combiner(combiner),
        geometry(buildGeometry(b, loc, op)),
        buffers(getBuffers()), half(half) {}

  Value cst(int64_t v) { return buildI32Constant(b, loc, v); }
  Value index(Value i32) { return buildIndex(b, loc, i32); }
  Value eq(Value l, Value r) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, l, r);
  }
  Value ult(Value l, Value r) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, l, r);
  }
  /// The tuple at `slot` of every buffer.
  Tuple load(Value slot) {
    return loadAt(SmallVector<Value>(buffers.size(), slot));
  }
  /// The tuple at `slots[i]` of buffer i.
  Tuple loadAt(ArrayRef<Value> slots) {
    Tuple values;
    for (auto [buffer, slot] : llvm::zip_equal(buffers, slots))
      values.push_back(
          memref::LoadOp::create(b, loc, buffer, index(inHalf(slot))));
    return values;
  }
  void store(ValueRange values, Value slot) {
    storeAt(values, SmallVector<Value>(buffers.size(), slot));
  }
  void storeAt(ValueRange values, ArrayRef<Value> slots) {
    for (auto [value, buffer, slot] : llvm::zip_equal(values, buffers, slots))
      memref::StoreOp::create(b, loc, value, buffer, index(inHalf(slot)));
  }
  /// The block's barrier, or with a tile the tile's.
  void barrier() {
    if (geometry.tile)
      buildTileBarrier(b, loc, geometry.tile, *geometry.tileThreads);
    else
      gpu::BarrierOp::create(b, loc);
  }
  /// With a tile: its slots of the scratch arrays start at `firstTileSlot`
  /// + tile * `tileSlots` (tiles never alternate halves: one tile's block
  /// ops need not be another's, so their phases could differ).
  void placeInTile(int64_t firstTileSlot, int64_t tileSlots = kScratchSlots) {
    if (!geometry.tile)
      return;
    offset = arith::AddIOp::create(
        b, loc, cst(firstTileSlot),
        arith::MulIOp::create(b, loc, geometry.tile, cst(tileSlots)));
  }
  /// Whether this op's scratch half alternates with the previous block
  /// op's (see the file comment).
  bool alternatesHalves() const { return static_cast<bool>(half); }
  /// The barrier an op that writes before its first barrier needs to keep
  /// the previous block op's last reads apart from its writes: none where
  /// block ops alternate halves (see the file comment).
  void leadingBarrier() {
    if (!half)
      barrier();
  }
  /// `lhs (op) rhs`.
  Tuple combine(ValueRange lhs, ValueRange rhs) {
    return combiner(b, loc, lhs, rhs);
  }
  Tuple select(Value condition, ValueRange whenTrue, ValueRange whenFalse) {
    return selectTuple(b, loc, condition, whenTrue, whenFalse);
  }
  /// Runs `body` only where `condition` holds.
  void onlyIf(Value condition, function_ref<void()> body) {
    buildIfThen(b, loc, condition, body);
  }
  /// Lane 0 of each warp parks `values` in the warp's slot.
  void parkPerWarp(ValueRange values) {
    onlyIf(eq(geometry.lane, cst(0)), [&] { store(values, geometry.warp); });
  }
  /// `thenValues()` where `condition` holds, else `elseValues()`, each built
  /// in its own region (a condition uniform over the warp may guard
  /// collectives).
  Tuple choose(Value condition, function_ref<Tuple()> thenValues,
               function_ref<Tuple()> elseValues) {
    auto ifOp = scf::IfOp::create(
        b, loc, condition,
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, thenValues());
        },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(b, loc, elseValues());
        });
    return Tuple(ifOp.getResults());
  }
  /// In warp 0: lane l < `count` (by default numWarps) reads slot l; the
  /// others take `fallback` (values valid_lanes keeps from the combiner, or
  /// a neutral padding).
  Tuple readParked(ValueRange fallback, Value count = Value()) {
    return choose(
        ult(geometry.lane, count ? count : geometry.numWarps),
        [&] { return load(geometry.lane); },
        [&] { return Tuple(fallback); });
  }
  /// The combiner's kind attribute (null with a region).
  CombineKindAttr kindAttr() {
    return combiner.kind ? CombineKindAttr::get(b.getContext(), *combiner.kind)
                         : CombineKindAttr();
  }
  /// Gives `op` (a warp.reduce or warp.scan just created) a copy of the
  /// combiner region.
  void copyCombiner(Region &into) {
    if (!combiner.region)
      return;
    IRMapping mapping;
    combiner.region->cloneInto(&into, mapping);
  }
  /// A warp.reduce with the result in `lanes` (lane 0 by default): over
  /// all 32 lanes without `validLanes`, else over the first `validLanes`
  /// lanes, the executing warp's live lanes being the members.
  Tuple reduceInWarp(ValueRange values, Value validLanes = Value(),
                     ResultLanes lanes = ResultLanes::First) {
    auto reduce = ReduceOp::create(
        b, loc, values.getTypes(), kindAttr(), values, validLanes,
        validLanes ? geometry.mask : Value(), /*heads=*/Value(),
        /*tails=*/Value(), /*cluster_size=*/32, /*cluster_stride=*/1,
        lanes, /*strategy=*/nullptr,
        /*commutative=*/combiner.region && combiner.commutative);
    copyCombiner(reduce.getCombiner());
    return Tuple(reduce.getResult());
  }
  /// A warp.scan over the first `validLanes` lanes (the live lanes being the
  /// members), returning the scans and (`withTotals`) the totals.
  ScanOp scanInWarp(ValueRange values, ValueRange init, Value validLanes,
                    bool exclusive, bool withTotals = true,
                    bool reverse = false) {
    // All 32 lanes (a block of whole warps): the plain warp scan.
    APInt lanes;
    if (validLanes && matchPattern(validLanes, m_ConstantInt(&lanes)) &&
        lanes == kWarpSize)
      validLanes = Value();
    SmallVector<Type> types(values.getTypes());
    // The totals' types again, read from `values`: appending a vector to
    // itself reads freed memory once the append reallocates.
    if (withTotals && isBugPlanted(PlantedBug::BlockScanSelfAppend))
      types.append(types.begin(), types.end());
    else if (withTotals)
      llvm::append_range(types, values.getTypes());
    auto scan = ScanOp::create(b, loc, types, kindAttr(), values, init,
                               validLanes,
                               validLanes ? geometry.mask : Value(),
                               /*heads=*/Value(), exclusive, reverse,
                               /*width=*/32);
    copyCombiner(scan.getCombiner());
    return scan;
  }
  /// Each lane gets `values` of the lane before it (the lane 0's own, which
  /// the callers never use): an inclusive scan shifted into an exclusive
  /// one, as warp.scan does it, where a region without init cannot ask
  /// warp.scan for the exclusive form.
  Tuple fromLaneBefore(ValueRange values) {
    return shuffleTuple(b, loc, ShuffleMode::Up, values, cst(1), kWarpSize,
                        geometry.mask)
        .first;
  }
  /// The mirror of fromLaneBefore for a reverse scan: each lane gets
  /// `values` of the lane after it, the last live lane its own (the clamp
  /// keeps it from reading a lane that does not exist).
  Tuple fromLaneAfter(ValueRange values) {
    Value lastLive = arith::SubIOp::create(b, loc, geometry.live, cst(1));
    return shuffleTuple(b, loc, ShuffleMode::Down, values, cst(1), kWarpSize,
                        geometry.mask, lastLive)
        .first;
  }

  /// A serial loop over slots [from, to) carrying `acc`.
  Tuple forSlots(Value from, Value to, ValueRange acc,
                 function_ref<Tuple(Value slot, ValueRange acc)> body) {
    auto loop = scf::ForOp::create(b, loc, from, to, cst(1), acc);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Tuple next = body(loop.getInductionVar(), loop.getRegionIterArgs());
    scf::YieldOp::create(b, loc, next);
    return Tuple(loop.getResults());
  }

  OpBuilder &b;
  Location loc;
  Combiner combiner;
  BlockGeometry geometry;
  Tuple buffers;

private:
  Value inHalf(Value slot) {
    if (offset)
      slot = arith::AddIOp::create(b, loc, offset, slot);
    return half ? arith::AddIOp::create(b, loc, half, slot) : slot;
  }

  Value half;
  Value offset;
};

/// Thread t's slot in a raking buffer: t, or t + t / S when padded.
Value getRakingSlot(BlockBuilder &bb, Operation *op) {
  Value thread = bb.geometry.thread;
  std::optional<int64_t> padding = getRakingPadding(op);
  if (!padding)
    return thread;
  return arith::AddIOp::create(
      bb.b, bb.loc, thread,
      arith::DivUIOp::create(bb.b, bb.loc, thread, bb.cst(*padding)));
}

/// Warp 0's raking segments (CUB's raking): lane l owns the threads
/// [l S, min(l S + S, B)), S = ceil(B / 32); the first `count` = ceil(B / S)
/// lanes have one (`has`). Its slots are [start, end): the same numbers, or,
/// in a padded raking buffer (see getRakingPadding), each moved up by the
/// segment's number, l.
///
/// In a known block of 32 S threads every lane has a whole segment of the
/// known length S: its items are loaded once (`items`, CUB's
/// RAKING_MEMOIZE), folded and rescanned from registers, unrolled, with no
/// condition on the lane.
struct RakingSegments {
  Value start, end, next, count, has;
  std::optional<int64_t> wholeLength;
  SmallVector<Tuple> items;

  RakingSegments(BlockBuilder &bb, Operation *op) {
    OpBuilder &b = bb.b;
    Location loc = bb.loc;
    const BlockGeometry &g = bb.geometry;
    auto add = [&](Value l, Value r) -> Value {
      return arith::AddIOp::create(b, loc, l, r);
    };
    // S = ceil(B / 32), the block's warp count.
    Value size = g.numWarps;
    count = arith::DivUIOp::create(
        b, loc, add(g.threads, arith::SubIOp::create(b, loc, size, bb.cst(1))),
        size);
    start = arith::MulIOp::create(b, loc, g.lane, size);
    end = arith::MinUIOp::create(b, loc, add(start, size), g.threads);
    if (getRakingPadding(op)) {
      start = add(start, g.lane);
      end = add(end, g.lane);
    }
    next = add(start, bb.cst(1));
    has = bb.ult(g.lane, count);
    std::optional<int64_t> threads = getKnownGroupThreads(op);
    if (threads && *threads % kWarpSize == 0 && *threads > kWarpSize)
      wholeLength = *threads / kWarpSize;
  }

  /// Runs `body` in the lanes that have a segment.
  void inLanesWithSegment(BlockBuilder &bb, function_ref<void()> body) const {
    if (wholeLength)
      body();
    else
      bb.onlyIf(has, body);
  }

  /// The first item of the lane's segment.
  Tuple first(BlockBuilder &bb) const {
    return wholeLength ? items.front() : bb.load(start);
  }

  /// Serially over the segment's items after the first, from the left:
  /// acc = body(slot, item, acc).
  Tuple forRest(BlockBuilder &bb, ValueRange acc,
                function_ref<Tuple(Value, ValueRange, ValueRange)> body) const {
    if (!wholeLength)
      return bb.forSlots(next, end, acc, [&](Value slot, ValueRange acc) {
        return body(slot, bb.load(slot), acc);
      });
    Tuple result(acc);
    for (int64_t k = 1; k < *wholeLength; ++k)
      result = body(arith::AddIOp::create(bb.b, bb.loc, start, bb.cst(k)),
                    items[k], result);
    return result;
  }

  /// Each lane's segment folded serially from the left; the lanes without a
  /// segment pass `fallback` (valid_lanes keeps it from the combiner).
  Tuple fold(BlockBuilder &bb, ValueRange fallback) {
    if (wholeLength) {
      for (int64_t k = 0; k < *wholeLength; ++k)
        items.push_back(
            bb.load(arith::AddIOp::create(bb.b, bb.loc, start, bb.cst(k))));
      return forRest(bb, items.front(),
                     [&](Value, ValueRange item, ValueRange acc) {
                       return bb.combine(acc, item);
                     });
    }
    return bb.choose(
        has,
        [&] {
          return bb.forSlots(next, end, bb.load(start),
                             [&](Value slot, ValueRange acc) {
                               return bb.combine(acc, bb.load(slot));
                             });
        },
        [&] { return Tuple(fallback); });
  }
};

/// The number of warps of a known block of 2 to 8 whole warps whose
/// `values` are all integers (a kind's combine exact in any order): every
/// thread may then fold the warps' values itself (beyond 8 warps a warp
/// collective over them is the shorter path).
std::optional<int64_t> getFoldableWarps(Operation *op, ValueRange values) {
  std::optional<int64_t> threads = getKnownGroupThreads(op);
  if (!threads || *threads % kWarpSize != 0 || *threads < 2 * kWarpSize ||
      *threads > 8 * kWarpSize || !areIntegers(values))
    return std::nullopt;
  return *threads / kWarpSize;
}

/// The number of warps when every thread of a block reduce may fold the
/// warps' partials itself (see getFoldableWarps): one with a kind and no
/// valid_threads.
std::optional<int64_t> foldableWarpPartials(BlockReduceOp op) {
  if (!op.getKind() || op.getValidThreads())
    return std::nullopt;
  return getFoldableWarps(op, op.getValues());
}

/// The lanes of the executing warp that contribute to a block reduction
/// and the number of warps that do: the live lanes and every warp, or with
/// `valid_threads %n` (n taken into [1, B]) the lanes below n and the first
/// ceil(n / 32) warps. A warp past n contributes its first lane, which
/// nothing reads (so that each warp's reduction has a lane).
std::pair<Value, Value> buildContributors(BlockBuilder &bb, BlockReduceOp op) {
  const BlockGeometry &g = bb.geometry;
  if (!op.getValidThreads())
    return {g.live, g.numWarps};
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  // n >= 1 first, so that n - 32 w cannot wrap.
  Value n = arith::MaxSIOp::create(b, loc, op.getValidThreads(), bb.cst(1));
  Value left = arith::SubIOp::create(
      b, loc, n, arith::ShLIOp::create(b, loc, g.warp, bb.cst(5)));
  Value lanes = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, left, bb.cst(1)), g.live);
  Value warps =
      arith::MinUIOp::create(b, loc, g.numWarps, buildWarpCount(b, loc, n));
  return {lanes, warps};
}

Tuple expandReduce(BlockBuilder &bb, BlockReduceOp op) {
  const BlockGeometry &g = bb.geometry;
  ValueRange values = op.getValues();
  // Named values, not structured bindings: the lambdas below capture them.
  Value validLanes, validWarps;
  std::tie(validLanes, validWarps) = buildContributors(bb, op);
  // One warp: its reduction, in every lane, is the block's (the same tree
  // as lane 0's; no memory, no barrier).
  if (std::optional<int64_t> threads = getKnownOneWarpThreads(op))
    return bb.reduceInWarp(
        values,
        *threads == kWarpSize && !op.getValidThreads() ? Value() : validLanes,
        op.getThreads());
  // 2 to 8 whole warps of an integer kind, alternating halves: after the
  // one barrier every thread folds the parked partials (no second
  // reduction in warp 0, no second barrier). The slots 0..warps-1 it reads
  // are written next by the op after next (see the file comment); in one
  // half the next op's parking would overwrite them, so not there.
  if (std::optional<int64_t> warps = foldableWarpPartials(op);
      warps && bb.alternatesHalves()) {
    bb.parkPerWarp(bb.reduceInWarp(values));
    bb.barrier();
    Tuple total = bb.load(bb.cst(0));
    for (int64_t w = 1; w < *warps; ++w)
      total = bb.combine(total, bb.load(bb.cst(w)));
    return total;
  }
  // Whole warps take the plain 32-lane reduction (a butterfly/tree or
  // redux.sync); only a ragged last warp (or one that valid_threads cuts)
  // pays for valid_lanes. The condition is uniform within each warp.
  Tuple partial = bb.choose(
      bb.eq(validLanes, bb.cst(32)), [&] { return bb.reduceInWarp(values); },
      [&] { return bb.reduceInWarp(values, validLanes); });
  bb.parkPerWarp(partial);
  bb.barrier();
  // In warp 0, the total in lane 0. One warp: its partial is the total.
  // Several: warp 0 is whole. A kind's lanes past the last warp contribute
  // a neutral padding, so the plain 32-lane reduction gives, bit for bit,
  // the tree over the partials; a region has no padding and reduces the
  // first validWarps lanes.
  auto reducePartials = [&] {
    return bb.choose(
        bb.eq(validWarps, bb.cst(1)), [&] { return partial; },
        [&] {
          if (!op.getKind())
            return bb.reduceInWarp(bb.readParked(partial, validWarps),
                                   validWarps);
          Value padding = buildCombinePadding(bb.b, bb.loc, *op.getKind(),
                                              values.front().getType());
          return bb.reduceInWarp(bb.readParked(padding, validWarps));
        });
  };
  // The result in thread 0 only (warp 0's lane 0), halves alternating: no
  // second barrier and no load. The slots warp 0 reads are written next by
  // the op after next, behind the next op's barrier, which warp 0 reaches
  // after its reads. The other threads keep their warp's partial.
  if (op.getThreads() == ResultLanes::First && bb.alternatesHalves())
    return bb.choose(bb.eq(g.warp, bb.cst(0)), reducePartials,
                     [&] { return partial; });
  bb.onlyIf(bb.eq(g.warp, bb.cst(0)), [&] {
    Tuple total = reducePartials();
    bb.onlyIf(bb.eq(g.lane, bb.cst(0)),
              [&] { bb.store(total, bb.cst(kTotalSlot)); });
  });
  bb.barrier();
  return bb.load(bb.cst(kTotalSlot));
}

/// The number of warps when a block scan with a kind and no init may skip
/// the warp scan of the warps' totals: one warp, whole or partial (its scan
/// is the block's, for any kind), or a known block of 2 to 8 whole warps of
/// an integer kind, whose combine is exact in any order, so that each
/// thread may fold the totals itself (beyond 8 warps the warp scan of the
/// totals is the shorter path).
std::optional<int64_t> foldableWarpTotals(BlockScanOp op) {
  if (isOneWarpScan(op))
    return 1;
  if (!op.getKind() || op.hasPrefix() || op.getReverse())
    return std::nullopt;
  return getFoldableWarps(op, op.getValues());
}

/// In warp 0, a block scan's prefix region run on the block's total: the
/// exclusive scan of `values` over the first `count` lanes with the
/// region's prefix `p` in front (lane 0 gets `p`, lane l `p (op) I_{l-1}`,
/// I the inclusive scan: the bits of warp.scan's exclusive scan with init
/// `p`), and the total (without `p`). Every lane of warp 0 runs the region
/// on the total; lane 0's prefix reaches the others by a shuffle.
std::pair<Tuple, Tuple> scanWithPrefixRegion(BlockBuilder &bb, BlockScanOp op,
                                             ValueRange values, Value count) {
  ScanOp scan = bb.scanInWarp(values, {}, count, /*exclusive=*/false);
  Tuple total(scan.getTotal());
  Tuple yielded(inlineRegion(bb.b, op.getPrefix(), total));
  Tuple prefix = shuffleTuple(bb.b, bb.loc, ShuffleMode::Idx, yielded,
                              bb.cst(0), kWarpSize, bb.geometry.mask)
                     .first;
  Tuple before = bb.fromLaneBefore(scan.getScanned());
  return {bb.select(bb.eq(bb.geometry.lane, bb.cst(0)), prefix,
                    bb.combine(prefix, before)),
          total};
}

/// CUB's BLOCK_SCAN_WARP_SCANS for small blocks: lane 31 of each warp parks
/// the warp's total, and after one barrier every thread folds the totals of
/// the warps before its own into its prefix (and all of them into the block
/// total), with no second warp scan and no second barrier. The totals go to
/// the prefix slots, which no block op writes before its first barrier, so
/// the next block op cannot overwrite them while a thread still reads them
/// here (compute-sanitizer's racecheck found that with slots 0..31, which
/// a following reduce parks into at once); in one half, a leading barrier
/// keeps the previous block op's reads of the prefix slots apart from these
/// stores.
/// `own` is the warp scan of the op's values.
Tuple expandScanFoldingTotals(BlockBuilder &bb, BlockScanOp op, Tuple own,
                              int64_t warps) {
  const BlockGeometry &g = bb.geometry;
  bool exclusive = op.getExclusive();
  bb.leadingBarrier();
  bb.onlyIf(bb.eq(g.lane, bb.cst(kWarpSize - 1)), [&] {
    // Lane 31's inclusive value is the warp's total.
    bb.store(exclusive ? bb.combine(own, op.getValues()) : own,
             arith::AddIOp::create(bb.b, bb.loc, g.warp,
                                   bb.cst(kFirstPrefixSlot)));
  });
  bb.barrier();
  // prefix: the totals of warps 0 .. warp-1 (warp 0 has none and keeps its
  // own scan); run: of warps 0 .. j.
  Tuple run = bb.load(bb.cst(kFirstPrefixSlot));
  Tuple prefix = run;
  for (int64_t j = 1; j < warps; ++j) {
    Tuple next = bb.combine(run, bb.load(bb.cst(kFirstPrefixSlot + j)));
    if (j + 1 < warps)
      prefix = bb.select(
          arith::CmpIOp::create(bb.b, bb.loc, arith::CmpIPredicate::ugt,
                                g.warp, bb.cst(j)),
          next, prefix);
    run = next;
  }
  Tuple results = bb.combine(prefix, own);
  if (exclusive)
    results = bb.select(bb.eq(g.lane, bb.cst(0)), prefix, results);
  results = bb.select(bb.eq(g.warp, bb.cst(0)), own, results);
  if (!op.getTotal().empty())
    results.append(run.begin(), run.end());
  return results;
}

/// CUB's BLOCK_SCAN_WARP_SCANS, and its mirror image for a reverse scan
/// (each warp's suffix scan, warp 0's reverse scan of the warps' totals,
/// each thread's suffix combined on the right of its own).
Tuple expandScan(BlockBuilder &bb, BlockScanOp op) {
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  const BlockGeometry &g = bb.geometry;
  bool exclusive = op.getExclusive();
  bool reverse = op.getReverse();
  bool hasInit = op.hasPrefix();
  // A region's exclusive scan needs an init (the verifier's rule): without
  // one, the inclusive scan, shifted.
  bool shiftInclusive = !op.getKind() && !hasInit;
  // Each warp scans its live lanes and learns its total. A region's
  // exclusive warp scan is the inclusive one shifted by a lane (the lane 0
  // of each warp, the last live lane when reversed, takes the prefix
  // alone).
  bool regionExclusive = exclusive && !op.getKind();
  std::optional<int64_t> foldWarps = foldableWarpTotals(op);
  bool oneWarp = foldWarps == 1;
  ScanOp warpScan = bb.scanInWarp(
      op.getValues(), {}, g.live, exclusive && !regionExclusive,
      /*withTotals=*/!foldWarps || (oneWarp && !op.getTotal().empty()),
      reverse);
  Tuple own(warpScan.getScanned());
  if (regionExclusive)
    own = reverse ? bb.fromLaneAfter(own) : bb.fromLaneBefore(own);
  if (oneWarp) {
    // The warp's scan and total are the block's: no memory, no barrier.
    Tuple results = own;
    results.append(warpScan.getTotal().begin(), warpScan.getTotal().end());
    return results;
  }
  if (foldWarps)
    return expandScanFoldingTotals(bb, op, own, *foldWarps);
  Tuple warpTotal(warpScan.getTotal());
  bb.parkPerWarp(warpTotal);
  bb.barrier();
  Value one = bb.cst(1);
  Value lastWarp = arith::SubIOp::create(b, loc, g.numWarps, one);
  // Warp 0 turns the warps' totals into each warp's prefix (init in front;
  // when reversed, its suffix: the later warps', init at the end) and parks
  // the block's total. Without an exclusive scan at hand, warp w's prefix
  // is the inclusive scan of warp w - 1 (w + 1 when reversed), parked
  // there.
  bb.onlyIf(bb.eq(g.warp, bb.cst(0)), [&] {
    Tuple parked = bb.readParked(warpTotal);
    Tuple prefixes, total;
    if (op.getPrefix().empty()) {
      ScanOp scan =
          bb.scanInWarp(parked, op.getInit(), g.numWarps, !shiftInclusive,
                        /*withTotals=*/true, reverse);
      prefixes.assign(scan.getScanned().begin(), scan.getScanned().end());
      total.assign(scan.getTotal().begin(), scan.getTotal().end());
    } else {
      std::tie(prefixes, total) =
          scanWithPrefixRegion(bb, op, parked, g.numWarps);
    }
    // The slot of lane l's scan: warp l's, or with a shifted inclusive
    // scan warp l + 1's (l - 1 reversed); lanes without a warp there park
    // nothing.
    int64_t shift = shiftInclusive ? (reverse ? -1 : 1) : 0;
    Value slot = arith::AddIOp::create(b, loc, g.lane,
                                       bb.cst(kFirstPrefixSlot + shift));
    Value parks = bb.ult(g.lane, shift > 0 ? lastWarp : g.numWarps);
    if (shift < 0)
      parks = arith::AndIOp::create(
          b, loc, parks,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, g.lane,
                                one));
    bb.onlyIf(parks, [&] { bb.store(prefixes, slot); });
    bb.onlyIf(bb.eq(g.lane, bb.cst(0)),
              [&] { bb.store(total, bb.cst(kTotalSlot)); });
  });
  bb.barrier();
  // The warp whose own scan is its result when there is no init: the
  // first (the last when reversed).
  Value alone = bb.eq(g.warp, reverse ? lastWarp : bb.cst(0));
  auto prefixed = [&] {
    Tuple prefix =
        bb.load(arith::AddIOp::create(b, loc, g.warp, bb.cst(kFirstPrefixSlot)));
    // prefix (op) own (own (op) suffix reversed); the first lane of an
    // exclusive scan (the last live one reversed) has no own part.
    Tuple result = reverse ? bb.combine(own, prefix) : bb.combine(prefix, own);
    if (exclusive) {
      Value edge = reverse ? arith::SubIOp::create(b, loc, g.live, one)
                           : bb.cst(0);
      result = bb.select(bb.eq(g.lane, edge), prefix, result);
    }
    return result;
  };
  Tuple results;
  if (shiftInclusive) {
    // That warp has no prefix slot: its own scan is the result.
    results = bb.choose(alone, [&] { return own; }, prefixed);
  } else {
    results = prefixed();
    // Without init, that warp's prefix is nothing: its own scan is the
    // result (combining the identity in could change a float's bits,
    // -0.0 + 0.0).
    if (!hasInit)
      results = bb.select(alone, own, results);
  }
  if (!op.getTotal().empty()) {
    Tuple totals = bb.load(bb.cst(kTotalSlot));
    results.append(totals.begin(), totals.end());
  }
  return results;
}

/// CUB's raking scan: every thread parks its values in its own slot of the
/// raking buffers; warp 0's lane l folds the segment of slots
/// [l S, min(l S + S, B)), S = ceil(B / 32), serially; warp 0 scans the
/// segment totals exclusively (init in front) and lane l rescans its
/// segment from its prefix, writing the results in place; each thread reads
/// its slot. The slots a thread reads after the last barrier (its own, the
/// total) are written by the next raking scan only by that thread or after
/// the next first barrier.
Tuple expandRakingScan(BlockBuilder &bb, BlockScanOp op,
                       ArrayRef<Value> totalSlots) {
  assert(!op.getReverse() && "raking has no reverse form (the verifier's "
                             "and the policy's rule)");
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  const BlockGeometry &g = bb.geometry;
  ValueRange values = op.getValues();
  bool exclusive = op.getExclusive();
  bool hasInit = op.hasPrefix();
  bool shiftInclusive = !op.getKind() && !hasInit;

  Value own = getRakingSlot(bb, op);
  bb.store(values, own);
  bb.barrier();
  bb.onlyIf(bb.eq(g.warp, bb.cst(0)), [&] {
    RakingSegments segments(bb, op);
    Tuple segmentTotal = segments.fold(bb, values);
    Tuple prefix, total;
    if (op.getPrefix().empty()) {
      ScanOp scan = bb.scanInWarp(segmentTotal, op.getInit(), segments.count,
                                  /*exclusive=*/!shiftInclusive);
      prefix.assign(scan.getScanned().begin(), scan.getScanned().end());
      total.assign(scan.getTotal().begin(), scan.getTotal().end());
      if (shiftInclusive)
        prefix = bb.fromLaneBefore(prefix);
    } else {
      std::tie(prefix, total) =
          scanWithPrefixRegion(bb, op, segmentTotal, segments.count);
    }
    segments.inLanesWithSegment(bb, [&] {
      Tuple first = segments.first(bb);
      Tuple inclusive = bb.combine(prefix, first);
      Tuple before = prefix;
      // Without init, lane 0's segment has no prefix: the scan starts from
      // its first value (combining the identity in could change a float's
      // bits, -0.0 + 0.0), and an exclusive scan (a kind's: a region's
      // needs init) gives it the identity.
      if (!hasInit) {
        Value noPrefix = bb.eq(g.lane, bb.cst(0));
        inclusive = bb.select(noPrefix, first, inclusive);
        if (exclusive) {
          Value identity = buildCombineIdentity(b, loc, *op.getKind(),
                                                values.front().getType());
          before = bb.select(noPrefix, identity, before);
        }
      }
      bb.store(exclusive ? before : inclusive, segments.start);
      segments.forRest(bb, inclusive,
                       [&](Value slot, ValueRange item, ValueRange acc) {
                         Tuple combined = bb.combine(acc, item);
                         bb.store(exclusive ? Tuple(acc) : combined, slot);
                         return combined;
                       });
    });
    // The total is parked only for a scan that returns it: a lane's store
    // in front of the barrier costs the other lanes a wait there.
    if (!op.getTotal().empty())
      bb.onlyIf(bb.eq(g.lane, bb.cst(0)),
                [&] { bb.storeAt(total, totalSlots); });
  });
  bb.barrier();
  Tuple results = bb.load(own);
  if (!op.getTotal().empty()) {
    Tuple totals = bb.loadAt(totalSlots);
    results.append(totals.begin(), totals.end());
  }
  return results;
}

/// A raking reduction's result in thread 0 only (`threads = <first>`)
/// where the raking buffers alternate halves: warp 0's `reduce()` after
/// the first barrier, the other warps' own values, and no second barrier
/// or round trip of the total through memory. The slots warp 0 reads are
/// written next by the raking op after next, behind the barrier of the
/// block op between, which warp 0 reaches after its reads. Empty
/// otherwise.
Tuple reduceFirst(BlockBuilder &bb, BlockReduceOp op,
                  function_ref<Tuple()> reduce) {
  if (op.getThreads() != ResultLanes::First || !bb.alternatesHalves())
    return {};
  return bb.choose(bb.eq(bb.geometry.warp, bb.cst(0)), reduce,
                   [&] { return Tuple(op.getValues()); });
}

/// CUB's raking reduction: as the raking scan up to the segment totals,
/// which warp 0 reduces (warp.reduce over the segments' lanes); every
/// thread reads the total.
Tuple expandRakingReduce(BlockBuilder &bb, BlockReduceOp op,
                         ArrayRef<Value> totalSlots) {
  const BlockGeometry &g = bb.geometry;
  bb.store(op.getValues(), getRakingSlot(bb, op));
  bb.barrier();
  auto reduceSegments = [&] {
    RakingSegments segments(bb, op);
    return bb.reduceInWarp(segments.fold(bb, op.getValues()), segments.count);
  };
  if (Tuple total = reduceFirst(bb, op, reduceSegments); !total.empty())
    return total;
  bb.onlyIf(bb.eq(g.warp, bb.cst(0)), [&] {
    Tuple total = reduceSegments();
    bb.onlyIf(bb.eq(g.lane, bb.cst(0)),
              [&] { bb.storeAt(total, totalSlots); });
  });
  bb.barrier();
  return bb.loadAt(totalSlots);
}

/// CUB's BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY: the threads past warp 0 park
/// their values in their slots, a barrier, warp 0's lane l folds its own
/// values with those of threads l + 32, l + 64, ... below B (warp w's
/// turn reads slots 32 w .. 32 w + 31: consecutive, no bank conflicts),
/// warp 0 reduces the folds of its first min(B, 32) lanes, lane 0 parks
/// the total, a barrier, every thread reads it.
Tuple expandRakingCommutativeReduce(BlockBuilder &bb, BlockReduceOp op,
                                    ArrayRef<Value> totalSlots) {
  const BlockGeometry &g = bb.geometry;
  bb.onlyIf(bb.ult(bb.cst(0), g.warp),
            [&] { bb.store(op.getValues(), g.thread); });
  bb.barrier();
  auto reduceFolds = [&] {
    OpBuilder &b = bb.b;
    Location loc = bb.loc;
    Tuple fold = bb.forSlots(
        bb.cst(1), g.numWarps, op.getValues(), [&](Value w, ValueRange acc) {
          Value thread = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, w, bb.cst(kWarpSize)),
              g.lane);
          return bb.choose(
              bb.ult(thread, g.threads),
              [&] { return bb.combine(acc, bb.load(thread)); },
              [&] { return Tuple(acc); });
        });
    Value lanes = arith::MinUIOp::create(b, loc, g.threads, bb.cst(kWarpSize));
    return bb.reduceInWarp(fold, lanes);
  };
  if (Tuple total = reduceFirst(bb, op, reduceFolds); !total.empty())
    return total;
  bb.onlyIf(bb.eq(g.warp, bb.cst(0)), [&] {
    Tuple total = reduceFolds();
    bb.onlyIf(bb.eq(g.lane, bb.cst(0)),
              [&] { bb.storeAt(total, totalSlots); });
  });
  bb.barrier();
  return bb.loadAt(totalSlots);
}

/// The block (or tile) ballot: each warp's ballot of its live lanes, lane
/// 0 parks it in the warp's slot, a barrier, every thread loads the words
/// (the verifier's W: the tile's or the known block's warps, every one of
/// which parked a word). A known block of one warp: its ballot, the one
/// word, with no memory or barrier.
Tuple expandBallot(BlockBuilder &bb, BlockBallotOp op) {
  OpBuilder &b = bb.b;
  Location loc = bb.loc;
  const BlockGeometry &g = bb.geometry;
  VectorType type = op.getResult().getType();
  Value word = BallotOp::create(b, loc, b.getI32Type(), op.getPredicate(),
                                g.mask);
  if (getKnownOneWarpThreads(op))
    return {vector::FromElementsOp::create(b, loc, type, word)};
  // The words go to the prefix slots, as the folded block_scan's totals:
  // every thread reads them after the (last) barrier, and the next block
  // op writes those slots only after its first barrier (a reduction parks
  // its partials in slots 0.. before its first).
  bb.leadingBarrier();
  bb.onlyIf(bb.eq(g.lane, bb.cst(0)), [&] {
    bb.store(word, arith::AddIOp::create(b, loc, g.warp,
                                         bb.cst(kFirstPrefixSlot)));
  });
  bb.barrier();
  SmallVector<Value> words;
  for (int64_t w = 0; w < type.getNumElements(); ++w)
    words.push_back(bb.load(bb.cst(kFirstPrefixSlot + w)).front());
  return {vector::FromElementsOp::create(b, loc, type, words)};
}

Tuple expandBroadcast(BlockBuilder &bb, BlockBroadcastOp op) {
  bb.leadingBarrier();
  bb.onlyIf(bb.eq(bb.geometry.thread, op.getThread()),
            [&] { bb.store(op.getValue(), bb.cst(kBroadcastSlot)); });
  bb.barrier();
  return bb.load(bb.cst(kBroadcastSlot));
}

/// The thread's N items loaded from the padded `buffer` in `arrangement`.
Value loadArranged(OpBuilder &b, Location loc, BlockPositions &positions,
                   Value buffer, Arrangement arrangement, VectorType items) {
  SmallVector<Value> loaded;
  for (int64_t j = 0; j < items.getNumElements(); ++j)
    loaded.push_back(memref::LoadOp::create(
        b, loc, buffer, positions.paddedSlot(positions.position(j, arrangement))));
  return vector::FromElementsOp::create(b, loc, items, loaded);
}

/// The block exchange through its buffer: a barrier (the buffer's earlier
/// readers are done), the items stored where their input arrangement puts
/// them, a barrier, loaded where the output arrangement does.
Value expandExchange(OpBuilder &b, Location loc, Scratch &scratch,
                     BlockExchangeOp op) {
  auto itemsType = cast<VectorType>(op.getItems().getType());
  BlockPositions positions(b, loc, op, itemsType.getNumElements(),
                           itemsType.getElementType());
  auto [from, to] = [&]() -> std::pair<Arrangement, Arrangement> {
    switch (op.getDirection()) {
    case ExchangeDirection::BlockedToStriped:
      return {Arrangement::Blocked, Arrangement::Striped};
    case ExchangeDirection::StripedToBlocked:
      return {Arrangement::Striped, Arrangement::Blocked};
    case ExchangeDirection::BlockedToWarpStriped:
      return {Arrangement::Blocked, Arrangement::WarpStriped};
    case ExchangeDirection::WarpStripedToBlocked:
      return {Arrangement::WarpStriped, Arrangement::Blocked};
    }
    llvm_unreachable("every direction is handled");
  }();
  Value buffer = scratch.getExchangeBuffer(b, loc, itemsType.getElementType());
  gpu::BarrierOp::create(b, loc);
  for (int64_t j = 0; j < op.getItemsPerThread(); ++j)
    memref::StoreOp::create(b, loc,
                            vector::ExtractOp::create(b, loc, op.getItems(), j),
                            buffer,
                            positions.paddedSlot(positions.position(j, from)));
  gpu::BarrierOp::create(b, loc);
  return loadArranged(b, loc, positions, buffer, to, itemsType);
}

/// The block scatter through the exchange buffer: a barrier (the buffer's
/// earlier readers are done), each item stored at its rank (an item whose
/// rank is outside the block's positions, or whose flag is false, is
/// dropped), a barrier, each thread's positions loaded, blocked or striped.
Value expandScatter(OpBuilder &b, Location loc, Scratch &scratch,
                    BlockScatterOp op) {
  auto itemsType = cast<VectorType>(op.getItems().getType());
  BlockPositions positions(b, loc, op, itemsType.getNumElements(),
                           itemsType.getElementType());
  Value count = positions.count();
  Value buffer = scratch.getExchangeBuffer(b, loc, itemsType.getElementType());
  gpu::BarrierOp::create(b, loc);
  for (int64_t j = 0; j < op.getItemsPerThread(); ++j) {
    Value rank = vector::ExtractOp::create(b, loc, op.getRanks(), j);
    // A negative rank is a large unsigned one: outside too.
    Value position = buildIndex(b, loc, rank);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         position, count);
    if (Value flags = op.getFlags())
      inside = arith::AndIOp::create(
          b, loc, inside, vector::ExtractOp::create(b, loc, flags, j));
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc,
                            vector::ExtractOp::create(b, loc, op.getItems(), j),
                            buffer, positions.paddedSlot(position));
  }
  gpu::BarrierOp::create(b, loc);
  return loadArranged(
      b, loc, positions, buffer,
      op.getStriped() ? Arrangement::Striped : Arrangement::Blocked,
      itemsType);
}

/// The block shuffle through the exchange buffer of its payload type (a
/// slot per thread): a barrier (the buffer's earlier readers are done), each
/// thread writes its slot, a barrier, each reads its source's slot: t + d
/// (offset; its own slot, so its own value, where t + d is outside the
/// block), (t + d) mod B (rotate) or t ^ d (xor; its own slot from B on).
std::pair<Value, Value> expandShuffle(OpBuilder &b, Location loc,
                                      Scratch &scratch, BlockShuffleOp op) {
  auto [thread, threads] = buildBlockThreadAndCount(b, loc, op);
  Value distance = op.getDistance();
  auto cst = [&](int64_t v) { return buildI32Constant(b, loc, v); };
  // With a tile: the rank in it and N stand for the thread and the block,
  // its first thread's slot is added back to the source, and its barrier
  // stands for the block's.
  Value slot = thread, first, tile;
  std::optional<uint32_t> n = op.getTile();
  if (n) {
    tile = arith::ShRUIOp::create(b, loc, thread, cst(llvm::Log2_64(*n)));
    first = arith::ShLIOp::create(b, loc, tile, cst(llvm::Log2_64(*n)));
    thread = arith::AndIOp::create(b, loc, thread, cst(*n - 1));
    threads = cst(*n);
  }
  auto barrier = [&] {
    if (n)
      buildTileBarrier(b, loc, tile, *n);
    else
      gpu::BarrierOp::create(b, loc);
  };
  auto add = [&](Value l, Value r) -> Value {
    return arith::AddIOp::create(b, loc, l, r);
  };
  auto sub = [&](Value l, Value r) -> Value {
    return arith::SubIOp::create(b, loc, l, r);
  };
  auto cmp = [&](arith::CmpIPredicate predicate, Value l, Value r) -> Value {
    return arith::CmpIOp::create(b, loc, predicate, l, r);
  };
  using P = arith::CmpIPredicate;
  Value source, valid;
  if (op.getMode() == BlockShuffleMode::Offset) {
    // -t <= d < B - t, compared without forming t + d (which may wrap).
    valid = arith::AndIOp::create(
        b, loc, cmp(P::sge, distance, sub(cst(0), thread)),
        cmp(P::slt, distance, sub(threads, thread)));
    source = arith::SelectOp::create(b, loc, valid, add(thread, distance),
                                     thread);
  } else if (op.getMode() == BlockShuffleMode::Xor) {
    // t ^ d, unsigned: a negative d names a rank past any block.
    Value partner = arith::XOrIOp::create(b, loc, thread, distance);
    valid = cmp(P::ult, partner, threads);
    source = arith::SelectOp::create(b, loc, valid, partner, thread);
  } else {
    // t + (d rem B) lies in (-B, 2B): one correction either way.
    Value sum = add(thread, arith::RemSIOp::create(b, loc, distance, threads));
    sum = arith::SelectOp::create(b, loc, cmp(P::slt, sum, cst(0)),
                                  add(sum, threads), sum);
    source = arith::SelectOp::create(b, loc, cmp(P::sge, sum, threads),
                                     sub(sum, threads), sum);
    valid = arith::ConstantIntOp::create(b, loc, /*value=*/1, /*width=*/1);
  }
  if (first)
    source = add(first, source);
  Value buffer = scratch.getExchangeBuffer(b, loc, op.getValue().getType(), n);
  barrier();
  memref::StoreOp::create(b, loc, op.getValue(), buffer,
                          buildIndex(b, loc, slot));
  barrier();
  Value result =
      memref::LoadOp::create(b, loc, buffer, buildIndex(b, loc, source));
  return {result, valid};
}

/// The block shift through the exchange buffer of its element type (a slot
/// per thread): a barrier (the buffer's earlier readers are done), each
/// thread stores the item its neighbour takes (up: its last, for thread
/// t + 1; down: its first, for thread t - 1), a barrier, each loads its
/// neighbour's slot and the block edge's; the other items move in
/// registers. The thread at the block's edge keeps its own item (its load
/// reads its own slot, to stay inside the buffer, and is not used).
std::pair<Value, Value> expandShift(OpBuilder &b, Location loc,
                                    Scratch &scratch, BlockShiftOp op) {
  auto [thread, threads] = buildBlockThreadAndCount(b, loc, op);
  auto one = buildI32Constant(b, loc, 1);
  auto itemsType = cast<VectorType>(op.getItems().getType());
  SmallVector<Value> items;
  for (int64_t j = 0; j < itemsType.getNumElements(); ++j)
    items.push_back(vector::ExtractOp::create(b, loc, op.getItems(), j));
  bool up = op.getDirection() == BlockShiftDirection::Up;
  Value last = arith::SubIOp::create(b, loc, threads, one);
  Value sent = up ? items.back() : items.front();
  Value kept = up ? items.front() : items.back();
  Value atEdge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                       up ? buildI32Constant(b, loc, 0) : last);
  Value step = up ? arith::SubIOp::create(b, loc, thread, one).getResult()
                  : arith::AddIOp::create(b, loc, thread, one).getResult();
  Value neighbour = arith::SelectOp::create(b, loc, atEdge, thread, step);
  Value edgeThread = up ? last : buildI32Constant(b, loc, 0);
  Value buffer = scratch.getExchangeBuffer(b, loc, sent.getType());
  gpu::BarrierOp::create(b, loc);
  memref::StoreOp::create(b, loc, sent, buffer, buildIndex(b, loc, thread));
  gpu::BarrierOp::create(b, loc);
  Value received = arith::SelectOp::create(
      b, loc, atEdge, kept,
      memref::LoadOp::create(b, loc, buffer, buildIndex(b, loc, neighbour)));
  Value edge =
      memref::LoadOp::create(b, loc, buffer, buildIndex(b, loc, edgeThread));
  SmallVector<Value> shifted;
  if (up)
    shifted.push_back(received);
  shifted.append(items.begin() + (up ? 0 : 1), items.end() - (up ? 1 : 0));
  if (!up)
    shifted.push_back(received);
  return {vector::FromElementsOp::create(b, loc, itemsType, shifted), edge};
}

/// Whether `op` parks values in the scratch arrays: every block reduce,
/// scan, broadcast and ballot but the raking ones and those of one warp,
/// which are its warp's collectives.
bool usesScratch(Operation *op) {
  if (isa<BlockBroadcastOp>(op))
    return true;
  // A tile is at least two warps (the verifier's rule).
  if (isa<BlockBallotOp>(op))
    return !getKnownOneWarpThreads(op);
  if (!isa<BlockReduceOp, BlockScanOp>(op) || isRakingBlockOp(op))
    return false;
  if (auto scan = dyn_cast<BlockScanOp>(op))
    return foldableWarpTotals(scan) != 1;
  return !getKnownOneWarpThreads(op);
}

/// The phases of the kernels whose block ops alternate scratch halves (see
/// the file comment): a private i32, 0 or 1, per kernel.
class Phases {
public:
  /// The kernel of `op` where its block ops may alternate halves: a kernel
  /// that calls nothing (a callee's block ops would need to know the phase,
  /// and a device function's callers are unknown).
  gpu::GPUFuncOp getAlternatingKernel(Operation *op) {
    auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
    if (!kernel || !kernel.isKernel())
      return nullptr;
    auto [it, inserted] = alternates.try_emplace(kernel, true);
    if (inserted)
      it->second = !kernel.walk([](CallOpInterface) {
                           return WalkResult::interrupt();
                         }).wasInterrupted();
    return it->second ? kernel : nullptr;
  }

  /// At `b`'s point, in `kernel`: the first slot of the half (of
  /// `halfSlots`) the block op built there uses; the phase flips for the
  /// next one.
  Value takeHalf(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                 int64_t halfSlots = kScratchSlots) {
    Value &variable = variables[kernel];
    Type i32 = b.getI32Type();
    if (!variable) {
      OpBuilder entry = OpBuilder::atBlockBegin(&kernel.getBody().front());
      variable =
          memref::AllocaOp::create(entry, loc, MemRefType::get({}, i32));
      memref::StoreOp::create(entry, loc, buildI32Constant(entry, loc, 0),
                              variable);
    }
    Value phase = memref::LoadOp::create(b, loc, variable);
    Value flipped = arith::XOrIOp::create(b, loc, phase,
                                          buildI32Constant(b, loc, 1));
    memref::StoreOp::create(b, loc, flipped, variable);
    return arith::MulIOp::create(b, loc, phase,
                                 buildI32Constant(b, loc, halfSlots));
  }

private:
  DenseMap<Operation *, bool> alternates;
  DenseMap<Operation *, Value> variables;
};

/// Bounds the threads of every kernel under `root` that holds block
/// collectives and says nothing of its block size to the most a block may
/// have (`nvvm.maxntid` 1024, PTX's `.maxntid`): the block ops promise any
/// block size up to 1024 threads, and a kernel launches with 1024 only
/// where it uses at most 64 registers a thread, which ptxas then keeps to
/// (a block radix sort needs more otherwise). Returns whether it bounded
/// one.
/// Whether `function` executes a block collective: holds one, or calls a
/// function that does (warp-outline-block-collectives moves them into
/// functions of their own). `seen`: the functions already asked (calls may
/// recurse).
bool holdsBlockCollectives(FunctionOpInterface function,
                           llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (!seen.insert(function).second)
    return false;
  return function
      .walk([&](Operation *op) {
        if (isBlockCollective(op))
          return WalkResult::interrupt();
        if (auto call = dyn_cast<CallOpInterface>(op))
          if (auto callee = dyn_cast_or_null<FunctionOpInterface>(
                  call.resolveCallable());
              callee && holdsBlockCollectives(callee, seen))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool boundBlockThreads(Operation *root) {
  bool changed = false;
  root->walk([&](gpu::GPUFuncOp kernel) {
    llvm::SmallPtrSet<Operation *, 8> seen;
    if (!kernel.isKernel() || kernel.getKnownBlockSizeAttr() ||
        kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) ||
        kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()) ||
        !holdsBlockCollectives(kernel, seen))
      return;
    kernel->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                    DenseI32ArrayAttr::get(kernel.getContext(),
                                           {kMaxBlockThreads, 1, 1}));
    changed = true;
  });
  return changed;
}

struct WarpExpandBlockCollectivesPass
    : public warp::impl::WarpExpandBlockCollectivesPassBase<
          WarpExpandBlockCollectivesPass> {
  void runOnOperation() override {
    bool changed = boundBlockThreads(getOperation());
    // Block loads and stores: memory accesses and exchanges; items per
    // thread: block ops over one value per thread; radix sorts: counting
    // passes around block scans; run-length decodes: a block scan and a
    // search; all expanded below. Merge sorts: barriers, buffer accesses
    // and arithmetic, nothing left to expand.
    changed |= expandBlockMemoryOps(getOperation());
    changed |= expandSegmentedBlockScans(getOperation());
    changed |= expandBlockItems(getOperation());
    changed |= expandBlockRadixSorts(getOperation());
    changed |= expandBlockRunLengthDecodes(getOperation());
    changed |= expandBlockMergeSorts(getOperation());
    getOperation().walk([&](TileSyncOp op) {
      expandTileSync(op);
      changed = true;
    });
    SmallVector<Operation *> blockOps;
    getOperation().walk([&](Operation *op) {
      // One item per thread is no exchange (the folder's rule).
      if (auto exchange = dyn_cast<BlockExchangeOp>(op);
          exchange && exchange.getItemsPerThread() == 1) {
        exchange.replaceAllUsesWith(exchange.getItems());
        changed = true;
      } else if (isBlockCollective(op)) {
        blockOps.push_back(op);
      }
    });
    getOperation().walk([](BlockExchangeOp op) {
      if (op.getItemsPerThread() == 1)
        op.erase();
    });
    // No block collectives: the IR need not be verified again.
    if (blockOps.empty()) {
      if (!changed)
        markAllAnalysesPreserved();
      return;
    }
    // Odd vectors of 8- and 16-bit elements take power-of-two slots.
    padSubwordVectorPayloads(getOperation());
    FailureOr<Chip> chip = getLoweringChip(getOperation());
    if (failed(chip))
      return signalPassFailure();
    Phases phases;
    for (ArrayRef<Operation *> group :
         groupByBufferScope(getOperation(), blockOps))
      if (failed(expandGroup(group, *chip, phases)))
        return signalPassFailure();
  }

  /// Expands the block collectives `blockOps` of one buffer scope
  /// (groupByBufferScope) through buffers of their own.
  LogicalResult expandGroup(ArrayRef<Operation *> blockOps, const Chip &chip,
                            Phases &phases) {
    Scratch scratch(getOperation());
    if (failed(scratch.prepareExchangeBuffers(blockOps, chip)))
      return failure();
    // The untiled raking ops of a kernel that alternates halves take
    // halves of the raking buffers too where a raking reduction there
    // gives its result to thread 0 only: it then needs no second barrier
    // (reduceFirst).
    bool rakingHalves = llvm::any_of(blockOps, [&](Operation *op) {
      auto reduce = dyn_cast<BlockReduceOp>(op);
      return reduce && isRakingBlockOp(op) && !getTileThreads(op) &&
             reduce.getThreads() == ResultLanes::First &&
             phases.getAlternatingKernel(op);
    });
    scratch.prepareRakeBuffers(blockOps, rakingHalves);
    if (llvm::any_of(blockOps, [&](Operation *op) {
          return usesScratch(op) && !getTileThreads(op) &&
                 phases.getAlternatingKernel(op);
        }))
      scratch.useTwoHalves();
    for (Operation *op : blockOps)
      if (std::optional<int64_t> n = getTileThreads(op);
          n && usesScratch(op))
        scratch.useTiles(*n, getMaxTiles(op, *n));
    for (Operation *op : blockOps) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto exchange = dyn_cast<BlockExchangeOp>(op)) {
        exchange.replaceAllUsesWith(expandExchange(b, loc, scratch, exchange));
        exchange.erase();
        continue;
      }
      if (auto scatter = dyn_cast<BlockScatterOp>(op)) {
        scatter.replaceAllUsesWith(expandScatter(b, loc, scratch, scatter));
        scatter.erase();
        continue;
      }
      if (auto shift = dyn_cast<BlockShiftOp>(op)) {
        auto [result, edge] = expandShift(b, loc, scratch, shift);
        shift.replaceAllUsesWith(ValueRange{result, edge});
        shift.erase();
        continue;
      }
      if (auto shuffle = dyn_cast<BlockShuffleOp>(op)) {
        auto [result, valid] = expandShuffle(b, loc, scratch, shuffle);
        shuffle.replaceAllUsesWith(ValueRange{result, valid});
        shuffle.erase();
        continue;
      }
      Value half;
      if (usesScratch(op) && !getTileThreads(op))
        if (gpu::GPUFuncOp kernel = phases.getAlternatingKernel(op))
          half = phases.takeHalf(b, loc, kernel);
      auto getScratch = [&](TypeRange types) {
        return usesScratch(op) ? scratch.get(b, loc, types) : Tuple();
      };
      Tuple results;
      if (isa<BlockReduceOp, BlockScanOp>(op)) {
        auto reduce = dyn_cast<BlockReduceOp>(op);
        auto scan = dyn_cast<BlockScanOp>(op);
        auto combining = cast<CombiningOpInterface>(op);
        Combiner combiner = Combiner::of(combining);
        TypeRange types = combining.getValues().getTypes();
        if (isRakingBlockOp(op)) {
          Value rakingHalf;
          if (rakingHalves && !getTileThreads(op))
            rakingHalf =
                phases.takeHalf(b, loc, phases.getAlternatingKernel(op),
                                scratch.getRakeHalfSlots());
          SmallVector<int64_t> slots;
          auto getBuffers = [&] {
            auto [buffers, totalSlots] =
                scratch.getRakeBuffers(b, loc, op, types);
            slots = totalSlots;
            return buffers;
          };
          BlockBuilder bb(b, loc, op, combiner, getBuffers, rakingHalf);
          bb.placeInTile(0, getRakingGroupSlots(op));
          SmallVector<Value> totalSlots;
          for (int64_t slot : slots)
            totalSlots.push_back(bb.cst(slot));
          if (!reduce)
            results = expandRakingScan(bb, scan, totalSlots);
          else if (reduce.getAlgorithm() ==
                   BlockReduceAlgorithm::RakingCommutativeOnly)
            results = expandRakingCommutativeReduce(bb, reduce, totalSlots);
          else
            results = expandRakingReduce(bb, reduce, totalSlots);
        } else {
          BlockBuilder bb(
              b, loc, op, combiner, [&] { return getScratch(types); }, half);
          if (std::optional<int64_t> n = getTileThreads(op))
            bb.placeInTile(scratch.getTileSlots(*n));
          results = reduce ? expandReduce(bb, reduce) : expandScan(bb, scan);
        }
      } else if (auto ballot = dyn_cast<BlockBallotOp>(op)) {
        BlockBuilder bb(
            b, loc, op, {std::nullopt, nullptr, true},
            [&] { return getScratch(b.getI32Type()); }, half);
        if (std::optional<int64_t> n = getTileThreads(op))
          bb.placeInTile(scratch.getTileSlots(*n));
        results = expandBallot(bb, ballot);
      } else {
        auto broadcast = cast<BlockBroadcastOp>(op);
        BlockBuilder bb(
            b, loc, op, {std::nullopt, nullptr, true},
            [&] { return getScratch(broadcast.getValue().getType()); }, half);
        if (std::optional<int64_t> n = getTileThreads(op))
          bb.placeInTile(scratch.getTileSlots(*n));
        results = expandBroadcast(bb, broadcast);
      }
      op->replaceAllUsesWith(results);
      op->erase();
    }
    return success();
  }
};

} // namespace
