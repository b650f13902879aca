//===- Interpreter.cpp - 32-lane SIMT execution of decoded PTX ------------===//
//
// The model (docs/Simulator.md):
//  * Every lane has its own registers, PC and state (running, waiting at a
//    warp collective, waiting at a block barrier, exited).
//  * The scheduler of a warp picks the lowest PC among its running lanes and
//    executes that instruction for all running lanes at that PC together:
//    that set is what `activemask` returns. Branches diverge lanes; the
//    lowest-PC rule runs the earlier code first and reconverges them where
//    their PCs meet again.
//  * A `.sync` collective executes once every lane of its member mask has
//    arrived at the same instruction with the same mask; until then the
//    arrived lanes wait. A lane outside its own mask, a member that exited,
//    or lanes waiting for each other elsewhere (deadlock) is undefined
//    behaviour and is reported with the instruction. mma.sync, ldmatrix
//    and stmatrix (.aligned) have no mask operand: their mask is the warp.
//  * Undefined values (uninitialised registers, a shuffle read from a lane
//    outside the member mask) are tracked per lane and per bit: each
//    register of a lane has a mask of its undefined bits. Moves, packs,
//    unpacks, integer cvt, shifts by a defined amount, and/or, prmt with a
//    defined selector and selp move the bits' definedness precisely; any
//    other instruction makes its whole result undefined when any bit it
//    reads is (an mma.sync element of D: when any element of A, B or C it
//    is computed from has an undefined bit). A store needs only the bits it
//    writes defined; branching on, or using as an address, mask or lane
//    index, any undefined bit is reported.
//  * Warps of a block run one after the other up to bar.sync; each of the
//    16 barriers (bar.sync's id, a register or a constant) releases when
//    every thread that has not exited has arrived, or with a thread count
//    b (named barriers, as a tile of several warps syncs) when b threads
//    have; the threads at one barrier must name the same count.
//  * The blocks of a thread-block cluster run together, their warps
//    interleaved, each block with its own shared memory, local memory and
//    bar.sync; clusters run one after the other (with
//    WARP_SIM_CORESIDENT_BLOCKS, a grid of blocks without clusters runs
//    eight blocks at a time, their warps taking turns, forward and
//    backward, and a warp yielding at each nanosleep: so a look-back sees
//    predecessors that have published some of their state and spins on
//    ones that have not yet). barrier.cluster.arrive
//    counts the thread's arrivals; barrier.cluster.wait holds the thread
//    until every thread of the cluster that has not exited has arrived as
//    often. mapa and the shared::cluster accesses reach the other blocks'
//    shared memory (PTX.h: kClusterRankShift).
//  * A block's shared memory starts as kSharedFill bytes, not zeros (on
//    the GPU it holds what an earlier block left), so that a read before
//    the first write gives a wrong value rather than a lucky zero.
//  * cp.async reads its source when issued and writes shared memory only
//    when the lane waits for it (cp.async.wait_group/wait_all) or exits,
//    so a read before the wait sees the old contents.
//  * Shared memory races between warps are reported (unless
//    WARP_SIM_NO_RACE_CHECK): each warp of the cluster keeps a vector clock,
//    which bar.sync joins among the warps it releases and barrier.cluster
//    among all (what each warp had done by its arrive); each byte of shared
//    memory remembers its last write and the reads since, and an access
//    that conflicts with another warp's access the clocks do not order
//    before it (read after write, write after read or write; atomics only
//    against plain accesses) is reported with both instructions. The lanes
//    of a warp are checked against each other alike, with clocks that
//    bar.warp.sync joins (stores of one warp's lanes to one place excepted:
//    one lands).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "Float.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <unordered_map>

namespace warp::sim {

namespace {

/// The byte every block's shared memory starts as: an i32 of them is
/// negative and large, an f32 a large negative number, so that a stale read
/// does not pass for a zero.
constexpr uint8_t kSharedFill = 0xA7;

enum LaneStatus : uint8_t {
  Running, WaitSync, WaitBarrier, WaitCluster, Exited
};

struct Lane {
  uint32_t pc = 0;
  LaneStatus status = Running;
  uint32_t syncMask = 0;
  /// barrier.cluster.arrive and .wait the thread has executed.
  uint32_t arrivals = 0, waits = 0;
  /// At bar.sync (WaitBarrier): the barrier's id (0..15) and the threads it
  /// waits for (0: every thread of the block that has not exited).
  uint32_t barrierId = 0, barrierCount = 0;
};

/// A cp.async a lane issued and has not performed yet: the cp-size bytes
/// it writes at `dst` in shared memory (its source as read when it was
/// issued, then zeros past src-size).
struct AsyncCopy {
  uint64_t dst;
  unsigned size;
  uint8_t bytes[16];
};

/// A lane's cp.async copies not performed yet, oldest first: the first
/// groups[0] of them form its oldest committed group, and so on; those past
/// every group are not committed yet.
struct AsyncCopies {
  std::vector<AsyncCopy> copies;
  std::vector<size_t> groups;
};

/// cp.async.commit_group: the uncommitted copies (maybe none) become the
/// newest group.
void commitAsyncGroup(AsyncCopies &a) {
  size_t committed = 0;
  for (size_t g : a.groups)
    committed += g;
  a.groups.push_back(a.copies.size() - committed);
}

struct Warp {
  std::vector<uint64_t> regs;    // reg * 32 + lane
  std::vector<uint64_t> undef;   // reg * 32 + lane: the undefined bits
  Lane lanes[32];
  AsyncCopies async[32];
  uint32_t exists = 0;
  unsigned index = 0;
  unsigned tid[32][3] = {};
  /// The race check's clocks of the lanes among themselves: lane * 32 + m
  /// is what lane `lane` knows of lane m's clock, which bar.warp.sync
  /// joins among its lanes.
  std::vector<uint32_t> laneClocks;
};

/// What the race check remembers of one byte of shared memory: its last
/// write and the reads since. A clock of 0 is no access; `clock` is the
/// accessing warp's own clock then, `warp` its number in the cluster, `pc`
/// the instruction. Reads by several warps that the clocks do not order
/// are kept in Block::reads instead (`sharedReads`).
struct SharedAccess {
  uint32_t clock = 0, pc = 0;
  /// The lane's own clock among the lanes of its warp (Warp::laneClocks).
  uint32_t laneClock = 0;
  uint16_t warp = 0;
  uint8_t lane = 0;
};
struct ShadowByte {
  SharedAccess write, read;
  bool atomicWrite = false, sharedReads = false;
};

/// One block of the blocks being simulated together (a cluster's, or
/// co-resident blocks').
struct Block {
  unsigned ctaid[3] = {0, 0, 0};
  unsigned rank = 0; ///< %cluster_ctarank
  /// Its place among the blocks simulated together, and its cluster's
  /// first block's.
  unsigned slot = 0, first = 0;
  std::vector<Warp> warps;
  std::vector<uint8_t> shared;
  std::vector<uint8_t> local;
  /// The race check's record of each byte of `shared`, and the reads of
  /// the bytes read by several unordered warps: by offset, one per warp of
  /// the cluster.
  std::vector<ShadowByte> shadow;
  std::unordered_map<uint32_t, std::vector<SharedAccess>> reads;
};

uint64_t signExtend(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return v;
  uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return (v ^ m) - m;
}

uint64_t truncate(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/// The undefined bits of a value extended from `bits` (the low ones kept):
/// zero extension defines the new high bits, sign extension copies the
/// sign bit's definedness into them.
uint64_t extendUndef(uint64_t u, unsigned bits, bool sign) {
  if (bits >= 64)
    return u;
  if (sign && ((u >> (bits - 1)) & 1))
    return u | ~((1ull << bits) - 1);
  return truncate(u, bits);
}

template <typename To, typename From> To bitCast(From v) {
  static_assert(sizeof(To) == sizeof(From), "bitCast between sizes");
  To t;
  std::memcpy(&t, &v, sizeof t);
  return t;
}
float asF32(uint64_t v) { return bitCast<float>((uint32_t)v); }
double asF64(uint64_t v) { return bitCast<double>(v); }
uint64_t bitsOf(float f) { return bitCast<uint32_t>(f); }
uint64_t bitsOf(double d) { return bitCast<uint64_t>(d); }

int popcount32(uint32_t v) { return __builtin_popcount(v); }

Operand regOperand(int reg) {
  Operand o;
  o.kind = Operand::Reg;
  o.reg = reg;
  return o;
}

double toDouble(uint64_t bits, Ty t) {
  switch (t) {
  case Ty::F16: return decode(bits & 0xFFFF, kHalf);
  case Ty::BF16: return decode(bits & 0xFFFF, kBFloat);
  case Ty::F32: return (double)asF32(bits);
  default: return asF64(bits);
  }
}

/// Rounds an exact double to float type `t` with `rnd`.
uint64_t fromDouble(double x, Ty t, Round rnd) {
  switch (t) {
  case Ty::F16: return encode(x, kHalf, rnd);
  case Ty::BF16: return encode(x, kBFloat, rnd);
  case Ty::F32:
    if (std::isnan(x))
      return canonicalNaN(t);
    return encode(x, kSingle, rnd);
  default:
    return std::isnan(x) ? canonicalNaN(t) : bitsOf(x);
  }
}

bool isSubnormal32(uint64_t bits) {
  return (bits & 0x7F800000) == 0 && (bits & 0x7FFFFF) != 0;
}

/// .ftz: a subnormal f32 or f16 becomes the zero of its sign (PTX has no
/// .ftz for bf16 and f64).
uint64_t flushSubnormal(Ty e, uint64_t x) {
  if (e == Ty::F32 && isSubnormal32(x))
    return x & 0x80000000;
  if (e == Ty::F16 && (x & 0x7C00) == 0 && (x & 0x3FF) != 0)
    return x & 0x8000;
  return x;
}

/// IEEE 754-2019 minimum/maximum (NaN propagates) or minimumNumber/
/// maximumNumber (NaN ignored); -0.0 orders below +0.0 in both.
double minMax(double a, double b, bool isMax, bool propagateNaN, bool &isNaN) {
  isNaN = false;
  if (std::isnan(a) || std::isnan(b)) {
    if (propagateNaN || (std::isnan(a) && std::isnan(b))) {
      isNaN = true;
      return NAN;
    }
    return std::isnan(a) ? b : a;
  }
  if (a == b) {
    bool pickA = isMax ? !std::signbit(a) : std::signbit(a);
    return pickA ? a : b;
  }
  return (a < b) != isMax ? a : b;
}

/// How mma.sync operands and ldmatrix/stmatrix registers spread a matrix
/// over the lanes (PTX ISA, "Matrix fragments for mma.m16n8k*"). With
/// g = lane / 4, t = lane % 4 and `e` elements per 32-bit register (the
/// lowest bits first), element j of a lane's register r (i = e * r + j
/// counts the lane's elements) lies at
///   A (16 x K)  row g + 8 * (r % 2),        column e * t + j + 4 * e * (r / 2)
///   B (K x 8)   row e * t + j + 4 * e * r,  column g
///   Acc         row g + 8 * (i / 2),        column 2 * t + i % 2
/// Acc is the layout of C and D (16 x 8) and, with e = 2, of the 8 x 8
/// matrices of ldmatrix/stmatrix stacked (matrix m in rows 8m..8m+7).
enum class Frag : uint8_t { A, B, Acc };

struct Position {
  unsigned row, col;
};

Position fragmentPosition(Frag f, unsigned e, unsigned lane, unsigned r,
                          unsigned j) {
  unsigned g = lane / 4, t = lane % 4;
  switch (f) {
  case Frag::A: return {g + 8 * (r % 2), e * t + j + 4 * e * (r / 2)};
  case Frag::B: return {e * t + j + 4 * e * r, g};
  default: {
    unsigned i = e * r + j;
    return {g + 8 * (i / 2), 2 * t + i % 2};
  }
  }
}

/// A matrix the warp holds in fragments: each element's bits and whether
/// any of them is undefined.
struct Tile {
  Tile(unsigned rows, unsigned cols)
      : cols(cols), bits(rows * cols), undef(rows * cols) {}
  size_t at(unsigned row, unsigned col) const {
    return (size_t)row * cols + col;
  }
  unsigned cols;
  std::vector<uint64_t> bits;
  std::vector<bool> undef;
};

/// Calls f(lane, r, shift, element) for every element of `t` that the
/// fragments `vec` hold (`bits` each): `shift` bits up in the lane's
/// register vec.elems[r], at t.bits[element].
template <typename F>
void eachElement(const Operand &vec, Frag frag, unsigned bits, const Tile &t,
                 F f) {
  unsigned e = 32 / bits;
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned r = 0; r < vec.elems.size(); ++r)
      for (unsigned j = 0; j < e; ++j) {
        Position p = fragmentPosition(frag, e, lane, r, j);
        f(lane, r, j * bits, t.at(p.row, p.col));
      }
}

/// The exact value of an mma.sync element: tf32 is the top 19 bits of an
/// f32, fp8 bytes decode exactly (Float.h); integers (8-bit products, s32
/// sums) are exact in double too.
double mmaValue(uint64_t bits, Ty t) {
  if (t == Ty::TF32)
    return toDouble(bits & 0xFFFFE000u, Ty::F32);
  if (t == Ty::E4M3)
    return decodeE4M3(bits);
  if (t == Ty::E5M2)
    return decode(bits & 0xFF, kE5M2);
  if (isFloat(t))
    return toDouble(bits, t);
  unsigned n = bitWidth(t);
  return isSigned(t) ? (double)(int64_t)signExtend(bits, n)
                     : (double)truncate(bits, n);
}

/// D's element from its sum: floats rounded once to nearest even, s32
/// wrapped, or clamped with .satfinite.
uint64_t mmaResult(double sum, Ty d, bool satfinite) {
  if (isFloat(d))
    return fromDouble(sum, d, Round::RN);
  if (satfinite)
    sum = std::min(std::max(sum, (double)INT32_MIN), (double)INT32_MAX);
  return (uint32_t)(int64_t)sum;
}

/// Where element `col` of the row that lane `lane` addresses for
/// ldmatrix/stmatrix lies in the stacked matrices `t` (see Frag::Acc).
size_t matrixElement(const Inst &inst, const Tile &t, unsigned lane,
                     unsigned col) {
  unsigned m = lane / 8, r = lane % 8;
  return inst.flags & FlagTrans ? t.at(8 * m + col, r) : t.at(8 * m + r, col);
}

} // namespace

/// Executes one launch.
class Launch {
public:
  Launch(const Module &m, const Function &f, LaunchConfig &cfg)
      : module(m), fn(f), cfg(cfg) {}

