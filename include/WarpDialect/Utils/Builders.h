//===- Builders.h - Small IR building helpers of the lowerings --*- C++ -*-===//
//
// What the expansions (Transforms) and the NVVM conversion (Conversion) both
// build: i32 constants, member masks and the convergence mark of a lowered
// collective.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_UTILS_BUILDERS_H
#define WARPDIALECT_UTILS_BUILDERS_H

#include "mlir/IR/Builders.h"

namespace mlir::warp {

/// An i32 arith.constant.
Value buildI32Constant(OpBuilder &builder, Location loc, int64_t value);

/// An scf.if without results on `condition` whose then-block `body` builds
/// (at the block's end, before its yield); the builder's insertion point
/// is left after the scf.if.
void buildIfThen(OpBuilder &builder, Location loc, Value condition,
                 function_ref<void()> body);

/// The executing thread's number in its block, x + X * (y + Y * z), and the
/// block's size X * Y * Z, as i32 values. With a known_block_size around
/// `op` the sizes are constants (a thread id of a dimension of size 1 is
/// 0), so that the arithmetic folds.
std::pair<Value, Value> buildBlockThreadAndCount(OpBuilder &builder,
                                                 Location loc, Operation *op);

/// The lanes of the executing thread's warp that exist in its block of
/// `threads` threads (`thread` its number, both i32): the number of them
/// (32 but in a ragged last warp) and their mask, (1 << live) - 1.
std::pair<Value, Value> buildWarpLiveLanes(OpBuilder &builder, Location loc,
                                           Value thread, Value threads);

/// `mask`, or the all-lanes constant -1 where the op has no member mask.
Value buildMemberMaskOrAll(OpBuilder &builder, Location loc, Value mask);

/// PTX's `fns.b32 d, mask, base, offset` (NVVM has no intrinsic for it, so
/// one inline PTX instruction without side effects): the lane of the
/// `offset`-th set bit of `mask` counted upwards from `base` (offset > 0) or
/// downwards from it (offset < 0; -1 is the first set bit at or below
/// `base`), or 0xffffffff where there is none. All operands are i32.
Value buildFindNthSet(OpBuilder &builder, Location loc, Value mask,
                      Value base, Value offset);

/// A radix sort key's unsigned image (an integer of its width), the order
/// warp.block_radix_sort and warp.device_radix_sort sort by: integers as
/// they are or, `isSigned`, with the sign bit flipped; floats with every
/// bit flipped when the sign bit is set and only the sign bit otherwise;
/// complemented where `descending`.
Value buildRadixImage(OpBuilder &builder, Location loc, Value key,
                      bool isSigned, bool descending);

/// The key of `keyType` whose buildRadixImage is `image`.
Value buildRadixKey(OpBuilder &builder, Location loc, Value image,
                    Type keyType, bool isSigned, bool descending);

/// Pins a lowered collective (an NVVM shuffle, vote, match, redux, warp
/// barrier or activemask) to its program point. MLIR has no notion of
/// convergence: region simplification merges structurally identical blocks
/// (e.g. the two arms of a branch), which would make the lanes of both arms
/// execute one collective together. Each marked op carries a distinct
/// attribute (kConvergentAttrName, WarpDialect.h), so no two blocks holding
/// collectives are ever identical. LLVM itself keeps the calls in place
/// because their intrinsics are convergent.
void markConvergent(Operation *op);

} // namespace mlir::warp

#endif // WARPDIALECT_UTILS_BUILDERS_H
