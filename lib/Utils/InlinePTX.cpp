//===- InlinePTX.cpp - the one builder of inline PTX ----------------------===//

#include "WarpDialect/Utils/InlinePTX.h"

#include "WarpDialect/Utils/Builders.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::warp;

InlinePTX::InlinePTX(ArrayRef<StringRef> resultConstraints)
    : numResults(resultConstraints.size()) {
  for (StringRef constraint : resultConstraints)
    constraints += ((constraints.empty() ? "=" : ",=") + constraint).str();
}

std::string InlinePTX::i32(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return std::to_string(int32_t(*constant));
  return operand(value, "r");
}

std::string InlinePTX::operand(Value value, StringRef constraint) {
  operands.push_back(value);
  constraints += ("," + constraint).str();
  return "$" + std::to_string(numResults + operands.size() - 1);
}

Value InlinePTX::build(OpBuilder &b, Location loc, Type result,
                       bool hasSideEffects) const {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, result, operands, text, constraints, hasSideEffects,
      /*is_align_stack=*/false, LLVM::TailCallKind::None,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  if (hasSideEffects)
    markConvergent(op);
  return op.getResult(0);
}

Value InlinePTX::create(OpBuilder &b, Location loc, Type result) const {
  return build(b, loc, result, /*hasSideEffects=*/false);
}

Value InlinePTX::createConvergent(OpBuilder &b, Location loc,
                                  Type result) const {
  return build(b, loc, result, /*hasSideEffects=*/true);
}

SmallVector<Value> InlinePTX::createConvergent(OpBuilder &b, Location loc,
                                               TypeRange results) const {
  if (results.size() == 1)
    return {createConvergent(b, loc, results.front())};
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                               llvm::to_vector(results));
  Value all = createConvergent(b, loc, type);
  SmallVector<Value> values;
  for (int64_t i = 0, e = results.size(); i < e; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, all, i));
  return values;
}
