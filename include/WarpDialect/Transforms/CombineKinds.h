//===- CombineKinds.h - arithmetic of the reduce/scan kinds -----*- C++ -*-===//
//
// How each warp combine kind combines two values and what its identity is.
// The expansion of reductions and scans is the only user; the identities are
// the ones warp.scan documents.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TRANSFORMS_COMBINEKINDS_H
#define WARPDIALECT_TRANSFORMS_COMBINEKINDS_H

#include "WarpDialect/IR/WarpDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::warp {

/// Emits `lhs (kind) rhs` with arith ops; vectors combine element-wise.
Value buildCombine(OpBuilder &builder, Location loc, CombineKind kind,
                   Value lhs, Value rhs);

/// The identity of `kind` for `type` (a splat for vectors): combining it with
/// any x gives x (for `add` on floats, +0.0, as CUB and torch use).
TypedAttr getCombineIdentity(CombineKind kind, Type type);

} // namespace mlir::warp

#endif // WARPDIALECT_TRANSFORMS_COMBINEKINDS_H