  std::string run();

private:
  /// Runs `count` clusters from the one whose first block is `first`,
  /// together (co-resident blocks: clusters of one block).
  bool runClusters(const unsigned first[3], unsigned count);
  void initBlock(Block &b);
  bool runWarp(Warp &w);
  bool execLane(const Inst &inst, Warp &w, int lane, uint32_t active);
  bool execCollective(const Inst &inst, Warp &w, uint32_t group);
  bool tryCollectives(Warp &w, uint32_t pc);
  bool execMatrix(const Inst &inst, Warp &w, uint32_t group);
  bool execMma(const Inst &inst, Warp &w);
  bool execLdmatrix(const Inst &inst, Warp &w);
  bool execStmatrix(const Inst &inst, Warp &w);
  /// The elements of the lanes' fragments `vec` into `t`, and back.
  void gather(const Operand &vec, Frag f, unsigned bits, Warp &w, Tile &t);
  void scatter(const Operand &vec, Frag f, unsigned bits, Warp &w,
               const Tile &t);
  /// The 16 bytes of the ldmatrix/stmatrix row whose address `lane` holds,
  /// or null after a report.
  uint8_t *matrixRow(const Inst &inst, Warp &w, int lane);
  bool reportDeadlock();
  bool reportClusterDeadlock();
  /// Releases the threads waiting at barrier.cluster.wait whose phase every
  /// thread of the cluster has reached; true if it released any.
  bool releaseClusterWaiters();
  bool execMapa(const Inst &inst, Warp &w, int lane);
  /// cp.async and its commit_group, wait_group and wait_all.
  bool execAsyncCopy(const Inst &inst, Warp &w, int lane);
  bool issueAsyncCopy(const Inst &inst, Warp &w, int lane);
  /// Performs every committed group of lane `lane`'s copies but the newest
  /// `keep`, oldest first (cp.async.wait_group `keep`, at `inst`).
  bool waitAsyncGroups(const Inst &inst, Warp &w, int lane, uint64_t keep);

  /// The race check (WARP_SIM_NO_RACE_CHECK turns it off).
  enum class Access : uint8_t { Read, Write, Atomic };
  bool checkRaces() const { return !(cfg.flags & WARP_SIM_NO_RACE_CHECK); }
  /// Warp w's number in the cluster (of block b, by default the executing
  /// one).
  unsigned clusterWarp(const Warp &w, const Block *b = nullptr) const {
    return (b ? b : cur)->slot * warpsPerBlock + w.index;
  }
  /// What warp g knows of each warp's clock (g's own: its current one).
  uint32_t *clockOf(unsigned g) { return &clocks[(size_t)g * clusterWarps]; }
  /// Records lane `lane`'s access of `size` bytes at `p` (memory()'s
  /// pointer; nothing unless it lies in a block's shared memory) and
  /// reports the first race it makes.
  bool noteShared(const Inst &inst, Warp &w, int lane, const uint8_t *p,
                  unsigned size, Access kind);
  /// The warps `released` (cluster numbers) leave a barrier together: each
  /// learns what the rows `sources` of `table` (clusterWarps clocks a row:
  /// `clocks`, or `arrivedClocks` at a cluster barrier) knew, then starts
  /// a new epoch of its own.
  void joinClocks(const std::vector<unsigned> &released,
                  const std::vector<uint32_t> &table,
                  const std::vector<unsigned> &sources);

  uint64_t get(const Operand &o, Warp &w, int lane);
  /// Like get, but returns the operand's undefined bits in `u` instead of
  /// raising `pz` (immediates and special registers are defined).
  uint64_t getBits(const Operand &o, Warp &w, int lane, uint64_t &u);
  void set(const Operand &o, Warp &w, int lane, uint64_t v, bool poisoned);
  /// Writes `v` with the undefined bits `u` (cut to the register's width).
  void setBits(const Operand &o, Warp &w, int lane, uint64_t v, uint64_t u);
  /// The bits a register holds: all ones of its width (1 for .pred).
  uint64_t widthMask(int reg) const {
    return truncate(~0ull, fn.regs[reg].bits);
  }
  uint64_t special(SReg r, const Warp &w, int lane) const;
  /// The `size` bytes at `addr`, which must be a multiple of `align`
  /// (`size` if 0), or null after a report.
  uint8_t *memory(const Inst &inst, Warp &w, Space space, uint64_t addr,
                  unsigned size, int lane, unsigned align = 0);
  bool address(const Inst &inst, const Operand &mem, Warp &w, int lane,
               Space &space, uint64_t &addr) {
    return addressIn(inst.space, inst, mem, w, lane, space, addr);
  }
  /// Like address, for an operand in the space `declared` (cp.async names
  /// two).
  bool addressIn(Space declared, const Inst &inst, const Operand &mem, Warp &w,
                 int lane, Space &space, uint64_t &addr);

  bool ub(const Inst &inst, const Warp &w, int lane, const std::string &what) {
    if (report.empty()) {
      std::ostringstream os;
      os << "undefined behaviour at line " << inst.line << ": `" << inst.text
         << "` (block (" << cur->ctaid[0] << "," << cur->ctaid[1] << ","
         << cur->ctaid[2]
         << "), warp " << w.index;
      if (lane >= 0)
        os << ", lane " << lane << ", thread (" << w.tid[lane][0] << ","
           << w.tid[lane][1] << "," << w.tid[lane][2] << ")";
      os << "): " << what;
      report = os.str();
    }
    return false;
  }
  /// A store of undefined bits: reported, or counted where the flags allow.
  bool undefinedStore(const Inst &inst, Warp &w, int lane) {
    if (!(cfg.flags & WARP_SIM_ALLOW_UNDEFINED_STORES))
      return ub(inst, w, lane, "stores an undefined value");
    ++cfg.stats.undefinedStores;
    return true;
  }

