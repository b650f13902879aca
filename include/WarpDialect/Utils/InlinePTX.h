//===- InlinePTX.h - the one builder of inline PTX --------------*- C++ -*-===//
//
// Where NVVM has no op or intrinsic for an instruction (fns.b32) or for a
// pairing the backend would not form (CUB's predicated scan step), the
// lowerings write PTX through llvm.inline_asm, always through this builder.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_UTILS_INLINEPTX_H
#define WARPDIALECT_UTILS_INLINEPTX_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace mlir::warp {

/// One block of inline PTX: the text in pieces, and the operands, each with
/// its constraint ("r" for a 32-bit integer register, "f" for an f32 one,
/// "b" for a predicate), that `$k` names in it. The results are `$0`, `$1`,
/// ..., the operands follow them.
class InlinePTX {
public:
  explicit InlinePTX(StringRef resultConstraint)
      : InlinePTX(ArrayRef<StringRef>{resultConstraint}) {}
  explicit InlinePTX(ArrayRef<StringRef> resultConstraints);

  /// `value` (an i32) as the text of an operand: a constant written in, or
  /// the next `$k`.
  std::string i32(Value value);

  /// `value` as the next `$k` with `constraint`.
  std::string operand(Value value, StringRef constraint);

  InlinePTX &operator<<(const Twine &piece) {
    text += piece.str();
    return *this;
  }

  /// The llvm.inline_asm of the block without side effects: LLVM may move,
  /// merge or drop it like any pure instruction.
  Value create(OpBuilder &builder, Location loc, Type result) const;

  /// The volatile llvm.inline_asm of the block, marked convergent (which
  /// the LLVM IR translation turns into a convergent call,
  /// lib/Target/LLVMIRTranslation.cpp), so LLVM neither moves nor
  /// duplicates it: for a block holding a collective.
  Value createConvergent(OpBuilder &builder, Location loc, Type result) const;

  /// createConvergent for a block with several results, one per type.
  SmallVector<Value> createConvergent(OpBuilder &builder, Location loc,
                                      TypeRange results) const;

private:
  Value build(OpBuilder &builder, Location loc, Type result,
              bool hasSideEffects) const;

  std::string text, constraints;
  unsigned numResults;
  SmallVector<Value, 3> operands;
};

} // namespace mlir::warp

#endif // WARPDIALECT_UTILS_INLINEPTX_H
