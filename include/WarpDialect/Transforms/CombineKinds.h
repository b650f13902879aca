//===- CombineKinds.h - IR building helpers of the warp lowerings -*- C++
//-*-===//
//
// How each warp combine kind combines two values and what its identity is
// (the identities warp.scan documents), plus the small constants both the
// expansion and the NVVM conversion build.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TRANSFORMS_COMBINEKINDS_H
#define WARPDIALECT_TRANSFORMS_COMBINEKINDS_H

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::warp {

/// An i32 arith.constant.
Value buildI32Constant(OpBuilder &builder, Location loc, int64_t value);

/// `mask`, or the all-lanes constant -1 where the op has no member mask.
Value buildMemberMaskOrAll(OpBuilder &builder, Location loc, Value mask);

/// Emits `lhs (kind) rhs` with arith ops (vector::makeArithReduction, `lhs`
/// first); vectors combine element-wise.
Value buildCombine(OpBuilder &builder, Location loc, CombineKind kind,
                   Value lhs, Value rhs);

/// Emits `lhs (op) rhs` for tuples, `lhs` first: with `kind`, buildCombine of
/// the one value; else a copy of the ops of `region` (a reduce's or scan's
/// combiner: its block takes the left tuple, then the right one, and yields
/// the combined tuple). The one place where a combiner becomes ops.
SmallVector<Value, 4> buildTupleCombine(OpBuilder &builder, Location loc,
                                        std::optional<CombineKind> kind,
                                        Region *region, ValueRange lhs,
                                        ValueRange rhs);

/// Pins a lowered collective (an NVVM shuffle, vote, match, redux, warp
/// barrier or activemask) to its program point. MLIR has no notion of
/// convergence: region simplification merges structurally identical blocks
/// (e.g. the two arms of a branch), which would make the lanes of both arms
/// execute one collective together. Each marked op carries a distinct
/// attribute (kConvergentAttrName), so no two blocks holding collectives are
/// ever identical. LLVM itself keeps the calls in place because their
/// intrinsics are convergent.
void markConvergent(Operation *op);

/// Emits the identity of `kind` for `type` (a splat for vectors): combining
/// it with any x gives x (for `add` on floats, +0.0, as CUB and torch use).
/// This is what an exclusive scan's first lane gets, so it is not upstream's
/// arith::getIdentityValueAttr, whose identity for minnumf/maxnumf is NaN
/// where warp.scan documents +inf/-inf (as CUB and torch give). An
/// arith.constant, except for minsi/maxsi over index, whose identities
/// (INT_MAX, INT_MIN) depend on the width index lowers to: index-dialect
/// arithmetic there, folded once the width is known.
Value buildCombineIdentity(OpBuilder &builder, Location loc, CombineKind kind,
                           Type type);

/// Emits a value that leaves every x unchanged, bit for bit, when combined
/// with it (a splat for vectors), for padding lanes that must not count: the
/// identity, except -0.0 for float `add` (x + +0.0 turns -0.0 into +0.0) and
/// NaN for `minnumf`/`maxnumf` (which ignore a NaN operand; +-inf would turn
/// an all-NaN reduction into +-inf). Index as buildCombineIdentity.
Value buildCombinePadding(OpBuilder &builder, Location loc, CombineKind kind,
                          Type type);

/// Whether every value is an integer (or a vector of integers): a combine
/// kind then gives the same bits in any order and grouping, so a lowering
/// may pick its combine order freely.
bool areIntegers(ValueRange values);

/// The PTX instruction of CUB's predicated scan step for `kind` over `type`
/// (an i32 or f32 word), if it has one: after `shfl.sync.up.b32 r|p, x, ...`,
/// `@p <instruction> r, r, x` combines the partner only where the shuffle's
/// valid bit says it lies in the segment (add.s32, add.rn.f32, the bitwise
/// and integer min/max kinds, mul.lo.s32). The warp.scan expansion tests its
/// partners with the valid bit only for these (as ScanStepPreference
/// chooses, Passes.h), and the NVVM conversion (WarpToNVVM.cpp) fuses
/// `valid ? partner (kind) x : partner` into that pair of instructions.
std::optional<StringRef> getPredicatedScanStep(CombineKind kind, Type type);

} // namespace mlir::warp

#endif // WARPDIALECT_TRANSFORMS_COMBINEKINDS_H