  const Module &module;
  const Function &fn;
  LaunchConfig &cfg;
  std::string report;
  /// The blocks of the cluster being simulated, in rank order, and the one
  /// whose warp executes.
  std::vector<Block> blocks;
  Block *cur = nullptr;
  unsigned cluster[3] = {1, 1, 1};
  unsigned clusterBlocks = 1;
  bool explicitCluster = false;
  std::vector<WarpSimBuffer> buffers; // sorted by base
  bool pz = false;                    // poison seen while reading operands
  uint64_t steps = 0;
  /// The ld/st in one memory space of the warp instruction being
  /// executed: the lanes that made one, and each lane's first byte and
  /// byte count.
  struct LaneAccesses {
    uint32_t lanes = 0;
    uint64_t first[32] = {};
    unsigned bytes[32] = {};
    void add(int lane, uint64_t at, unsigned count) {
      lanes |= 1u << lane;
      first[lane] = at;
      bytes[lane] = count;
    }
    bool has(unsigned lane) const { return (lanes >> lane) & 1; }
    /// Appends to `out` the numbers of the `unit`-byte units that hold
    /// lane `lane`'s bytes.
    void appendUnits(unsigned lane, unsigned unit, uint64_t *out,
                     unsigned &count) const {
      for (uint64_t u = first[lane] / unit; u * unit < first[lane] + bytes[lane];
           ++u)
        out[count++] = u;
    }
  };
  /// With WARP_SIM_COUNT_SHARED_BANKS, the shared-memory accesses (each
  /// lane's first byte in its block's shared memory).
  LaneAccesses sharedAccess;
  /// Counts sharedAccess as one request and its wavefronts.
  void countSharedAccess();
  /// With WARP_SIM_COUNT_GLOBAL_SECTORS, the global-memory accesses (each
  /// lane's first byte as its offset in the buffer it falls in).
  LaneAccesses globalAccess;
  /// Counts globalAccess as one request of `inst` and its sectors.
  void countGlobalAccess(const Inst &inst);
  /// `addr`'s offset from the start of the buffer that holds it (itself
  /// where none does: a module's .global variable).
  uint64_t bufferOffset(uint64_t addr) const;
  /// The buffer with the highest base at or below `addr` (which may end
  /// before it), or null.
  const WarpSimBuffer *bufferBefore(uint64_t addr) const;
  /// The warps of a block and of the blocks simulated together (a
  /// cluster's, or co-resident blocks'), the race check's vector clocks
  /// (clusterWarps rows of clusterWarps) and each warp's at its last
  /// barrier.cluster.arrive.
  unsigned warpsPerBlock = 0, clusterWarps = 0;
  /// WARP_SIM_CORESIDENT_BLOCKS in effect: a warp yields at nanosleep,
  /// and whether one did in the current round.
  bool coresident = false, yielded = false;
  std::vector<uint32_t> clocks, arrivedClocks;
};

uint64_t Launch::special(SReg r, const Warp &w, int lane) const {
  switch (r) {
  case SReg::TidX: return w.tid[lane][0];
  case SReg::TidY: return w.tid[lane][1];
  case SReg::TidZ: return w.tid[lane][2];
  case SReg::NtidX: return cfg.block[0];
  case SReg::NtidY: return cfg.block[1];
  case SReg::NtidZ: return cfg.block[2];
  case SReg::CtaidX: return cur->ctaid[0];
  case SReg::CtaidY: return cur->ctaid[1];
  case SReg::CtaidZ: return cur->ctaid[2];
  case SReg::NctaidX: return cfg.grid[0];
  case SReg::NctaidY: return cfg.grid[1];
  case SReg::NctaidZ: return cfg.grid[2];
  case SReg::LaneId: return (uint64_t)lane;
  case SReg::WarpId: return w.index;
  case SReg::NWarpId: return cur->warps.size();
  case SReg::ClusterCtarank: return cur->rank;
  case SReg::ClusterNctarank: return clusterBlocks;
  case SReg::ClusterCtaidX: return cur->ctaid[0] % cluster[0];
  case SReg::ClusterCtaidY: return cur->ctaid[1] % cluster[1];
  case SReg::ClusterCtaidZ: return cur->ctaid[2] % cluster[2];
  case SReg::ClusterNctaidX: return cluster[0];
  case SReg::ClusterNctaidY: return cluster[1];
  case SReg::ClusterNctaidZ: return cluster[2];
  case SReg::ClusteridX: return cur->ctaid[0] / cluster[0];
  case SReg::ClusteridY: return cur->ctaid[1] / cluster[1];
  case SReg::ClusteridZ: return cur->ctaid[2] / cluster[2];
  case SReg::NclusteridX: return cfg.grid[0] / cluster[0];
  case SReg::NclusteridY: return cfg.grid[1] / cluster[1];
  case SReg::NclusteridZ: return cfg.grid[2] / cluster[2];
  case SReg::IsExplicitCluster: return explicitCluster;
  case SReg::LanemaskEq: return 1u << lane;
  case SReg::LanemaskLe: return (uint32_t)((2ull << lane) - 1);
  case SReg::LanemaskLt: return (1u << lane) - 1;
  case SReg::LanemaskGe: return (uint32_t)(0xFFFFFFFFu << lane);
  case SReg::LanemaskGt: return (uint32_t)((0xFFFFFFFFull << (lane + 1)) & 0xFFFFFFFFu);
  }
  return 0;
}

uint64_t Launch::get(const Operand &o, Warp &w, int lane) {
  switch (o.kind) {
  case Operand::Reg: {
    if (w.undef[o.reg * 32 + lane])
      pz = true;
    uint64_t v = w.regs[o.reg * 32 + lane];
    return o.negate ? (uint64_t)(v == 0) : v;
  }
  case Operand::Imm:
    return o.imm;
  case Operand::Special:
    return special(o.sreg, w, lane);
  default:
    return 0;
  }
}

uint64_t Launch::getBits(const Operand &o, Warp &w, int lane, uint64_t &u) {
  u = o.kind == Operand::Reg ? w.undef[o.reg * 32 + lane] : 0;
  bool saved = pz;
  uint64_t v = get(o, w, lane);
  pz = saved;
  return v;
}

void Launch::set(const Operand &o, Warp &w, int lane, uint64_t v,
                 bool poisoned) {
  if (o.kind != Operand::Reg)
    return;
  unsigned bits = fn.regs[o.reg].bits;
  w.regs[o.reg * 32 + lane] = bits == 1 ? (v & 1) : truncate(v, bits);
  w.undef[o.reg * 32 + lane] = poisoned ? widthMask(o.reg) : 0;
}

void Launch::setBits(const Operand &o, Warp &w, int lane, uint64_t v,
                     uint64_t u) {
  if (o.kind != Operand::Reg)
    return;
  set(o, w, lane, v, false);
  w.undef[o.reg * 32 + lane] = u & widthMask(o.reg);
}

bool Launch::addressIn(Space declared, const Inst &inst, const Operand &mem,
                       Warp &w, int lane, Space &space, uint64_t &addr) {
  bool saved = pz;
  pz = false;
  addr = mem.imm;
  if (mem.reg >= 0)
    addr += get(regOperand(mem.reg), w, lane);
  if (pz)
    return ub(inst, w, lane, "the address is an undefined value");
  pz = saved;
  space = declared;
  if (mem.isSymbol && (space == Space::Generic || space == mem.symSpace)) {
    space = mem.symSpace;
  } else if (space == Space::Generic) {
    if (addr & kSharedWindow) {
      // Generic addressing covers the whole cluster's shared memory.
      addr &= ~kSharedWindow;
      space = addr >> kClusterRankShift ? Space::SharedCluster : Space::Shared;
    } else if (addr & kLocalWindow) {
      space = Space::Local;
      addr &= ~kLocalWindow;
    } else {
      space = Space::Global;
    }
  }
  return true;
}

uint8_t *Launch::memory(const Inst &inst, Warp &w, Space space, uint64_t addr,
                        unsigned size, int lane, unsigned align) {
  auto fault = [&](const std::string &what) -> uint8_t * {
    std::ostringstream os;
    os << what << " (" << size << " bytes at 0x" << std::hex << addr << ")";
    ub(inst, w, lane, os.str());
    return nullptr;
  };
  if (addr % (align ? align : size))
    return fault("misaligned access");
  switch (space) {
  case Space::Param:
    if (addr + size > cfg.paramBytes.size())
      return fault("parameter access out of bounds");
    return const_cast<uint8_t *>(cfg.paramBytes.data()) + addr;
  case Space::Shared:
  case Space::SharedCluster: {
    // Rank bits 0: the executing block (a shared::cta address); else the
    // block of rank (bits - 1), which a shared::cta access may name only
    // when it is the executing block.
    Block *b = cur;
    if (uint64_t tag = addr >> kClusterRankShift) {
      if (tag > clusterBlocks)
        return fault("the shared::cluster address names no block of the "
                     "cluster of " + std::to_string(clusterBlocks) + " blocks");
      b = &blocks[cur->first + tag - 1];
      if (space == Space::Shared && b != cur)
        return fault("a shared::cta access to the shared memory of block "
                     "rank " + std::to_string(tag - 1) + " of the cluster");
    }
    uint64_t offset = addr & kSharedOffsetMask;
    if (offset + size > b->shared.size())
      return fault(b == cur ? "shared memory access out of bounds"
                            : "shared memory access out of bounds in block "
                              "rank " + std::to_string(b->rank) +
                                  " of the cluster");
    return b->shared.data() + offset;
  }
  case Space::Local: {
    size_t t = (size_t)w.index * 32 + lane;
    if (addr + size > fn.localBytes)
      return fault("local memory access out of bounds");
    return cur->local.data() + (size_t)t * fn.localBytes + addr;
  }
  case Space::Global:
  case Space::Generic: {
    if (const WarpSimBuffer *b = bufferBefore(addr)) {
      uint64_t base = (uint64_t)(uintptr_t)b->base;
      if (addr + size <= base + b->bytes)
        return reinterpret_cast<uint8_t *>((uintptr_t)addr);
    }
    return fault("global memory access outside every buffer");
  }
  }
  return nullptr;
}

namespace {

/// Integer comparison or float comparison of setp (`ftz`: .ftz flushes
/// subnormal f32/f16 inputs first).
bool compare(Sub cmp, Ty t, uint64_t a, uint64_t b, bool ftz) {
  if (isFloat(t)) {
    if (ftz) {
      a = flushSubnormal(t, a);
      b = flushSubnormal(t, b);
    }
    double x = toDouble(a, t), y = toDouble(b, t);
    bool unordered = std::isnan(x) || std::isnan(y);
    switch (cmp) {
    case Sub::Eq: return !unordered && x == y;
    case Sub::Ne: return !unordered && x != y;
    case Sub::Lt: return !unordered && x < y;
    case Sub::Le: return !unordered && x <= y;
    case Sub::Gt: return !unordered && x > y;
    case Sub::Ge: return !unordered && x >= y;
    case Sub::Equ: return unordered || x == y;
    case Sub::Neu: return unordered || x != y;
    case Sub::Ltu: return unordered || x < y;
    case Sub::Leu: return unordered || x <= y;
    case Sub::Gtu: return unordered || x > y;
    case Sub::Geu: return unordered || x >= y;
    case Sub::Num: return !unordered;
    case Sub::Nan: return unordered;
    default: return false;
    }
  }
  unsigned bits = bitWidth(t);
  int64_t sa = (int64_t)signExtend(a, bits), sb = (int64_t)signExtend(b, bits);
  uint64_t ua = truncate(a, bits), ub = truncate(b, bits);
  bool s = isSigned(t);
  switch (cmp) {
  case Sub::Eq: return ua == ub;
  case Sub::Ne: return ua != ub;
  case Sub::Lt: return s ? sa < sb : ua < ub;
  case Sub::Le: return s ? sa <= sb : ua <= ub;
  case Sub::Gt: return s ? sa > sb : ua > ub;
  case Sub::Ge: return s ? sa >= sb : ua >= ub;
  case Sub::Lo: return ua < ub;
  case Sub::Ls: return ua <= ub;
  case Sub::Hi: return ua > ub;
  case Sub::Hs: return ua >= ub;
  default: return false;
  }
}

/// One f32/f64 operation on the host FPU under `rnd`.
template <typename T> T hostArith(Op op, Round rnd, T x, T y, T z) {
  RoundingScope scope(rnd);
  // volatile: the operation must happen under the rounding mode set above.
  volatile T vx = x, vy = y, vz = z;
  switch (op) {
  case Op::Add: return vx + vy;
  case Op::Sub: return vx - vy;
  case Op::Mul: return vx * vy;
  case Op::Div: return vx / vy;
  default: return std::fma((T)vx, (T)vy, (T)vz);
  }
}

/// .sat: clamps to [0, 1], NaN gives 0.
template <typename T> T saturate(T r) {
  return std::isnan(r) ? T(0) : std::min(std::max(r, T(0)), T(1));
}

/// Float add/sub/mul/fma/div on one element, rounded once.
uint64_t floatArith(Op op, Ty t, Round rnd, uint16_t flags, uint64_t a,
                    uint64_t b, uint64_t c) {
  bool ftz = flags & FlagFtz, sat = flags & FlagSat;
  if (t == Ty::F32) {
    if (ftz) {
      if (isSubnormal32(a)) a &= 0x80000000;
      if (isSubnormal32(b)) b &= 0x80000000;
      if (isSubnormal32(c)) c &= 0x80000000;
    }
    float r = hostArith<float>(op, rnd, asF32(a), asF32(b), asF32(c));
    if (sat)
      r = saturate(r);
    uint64_t bits = std::isnan(r) ? canonicalNaN(t) : bitsOf(r);
    if (ftz && isSubnormal32(bits))
      bits &= 0x80000000;
    return bits;
  }
  if (t == Ty::F64) {
    double r = hostArith<double>(op, rnd, asF64(a), asF64(b), asF64(c));
    if (sat)
      r = saturate(r);
    return std::isnan(r) ? canonicalNaN(t) : bitsOf(r);
  }
  // f16 / bf16: exact in double for add, sub and mul, then one rounding.
  if (ftz) {
    a = flushSubnormal(t, a);
    b = flushSubnormal(t, b);
    c = flushSubnormal(t, c);
  }
  double x = toDouble(a, t), y = toDouble(b, t), z = toDouble(c, t), r;
  switch (op) {
  case Op::Add: r = x + y; break;
  case Op::Sub: r = x - y; break;
  case Op::Mul: r = x * y; break;
  case Op::Div: r = x / y; break;
  default: r = std::fma(x, y, z); break;
  }
  if (sat)
    r = saturate(r);
  uint64_t bits = fromDouble(r, t, rnd);
  return ftz ? flushSubnormal(t, bits) : bits;
}

/// Applies `f` to each element of a packed value (the low half is element
/// 0), or once to a scalar.
template <typename F> uint64_t perHalf(Ty t, uint64_t a, uint64_t b, uint64_t c, F f) {
  if (!isPacked(t))
    return f(t, a, b, c);
  Ty e = elementOf(t);
  unsigned eb = bitWidth(e);
  uint64_t lo = truncate(f(e, truncate(a, eb), truncate(b, eb), truncate(c, eb)), eb);
  uint64_t hi = truncate(f(e, truncate(a >> eb, eb), truncate(b >> eb, eb),
                           truncate(c >> eb, eb)),
                         eb);
  return lo | (hi << eb);
}

uint32_t findNthSet(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == 0)
    return ((mask >> base) & 1) ? base : 0xFFFFFFFFu;
  int pos = (int)base;
  int count = (offset > 0 ? offset : -offset) - 1;
  int inc = offset > 0 ? 1 : -1;
  while (pos >= 0 && pos < 32) {
    if ((mask >> pos) & 1) {
      if (count == 0)
        return (uint32_t)pos;
      --count;
    }
    pos += inc;
  }
  return 0xFFFFFFFFu;
}

uint64_t convert(const Inst &inst, uint64_t src, bool &unsupported) {
  Ty dt = inst.ty, st = inst.ty2;
  unsigned sb = bitWidth(st), db = bitWidth(dt);
  bool satur = inst.flags & FlagSat;
  if (!isFloat(dt) && !isFloat(st)) {
    // Integer to integer: extend from the source, clamp if .sat, truncate
    // to the destination and extend it into the register.
    bool ss = isSigned(st), ds = isSigned(dt);
    uint64_t raw = ss ? signExtend(src, sb) : truncate(src, sb);
    if (satur) {
      __int128 v = ss ? (__int128)(int64_t)raw : (__int128)raw;
      __int128 lo = ds ? -((__int128)1 << (db - 1)) : 0;
      __int128 hi = ds ? ((__int128)1 << (db - 1)) - 1 : ((__int128)1 << db) - 1;
      v = v < lo ? lo : v > hi ? hi : v;
      raw = (uint64_t)v;
    }
    return ds ? signExtend(raw, db) : truncate(raw, db);
  }
  if (isFloat(st) && isFloat(dt)) {
    if (st == Ty::F32 && (inst.flags & FlagFtz) && isSubnormal32(src))
      src &= 0x80000000;
    double x = toDouble(src, st);
    Round r = inst.rnd;
    if (r == Round::RNI || r == Round::RZI || r == Round::RMI || r == Round::RPI) {
      if (!std::isnan(x) && !std::isinf(x))
        x = r == Round::RNI ? std::nearbyint(x) : r == Round::RZI ? std::trunc(x)
            : r == Round::RMI ? std::floor(x) : std::ceil(x);
      r = Round::RN;
    }
    if (satur)
      x = saturate(x);
    if (dt == Ty::F64)
      return std::isnan(x) ? canonicalNaN(dt) : bitsOf(x);
    uint64_t bits = fromDouble(x, dt, r);
    if (dt == Ty::F32 && (inst.flags & FlagFtz) && isSubnormal32(bits))
      bits &= 0x80000000;
    return bits;
  }
  if (isFloat(st)) {
    // Float to integer: round to integral, NaN gives 0, out of range
    // saturates (PTX).
    double x = toDouble(src, st);
    if (st == Ty::F32 && (inst.flags & FlagFtz) && isSubnormal32(src))
      x = 0;
    switch (inst.rnd) {
    case Round::RNI: x = std::nearbyint(x); break;
    case Round::RZI: case Round::None: x = std::trunc(x); break;
    case Round::RMI: x = std::floor(x); break;
    case Round::RPI: x = std::ceil(x); break;
    default: unsupported = true; return 0;
    }
    bool ds = isSigned(dt);
    if (std::isnan(x))
      return 0;
    long double lo = ds ? -std::ldexp(1.0L, db - 1) : 0.0L;
    long double hi = ds ? std::ldexp(1.0L, db - 1) - 1 : std::ldexp(1.0L, db) - 1;
    long double v = x;
    if (v <= lo)
      return ds ? signExtend((uint64_t)1 << (db - 1), db) : 0;
    if (v >= hi)
      return ds ? (uint64_t)hi : (uint64_t)hi;
    if (ds)
      return signExtend((uint64_t)(int64_t)x, db);
    return truncate((uint64_t)x, db);
  }
  // Integer to float.
  bool ss = isSigned(st);
  uint64_t raw = ss ? signExtend(src, sb) : truncate(src, sb);
  Round r = inst.rnd == Round::None ? Round::RN : inst.rnd;
  if (dt == Ty::F32 || dt == Ty::F64) {
    RoundingScope scope(r);
    if (dt == Ty::F32) {
      volatile float f = ss ? (float)(int64_t)raw : (float)raw;
      return bitsOf((float)f);
    }
    volatile double d = ss ? (double)(int64_t)raw : (double)raw;
    return bitsOf((double)d);
  }
  // f16/bf16: every integer that does not overflow them is exact in double
  // up to 2^53; larger ones overflow anyway.
  double x = ss ? (double)(int64_t)raw : (double)raw;
  return fromDouble(x, dt, r);
}

} // namespace

