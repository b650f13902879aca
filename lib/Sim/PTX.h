//===- PTX.h - The decoded PTX subset the interpreter runs -----*- C++ -*-===//
//
// The parser (Parser.cpp) turns PTX text into these structures once; the
// interpreter (Interpreter.cpp) never looks at text again except to quote an
// instruction in a report.
//
//===----------------------------------------------------------------------===//
#ifndef WARP_LIB_SIM_PTX_H
#define WARP_LIB_SIM_PTX_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warp::sim {

/// PTX instruction types (the `.b32`, `.f16x2`... suffixes). The parser's
/// name tables follow the order of these enums (Parser.cpp).
enum class Ty : uint8_t {
  None, Pred,
  B8, B16, B32, B64,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
  // Packed integer halves of a .b32 (sm_90) and f32 pairs of a .b64 (sm_100).
  U16x2, S16x2, F32x2,
  // An f32 of which only the top 19 bits count: mma.sync operands only (the
  // parser reads `.tf32` there and nowhere else).
  TF32,
  // The fp8 formats, mma.sync operands only too: e4m3 (no infinities, NaN
  // S.1111.111) and e5m2 (IEEE-like).
  E4M3, E5M2,
};
unsigned bitWidth(Ty t);
bool isSigned(Ty t);
bool isFloat(Ty t);
/// The two-element types: f16x2, bf16x2, u16x2, s16x2 (in a .b32) and f32x2
/// (in a .b64). Element 0 is the low half.
bool isPacked(Ty t);
/// The element type of a packed type; any other type is its own element.
Ty elementOf(Ty t);

/// Shared is the executing block's window (shared::cta); SharedCluster the
/// windows of every block of the cluster (shared::cluster), addressed as
/// kClusterRankShift below says.
enum class Space : uint8_t { Generic, Global, Shared, Local, Param, SharedCluster };

/// Rounding modifiers (.rn ... on floats, .rni ... to integral values).
enum class Round : uint8_t { None, RN, RZ, RM, RP, RNI, RZI, RMI, RPI };

enum class SReg : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ,
  NctaidX, NctaidY, NctaidZ, LaneId, WarpId, NWarpId,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  // Thread-block clusters (sm_90).
  ClusterCtarank, ClusterNctarank, ClusterCtaidX, ClusterCtaidY, ClusterCtaidZ,
  ClusterNctaidX, ClusterNctaidY, ClusterNctaidZ, ClusteridX, ClusteridY,
  ClusteridZ, NclusteridX, NclusteridY, NclusteridZ, IsExplicitCluster,
};

enum class Op : uint8_t {
  Mov, Add, Sub, Mul, Mad, Fma, Div, Rem, Neg, Abs, Min, Max,
  And, Or, Xor, Not, CNot, Shl, Shr, Setp, Selp, Cvt, Cvta,
  Popc, Clz, Brev, Bfind, Prmt, Bfe, Bfi, Fns, Copysign, Ex2,
  Ld, St, Atom, Red, Bra, Ret, Exit,
  // Collectives: a lane waits until its member mask has arrived.
  Shfl, Vote, Match, Redux, BarWarpSync, Elect,
  Activemask, BarSync,
  // Warp-wide matrix collectives (.sync.aligned, no member mask operand).
  Mma, Ldmatrix, Stmatrix,
  // A pause of the lane (a look-back's poll): nothing to simulate.
  Nanosleep,
  // Asynchronous copies global -> shared, per thread: cp.async and its
  // cp.async.commit_group, .wait_group N and .wait_all.
  CpAsync, CpAsyncCommit, CpAsyncWait, CpAsyncWaitAll,
  // Thread-block clusters: barrier.cluster.arrive and .wait (per thread, no
  // operands), and mapa (a shared address in another block of the cluster).
  ClusterArrive, ClusterWait, Mapa,
  // Funnel shift of two 32-bit words (shf.l / shf.r, .wrap or .clamp).
  Shf,
  // A mask of b bits from bit a (bmsk.wrap / bmsk.clamp; CUB's digit
  // extractor).
  Bmsk,
};
/// mma.sync, ldmatrix and stmatrix: every lane of the warp takes part.
inline bool isMatrixOp(Op op) {
  return op == Op::Mma || op == Op::Ldmatrix || op == Op::Stmatrix;
}
/// cp.async and the instructions on its groups.
inline bool isAsyncCopy(Op op) {
  return op == Op::CpAsync || op == Op::CpAsyncCommit ||
         op == Op::CpAsyncWait || op == Op::CpAsyncWaitAll;
}
inline bool isWarpCollective(Op op) {
  return op == Op::Shfl || op == Op::Vote || op == Op::Match ||
         op == Op::Redux || op == Op::BarWarpSync || op == Op::Elect ||
         isMatrixOp(op);
}

