//===- CombineKinds.h - the one table of the combine kinds ------*- C++ -*-===//
//
// Everything the layers know about a combine kind (add, mul, the min/max
// kinds, and, or, xor), as one row per kind: upstream's names of the same
// operation (vector, gpu, arith), the domains it takes, its identity and
// padding, whether redux.sync or CUB's predicated scan step can do it. The
// verifiers, convert-gpu-to-warp, the expansions, the NVVM conversion, the
// chip table and (through the C API) the Python builder all read it; none
// spells a kind out again. Also the builders of a kind's arithmetic, and
// the table of warp.atomic_rmw's kinds (their combine kind and upstream's
// atomic of each).
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_IR_COMBINEKINDS_H
#define WARPDIALECT_IR_COMBINEKINDS_H

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::warp {

/// A constant a kind's identity or padding takes, before it meets a type.
enum class KindConstant {
  Zero,
  One,
  AllOnes,
  SignedMax,
  SignedMin,
  PosInf,
  NegInf,
  NegZero,
  NaN
};

/// One row of the kind table. Every kind is commutative; on integers every
/// kind is also associative, so any combine order gives the same bits.
struct CombineKindInfo {
  CombineKind kind;
  /// Upstream's names of the same operation.
  vector::CombiningKind vectorKind;
  gpu::AllReduceOperation gpuOperation;
  /// The arith ops that compute it on integers and on floats; empty where
  /// the kind does not take that domain (integer-only, float-only kinds).
  llvm::StringLiteral integerOp, floatOp;
  /// combine(x, x) == x: a reduction of a uniform value is the value.
  bool idempotent;
  /// What `redux.sync` calls it, where redux.sync can do it at all (on
  /// integers of up to 32 bits, or on f32 for the float kinds).
  std::optional<NVVM::ReduxKind> redux;
  /// CUB's predicated scan step: the PTX instruction that follows
  /// `shfl.sync.up.b32 r|p` on an i32 and on an f32 word (empty: none).
  llvm::StringLiteral i32Step, f32Step;
  /// Whether LLVM folds the select of an integer scan's last step before
  /// its combine (the kind has an identity operand it folds), so that
  /// ptxas can merge that combine with an add after the scan.
  bool foldsLastSelect;
  /// The identity on integers and floats (what an exclusive scan's first
  /// lane gets: +0.0 for float add, +-inf for the float min/max kinds, as
  /// CUB and torch give), and the float padding, which leaves every x
  /// unchanged bit for bit (-0.0 for add; NaN for minnumf/maxnumf, which
  /// ignore a NaN operand). Integers pad with their identity.
  KindConstant integerIdentity, floatIdentity, floatPadding;

  bool isFloatOnly() const { return integerOp.empty(); }
  bool isIntegerOnly() const { return floatOp.empty(); }
};

/// The row of `kind`.
const CombineKindInfo &getCombineKindInfo(CombineKind kind);

/// Every row, in the order of the CombineKind enum.
ArrayRef<CombineKindInfo> getCombineKindTable();

/// The kind of upstream's `gpu.all_reduce` / `gpu.subgroup_reduce`
/// operation.
CombineKind getCombineKind(gpu::AllReduceOperation operation);

/// One row of the atomic kind table (warp.atomic_rmw): the combine kind a
/// group's values are scanned with (none for exch, which stores the value),
/// and memref.atomic_rmw's name of the operation on integers and on floats
/// (none where the kind takes no integers or no floats).
struct AtomicKindInfo {
  AtomicKind kind;
  std::optional<CombineKind> combine;
  std::optional<arith::AtomicRMWKind> onIntegers;
  std::optional<arith::AtomicRMWKind> onFloats;
};

/// Whether `kind` is a float min/max (minnumf, maxnumf): a compare-and-swap
/// loop on every chip and float type.
bool isFloatMinMaxAtomic(AtomicKind kind);

/// The row of `kind`.
const AtomicKindInfo &getAtomicKindInfo(AtomicKind kind);

/// The bits an atomic's value (warp.atomic_rmw's types) occupies in memory:
/// 16, 32 or 64; a packed pair counts both halves.
unsigned getAtomicBitWidth(Type type);

/// The kind an arith op computes (arith.addi and arith.addf are `add`, ...),
/// if it is one of the table's.
std::optional<CombineKind> getCombineKindOfArithOp(Operation *op);

/// Whether `kind` takes only floats (minnumf, maxnumf, minimumf, maximumf).
bool isFloatOnlyKind(CombineKind kind);
/// Whether `kind` takes only integers (the min/max integer kinds, and, or,
/// xor).
bool isIntegerOnlyKind(CombineKind kind);
/// Fails with "kind K needs an integer / a floating-point value" on `op`
/// where `type` (or its element type) is outside the kind's domain.
LogicalResult verifyKindMatchesType(Operation *op, CombineKind kind, Type type);

/// Whether `redux.sync` reduces `type` with `kind` on some chip: scalar
/// integers of up to 32 bits (widened to i32) for every kind but mul, or
/// f32 for the float min/max kinds (Chip::supportsRedux adds the chip).
bool isReduxPayload(CombineKind kind, Type type);

/// Emits `lhs (kind) rhs` with arith ops (vector::makeArithReduction, `lhs`
/// first); vectors combine element-wise.
Value buildCombine(OpBuilder &builder, Location loc, CombineKind kind,
                   Value lhs, Value rhs);

/// Copies the ops of `region`'s one block at `builder`'s insertion point,
/// its block arguments standing for `arguments`, and returns the values
/// its terminator yields (their copies). How a combiner or a device
/// selection's predicate becomes ops.
SmallVector<Value, 4> inlineRegion(OpBuilder &builder, Region &region,
                                   ValueRange arguments);

/// Emits `lhs (op) rhs` for tuples, `lhs` first: with `kind`, buildCombine of
/// the one value; else a copy of the ops of `region` (a reduce's or scan's
/// combiner: its block takes the left tuple, then the right one, and yields
/// the combined tuple). The one place where a combiner becomes ops.
SmallVector<Value, 4> buildTupleCombine(OpBuilder &builder, Location loc,
                                        std::optional<CombineKind> kind,
                                        Region *region, ValueRange lhs,
                                        ValueRange rhs);

/// How a combining op (CombiningOpInterface: warp.reduce, warp.scan,
/// warp.block_reduce, warp.block_scan) combines a left tuple (the earlier
/// lanes') with a right one: a built-in kind, or a copy of its combiner
/// region. The one abstraction every expansion combines through.
struct Combiner {
  std::optional<CombineKind> kind;
  /// The op's combiner region; null with a kind.
  Region *region = nullptr;
  /// Whether the combine order may change: a kind, or a reduction's region
  /// marked commutative (a scan's region keeps lane order).
  bool commutative = true;

  /// The combiner of `op` (a verified op: a kind or a non-empty region).
  static Combiner of(CombiningOpInterface op);

  /// `lhs (op) rhs` (buildTupleCombine).
  SmallVector<Value, 4> operator()(OpBuilder &builder, Location loc,
                                   ValueRange lhs, ValueRange rhs) const {
    return buildTupleCombine(builder, loc, kind, region, lhs, rhs);
  }
};

/// Emits the identity of `kind` for `type` (a splat for vectors): combining
/// it with any x gives x. Not upstream's arith::getIdentityValueAttr, whose
/// identity for minnumf/maxnumf is NaN where warp.scan documents +inf/-inf.
/// An arith.constant, except for minsi/maxsi over index, whose identities
/// (INT_MAX, INT_MIN) depend on the width index lowers to: index-dialect
/// arithmetic there, folded once the width is known.
Value buildCombineIdentity(OpBuilder &builder, Location loc, CombineKind kind,
                           Type type);

/// Emits the padding of `kind` for `type` (a splat for vectors), for lanes
/// that must not count. Index as buildCombineIdentity.
Value buildCombinePadding(OpBuilder &builder, Location loc, CombineKind kind,
                          Type type);

/// Whether every value is an integer (or a vector of integers): a combine
/// kind then gives the same bits in any order and grouping, so a lowering
/// may pick its combine order freely.
bool areIntegers(ValueRange values);

/// The PTX instruction of CUB's predicated scan step for `kind` over `type`
/// (an i32 or f32 word), if it has one: after `shfl.sync.up.b32 r|p, x, ...`,
/// `@p <instruction> r, r, x` combines the partner only where the shuffle's
/// valid bit says it lies in the segment.
std::optional<StringRef> getPredicatedScanStep(CombineKind kind, Type type);

} // namespace mlir::warp

#endif // WARPDIALECT_IR_COMBINEKINDS_H