bool Launch::execLane(const Inst &I, Warp &w, int lane, uint32_t active) {
  pz = false;
  Lane &L = w.lanes[lane];
  uint32_t next = L.pc + 1;
  const std::vector<Operand> &ops = I.ops;
  Ty t = I.ty;
  unsigned bits = bitWidth(t);
  auto src = [&](int i) { return get(ops[i], w, lane); };
  auto dst = [&](uint64_t v) { set(ops[0], w, lane, v, pz); };
  // A packed result (f16x2, s16x2, f32x2, ...): each element is undefined
  // only where some operand's matching element has an undefined bit (LLVM
  // computes on a half it never reads); a scalar result as `dst`.
  auto dstElems = [&](uint64_t v) {
    if (!isPacked(t))
      return dst(v);
    unsigned eb = bitWidth(elementOf(t));
    uint64_t undef = 0;
    for (size_t i = 1; i < ops.size(); ++i) {
      uint64_t u;
      getBits(ops[i], w, lane, u);
      for (unsigned k = 0; k * eb < bits; ++k)
        if (truncate(u >> (k * eb), eb))
          undef |= truncate(~0ull, eb) << (k * eb);
    }
    setBits(ops[0], w, lane, v, undef);
  };
  switch (I.op) {
  case Op::Mov: {
    const Operand &d = ops[0], &s = ops[1];
    // Definedness moves with the bits: each element of a pack or unpack
    // keeps its own bits' mask.
    if (d.kind == Operand::Vec) { // unpack
      uint64_t u, v = getBits(s, w, lane, u);
      unsigned n = (unsigned)d.elems.size(), eb = bits / n;
      for (unsigned k = 0; k < n; ++k)
        setBits(d.elems[k], w, lane, truncate(v >> (k * eb), eb),
                truncate(u >> (k * eb), eb));
    } else if (s.kind == Operand::Vec) { // pack
      unsigned n = (unsigned)s.elems.size(), eb = bits / n;
      uint64_t v = 0, u = 0;
      for (unsigned k = 0; k < n; ++k) {
        uint64_t ek, vk = getBits(s.elems[k], w, lane, ek);
        v |= truncate(vk, eb) << (k * eb);
        u |= truncate(ek, eb) << (k * eb);
      }
      setBits(d, w, lane, v, u);
    } else {
      uint64_t u, v = getBits(s, w, lane, u);
      setBits(d, w, lane, v, s.negate ? (u ? 1 : 0) : u);
    }
    break;
  }
  case Op::Add: case Op::Sub: case Op::Mul: case Op::Mad: case Op::Fma:
  case Op::Div: case Op::Rem: {
    uint64_t a = src(1), b = src(2), c = ops.size() > 3 ? src(3) : 0;
    if (isFloat(t)) {
      Round rnd = I.rnd == Round::None ? Round::RN : I.rnd;
      Op op = I.op == Op::Mad ? Op::Fma : I.op;
      dstElems(perHalf(t, a, b, c, [&](Ty e, uint64_t x, uint64_t y, uint64_t z) {
        return floatArith(op, e, rnd, I.flags, x, y, z);
      }));
      break;
    }
    if (isPacked(t)) { // add.u16x2 / add.s16x2: each half wraps
      dstElems(perHalf(t, a, b, 0, [](Ty, uint64_t x, uint64_t y, uint64_t) {
        return x + y;
      }));
      break;
    }
    bool s = isSigned(t);
    bool wide = I.flags & FlagWide, hi = I.flags & FlagHi;
    uint64_t r;
    switch (I.op) {
    case Op::Add:
    case Op::Sub: {
      if (I.flags & FlagSat) {
        int64_t x = (int32_t)a, y = (int32_t)b;
        int64_t v = I.op == Op::Add ? x + y : x - y;
        r = (uint64_t)std::min<int64_t>(std::max<int64_t>(v, INT32_MIN), INT32_MAX);
      } else {
        r = I.op == Op::Add ? a + b : a - b;
      }
      break;
    }
    case Op::Mul:
    case Op::Mad: {
      __int128 x = s ? (__int128)(int64_t)signExtend(a, bits) : (__int128)truncate(a, bits);
      __int128 y = s ? (__int128)(int64_t)signExtend(b, bits) : (__int128)truncate(b, bits);
      __int128 p = x * y;
      if (wide)
        r = (uint64_t)p;
      else if (hi)
        r = (uint64_t)(p >> bits);
      else
        r = (uint64_t)p;
      if (I.op == Op::Mad)
        r += c;
      if (wide) {
        set(ops[0], w, lane, truncate(r, 2 * bits), pz);
        L.pc = next;
        return true;
      }
      break;
    }
    default: { // div, rem
      if (truncate(b, bits) == 0)
        return ub(I, w, lane, "integer division by zero");
      if (s) {
        int64_t x = (int64_t)signExtend(a, bits), y = (int64_t)signExtend(b, bits);
        if (y == -1)
          r = I.op == Op::Div ? (uint64_t)(-(uint64_t)x) : 0;
        else
          r = (uint64_t)(I.op == Op::Div ? x / y : x % y);
      } else {
        uint64_t x = truncate(a, bits), y = truncate(b, bits);
        r = I.op == Op::Div ? x / y : x % y;
      }
    }
    }
    dst(s ? signExtend(r, bits) : truncate(r, bits));
    break;
  }
  case Op::Neg:
  case Op::Abs: {
    uint64_t a = src(1);
    if (isFloat(t)) {
      auto one = [&](Ty e, uint64_t x, uint64_t, uint64_t) {
        uint64_t sign = 1ull << (bitWidth(e) - 1);
        if (I.flags & FlagFtz)
          x = flushSubnormal(e, x);
        return I.op == Op::Neg ? x ^ sign : x & ~sign;
      };
      dstElems(perHalf(t, a, 0, 0, one));
    } else {
      int64_t x = (int64_t)signExtend(a, bits);
      dst(truncate(I.op == Op::Neg ? (uint64_t)(-(uint64_t)x)
                                   : (uint64_t)(x < 0 ? -(uint64_t)x : (uint64_t)x),
                   bits));
    }
    break;
  }
  case Op::Min:
  case Op::Max: {
    uint64_t a = src(1), b = src(2);
    bool isMax = I.op == Op::Max;
    if (isFloat(t)) {
      auto one = [&](Ty e, uint64_t x, uint64_t y, uint64_t) -> uint64_t {
        if (I.flags & FlagFtz) {
          x = flushSubnormal(e, x);
          y = flushSubnormal(e, y);
        }
        bool nan;
        double dx = toDouble(x, e), dy = toDouble(y, e);
        double r = minMax(dx, dy, isMax, I.flags & FlagNaN, nan);
        if (nan)
          return canonicalNaN(e);
        // The result is one of the operands: return its exact bits.
        return (bitsOf(r) == bitsOf(dx)) ? x : y;
      };
      uint64_t r = perHalf(t, a, b, 0, one);
      // sm_100's three-input form (PTX 8.8, f32): the minimum or maximum
      // of the three, NaNs as for two (ignored, or with .NaN the result).
      if (ops.size() == 4)
        r = perHalf(t, r, src(3), 0, one);
      dstElems(r);
    } else {
      // Per 16-bit half for u16x2/s16x2; .relu (s16x2, s32) clamps a
      // negative result to 0.
      auto one = [&](Ty e, uint64_t x, uint64_t y, uint64_t) -> uint64_t {
        unsigned eb = bitWidth(e);
        bool s = isSigned(e);
        int64_t sx = (int64_t)signExtend(x, eb), sy = (int64_t)signExtend(y, eb);
        bool xLess = s ? sx < sy : truncate(x, eb) < truncate(y, eb);
        uint64_t r = truncate((xLess != isMax) ? x : y, eb);
        if ((I.flags & FlagRelu) && (int64_t)signExtend(r, eb) < 0)
          r = 0;
        return r;
      };
      dstElems(perHalf(t, a, b, 0, one));
    }
    break;
  }
  case Op::And: case Op::Or: case Op::Xor: {
    // A defined controlling operand (and with 0, or with all ones) defines
    // the result whatever the other holds: LLVM folds `select(c, x, y)` of
    // predicates into and/or, and a value read outside the member mask may
    // meet its guard there.
    // Per bit: a defined 0 of either operand defines that bit of an and,
    // a defined 1 that bit of an or (so a defined 0 / all-ones operand
    // defines the whole result).
    uint64_t ua, ub, a = getBits(ops[1], w, lane, ua), b = getBits(ops[2], w, lane, ub);
    if (ops[1].negate && ua)
      ua = 1;
    if (ops[2].negate && ub)
      ub = 1;
    uint64_t u = ua | ub;
    if (I.op == Op::And)
      u &= ~(~ua & ~a) & ~(~ub & ~b);
    else if (I.op == Op::Or)
      u &= ~(~ua & a) & ~(~ub & b);
    setBits(ops[0], w, lane, I.op == Op::And ? a & b : I.op == Op::Or ? a | b : a ^ b,
            u);
    break;
  }
  case Op::Not:
    dst(t == Ty::Pred ? (uint64_t)(src(1) == 0) : truncate(~src(1), bits));
    break;
  case Op::CNot:
    dst(truncate(src(1), bits) == 0 ? 1 : 0);
    break;
  case Op::Shl:
  case Op::Shr: {
    uint64_t ua, un, a = getBits(ops[1], w, lane, ua);
    uint64_t n = truncate(getBits(ops[2], w, lane, un), 32);
    auto shift = [&](uint64_t x, bool sign) {
      if (I.op == Op::Shl)
        return n >= bits ? 0 : x << n;
      if (sign) {
        int64_t y = (int64_t)signExtend(x, bits);
        return (uint64_t)(y >> (n >= bits ? bits - 1 : n));
      }
      return n >= bits ? 0 : truncate(x, bits) >> n;
    };
    uint64_t r = shift(a, isSigned(t));
    // A defined amount moves the undefined bits with the value (the bits
    // shifted in are defined, or copy the sign bit's definedness: an
    // arithmetic shift of the mask does exactly that); an undefined amount
    // leaves nothing defined.
    uint64_t u = un ? ~0ull : shift(ua, isSigned(t));
    setBits(ops[0], w, lane, truncate(r, bits), truncate(u, bits));
    break;
  }
  case Op::Setp: {
    uint64_t a = src(1), b = src(2);
    bool ftz = I.flags & FlagFtz;
    bool r, q;
    if (isPacked(t)) {
      // f16x2/bf16x2: p from the low halves, q from the high halves, each
      // combined with c on its own (not a complement).
      Ty e = elementOf(t);
      r = compare(I.sub, e, a & 0xFFFF, b & 0xFFFF, ftz);
      q = compare(I.sub, e, (a >> 16) & 0xFFFF, (b >> 16) & 0xFFFF, ftz);
    } else {
      r = compare(I.sub, t, a, b, ftz);
      q = !r;
    }
    if (I.sub2 != Sub::None) {
      bool c = src(3) & 1;
      auto comb = [&](bool x) {
        return I.sub2 == Sub::OpAnd ? (x && c) : I.sub2 == Sub::OpOr ? (x || c) : (x != c);
      };
      r = comb(r);
      q = comb(q);
    }
    set(ops[0], w, lane, r, pz);
    if (ops[0].reg2 >= 0)
      set(regOperand(ops[0].reg2), w, lane, q, pz);
    break;
  }
  case Op::Selp: {
    // The operand not selected is discarded, undefined or not; the selected
    // one keeps its bits' definedness.
    bool c = src(3) & 1;
    uint64_t u, v = getBits(ops[c ? 1 : 2], w, lane, u);
    setBits(ops[0], w, lane, v, pz ? ~0ull : u);
    break;
  }
  case Op::Cvt: {
    if (t == Ty::F16x2 || t == Ty::BF16x2) {
      Inst one = I;
      one.ty = elementOf(t);
      bool bad = false;
      uint64_t hi = convert(one, src(1), bad), lo = convert(one, src(2), bad);
      dst((lo & 0xFFFF) | ((hi & 0xFFFF) << 16));
      break;
    }
    bool bad = false;
    uint64_t u, r = convert(I, getBits(ops[1], w, lane, u), bad);
    if (bad)
      return ub(I, w, lane, "internal error: float-to-int rounding");
    if (!isFloat(t) && !isFloat(I.ty2) && !(I.flags & FlagSat)) {
      // Integer to integer: only the source type's bits are read; the
      // extension and truncation move their definedness like the value.
      unsigned sb = bitWidth(I.ty2), db = bitWidth(t);
      u = extendUndef(extendUndef(u, sb, isSigned(I.ty2)), db, isSigned(t));
    } else if (u) {
      u = ~0ull;
    }
    setBits(ops[0], w, lane, r, u);
    break;
  }
  case Op::Cvta: {
    uint64_t a = src(1);
    uint64_t window = I.space == Space::Shared ? kSharedWindow
                      : I.space == Space::Local ? kLocalWindow : 0;
    dst(I.flags & FlagTo ? a & ~window : a | window);
    break;
  }
  case Op::Popc:
    dst(__builtin_popcountll(truncate(src(1), bits)));
    break;
  case Op::Clz: {
    uint64_t a = truncate(src(1), bits);
    dst(a == 0 ? bits : (unsigned)__builtin_clzll(a) - (64 - bits));
    break;
  }
  case Op::Brev: {
    uint64_t a = src(1), r = 0;
    for (unsigned k = 0; k < bits; ++k)
      r |= ((a >> k) & 1) << (bits - 1 - k);
    dst(r);
    break;
  }
  case Op::Bfind: {
    uint64_t a = truncate(src(1), bits);
    if (isSigned(t) && ((a >> (bits - 1)) & 1))
      a = truncate(~a, bits);
    uint64_t r = a == 0 ? 0xFFFFFFFFu : 63 - __builtin_clzll(a);
    if (a != 0 && (I.flags & FlagShiftAmt))
      r = bits - 1 - r;
    dst(r);
    break;
  }
  case Op::Prmt: {
    // Default mode: nibble k of the selector picks byte k of the result
    // from the 8 bytes {b, a} (bits 0..2) and, with bit 3, replicates
    // that byte's sign. With a defined selector each result byte is as
    // defined as the source byte (its sign bit) it comes from.
    uint64_t ua, ub, a = truncate(getBits(ops[1], w, lane, ua), 32),
                     b = truncate(getBits(ops[2], w, lane, ub), 32), c = src(3);
    uint64_t bytes = a | (b << 32), r = 0;
    uint64_t ubytes = truncate(ua, 32) | (truncate(ub, 32) << 32), u = 0;
    auto pick = [&](uint64_t from, unsigned sel) {
      uint64_t byte = (from >> (8 * (sel & 7))) & 0xFF;
      if (sel & 8)
        byte = (byte & 0x80) ? 0xFF : 0;
      return byte;
    };
    for (int k = 0; k < 4; ++k) {
      unsigned sel = (c >> (4 * k)) & 0xF;
      r |= pick(bytes, sel) << (8 * k);
      u |= pick(ubytes, sel) << (8 * k);
    }
    setBits(ops[0], w, lane, r, pz ? ~0ull : u);
    break;
  }
  case Op::Bfe: {
    uint64_t a = src(1);
    unsigned pos = src(2) & 0xFF, len = src(3) & 0xFF;
    uint64_t r = 0;
    bool s = isSigned(t);
    unsigned msb = pos + len - 1;
    bool sbit = s && len > 0 && ((a >> std::min(msb, bits - 1)) & 1);
    for (unsigned k = 0; k < bits; ++k) {
      bool bit = k < len && pos + k < bits ? (a >> (pos + k)) & 1 : sbit;
      r |= (uint64_t)bit << k;
    }
    dst(r);
    break;
  }
  case Op::Shf: {
    // {b, a} as one 64-bit value (b high), shifted by n (.wrap: n mod 32,
    // .clamp: at most 32); shf.l keeps the high word, shf.r the low one.
    uint64_t ua, ub, un;
    uint64_t a = truncate(getBits(ops[1], w, lane, ua), 32);
    uint64_t b = truncate(getBits(ops[2], w, lane, ub), 32);
    uint64_t n = truncate(getBits(ops[3], w, lane, un), 32);
    n = I.flags & FlagClamp ? std::min<uint64_t>(n, 32) : n & 31;
    auto funnel = [&](uint64_t low, uint64_t high) {
      uint64_t v = (truncate(high, 32) << 32) | truncate(low, 32);
      return truncate(I.sub == Sub::Left ? (v << n) >> 32 : v >> n, 32);
    };
    setBits(ops[0], w, lane, funnel(a, b),
            un ? 0xFFFFFFFFull : funnel(ua, ub));
    break;
  }
  case Op::Bmsk: {
    // The PTX ISA's definition: a mask from bit a (mod 32) up to bit
    // a + b (b mod 32), none past bit 31; 0 for a width of 0 (b a multiple
    // of 32 under .wrap). Under .clamp a >= 32 gives 0 and b >= 32 every
    // bit from a up.
    uint64_t ua, ub;
    uint64_t a = truncate(getBits(ops[1], w, lane, ua), 32);
    uint64_t b = truncate(getBits(ops[2], w, lane, ub), 32);
    uint64_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint64_t below = truncate(~0ull << a1, 32);
    uint64_t above = sum >= 32 ? 0 : truncate(~0ull << sum, 32);
    if (I.flags & FlagClamp) {
      if (a >= 32)
        below = 0;
      if (b >= 32)
        above = 0;
    }
    if (b1 == 0 && !(I.flags & FlagClamp && b >= 32) && sum < 32)
      above = 0xFFFFFFFF;
    setBits(ops[0], w, lane, below & ~above & 0xFFFFFFFF,
            (ua | ub) ? 0xFFFFFFFFull : 0);
    break;
  }
  case Op::Bfi: {
    uint64_t f = src(1), b = src(2);
    unsigned pos = src(3) & 0xFF, len = src(4) & 0xFF;
    uint64_t r = b;
    for (unsigned k = 0; k < len && pos + k < bits; ++k)
      r = (r & ~(1ull << (pos + k))) | (((f >> k) & 1) << (pos + k));
    dst(r);
    break;
  }
  case Op::Fns: {
    uint32_t mask = (uint32_t)src(1), base = (uint32_t)src(2);
    int32_t offset = (int32_t)src(3);
    if (base > 31)
      return ub(I, w, lane, "fns base above 31");
    dst(findNthSet(mask, base, offset));
    break;
  }
  case Op::Copysign: {
    uint64_t a = src(1), b = src(2), sign = 1ull << (bits - 1);
    dst((b & ~sign) | (a & sign));
    break;
  }
  case Op::Ex2: {
    // ex2.approx(.ftz).f32 (the parser admits no other form): exp2 in
    // double, rounded once to f32; PTX promises 2 ulp, so a test comparing
    // values that went through it must allow for that.
    uint32_t x = (uint32_t)src(1);
    if ((I.flags & FlagFtz) && isSubnormal32(x))
      x &= 0x80000000u;
    float in;
    std::memcpy(&in, &x, 4);
    float out = (float)std::exp2((double)in);
    uint32_t r;
    std::memcpy(&r, &out, 4);
    if ((I.flags & FlagFtz) && isSubnormal32(r))
      r &= 0x80000000u;
    dst(r);
    break;
  }
  case Op::Activemask:
    dst(active);
    break;
  case Op::Ld:
  case Op::St: {
    const Operand &mem = I.op == Op::Ld ? ops[1] : ops[0];
    const Operand &val = I.op == Op::Ld ? ops[0] : ops[1];
    Space space;
    uint64_t addr;
    if (!address(I, mem, w, lane, space, addr))
      return false;
    unsigned eb = std::max(8u, bits), size = eb / 8;
    if (space == Space::Shared && !(addr >> kClusterRankShift) &&
        (cfg.flags & WARP_SIM_COUNT_SHARED_BANKS)) {
      sharedAccess.add(lane, addr & kSharedOffsetMask, size * I.vec);
    }
    if (space == Space::Global && (cfg.flags & WARP_SIM_COUNT_GLOBAL_SECTORS))
      globalAccess.add(lane, bufferOffset(addr), size * I.vec);
    for (unsigned k = 0; k < I.vec; ++k) {
      const Operand &v = val.kind == Operand::Vec ? val.elems[k] : val;
      // A vector access is aligned to its whole size and lies within its
      // memory whole (the first element's check covers both).
      uint8_t *p = memory(I, w, space, addr + k * size,
                          k == 0 ? size * I.vec : size, lane);
      if (!p || !noteShared(I, w, lane, p, size,
                            I.op == Op::Ld ? Access::Read : Access::Write))
        return false;
      if (I.op == Op::Ld) {
        uint64_t x = 0;
        std::memcpy(&x, p, size);
        set(v, w, lane, isSigned(t) ? signExtend(x, eb) : x, false);
      } else {
        // Only the bits written must be defined (st.b16 of a wider
        // register stores its low 16 bits).
        uint64_t u, x = getBits(v, w, lane, u);
        if (truncate(u, 8 * size) && !undefinedStore(I, w, lane))
          return false;
        std::memcpy(p, &x, size);
      }
    }
    break;
  }
  case Op::Atom:
  case Op::Red: {
    const Operand &mem = I.op == Op::Atom ? ops[1] : ops[0];
    int first = I.op == Op::Atom ? 2 : 1;
    Space space;
    uint64_t addr;
    if (!address(I, mem, w, lane, space, addr))
      return false;
    uint64_t b = src(first), c = I.sub == Sub::OpCas ? src(first + 1) : 0;
    if (pz)
      return ub(I, w, lane, "atomic operand is an undefined value");
    unsigned size = bits / 8;
    uint8_t *p = memory(I, w, space, addr, size, lane);
    if (!p || !noteShared(I, w, lane, p, size, Access::Atomic))
      return false;
    uint64_t old = 0;
    std::memcpy(&old, p, size);
    uint64_t r;
    bool s = isSigned(t);
    switch (I.sub) {
    case Sub::OpAdd:
      // Float adds round to nearest; the 16-bit ones (add.noftz, each half
      // of a pair on its own) keep subnormals.
      r = isFloat(t) ? perHalf(t, old, b, 0,
                               [](Ty e, uint64_t x, uint64_t y, uint64_t) {
                                 return floatArith(Op::Add, e, Round::RN, 0, x,
                                                   y, 0);
                               })
                     : old + b;
      break;
    case Sub::OpMin:
    case Sub::OpMax: {
      bool less = s ? (int64_t)signExtend(old, bits) < (int64_t)signExtend(b, bits)
                    : truncate(old, bits) < truncate(b, bits);
      r = (less == (I.sub == Sub::OpMin)) ? old : b;
      break;
    }
    case Sub::OpAnd: r = old & b; break;
    case Sub::OpOr: r = old | b; break;
    case Sub::OpXor: r = old ^ b; break;
    case Sub::OpExch: r = b; break;
    case Sub::OpCas: r = truncate(old, bits) == truncate(b, bits) ? c : old; break;
    case Sub::OpInc: r = truncate(old, bits) >= truncate(b, bits) ? 0 : old + 1; break;
    case Sub::OpDec:
      r = (truncate(old, bits) == 0 || truncate(old, bits) > truncate(b, bits)) ? b : old - 1;
      break;
    default:
      return ub(I, w, lane, "internal error: atomic operation");
    }
    std::memcpy(p, &r, size);
    if (I.op == Op::Atom)
      set(ops[0], w, lane, s ? signExtend(old, bits) : old, false);
    break;
  }
  case Op::CpAsync:
  case Op::CpAsyncCommit:
  case Op::CpAsyncWait:
  case Op::CpAsyncWaitAll:
    if (!execAsyncCopy(I, w, lane))
      return false;
    break;
  case Op::Nanosleep:
    break;
  case Op::Mapa:
    if (!execMapa(I, w, lane))
      return false;
    break;
  case Op::Bra:
    next = (uint32_t)ops[0].label;
    break;
  case Op::Ret:
  case Op::Exit:
    // Copies still pending are performed as the lane exits.
    commitAsyncGroup(w.async[lane]);
    if (!waitAsyncGroups(I, w, lane, 0))
      return false;
    L.status = Exited;
    return true;
  default:
    return ub(I, w, lane, "internal error: not a lane instruction");
  }
  L.pc = next;
  return true;
}