/// Sub-operations: setp comparisons, shfl/vote/atom/redux modes.
enum class Sub : uint8_t {
  None,
  // comparisons
  Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num,
  Nan,
  // shuffle modes
  Up, Down, Bfly, Idx,
  // vote modes
  Any, All, Uni, Ballot,
  // atom/redux/setp-combine operations
  OpAdd, OpMin, OpMax, OpAnd, OpOr, OpXor, OpExch, OpCas, OpInc, OpDec,
  // funnel shift directions
  Left, Right,
};

enum Flag : uint16_t {
  FlagFtz = 1, FlagSat = 2, FlagNaN = 4, FlagAbs = 8, FlagHi = 16,
  FlagLo = 32, FlagWide = 64, FlagTo = 128, FlagApprox = 256,
  FlagShiftAmt = 512, FlagFull = 1024, FlagRelu = 2048,
  FlagSatFinite = 4096, ///< mma .satfinite (integer: clamp to s32)
  FlagTrans = 8192,     ///< ldmatrix/stmatrix .trans
  FlagCacheGlobal = 16384, ///< cp.async .cg (cp-size 16 only)
  FlagClamp = 32768,       ///< shf .clamp (else .wrap)
};

struct Operand {
  enum Kind : uint8_t { None, Reg, Imm, Special, Mem, Vec, Sink, Label };
  Kind kind = None;
  bool negate = false; ///< `!%p`
  int reg = -1;        ///< Reg; Mem: base register or -1
  int reg2 = -1;       ///< `%r|%p`: the predicate half of a destination
  bool pair = false;   ///< written `a|b` (reg2 stays -1 for `a|_`)
  uint64_t imm = 0;    ///< Imm; Mem: symbol address + offset
  SReg sreg = SReg::TidX;
  Space symSpace = Space::Generic; ///< Imm from a symbol / Mem on a symbol
  bool isSymbol = false;
  int label = -1;
  std::vector<Operand> elems; ///< Vec
};

struct Inst {
  Op op = Op::Mov;
  Ty ty = Ty::None;   ///< the (destination) type
  Ty ty2 = Ty::None;  ///< cvt source type; mma: the A type
  Ty ty3 = Ty::None;  ///< mma: the B type (C's is D's, ty)
  uint8_t shapeK = 0; ///< mma: K of the shape m16n8kK
  Space space = Space::Generic;
  Round rnd = Round::None;
  Sub sub = Sub::None;  ///< mode / comparison / atomic operation
  Sub sub2 = Sub::None; ///< setp's .and/.or/.xor combine
  uint16_t flags = 0;
  uint8_t vec = 1;      ///< .v2/.v4; ldmatrix/stmatrix: the .xN matrices
  int guard = -1;       ///< guard predicate register, -1 if none
  bool guardNeg = false;
  std::vector<Operand> ops;
  int line = 0;
  std::string text;
};

struct RegInfo {
  std::string name;
  unsigned bits; ///< 1 for .pred
};

struct Param {
  std::string name;
  unsigned size;
  unsigned offset;
};

struct Function {
  std::string name;
  std::vector<Param> params;
  unsigned paramBytes = 0;
  std::vector<RegInfo> regs;
  std::vector<Inst> insts;
  unsigned sharedBytes = 0; ///< static shared memory of the block
  bool usesDynamicShared = false;
  unsigned dynamicSharedOffset = 0;
  unsigned localBytes = 0;  ///< per thread
  /// .reqnctapercluster X, Y, Z (all 0 without it): every launch runs in
  /// clusters of this shape.
  unsigned clusterShape[3] = {0, 0, 0};
  bool explicitCluster = false; ///< .explicitcluster
};

struct Module {
  std::vector<std::unique_ptr<Function>> functions;
  std::map<std::string, Function *> entries;
  /// Module-scope .global variables (host memory the kernels may access).
  std::vector<std::vector<uint8_t>> globals;
};

/// Parses `text`; on failure returns null and sets `error` ("line N: ...").
std::unique_ptr<Module> parsePTX(const std::string &text, std::string &error);

/// Tags of generic addresses in the shared and local windows (host
/// pointers of global memory never have these bits set).
constexpr uint64_t kSharedWindow = 1ull << 62;
constexpr uint64_t kLocalWindow = 1ull << 61;

/// Shared memory addresses. A shared::cta address is the byte offset in the
/// executing block's shared memory. A shared::cluster address (what mapa
/// returns) is `(rank + 1) << kClusterRankShift | offset`: the offset in the
/// shared memory of the block of rank `rank` in the cluster; it fits in 32
/// bits (mapa.u32), as a block has less than 2^24 bytes of shared memory
/// and a cluster less than 255 blocks. Rank bits 0 name the executing
/// block, so a shared::cta address is also the shared::cluster address of
/// its own block's window. Generic addresses of either carry kSharedWindow
/// on top.
constexpr unsigned kClusterRankShift = 24;
constexpr uint64_t kSharedOffsetMask = (1ull << kClusterRankShift) - 1;

} // namespace warp::sim

#endif // WARP_LIB_SIM_PTX_H