// mapa.shared::cluster: a shared::cta (or shared::cluster) address and a
// rank give the shared::cluster address of the same offset in that block;
// plain mapa does the same on generic addresses of shared memory.
bool Launch::execMapa(const Inst &I, Warp &w, int lane) {
  uint64_t ua, ur;
  uint64_t a = getBits(I.ops[1], w, lane, ua);
  uint64_t rank = truncate(getBits(I.ops[2], w, lane, ur), 32);
  if (ua)
    return ub(I, w, lane, "the address is an undefined value");
  if (truncate(ur, 32))
    return ub(I, w, lane, "the rank is an undefined value");
  a = truncate(a, bitWidth(I.ty));
  bool generic = I.space != Space::SharedCluster;
  if (generic) {
    if (!(a & kSharedWindow) || (a & kLocalWindow))
      return ub(I, w, lane, "mapa of a generic address outside shared memory");
    a &= ~kSharedWindow;
  }
  if (a >> 32) {
    std::ostringstream os;
    os << "0x" << std::hex << a << " is not a shared memory address";
    return ub(I, w, lane, os.str());
  }
  if (rank >= clusterBlocks)
    return ub(I, w, lane,
              "rank " + std::to_string(rank) + " outside the cluster of " +
                  std::to_string(clusterBlocks) + " blocks");
  uint64_t r = ((rank + 1) << kClusterRankShift) | (a & kSharedOffsetMask);
  set(I.ops[0], w, lane, generic ? r | kSharedWindow : r, false);
  return true;
}

bool Launch::execAsyncCopy(const Inst &I, Warp &w, int lane) {
  // What a thread may leave pending is bounded, so that a loop without a
  // wait gets an error instead of exhausting memory.
  constexpr size_t kMaxPending = 1024;
  AsyncCopies &a = w.async[lane];
  if ((I.op == Op::CpAsync || I.op == Op::CpAsyncCommit) &&
      a.copies.size() + a.groups.size() >= kMaxPending) {
    std::ostringstream os;
    os << "error: more than " << kMaxPending
       << " cp.async copies and groups pending in one thread at line " << I.line
       << ": `" << I.text << "`";
    report = os.str();
    return false;
  }
  switch (I.op) {
  case Op::CpAsync:
    return issueAsyncCopy(I, w, lane);
  case Op::CpAsyncCommit:
    commitAsyncGroup(a);
    break;
  case Op::CpAsyncWait:
    return waitAsyncGroups(I, w, lane, I.ops[0].imm);
  default: // wait_all: the uncommitted copies too
    commitAsyncGroup(a);
    return waitAsyncGroups(I, w, lane, 0);
  }
  return true;
}

// Both addresses must be aligned to cp-size; the destination's cp-size
// bytes and the source's src-size bytes must lie in their spaces (src-size
// 0 reads nothing, and its source is not checked). Memory has no
// definedness of its own, so the copied bytes are defined.
bool Launch::issueAsyncCopy(const Inst &I, Warp &w, int lane) {
  const std::vector<Operand> &ops = I.ops;
  unsigned size = (unsigned)ops[2].imm;
  uint64_t srcSize = size;
  if (ops.size() > 3) {
    uint64_t u;
    srcSize = truncate(getBits(ops[3], w, lane, u), 32);
    if (truncate(u, 32))
      return ub(I, w, lane, "the src-size is an undefined value");
    if (srcSize > size)
      return ub(I, w, lane,
                "src-size " + std::to_string(srcSize) +
                    " is larger than cp-size " + std::to_string(size));
  }
  Space dstSpace, srcSpace;
  uint64_t dst, src;
  if (!addressIn(Space::Shared, I, ops[0], w, lane, dstSpace, dst) ||
      !memory(I, w, dstSpace, dst, size, lane) ||
      !addressIn(Space::Global, I, ops[1], w, lane, srcSpace, src))
    return false;
  // memory() accepted the destination: an address in the executing block.
  AsyncCopy copy{dst & kSharedOffsetMask, size, {}};
  if (srcSize) {
    const uint8_t *from =
        memory(I, w, srcSpace, src, (unsigned)srcSize, lane, size);
    if (!from)
      return false;
    std::memcpy(copy.bytes, from, srcSize);
  }
  w.async[lane].copies.push_back(copy);
  return true;
}

bool Launch::waitAsyncGroups(const Inst &I, Warp &w, int lane,
                             uint64_t keep) {
  AsyncCopies &a = w.async[lane];
  if (a.groups.size() <= keep)
    return true;
  auto end = a.groups.end() - (ptrdiff_t)keep;
  size_t count = 0;
  for (auto g = a.groups.begin(); g != end; ++g)
    count += *g;
  a.groups.erase(a.groups.begin(), end);
  for (size_t i = 0; i < count; ++i) {
    // The copy writes shared memory now, as this instruction of the lane.
    uint8_t *p = cur->shared.data() + a.copies[i].dst;
    if (!noteShared(I, w, lane, p, a.copies[i].size, Access::Write))
      return false;
    std::memcpy(p, a.copies[i].bytes, a.copies[i].size);
  }
  a.copies.erase(a.copies.begin(), a.copies.begin() + (ptrdiff_t)count);
  return true;
}

bool Launch::noteShared(const Inst &I, Warp &w, int lane, const uint8_t *p,
                        unsigned size, Access kind) {
  if (!checkRaces())
    return true;
  Block *owner = nullptr;
  for (Block &b : blocks)
    if (!b.shared.empty() && p >= b.shared.data() &&
        p < b.shared.data() + b.shared.size())
      owner = &b;
  if (!owner)
    return true;
  unsigned g = clusterWarp(w);
  const uint32_t *known = clockOf(g);
  const uint32_t *lanesKnown = &w.laneClocks[lane * 32];
  SharedAccess now{known[g], (uint32_t)(&I - fn.insts.data()),
                   lanesKnown[lane], (uint16_t)g, (uint8_t)lane};
  // Another warp's access: ordered by a barrier both passed since. Another
  // lane's of this warp: by a barrier since (the warp's own clock moved on)
  // or a bar.warp.sync of both lanes.
  auto ordered = [&](const SharedAccess &a) {
    if (a.clock == 0)
      return true;
    if (a.warp != g)
      return known[a.warp] >= a.clock;
    return a.lane == lane || known[g] > a.clock ||
           lanesKnown[a.lane] >= a.laneClock;
  };
  uint32_t first = (uint32_t)(p - owner->shared.data());
  // The other access of a race, and what it was.
  auto race = [&](uint32_t offset, const SharedAccess &other,
                  const char *otherKind) {
    std::ostringstream os;
    const Inst &them = fn.insts[other.pc];
    os << "a shared memory race: this "
       << (kind == Access::Read ? "read" : kind == Access::Write ? "write"
                                                                 : "atomic")
       << " of " << size << " bytes at offset " << first;
    if (clusterBlocks > 1)
      os << " of block rank " << owner->rank << "'s shared memory";
    os << " conflicts with " << otherKind << " of byte " << offset << " by "
       << (other.warp == g ? "lane " + std::to_string(other.lane) +
                                 " of this warp"
                           : "warp " +
                                 std::to_string(other.warp % warpsPerBlock) +
                                 ", lane " + std::to_string(other.lane));
    if (clusterBlocks > 1)
      os << " of block rank " << other.warp / warpsPerBlock;
    os << " at line " << them.line << " (`" << them.text << "`) with no "
       << (other.warp == g ? "bar.warp.sync or barrier" : "barrier")
       << " ordering them";
    return ub(I, w, lane, os.str());
  };
  for (uint32_t offset = first; offset < first + size; ++offset) {
    ShadowByte &b = owner->shadow[offset];
    bool atomic = kind == Access::Atomic;
    // Every access conflicts with an unordered plain write, but for a
    // write of another lane of the same warp (its lanes may store to one
    // place: one store lands, e.g. warp.scatter's to a position named
    // twice); an atomic write conflicts with plain accesses only.
    bool sameWarpWrites = kind == Access::Write && !b.atomicWrite &&
                          b.write.warp == g && b.write.clock;
    if (!ordered(b.write) && !(atomic && b.atomicWrite) && !sameWarpWrites)
      return race(offset, b.write, b.atomicWrite ? "an atomic" : "a write");
    if (kind == Access::Read) {
      if (b.sharedReads) {
        owner->reads[offset][g] = now;
      } else if (ordered(b.read)) {
        b.read = now;
      } else {
        // Two warps' reads that neither barrier orders: both kept.
        std::vector<SharedAccess> &all = owner->reads[offset];
        all.assign(clusterWarps, SharedAccess{});
        all[b.read.warp] = b.read;
        all[g] = now;
        b.sharedReads = true;
      }
      continue;
    }
    // A write (or atomic) conflicts with the unordered reads.
    if (b.sharedReads) {
      for (const SharedAccess &r : owner->reads[offset])
        if (!ordered(r))
          return race(offset, r, "a read");
      owner->reads.erase(offset);
      b.sharedReads = false;
    } else if (!ordered(b.read)) {
      return race(offset, b.read, "a read");
    }
    b.read = SharedAccess{};
    b.write = now;
    b.atomicWrite = atomic;
  }
  return true;
}

void Launch::joinClocks(const std::vector<unsigned> &released,
                        const std::vector<uint32_t> &table,
                        const std::vector<unsigned> &sources) {
  std::vector<uint32_t> known(clusterWarps, 0);
  for (unsigned g : sources)
    for (unsigned h = 0; h < clusterWarps; ++h)
      known[h] = std::max(known[h], table[(size_t)g * clusterWarps + h]);
  for (unsigned g : released) {
    uint32_t *mine = clockOf(g);
    for (unsigned h = 0; h < clusterWarps; ++h)
      mine[h] = std::max(mine[h], known[h]);
    ++mine[g];
  }
}

bool Launch::execCollective(const Inst &I, Warp &w, uint32_t group) {
  const std::vector<Operand> &ops = I.ops;
  uint32_t mask = w.lanes[__builtin_ctz(group)].syncMask;
  uint64_t out[32] = {}, out2[32] = {};
  bool poison[32] = {};
  auto each = [&](auto f) {
    for (int l = 0; l < 32; ++l)
      if ((group >> l) & 1)
        if (!f(l))
          return false;
    return true;
  };
  switch (I.op) {
  case Op::Shfl: {
    uint64_t value[32];
    bool valuePoison[32];
    if (!each([&](int l) {
          pz = false;
          value[l] = get(ops[1], w, l);
          valuePoison[l] = pz;
          return true;
        }))
      return false;
    if (!each([&](int l) {
          pz = false;
          uint32_t b = (uint32_t)get(ops[2], w, l) & 31;
          uint32_t c = (uint32_t)get(ops[3], w, l);
          if (pz)
            return ub(I, w, l, "the lane/offset or clamp operand is an undefined value");
          uint32_t segmask = (c >> 8) & 31, clamp = c & 31;
          uint32_t lane = (uint32_t)l;
          uint32_t maxLane = (lane & segmask) | (clamp & ~segmask);
          uint32_t minLane = lane & segmask;
          int64_t j;
          bool p;
          switch (I.sub) {
          case Sub::Up: j = (int64_t)lane - b; p = j >= (int64_t)maxLane; break;
          case Sub::Down: j = lane + b; p = j <= maxLane; break;
          case Sub::Bfly: j = lane ^ b; p = j <= maxLane; break;
          default: j = minLane | (b & ~segmask); p = j <= maxLane; break;
          }
          if (!p)
            j = lane;
          out2[l] = p;
          if (((group >> j) & 1) == 0) {
            // The source lane is not executing this shuffle with us: PTX
            // leaves the value undefined.
            out[l] = value[l];
            poison[l] = true;
          } else {
            out[l] = value[j];
            poison[l] = valuePoison[j];
          }
          return true;
        }))
      return false;
    each([&](int l) {
      set(ops[0], w, l, out[l], poison[l]);
      if (ops[0].reg2 >= 0)
        set(regOperand(ops[0].reg2), w, l, out2[l], false);
      return true;
    });
    break;
  }
  case Op::Vote: {
    uint32_t ballot = 0;
    bool anyPoison = false;
    each([&](int l) {
      pz = false;
      if (get(ops[1], w, l) & 1)
        ballot |= 1u << l;
      anyPoison |= pz;
      return true;
    });
    uint64_t r;
    switch (I.sub) {
    case Sub::Ballot: r = ballot; break;
    case Sub::Any: r = ballot != 0; break;
    case Sub::All: r = ballot == group; break;
    default: r = ballot == 0 || ballot == group; break;
    }
    each([&](int l) {
      set(ops[0], w, l, r, anyPoison);
      return true;
    });
    break;
  }
  case Op::Match: {
    unsigned bits = bitWidth(I.ty);
    uint64_t value[32];
    bool anyPoison = false;
    each([&](int l) {
      pz = false;
      value[l] = truncate(get(ops[1], w, l), bits);
      anyPoison |= pz;
      return true;
    });
    bool allSame = true;
    uint64_t first = value[__builtin_ctz(group)];
    each([&](int l) {
      allSame &= value[l] == first;
      return true;
    });
    each([&](int l) {
      uint64_t r;
      if (I.sub == Sub::Any) {
        uint32_t same = 0;
        for (int k = 0; k < 32; ++k)
          if (((group >> k) & 1) && value[k] == value[l])
            same |= 1u << k;
        r = same;
      } else {
        r = allSame ? mask : 0;
      }
      set(ops[0], w, l, r, anyPoison);
      if (ops[0].reg2 >= 0)
        set(regOperand(ops[0].reg2), w, l, allSame, anyPoison);
      return true;
    });
    break;
  }
  case Op::Redux: {
    Ty t = I.ty;
    bool anyPoison = false;
    uint64_t acc = 0;
    bool firstLane = true, accNaN = false;
    double facc = 0;
    bool ok = each([&](int l) {
      pz = false;
      uint64_t v = truncate(get(ops[1], w, l), 32);
      anyPoison |= pz;
      if (t == Ty::F32) {
        double x = asF32(v);
        if (I.flags & FlagAbs)
          x = std::fabs(x);
        if (firstLane) {
          facc = x;
          accNaN = std::isnan(x);
        } else {
          bool nan;
          facc = minMax(facc, x, I.sub == Sub::OpMax, I.flags & FlagNaN, nan);
          accNaN = nan;
        }
        firstLane = false;
        return true;
      }
      if (firstLane) {
        acc = v;
        firstLane = false;
        return true;
      }
      bool s = isSigned(t);
      switch (I.sub) {
      case Sub::OpAdd: acc = truncate(acc + v, 32); break;
      case Sub::OpAnd: acc &= v; break;
      case Sub::OpOr: acc |= v; break;
      case Sub::OpXor: acc ^= v; break;
      case Sub::OpMin:
      case Sub::OpMax: {
        bool less = s ? (int32_t)acc < (int32_t)v : acc < v;
        acc = (less == (I.sub == Sub::OpMin)) ? acc : v;
        break;
      }
      default:
        return ub(I, w, l, "internal error: redux operation");
      }
      return true;
    });
    if (!ok)
      return false;
    if (t == Ty::F32)
      acc = (accNaN || std::isnan(facc)) ? canonicalNaN(t) : bitsOf((float)facc);
    each([&](int l) {
      set(ops[0], w, l, acc, anyPoison);
      return true;
    });
    break;
  }
  case Op::Elect: {
    int leader = __builtin_ctz(group);
    each([&](int l) {
      set(ops[0], w, l, (uint64_t)leader, false);
      if (ops[0].reg2 >= 0)
        set(regOperand(ops[0].reg2), w, l, l == leader, false);
      return true;
    });
    break;
  }
  case Op::BarWarpSync:
    if (checkRaces()) {
      // The lanes of the group know what any of them knew, then start a
      // new epoch each.
      uint32_t joined[32] = {};
      each([&](int l) {
        for (int m = 0; m < 32; ++m)
          joined[m] = std::max(joined[m], w.laneClocks[l * 32 + m]);
        return true;
      });
      each([&](int l) {
        std::copy_n(joined, 32, &w.laneClocks[l * 32]);
        ++w.laneClocks[l * 32 + l];
        return true;
      });
    }
    break;
  case Op::Mma:
  case Op::Ldmatrix:
  case Op::Stmatrix:
    if (!execMatrix(I, w, group))
      return false;
    break;
  default:
    return ub(I, w, -1, "internal error: not a collective");
  }
  each([&](int l) {
    w.lanes[l].status = Running;
    w.lanes[l].pc += 1;
    return true;
  });
  return true;
}

// mma.sync, ldmatrix and stmatrix. The tensor core computes D = A * B + C
// in its own way: each product exact, the sum in an order and with
// intermediate rounding (or truncation) NVIDIA does not specify, which
// differs between chips. Here every product is exact and the sum, C first
// and then k = 0, 1, ..., is taken in double and rounded once to D's type
// (round to nearest even): results agree bit for bit with a device where
// the exact sum is representable in D's type and no partial sum loses bits,
// as with small integers; elsewhere they may differ in the last bits.
// Integer sums are exact, then wrap (or clamp with .satfinite).

bool Launch::execMatrix(const Inst &I, Warp &w, uint32_t group) {
  // .aligned: all 32 lanes execute it together (the member mask is the
  // whole warp, so a missing lane that exited is reported as a deadlock).
  if (group != 0xFFFFFFFFu) {
    std::ostringstream os;
    os << "the whole warp must execute it, but lanes 0x" << std::hex
       << (~group) << " do not exist";
    return ub(I, w, -1, os.str());
  }
  switch (I.op) {
  case Op::Mma: return execMma(I, w);
  case Op::Ldmatrix: return execLdmatrix(I, w);
  default: return execStmatrix(I, w);
  }
}

void Launch::gather(const Operand &vec, Frag f, unsigned bits, Warp &w,
                    Tile &t) {
  eachElement(vec, f, bits, t,
              [&](unsigned lane, unsigned r, unsigned shift, size_t at) {
                uint64_t u, v = getBits(vec.elems[r], w, (int)lane, u);
                t.bits[at] = truncate(v >> shift, bits);
                t.undef[at] = truncate(u >> shift, bits) != 0;
              });
}

void Launch::scatter(const Operand &vec, Frag f, unsigned bits, Warp &w,
                     const Tile &t) {
  // Each register is written once, with all its elements (a fragment has
  // at most 4 registers: Parser.cpp, checkMatrixOperands).
  uint64_t v[32][4] = {}, u[32][4] = {};
  eachElement(vec, f, bits, t,
              [&](unsigned lane, unsigned r, unsigned shift, size_t at) {
                v[lane][r] |= t.bits[at] << shift;
                if (t.undef[at])
                  u[lane][r] |= truncate(~0ull, bits) << shift;
              });
  for (int lane = 0; lane < 32; ++lane)
    for (size_t r = 0; r < vec.elems.size(); ++r)
      setBits(vec.elems[r], w, lane, v[lane][r], u[lane][r]);
}

bool Launch::execMma(const Inst &I, Warp &w) {
  unsigned k = I.shapeK;
  Tile a(16, k), b(k, 8), c(16, 8), d(16, 8);
  gather(I.ops[1], Frag::A, bitWidth(I.ty2), w, a);
  gather(I.ops[2], Frag::B, bitWidth(I.ty3), w, b);
  gather(I.ops[3], Frag::Acc, bitWidth(I.ty), w, c);
  for (unsigned row = 0; row < 16; ++row)
    for (unsigned col = 0; col < 8; ++col) {
      size_t at = d.at(row, col);
      double sum = mmaValue(c.bits[at], I.ty);
      bool undef = c.undef[at];
      for (unsigned i = 0; i < k; ++i) {
        size_t x = a.at(row, i), y = b.at(i, col);
        sum += mmaValue(a.bits[x], I.ty2) * mmaValue(b.bits[y], I.ty3);
        undef = undef || a.undef[x] || b.undef[y];
      }
      d.bits[at] = mmaResult(sum, I.ty, I.flags & FlagSatFinite);
      d.undef[at] = undef;
    }
  scatter(I.ops[0], Frag::Acc, bitWidth(I.ty), w, d);
  return true;
}

uint8_t *Launch::matrixRow(const Inst &I, Warp &w, int lane) {
  const Operand &mem = I.ops[I.op == Op::Ldmatrix ? 1 : 0];
  Space space;
  uint64_t addr;
  if (!address(I, mem, w, lane, space, addr))
    return nullptr;
  if (space != Space::Shared) {
    ub(I, w, lane, "the row address is not in shared memory");
    return nullptr;
  }
  return memory(I, w, space, addr, 16, lane);
}

// Lane 8m + r names row r of matrix m; each row is 8 contiguous b16.
bool Launch::execLdmatrix(const Inst &I, Warp &w) {
  Tile t(8 * I.vec, 8);
  for (unsigned lane = 0; lane < 8u * I.vec; ++lane) {
    uint8_t *row = matrixRow(I, w, (int)lane);
    if (!row || !noteShared(I, w, (int)lane, row, 16, Access::Read))
      return false;
    for (unsigned col = 0; col < 8; ++col) {
      uint16_t x;
      std::memcpy(&x, row + 2 * col, 2);
      t.bits[matrixElement(I, t, lane, col)] = x;
    }
  }
  scatter(I.ops[0], Frag::Acc, 16, w, t);
  return true;
}

bool Launch::execStmatrix(const Inst &I, Warp &w) {
  Tile t(8 * I.vec, 8);
  gather(I.ops[1], Frag::Acc, 16, w, t);
  for (unsigned lane = 0; lane < 8u * I.vec; ++lane) {
    uint8_t *row = matrixRow(I, w, (int)lane);
    if (!row || !noteShared(I, w, (int)lane, row, 16, Access::Write))
      return false;
    bool undef = false;
    for (unsigned col = 0; col < 8; ++col)
      undef = undef || t.undef[matrixElement(I, t, lane, col)];
    if (undef && !undefinedStore(I, w, (int)lane))
      return false;
    for (unsigned col = 0; col < 8; ++col) {
      uint16_t x = (uint16_t)t.bits[matrixElement(I, t, lane, col)];
      std::memcpy(row + 2 * col, &x, 2);
    }
  }
  return true;
}

bool Launch::tryCollectives(Warp &w, uint32_t pc) {
  const Inst &I = fn.insts[pc];
  uint32_t waiting = 0;
  for (int l = 0; l < 32; ++l)
    if (w.lanes[l].status == WaitSync && w.lanes[l].pc == pc)
      waiting |= 1u << l;
  while (waiting) {
    int l = __builtin_ctz(waiting);
    uint32_t mask = w.lanes[l].syncMask;
    if (!((mask >> l) & 1)) {
      std::ostringstream os;
      os << "the lane is not in its member mask 0x" << std::hex << mask;
      return ub(I, w, l, os.str());
    }
    uint32_t required = mask & w.exists, group = 0;
    for (int k = 0; k < 32; ++k)
      if (((waiting >> k) & 1) && w.lanes[k].syncMask == mask)
        group |= 1u << k;
    if (uint32_t outside = group & ~mask) {
      std::ostringstream os;
      os << "the lane is not in its member mask 0x" << std::hex << mask;
      return ub(I, w, __builtin_ctz(outside), os.str());
    }
    waiting &= ~group;
    if ((required & ~group) == 0) {
      ++cfg.stats.warpInstructions;
      cfg.stats.laneInstructions += popcount32(group);
      if (!execCollective(I, w, group))
        return false;
    }
  }
  return true;
}

bool Launch::runWarp(Warp &w) {
  for (;;) {
    // Lowest PC first (the default), or highest PC first: a legal schedule
    // too under independent thread scheduling, where diverged lanes need not
    // reconverge before the next collective.
    bool highest = cfg.flags & WARP_SIM_SCHEDULE_HIGHEST_PC;
    uint32_t pc = UINT32_MAX;
    for (int l = 0; l < 32; ++l) {
      const Lane &L = w.lanes[l];
      if (!((w.exists >> l) & 1) || L.status != Running)
        continue;
      if (pc == UINT32_MAX || (highest ? L.pc > pc : L.pc < pc))
        pc = L.pc;
    }
    if (pc == UINT32_MAX)
      return true;
    uint32_t active = 0;
    for (int l = 0; l < 32; ++l)
      if (((w.exists >> l) & 1) && w.lanes[l].status == Running && w.lanes[l].pc == pc)
        active |= 1u << l;
    const Inst &I = fn.insts[pc];
    if (++steps > cfg.stepLimit) {
      std::ostringstream os;
      os << "error: more than " << cfg.stepLimit
         << " instructions issued (an endless loop?) at line " << I.line
         << ": `" << I.text << "`";
      report = os.str();
      return false;
    }
    uint32_t exec = active;
    if (I.guard >= 0) {
      for (int l = 0; l < 32; ++l) {
        if (!((active >> l) & 1))
          continue;
        if (w.undef[I.guard * 32 + l])
          return ub(I, w, l, "the guard predicate is an undefined value");
        bool g = w.regs[I.guard * 32 + l] & 1;
        if (g == I.guardNeg) {
          exec &= ~(1u << l);
          w.lanes[l].pc += 1;
        }
      }
    }
    if (!exec)
      continue;
    if (isWarpCollective(I.op)) {
      const Operand &maskOp = I.ops.back();
      for (int l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1))
          continue;
        // The matrix collectives (.aligned) have no mask: the whole warp.
        pz = false;
        uint32_t m =
            isMatrixOp(I.op) ? 0xFFFFFFFFu : (uint32_t)get(maskOp, w, l);
        if (pz)
          return ub(I, w, l, "the member mask is an undefined value");
        w.lanes[l].status = WaitSync;
        w.lanes[l].syncMask = m;
      }
      if (!tryCollectives(w, pc))
        return false;
      continue;
    }
    if (I.op == Op::BarSync) {
      // bar.sync a{, b}: a the barrier (0..15), b its thread count (a
      // multiple of 32); either a register or an immediate.
      for (int l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1))
          continue;
        pz = false;
        uint64_t id = get(I.ops[0], w, l);
        uint64_t count = I.ops.size() > 1 ? get(I.ops[1], w, l) : 0;
        if (pz)
          return ub(I, w, l, "the barrier id or thread count is an "
                             "undefined value");
        if (id > 15)
          return ub(I, w, l, "barrier id " + std::to_string(id) +
                                 " is not one of the 16 (0..15)");
        if (I.ops.size() > 1 && (count == 0 || count % 32 != 0))
          return ub(I, w, l, "barrier thread count " + std::to_string(count) +
                                 " is not a positive multiple of 32");
        w.lanes[l].status = WaitBarrier;
        w.lanes[l].barrierId = (uint32_t)id;
        w.lanes[l].barrierCount = (uint32_t)count;
      }
      continue;
    }
    if (I.op == Op::ClusterArrive || I.op == Op::ClusterWait) {
      ++cfg.stats.warpInstructions;
      cfg.stats.laneInstructions += popcount32(exec);
      for (int l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1))
          continue;
        Lane &L = w.lanes[l];
        // Each arrive is followed by its wait (PTX leaves any other order
        // undefined).
        if (I.op == Op::ClusterArrive) {
          if (L.arrivals != L.waits)
            return ub(I, w, l, "a second barrier.cluster.arrive before "
                               "barrier.cluster.wait");
          ++L.arrivals;
          L.pc += 1;
          if (checkRaces()) {
            // What the warp did up to here is released to the cluster;
            // what it does before its wait is not.
            unsigned g = clusterWarp(w);
            std::copy_n(clockOf(g), clusterWarps,
                        arrivedClocks.begin() + (size_t)g * clusterWarps);
            ++clockOf(g)[g];
          }
        } else {
          if (L.arrivals != L.waits + 1)
            return ub(I, w, l, "barrier.cluster.wait without a "
                               "barrier.cluster.arrive before it");
          ++L.waits;
          L.status = WaitCluster;
        }
      }
      continue;
    }
    ++cfg.stats.warpInstructions;
    cfg.stats.laneInstructions += popcount32(exec);
    if (I.op == Op::Bra) {
      // A divergent branch on an undefined predicate was caught above;
      // nothing else to check.
    }
    sharedAccess.lanes = 0;
    globalAccess.lanes = 0;
    for (int l = 0; l < 32; ++l)
      if ((exec >> l) & 1)
        if (!execLane(I, w, l, exec))
          return false;
    if (sharedAccess.lanes)
      countSharedAccess();
    if (globalAccess.lanes)
      countGlobalAccess(I);
    // Co-resident blocks: a warp that pauses lets the others run (a spin
    // on another block's flag pauses between polls).
    if (coresident && I.op == Op::Nanosleep) {
      yielded = true;
      return true;
    }
  }
}

// The banks' model (the CUDA programming guide's, for sm_70 on): shared
// memory is 32 banks of 4-byte words; a warp's request of B bytes a lane is
// served 128 bytes of lanes at a time (all 32 lanes for B <= 4, 16 for 8,
// 8 for 16), and within such a group each bank delivers one distinct word
// per wavefront (lanes reading the same word share it).
void Launch::countSharedAccess() {
  unsigned most = 4;
  for (unsigned l = 0; l < 32; ++l)
    if (sharedAccess.has(l))
      most = std::max(most, sharedAccess.bytes[l]);
  unsigned perGroup = std::max(1u, 128 / most);
  ++cfg.stats.sharedRequests;
  for (unsigned first = 0; first < 32; first += perGroup) {
    uint64_t words[32 * 4];
    unsigned count = 0;
    for (unsigned l = first; l < first + perGroup && l < 32; ++l)
      if (sharedAccess.has(l))
        sharedAccess.appendUnits(l, 4, words, count);
    if (!count)
      continue;
    std::sort(words, words + count);
    count = std::unique(words, words + count) - words;
    unsigned perBank[32] = {}, wavefronts = 0;
    for (unsigned k = 0; k < count; ++k)
      wavefronts = std::max(wavefronts, ++perBank[words[k] % 32]);
    cfg.stats.sharedWavefronts += wavefronts;
  }
}

// The sectors' model (the CUDA programming guide's for global memory, as
// profilers count it): a warp's request touches the distinct 32-byte
// sectors that hold the bytes of its lanes' accesses; fewer sectors for the
// same bytes is better coalescing.
void Launch::countGlobalAccess(const Inst &inst) {
  uint64_t sectors[32 * 2];
  unsigned count = 0;
  // An access lies within its own aligned size (at most 16 bytes): one
  // sector, or two where it is wider than the sector's rest.
  for (unsigned l = 0; l < 32; ++l)
    if (globalAccess.has(l))
      globalAccess.appendUnits(l, 32, sectors, count);
  std::sort(sectors, sectors + count);
  count = std::unique(sectors, sectors + count) - sectors;
  if (inst.op == Op::Ld) {
    ++cfg.stats.globalLoadRequests;
    cfg.stats.globalLoadSectors += count;
  } else {
    ++cfg.stats.globalStoreRequests;
    cfg.stats.globalStoreSectors += count;
  }
}

const WarpSimBuffer *Launch::bufferBefore(uint64_t addr) const {
  auto after = std::upper_bound(
      buffers.begin(), buffers.end(), addr,
      [](uint64_t a, const WarpSimBuffer &b) { return a < (uint64_t)(uintptr_t)b.base; });
  return after == buffers.begin() ? nullptr : &*std::prev(after);
}

uint64_t Launch::bufferOffset(uint64_t addr) const {
  const WarpSimBuffer *b = bufferBefore(addr);
  if (!b)
    return addr;
  uint64_t base = (uint64_t)(uintptr_t)b->base;
  return addr - base < b->bytes ? addr - base : addr;
}

bool Launch::reportDeadlock() {
  for (Block &b : blocks) {
    cur = &b;
    for (Warp &w : b.warps) {
      for (int l = 0; l < 32; ++l) {
        Lane &L = w.lanes[l];
        if (!((w.exists >> l) & 1) || L.status != WaitSync)
          continue;
        const Inst &I = fn.insts[L.pc];
        uint32_t missing = L.syncMask & w.exists;
        uint32_t exited = 0, atBarrier = 0, atCluster = 0, otherMask = 0;
        int elsewhere = -1;
        for (int k = 0; k < 32; ++k) {
          if (!((missing >> k) & 1))
            continue;
          const Lane &K = w.lanes[k];
          if (K.status == WaitSync && K.pc == L.pc && K.syncMask == L.syncMask)
            continue;
          if (K.status == Exited)
            exited |= 1u << k;
          else if (K.status == WaitBarrier)
            atBarrier |= 1u << k;
          else if (K.status == WaitCluster)
            atCluster |= 1u << k;
          else if (K.pc == L.pc)
            otherMask |= 1u << k;
          else if (elsewhere < 0)
            elsewhere = k;
        }
        std::ostringstream os;
        os << std::hex << "the collective can never complete (member mask 0x"
           << L.syncMask << ")";
        if (exited)
          os << "; lanes 0x" << exited << " have exited";
        if (atBarrier)
          os << "; lanes 0x" << atBarrier << " wait at a block barrier";
        if (atCluster)
          os << "; lanes 0x" << atCluster << " wait at a cluster barrier";
        if (otherMask)
          os << "; lanes 0x" << otherMask
             << " arrived with another member mask";
        if (elsewhere >= 0)
          os << std::dec << "; lane " << elsewhere << " waits at line "
             << fn.insts[w.lanes[elsewhere].pc].line << " `"
             << fn.insts[w.lanes[elsewhere].pc].text << "`";
        return ub(I, w, l, os.str());
      }
    }
  }
  if (reportClusterDeadlock())
    return false;
  // Only block barrier waiters are left, but some threads of the block
  // never reach the barrier.
  for (Block &b : blocks) {
    cur = &b;
    for (Warp &w : b.warps)
      for (int l = 0; l < 32; ++l)
        if (((w.exists >> l) & 1) && w.lanes[l].status == WaitBarrier)
          return ub(fn.insts[w.lanes[l].pc], w, l,
                    "the block barrier can never complete");
  }
  report = "internal error: deadlock without waiters";
  return false;
}

/// A thread waits at barrier.cluster.wait for a thread that has not
/// arrived and never will: reported with where that thread waits.
bool Launch::reportClusterDeadlock() {
  for (Block &b : blocks)
    for (Warp &w : b.warps)
      for (int l = 0; l < 32; ++l) {
        const Lane &L = w.lanes[l];
        if (!((w.exists >> l) & 1) || L.status != WaitCluster)
          continue;
        for (Block &ob : blocks)
          for (Warp &ow : ob.warps)
            for (int k = 0; k < 32; ++k) {
              const Lane &K = ow.lanes[k];
              if (!((ow.exists >> k) & 1) || K.status == Exited ||
                  K.arrivals >= L.arrivals)
                continue;
              const Inst &at = fn.insts[K.pc];
              std::ostringstream os;
              os << "the cluster barrier can never complete: thread ("
                 << ow.tid[k][0] << "," << ow.tid[k][1] << "," << ow.tid[k][2]
                 << ") of block (" << ob.ctaid[0] << "," << ob.ctaid[1] << ","
                 << ob.ctaid[2] << "), rank " << ob.rank
                 << " of the cluster, has not arrived; it waits ";
              if (K.status == WaitBarrier)
                os << "at a block barrier";
              else if (K.status == WaitSync)
                os << "at a warp collective";
              else
                os << "at another cluster barrier";
              os << " at line " << at.line << " `" << at.text << "`";
              cur = &b;
              ub(fn.insts[L.pc], w, l, os.str());
              return true;
            }
      }
  return false;
}

bool Launch::releaseClusterWaiters() {
  // The phase every thread that has not exited has reached.
  uint32_t reached = UINT32_MAX;
  bool waiting = false;
  for (Block &b : blocks)
    for (Warp &w : b.warps)
      for (int l = 0; l < 32; ++l) {
        const Lane &L = w.lanes[l];
        if (!((w.exists >> l) & 1) || L.status == Exited)
          continue;
        reached = std::min(reached, L.arrivals);
        waiting = waiting || L.status == WaitCluster;
      }
  if (!waiting)
    return false;
  bool released = false;
  std::vector<unsigned> warps;
  for (Block &b : blocks)
    for (Warp &w : b.warps) {
      bool any = false;
      for (int l = 0; l < 32; ++l) {
        Lane &L = w.lanes[l];
        if (L.status == WaitCluster && L.arrivals <= reached) {
          L.status = Running;
          L.pc += 1;
          released = any = true;
        }
      }
      if (any)
        warps.push_back(clusterWarp(w, &b));
    }
  if (checkRaces() && !warps.empty()) {
    // Each released warp learns what every warp had done by its arrive.
    std::vector<unsigned> all(clusterWarps);
    for (unsigned g = 0; g < clusterWarps; ++g)
      all[g] = g;
    joinClocks(warps, arrivedClocks, all);
  }
  return released;
}

void Launch::initBlock(Block &b) {
  unsigned bx = cfg.block[0], by = cfg.block[1], bz = cfg.block[2];
  unsigned threads = bx * by * bz;
  unsigned numWarps = (threads + 31) / 32;
  b.warps.assign(numWarps, Warp());
  for (unsigned wi = 0; wi < numWarps; ++wi) {
    Warp &w = b.warps[wi];
    w.index = wi;
    w.laneClocks.assign(32 * 32, 0);
    for (unsigned l = 0; l < 32; ++l)
      w.laneClocks[l * 32 + l] = 1;
    w.regs.assign(fn.regs.size() * 32, 0);
    // Registers start undefined.
    w.undef.resize(fn.regs.size() * 32);
    for (size_t r = 0; r < fn.regs.size(); ++r)
      std::fill_n(w.undef.begin() + r * 32, 32, widthMask((int)r));
    for (unsigned l = 0; l < 32; ++l) {
      unsigned t = wi * 32 + l;
      if (t >= threads) {
        w.lanes[l].status = Exited;
        continue;
      }
      w.exists |= 1u << l;
      w.tid[l][0] = t % bx;
      w.tid[l][1] = (t / bx) % by;
      w.tid[l][2] = t / (bx * by);
    }
  }
  size_t sharedSize = fn.usesDynamicShared ? fn.dynamicSharedOffset + cfg.dynamicShared
                                           : fn.sharedBytes;
  // Not zeros: a block's shared memory holds what the SM's last block left
  // there, and a program that reads before it writes must show it.
  b.shared.assign(sharedSize, kSharedFill);
  b.shadow.assign(checkRaces() ? sharedSize : 0, ShadowByte{});
  b.reads.clear();
  b.local.assign((size_t)numWarps * 32 * fn.localBytes, 0);
}

// The `count` clusters from the block `first` (several only for
// co-resident blocks, clusters of one): their blocks' warps run in turn
// until every one waits, has exited or (co-resident) has paused; then the
// barriers whose threads have all arrived release, and if none does and no
// warp paused, nothing can progress.
bool Launch::runClusters(const unsigned first[3], unsigned count) {
  // Resized, not rebuilt: a block's shared memory, its race-check shadow
  // and its local memory keep their allocations from launch to launch
  // (initBlock refills them).
  blocks.resize(clusterBlocks * count);
  clusterWarps = warpsPerBlock * clusterBlocks * count;
  for (unsigned c = 0; c < count; ++c)
    for (unsigned r = 0; r < clusterBlocks; ++r) {
      Block &b = blocks[c * clusterBlocks + r];
      b.rank = r;
      b.slot = c * clusterBlocks + r;
      b.first = c * clusterBlocks;
      b.ctaid[0] = first[0] + c * cluster[0] + r % cluster[0];
      b.ctaid[1] = first[1] + (r / cluster[0]) % cluster[1];
      b.ctaid[2] = first[2] + r / (cluster[0] * cluster[1]);
      initBlock(b);
    }
  if (checkRaces()) {
    // Every warp starts in its epoch 1, knowing no other's.
    clocks.assign((size_t)clusterWarps * clusterWarps, 0);
    arrivedClocks.assign(clocks.size(), 0);
    for (unsigned g = 0; g < clusterWarps; ++g)
      clockOf(g)[g] = 1;
  }
  for (unsigned round = 0;; ++round) {
    yielded = false;
    // Co-resident blocks take turns forward, then backward: a later block
    // also runs before an earlier one (as on a GPU, in any order).
    for (unsigned k = 0; k < blocks.size(); ++k) {
      Block &b = blocks[coresident && round % 2 ? blocks.size() - 1 - k : k];
      cur = &b;
      for (Warp &w : b.warps)
        if (!runWarp(w))
          return false;
    }
    bool anyLive = false, released = yielded;
    for (Block &b : blocks) {
      // Per barrier id (0..15): the threads waiting there; a barrier
      // without a count releases when every live thread of the block waits
      // there, one with a count b when b threads do (its waiters must agree
      // on b).
      unsigned live = 0, atBarrier[16] = {}, count[16] = {};
      bool mixed[16] = {};
      for (Warp &w : b.warps)
        for (int l = 0; l < 32; ++l) {
          if (!((w.exists >> l) & 1))
            continue;
          const Lane &L = w.lanes[l];
          if (L.status != Exited)
            ++live;
          if (L.status != WaitBarrier)
            continue;
          if (atBarrier[L.barrierId]++ && count[L.barrierId] != L.barrierCount)
            mixed[L.barrierId] = true;
          count[L.barrierId] = L.barrierCount;
        }
      anyLive = anyLive || live;
      cur = &b;
      // Reported at the first thread waiting at barrier `id`.
      auto wrong = [&](unsigned id, const std::string &what) {
        for (Warp &w : b.warps)
          for (int l = 0; l < 32; ++l)
            if (((w.exists >> l) & 1) && w.lanes[l].status == WaitBarrier &&
                w.lanes[l].barrierId == id)
              return ub(fn.insts[w.lanes[l].pc], w, l, what);
        return false;
      };
      for (unsigned id = 0; id < 16; ++id) {
        if (!atBarrier[id])
          continue;
        if (mixed[id])
          return wrong(id, "the threads at barrier " + std::to_string(id) +
                               " name different thread counts");
        // More threads than a counted barrier's b waiting: the first b
        // (in warp order, one legal schedule) complete it, the others
        // wait for its next completion.
        unsigned want = count[id] ? count[id] : live;
        if (atBarrier[id] < want)
          continue;
        released = true;
        unsigned left = want;
        std::vector<unsigned> warps;
        for (Warp &w : b.warps) {
          bool any = false;
          for (int l = 0; l < 32 && left; ++l)
            if (((w.exists >> l) & 1) && w.lanes[l].status == WaitBarrier &&
                w.lanes[l].barrierId == id) {
              w.lanes[l].status = Running;
              w.lanes[l].pc += 1;
              --left;
              any = true;
            }
          if (any)
            warps.push_back(clusterWarp(w, &b));
        }
        // The warps the barrier released know what each of them did.
        if (checkRaces())
          joinClocks(warps, clocks, warps);
      }
    }
    if (!anyLive)
      return true;
    if (releaseClusterWaiters())
      released = true;
    if (!released)
      return reportDeadlock();
  }
}

std::string Launch::run() {
  buffers = cfg.buffers;
  for (const std::vector<uint8_t> &g : module.globals)
    buffers.push_back({g.data(), g.size()});
  std::sort(buffers.begin(), buffers.end(),
            [](const WarpSimBuffer &a, const WarpSimBuffer &b) {
              return (uintptr_t)a.base < (uintptr_t)b.base;
            });
  // Each dimension is checked before the product so that it cannot wrap.
  uint64_t threads = 1;
  for (unsigned d = 0; d < 3; ++d)
    threads *= std::min(cfg.block[d], 1025u);
  if (threads == 0 || threads > 1024)
    return "error: a block has 1..1024 threads, not " +
           std::to_string((uint64_t)cfg.block[0] * cfg.block[1] * cfg.block[2]);
  // The cluster shape: the kernel's .reqnctapercluster, else the launch's.
  bool kernelShape = fn.clusterShape[0] != 0;
  bool launchShape = cfg.cluster[0] * cfg.cluster[1] * cfg.cluster[2] != 1;
  auto dims = [](const unsigned d[3]) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
           std::to_string(d[2]);
  };
  if (kernelShape && launchShape &&
      !std::equal(fn.clusterShape, fn.clusterShape + 3, cfg.cluster))
    return "error: a launch in clusters of " + dims(cfg.cluster) + " of '" +
           fn.name + "', whose .reqnctapercluster is " + dims(fn.clusterShape);
  const unsigned *shape = kernelShape ? fn.clusterShape : cfg.cluster;
  uint64_t blocksPerCluster = 1;
  for (unsigned d = 0; d < 3; ++d) {
    if (shape[d] == 0 || shape[d] > 255)
      return "error: a cluster dimension is 1..255, not " +
             std::to_string(shape[d]);
    blocksPerCluster *= shape[d];
    cluster[d] = shape[d];
  }
  if (blocksPerCluster > 255)
    return "error: a cluster of " + dims(shape) + " blocks, more than 255";
  clusterBlocks = (unsigned)blocksPerCluster;
  explicitCluster = fn.explicitCluster || kernelShape || launchShape;
  for (unsigned d = 0; d < 3; ++d)
    if (cfg.grid[d] % cluster[d])
      return "error: the grid " + dims(cfg.grid) +
             " is not a multiple of the cluster " + dims(cluster) +
             " in each dimension";
  // The largest dynamic shared memory of any target, whether the kernel
  // uses it or not: a launch asking for more fails on a device too.
  constexpr unsigned kMaxDynamicShared = 200 * 1024;
  if (cfg.dynamicShared > kMaxDynamicShared)
    return "error: " + std::to_string(cfg.dynamicShared) +
           " bytes of dynamic shared memory, more than the " +
           std::to_string(kMaxDynamicShared) + " a block may have";
  // What one cluster's simulation holds: every lane's registers and their
  // undefined bits, the shared window and every thread's local memory, of
  // each of its blocks.
  constexpr uint64_t kMaxClusterState = 1ull << 30;
  warpsPerBlock = (unsigned)(threads + 31) / 32;
  uint64_t state = uint64_t(warpsPerBlock) * 32 *
                       (fn.regs.size() * 2 * sizeof(uint64_t) + fn.localBytes) +
                   (fn.usesDynamicShared ? fn.dynamicSharedOffset + cfg.dynamicShared
                                         : fn.sharedBytes) *
                       (checkRaces() ? 1 + sizeof(ShadowByte) : 1);
  if (state * clusterBlocks > kMaxClusterState)
    return "error: simulating " +
           (clusterBlocks > 1 ? "a cluster of " + std::to_string(clusterBlocks) +
                                    " blocks"
                              : std::string("a block")) +
           " of " + std::to_string(threads) + " threads of '" + fn.name +
           "' needs " + std::to_string(state * clusterBlocks) +
           " bytes, more than the simulator's limit of " +
           std::to_string(kMaxClusterState);
  cfg.stats.threads += threads * cfg.grid[0] * cfg.grid[1] * cfg.grid[2];
  // Co-resident blocks: a grid of blocks along x without clusters or
  // cluster instructions, in groups of kCoresidentBlocks that run together.
  constexpr unsigned kCoresidentBlocks = 8;
  bool clusterInstructions = std::any_of(fn.insts.begin(), fn.insts.end(), [](const Inst &I) {
    return I.op == Op::ClusterArrive || I.op == Op::ClusterWait || I.op == Op::Mapa;
  });
  coresident = (cfg.flags & WARP_SIM_CORESIDENT_BLOCKS) && clusterBlocks == 1 &&
               !explicitCluster && !clusterInstructions && cfg.grid[1] == 1 &&
               cfg.grid[2] == 1 && state * kCoresidentBlocks <= kMaxClusterState;
  unsigned together = coresident ? kCoresidentBlocks : 1;
  unsigned first[3];
  for (first[2] = 0; first[2] < cfg.grid[2]; first[2] += cluster[2])
    for (first[1] = 0; first[1] < cfg.grid[1]; first[1] += cluster[1])
      for (first[0] = 0; first[0] < cfg.grid[0]; first[0] += cluster[0] * together)
        if (!runClusters(first, std::min(together, (cfg.grid[0] - first[0]) / cluster[0])))
          return report;
  return "";
}

std::string launch(const Module &module, const Function &fn,
                   LaunchConfig &cfg) {
  Launch l(module, fn, cfg);
  return l.run();
}

} // namespace warp::sim
